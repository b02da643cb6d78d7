# The unload window: a process opens and closes /dev/fb1 (vfb) in a tight
# loop while `fbclassctl unload fb1` runs, RUNS times: no oops, and each
# run either unloaded (exit 0, fb1 gone from sysfs and /dev) or named the
# holder (exit 1, "held by pid" or "opened it during the unload"; fb1 and
# /dev/fb1 still there).  vfb on 6.1 has no .owner, so nothing in the
# kernel stops its removal while fb1 is open, and the close then oopses
# (hazard vfb-rmmod-open) or, as often, goes unnoticed: the racer asks each
# fd it opened for its mode, and ENODEV there means that fb1 went away
# while it held it.  Only unload's guard (node moved aside, holders
# checked again right before) stands in the way: fbclassctl before it
# (5aa373d^) fails here, 6.12's vfb refusing (EBUSY) or 6.1's racer
# orphaned.
# shellcheck shell=sh disable=SC2034,SC2016,SC2154
# Boots on every kernel: vfb has no .owner on 6.1 and refuses on 6.12: each kernel its race.
KERNELS=all
QEMU_VGA=std
KCMDLINE=""
MODULES="bochs vfb"
GUEST_HELPERS="openloop"
# 50 runs take 0.5 to 0.9 s each under TCG (load vfb, race, unload, or
# refuse and unload again): 22 to 42 s here; the limit leaves room for a
# loaded host
RUNS=50
# CI runs 20 (the guest's VM_QUICK); make check-full the 50
if [ "${VM_QUICK:-0}" = 1 ]; then RUNS=20; fi
BOOT_TIMEOUT=300

# race N: one run; counts in unloaded, refused, bad, opens
race() {
	if ! vfb_up fb1; then
		t_diag "run $1: vfb did not come up as fb1"
		bad=$((bad + 1))
		return
	fi
	rm -f /tmp/racer.ready
	openloop /dev/fb1 /tmp/racer.ready >/tmp/racer.out 2>&1 &
	racer=$!
	wait_for 50 test -e /tmp/racer.ready || t_diag "run $1: the racer never opened /dev/fb1"
	fbclassctl unload fb1 >/tmp/unload.out 2>/tmp/unload.err
	rc=$?
	kill -TERM "$racer"
	wait "$racer"
	n=$(sed -n 's/^opens \([0-9]*\) .*/\1/p' /tmp/racer.out)
	opens=$((opens + ${n:-0}))
	o=$(sed -n 's/.* orphaned \([0-9]*\)$/\1/p' /tmp/racer.out)
	if [ "${o:-x}" != 0 ]; then
		t_diag "run $1: the racer held /dev/fb1 while fb1 went away (unload exit $rc): $(cat /tmp/racer.out)"
		orphaned=$((orphaned + 1))
	fi
	if [ "$rc" = 0 ]; then
		if sysfs_gone /sys/class/graphics/fb1 5 && [ ! -e /dev/fb1 ]; then
			unloaded=$((unloaded + 1))
		else
			t_diag "run $1: unload exited 0, but fb1 is still in sysfs or /dev"
			bad=$((bad + 1))
		fi
	elif [ "$rc" = 1 ] && grep -q "held by pid $racer" /tmp/unload.err; then
		if [ -e /sys/class/graphics/fb1 ] && [ "$(stat -c %t:%T /dev/fb1 2>/dev/null)" = 1d:1 ]; then
			refused=$((refused + 1))
			grep -q 'opened it during the unload' /tmp/unload.err && late=$((late + 1))
		else
			t_diag "run $1: refused, but fb1 or its node /dev/fb1 is not there as before"
			bad=$((bad + 1))
		fi
		fbclassctl unload fb1 >/dev/null 2>&1 || { t_diag "run $1: unload without the racer failed"; bad=$((bad + 1)); }
	else
		t_diag "run $1: unload exited $rc without naming pid $racer:"
		t_diag_stdin </tmp/unload.err
		bad=$((bad + 1))
	fi
	# 6.12's vfb has an .owner: the module may be left loaded, the device unbound
	if module_loaded vfb; then rmmod vfb 2>/dev/null || fbclassctl unload fb1 >/dev/null 2>&1; fi
	rm -f /dev/fb1
	if module_loaded vfb; then
		t_diag "run $1: vfb is still loaded"
		bad=$((bad + 1))
	fi
}

scenario() {
	t_check "modprobe bochs (fb0, so that vfb is fb1)" modprobe bochs
	t_check "fb0 appears" sysfs_wait /sys/class/graphics/fb0 10
	unloaded=0
	refused=0
	late=0
	bad=0
	opens=0
	orphaned=0
	i=1
	t0=$(date +%s)
	while [ "$i" -le "$RUNS" ]; do
		race "$i"
		i=$((i + 1))
	done
	t_diag "unload race on $VM_KUPSTREAM: $RUNS runs in $(($(date +%s) - t0)) s: $unloaded unloaded, $refused refused naming the holder ($late of them at the second look, after the node was moved aside), $bad neither; the racer opened /dev/fb1 $opens times"
	t_is "$bad" 0 "$RUNS runs: each unloaded or named the holder"
	t_is "$((unloaded + refused))" "$RUNS" "$RUNS runs: unloaded $unloaded + refused $refused"
	t_check "the racer opened /dev/fb1 at all" test "$opens" -gt 0
	t_is "$orphaned" 0 "no run left the racer holding fb1 while it went away (its ioctl said ENODEV)"
	t_is "$(dmesg | grep -cE 'Oops|BUG:|WARNING:|general protection|Call Trace:')" 0 \
		"no oops, BUG or WARNING in dmesg, not even a known one"
	t_kernel_clean "the console check: nothing the table does not excuse"
}
