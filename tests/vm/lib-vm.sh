# Host side of the VM tier (bash), sourced by run.sh and demo.sh.
# shellcheck shell=bash

vm_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${VM_TIMEOUT:=120}"   # hard limit per boot, seconds
: "${VM_MEM:=512M}"
# Display drivers every image carries, so coldplug --load-modules can find
# them by modalias; a scenario's MODULES come on top.
VM_MODULES_ALWAYS=${VM_MODULES_ALWAYS-bochs cirrus vfb}
export VM_MODULES_ALWAYS

vm_say() { echo "vm: $*" >&2; }

# vm_kernel: sets KVER and KROOT, or returns 77 with the reason printed.
vm_kernel() {
	local vars rc=0
	vars=$("$vm_here/kernel.sh") || rc=$?
	[ "$rc" -eq 0 ] || return "$rc"
	eval "$vars"
	export KVER KROOT
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

# scenario_var FILE VAR: a variable from the top of a scenario file.
scenario_var() {
	# shellcheck disable=SC1090
	(eval "$2=" && . "$1" && eval "printf '%s' \"\${$2:-}\"")
}

# vm_boot SCENARIO_FILE OUTDIR: boot once; console to OUTDIR/console.log,
# files the guest sends to OUTDIR/.  Prints the console as it goes when
# VM_STREAM=1.  Returns qemu's status (124 on timeout).
vm_boot() {
	local scen=$1 outdir=$2 name vga cmdline extra accel_opts rc=0 t0 t1
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
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	timeout --foreground -k 5 "$VM_BOOT_TIMEOUT" qemu-system-x86_64 \
		"${accel_opts[@]}" -m "$VM_MEM" -smp 1 -nographic -no-reboot \
		-vga "${vga:-none}" -nic none \
		-serial stdio -serial "file:$outdir/data.txt" -monitor none \
		-kernel "$KROOT/boot/vmlinuz-$KVER" \
		-initrd "$outdir/initramfs.cpio.gz" \
		-append "console=ttyS0 oops=panic panic=-1 quiet vm.scenario=$name vm.columns=$cols $cmdline" \
		$extra </dev/null 2>&1 |
		if [ "${VM_STREAM:-0}" = 1 ]; then
			# the firmware's screen noise is not interesting: start at /init
			tee "$outdir/console.log" | tr -d '\r' | sed -u -n '/^vm: /,$p'
		else
			cat >"$outdir/console.log"
		fi
	rc=${PIPESTATUS[0]}
	t1=$(date +%s.%N)
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

# vm_check_log LOG: judge a boot from its console.  Prints the TAP results
# with the scenario name and returns 0 only if there is a plan, it matches
# the count, nothing failed and the kernel did not oops or panic.
vm_check_log() {
	local log=$1 name=$2 boot_rc=$3 bad=0 plan n_ok n_not
	tr -d '\r' <"$log" >"$log.clean"
	grep -E '^(not )?ok [0-9]+|^# ' "$log.clean" | sed "s/^/[$name] /"
	n_ok=$(grep -cE '^ok [0-9]+' "$log.clean" || true)
	n_not=$(grep -cE '^not ok [0-9]+' "$log.clean" || true)
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$log.clean" | tail -n1)
	if grep -qE 'Kernel panic|Oops|BUG: |general protection fault|Call Trace:' "$log.clean"; then
		echo "[$name] FAIL: the kernel oopsed or panicked:"
		grep -E -A15 'Kernel panic|Oops|BUG: |general protection|Call Trace:' "$log.clean" | head -40 | sed "s/^/[$name]   /"
		bad=1
	fi
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
