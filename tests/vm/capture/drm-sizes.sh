# Capture: two bochs cards with qemu's EDID at two sizes (VGA 1920x1080,
# secondary-vga 1024x768): fb0 on card0, fb1 on card1.  Connector numbers
# count per type across all cards: card1's connector is Virtual-2.
# Files: drm-bochs-2cards.umockdev, qemu-1920x1080.bin, qemu-1024x768.bin.
# shellcheck shell=sh disable=SC2034,SC2016
QEMU_VGA=none
KCMDLINE=""
MODULES="bochs"
QEMU_ARGS="-device VGA,edid=on,xres=1920,yres=1080 -device secondary-vga,edid=on,xres=1024,yres=768"

scenario() {
	# record the DRM side too
	export CAPTURE_DRM=1
	t_check "modprobe bochs" modprobe bochs
	t_check "fb1 appears" sysfs_wait /sys/class/graphics/fb1 10
	t_check "card1 appears" sysfs_wait /sys/class/drm/card1 10
	sleep 1
	for c in /sys/class/drm/card0-* /sys/class/drm/card1-*; do
		m=$(head -n 1 "$c/modes")
		t_check "${c##*/} is connected" grep -qx connected "$c/status"
		cat "$c/edid" >/tmp/edid.bin
		t_is "$(wc -c </tmp/edid.bin)" 256 "${c##*/}'s EDID ($m) is 256 bytes"
		out_file /tmp/edid.bin "qemu-$m.bin"
	done
	/vm/capture-sysfs.sh >/tmp/drm-bochs-2cards.umockdev
	t_is "$(grep -c '^E: SUBSYSTEM=drm$' /tmp/drm-bochs-2cards.umockdev)" 4 "two cards, two connectors"
	out_file /tmp/drm-bochs-2cards.umockdev drm-bochs-2cards.umockdev
}
