# cirrus-drm on qemu's Cirrus CL-GD5446 (-vga cirrus): fb0 with a PCI
# parent, found by fbclassctl and agreeing with fbset.
# shellcheck shell=sh disable=SC2034
QEMU_VGA=cirrus
KCMDLINE=""
MODULES="cirrus"

scenario() {
	t_is "$(fb_count)" 0 "no framebuffer before the driver loads"
	t_is "$(fbclassctl list -n 2>/dev/null; echo "exit $?")" "exit 0" \
		"list prints no rows and exits 0 without framebuffers"
	t_check "list says there are none" sh -c 'fbclassctl list 2>&1 | grep -i "no framebuffer"'
	t_check "modprobe cirrus" modprobe cirrus
	t_check "fb0 appears under the PCI device" \
		sysfs_wait /sys/devices/pci0000:00/0000:00:02.0/graphics/fb0 10
	fb_mknod fb0
	t_is "$(fb_list_field fb0 driver)" cirrus "list shows driver cirrus"
	t_is "$(fb_list_field fb0 module)" cirrus "list shows module cirrus"
	t_is "$(fb_list_field fb0 path)" pci-0000:00:02.0 "list shows path pci-0000:00:02.0"
	t_is "$(fb_list_field fb0 id)" "$(cat /sys/class/graphics/fb0/name)" "list ID is the fix.id"
	fb_vs_fbset fb0
}
