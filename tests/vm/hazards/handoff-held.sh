# Hazard handoff-held: the firmware framebuffer (vesafb, vga=0x317) handed
# over to the native driver (modprobe bochs) while a process has fb0 open
# and mapped.  Seen on 6.1.176, 6.1.192, 6.12.117 and 6.12.118: no oops,
# no warning; vesafb's fb0 leaves sysfs at once, but its fb_info, and the
# memory region it reserved, live until the holder lets go, so bochs
# cannot reserve its framebuffer ("[drm] Cannot request framebuffer, boot
# fb still active?"; 6.1 also "BAR 0: can't reserve") and takes fb0 over
# without it.  Without a holder (scenarios/handoff.sh) neither is logged.
# shellcheck shell=sh disable=SC2034
HAZARD=handoff-held
QEMU_VGA=std
KCMDLINE="vga=0x317 fbcon=map:9"
MODULES="bochs"
GUEST_HELPERS="fbtool"

scenario() {
	t_is "$(cat /sys/class/graphics/fb0/name)" "VESA VGA" "vesafb owns fb0 at boot"
	fb_mknod fb0
	rm -f /tmp/ready
	fbtool hold /dev/fb0 /tmp/ready &
	mapper=$!
	t_check "pid $mapper has vesafb's fb0 open and mapped" wait_for 100 test -s /tmp/ready
	hazard_trigger "modprobe bochs while pid $mapper has vesafb's fb0 open and mapped"
	modprobe bochs >/tmp/modprobe.out 2>&1
	hazard_say "modprobe bochs: exit $?: $(cat /tmp/modprobe.out)"
	t_check "bochs's fb0 appears" wait_for 100 grep -qx bochs-drmdrmfb /sys/class/graphics/fb0/name
	t_diag "fb0 now: $(cat /sys/class/graphics/fb0/name 2>&1); graphics: $(cd /sys/class/graphics && echo *)"
	kill "$mapper"
	hazard_watch_exit "$mapper" 10
	wait "$mapper" 2>/dev/null
	sleep 1
	t_kernel_clean "the kernel logged nothing after the handoff and the holder's exit"
}
