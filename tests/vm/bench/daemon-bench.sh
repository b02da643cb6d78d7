# Benchmark, not a test (make bench-vm): fbclassctl daemon against busybox
# mdev -d in one boot, on the same 3000-event burst: CPU time (schedstat)
# as events per CPU-second, peak RSS (see peak_kb), and the latency from
# "modprobe vfb" returning to /dev/fb1 existing, median of 20.  Prints the
# numbers and ratios as TAP comments; fails only when a daemon does not run
# or misses a node.
# uevent-sink, which only reads each uevent (one blocking read each, as
# mdev -d does), runs on the same burst: what waking once per event costs,
# and, being a plain dynamic C program, the RSS floor of any glibc process.
# shellcheck shell=sh disable=SC2034
QEMU_VGA=std
KCMDLINE=""
MODULES="bochs vfb"
GUEST_HELPERS="waitnode uevent-sink"

BURST=3000
ROUNDS=20
BENCH_ROUNDS=5

# ticks PID: utime+stime in clock ticks (USER_HZ, 100 on x86)
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
# cpu_us PID: time on the CPU in microseconds, from the scheduler's own
# account (/proc/PID/schedstat, nanoseconds), which is exact where utime and
# stime are sampled at ticks; ticks where the kernel has no schedstat
cpu_us() {
	if [ -r "/proc/$1/schedstat" ]; then
		awk '{ printf "%.0f\n", $1 / 1000 }' "/proc/$1/schedstat"
	else
		echo $(($(ticks "$1") * 10000))
	fi
}
# wakeups PID: how often it has blocked and been woken (voluntary switches)
wakeups() { awk '/^voluntary_ctxt_switches:/ { print $2 }' "/proc/$1/status"; }
hwm_kb() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"; }
# rss_kb PID: resident now, from a walk of its page tables (exact)
rss_kb() { awk '/^Rss:/ { print $2 }' "/proc/$1/smaps_rollup"; }
# peak_kb PID: the larger of VmHWM and the exact Rss.  Linux 6.1 keeps RSS
# counts per thread and adds them to the process's only every 64 page
# faults, so VmHWM can lag far behind (4 kB was read here for a process
# with 1.7 MB resident); a daemon that unmaps nothing peaks at about its
# final Rss, so this is the peak, or a little under it.
peak_kb() {
	_a=$(hwm_kb "$1")
	_b=$(rss_kb "$1")
	[ "${_a:-0}" -gt "${_b:-0}" ] && echo "$_a" || echo "$_b"
}
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

# Each daemon runs alone on the same burst, with its own dev directory
# (mdev -d knows only /dev), and the daemons take turns, round after round,
# so that host load, which slows the emulated CPU, falls on all of them; the
# median round is the result, and every round's numbers are printed.  (All
# of them at once, on one burst, was tried: with the kernel's tick-sampled
# CPU accounting under TCG, processes woken by the same event are charged
# for each other, and every number came out two to five times higher.)
# fbnowait: the same daemon with --coalesce 0, to show what coalescing buys
DAEMONS="fbclassctl fbnowait mdev"
start_daemon() { # NAME
	case $1 in
	fbclassctl) set -- "$1" fbclassctl daemon --dev /run/d-fbclassctl ;;
	fbnowait) set -- "$1" fbclassctl daemon --coalesce 0 --dev /run/d-fbnowait ;;
	fbsysfs) set -- "$1" fbclassctl-sysfs daemon --dev /run/d-fbsysfs ;;
	fbstatic) set -- "$1" fbclassctl-static daemon --dev /run/d-fbstatic ;;
	sink) set -- "$1" uevent-sink ;;
	mdev) set -- "$1" busybox mdev -df ;;
	esac
	_name=$1
	shift
	"$@" </dev/null >/dev/null 2>>/tmp/$_name.log &
	eval "${_name}_pid=$!"
}
devdir() { # NAME
	case $1 in mdev) echo /dev ;; *) echo "/run/d-$1" ;; esac
}
pid_of() { eval "echo \$${1}_pid"; }

# ratio A B: A/B with two decimals
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "inf"; else printf "%.2f\n", a / b }'; }
per_s() { awk -v t="$1" -v n=$BURST 'BEGIN { if (t == 0) print "inf"; else printf "%.0f\n", n * 1000000 / t }'; }
cpu_s() { awk -v t="$1" 'BEGIN { printf "%.3f", t / 1000000 }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# latency NAME: start NAME alone, the median from modprobe vfb to its fb1
latency() {
	_d=$(devdir "$1")
	rm -rf "$_d/fb0" "$_d/fb1" "$_d/fb"
	start_daemon "$1"
	_pid=$(pid_of "$1")
	_i=0
	while [ ! -e "$_d/fb0" ] && [ $_i -lt 100 ]; do usleep 100000; _i=$((_i + 1)); done
	settle "$_pid"
	: >/tmp/lat
	_i=0
	while [ $_i -lt $ROUNDS ]; do
		modprobe vfb vfb_enable=1 && waitnode "$_d/fb1" 5000 >>/tmp/lat
		rmmod vfb
		_j=0
		while [ -e "$_d/fb1" ] && [ $_j -lt 50 ]; do usleep 100000; _j=$((_j + 1)); done
		_i=$((_i + 1))
	done
	kill -TERM "$_pid"
	wait "$_pid"
	if [ "$(wc -l </tmp/lat)" -eq $ROUNDS ]; then median </tmp/lat; else echo -1; fi
}

scenario() {
	t_check "modprobe bochs" modprobe bochs
	t_check "fb0 is bochs" sh -c 'sleep 2; grep -qx bochs-drmdrmfb /sys/class/graphics/fb0/name'
	# make bench-vm FBCLASSCTL_SYSFS=$PWD/../_build-sysfs/fbclassctl: the
	# --with-libsysfs build (libsysfs, our netlink reader, no libudev) too
	command -v fbclassctl-sysfs >/dev/null && DAEMONS="$DAEMONS fbsysfs"
	# make bench-vm FBCLASSCTL_STATIC=$PWD/../_build-static/fbclassctl: the
	# static --with-libsysfs --enable-static-binary build
	command -v fbclassctl-static >/dev/null && DAEMONS="$DAEMONS fbstatic"
	# One blocking read per event and nothing else (tests/vm/guest/uevent-sink.c)
	DAEMONS="$DAEMONS sink"
	for d in $DAEMONS; do : >"/tmp/cpu.$d" >"/tmp/wake.$d" >"/tmp/hwm.$d"; done
	round=0
	while [ $round -lt $BENCH_ROUNDS ]; do
		round=$((round + 1))
		line=""
		for d in $DAEMONS; do
			_d=$(devdir "$d")
			mkdir -p "$_d"
			rm -rf "$_d/fb0" "$_d/fb1" "$_d/fb"
			start_daemon "$d"
			_pid=$(pid_of "$d")
			_i=0
			while [ "$d" != sink ] && [ ! -e "$_d/fb0" ] && [ $_i -lt 100 ]; do
				usleep 100000
				_i=$((_i + 1))
			done
			[ "$d" = sink ] || t_check "$d: start-up made $_d/fb0" test -c "$_d/fb0"
			settle "$_pid"
			_t0=$(cpu_us "$_pid")
			_w0=$(wakeups "$_pid")
			burst
			settle "$_pid"
			_t=$(($(cpu_us "$_pid") - _t0))
			echo "$_t" >>"/tmp/cpu.$d"
			echo $(($(wakeups "$_pid") - _w0)) >>"/tmp/wake.$d"
			_h=$(peak_kb "$_pid")
			echo "$_h" >>"/tmp/hwm.$d"
			line="$line $d $(cpu_s "$_t") CPU-s $_h kB;"
			eval "rss_$d=\"$(rss_top "$_pid")\""
			t_check "$d: alive after the burst" kill -0 "$_pid"
			kill -TERM "$_pid"
			wait "$_pid"
		done
		t_diag "bench: round $round, $BURST change events on fb0:$line" \
			"fbclassctl/mdev throughput $(ratio "$(tail -n 1 /tmp/cpu.mdev)" \
				"$(tail -n 1 /tmp/cpu.fbclassctl)")x"
	done
	lat_sink=-
	for d in $DAEMONS; do
		eval "med_$d=$(median <"/tmp/cpu.$d")"
		eval "wake_$d=$(median <"/tmp/wake.$d")"
		eval "hwm_$d=$(sort -n "/tmp/hwm.$d" | tail -n 1)"
		[ "$d" = sink ] && continue
		eval "lat_$d=$(latency "$d")"
	done
	t_diag "bench: TCG, one vCPU; CPU-s is the scheduler's run time (/proc/PID/schedstat) per burst, median of $BENCH_ROUNDS rounds; peak RSS (max of VmHWM and smaps_rollup Rss) the largest of them"
	for d in $DAEMONS; do
		eval "_m=\$med_$d _h=\$hwm_$d _l=\$lat_$d"
		eval "_w=\$wake_$d"
		_lost=$(grep -c "uevents were lost" "/tmp/$d.log")
		t_diag "bench: $d: $(cpu_s "$_m") CPU-s, $(per_s "$_m") events/CPU-s, $_w wakeups," \
			"peak RSS $_h kB, latency median $_l us, $_lost overruns logged"
	done
	t_diag "bench: sink, one blocking read per event and nothing else, spent" \
		"$(ratio "$med_sink" "$med_mdev")x mdev's CPU (the cost of waking once per event;" \
		"a daemon that reads what queued in one go spends less)"
	for d in $DAEMONS; do
		[ "$d" = mdev ] || [ "$d" = sink ] && continue
		eval "_m=\$med_$d _h=\$hwm_$d _l=\$lat_$d _r=\$rss_$d"
		t_diag "bench: $d Rss by mapping: $_r"
		t_diag "bench: throughput $d/mdev: $(ratio "$med_mdev" "$_m")x (events per CPU-second; goal >= 1)"
		t_diag "bench: peak RSS $d/mdev: $(ratio "$_h" "$hwm_mdev")x (goal: $d < 2048 kB)"
		t_diag "bench: latency $d/mdev: $(ratio "$_l" "$lat_mdev")x (median of $ROUNDS; lower is better)"
	done
	# not timing (that never fails): each daemon made /dev/fb1 in every
	# latency round, within the 5 s waitnode allows
	for d in $DAEMONS; do
		[ "$d" = sink ] && continue
		eval "_l=\$lat_$d"
		t_check "$d: made $(devdir "$d")/fb1 in each of $ROUNDS latency rounds" test "$_l" != -1
	done
}
