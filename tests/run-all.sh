#!/bin/bash
# Every test tier (the README's second command).  Out-of-tree builds only,
# so the source tree stays clean:
#   _build      --enable-werror: make distcheck (the release tarball, its
#               unit tests and the script tests the fast tiers leave out),
#               the VM tier once (make check-vm), make check-valgrind, make
#               fuzz, cppcheck
#   _build-san  --enable-werror --enable-sanitizers: the fast tiers (unit,
#               cli, fixtures, ns, ...) under ASan and UBSan
#   _build-sysfs --enable-werror --with-libsysfs: the libsysfs backend and
#               our own netlink reader, no libudev; the fast tiers again
#   _build-static --enable-werror --with-libsysfs --enable-static-binary:
#               a static binary (ldd: not dynamic); unit and CLI tests
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
jobs=${JOBS:-2}

step() { printf '\n==== %s (%s)\n' "$*" "$(date -u +%T)"; }

# On a failure, repeat at the very end (where a CI summary that keeps only
# the tail still shows it) which tests failed and their "not ok" lines.
report_failures() {
	rc=$?
	# umockdev-run's own deaths before it ran a command, run once more
	# (tests/umockdev-run.sh): said whatever the outcome
	cat _build*/tests/umockdev-run-retries.log \
		2>/dev/null | sed 's/^/umockdev-run retried: /' || true
	[ "$rc" -eq 0 ] && return
	printf '\n==== failed (exit %s); the failing tests say:\n' "$rc"
	find _build _build-san _build-sysfs _build-static -name '*.trs' -exec grep -l '^:test-result: FAIL' {} + 2>/dev/null |
		while read -r trs; do
			log=${trs%.trs}.log
			echo "--- $log"
			# TAP scripts say "not ok"; the C unit tests say FILE:LINE
			grep -A8 '^not ok' "$log" | head -n 60 ||
				grep -v '^ok' "$log" | tail -n 20
		done
}
trap report_failures EXIT

# ldd's output taken whole (under pipefail, ldd | grep -q fails when ldd
# exits 1, as it does for a static binary, or when grep stops reading)
no_udev() {
	out=$(LC_ALL=C ldd "$1" 2>&1) || { echo "ldd $1: $out" >&2; return 1; }
	case $out in
	*libudev*) echo "$1 links libudev:" >&2 && echo "$out" >&2 && return 1 ;;
	esac
}
is_static() {
	out=$(LC_ALL=C ldd "$1" 2>&1 || true)
	case $out in
	*"not a dynamic executable"*) ;;
	*) echo "$1 is not static:" >&2 && echo "$out" >&2 && return 1 ;;
	esac
}

# Commit messages follow HACKING's rule from commit_base on: the newest
# release tag, or before any tag 74d07b8, the last commit before the rule
# (history before it stays as it was written).  No git history (a release
# tarball, a git archive export): nothing to check.
commit_base=74d07b8
step "commit messages since the last release tag (tests/git/commit-msg)"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1 && [ -e .git ]; then
	tag=$(git describe --tags --abbrev=0 2>/dev/null) && commit_base=$tag
	git cat-file -e "$commit_base^{commit}" 2>/dev/null || {
		echo "commit messages: $commit_base is not in this clone (a shallow clone? git fetch --unshallow)" >&2
		exit 1
	}
	tests/git/commit-msg --range "$commit_base..HEAD"
else
	echo "commit messages: not a git checkout, no history to check"
fi

step "bootstrap"
./autogen.sh

# What the VM step downloads, fetched while the steps before it keep the
# CPUs busy: both kernels and the systemd tier's Debian 12 root (each
# cached under a lock, where the VM step finds it).  Not a step of its own:
# a failure here is only said, and the VM step tries again and says why.
step "vm downloads: the kernels and the Debian root, in the background"
prefetch_log=$(mktemp)
(bash tests/vm/kernel.sh 6.1 >/dev/null && bash tests/vm/kernel.sh 6.12 >/dev/null &&
	bash tests/vm/systemd/rootfs.sh bookworm >/dev/null) >"$prefetch_log" 2>&1 &
prefetch_pid=$!

step "build (warnings are errors)"
mkdir -p _build
(cd _build && { [ -f Makefile ] || ../configure --enable-werror; } && make -j"$jobs")

# The VM tier boots once, in _build below, not in distcheck's tree too:
# it is most of the time, and the tarball ships tests/vm whole.
# The hostile catalogue's vm tier (two boots) runs with the VM tier's boots
# below, on their slots, not one after the other inside distcheck.
step "make distcheck: the tarball, its unit tests and the tiers only it runs"
(cd _build && HOSTILE_TIERS="fixture ns" make -j"$jobs" distcheck TESTS='$(distcheck_tests)')

step "sanitizers: the fast tiers under ASan and UBSan"
mkdir -p _build-san
(cd _build-san && { [ -f Makefile ] || ../configure --enable-werror --enable-sanitizers; } &&
	make -j"$jobs" &&
	ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 make -j"$jobs" check-fast)

step "libsysfs build (--with-libsysfs, no libudev): the fast tiers"
mkdir -p _build-sysfs
(cd _build-sysfs && { [ -f Makefile ] || ../configure --enable-werror --with-libsysfs; } &&
	make -j"$jobs" && no_udev fbclassctl && make -j"$jobs" check-fast)

step "static build (--with-libsysfs --enable-static-binary): not dynamic, the fast tiers"
mkdir -p _build-static
(cd _build-static &&
	{ [ -f Makefile ] || ../configure --enable-werror --with-libsysfs --enable-static-binary; } &&
	make -j"$jobs" && is_static fbclassctl && make -j"$jobs" check-fast)

# The comparison of the three builds boots beside the tier: the boots of
# both share the same slots (tests/vm/lib-vm.sh), so neither CPU idles
# while the other runs the tier's last, longest boots.
step "vm: the scenarios, the kernel hazards (make check-vm) and, side by side, both backends and the static build (tests/vm/backends/compare.sh) and the hostile catalogue's vm tier"
prefetch_rc=0
wait "$prefetch_pid" || prefetch_rc=$?
if [ "$prefetch_rc" != 0 ]; then
	echo "vm downloads: exit $prefetch_rc (the VM step tries again):"
	tail -n 5 "$prefetch_log"
fi
rm -f "$prefetch_log"
(cd _build && make -j"$jobs" vm-guest-helpers)
compare_log=$(mktemp)
(cd _build && FBCLASSCTL="$top/_build/fbclassctl" FBCLASSCTL_SYSFS="$top/_build-sysfs/fbclassctl" \
	FBCLASSCTL_STATIC="$top/_build-static/fbclassctl" top_srcdir="$top" top_builddir="$top/_build" \
	bash "$top/tests/vm/run.sh" "$top/tests/vm/backends/compare.sh") >"$compare_log" 2>&1 &
compare_pid=$!
hostile_log=$(mktemp)
(cd _build && top_srcdir="$top" top_builddir="$top/_build" FBCLASSCTL="$top/_build/fbclassctl" \
	bash "$top/tests/hostile/run.sh" vm) >"$hostile_log" 2>&1 &
hostile_pid=$!
vm_rc=0
(cd _build && make -j"$jobs" check-vm) || vm_rc=$?
compare_rc=0
wait "$compare_pid" || compare_rc=$?
hostile_rc=0
wait "$hostile_pid" || hostile_rc=$?
echo "---- tests/vm/backends/compare.sh (exit $compare_rc):"
cat "$compare_log"
echo "---- tests/hostile/run.sh vm (exit $hostile_rc):"
cat "$hostile_log"
rm -f "$compare_log" "$hostile_log"
if [ "$vm_rc" != 0 ] || [ "$compare_rc" != 0 ] || [ "$hostile_rc" != 0 ]; then
	echo "vm: make check-vm exited $vm_rc, compare.sh $compare_rc, hostile vm $hostile_rc" >&2
	exit 1
fi

step "valgrind: the CLI and the fixture tier's gathering runs"
(cd _build && make check-valgrind)

step "fuzzing: every parser, its corpus and ${FUZZ_SECONDS:-15} s more"
(cd _build && make fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-15}")

step "static analysis: cppcheck"
(cd _build && make cppcheck)

step "format: every C file as .clang-format has it"
(cd _build && make format-check)

step "all tiers passed"
