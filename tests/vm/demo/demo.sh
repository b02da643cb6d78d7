# The demo guest: vesafb at boot (vga=0x317), then bochs and vfb; runs
# fbclassctl's commands with their output on the console.
# shellcheck shell=sh disable=SC2034
QEMU_VGA=std
KCMDLINE="vga=0x317"
MODULES="bochs vfb"

# has_cmd NAME: fbclassctl --help lists the command NAME
has_cmd() {
	fbclassctl --help 2>/dev/null | grep -qE "^  $1( |\$)"
}

scenario() {
	echo
	echo "=== framebuffers at boot: $(cat /sys/class/graphics/fb*/name 2>/dev/null | tr '\n' ' ')"
	if has_cmd coldplug; then
		t_run "fbclassctl coldplug" fbclassctl coldplug
		t_run "fbclassctl coldplug --load-modules" fbclassctl coldplug --load-modules
	else
		echo "=== (this fbclassctl has no coldplug yet: modprobe bochs, mknod by hand)"
		t_run "modprobe bochs" modprobe bochs
		sysfs_wait /sys/devices/pci0000:00/0000:00:02.0/graphics/fb0 10
	fi
	t_run "modprobe vfb vfb_enable=1 (a second framebuffer, 32 bpp)" \
		modprobe vfb vfb_enable=1 videomemorysize=4194304 mode_option=1024x768-32@60
	sysfs_wait /sys/devices/platform/vfb.0/graphics 10
	if has_cmd coldplug; then
		t_run "fbclassctl coldplug" fbclassctl coldplug
		t_run "ls -l /dev/fb*" sh -c 'ls -lR /dev/fb*'
	else
		for d in /sys/class/graphics/fb[0-9]*; do fb_mknod "${d##*/}"; done
	fi
	t_run "fbclassctl list" fbclassctl list
	t_run "fbclassctl list -o +PATH,MODULE,VISUAL,STRIDE,SIZE" \
		fbclassctl list -o +PATH,MODULE,VISUAL,STRIDE,SIZE
	t_run "fbclassctl info" fbclassctl info
	if has_cmd bench; then
		t_run "fbclassctl bench --quick" fbclassctl bench --quick
	else
		echo "=== (this fbclassctl has no bench yet)"
	fi
}
