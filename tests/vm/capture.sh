#!/bin/bash
# capture.sh [DESTDIR [SCENARIO...]]: boot the capture scenarios
# (tests/vm/capture/*.sh, or the ones named) and store the sysfs trees of
# real framebuffers as umockdev fixtures in DESTDIR (default
# tests/fixtures/captured of the source tree), and the EDID blobs they
# send (*.bin) in $CAPTURE_EDID_DIR (default tests/edid).  DESTDIR/KERNELS
# records which kernel each file came from.
# The kernel is Debian 12's 6.1 (VM_KERNELS=6.12: Debian 13's).
set -eu
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/vm/lib-vm.sh
. "$here/lib-vm.sh"

dest=${1:-$here/../fixtures/captured}
[ $# -gt 0 ] && shift
edid_dest=${CAPTURE_EDID_DIR:-$here/../edid}
scenarios=()
for name in "$@"; do
	[ -f "$here/capture/${name%.sh}.sh" ] || { vm_say "no capture scenario '$name' in $here/capture"; exit 2; }
	scenarios+=("$here/capture/${name%.sh}.sh")
done
[ ${#scenarios[@]} -gt 0 ] || scenarios=("$here"/capture/*.sh)
command -v qemu-system-x86_64 >/dev/null || { vm_say "qemu-system-x86_64 not found (apt-get install qemu-system-x86)"; exit 77; }
capture_kernel=${VM_KERNELS:-6.1}
vm_kernel "${capture_kernel%%,*}" || exit $?
VM_ACCEL=$(vm_accel)
work=$(mktemp -d "${TMPDIR:-/tmp}/fbclassctl-capture.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$dest" "$edid_dest"
dest=$(cd "$dest" && pwd)
# the package's version too: the kernel's release string does not change with it
kernel=$KLABEL

# record_kernel FILE: DESTDIR/KERNELS says FILE came from this kernel.
record_kernel() {
	local list=$dest/KERNELS
	{
		[ -f "$list" ] && grep -v "^$1 " "$list"
		echo "$1 $kernel"
	} | sort >"$list.new"
	mv "$list.new" "$list"
}

fail=0
for scen in "${scenarios[@]}"; do
	name=$(basename "$scen" .sh)
	rc=0
	vm_boot "$scen" "$work/$name" || rc=$?
	vm_say "$name: boot took ${VM_BOOT_SECONDS}s ($VM_ACCEL)"
	if ! vm_check_log "$work/$name/console.log" "$name" "$rc"; then
		fail=1
		continue
	fi
	for f in "$work/$name"/*.umockdev "$work/$name"/*.bin; do
		[ -e "$f" ] || continue
		case $f in *.bin) to=$edid_dest ;; *) to=$dest ;; esac
		old=$to/$(basename "$f")
		# runtime PM counters change on every boot; nothing else should
		volatile='^A: power/runtime_(active|suspended)_time='
		if [ -f "$old" ] && cmp -s <(grep -aEv "$volatile" "$old") <(grep -aEv "$volatile" "$f"); then
			vm_say "unchanged (but for PM counters): $old"
			continue
		fi
		cp "$f" "$to/"
		case $f in *.umockdev) record_kernel "$(basename "$f")" ;; esac
		vm_say "wrote $old"
	done
done
[ "$fail" -eq 0 ] && echo "captured on $kernel" >&2
exit "$fail"
