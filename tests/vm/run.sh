#!/bin/bash
# The VM tier: boot each scenario (tests/vm/scenarios/*.sh, or the names
# given as arguments) under qemu on each kernel of VM_KERNELS and report
# its TAP, per kernel: "PASS: NAME [6.1.0-57-amd64 (6.1.192-3)]".
#   run.sh [NAME|PATH...]             the scenarios
#   run.sh --hazards [NAME|PATH...]   the catalogue of kernel hazards
#                                     (tests/vm/hazards/*.sh; see there)
# SKIPs (77) when qemu, busybox-static or every kernel cannot be had; a
# kernel that cannot be had SKIPs its boots, with the reason, and the
# other kernel still runs.  Under CI=true any skip is a failure.
#   VM_KERNELS=6.1,6.12           kernels, by series (the default: both)
#   VM_KERNEL_VERSION[_6_1|_6_12]=VER  another package version (kernel.sh)
#   FBCLASSCTL_VM_ACCEL=tcg|kvm   skip the KVM probe
#   FBCLASSCTL_VM_CACHE=DIR       kernel cache (default ~/.cache/fbclassctl-vm)
#   VM_TIMEOUT=SECS               hard limit per boot (default 120; hazards 90)
#   VM_KEEP=1                     keep the work directory (console logs)
#   VM_STREAM=1                   stream the console while it boots (one at a time)
#   VM_JOBS=N                     boots side by side (default: number of CPUs)
#   VM_EVERY_KERNEL=1             every scenario on every kernel (default:
#                                 those with KERNELS=all; the rest once,
#                                 on the kernels in turn)
#   VM_FULL=1                     every kernel, and the guests' full loop
#                                 counts (make check-full; CI=true: fewer)
#   VM_HAZARD_SEEN=0|1            hazards: also boot the package versions
#                                 the table's "seen" column names (default
#                                 1; 0 under CI=true, 1 again in VM_FULL=1)
# make check runs it as $(SHELL) run.sh
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mode=scenarios
if [ "${1:-}" = --hazards ]; then
	mode=hazards
	shift
	# a hazard may hang its kernel: that boot ends soon, not the suite
	: "${VM_TIMEOUT:=90}"
fi
# shellcheck source=tests/lib.sh
. "$here/../lib.sh"
# shellcheck source=tests/vm/lib-vm.sh
. "$here/lib-vm.sh"

for tool in qemu-system-x86_64:qemu-system-x86 cpio:cpio depmod:kmod kmod:kmod \
	fbset:fbset jq:jq apt-get:apt flock:util-linux; do
	command -v "${tool%%:*}" >/dev/null ||
		skip "${tool%%:*} not found (apt-get install ${tool#*:})"
done
command -v busybox >/dev/null || skip "busybox not found (apt-get install busybox-static)"
ldd "$(command -v busybox)" >/dev/null 2>&1 &&
	skip "busybox is dynamically linked (apt-get install busybox-static)"
[ -x "$FBCLASSCTL" ] || skip "$FBCLASSCTL not built"
[ -f "$VM_HAZARDS" ] || skip "no table of kernel hazards at $VM_HAZARDS"
export FBCLASSCTL

dir=$here/$mode
named=0
if [ $# -gt 0 ]; then
	named=1
	scenarios=()
	for name in "$@"; do
		f=$dir/${name%.sh}.sh
		# a path names a scenario outside scenarios/ (the benchmarks)
		case $name in */*) f=$name ;; esac
		[ -f "$f" ] || { echo "vm: no scenario '$name' in $dir" >&2; exit 2; }
		scenarios+=("$f")
	done
else
	scenarios=()
	for f in "$dir"/*.sh; do
		[ "${f##*/}" = run.sh ] || scenarios+=("$f") # hazards/run.sh runs them
	done
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/fbclassctl-vm.XXXXXX")
if [ "${VM_KEEP:-0}" = 1 ]; then
	vm_say "work directory kept: $work"
else
	trap 'rm -rf "$work"' EXIT
fi

# ---- the kernels: each resolved once, to $work/kernel-N.env ----
nk=0
skipped=()
# add_kernel SERIES [PIN]: kernel number $knum, or its status (77: it
# cannot be had; the reason is the last line of $work/kernel-N.err)
add_kernel() {
	local rc=0 v
	knum=$nk
	nk=$((nk + 1))
	(vm_kernel "$@" 2>"$work/kernel-$knum.err" &&
		for v in KSERIES KSUITE KPKG KPKGVER KUPSTREAM KVER KMODDIR KROOT KLABEL; do
			printf '%s=%q\n' "$v" "${!v}"
		done >"$work/kernel-$knum.env") || rc=$?
	grep -v unsandboxed "$work/kernel-$knum.err" | sed 's/^/  /' >&2
	return "$rc"
}
kernel_reason() { grep -v unsandboxed "$work/kernel-$1.err" | tail -n 1 | sed 's/^vm-kernel \[[^]]*\]: //'; }
# kernel_of_version VER: the number of a kernel resolved to package version VER
kernel_of_version() {
	local f
	for f in "$work"/kernel-*.env; do
		[ -f "$f" ] || continue
		grep -qx "KPKGVER=$1" "$f" || continue
		f=${f##*/kernel-}
		echo "${f%.env}"
		return 0
	done
	return 1
}

series=$(vm_kernel_series) || exit 2
kernels=()
for s in $series; do
	if add_kernel "$s"; then
		kernels+=("$knum")
	else
		skipped+=("$s: $(kernel_reason "$knum")")
	fi
done

# ---- the boots: (kernel, scenario) pairs ----
# A scenario whose KERNELS= line says "all" boots on each kernel: what it
# checks differs between them.  The rest boot once, on the kernels in turn
# (both are covered, half the boots).  Every kernel for every scenario:
# the hazards, a scenario named on the command line, VM_EVERY_KERNEL=1 or
# VM_FULL=1 (make check-full).
# The long scenarios (a BOOT_TIMEOUT of their own: bench, cycles, snap,
# unload-race) start first, so that the tier does not end on one of them
# booting alone while the other CPU idles.
long=()
short=()
for scen in "${scenarios[@]}"; do
	if [ -n "$(scenario_var "$scen" BOOT_TIMEOUT)" ]; then long+=("$scen"); else short+=("$scen"); fi
done
scenarios=("${long[@]}" "${short[@]}")
every=${VM_EVERY_KERNEL:-${VM_FULL:-0}}
[ "$mode" = hazards ] || [ "$named" = 1 ] && every=1
jobs_k=()
jobs_s=()
turn=0
for scen in "${scenarios[@]}"; do
	if [ "$every" = 1 ] || [ "$(scenario_var "$scen" KERNELS)" = all ]; then
		for k in "${kernels[@]}"; do
			jobs_k+=("$k")
			jobs_s+=("$scen")
		done
	elif [ "${#kernels[@]}" -gt 0 ]; then
		jobs_k+=("${kernels[$((turn % ${#kernels[@]}))]}")
		jobs_s+=("$scen")
		turn=$((turn + 1))
	fi
done
notes=()
# hazards: also each package version the table's "seen" column names (the
# evidence), while the archive has it; one that is gone is noted, not skipped
# (the evidence of the past: CI boots the kernels of today, a release all)
hazard_seen=${VM_HAZARD_SEEN:-$((1 - $(vm_quick)))}
if [ "$mode" = hazards ] && [ "$hazard_seen" != 0 ]; then
	for scen in "${scenarios[@]}"; do
		id=$(scenario_var "$scen" HAZARD)
		seen=$(awk -F'\t' -v id="$id" '!/^#/ && $1 == id { print $8 }' "$VM_HAZARDS")
		for v in ${seen//,/ }; do
			s=$(echo "$v" | sed -n 's/^\([0-9]*\.[0-9]*\)\..*/\1/p')
			case " ${series//$'\n'/ } " in *" $s "*) ;; *) continue ;; esac
			if k=$(kernel_of_version "$v"); then
				# a default kernel already boots every hazard
				for d in "${kernels[@]}"; do [ "$d" = "$k" ] && continue 2; done
			elif add_kernel "$s" "$v"; then
				k=$knum
			else
				notes+=("NOTE: $id: not re-checked on $v, where the table has seen it: $(kernel_reason "$knum")")
				continue
			fi
			jobs_k+=("$k")
			jobs_s+=("$scen")
		done
	done
fi

noun=${mode%s}
for s in "${skipped[@]}"; do
	echo "SKIP: every $noun on kernel ${s%%:*}:${s#*:}"
done
[ "${#jobs_k[@]}" -gt 0 ] || skip "no kernel for the VM (${skipped[*]})"

# shellcheck disable=SC1090
. "$work/kernel-${jobs_k[0]}.env"
VM_ACCEL=$(vm_accel)
export VM_ACCEL
for k in $(printf '%s\n' "${jobs_k[@]}" | sort -un); do
	# shellcheck disable=SC1090
	. "$work/kernel-$k.env"
	vm_say "kernel $KLABEL from $KSUITE, accelerator $VM_ACCEL"
done

# Console logs of the last run stay in the build tree, one per kernel.
logdir=${top_builddir:-.}/tests/vm-logs
mkdir -p "$logdir"
# run_one N KERNEL SCENARIO: boot it; the verdict to $work/N.report
run_one() {
	local n=$1 scen=$3 name boot_rc=0 out tag
	# shellcheck disable=SC1090
	. "$work/kernel-$2.env"
	export KSERIES KSUITE KPKG KPKGVER KUPSTREAM KVER KMODDIR KROOT KLABEL
	name=$(basename "$scen" .sh)
	out=$work/$KUPSTREAM/$name
	tag="$name [$KLABEL]"
	vm_boot "$scen" "$out" || boot_rc=$?
	{
		echo "vm: $tag: boot took ${VM_BOOT_SECONDS:-?}s ($VM_ACCEL)"
		echo "$KLABEL ${VM_BOOT_SECONDS:-0}" >"$work/$n.time"
		if [ "$mode" = hazards ]; then
			vm_hazard_check "$out/console.log" "$name" "$boot_rc" \
				"$(scenario_var "$scen" HAZARD)" "$logdir/$name-$KUPSTREAM.console.log"
		elif vm_check_log "$out/console.log" "$name" "$boot_rc" &&
			vm_host_check "$scen" "$out"; then
			echo "PASS: $tag"
		else
			echo "FAIL: $tag (console log: $logdir/$name-$KUPSTREAM.console.log)"
		fi
	} >"$work/$n.report" 2>&1
	cp "$out/console.log" "$logdir/$name-$KUPSTREAM.console.log" 2>/dev/null
}

# Each guest runs on one vCPU (TCG: one host thread), so boots run side by
# side, VM_JOBS at a time (default: the number of CPUs; vm_boot's slots
# hold that across every run.sh at once).
jobs=${VM_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "${VM_STREAM:-0}" = 1 ] && jobs=1
t_start=$(date +%s)
running=0
for i in "${!jobs_k[@]}"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	run_one "$i" "${jobs_k[$i]}" "${jobs_s[$i]}" &
	running=$((running + 1))
done
wait

failed=()
for i in "${!jobs_k[@]}"; do
	name=$(basename "${jobs_s[$i]}" .sh)
	if [ -f "$work/$i.report" ]; then
		cat "$work/$i.report"
	else
		echo "FAIL: $name (the harness wrote no report)"
	fi
	grep -q "^FAIL: " "$work/$i.report" 2>/dev/null && failed+=("$name")
	[ -f "$work/$i.report" ] || failed+=("$name")
done
for s in "${notes[@]}"; do echo "$s"; done
for s in "${skipped[@]}"; do
	echo "SKIP: every $noun on kernel ${s%%:*}:${s#*:}"
done
# the time per kernel: boots and the sum of their seconds
cat "$work"/*.time 2>/dev/null | awk '{ t = $NF; sub(/ [^ ]*$/, ""); n[$0]++; s[$0] += t }
	END { for (k in n) printf "vm: %s: %d boots, %.0f s of boot time\n", k, n[k], s[k] }' |
	sort >&2
[ "$jobs" -le "${#jobs_k[@]}" ] || jobs=${#jobs_k[@]}
vm_say "${#jobs_k[@]} boots in $(($(date +%s) - t_start))s, up to $jobs at a time"
if [ "${#failed[@]}" -gt 0 ]; then
	echo "vm: failed: ${failed[*]}" >&2
	exit 1
fi
if [ "${#skipped[@]}" -gt 0 ] && [ "${CI:-}" = true ]; then
	echo "FAIL (CI=true, a skip is a failure): no boot on ${skipped[*]}" >&2
	exit 1
fi
exit 0
