#!/bin/bash
# capture.sh [DESTDIR]: boot the capture scenarios (tests/vm/capture/*.sh)
# and store the sysfs trees of real framebuffers as umockdev fixtures in
# DESTDIR (default tests/fixtures/captured of the source tree), from
# Debian 12's 6.1 kernel (VM_KERNELS=6.12: Debian 13's).
set -eu
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/vm/lib-vm.sh
. "$here/lib-vm.sh"

dest=${1:-$here/../fixtures/captured}
command -v qemu-system-x86_64 >/dev/null || { vm_say "qemu-system-x86_64 not found (apt-get install qemu-system-x86)"; exit 77; }
capture_kernel=${VM_KERNELS:-6.1}
vm_kernel "${capture_kernel%%,*}" || exit $?
VM_ACCEL=$(vm_accel)
work=$(mktemp -d "${TMPDIR:-/tmp}/fbclassctl-capture.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
fail=0
for scen in "$here"/capture/*.sh; do
	name=$(basename "$scen" .sh)
	rc=0
	vm_boot "$scen" "$work/$name" || rc=$?
	vm_say "$name: boot took ${VM_BOOT_SECONDS}s ($VM_ACCEL)"
	if ! vm_check_log "$work/$name/console.log" "$name" "$rc"; then
		fail=1
		continue
	fi
	for f in "$work/$name"/*.umockdev; do
		[ -e "$f" ] || continue
		old=$dest/$(basename "$f")
		# runtime PM counters change on every boot; nothing else should
		volatile='^A: power/runtime_(active|suspended)_time='
		if [ -f "$old" ] && cmp -s <(grep -Ev "$volatile" "$old") <(grep -Ev "$volatile" "$f"); then
			vm_say "unchanged (but for PM counters): $old"
			continue
		fi
		cp "$f" "$dest/"
		vm_say "wrote $old"
	done
done
[ "$fail" -eq 0 ] && echo "captured on $KLABEL" >&2
exit "$fail"
