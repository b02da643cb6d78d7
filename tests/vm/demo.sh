#!/bin/bash
# demo.sh [FBCLASSCTL]: for machines without framebuffers.  Boots the test
# VM (a Debian kernel under qemu, bochs-drm, vesafb and vfb) and runs
# fbclassctl coldplug, list, info and bench there, streaming the output.
# It boots Debian 13's kernel (VM_KERNELS=6.1: Debian 12's).
# The first run downloads the kernel package (~110 MB) into
# ${FBCLASSCTL_VM_CACHE:-~/.cache/fbclassctl-vm}; later runs reuse it.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/vm/lib-vm.sh
. "$here/lib-vm.sh"

FBCLASSCTL=${1:-${FBCLASSCTL:-}}
if [ -z "$FBCLASSCTL" ]; then
	for c in "${top_builddir:-}/fbclassctl" "$here/../../_build/fbclassctl" \
		"$here/../../fbclassctl" "$(command -v fbclassctl 2>/dev/null)"; do
		[ -n "$c" ] && [ -x "$c" ] && { FBCLASSCTL=$c; break; }
	done
fi
if [ -z "$FBCLASSCTL" ] || [ ! -x "$FBCLASSCTL" ]; then
	echo "demo: no fbclassctl binary${FBCLASSCTL:+ at $FBCLASSCTL}: build it first, or pass its path" >&2
	exit 1
fi
export FBCLASSCTL

missing=
for tool in qemu-system-x86_64:qemu-system-x86 cpio:cpio depmod:kmod fbset:fbset jq:jq; do
	command -v "${tool%%:*}" >/dev/null || missing="$missing ${tool#*:}"
done
if ! command -v busybox >/dev/null || ldd "$(command -v busybox)" >/dev/null 2>&1; then
	missing="$missing busybox-static"
fi
if [ -n "$missing" ]; then
	echo "demo: the VM needs:$missing (sudo apt-get install$missing)" >&2
	exit 77
fi

# the newer kernel, Debian 13's, unless VM_KERNELS names one (6.1)
demo_kernel=${VM_KERNELS:-6.12}
vm_kernel "${demo_kernel%%,*}" || { echo "demo: no ${demo_kernel%%,*} kernel for the VM" >&2; exit 77; }
VM_ACCEL=$(vm_accel)
export VM_ACCEL VM_STREAM=1
work=$(mktemp -d "${TMPDIR:-/tmp}/fbclassctl-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
vm_say "booting $KLABEL under qemu ($VM_ACCEL) with $FBCLASSCTL"
rc=0
vm_boot "$here/demo/demo.sh" "$work/demo" || rc=$?
echo
vm_say "boot took ${VM_BOOT_SECONDS}s"
if vm_check_log "$work/demo/console.log" demo "$rc" >"$work/summary"; then
	vm_say "demo finished: every command succeeded"
else
	grep -v '^\[demo\] ok ' "$work/summary"
	vm_say "demo: some commands failed (above)"
	exit 1
fi
