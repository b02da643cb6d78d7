# Capture: the cirrus DRM driver (-vga cirrus): fb0, card0 and its VGA
# connector, which has no EDID from qemu.  File: drm-cirrus.umockdev.
# shellcheck shell=sh disable=SC2034,SC2016
QEMU_VGA=cirrus
KCMDLINE=""
MODULES="cirrus"

scenario() {
	# record the DRM side too
	export CAPTURE_DRM=1
	t_check "modprobe cirrus" modprobe cirrus
	t_check "fb0 appears" sysfs_wait /sys/class/graphics/fb0 10
	t_check "card0 appears" sysfs_wait /sys/class/drm/card0 10
	sleep 1
	for c in /sys/class/drm/card0-*; do
		t_diag "${c##*/}: $(cat "$c/status"), $(cat "$c/enabled"), EDID $(wc -c <"$c/edid") bytes, $(wc -l <"$c/modes") modes"
	done
	/vm/capture-sysfs.sh /sys/class/graphics/fb0 >/tmp/drm-cirrus.umockdev
	t_check "the capture has card0 and a connector" grep -q '^P: /devices/.*/drm/card0/card0-' /tmp/drm-cirrus.umockdev
	out_file /tmp/drm-cirrus.umockdev drm-cirrus.umockdev
}
