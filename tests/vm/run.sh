#!/bin/bash
# The VM tier: boot each scenario (tests/vm/scenarios/*.sh, or the names
# given as arguments) under qemu with a Debian kernel and report its TAP.
# SKIPs (77) when qemu, busybox-static or the kernel cannot be had; under
# CI=true tests/lib.sh turns that into a failure.
#   FBCLASSCTL_VM_ACCEL=tcg|kvm   skip the KVM probe
#   FBCLASSCTL_VM_CACHE=DIR       kernel cache (default ~/.cache/fbclassctl-vm)
#   VM_TIMEOUT=SECS               hard limit per boot (default 120)
#   VM_KEEP=1                     keep the work directory (console logs)
#   VM_STREAM=1                   stream the console while it boots (one at a time)
#   VM_JOBS=N                     boots side by side (default: number of CPUs)
# make check runs it as $(SHELL) run.sh
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/../lib.sh"
# shellcheck source=tests/vm/lib-vm.sh
. "$here/lib-vm.sh"

for tool in qemu-system-x86_64:qemu-system-x86 cpio:cpio depmod:kmod modprobe:kmod \
	fbset:fbset jq:jq apt-get:apt; do
	command -v "${tool%%:*}" >/dev/null ||
		skip "${tool%%:*} not found (apt-get install ${tool#*:})"
done
command -v busybox >/dev/null || skip "busybox not found (apt-get install busybox-static)"
ldd "$(command -v busybox)" >/dev/null 2>&1 &&
	skip "busybox is dynamically linked (apt-get install busybox-static)"
[ -x "$FBCLASSCTL" ] || skip "$FBCLASSCTL not built"
export FBCLASSCTL

rc=0
vm_kernel || rc=$?
[ "$rc" -eq 0 ] || skip "no kernel for the VM (see the vm-kernel message above)"
VM_ACCEL=$(vm_accel)
export VM_ACCEL
vm_say "kernel $KVER, accelerator $VM_ACCEL"

if [ $# -gt 0 ]; then
	scenarios=()
	for name in "$@"; do
		f=$here/scenarios/${name%.sh}.sh
		# a path names a scenario outside scenarios/ (the benchmarks)
		case $name in */*) f=$name ;; esac
		[ -f "$f" ] || { echo "vm: no scenario '$name' in $here/scenarios" >&2; exit 2; }
		scenarios+=("$f")
	done
else
	scenarios=("$here"/scenarios/*.sh)
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/fbclassctl-vm.XXXXXX")
if [ "${VM_KEEP:-0}" = 1 ]; then
	vm_say "work directory kept: $work"
else
	trap 'rm -rf "$work"' EXIT
fi

# Console logs of the last run stay in the build tree.
logdir=${top_builddir:-.}/tests/vm-logs
mkdir -p "$logdir"
# run_one SCENARIO: boot it and write the verdict to $work/NAME/report.
run_one() {
	local scen=$1 name boot_rc=0
	name=$(basename "$scen" .sh)
	vm_boot "$scen" "$work/$name" || boot_rc=$?
	{
		echo "vm: $name: boot took ${VM_BOOT_SECONDS:-?}s ($VM_ACCEL)"
		if vm_check_log "$work/$name/console.log" "$name" "$boot_rc" &&
			vm_host_check "$scen" "$work/$name"; then
			echo "PASS: $name"
		else
			echo "FAIL: $name (console log: $logdir/$name.console.log)"
		fi
	} >"$work/$name.report" 2>&1
	cp "$work/$name/console.log" "$logdir/$name.console.log" 2>/dev/null
}

# Each guest runs on one vCPU (TCG: one host thread), so boots run side by
# side, VM_JOBS at a time (default: the number of CPUs).
jobs=${VM_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "${VM_STREAM:-0}" = 1 ] && jobs=1
t_start=$(date +%s)
running=0
for scen in "${scenarios[@]}"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	run_one "$scen" &
	running=$((running + 1))
done
wait

failed=()
for scen in "${scenarios[@]}"; do
	name=$(basename "$scen" .sh)
	if [ -f "$work/$name.report" ]; then
		cat "$work/$name.report"
	else
		echo "FAIL: $name (the harness wrote no report)"
	fi
	grep -q "^PASS: $name\$" "$work/$name.report" 2>/dev/null || failed+=("$name")
done
[ "$jobs" -le "${#scenarios[@]}" ] || jobs=${#scenarios[@]}
vm_say "${#scenarios[@]} boots in $(($(date +%s) - t_start))s, up to $jobs at a time"
if [ "${#failed[@]}" -gt 0 ]; then
	echo "vm: failed: ${failed[*]}" >&2
	exit 1
fi
exit 0
