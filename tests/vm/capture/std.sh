# Capture: -vga std with vga=0x317, so vesafb owns fb0 at boot; then bochs
# takes the device over, then vfb adds fb1.  Files: vesafb.umockdev,
# fbcon.umockdev, bochs.umockdev, multi.umockdev (the whole class).
# shellcheck shell=sh disable=SC2034,SC2016
QEMU_VGA=std
KCMDLINE="vga=0x317"
MODULES="bochs vfb"

scenario() {
	t_check "vesafb owns fb0 at boot" \
		grep -qx 'VESA VGA' /sys/class/graphics/fb0/name
	t_check "fb0's parent is vesa-framebuffer.0" \
		sh -c '[ "$(basename "$(readlink /sys/class/graphics/fb0/device)")" = vesa-framebuffer.0 ]'
	/vm/capture-sysfs.sh /sys/class/graphics/fb0 >/tmp/vesafb.umockdev
	# (6.1 puts it under the platform root, 6.12 under the PCI VGA device)
	t_check "vesafb capture has the platform parent" \
		grep -qE '^P: /devices/(platform|pci0000:00/0000:00:02\.0)/vesa-framebuffer\.0$' /tmp/vesafb.umockdev
	out_file /tmp/vesafb.umockdev vesafb.umockdev

	t_check "fbcon is in the graphics class" test -e /sys/class/graphics/fbcon
	t_check "fbcon has no dev attribute" test ! -e /sys/class/graphics/fbcon/dev
	/vm/capture-sysfs.sh /sys/class/graphics/fbcon >/tmp/fbcon.umockdev
	t_check "fbcon capture" grep -q '^P: /devices/virtual/graphics/fbcon$' /tmp/fbcon.umockdev
	out_file /tmp/fbcon.umockdev fbcon.umockdev

	t_check "modprobe bochs" modprobe bochs
	t_check "bochs fb0 appears" sysfs_wait /sys/devices/pci0000:00/0000:00:02.0/graphics/fb0 10
	t_check "bochs fb0 is named bochs-drmdrmfb" \
		grep -qx 'bochs-drmdrmfb' /sys/class/graphics/fb0/name
	/vm/capture-sysfs.sh /sys/class/graphics/fb0 >/tmp/bochs.umockdev
	t_check "bochs capture has the driver's module link" \
		grep -q '^L: \.\./\.\./\.\./bus/pci/drivers/bochs-drm/module=' /tmp/bochs.umockdev
	out_file /tmp/bochs.umockdev bochs.umockdev

	t_check "modprobe vfb vfb_enable=1" modprobe vfb vfb_enable=1
	t_check "vfb's fb1 appears" sysfs_wait /sys/devices/platform/vfb.0/graphics/fb1 10
	/vm/capture-sysfs.sh >/tmp/multi.umockdev
	t_is "$(grep -c '^P: .*/graphics/' /tmp/multi.umockdev)" 3 \
		"whole-class capture has fb0, fb1 and fbcon"
	out_file /tmp/multi.umockdev multi.umockdev
}
