#!/bin/bash
# The VM tier's console verdict without qemu: vm_check_log and
# vm_hazard_check (lib-vm.sh) on console logs made here, judged against
# src/kernel-hazards.tab.  An oops, BUG or WARNING is excused only by a
# hazard whose range holds the kernel's version and whose regex matches;
# anything else fails.  The guest's awk (busybox) must say what the
# host's says.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/../lib.sh"
# shellcheck source=tests/vm/lib-vm.sh
. "$here/lib-vm.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/fbclassctl-check-log.XXXXXX")
trap 'rm -rf "$work"' EXIT

# kernel UPSTREAM: the booted kernel, as vm_kernel sets it
kernel() {
	KUPSTREAM=$1
	KLABEL="test-kernel ($1-1)"
}

# A WARNING as 6.1.176 prints it when vfb is unbound under a mapping.
warn_fbsysfs() {
	cat <<'EOF'
[    2.587001] ------------[ cut here ]------------
[    2.587312] WARNING: CPU: 0 PID: 1 at drivers/video/fbdev/core/fbsysfs.c:84 framebuffer_release+0x29/0x40
[    2.587400] Modules linked in: vfb
[    2.587500] RIP: 0010:framebuffer_release+0x29/0x40
[    2.587600] Call Trace:
[    2.587700]  <TASK>
[    2.587800]  vfb_remove+0x2d/0x40 [vfb]
[    2.587900]  </TASK>
[    2.588000] ---[ end trace 0000000000000000 ]---
EOF
}
# A WARNING no hazard names.
warn_other() {
	cat <<'EOF'
[    3.100000] ------------[ cut here ]------------
[    3.100100] WARNING: CPU: 0 PID: 77 at drivers/gpu/drm/drm_gem.c:1000 drm_gem_object_free+0x10/0x20
[    3.100200] Call Trace:
[    3.100300] ---[ end trace 0000000000000000 ]---
EOF
}
# 6.1's oops at the holder's close after rmmod vfb, and oops=panic after it.
oops_fb_release() {
	cat <<'EOF'
[    3.830545] BUG: unable to handle page fault for address: ffffffffc0478150
[    3.831785] Oops: 0000 [#1] PREEMPT SMP NOPTI
[    3.832349] RIP: 0010:fb_release+0x33/0x80
[    3.837068] Call Trace:
[    3.837979]  __fput+0x93/0x250
[    3.845276] ---[ end trace 0000000000000000 ]---
[    3.849953] Kernel panic - not syncing: Fatal exception
[    3.850490] Kernel Offset: 0x18400000 from 0xffffffff81000000
[    3.851000] ---[ end Kernel panic - not syncing: Fatal exception ]---
EOF
}
tap_ok() { printf 'ok 1 - first\nok 2 - second\n1..2\n'; }

# judge NAME VERSION WANT_RC PATTERN PARTS...: a console of PARTS (shell
# functions) through vm_check_log on VERSION; its status must be WANT_RC
# and its output must match PATTERN (grep -E)
judge() {
	local name=$1 ver=$2 want=$3 pat=$4 rc=0 p
	shift 4
	mkdir -p "$work/$name"
	for p in "$@"; do "$p"; done >"$work/$name/console.log"
	kernel "$ver"
	vm_check_log "$work/$name/console.log" "$name" 0 >"$work/$name/out" 2>&1 || rc=$?
	if [ "$rc" -eq "$want" ] && grep -qE -- "$pat" "$work/$name/out"; then
		ok "$name: exit $rc, says /$pat/"
	else
		not_ok "$name: exit $rc (want $want), output must match /$pat/:"
		sed 's/^/#   /' "$work/$name/out"
	fi
}

judge clean 6.1.192 0 '^\[clean\] ok 2 - second$' tap_ok
judge unknown-warning 6.1.176 1 \
	'FAIL: the kernel test-kernel \(6.1.176-1\) logged an oops, BUG or WARNING that no hazard .*drm_gem\.c:1000' \
	tap_ok warn_other
judge known-warning-in-range 6.1.176 0 \
	'KNOWN KERNEL BUG vfb-unbind-mapped \(warning\) on test-kernel \(6.1.176-1\)' tap_ok warn_fbsysfs
# the same WARNING on a version outside the hazard's range is not excused,
# and the report says which hazard would match and where it is known
judge known-warning-newer-6.1 6.1.192 1 \
	'hazard vfb-unbind-mapped matches it, but is known on 6\.1\.176\.\.6\.1\.176 only, not on 6\.1\.192' \
	tap_ok warn_fbsysfs
judge known-warning-older-6.1 6.1.170 1 'FAIL: the kernel .*fbsysfs\.c:84' tap_ok warn_fbsysfs
judge known-warning-on-6.12 6.12.118 1 'FAIL: the kernel .*fbsysfs\.c:84' tap_ok warn_fbsysfs
# one known and one unknown in one boot: the unknown one fails it
judge known-and-unknown 6.1.176 1 'FAIL: the kernel .*drm_gem\.c:1000' tap_ok warn_fbsysfs warn_other
# an excused oops still ends the boot: no plan is a failure of its own
judge known-oops-no-plan 6.1.192 1 'FAIL: no TAP plan' oops_fb_release
judge known-oops-panic-excused 6.1.192 1 'KNOWN KERNEL BUG vfb-rmmod-open \(\(oops=panic\)\)' oops_fb_release
judge unknown-oops-6.12 6.12.118 1 'FAIL: the kernel .*BUG: unable to handle page fault' oops_fb_release
# the guest's lines are not the kernel's, even when they quote it
quoted() { echo "# dmesg: [    2.5] WARNING: CPU: 0 PID: 1 at somewhere.c:1 f+0x1/0x2"; tap_ok; }
judge guest-quote 6.12.118 0 '^\[guest-quote\] ok 1' quoted

# a broken table fails every boot, naming its line
printf 'bad-line\t6.1.0\t6.1.9\tvfb\trmmod-open\toops\tfb_release\n' >"$work/bad.tab"
VM_HAZARDS=$work/bad.tab judge bad-table 6.1.192 1 'FAIL: kernel-hazards.tab:1: 7 fields, want 9' tap_ok
printf 'x\t6.1.9\t6.1.0\tvfb\trmmod-open\toops\tfb_release\t6.1.9-1\td\n' >"$work/bad.tab"
VM_HAZARDS=$work/bad.tab judge bad-range 6.1.192 1 "range '6.1.9'..'6.1.0'" tap_ok
printf 'x\t6.1.0\t6.1.9\tvfb\trmmod-open\tboom\tfb_release\t6.1.9-1\td\n' >"$work/bad.tab"
VM_HAZARDS=$work/bad.tab judge bad-effect 6.1.192 1 "effect 'boom'" tap_ok
printf 'x\t6.1.0\t6.1.9\tvfb\trmmod-open\toops\tf\t6.1.9-1\td\nx\t6.1.5\t6.1.12\tvfb\trmmod-open\toops\tf\t6.1.9-1\td\n' >"$work/bad.tab"
VM_HAZARDS=$work/bad.tab judge bad-overlap 6.1.192 1 "id 'x': range 6.1.5..6.1.12 overlaps" tap_ok

# hazard NAME VERSION ID BOOT_RC WANT_RC PATTERN PARTS...: vm_hazard_check
hazard() {
	local name=$1 ver=$2 id=$3 boot=$4 want=$5 pat=$6 rc=0 p
	shift 6
	mkdir -p "$work/$name"
	for p in "$@"; do "$p"; done >"$work/$name/console.log"
	kernel "$ver"
	vm_hazard_check "$work/$name/console.log" "$name" "$boot" "$id" "$work/$name/copy" \
		>"$work/$name/out" 2>&1 || rc=$?
	if [ "$rc" -eq "$want" ] && grep -qE -- "$pat" "$work/$name/out"; then
		ok "hazard $name: exit $rc, says /$pat/"
	else
		not_ok "hazard $name: exit $rc (want $want), output must match /$pat/:"
		sed 's/^/#   /' "$work/$name/out"
	fi
}
trigger() { printf 'ok 1 - setup\nvm-hazard: trigger: the thing\n'; }
plan2() { printf 'ok 2 - after\n1..2\n'; }
spin() {
	echo "vm-hazard: pid 146 has not exited 10 s after SIGKILL; state over 1 s: RRRRR; wchan 0; its kernel stack:"
	echo "vm-hazard: stack: [<0>] shmem_undo_range+0x413/0x840"
}
setup_fails() { printf 'not ok 1 - setup\nvm-hazard: trigger: the thing\n1..1\n'; }

hazard warn-reproduced 6.1.176 vfb-unbind-mapped 0 0 \
	'^KNOWN KERNEL BUG REPRODUCED: .*vfb-unbind-mapped \(warning\) on 6.1.176' trigger warn_fbsysfs plan2
hazard warn-fixed 6.1.192 vfb-unbind-mapped 0 0 '^NOT REPRODUCED: .* on 6.1.192' trigger plan2
hazard warn-gone-in-range 6.1.176 vfb-unbind-mapped 0 0 '^NO LONGER REPRODUCES: .* on 6.1.176 \(fixed\?\)' \
	trigger plan2
hazard warn-outside-range 6.1.192 vfb-unbind-mapped 0 1 \
	'^FAIL: .*reproduced on 6.1.192, outside its known range 6.1.176..6.1.176' trigger warn_fbsysfs plan2
hazard warn-no-plan 6.1.176 vfb-unbind-mapped 124 1 'the guest did not finish after the warning' \
	trigger warn_fbsysfs
hazard oops-reproduced 6.1.192 vfb-rmmod-open 0 0 '^KNOWN KERNEL BUG REPRODUCED: .*\(oops\) on 6.1.192' \
	trigger oops_fb_release
hazard spin-reproduced 6.12.118 cirrus-unbind-mapped-exit 124 0 '^KNOWN KERNEL BUG REPRODUCED: .*\(spin\)' \
	trigger spin
hazard spin-outside-range 6.12.200 cirrus-unbind-mapped-exit 0 1 '^FAIL: .*outside its known range' trigger spin plan2
hazard other-warning 6.1.176 vfb-unbind-mapped 0 1 'FAIL: .*reproduced, but see above' \
	trigger warn_fbsysfs warn_other plan2
hazard setup-failed 6.1.192 vfb-unbind-mapped 0 1 'a step before or after the trigger failed' setup_fails
hazard no-trigger 6.1.192 vfb-unbind-mapped 0 1 'never reached the trigger' tap_ok
hazard timeout-not-hazard 6.1.192 vfb-unbind-mapped 124 1 'timeout after .*, and not by' trigger
hazard unknown-id 6.1.192 no-such-hazard 0 1 "not in" trigger plan2

# A kernel version the archive does not have: run.sh SKIPs (77) and says
# which and why, before any boot; under CI=true that is a failure (1).
# (6.1: the host's own apt, so no network is needed.)
if command -v qemu-system-x86_64 >/dev/null && [ -x "$FBCLASSCTL" ]; then
	for ci in "" true; do
		rc=0
		CI=$ci VM_KERNELS=6.1 VM_KERNEL_VERSION=6.1.0-0 bash "$here/run.sh" vfb \
			>"$work/skip.out" 2>&1 </dev/null || rc=$?
		want=77 said='^SKIP: no kernel for the VM \(6\.1: apt knows no linux-image-amd64=6\.1\.0-0'
		[ "$ci" = true ] && want=1 said='^FAIL \(CI=true, a skip is a failure\): no kernel for the VM'
		if [ "$rc" -eq "$want" ] && grep -qE "$said" "$work/skip.out" && ! grep -q 'boot took' "$work/skip.out"; then
			ok "run.sh with a 6.1 version the archive lacks${ci:+ (CI=true)}: exit $rc, no boot, says why"
		else
			not_ok "run.sh with a 6.1 version the archive lacks${ci:+ (CI=true)}: exit $rc (want $want), /$said/:"
			sed 's/^/#   /' "$work/skip.out"
		fi
	done
else
	skip_part "run.sh with a missing kernel version" "qemu-system-x86_64 or $FBCLASSCTL missing"
fi

# the guest's awk (busybox, as kernel_check runs it) says what the host's says
if command -v busybox >/dev/null; then
	same=1
	for name in unknown-warning known-warning-in-range known-warning-newer-6.1 known-oops-panic-excused; do
		ver=$(sed -n 's/.*(\([0-9.]*\)-1).*/\1/p' "$work/$name/out" | head -n1)
		[ -n "$ver" ] || ver=6.1.192
		for a in "busybox awk" awk; do
			$a -v ver="$ver" -f "$here/kernel-hazards.awk" "$VM_HAZARDS" "$work/$name/console.log" \
				>"$work/$name.${a%% *}" 2>&1
			echo "exit $?" >>"$work/$name.${a%% *}"
		done
		cmp -s "$work/$name.busybox" "$work/$name.awk" || {
			same=0
			diff "$work/$name.busybox" "$work/$name.awk" | sed "s/^/#   $name: /"
		}
	done
	check "busybox awk and the host's awk judge the logs alike" test "$same" = 1
else
	skip "busybox not found (apt-get install busybox-static)"
fi
finish
