# Capture: vfb at its default mode (8 bpp) and no display device, so vfb
# is fb0.  File: vfb.umockdev.
# shellcheck shell=sh disable=SC2034,SC2016
QEMU_VGA=none
KCMDLINE=""
MODULES="vfb"

scenario() {
	t_check "modprobe vfb vfb_enable=1" modprobe vfb vfb_enable=1
	t_check "vfb fb0 appears" sysfs_wait /sys/devices/platform/vfb.0/graphics/fb0 10
	t_is "$(cat /sys/class/graphics/fb0/bits_per_pixel)" 8 "vfb default is 8 bpp"
	/vm/capture-sysfs.sh /sys/class/graphics/fb0 >/tmp/vfb.umockdev
	t_check "vfb capture has the platform parent" \
		grep -q '^P: /devices/platform/vfb.0$' /tmp/vfb.umockdev
	t_check "vfb capture has the driver's module link" \
		grep -q '^L: \.\./\.\./\.\./bus/platform/drivers/vfb/module=' /tmp/vfb.umockdev
	out_file /tmp/vfb.umockdev vfb.umockdev
}
