# snap on cirrus-drm at 16 bpp (RGB565): a pattern written by fbtool, the
# PNG decoded on the host and compared pixel by pixel, 5- and 6-bit
# components expanded over the full range.
# shellcheck shell=sh disable=SC2034
QEMU_VGA=cirrus
KCMDLINE=""
MODULES="cirrus"
GUEST_HELPERS="fbtool"

scenario() {
	t_check "modprobe cirrus" modprobe cirrus
	t_check "fb0 appears" sysfs_wait /sys/class/graphics/fb0 10
	fb_mknod fb0
	fbcon_unbind
	t_is "$(fbclassctl list -n -o FORMAT 2>/dev/null)" RGB565 "cirrus runs at RGB565"
	t_check "fbtool writes the pattern" fbtool pattern /dev/fb0 /tmp/cirrus16.rgb
	t_check "fbclassctl snap fb0" fbclassctl snap fb0 /tmp/cirrus16.png
	out_file /tmp/cirrus16.png cirrus16.png
	out_file_gz /tmp/cirrus16.rgb cirrus16.rgb
}

host_check() {
	gzip -dc cirrus16.rgb.gz >cirrus16.rgb &&
		"${top_builddir:-.}/tests/vm/host/pngcmp" cirrus16.png cirrus16.rgb
}
