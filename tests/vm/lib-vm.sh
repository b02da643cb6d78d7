# Host side of the VM tier (bash), sourced by run.sh and demo.sh.
# shellcheck shell=bash

vm_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${VM_TIMEOUT:=120}"   # hard limit per boot, seconds
: "${VM_MEM:=512M}"
# Display drivers every image carries, so coldplug --load-modules can find
# them by modalias; a scenario's MODULES come on top.
VM_MODULES_ALWAYS=${VM_MODULES_ALWAYS-bochs cirrus vfb}
export VM_MODULES_ALWAYS

vm_cache=${FBCLASSCTL_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fbclassctl-vm}

vm_say() { echo "vm: $*" >&2; }

# The kernels the tier boots: VM_KERNELS, a comma-separated list of series
# (6.1: Debian 12's, 6.12: Debian 13's; default both; demo.sh and
# capture.sh pick their own when it is unset); VM_KERNEL_VERSION[_6_1|_6_12]
# pins a package version (see kernel.sh).
# The table of known kernel hazards that excuses an oops, BUG or WARNING.
: "${VM_HAZARDS:=$vm_here/../../src/kernel-hazards.tab}"
export VM_HAZARDS

# vm_kernel_series: the series VM_KERNELS names, one a line; 2 on a bad one
vm_kernel_series() {
	local k
	local all=${VM_KERNELS:-6.1,6.12}
	for k in ${all//,/ }; do
		case $k in
		6.1 | 6.12) echo "$k" ;;
		*) vm_say "VM_KERNELS: unknown kernel '$k' (6.1 or 6.12)"; return 2 ;;
		esac
	done
}

# vm_kernel SERIES [PIN]: sets and exports KSERIES KSUITE KPKG KPKGVER
# KUPSTREAM KVER KMODDIR KROOT and KLABEL ("6.1.0-57-amd64 (6.1.192-3)"),
# or returns 77 with the reason on stderr (kernel.sh's).
vm_kernel() {
	local vars rc=0
	vars=$("$vm_here/kernel.sh" "$@") || rc=$?
	[ "$rc" -eq 0 ] || return "$rc"
	eval "$vars"
	KLABEL="$KVER ($KPKGVER)"
	export KSERIES KSUITE KPKG KPKGVER KUPSTREAM KVER KMODDIR KROOT KLABEL
}

# vm_accel: "kvm" when a short probe boot under KVM works, else "tcg".
# FBCLASSCTL_VM_ACCEL=tcg|kvm overrides the probe.
vm_accel() {
	if [ -n "${FBCLASSCTL_VM_ACCEL:-}" ]; then
		echo "$FBCLASSCTL_VM_ACCEL"
		return
	fi
	if [ ! -w /dev/kvm ]; then
		echo tcg
		return
	fi
	local log
	log=$(mktemp)
	# The kernel panics at once (no root, no initramfs) and -no-reboot ends qemu.
	if (timeout 20 qemu-system-x86_64 -enable-kvm -cpu host -m 128M -nographic \
		-no-reboot -kernel "$KROOT/boot/vmlinuz-$KVER" \
		-append "console=ttyS0 panic=-1 root=/dev/nonexistent" \
		>"$log" 2>&1 </dev/null) 2>/dev/null && grep -q 'Kernel panic' "$log"; then
		echo kvm
	else
		echo tcg
	fi
	rm -f "$log"
}

# Boot slots: at most VM_JOBS qemu processes at once (default: the number
# of CPUs; each guest is one vCPU, one host thread under TCG), across every
# run.sh of this cache at the same time: make check -j2 runs the vm, hazard
# and hostile tiers side by side.  A slot is a lock on a file in the cache.
vm_slot_take() {
	local n i
	n=${VM_JOBS:-$(nproc 2>/dev/null || echo 1)}
	mkdir -p "$vm_cache"
	while :; do
		for ((i = 0; i < n; i++)); do
			exec {VM_SLOT_FD}>"$vm_cache/.slot-$i"
			flock -n "$VM_SLOT_FD" && return 0
			exec {VM_SLOT_FD}>&-
		done
		sleep 0.5
	done
}
vm_slot_give() {
	[ -n "${VM_SLOT_FD:-}" ] || return 0
	exec {VM_SLOT_FD}>&-
	VM_SLOT_FD=
}

# vm_quick: 1 when the guest runs CI's loop counts (CI=true), 0 for the
# full ones (VM_FULL=1: make check-full, which a release runs)
vm_quick() {
	if [ "${CI:-}" = true ] && [ "${VM_FULL:-0}" != 1 ]; then echo 1; else echo 0; fi
}

# scenario_var FILE VAR: a variable from the top of a scenario file.
scenario_var() {
	# shellcheck disable=SC1090
	(eval "$2=" && . "$1" && eval "printf '%s' \"\${$2:-}\"")
}

# vm_ppm_whole FILE: FILE is a whole binary PPM (P6): as long as its
# header says (qemu writes the rows one by one)
vm_ppm_whole() {
	local head w h max want
	[ -s "$1" ] || return 1
	head=$(head -c 32 "$1" | tr '\n\0' '  ')
	read -r _ w h max _ <<<"$head"
	[ "${head%% *}" = P6 ] && [ -n "$max" ] || return 1
	want=$((${#w} + ${#h} + ${#max} + 6 + w * h * 3))
	[ "$(stat -c %s "$1")" -eq "$want" ]
}

# vm_screendumps OUTDIR: while OUTDIR/.qemu-done is missing, answer each
# "vm-screendump NAME [DEVICE]" line the guest prints (guest-lib.sh's
# screendump) with qemu's own screendump into OUTDIR/NAME.ppm, through the
# monitor socket: what the emulated monitor shows (of the display device
# whose qdev id is DEVICE, when given), for the scenario's host_check.
# Once the file is whole, NAME goes back to the guest on its third serial
# port (OUTDIR/ack.sock), which waits for it: nothing changes the screen
# in between, and no fixed sleep is spent.
vm_screendumps() {
	local dir=$1 name device i
	while [ ! -e "$dir/.qemu-done" ]; do
		[ -e "$dir/console.log" ] || { sleep 0.1 && continue; }
		while read -r name device; do
			[ -e "$dir/$name.ppm" ] && continue
			echo "screendump $dir/$name.ppm${device:+ $device}" |
				socat - "UNIX-CONNECT:$dir/monitor.sock" >/dev/null 2>&1
			for ((i = 0; i < 300; i++)); do
				vm_ppm_whole "$dir/$name.ppm" && break
				sleep 0.1
			done
			echo "$name" | socat - "UNIX-CONNECT:$dir/ack.sock" >/dev/null 2>&1
		done < <(tr -d '\r' <"$dir/console.log" |
			sed -n 's/^vm-screendump \([A-Za-z0-9_-]*\)\( [A-Za-z0-9_-]*\)\{0,1\}$/\1\2/p')
		sleep 0.1
	done
}

# vm_boot SCENARIO_FILE OUTDIR: boot once; console to OUTDIR/console.log,
# files the guest sends to OUTDIR/.  Prints the console as it goes when
# VM_STREAM=1.  Returns qemu's status (124 on timeout).
vm_boot() {
	local scen=$1 outdir=$2 name vga cmdline extra accel_opts rc=0 t0 t1 dumper=
	local monitor=(-monitor none)
	name=$(basename "$scen" .sh)
	vga=$(scenario_var "$scen" QEMU_VGA)
	cmdline=$(scenario_var "$scen" KCMDLINE)
	extra=$(scenario_var "$scen" QEMU_ARGS)
	# a long scenario asks for more (BOOT_TIMEOUT); VM_TIMEOUT is the floor
	VM_BOOT_TIMEOUT=$(scenario_var "$scen" BOOT_TIMEOUT)
	[ "${VM_BOOT_TIMEOUT:-0}" -gt "$VM_TIMEOUT" ] 2>/dev/null || VM_BOOT_TIMEOUT=$VM_TIMEOUT
	mkdir -p "$outdir"
	"$vm_here/mkinitramfs.sh" "$outdir/initramfs.cpio.gz" "$scen" || return 1
	case ${VM_ACCEL:-tcg} in
	kvm) accel_opts=(-enable-kvm -cpu host) ;;
	*) accel_opts=(-accel tcg) ;;
	esac
	local cols=${COLUMNS:-}
	[ -n "$cols" ] || cols=$(tput cols 2>/dev/null) || cols=160
	vm_slot_take
	# QEMU_SCREENDUMP=1: the guest asks for qemu's screendumps (vm_screendumps)
	if [ "$(scenario_var "$scen" QEMU_SCREENDUMP)" = 1 ]; then
		rm -f "$outdir/.qemu-done" "$outdir"/*.ppm
		monitor=(-monitor "unix:$outdir/monitor.sock,server,nowait"
			-chardev "socket,id=vmack,path=$outdir/ack.sock,server=on,wait=off"
			-serial chardev:vmack)
		vm_screendumps "$outdir" &
		dumper=$!
	fi
	t0=$(date +%s.%N)
	# loglevel=5, not quiet: KERN_WARNING lines (a WARNING's "cut here"
	# and its report) reach the console, where vm_check_log judges them.
	# nosoftlockup and rcu_cpu_stall_suppress: a TCG vCPU that a busy host
	# starves for 20 s is not a kernel bug (a "soft lockup" in the boot's
	# crypto self-test failed handoff on 6.12 with both CPUs busy)
	# shellcheck disable=SC2086
	timeout --foreground -k 5 "$VM_BOOT_TIMEOUT" qemu-system-x86_64 \
		"${accel_opts[@]}" -m "$VM_MEM" -smp 1 -nographic -no-reboot \
		-vga "${vga:-none}" -nic none \
		-serial stdio -serial "file:$outdir/data.txt" "${monitor[@]}" \
		-kernel "$KROOT/boot/vmlinuz-$KVER" \
		-initrd "$outdir/initramfs.cpio.gz" \
		-append "console=ttyS0 oops=panic panic=-1 loglevel=5 nosoftlockup rcupdate.rcu_cpu_stall_suppress=1 vm.scenario=$name vm.columns=$cols vm.kseries=$KSERIES vm.kpkgver=$KPKGVER vm.quick=$(vm_quick) $cmdline" \
		$extra </dev/null 2>&1 |
		if [ "${VM_STREAM:-0}" = 1 ]; then
			# the firmware's screen noise is not interesting: start at /init
			tee "$outdir/console.log" | tr -d '\r' | sed -u -n '/^vm: /,$p'
		else
			cat >"$outdir/console.log"
		fi
	rc=${PIPESTATUS[0]}
	if [ -n "$dumper" ]; then
		touch "$outdir/.qemu-done"
		wait "$dumper"
	fi
	t1=$(date +%s.%N)
	vm_slot_give
	# shellcheck disable=SC2034 # read by the callers
	VM_BOOT_SECONDS=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	vm_extract_files "$outdir/data.txt" "$outdir"
	return "$rc"
}

# vm_extract_files DATA OUTDIR: undo out_file's base64 framing.
vm_extract_files() {
	local data=$1 outdir=$2 line name=
	[ -f "$data" ] || return 0
	while IFS= read -r line; do
		line=${line%$'\r'}
		case $line in
		"==> BEGIN "*)
			name=${line#==> BEGIN }
			case $name in */* | .* | "") vm_say "bad file name from guest: '$name'"; return 1 ;; esac
			: >"$outdir/$name.b64"
			;;
		"==> END "*)
			base64 -d "$outdir/$name.b64" >"$outdir/$name"
			rm -f "$outdir/$name.b64"
			name=
			;;
		*) [ -n "$name" ] && printf '%s\n' "$line" >>"$outdir/$name.b64" ;;
		esac
	done <"$data"
}

# vm_check_files CLEANLOG OUTDIR NAME: every file the guest sent arrived whole.
vm_check_files() {
	local log=$1 outdir=$2 name=$3 file sum bad=0
	while read -r _ _ file sum; do
		if [ ! -f "$outdir/$file" ]; then
			echo "[$name] FAIL: $file was sent by the guest but did not arrive"
			bad=1
		elif [ "$(md5sum <"$outdir/$file" | cut -d' ' -f1)" != "$sum" ]; then
			echo "[$name] FAIL: $file arrived damaged (md5 differs)"
			bad=1
		fi
	done < <(grep -E '^# sent [^ /]+ [0-9a-f]{32}$' "$log")
	return "$bad"
}

# vm_kernel_incidents LOG [HAZARD]: kernel-hazards.awk on LOG for the
# booted kernel (KUPSTREAM); its status: 0 all excused, 1 not, 2 bad table.
vm_kernel_incidents() {
	awk -v ver="$KUPSTREAM" -v hazard="${2:-}" -f "$vm_here/kernel-hazards.awk" \
		"$VM_HAZARDS" "$1"
}

# vm_report_incidents NAME: kernel-hazards.awk's lines (stdin) for people.
vm_report_incidents() {
	local kind id eff line
	while IFS=$'\t' read -r kind id eff line; do
		case $kind in
		known) echo "[$1] KNOWN KERNEL BUG $id ($eff) on $KLABEL, excused by src/kernel-hazards.tab: $line" ;;
		unknown) echo "[$1] FAIL: the kernel $KLABEL logged an oops, BUG or WARNING that no hazard of src/kernel-hazards.tab excuses: $line" ;;
		ctx) echo "[$1]   $line" ;;
		near) echo "[$1]   (hazard $id matches it, but is known on $eff only, not on $KUPSTREAM: extend its range in src/kernel-hazards.tab if this kernel has it too)" ;;
		error) echo "[$1] FAIL: $line" ;;
		esac
	done
}

# vm_check_log LOG NAME BOOT_RC: judge a boot from its console.  Prints the
# TAP results with the scenario name and returns 0 only if there is a
# plan, it matches the count, nothing failed, no timeout, and every oops,
# BUG or WARNING of the kernel is a known hazard of this kernel version.
vm_check_log() {
	local log=$1 name=$2 boot_rc=$3 bad=0 plan n_ok n_not krc=0
	tr -d '\r' <"$log" >"$log.clean"
	grep -E '^(not )?ok [0-9]+|^# ' "$log.clean" | sed "s/^/[$name] /"
	n_ok=$(grep -cE '^ok [0-9]+' "$log.clean" || true)
	n_not=$(grep -cE '^not ok [0-9]+' "$log.clean" || true)
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$log.clean" | tail -n1)
	vm_kernel_incidents "$log.clean" >"$log.incidents" || krc=$?
	vm_report_incidents "$name" <"$log.incidents"
	[ "$krc" -eq 0 ] || bad=1
	if [ "$boot_rc" -eq 124 ] || [ "$boot_rc" -eq 137 ]; then
		echo "[$name] FAIL: timeout after ${VM_BOOT_TIMEOUT:-$VM_TIMEOUT}s"
		bad=1
	fi
	if [ -z "$plan" ]; then
		echo "[$name] FAIL: no TAP plan (the guest did not finish); last console lines:"
		tail -n 15 "$log.clean" | sed "s/^/[$name]   /"
		bad=1
	elif [ "$plan" -ne $((n_ok + n_not)) ]; then
		echo "[$name] FAIL: plan says $plan tests, saw $((n_ok + n_not))"
		bad=1
	fi
	[ "$n_not" -eq 0 ] || bad=1
	vm_check_files "$log.clean" "$(dirname "$log")" "$name" || bad=1
	return "$bad"
}

# vm_hazard_check LOG NAME BOOT_RC HAZARD LOGCOPY: the verdict on one boot
# of a hazard scenario (tests/vm/hazards/).  Its TAP lines set the trigger
# up, and must all pass; then the hazard reproduced when a console line
# matches its regex in src/kernel-hazards.tab.  Prints one of:
#   KNOWN KERNEL BUG REPRODUCED: ... on VERSION   (in the table's range)
#   NO LONGER REPRODUCES: ... on VERSION (fixed?) (in range, not seen)
#   NOT REPRODUCED: ... on VERSION                (outside the range)
#   FAIL: ...  reproduced outside its range, the setup failed, another
#              oops/BUG/WARNING, or a boot that died without the hazard
# An oops ends the boot (oops=panic) and a spin or hang may end it by the
# timeout: then no TAP plan is needed.  Returns 1 on FAIL.
vm_hazard_check() {
	local log=$1 name=$2 boot_rc=$3 id=$4 copy=$5 bad=0 krc=0 plan n_ok n_not
	local kind range match ranges effect line tag="$2 [$KLABEL]"
	tr -d '\r' <"$log" >"$log.clean"
	grep -E '^(not )?ok [0-9]+|^# |^vm-hazard: ' "$log.clean" | sed "s/^/[$name] /"
	n_ok=$(grep -cE '^ok [0-9]+' "$log.clean" || true)
	n_not=$(grep -cE '^not ok [0-9]+' "$log.clean" || true)
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$log.clean" | tail -n1)
	vm_kernel_incidents "$log.clean" "$id" >"$log.incidents" || krc=$?
	grep -v '^hazard' "$log.incidents" | vm_report_incidents "$name"
	IFS=$'\t' read -r kind _ range match ranges effect line < <(grep '^hazard' "$log.incidents")
	if [ "${kind:-}" != hazard ]; then
		echo "FAIL: $tag: hazard '$id' is not in $VM_HAZARDS"
		return 1
	fi
	[ "$krc" -le 1 ] || bad=1
	if [ "$n_not" -ne 0 ]; then
		echo "[$name] FAIL: a step before or after the trigger failed (not ok above)"
		bad=1
	fi
	if ! grep -q '^vm-hazard: trigger' "$log.clean"; then
		echo "[$name] FAIL: the guest never reached the trigger"
		bad=1
	fi
	if [ "$match" = matched ]; then
		if [ "$range" != in-range ]; then
			echo "FAIL: $tag: $id reproduced on $KUPSTREAM, outside its known range $ranges: not excused (extend src/kernel-hazards.tab): $line"
			return 1
		fi
		# the hazard itself is excused; anything else the kernel said is not
		[ "$krc" -eq 0 ] || bad=1
		case $effect in
		oops | spin | hang) ;;
		*)
			# a warning leaves the guest running to its end
			if [ -z "$plan" ] || [ "$plan" -ne $((n_ok + n_not)) ]; then
				echo "[$name] FAIL: the guest did not finish after the $effect (no or short TAP plan)"
				bad=1
			fi
			;;
		esac
		if [ "$bad" -ne 0 ]; then
			echo "FAIL: $tag: $id reproduced, but see above (console log: $copy)"
			return 1
		fi
		echo "KNOWN KERNEL BUG REPRODUCED: $tag: $id ($effect) on $KUPSTREAM, known on $ranges: $line"
		return 0
	fi
	# not reproduced: the boot must have gone cleanly to its end
	[ "$krc" -eq 0 ] || bad=1
	if [ "$boot_rc" -eq 124 ] || [ "$boot_rc" -eq 137 ]; then
		echo "[$name] FAIL: timeout after ${VM_BOOT_TIMEOUT:-$VM_TIMEOUT}s, and not by $id's $effect"
		bad=1
	elif [ -z "$plan" ] || [ "$plan" -ne $((n_ok + n_not)) ]; then
		echo "[$name] FAIL: no or short TAP plan (the guest did not finish); last console lines:"
		tail -n 15 "$log.clean" | sed "s/^/[$name]   /"
		bad=1
	fi
	if [ "$bad" -ne 0 ]; then
		echo "FAIL: $tag: $id did not reproduce, and the boot went wrong (console log: $copy)"
		return 1
	fi
	if [ "$range" = in-range ]; then
		echo "NO LONGER REPRODUCES: $tag: $id on $KUPSTREAM (fixed?); the table has it on $ranges"
	else
		echo "NOT REPRODUCED: $tag: $id on $KUPSTREAM, as expected: the table has it on $ranges only"
	fi
}

# vm_host_check SCENARIO OUTDIR: run the scenario's host_check function, if
# it has one, on the files the guest sent (e.g. decode a PNG and compare
# it with what the guest wrote).  It prints TAP-like lines itself.
vm_host_check() {
	local scen=$1 outdir=$2 name
	name=$(basename "$scen" .sh)
	# shellcheck disable=SC1090
	(
		. "$scen"
		command -v host_check >/dev/null || exit 0
		cd "$outdir" && host_check "$outdir"
	) 2>&1 | sed "s/^/[$name] host: /"
	return "${PIPESTATUS[0]}"
}
