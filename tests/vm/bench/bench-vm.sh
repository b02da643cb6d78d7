# Benchmark, not a test (make bench-vm): in one boot, with bochs-drm's fb0,
#  1. coldplug: "fbclassctl coldplug" of each build against "busybox mdev -s"
#     on the same 32 framebuffers of a real sysfs (bochs-drm's fb0 and 31 of
#     fbfake count=N platform=1), each run on a fresh tmpfs /dev, the tools
#     taking turns, ROUNDS runs each: wall time and CPU time per run
#     (tests/vm/guest/timerun), median and interquartile range;
#  2. memory: each daemon alone (fbclassctl daemon of each build, busybox
#     mdev -d), idle after its start-up coldplug, after 300 change events
#     and after 30000 more: RSS, PSS and USS from /proc/PID/smaps_rollup,
#     VmHWM beside them, and where the pages are, mapping by mapping;
#  3. daemon: the daemons on the same 3000-event burst, in turns: CPU time
#     (schedstat) as events per CPU-second, peak RSS (see peak_kb), and the
#     latency from "modprobe vfb" returning to /dev/fb1 existing.
# Prints numbers, ratios and goals (met or NOT met) as TAP comments; fails
# only when a tool does not run or misses a node or a link.
# Booted by tests/vm/bench/run.sh, which puts in front of it the host's
# settings (ROUNDS, EXTRA_KO: fbfake.ko, BENCH_NO_*: why a part or a build
# is missing) and tests/vm/bench/stats.sh.
# uevent-sink, which only reads each uevent (one blocking read each, as
# mdev -d does), runs on the daemon burst: what waking once per event
# costs, and, being a plain dynamic C program, the RSS floor of any glibc
# process.
# SC2154: the per-daemon results are named by eval (med_mdev, mem2_fbstatic)
# shellcheck shell=sh disable=SC2034,SC2154
QEMU_VGA=std
KCMDLINE=""
MODULES="bochs vfb"
GUEST_HELPERS="waitnode uevent-sink timerun ${NOTHING_HELPERS:-}"
BOOT_TIMEOUT=900

: "${ROUNDS:=30}"         # coldplug runs of each tool
FB_WANT=32                # FB_MAX: every minor the fb core has
MEM_BURSTS="300 30000"    # the memory part's bursts, one after the other
BURST=3000                # the daemon part's burst
DAEMON_ROUNDS=5           # ... and its rounds
LATENCY_ROUNDS=20

# ---- the builds: the default one, and the other two if the host packed them ----
# build_cmd NAME: the binary of fbclassctl (default), fbsysfs (the
# --with-libsysfs build) or fbstatic (--with-libsysfs --enable-static-binary)
build_cmd() {
	case $1 in
	fbclassctl) echo fbclassctl ;;
	fbsysfs) echo fbclassctl-sysfs ;;
	fbstatic) echo fbclassctl-static ;;
	esac
}
label() {
	case $1 in
	mdevs) echo "busybox mdev -s" ;;
	mdevsall) echo "busybox mdev -s, no conf" ;;
	mdev) echo "busybox mdev -d" ;;
	fbclassctl) echo "fbclassctl (default)" ;;
	fbnowait) echo "fbclassctl --coalesce 0" ;;
	fbsysfs) echo "fbclassctl (libsysfs)" ;;
	fbstatic) echo "fbclassctl (static)" ;;
	sink) echo "uevent-sink" ;;
	*_start) echo "$(label "${1%_start}") --version" ;;
	*_plan) echo "$(label "${1%_plan}") coldplug --dry-run" ;;
	nothing-static) echo "static" ;;
	nothing-libc) echo "dynamic, libc alone" ;;
	nothing-*) echo "+ $(echo "$NOTHING_LIBS" | cut -d' ' -f"${1#nothing-}")" ;;
	esac
}
# builds: the builds in this initramfs; a missing one is said, with why
BUILDS=""
builds_find() {
	for _b in fbclassctl fbsysfs fbstatic; do
		if command -v "$(build_cmd "$_b")" >/dev/null; then
			BUILDS="$BUILDS $_b"
			continue
		fi
		case $_b in
		fbsysfs) _why=${BENCH_NO_SYSFS:-FBCLASSCTL_SYSFS not given} ;;
		fbstatic) _why=${BENCH_NO_STATIC:-FBCLASSCTL_STATIC not given} ;;
		*) _why="not in the initramfs" ;;
		esac
		t_diag "bench: $(label "$_b"): SKIPPED: $_why"
	done
}

# ---- 1. coldplug ----
# The fb nodes only, as fbclassctl makes only those: mdev -s still walks
# every device of /sys/dev, and reads this file for each.
MDEV_CONF_FB='fb[0-9]+ 0:0 660
.* 0:0 000 !'

# cold_cmd NAME: the coldplug command of a tool; BUILD_start and
# BUILD_plan are the parts of a build's: its start-up alone (--version),
# and start-up, scan and plan (--dry-run)
cold_cmd() {
	case $1 in
	mdevs | mdevsall) echo "busybox mdev -s" ;;
	*_start) echo "$(build_cmd "${1%_start}") --version" ;;
	*_plan) echo "$(build_cmd "${1%_plan}") -q coldplug --dry-run" ;;
	nothing-*) echo "$1" ;;
	*) echo "$(build_cmd "$1") -q coldplug" ;;
	esac
}

# links_ok DIR: the links in DIR that lead to a character device
links_ok() {
	_n=0
	for _l in "$1"/*; do
		[ -L "$_l" ] && [ -c "$_l" ] && _n=$((_n + 1))
	done
	echo $_n
}

# nothing_rows: what the dynamic loader costs here, from a program that
# does nothing (tests/vm/bench/run.sh builds it): static, dynamic with libc
# alone, then with each of fbclassctl's DT_NEEDED libraries in turn
nothing_rows() {
	[ -n "${NOTHING_HELPERS:-}" ] || {
		t_diag "  start-up of a program that does nothing: SKIPPED: ${BENCH_NO_NOTHING:-not built}"
		return
	}
	t_diag "  start-up of a program that does nothing, wall medians (the dynamic loader's cost, library by library):"
	_prev=
	for _t in $NOTHING_HELPERS; do
		_m=$(median <"/tmp/cold.$_t")
		awk -v l="$(label "$_t")" -v m="$_m" -v p="$_prev" 'BEGIN {
			printf "#   %-26s %6.2f ms", l, m / 1e3
			if (p != "") printf "  (%+.2f ms)", (m - p) / 1e3
			printf "\n" }'
		_prev=$_m
	done
}

# cold_run NAME: one run on a fresh tmpfs /dev, timed into /tmp/cold.NAME;
# what it made is checked (outside the timed interval) into
# /tmp/cold.NAME.bad, a line for each run that fell short
cold_run() {
	[ "$1" = mdevs ] && echo "$MDEV_CONF_FB" >/etc/mdev.conf
	mount -t tmpfs -o mode=0755 bench /dev
	# shellcheck disable=SC2046 # a command and its words
	timerun "/tmp/cold.$1" $(cold_cmd "$1") >/tmp/cold.out 2>&1
	_rc=$?
	case $1 in
	*_start | *_plan | nothing-*)
		[ $_rc -eq 0 ] || echo "exit $_rc: $(head -c 300 /tmp/cold.out)" >>"/tmp/cold.$1.bad"
		umount /dev
		return
		;;
	esac
	_nodes=0
	for _f in $FB_NAMES; do
		[ -c "/dev/$_f" ] && _nodes=$((_nodes + 1))
	done
	_why=""
	[ $_rc -eq 0 ] || _why="exit $_rc: $(head -c 300 /tmp/cold.out)"
	[ "$_nodes" -eq "$FB_N" ] || _why="$_why $_nodes of $FB_N fb nodes"
	case $1 in
	mdev*)
		COLD_ALL=$(find /dev -type c | wc -l)
		[ -e /dev/fb ] && _why="$_why (and a /dev/fb)"
		;;
	*)
		_p=$(links_ok /dev/fb/by-path)
		_m=$(links_ok /dev/fb/by-name)
		COLD_CONN=$(links_ok /dev/fb/by-connector)
		[ "$_p" -eq "$FB_N" ] || _why="$_why $_p of $FB_N by-path links"
		[ "$_m" -eq "$FB_IDS" ] || _why="$_why $_m of $FB_IDS by-name links"
		;;
	esac
	[ -z "$_why" ] || echo "$_why" >>"/tmp/cold.$1.bad"
	umount /dev
	rm -f /etc/mdev.conf
}

# cold_row NAME: its line of the table
cold_row() {
	_w=$(awk '{ print $1 }' "/tmp/cold.$1" | quartiles)
	_c=$(awk '{ print $2 }' "/tmp/cold.$1" | quartiles)
	_line=$(printf '%-26s %-26s cpu %-26s' "$(label "$1")" "$(ms_iqr "$_w")" "$(ms_iqr "$_c")")
	case $1 in
	mdevs) _tail="($FB_N nodes, no links; /etc/mdev.conf makes fb nodes only)" ;;
	mdevsall) _tail="($COLD_ALL nodes: every char device of /sys/dev; no links; not the baseline)" ;;
	*)
		_r=$(ratio "${_w%% *}" "${COLD_MDEV%% *}")
		case $1 in
		fbclassctl) _goal="  $(goal_le "$_r" 1.0)" ;;
		fbstatic) _goal="  $(goal_le "$_r" 0.5)" ;;
		*) _goal="" ;;
		esac
		_tail="ratio $_r (cpu $(ratio "${_c%% *}" "${COLD_MDEV_CPU%% *}"))$_goal  ($FB_N nodes, $FB_N by-path + $FB_IDS by-name + $COLD_CONN by-connector links)"
		;;
	esac
	t_diag "  $_line $_tail"
}

bench_coldplug() {
	_had=$(fb_count)
	_fake=$((FB_WANT - _had))
	# fbfake's line in modules.dep: packed (EXTRA_KO) for this kernel
	if grep -q '/fbfake\.ko' "/lib/modules/$(uname -r)/modules.dep"; then
		t_check "fbfake count=$_fake platform=1 (next to $_had fb already there)" \
			modprobe fbfake count=$_fake platform=1 xres=64 yres=64
		wait_for 100 sh -c "[ \$(ls -d /sys/class/graphics/fb[0-9]* | wc -l) -ge $FB_WANT ]"
	else
		t_diag "bench: coldplug: no fbfake on this kernel, so only the $_had fb already there, not $FB_WANT: ${BENCH_NO_FBFAKE:-fbfake.ko is not in the initramfs (EXTRA_KO)}"
		_fake=0
	fi
	FB_NAMES=""
	for _d in /sys/class/graphics/fb[0-9]*; do
		[ -e "$_d/dev" ] && FB_NAMES="$FB_NAMES ${_d##*/}"
	done
	FB_N=$(echo "$FB_NAMES" | wc -w)
	FB_IDS=$(cat /sys/class/graphics/fb[0-9]*/name | sort -u | wc -l)
	if [ $_fake -gt 0 ]; then
		t_is "$FB_N" "$FB_WANT" "$FB_WANT framebuffers: $_had before fbfake, $((FB_N - _had)) of fbfake"
		dmesg | grep 'fbfake: made' | t_diag_stdin
	fi

	COLD_TOOLS="mdevs mdevsall $BUILDS"
	for _b in $BUILDS; do COLD_TOOLS="$COLD_TOOLS ${_b}_start ${_b}_plan"; done
	COLD_TOOLS="$COLD_TOOLS ${NOTHING_HELPERS:-}"
	for _t in $COLD_TOOLS; do
		: >"/tmp/cold.$_t.bad"
		cold_run "$_t" # a first run to warm the caches, not counted
		: >"/tmp/cold.$_t"
	done
	_i=0
	while [ $_i -lt "$ROUNDS" ]; do
		for _t in $COLD_TOOLS; do cold_run "$_t"; done
		_i=$((_i + 1))
	done
	COLD_MDEV=$(awk '{ print $1 }' /tmp/cold.mdevs | quartiles)
	COLD_MDEV_CPU=$(awk '{ print $2 }' /tmp/cold.mdevs | quartiles)
	t_diag "bench: coldplug of $FB_N fbs ($_had bochs-drm, $((FB_N - _had)) fbfake), fresh tmpfs /dev, $ROUNDS runs alternating, median [q1 q3]; wall (CLOCK_MONOTONIC, fork to reaping) and CPU (rusage user+system); ratio: wall to busybox mdev -s's"
	for _t in mdevs mdevsall $BUILDS; do cold_row "$_t"; done
	t_diag "  links: fbclassctl coldplug makes /dev/fb/by-path, by-name and by-connector (its default); mdev makes none"
	t_diag "  where fbclassctl's time goes, wall medians: start-up (--version), + scan and plan (coldplug --dry-run), + apply (the rest; medians of separate runs, so a small part can come out below 0)"
	for _b in $BUILDS; do
		_s=$(median <"/tmp/cold.${_b}_start")
		_p=$(median <"/tmp/cold.${_b}_plan")
		_a=$(median <"/tmp/cold.$_b")
		awk -v l="$(label "$_b")" -v s="$_s" -v p="$_p" -v a="$_a" 'BEGIN {
			printf "#   %-26s start-up %6.2f ms, + scan and plan %6.2f ms, + apply %6.2f ms\n",
				l, s / 1e3, (p - s) / 1e3, (a - p) / 1e3 }'
	done
	nothing_rows
	for _t in $COLD_TOOLS; do
		_bad=$(wc -l <"/tmp/cold.$_t.bad")
		case $_t in
		nothing-*) _what="of $(label "$_t") exited 0" ;;
		mdev*) _what="made the $FB_N nodes" ;;
		*_start) _what="of --version exited 0" ;;
		*_plan) _what="of coldplug --dry-run exited 0" ;;
		*) _what="made the $FB_N nodes and their links" ;;
		esac
		if [ "$_bad" -eq 0 ]; then
			t_ok "coldplug: $(label "$_t"): every run $_what"
		else
			t_not_ok "coldplug: $(label "$_t"): $_bad of $((ROUNDS + 1)) runs fell short"
			sort "/tmp/cold.$_t.bad" | uniq -c | head -5 | t_diag_stdin
		fi
	done
	[ $_fake -eq 0 ] || t_check "rmmod fbfake" rmmod fbfake
}

# ---- the daemons, for 2. and 3. ----
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

# settle_idle PID: settled, then past the daemon's idle release (2 s after
# its last event it gives back what the events faulted in: FB_DAEMON_IDLE_RELEASE_MS),
# settled again: the memory it keeps while it waits for the next event
settle_idle() {
	settle "$1"
	sleep 3
	settle "$1"
}

# burst [N]: N (default BURST) change events on fb0, as fast as sh writes them
burst() {
	_i=0
	while [ $_i -lt "${1:-$BURST}" ]; do
		echo change >/sys/class/graphics/fb0/uevent
		_i=$((_i + 1))
	done
}

# fbnowait: the same daemon with --coalesce 0, to show what coalescing buys
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
	"$@" </dev/null >/dev/null 2>>"/tmp/$_name.log" &
	eval "${_name}_pid=$!"
}
devdir() { # NAME
	case $1 in mdev) echo /dev ;; *) echo "/run/d-$1" ;; esac
}
pid_of() { eval "echo \$${1}_pid"; }

# daemon_up NAME: start it on an empty dev directory, wait for its start-up
# coldplug's fb0 (the sink makes none) and until it is idle; its pid in $_pid
daemon_up() {
	_d=$(devdir "$1")
	mkdir -p "$_d"
	rm -rf "$_d/fb0" "$_d/fb1" "$_d/fb"
	start_daemon "$1"
	_pid=$(pid_of "$1")
	_i=0
	while [ "$1" != sink ] && [ ! -e "$_d/fb0" ] && [ $_i -lt 100 ]; do
		usleep 100000
		_i=$((_i + 1))
	done
	[ "$1" = sink ] || t_check "$(label "$1"): start-up made $_d/fb0" test -c "$_d/fb0"
	settle "$_pid"
}

# ---- 2. memory ----
# mem_kb PID: "RSS PSS USS HWM" in kB: smaps_rollup's Rss and Pss, USS as
# its Private_Clean + Private_Dirty, and VmHWM
mem_kb() {
	awk '$1 == "Rss:" { r = $2 } $1 == "Pss:" { p = $2 }
		$1 == "Private_Clean:" || $1 == "Private_Dirty:" { u += $2 }
		END { printf "%d %d %d", r, p, u }' "/proc/$1/smaps_rollup"
	echo " $(hwm_kb "$1")"
}

# smaps_by_file PID: Pss and Rss of each file it maps (and [heap], [stack],
# [anon]...), largest Pss first: "PSS RSS NAME: PERMS PSS ...", mapping by
# mapping in address order; an anonymous mapping right behind a file's is
# that file's .bss, "bss"
smaps_by_file() {
	awk '/^[0-9a-f]+-[0-9a-f]+ / {
			split($1, a, "-")
			f = $6
			p = $2
			if (f == "" && a[1] == end && prev != "") {
				f = prev
				p = "bss"
				prev = ""
			} else {
				prev = substr(f, 1, 1) == "/" ? f : ""
				if (f == "")
					f = "[anon]"
			}
			end = a[2]
			m = ++n
			file[m] = f
			perm[m] = p
			next
		}
		$1 == "Rss:" { rss[m] = $2 }
		$1 == "Pss:" { pss[m] = $2 }
		END {
			for (i = 1; i <= n; i++) {
				tp[file[i]] += pss[i]
				tr[file[i]] += rss[i]
				if (rss[i])
					parts[file[i]] = parts[file[i]] " " perm[i] " " pss[i]
			}
			for (f in tp)
				if (tr[f])
					print tp[f], tr[f], f ":" parts[f]
		}' "/proc/$1/smaps" | sort -rn
}

# files_kb PID: the whole size of every file it maps, in kB: in an
# initramfs each of them is in RAM, mapped or not, for as long as it is
# there (or mapped: a daemon left running after switch_root pins them)
files_kb() {
	awk 'substr($6, 1, 1) == "/" { print $6 }' "/proc/$1/maps" | sort -u |
		while read -r _file; do [ -f "$_file" ] && wc -c <"$_file"; done |
		awk '{ s += $1 } END { printf "%d\n", s / 1024 }'
}
# anon_kb PID: smaps_rollup's Pss_Anon: heap, stack, .bss and the pages of
# .data it wrote (copied on write), the memory no file holds
anon_kb() { awk '$1 == "Pss_Anon:" { print $2 }' "/proc/$1/smaps_rollup"; }

# mem_map NAME PID: the table of smaps_by_file, with each file's size
mem_map() {
	t_diag "  $(label "$1") (pid $2), kB: PSS (RSS, file size) NAME: its mappings in address order, PERMS PSS each; bss: the anonymous mapping behind a file's"
	smaps_by_file "$2" | while read -r _mp _mr _rest; do
		_f=${_rest%%:*}
		_s=""
		case $_f in /*) [ -f "$_f" ] && _s=", file $(($(wc -c <"$_f") / 1024))" ;; esac
		printf '#    %5s (%s%s) %s\n' "$_mp" "$_mr" "$_s" "$_rest"
	done
}

# fault_around BYTES: how much of a file's cached pages the kernel maps
# around each page fault (default 65536; 4096: the page touched alone),
# through debugfs; 1 if the kernel has no such knob
FAULT_AROUND=/sys/kernel/debug/fault_around_bytes
fault_around() {
	[ -e $FAULT_AROUND ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	[ -w $FAULT_AROUND ] && echo "$1" >$FAULT_AROUND
}

# mem_daemon NAME: the daemon alone: smaps_rollup idle and after each of
# MEM_BURSTS (mem0_NAME, mem1_NAME, ...), and where the pages are
mem_daemon() {
	daemon_up "$1"
	eval "mem0_$1=\"$(mem_kb "$_pid")\""
	_k=0
	for _burst in $MEM_BURSTS; do
		_k=$((_k + 1))
		burst "$_burst"
		settle_idle "$_pid"
		eval "mem${_k}_$1=\"$(mem_kb "$_pid")\""
	done
	t_check "$(label "$1"): alive after the bursts" kill -0 "$_pid"
	eval "anon_$1=$(anon_kb "$_pid") files_$1=$(files_kb "$_pid")"
	mem_map "$1" "$_pid" >"/tmp/map.$1"
	cat "/proc/$_pid/smaps" >"/tmp/smaps.$1"
	out_file "/tmp/smaps.$1" "smaps-$1.txt"
	kill -TERM "$_pid"
	wait "$_pid"
}

# mem_touched NAME: the daemon alone again, with fault-around off: the
# pages it touches, idle and after the first burst (touched_NAME)
mem_touched() {
	daemon_up "$1"
	_idle=$(mem_kb "$_pid" | cut -d' ' -f1,2)
	burst "${MEM_BURSTS%% *}"
	settle_idle "$_pid"
	eval "touched_$1=\"$_idle $(mem_kb "$_pid" | cut -d' ' -f1,2)\""
	mem_map "$1" "$_pid" >"/tmp/touched.$1"
	kill -TERM "$_pid"
	wait "$_pid"
}

pss_of() { echo "$1" | cut -d' ' -f2; }

bench_memory() {
	MEM_TOOLS="mdev $BUILDS"
	for _t in $MEM_TOOLS; do mem_daemon "$_t"; done
	t_diag "bench: daemon memory, one daemon at a time, bochs-drm's fb0; kB from /proc/PID/smaps_rollup: RSS, PSS, USS (Private_Clean + Private_Dirty), and VmHWM; each once the tool is idle again (3 s after its last event: fbclassctl gives back after 2 s)"
	t_diag "  (the root is the initramfs, a RAM file system: a page of a binary or library that only this daemon maps is its own, so PSS is its cost; busybox's pages are shared with the shell and every applet running, and mdev -d's PSS gets only its share of them)"
	printf '#   %-24s %-21s %-21s %-21s %-7s %-5s %s\n' "" "idle after coldplug" "after 300 change" "after 30000 more" "growth" "anon" "files"
	printf '#   %-24s %-21s %-21s %-21s %-7s %-5s %s\n' "" "RSS PSS USS HWM" "RSS PSS USS HWM" "RSS PSS USS HWM" "PSS" "PSS" "whole"
	for _t in $MEM_TOOLS; do
		eval "_a=\$mem0_$_t _b=\$mem1_$_t _c=\$mem2_$_t _n=\$anon_$_t _fk=\$files_$_t"
		_g=$(($(pss_of "$_c") - $(pss_of "$_b")))
		printf '#   %-24s %-21s %-21s %-21s %-7s %-5s %s\n' "$(label "$_t")" "$_a" "$_b" "$_c" "$(printf '%+d' "$_g")" "$_n" "$_fk"
		eval "growth_$_t=$_g"
	done
	t_diag "  growth: PSS after the 30000 less PSS before them; anon: Pss_Anon after them (heap, stack, bss, data written); files: the whole size of the files it maps, all of them in RAM in an initramfs, mapped or not (binaries built with -g, unstripped)"
	t_diag "  VmHWM: on 6.1 the RSS counters are per thread and folded in every 64 page faults, so VmHWM can lag far behind the Rss that smaps walks (see peak_kb)"
	_mdev_pss=$(pss_of "$mem2_mdev")
	case " $BUILDS " in
	*" fbstatic "*)
		_s=$(pss_of "$mem2_fbstatic")
		t_diag "  goal: static build's PSS <= mdev -d's after the same bursts: $_s kB vs $_mdev_pss kB, $(goal_le "$_s" "$_mdev_pss" " kB")"
		;;
	*) t_diag "  goal: static build's PSS <= mdev -d's: SKIPPED, no static build" ;;
	esac
	_d=$(pss_of "$mem2_fbclassctl")
	t_diag "  goal: default build's PSS <= 1 MiB: $_d kB, $(goal_le "$_d" 1024 " kB")"
	for _t in $BUILDS; do
		eval "_g=\$growth_$_t"
		t_diag "  goal: $(label "$_t"): no growth over the 30000 events: PSS $_g kB, $(goal_le "$_g" 0 " kB")"
	done
	t_diag "bench: where the pages are, after the bursts:"
	for _t in $MEM_TOOLS; do cat "/tmp/map.$_t"; done

	# A page fault on a file maps up to 64 kB of its pages that are in the
	# page cache, and in a RAM file system all of them are: much of the
	# RSS above is pages mapped around the ones touched.
	if ! fault_around 4096; then
		t_diag "bench: memory with fault-around off: SKIPPED, no $FAULT_AROUND"
		return 0
	fi
	for _t in $MEM_TOOLS; do mem_touched "$_t"; done
	fault_around 65536
	t_diag "bench: the same daemons with fault-around off ($FAULT_AROUND = 4096): the pages each touches; kB"
	printf '#   %-24s %-21s %s\n' "" "idle after coldplug" "after 300 change"
	printf '#   %-24s %-21s %s\n' "" "RSS PSS" "RSS PSS"
	for _t in $MEM_TOOLS; do
		eval "_a=\$touched_$_t"
		printf '#   %-24s %-21s %s\n' "$(label "$_t")" "${_a% * *}" "${_a#* * }"
	done
	t_diag "bench: where the touched pages are, after the 300 events:"
	for _t in $MEM_TOOLS; do cat "/tmp/touched.$_t"; done
}

# ---- 3. daemon: throughput and latency ----
# Each daemon runs alone on the same burst, with its own dev directory
# (mdev -d knows only /dev), and the daemons take turns, round after round,
# so that host load, which slows the emulated CPU, falls on all of them; the
# median round is the result, and every round's numbers are printed.  (All
# of them at once, on one burst, was tried: with the kernel's tick-sampled
# CPU accounting under TCG, processes woken by the same event are charged
# for each other, and every number came out two to five times higher.)
per_s() { awk -v t="$1" -v n=$BURST 'BEGIN { if (t == 0) print "inf"; else printf "%.0f\n", n * 1000000 / t }'; }
cpu_s() { awk -v t="$1" 'BEGIN { printf "%.3f", t / 1000000 }'; }

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
	while [ $_i -lt $LATENCY_ROUNDS ]; do
		modprobe vfb vfb_enable=1 && waitnode "$_d/fb1" 5000 >>/tmp/lat
		rmmod vfb
		_j=0
		while [ -e "$_d/fb1" ] && [ $_j -lt 50 ]; do usleep 100000; _j=$((_j + 1)); done
		_i=$((_i + 1))
	done
	kill -TERM "$_pid"
	wait "$_pid"
	if [ "$(wc -l </tmp/lat)" -eq $LATENCY_ROUNDS ]; then median </tmp/lat; else echo -1; fi
}

bench_daemon() {
	DAEMONS="fbclassctl fbnowait mdev"
	case " $BUILDS " in *" fbsysfs "*) DAEMONS="$DAEMONS fbsysfs" ;; esac
	case " $BUILDS " in *" fbstatic "*) DAEMONS="$DAEMONS fbstatic" ;; esac
	# One blocking read per event and nothing else (tests/vm/guest/uevent-sink.c)
	DAEMONS="$DAEMONS sink"
	for d in $DAEMONS; do
		: >"/tmp/cpu.$d"
		: >"/tmp/wake.$d"
		: >"/tmp/hwm.$d"
	done
	round=0
	while [ $round -lt $DAEMON_ROUNDS ]; do
		round=$((round + 1))
		line=""
		for d in $DAEMONS; do
			daemon_up "$d"
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
	t_diag "bench: TCG, one vCPU; CPU-s is the scheduler's run time (/proc/PID/schedstat) per burst, median of $DAEMON_ROUNDS rounds; peak RSS (max of VmHWM and smaps_rollup Rss) the largest of them"
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
		t_diag "bench: latency $d/mdev: $(ratio "$_l" "$lat_mdev")x (median of $LATENCY_ROUNDS; lower is better)"
	done
	# not timing (that never fails): each daemon made /dev/fb1 in every
	# latency round, within the 5 s waitnode allows
	for d in $DAEMONS; do
		[ "$d" = sink ] && continue
		eval "_l=\$lat_$d"
		t_check "$d: made $(devdir "$d")/fb1 in each of $LATENCY_ROUNDS latency rounds" test "$_l" != -1
	done
}

scenario() {
	t_check "modprobe bochs" modprobe bochs
	t_check "fb0 is bochs" sh -c 'sleep 2; grep -qx bochs-drmdrmfb /sys/class/graphics/fb0/name'
	builds_find
	bench_coldplug
	bench_memory
	bench_daemon
}

# host_check: keep each daemon's smaps next to the console log
host_check() {
	for _f in smaps-*.txt; do
		[ -f "$_f" ] || continue
		cp "$_f" "${top_builddir:-.}/tests/vm-logs/bench-vm-$KUPSTREAM-$_f"
	done
}
