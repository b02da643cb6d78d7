# cirrus-drm (-vga cirrus): the display join (KIND drm, its one VGA
# connector) and the path id as udev's; the known kernel bug of cirrus on
# 6.12 (cirrus-unbind-mapped-exit) is named by doctor, and by bench in one
# line before it maps the framebuffer (strace is the witness); on 6.1
# neither names it.
# shellcheck shell=sh disable=SC2034,SC2016,SC2154
# Boots on every kernel: its expectations differ per kernel (per_kernel).
KERNELS=all
QEMU_VGA=cirrus
KCMDLINE=""
MODULES="cirrus"
GUEST_TOOLS="udevadm strace"
GUEST_HELPERS="fbtool"

scenario() {
	t_check "modprobe cirrus" modprobe cirrus
	t_check "fb0 appears" sysfs_wait /sys/class/graphics/fb0 20
	t_check "card0-VGA-1 appears" sysfs_wait /sys/class/drm/card0-VGA-1 10
	fb_mknod fb0
	t_is "$(drm_card_of fb0)" card0 "sysfs: card0 shares fb0's parent device"
	t_is "$(drm_connected card0)" card0-VGA-1 "sysfs: card0-VGA-1 is connected"
	t_is "$(fbclassctl list -J -o NAME,KIND,CARD,CONNECTOR,STATUS fb0 | jq -c '.framebuffers[0]')" \
		'{"name":"fb0","kind":"drm","card":"card0","connector":"card0-VGA-1","status":"connected"}' \
		"list -J: KIND drm, CARD card0, CONNECTOR card0-VGA-1"
	t_path_id_udev fb0 cirrus

	# The hazard: 6.12's cirrus has shmem-backed fbdev emulation, and a
	# process that maps it and outlives an unbind spins when it exits
	# (tests/vm/hazards/cirrus-unbind-mapped-exit.sh); 6.1's cirrus does not.
	t_is "$(hazard_regex cirrus-unbind-mapped-exit | grep -c .)" "$(per_kernel 6.1=0 6.12=1)" \
		"the table knows cirrus-unbind-mapped-exit on this kernel ($VM_KUPSTREAM)"
	fbclassctl doctor -J fb0 >/tmp/doctor.json
	t_is "$(jq -r '.findings[] | select(.check == "hazards" and .subject == "fb0") | .verdict' /tmp/doctor.json)" \
		"$(per_kernel 6.1=ok 6.12=info)" "doctor fb0: the hazards finding's verdict"
	t_is "$(jq -r '[.findings[] | select(.check == "hazards") | .summary | select(test("cirrus-unbind-mapped-exit"))] | length' /tmp/doctor.json)" \
		"$(per_kernel 6.1=0 6.12=1)" "doctor fb0: names cirrus-unbind-mapped-exit on 6.12 only"
	t_is "$(jq -r --arg re "/$(hazard_regex cirrus-unbind-mapped-exit)/" \
		'[.findings[] | select(.check == "hazards") | .evidence[] | select(index($re))] | length' /tmp/doctor.json)" \
		"$(per_kernel 6.1=0 6.12=1)" "doctor fb0: the table's regex of the kernel's report as evidence"

	# bench under strace: the warning is one write to stderr, before the
	# mmap of /dev/fb0 (fbcon unbound so that the validation holds)
	fbcon_unbind
	strace -f -y -s 1000 -e trace=write,mmap -o /tmp/strace.txt fbclassctl bench --quick fb0 \
		>/dev/null 2>/tmp/bench.err
	t_is "$?" 0 "bench --quick fb0 (under strace) exits 0"
	map=$(grep -n 'mmap(.*MAP_SHARED, [0-9]*</dev/fb0>' /tmp/strace.txt | head -n 1 | cut -d: -f1)
	t_check "strace saw bench map /dev/fb0" test -n "$map"
	warn=$(grep -n 'write(2<[^>]*>, ".*known kernel bug.*cirrus-unbind-mapped-exit' /tmp/strace.txt | cut -d: -f1)
	t_is "$(echo "$warn" | grep -c .)" "$(per_kernel 6.1=0 6.12=1)" "bench: one write names the hazard (6.12 only)"
	if [ -n "$warn" ]; then
		t_check "bench: the warning comes before the mmap (line $warn < $map of strace)" \
			test "$warn" -lt "${map:-0}"
		# one write, one line: its only newline is the last byte (\n")
		t_check "bench: the warning is one line" sh -c \
			"sed -n '${warn}p' /tmp/strace.txt | grep -qv '\\\\n[^\"]'"
	fi
	t_is "$(grep -c 'known kernel bug' /tmp/bench.err)" "$(per_kernel 6.1=0 6.12=1)" \
		"bench's stderr has the warning once (6.12 only)"

	# unload --force with a process mapping fb0: refused on 6.12, where
	# the unbind it would do is that bug (so nothing spins); on 6.1 it
	# goes ahead
	rm -f /tmp/held
	fbtool hold /dev/fb0 /tmp/held &
	holder=$!
	t_check "pid $holder holds fb0 open and mapped" wait_for 100 test -s /tmp/held
	fbclassctl unload --force fb0 >/tmp/unload.out 2>&1
	t_is "$?" "$(per_kernel 6.1=0 6.12=1)" "unload --force fb0 while it is mapped: exit status"
	t_diag_stdin </tmp/unload.out
	t_is "$(grep -c 'refusing to unload, even with --force: a known kernel bug of cirrus (cirrus-unbind-mapped-exit)' /tmp/unload.out)" \
		"$(per_kernel 6.1=0 6.12=1)" "unload --force names the bug it refuses to meet (6.12 only)"
	t_is "$(test -e /sys/class/graphics/fb0 && echo kept || echo gone)" "$(per_kernel 6.1=gone 6.12=kept)" \
		"fb0 is kept where the unload was refused"
	kill "$holder"
	wait "$holder" 2>/dev/null
	t_kernel_clean "no oops, BUG or WARNING (but known kernel hazards)"
}
