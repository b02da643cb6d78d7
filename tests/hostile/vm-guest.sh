# The guest half of the vm tier of tests/hostile (busybox sh, POSIX only).
# tests/hostile/vm.sh appends it to a generated scenario that defines
# hostile_cases: one "hcase NAME SETUP COMMAND EXIT STDERR STATE" a vm line
# of cases.txt.  Every case runs after a reset (fbfake and vfb unloaded,
# /dev/fb* removed, leftover processes killed) and prints one TAP line
# "ok N - vm/NAME" or "not ok N - vm/NAME: why".  A case also fails when
# the kernel logged an oops, BUG or WARNING while it ran that is not a
# known hazard of this kernel version (src/kernel-hazards.tab).
# shellcheck shell=sh disable=SC2034,SC2013

DEV=/dev
VFB_DRV=/sys/bus/platform/drivers/vfb

# ---- helpers a case may use (see the top of cases.txt) ----
fbc() { fbclassctl "$@"; }

# fake PARAM=VALUE...: fbfake with that geometry as fb0, and /dev/fb0
fake() {
	modprobe fbfake "$@" || return 1
	sysfs_wait /sys/class/graphics/fb0 10 || return 1
	fb_mknod fb0
}

# vfb0 PARAM=VALUE...: vfb (vfb_enable=1) as fb0, and /dev/fb0
vfb0() { vfb_up fb0 "$@"; }
# md5fb: the md5 of /dev/fb0's memory
md5fb() { fb_md5 fb0; }

# bg PIDFILE CMD...: CMD in the background; its pid is appended to
# $H_PIDS (the reset kills what is left) and written to PIDFILE
bg() {
	_pf=$1
	shift
	"$@" &
	echo $! >"$_pf"
	echo $! >>"$H_PIDS"
}

# dstart ARGS...: fbclassctl -vv daemon ARGS in the background, its stderr
# on the case's stderr; returns once it wrote its readiness newline
dstart() {
	rm -f "$W/ready"
	fbclassctl -vv daemon --ready-fd 3 "$@" 3>"$W/ready" >/dev/null </dev/null &
	echo $! >"$W/dpid"
	echo $! >>"$H_PIDS"
	wait_for 100 test -s "$W/ready"
}

# dstop SIGNAL: send it to the daemon; returns the daemon's exit status
dstop() {
	kill "-$1" "$(cat "$W/dpid")"
	wait "$(cat "$W/dpid")"
}

# bench_signal SIGNAL ARGS...: fbclassctl bench -d 20 ARGS, SIGNAL after 2 s;
# returns bench's exit status
bench_signal() {
	_sig=$1
	shift
	fbclassctl bench -d 20 "$@" >/dev/null &
	_bp=$!
	echo "$_bp" >>"$H_PIDS"
	sleep 2
	kill "-$_sig" "$_bp"
	wait "$_bp"
}

# race CMD...: run CMD 10 times while vfb.0 is unbound and bound in a loop;
# each run's status goes to $W/race.rc and its stderr to $ERR.  Returns 0
# when every run exited 0, 1 or 4 (no crash, no signal), else the first bad one.
race() {
	(
		while :; do
			echo vfb.0 >"$VFB_DRV/unbind"
			echo vfb.0 >"$VFB_DRV/bind"
		done
	) >/dev/null 2>&1 &
	_rp=$!
	_i=0
	_bad=0
	: >"$W/race.rc"
	while [ "$_i" -lt 10 ]; do
		"$@" >/dev/null
		_r=$?
		echo "$_r" >>"$W/race.rc"
		# 0, 1 (an error), or 4: the device named was gone at the scan
		case $_r in 0 | 1 | 4) ;; *) [ "$_bad" -ne 0 ] || _bad=$_r ;; esac
		_i=$((_i + 1))
	done
	kill "$_rp"
	wait "$_rp" 2>/dev/null
	[ -e "$VFB_DRV/vfb.0" ] || echo vfb.0 >"$VFB_DRV/bind"
	return "$_bad"
}

# only_fbc_lines FILE: every line of FILE is one of fbclassctl's messages
only_fbc_lines() { ! grep -v '^fbclassctl: ' "$1"; }

# ---- the harness ----
# (the helpers of /vm/guest-lib.sh: wait_for, vfb_up, fb_md5, kernel_check, ...)

hreset() {
	if [ -f "$H_PIDS" ]; then
		for _p in $(cat "$H_PIDS"); do kill -9 "$_p" 2>/dev/null; done
		rm -f "$H_PIDS"
	fi
	_k=0
	while grep -qE '^(fbfake|vfb) ' /proc/modules; do
		rmmod fbfake 2>/dev/null
		rmmod vfb 2>/dev/null
		_k=$((_k + 1))
		[ "$_k" -gt 50 ] && break
		grep -qE '^(fbfake|vfb) ' /proc/modules && usleep 100000
	done
	rm -rf /dev/fb*
	sysfs_gone /sys/class/graphics/fb0 5
}

h_n=0
H_PIDS=/tmp/hostile/pids
# hcase NAME SETUP COMMAND EXIT STDERR STATE
hcase() {
	h_n=$((h_n + 1))
	W=/tmp/hostile/$h_n/w
	mkdir -p "$W"
	hreset
	if grep -qE '^(fbfake|vfb) ' /proc/modules || [ -e /sys/class/graphics/fb0 ]; then
		t_not_ok "vm/$1: the reset left a framebuffer behind"
		return
	fi
	_c=/tmp/hostile/$h_n
	_kb=$(dmesg_lines)
	_setup=$2
	[ "$_setup" = - ] && _setup=:
	_msg=$(printf '%s' "$5" | sed "s|\\\$DEV|$DEV|g; s|\\\$W|$W|g")
	(
		OUT=$_c/out ERR=$_c/err
		export W OUT ERR
		eval "$_setup" >"$_c/setup.log" 2>&1 || { echo setup >"$_c/status"; exit 0; }
		eval "$3" >"$OUT" 2>"$ERR" </dev/null
		echo "$?" >"$_c/rc"
		if eval "$6" >"$_c/state.log" 2>&1; then echo ok; else echo bad; fi >"$_c/status"
	)
	_st=$(cat "$_c/status" 2>/dev/null)
	_rc=$(cat "$_c/rc" 2>/dev/null)
	_why=
	if [ "$_st" = setup ]; then
		_why="setup failed: $(tr '\n' ' ' <"$_c/setup.log")"
	elif [ "$_rc" != "$4" ]; then
		_why="exit $_rc, expected $4"
	elif [ "$_msg" != - ] && ! grep -qF -- "$_msg" "$_c/err"; then
		_why="no '$_msg' in stderr"
	elif [ "$_st" != ok ]; then
		_why="state afterwards wrong: $6"
	elif ! kernel_check "$_kb" >"$_c/kernel.log"; then
		_why="the kernel logged an oops, BUG or WARNING that is no known hazard of $VM_KUPSTREAM"
	fi
	# a known hazard of this kernel (src/kernel-hazards.tab) is said, not failed
	[ -n "$_why" ] || sed "s|^# |# vm/$1: |" "$_c/kernel.log" 2>/dev/null
	t_diag "vm/$1: $(cut -d' ' -f1 /proc/uptime) s"
	if [ -z "$_why" ]; then
		t_ok "vm/$1"
	else
		t_not_ok "vm/$1: $_why"
		sed 's/^/#   stderr: /' "$_c/err" 2>/dev/null | head -n 20
		sed 's/^/#   state: /' "$_c/state.log" 2>/dev/null | head -n 5
		sed 's/^# /#   kernel: /' "$_c/kernel.log" 2>/dev/null | head -n 20
		dmesg | tail -n 5 | sed 's/^/#   dmesg: /'
	fi
}

scenario() {
	# the groups fbclassctl gives nodes to, as on a real system
	mkdir -p /tmp/hostile
	[ -e /etc/group ] || printf 'root:x:0:\nvideo:x:44:\n' >/etc/group
	t_diag "hostile: start at $(cut -d' ' -f1 /proc/uptime) s"
	hostile_cases
	t_diag "hostile: end at $(cut -d' ' -f1 /proc/uptime) s"
	W=/tmp/hostile/end
	mkdir -p "$W"
	hreset
}
