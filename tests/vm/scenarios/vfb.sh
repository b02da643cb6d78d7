# vfb at its default 8 bpp (PSEUDOCOLOR), then 16 and 32 bpp (TRUECOLOR),
# reloading the module between; fbclassctl agrees with fbset on each.
# shellcheck shell=sh disable=SC2034
QEMU_VGA=none
KCMDLINE=""
MODULES="vfb"

tree_state() {
	find /dev /tmp /run -exec stat -c '%n %F %a %u:%g %t:%T' {} +
}

# vfb_round BPP VISUAL [MODULE PARAMETERS...]
vfb_round() {
	_bpp=$1
	_visual=$2
	shift 2
	t_check "${_bpp}bpp: modprobe vfb vfb_enable=1 $*" modprobe vfb vfb_enable=1 "$@"
	t_check "${_bpp}bpp: fb0 appears under vfb.0" sysfs_wait /sys/devices/platform/vfb.0/graphics/fb0 10
	t_is "$(cat /sys/class/graphics/fb0/bits_per_pixel)" "$_bpp" "${_bpp}bpp: sysfs bits_per_pixel"
	rm -f /dev/fb0
	# names, types, modes and numbers; not times (a removed temp dir
	# still touches its parent's mtime)
	_before=$(tree_state)
	t_is "$(fbclassctl info -J fb0 2>/dev/null | jq .framebuffers[0].var.bits_per_pixel)" "$_bpp" \
		"${_bpp}bpp: info -J without /dev/fb0 queries through a private node"
	t_is "$(tree_state)" "$_before" "${_bpp}bpp: info leaves nothing in /dev, /tmp or /run"
	fb_mknod fb0
	t_is "$(fb_list_field fb0 bpp)" "$_bpp" "${_bpp}bpp: list BPP"
	t_is "$(fb_list_field fb0 visual)" "$_visual" "${_bpp}bpp: list VISUAL"
	t_is "$(fb_list_field fb0 driver)" vfb "${_bpp}bpp: list DRIVER"
	t_is "$(fb_list_field fb0 path)" platform-vfb.0 "${_bpp}bpp: list PATH"
	fb_vs_fbset fb0
	# fbcon is bound to fb0.  On 6.12 vfb's fb_ops has an .owner, so fbcon
	# holds a reference on the module and rmmod fails (EAGAIN) until it
	# lets go; 6.1's vfb has none (and rmmod went ahead under fbcon).
	fbcon_unbind
	t_check "${_bpp}bpp: rmmod vfb (no fbclassctl holds the device)" rmmod vfb
	t_check "${_bpp}bpp: fb0 is gone" sysfs_gone /sys/class/graphics/fb0 10
}

scenario() {
	t_check "fbclassctl is in the initramfs" command -v fbclassctl
	vfb_round 8 PSEUDOCOLOR
	vfb_round 16 TRUECOLOR videomemorysize=4194304 mode_option=1024x768-16@60
	vfb_round 32 TRUECOLOR videomemorysize=4194304 mode_option=1024x768-32@60
}
