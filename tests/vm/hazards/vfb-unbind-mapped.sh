# Hazard vfb-unbind-mapped: vfb.0 unbound from its driver while a process
# has /dev/fb0 open and mapped (as bench does).  vfb_remove frees the
# fb_info that the open file and the mapping still use.  6.1.176 warns
# ("WARNING: ... at drivers/video/fbdev/core/fbsysfs.c:84
# framebuffer_release", from vfb_remove); 6.1.192 and 6.12 do not.
# shellcheck shell=sh disable=SC2034
HAZARD=vfb-unbind-mapped
QEMU_VGA=none
KCMDLINE="fbcon=map:9"
MODULES="vfb"
GUEST_HELPERS="fbtool"

scenario() {
	t_check "vfb loads as fb0" vfb_up fb0 videomemorysize=4194304 mode_option=640x480-32@60
	rm -f /tmp/ready
	fbtool hold /dev/fb0 /tmp/ready &
	mapper=$!
	t_check "pid $mapper has fb0 open and mapped" wait_for 100 test -s /tmp/ready
	hazard_trigger "unbind vfb.0 while pid $mapper has /dev/fb0 open and mapped"
	if echo vfb.0 >/sys/bus/platform/drivers/vfb/unbind; then
		hazard_say "vfb.0 unbound"
	else
		hazard_say "the unbind of vfb.0 failed"
	fi
	t_check "fb0 is gone from sysfs" sysfs_gone /sys/class/graphics/fb0 10
	sleep 1
	kill "$mapper"
	hazard_watch_exit "$mapper" 10
	wait "$mapper" 2>/dev/null
	sleep 1
	t_kernel_clean "the kernel logged nothing after the unbind and the exit"
}
