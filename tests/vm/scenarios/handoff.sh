# vesafb owns fb0 at boot (-vga std, vga=0x317); loading bochs removes it
# and a new fb0 with a PCI parent appears.  list and info before and after
# show the right parent, driver and path id, and agree with fbset.
# shellcheck shell=sh disable=SC2034
# Boots on every kernel: the handoff differs between the kernels (sysfb, the fbdev emulation).
KERNELS=all
QEMU_VGA=std
KCMDLINE="vga=0x317"
MODULES="bochs"

scenario() {
	t_check "fbclassctl is in the initramfs" command -v fbclassctl
	t_is "$(cat /sys/class/graphics/fb0/name)" "VESA VGA" "vesafb owns fb0 at boot"
	t_check "fb0: mknod from sysfs dev" fb_mknod fb0
	t_is "$(readlink -f /sys/class/graphics/fb0/device)" "$(vesafb_sysfs)" "before: vesafb's device is $(vesafb_sysfs)"

	t_is "$(fb_list_field fb0 driver)" vesa-framebuffer "before: list shows driver vesa-framebuffer"
	t_is "$(fb_list_field fb0 subsystem)" platform "before: list shows subsystem platform"
	t_is "$(fb_list_field fb0 path)" "$(vesafb_path_id)" "before: list shows path $(vesafb_path_id)"
	t_is "$(fb_list_field fb0 bpp)" 16 "before: list shows 16 bpp (vga=0x317)"
	t_is "$(fb_list_field fb0 res)" 1024x768 "before: list shows 1024x768"
	t_check "before: info names the path id" sh -c "fbclassctl info fb0 | grep -qE '^ +path +$(vesafb_path_id)\$'"
	t_is "$(fb_info_field fb0 .path)" "$(vesafb_path_id)" "before: info -J path"
	t_is "$(fb_info_field fb0 '.parents[0] | "\(.sysname) \(.subsystem) \(.driver)"')" \
		"vesa-framebuffer.0 platform vesa-framebuffer" "before: info -J parent, subsystem, driver"
	t_is "$(fb_info_field fb0 .node.correct)" true "before: info -J says /dev/fb0 is correct"
	fb_vs_fbset fb0

	t_check "modprobe bochs" modprobe bochs
	t_check "vesafb's fb0 is gone" sysfs_gone "$(vesafb_sysfs)/graphics/fb0" 10
	t_check "bochs's fb0 appears under the PCI device" \
		sysfs_wait /sys/devices/pci0000:00/0000:00:02.0/graphics/fb0 10
	t_is "$(fb_count)" 1 "exactly one framebuffer after the handoff"
	# same number 29:0, so the node made before still fits; remake it anyway
	t_check "fb0: mknod again" fb_mknod fb0

	t_is "$(fb_list_field fb0 driver)" bochs-drm "after: list shows driver bochs-drm"
	t_is "$(fb_list_field fb0 module)" bochs "after: list shows module bochs"
	t_is "$(fb_list_field fb0 subsystem)" pci "after: list shows subsystem pci"
	t_is "$(fb_list_field fb0 path)" pci-0000:00:02.0 "after: list shows path pci-0000:00:02.0"
	t_is "$(fb_list_field fb0 id)" bochs-drmdrmfb "after: list shows id bochs-drmdrmfb"
	t_check "after: info names the path id" sh -c "fbclassctl info fb0 | grep -qE '^ +path +pci-0000:00:02.0\$'"
	t_check "after: info names the driver" sh -c 'fbclassctl info fb0 | grep -F bochs-drm'
	t_is "$(fb_info_field fb0 .path)" pci-0000:00:02.0 "after: info -J path"
	t_is "$(fb_info_field fb0 '.parents[0] | "\(.sysname) \(.subsystem) \(.driver) \(.module)"')" \
		"0000:00:02.0 pci bochs-drm bochs" "after: info -J parent, subsystem, driver, module"
	fb_vs_fbset fb0
}
