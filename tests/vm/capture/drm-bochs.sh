# Capture: bochs-drm with qemu's EDID at 1280x800 (-device VGA,edid=on):
# fb0, card0 and its one connector Virtual-1, connected, with a 256-byte
# EDID; then the same with the connector's status forced off.
# Files: drm-bochs.umockdev, drm-bochs-off.umockdev, qemu-1280x800.bin.
# shellcheck shell=sh disable=SC2034,SC2016
QEMU_VGA=none
KCMDLINE=""
MODULES="bochs"
QEMU_ARGS="-device VGA,edid=on,xres=1280,yres=800"

scenario() {
	# record the DRM side too
	export CAPTURE_DRM=1
	c=/sys/class/drm/card0-Virtual-1
	t_check "modprobe bochs" modprobe bochs
	t_check "fb0 appears" sysfs_wait /sys/class/graphics/fb0 10
	t_check "card0-Virtual-1 appears" sysfs_wait "$c" 10
	t_is "$(cat "$c/status")" connected "Virtual-1 is connected"
	t_is "$(head -n 1 "$c/modes")" 1280x800 "its first mode is qemu's xres x yres"
	cat "$c/edid" >/tmp/edid.bin
	t_is "$(wc -c </tmp/edid.bin)" 256 "its EDID is a base block and one extension"
	out_file /tmp/edid.bin qemu-1280x800.bin

	/vm/capture-sysfs.sh /sys/class/graphics/fb0 >/tmp/drm-bochs.umockdev
	t_check "the capture has card0" grep -q '^P: /devices/.*/drm/card0$' /tmp/drm-bochs.umockdev
	t_check "... and its connector" grep -q '^P: /devices/.*/drm/card0/card0-Virtual-1$' /tmp/drm-bochs.umockdev
	t_check "... with the EDID's bytes" \
		grep -qx "H: edid=$(od -An -v -tx1 /tmp/edid.bin | tr -d ' \n' | tr a-f A-F)" /tmp/drm-bochs.umockdev
	out_file /tmp/drm-bochs.umockdev drm-bochs.umockdev

	# no monitor: what a doctor check for "no connected connector" reads
	echo off >"$c/status"
	t_is "$(cat "$c/status")" disconnected "status forced off"
	/vm/capture-sysfs.sh /sys/class/graphics/fb0 >/tmp/drm-bochs-off.umockdev
	t_check "the capture says disconnected" grep -qx 'A: status=disconnected\\n' /tmp/drm-bochs-off.umockdev
	out_file /tmp/drm-bochs-off.umockdev drm-bochs-off.umockdev
}
