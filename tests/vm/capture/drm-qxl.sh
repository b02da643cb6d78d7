# Capture: qxl with two heads on qemu's side (-device qxl-vga,max_outputs=2):
# fb0, card0 and the driver's default four Virtual connectors (its
# num_heads), the first connected, the rest not (no SPICE client sets a
# monitor configuration).  File: drm-qxl.umockdev.
# shellcheck shell=sh disable=SC2034,SC2016
QEMU_VGA=none
KCMDLINE=""
MODULES="qxl"
QEMU_ARGS="-device qxl-vga,max_outputs=2"

scenario() {
	# record the DRM side too
	export CAPTURE_DRM=1
	t_check "modprobe qxl" modprobe qxl
	t_check "fb0 appears" sysfs_wait /sys/class/graphics/fb0 20
	t_check "card0-Virtual-2 appears" sysfs_wait /sys/class/drm/card0-Virtual-2 10
	sleep 1
	for c in /sys/class/drm/card0-*; do
		t_diag "${c##*/}: $(cat "$c/status"), $(cat "$c/enabled"), EDID $(wc -c <"$c/edid") bytes, $(wc -l <"$c/modes") modes"
	done
	/vm/capture-sysfs.sh /sys/class/graphics/fb0 >/tmp/drm-qxl.umockdev
	t_check "the capture has two connectors" \
		test "$(grep -c '^P: /devices/.*/drm/card0/card0-' /tmp/drm-qxl.umockdev)" -ge 2
	out_file /tmp/drm-qxl.umockdev drm-qxl.umockdev
}
