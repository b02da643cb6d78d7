# Capture: qxl limited to two heads on both sides (-device
# qxl-vga,max_outputs=2 and the driver's qxl.num_heads=2): fb0, card0 and
# connectors Virtual-1 and Virtual-2.  File: drm-qxl-2heads.umockdev.
# shellcheck shell=sh disable=SC2034,SC2016
QEMU_VGA=none
KCMDLINE="qxl.num_heads=2"
MODULES="qxl"
QEMU_ARGS="-device qxl-vga,max_outputs=2"

scenario() {
	# record the DRM side too
	export CAPTURE_DRM=1
	t_check "modprobe qxl" modprobe qxl
	t_check "fb0 appears" sysfs_wait /sys/class/graphics/fb0 20
	t_check "card0-Virtual-2 appears" sysfs_wait /sys/class/drm/card0-Virtual-2 10
	sleep 1
	t_check "no third head" test ! -e /sys/class/drm/card0-Virtual-3
	for c in /sys/class/drm/card0-*; do
		t_diag "${c##*/}: $(cat "$c/status"), $(cat "$c/enabled"), EDID $(wc -c <"$c/edid") bytes, $(wc -l <"$c/modes") modes"
	done
	/vm/capture-sysfs.sh /sys/class/graphics/fb0 >/tmp/drm-qxl-2heads.umockdev
	t_is "$(grep -c '^P: /devices/.*/drm/card0/card0-' /tmp/drm-qxl-2heads.umockdev)" 2 "the capture has two connectors"
	out_file /tmp/drm-qxl-2heads.umockdev drm-qxl-2heads.umockdev
}
