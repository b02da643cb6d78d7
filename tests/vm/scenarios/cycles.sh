# 50 cycles of: load vfb, hold fb1 open, unload refused, release, unload ok;
# no oops, no leaked node or link, vfb gone each time.
# shellcheck shell=sh disable=SC2034
QEMU_VGA=std
KCMDLINE=""
MODULES="bochs vfb"
CYCLES=50
# CI runs 10 (the guest's VM_QUICK); make check-full the 50
if [ "${VM_QUICK:-0}" = 1 ]; then CYCLES=10; fi
# about 1 s a cycle under TCG, 3 s on a loaded machine
BOOT_TIMEOUT=300

# cycle N: load, hold, refused, release, unload; prints nothing on success
cycle() {
	vfb_up_linked || { echo "# cycle $1: vfb did not come up"; return 1; }
	sleep 600 3</dev/fb1 &
	_p=$!
	if fbclassctl unload fb1 >/tmp/cyc.out 2>&1; then
		echo "# cycle $1: unload succeeded while pid $_p held fb1"
		kill "$_p"
		return 1
	fi
	if ! grep -q "pid $_p" /tmp/cyc.out; then
		echo "# cycle $1: the refusal did not name pid $_p"
		kill "$_p"
		return 1
	fi
	kill "$_p"
	wait "$_p" 2>/dev/null
	fbclassctl unload fb1 >/tmp/cyc.out 2>&1 || { echo "# cycle $1: unload failed"; t_diag_stdin </tmp/cyc.out; return 1; }
	module_loaded vfb && { echo "# cycle $1: vfb still loaded"; return 1; }
	[ -e /dev/fb1 ] && { echo "# cycle $1: /dev/fb1 left behind"; return 1; }
	[ -e /dev/fb/by-path/platform-vfb.0 ] && { echo "# cycle $1: link left behind"; return 1; }
	return 0
}

scenario() {
	t_check "modprobe bochs (fb0, so that vfb is fb1)" modprobe bochs
	t_check "fb0 appears" sysfs_wait /sys/class/graphics/fb0 10
	# --- cycles ---
	_fail=0
	_cyc=1
	_t0=$(date +%s)
	while [ "$_cyc" -le "$CYCLES" ]; do
		cycle "$_cyc" || _fail=$((_fail + 1))
		[ $((_cyc % 10)) -eq 0 ] && t_diag "cycle $_cyc done, $(($(date +%s) - _t0)) s, $_fail failed"
		_cyc=$((_cyc + 1))
	done
	t_diag "$CYCLES cycles took $(($(date +%s) - _t0)) s"
	t_is "$_fail" 0 "$CYCLES cycles of load, hold, refused, release, unload"
	t_is "$(ls /dev | grep -c '^fb1$')" 0 "no node leaked after $CYCLES cycles"

	t_check "vfb is not loaded at the end" sh -c '! grep -q "^vfb " /proc/modules'
	t_kernel_clean "no oops, BUG or WARNING in dmesg (but known kernel hazards)"
}
