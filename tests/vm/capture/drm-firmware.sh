# Capture: vesafb at boot (vga=0x317) with no DRM driver loaded, so no
# /sys/class/drm; then bochs takes the device over (handoff) with qemu's
# default EDID, and vfb adds fb1, which has no card although card0 exists.
# Files: drm-vesafb.umockdev, drm-vfb.umockdev, drm-handoff.umockdev (the
# whole class: fb0 of bochs with card0, fb1 of vfb, fbcon), qemu-default.bin.
# shellcheck shell=sh disable=SC2034,SC2016
QEMU_VGA=std
KCMDLINE="vga=0x317"
MODULES="bochs vfb"

scenario() {
	# record the DRM side too
	export CAPTURE_DRM=1
	t_check "vesafb owns fb0 at boot" grep -qx 'VESA VGA' /sys/class/graphics/fb0/name
	t_check "no DRM driver: no /sys/class/drm" test ! -e /sys/class/drm/card0
	/vm/capture-sysfs.sh /sys/class/graphics/fb0 >/tmp/drm-vesafb.umockdev
	t_check "the vesafb capture has no DRM device" sh -c '! grep -q "^E: SUBSYSTEM=drm" /tmp/drm-vesafb.umockdev'
	out_file /tmp/drm-vesafb.umockdev drm-vesafb.umockdev

	t_check "modprobe bochs" modprobe bochs
	t_check "card0-Virtual-1 appears" sysfs_wait /sys/class/drm/card0-Virtual-1 10
	t_check "bochs fb0 appears" sh -c 'for i in $(seq 50); do grep -qx bochs-drmdrmfb /sys/class/graphics/fb0/name 2>/dev/null && exit 0; usleep 100000; done; exit 1'
	cat /sys/class/drm/card0-Virtual-1/edid >/tmp/edid.bin
	t_is "$(wc -c </tmp/edid.bin)" 256 "-vga std has qemu's EDID too"
	out_file /tmp/edid.bin qemu-default.bin

	t_check "modprobe vfb vfb_enable=1" modprobe vfb vfb_enable=1
	t_check "vfb's fb1 appears" sysfs_wait /sys/devices/platform/vfb.0/graphics/fb1 10
	/vm/capture-sysfs.sh /sys/class/graphics/fb1 >/tmp/drm-vfb.umockdev
	t_check "the vfb capture has no DRM device" sh -c '! grep -q "^E: SUBSYSTEM=drm" /tmp/drm-vfb.umockdev'
	out_file /tmp/drm-vfb.umockdev drm-vfb.umockdev

	/vm/capture-sysfs.sh >/tmp/drm-handoff.umockdev
	t_is "$(grep -c '^P: .*/graphics/' /tmp/drm-handoff.umockdev)" 3 "the whole class: fb0, fb1 and fbcon"
	t_is "$(grep -c '^E: SUBSYSTEM=drm$' /tmp/drm-handoff.umockdev)" 2 "... and card0 with its connector"
	out_file /tmp/drm-handoff.umockdev drm-handoff.umockdev
}
