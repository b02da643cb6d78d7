# coldplug on a tmpfs /dev at boot: vesafb's fb0 gets its node and links;
# coldplug --load-modules loads bochs-drm, the by-path link moves from
# platform-vesa-framebuffer.0 to pci-0000:00:02.0 and the stale links are
# pruned; runs are idempotent; the hotplug helper follows vfb in and out and
# refuses a forged event.
# shellcheck shell=sh disable=SC2034
# Boots on every kernel: its expectations differ per kernel (per_kernel).
KERNELS=all
QEMU_VGA=std
KCMDLINE="vga=0x317"
MODULES="bochs vfb"

# node_line NAME: "type maj:min owner:group mode", or the error
node_line() { stat -c '%F %t:%T %u:%g %a' "/dev/$1" 2>&1; }
# Every name in /dev, and inode, times and target of all fbclassctl owns.
# (Not the whole ls -liR: the kernel updates /dev/console's mtime when the
# TAP lines are written, which made the comparison flaky.)
snapshot() {
	{ ls -1a /dev; ls -lid --full-time /dev/fb*; ls -liR --full-time /dev/fb; } >"$1" 2>&1
}

scenario() {
	if grep -q '^video:' /etc/group 2>/dev/null; then
		own="0:$(sed -n 's/^video:[^:]*:\([0-9]*\):.*/\1/p' /etc/group) 660"
	else
		own="0:0 600"
	fi
	t_is "$(cat /sys/class/graphics/fb0/name)" "VESA VGA" "vesafb owns fb0 at boot"
	t_check "coldplug --dry-run changes nothing" sh -c \
		'fbclassctl coldplug --dry-run | grep -qx "mknod /dev/fb0 c 29 0" && [ ! -e /dev/fb0 ]'
	t_check "coldplug" fbclassctl coldplug
	t_is "$(node_line fb0)" "character special file 1d:0 $own" "fb0 node, owner, mode"
	t_is "$(readlink "/dev/fb/by-path/$(vesafb_path_id)")" ../../fb0 "vesafb by-path link $(vesafb_path_id)"
	t_is "$(readlink /dev/fb/by-name/VESA_VGA)" ../../fb0 "vesafb by-name link"
	snapshot /tmp/ls1
	t_check "second coldplug" fbclassctl coldplug
	snapshot /tmp/ls2
	t_check "second coldplug changed nothing (ls -liR)" cmp /tmp/ls1 /tmp/ls2

	# Modules are packed as the kernel package ships them: 6.12's are
	# xz-compressed, and fbclassctl's libkmod (not a modprobe) loads them.
	t_is "$(module_file bochs | sed -n 's/.*\.ko\(\.xz\)\{0,1\}$/ko\1/p')" \
		"$(per_kernel 6.1=ko 6.12=ko.xz)" "bochs's module file is $(module_file bochs)"
	t_check "fbclassctl loads modules through libkmod" sh -c 'fbclassctl --version | grep -qx "kmod: dlopen libkmod.so.2"'
	fbclassctl -v coldplug --load-modules --settle 10 >/tmp/load.out 2>&1
	t_is "$?" 0 "coldplug --load-modules"
	t_check "coldplug says it loaded bochs by its modalias" grep -q 'loaded bochs for pci:' /tmp/load.out
	t_check "bochs is loaded" module_loaded bochs
	t_check "so are its dependencies (drm_vram_helper)" module_loaded drm_vram_helper
	t_is "$(cat /sys/class/graphics/fb0/name)" bochs-drmdrmfb "bochs owns fb0 after the handoff"
	t_is "$(node_line fb0)" "character special file 1d:0 $own" "fb0 node after the handoff"
	t_is "$(readlink /dev/fb/by-path/pci-0000:00:02.0)" ../../fb0 "by-path link moved to pci-0000:00:02.0"
	t_check "stale by-path link pruned" test ! -L "/dev/fb/by-path/$(vesafb_path_id)"
	t_check "stale by-name link pruned" test ! -L /dev/fb/by-name/VESA_VGA
	t_is "$(readlink /dev/fb/by-name/bochs-drmdrmfb)" ../../fb0 "bochs by-name link"
	snapshot /tmp/ls1
	t_check "coldplug --load-modules again" fbclassctl coldplug --load-modules
	snapshot /tmp/ls2
	t_check "and it changed nothing (ls -liR)" cmp /tmp/ls1 /tmp/ls2

	# hotplug with the variables the kernel sent: this Debian kernel has no
	# uevent helper (CONFIG_UEVENT_HELPER), so replay the device's uevent
	# file (MAJOR, MINOR, DEVNAME) plus ACTION, SUBSYSTEM, DEVPATH and SEQNUM
	# as the environment, as a helper would get it.
	t_check "modprobe vfb" modprobe vfb vfb_enable=1
	t_check "fb1 appears" sysfs_wait /sys/devices/platform/vfb.0/graphics/fb1 10
	p1=/devices/platform/vfb.0/graphics/fb1
	# shellcheck disable=SC2046
	t_check "hotplug add of fb1" env ACTION=add SUBSYSTEM=graphics DEVPATH=$p1 SEQNUM=1 \
		$(cat /sys$p1/uevent) fbclassctl hotplug
	t_is "$(node_line fb1)" "character special file 1d:1 $own" "fb1 node, owner, mode"
	t_is "$(readlink /dev/fb/by-path/platform-vfb.0)" ../../fb1 "fb1 by-path link"
	t_is "$(readlink /dev/fb/by-name/Virtual_FB)" ../../fb1 "fb1 by-name link"
	ev1=$(cat /sys$p1/uevent)
	t_check "rmmod vfb" rmmod vfb
	# shellcheck disable=SC2086
	t_check "hotplug remove of fb1" env ACTION=remove SUBSYSTEM=graphics DEVPATH=$p1 SEQNUM=2 $ev1 \
		fbclassctl hotplug
	t_check "fb1 node removed" test ! -e /dev/fb1
	t_check "fb1 by-path link removed" test ! -L /dev/fb/by-path/platform-vfb.0
	t_check "fb1 by-name link removed" test ! -L /dev/fb/by-name/Virtual_FB
	t_check "fb0 and its link kept" test -c /dev/fb0 -a -L /dev/fb/by-path/pci-0000:00:02.0

	# A forged event from a root process: refused, nothing made.
	t_check "forged DEVNAME=../../tmp/pwn refused" sh -c \
		'! env ACTION=add SUBSYSTEM=graphics DEVPATH=/devices/pci0000:00/0000:00:02.0/graphics/fb0 MAJOR=29 MINOR=0 DEVNAME=../../tmp/pwn fbclassctl hotplug && [ ! -e /tmp/pwn ]'
	t_check "forged MAJOR:MINOR 1:1 refused" sh -c \
		'! env ACTION=add SUBSYSTEM=graphics DEVPATH=/devices/pci0000:00/0000:00:02.0/graphics/fb0 MAJOR=1 MINOR=1 DEVNAME=fb0 fbclassctl hotplug'
	t_check "forged remove of a live device keeps the node" sh -c \
		'env ACTION=remove SUBSYSTEM=graphics DEVPATH=/devices/pci0000:00/0000:00:02.0/graphics/fb0 MAJOR=29 MINOR=0 DEVNAME=fb0 fbclassctl hotplug && [ -c /dev/fb0 ]'
}
