# bochs blacklisted (blacklist bochs in /etc/modprobe.d), vesafb at boot:
# kmod's modprobe -b and fbclassctl's libkmod both honour it: doctor's
# native-driver finding says blacklisted, coldplug --load-modules does not
# load it.  Then bochs loaded by name (a blacklist binds aliases only)
# while a process holds vesafb's fb0: a later coldplug, with no daemon,
# finds the by-name link of the earlier one and names the handoff and
# the holder.
# shellcheck shell=sh disable=SC2034,SC2016,SC2154
QEMU_VGA=std
KCMDLINE="vga=0x317"
MODULES="bochs"
MODPROBE_CONF="blacklist bochs"
GUEST_HELPERS="fbtool"

pci=/sys/bus/pci/devices/0000:00:02.0

# native FILE: the native-driver findings of doctor -J, one compact line each
native() { jq -c '.findings[] | select(.check == "native-driver")' "$1"; }

scenario() {
	t_is "$(cat /sys/class/graphics/fb0/name)" "VESA VGA" "vesafb owns fb0 at boot"
	t_is "$(cat /etc/modprobe.d/vm-scenario.conf)" "blacklist bochs" "the guest's modprobe.d blacklists bochs"
	t_check "kmod's modprobe -b of 0000:00:02.0's modalias" modprobe -b "$(cat $pci/modalias)"
	t_check "which leaves bochs unloaded (the blacklist works)" sh -c '! grep -q "^bochs " /proc/modules'

	fbclassctl doctor -J >/tmp/doctor.json
	t_is "$?" 1 "doctor exits 1"
	native /tmp/doctor.json >/tmp/native
	t_diag_stdin </tmp/native
	t_is "$(wc -l </tmp/native)" 1 "doctor: one native-driver finding"
	t_is "$(jq -r 'select(.subject == "fb0") | .verdict' /tmp/native | sort -u)" problem \
		"doctor: a problem, about fb0"
	t_check "doctor: it says bochs, for 0000:00:02.0, is blacklisted" \
		jq -e 'select(.summary | test("bochs") and test("0000:00:02\\.0") and test("blacklisted"))' /tmp/native
	t_check "doctor: the fix is the blacklist line" jq -e 'select(.fix | any(test("blacklist bochs")))' /tmp/native
	t_check "doctor: names the firmware fb as evidence" jq -e 'select(.evidence | any(test("fb0 .VESA VGA.")))' /tmp/native

	fbclassctl -v coldplug --load-modules >/tmp/coldplug.out 2>&1
	t_is "$?" 0 "coldplug --load-modules exits 0"
	t_diag_stdin </tmp/coldplug.out
	t_check "coldplug --load-modules did not load bochs" sh -c '! grep -q "^bochs " /proc/modules'
	t_is "$(cat /sys/class/graphics/fb0/name)" "VESA VGA" "vesafb still owns fb0"
	t_is "$(links_in /dev/fb/by-name)" "VESA_VGA -> ../../fb0" "coldplug: vesafb's by-name link"

	# the handoff, no daemon
	rm -f /tmp/held
	fbtool hold /dev/fb0 /tmp/held &
	holder=$!
	t_check "pid $holder holds vesafb's fb0 open and mapped" wait_for 100 test -s /tmp/held
	t_check "modprobe bochs (by name)" modprobe bochs
	t_check "fb0 is bochs's now" wait_for 100 grep -qx bochs-drmdrmfb /sys/class/graphics/fb0/name
	fbclassctl coldplug >/tmp/coldplug2.out 2>&1
	t_is "$?" 0 "coldplug after the handoff exits 0"
	t_diag_stdin </tmp/coldplug2.out
	t_is "$(grep -c "^fbclassctl: fb0: handoff: the framebuffer named VESA_VGA gave way to bochs-drm on $(drm_card_of fb0);" /tmp/coldplug2.out)" 1 \
		"coldplug names the handoff once, from the old by-name link, to bochs-drm on card0"
	t_is "$(grep -c "pid $holder ($(cat /proc/$holder/comm))" /tmp/coldplug2.out)" 1 "coldplug names the holder"
	t_is "$(links_in /dev/fb/by-name)" "bochs-drmdrmfb -> ../../fb0" "coldplug: the old by-name link replaced"
	fbclassctl doctor -J >/tmp/doctor2.json
	t_is "$(native /tmp/doctor2.json | jq -r .verdict | grep -c problem)" 0 "doctor: no native-driver problem once bochs drives fb0"
	kill "$holder"
	wait "$holder" 2>/dev/null
	sleep 1
	t_kernel_clean "no oops, BUG or WARNING (but known kernel hazards)"
}
