# nomodeset vga=0x317: vesafb stays, and bochs cannot load: on 6.1.192 and
# 6.12.118 alike its module init refuses under nomodeset (modprobe: "No
# such device"), so it is never loaded-but-unbound.  doctor names the
# firmware fb and the bochs module for 0000:00:02.0 as not loaded; the
# fix it gives has to work, or name nomodeset.
# shellcheck shell=sh disable=SC2034,SC2016,SC2154
QEMU_VGA=std
KCMDLINE="nomodeset vga=0x317"
MODULES="bochs"

native() { jq -c '.findings[] | select(.check == "native-driver")' "$1"; }

scenario() {
	t_check "the kernel says it booted with nomodeset" sh -c 'dmesg | grep -q "Booted with the nomodeset parameter"'
	t_is "$(cat /sys/class/graphics/fb0/name)" "VESA VGA" "vesafb owns fb0"
	t_check "0000:00:02.0 has no driver" test ! -e /sys/bus/pci/devices/0000:00:02.0/driver

	fbclassctl doctor -J >/tmp/doctor.json
	t_is "$?" 1 "doctor exits 1"
	native /tmp/doctor.json >/tmp/native
	t_diag_stdin </tmp/native
	t_is "$(wc -l </tmp/native)" 1 "doctor: one native-driver finding"
	t_check "doctor: bochs, for 0000:00:02.0, is not loaded" \
		jq -e 'select(.subject == "fb0" and .verdict == "problem" and
			(.summary | test("bochs") and test("0000:00:02\\.0") and test("not loaded")))' /tmp/native
	t_check "doctor: names the firmware fb (fb0, VESA VGA) as evidence" \
		jq -e 'select(.evidence | any(test("fb0 .VESA VGA.")))' /tmp/native
	# (the fix is not coldplug --load-modules: that fails here, as below)
	t_check "doctor: the fix is to boot without nomodeset, not a load that cannot work" \
		jq -e 'select((.fix | any(test("boot without nomodeset"))) and
			(.fix | all(test("load-modules") | not)))' /tmp/native

	modprobe bochs >/tmp/modprobe.out 2>&1
	t_is "$?" 1 "modprobe bochs fails under nomodeset"
	t_diag_stdin </tmp/modprobe.out
	t_check "bochs is not loaded" sh -c '! grep -q "^bochs " /proc/modules'
	fbclassctl -v coldplug --load-modules >/tmp/coldplug.out 2>&1
	t_diag "coldplug --load-modules: exit $?"
	t_diag_stdin </tmp/coldplug.out
	t_check "coldplug --load-modules says it cannot load bochs" grep -q 'cannot load module bochs' /tmp/coldplug.out
	t_check "bochs is still not loaded" sh -c '! grep -q "^bochs " /proc/modules'
	# so a fix of coldplug --load-modules alone cannot work: the finding has
	# to say why (nomodeset, which doctor reads from /proc/cmdline)
	fbclassctl doctor -J >/tmp/doctor2.json
	native /tmp/doctor2.json >/tmp/native2
	t_check "doctor: the native-driver finding names nomodeset, where its fix cannot work" \
		jq -e 'select((.evidence + .fix) | any(test("nomodeset")))' /tmp/native2
	t_kernel_clean "no oops, BUG or WARNING (but known kernel hazards)"
}
