# Benchmark, not a test (make bench-vm): fbclassctl daemon against busybox
# mdev -d in one boot, on the same 3000-event burst: CPU time (utime+stime)
# as events per CPU-second, peak RSS (VmHWM), and the latency from
# "modprobe vfb" returning to /dev/fb1 existing, median of 20.  Prints the
# numbers and ratios as TAP comments; fails only when a daemon does not run.
# shellcheck shell=sh disable=SC2034
QEMU_VGA=std
KCMDLINE=""
MODULES="bochs vfb"
GUEST_HELPERS="waitnode"

BURST=3000
ROUNDS=20

# ticks PID: utime+stime in clock ticks (USER_HZ, 100 on x86)
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hwm_kb() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"; }
# rss_top PID: where the resident memory is, largest mappings first
rss_top() {
	awk '/^[0-9a-f]+-[0-9a-f]+ / { f = $6 ? $6 : "[anon]" } /^Rss:/ { r[f] += $2 }
		END { for (k in r) if (r[k]) print r[k], k }' "/proc/$1/smaps" |
		sort -rn | head -8 | awk '{ printf "%s%s %s kB", (NR > 1 ? ", " : ""), $2, $1 } END { print "" }'
}

# settle PID: until its CPU time stops moving for a second (at most 2 min)
settle() {
	_last=-1
	_n=0
	while [ "$(ticks "$1")" != "$_last" ] && [ $_n -lt 120 ]; do
		_last=$(ticks "$1")
		sleep 1
		_n=$((_n + 1))
	done
}

burst() {
	_i=0
	while [ $_i -lt $BURST ]; do
		echo change >/sys/class/graphics/fb0/uevent
		_i=$((_i + 1))
	done
}

# latency: median microseconds from modprobe vfb returning to /dev/fb1
latency() {
	: >/tmp/lat
	_i=0
	while [ $_i -lt $ROUNDS ]; do
		modprobe vfb vfb_enable=1 && waitnode /dev/fb1 5000 >>/tmp/lat
		rmmod vfb
		_j=0
		while [ -e /dev/fb1 ] && [ $_j -lt 50 ]; do usleep 100000; _j=$((_j + 1)); done
		_i=$((_i + 1))
	done
	_n=$(wc -l </tmp/lat)
	[ "$_n" -eq $ROUNDS ] || { echo "-1"; return; }
	sort -n /tmp/lat | sed -n "$((ROUNDS / 2))p"
}

# measure NAME CMD...: start CMD in the background, burst, report
measure() {
	_name=$1
	shift
	rm -rf /dev/fb0 /dev/fb1 /dev/fb
	"$@" </dev/null >/dev/null 2>/tmp/$_name.log &
	_pid=$!
	_i=0
	while [ ! -e /dev/fb0 ] && [ $_i -lt 100 ]; do usleep 100000; _i=$((_i + 1)); done
	t_check "$_name: start-up made /dev/fb0" test -c /dev/fb0
	settle $_pid
	_t0=$(ticks $_pid)
	burst
	settle $_pid
	_t1=$(ticks $_pid)
	eval "${_name}_ticks=$((_t1 - _t0))"
	eval "${_name}_hwm=$(hwm_kb $_pid)"
	eval "${_name}_rss=\"$(rss_top $_pid)\""
	eval "${_name}_lat=$(latency)"
	t_check "$_name: alive after the burst" kill -0 $_pid
	kill -TERM $_pid
	wait $_pid
}

# ratio A B: A/B with two decimals
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "inf"; else printf "%.2f\n", a / b }'; }
per_s() { awk -v t="$1" -v n=$BURST 'BEGIN { if (t == 0) print "inf"; else printf "%.0f\n", n * 100 / t }'; }

scenario() {
	t_check "modprobe bochs" modprobe bochs
	t_check "fb0 is bochs" sh -c 'sleep 2; grep -qx bochs-drmdrmfb /sys/class/graphics/fb0/name'
	measure fbclassctl fbclassctl daemon
	measure mdev busybox mdev -df
	t_diag "bench: burst of $BURST change events on fb0 (TCG, one vCPU)"
	t_diag "bench: fbclassctl daemon: $(awk -v t="$fbclassctl_ticks" 'BEGIN { printf "%.2f", t / 100 }') CPU-s, $(per_s "$fbclassctl_ticks") events/CPU-s, VmHWM $fbclassctl_hwm kB, latency median $fbclassctl_lat us"
	t_diag "bench: busybox mdev -d:   $(awk -v t="$mdev_ticks" 'BEGIN { printf "%.2f", t / 100 }') CPU-s, $(per_s "$mdev_ticks") events/CPU-s, VmHWM $mdev_hwm kB, latency median $mdev_lat us"
	t_diag "bench: fbclassctl Rss by mapping: $fbclassctl_rss"
	t_diag "bench: throughput fbclassctl/mdev: $(ratio "$mdev_ticks" "$fbclassctl_ticks")x (events per CPU-second; goal >= 1)"
	t_diag "bench: VmHWM fbclassctl/mdev: $(ratio "$fbclassctl_hwm" "$mdev_hwm")x (goal: fbclassctl < 2048 kB)"
	t_diag "bench: latency fbclassctl/mdev: $(ratio "$fbclassctl_lat" "$mdev_lat")x (median of $ROUNDS)"
	t_ok "bench ran (numbers above; timing never fails)"
}
