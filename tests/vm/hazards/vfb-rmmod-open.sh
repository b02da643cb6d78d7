# Hazard vfb-rmmod-open: `rmmod vfb` while a process holds /dev/fb0 open.
# vfb's fb_ops has no .owner, so the open takes no module reference and
# delete_module goes ahead; the holder's close then runs fb_release on the
# freed fb_info and the module code that is gone.  Seen on 6.1.176 and
# 6.1.192 ("BUG: unable to handle page fault", RIP fb_release+0x33; with
# oops=panic the boot ends there).  On 6.12 vfb's fb_ops has an .owner:
# rmmod fails (EAGAIN) while the node is open, and nothing happens.
# shellcheck shell=sh disable=SC2034
HAZARD=vfb-rmmod-open
QEMU_VGA=none
KCMDLINE="fbcon=map:9"  # fbcon takes no framebuffer: only the holder holds fb0
MODULES="vfb"

scenario() {
	t_check "vfb loads as fb0" vfb_up fb0
	sleep 600 3</dev/fb0 &
	holder=$!
	t_check "pid $holder holds /dev/fb0 open" sh -c "ls -l /proc/$holder/fd | grep -q /dev/fb0"
	hazard_trigger "rmmod vfb while pid $holder holds /dev/fb0 open, then the holder closes it"
	rmmod vfb >/tmp/rmmod.out 2>&1
	hazard_say "rmmod vfb: exit $?: $(cat /tmp/rmmod.out)"
	sleep 1
	kill "$holder"
	wait "$holder" 2>/dev/null
	hazard_say "the holder was killed; its close ran"
	sleep 2
	t_kernel_clean "the kernel logged nothing after the holder's close"
}
