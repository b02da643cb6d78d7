#!/bin/bash
# fbclassctl wait under umockdev (the tree's sysfs; no uevent comes): at
# once when the framebuffer or connector is there (connected, shown), exit
# 4 after --timeout when it is not, and usage errors.  A vfb loaded a
# second later and a burst of unrelated uevents are the VM's
# (tests/vm/scenarios/metrics.sh).
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

UMOCKDEV_RUN=${UMOCKDEV_RUN:-$(command -v umockdev-run)}
[ -x "$UMOCKDEV_RUN" ] || skip "umockdev-run not found (Debian package umockdev)"
[ -x "$FBCLASSCTL" ] || skip "$FBCLASSCTL not built"
fixdir=$top_srcdir/tests/fixtures
work=$(mktemp -d /tmp/fbclassctl-wait.XXXXXX)
trap 'rm -rf "$work"' EXIT

# fbw FIXTURE ARGS...: wait under umockdev; $rc, $secs (elapsed), stderr in $work/err
fbw() {
	local fixture=$1 t0 t1
	shift
	t0=$(date +%s%N)
	"$UMOCKDEV_RUN" -d "$fixture" -- "$FBCLASSCTL" wait "$@" >/dev/null 2>"$work/err"
	rc=$?
	t1=$(date +%s%N)
	secs=$(((t1 - t0) / 1000000))
}
on=$fixdir/captured/drm-bochs.umockdev
off=$fixdir/captured/drm-bochs-off.umockdev

for args in "fb0" "/dev/fb0" "--connected fb0" "--shown fb0" "card0-Virtual-1" \
	"--connected card0-Virtual-1" "--shown card0-Virtual-1"; do
	# shellcheck disable=SC2086
	fbw "$on" -t 60 $args
	expect_eq "wait $args: there at once, exit 0" "$rc" 0
	check "wait $args: at once (${secs} ms, not the 60 s)" test "$secs" -lt 30000
done
fbw "$off" -t 0.5 fb0
expect_eq "drm-bochs-off: fb0 is there" "$rc" 0
for args in "--connected fb0" "--connected card0-Virtual-1" "--shown card0-Virtual-1"; do
	# shellcheck disable=SC2086
	fbw "$off" -t 0.5 $args
	expect_eq "drm-bochs-off: wait $args times out: exit 6" "$rc" 6
	check "drm-bochs-off: wait $args waited the 0.5 s (${secs} ms)" test "$secs" -ge 500
done
fbw "$on" -t 0.3 fb7
expect_eq "wait fb7 (none): exit 6" "$rc" 6
expect_eq "wait fb7: says so" "$(cat "$work/err")" "fbclassctl: wait: fb7: not there after 0.3 s"
fbw "$on" -t 0 card0-HDMI-A-1
expect_eq "wait -t 0 for a connector that is not there: exit 6" "$rc" 6
fbw "$fixdir/captured/vfb.umockdev" -t 0.2 --connected fb0
expect_eq "vfb has no card: --connected times out" "$rc" 6

for bad in "-t abc fb0" "-t -1 fb0" "-t 3601 fb0" "--timeout= fb0" "fb0 fb1" "" "xyz" "card0" "fbx" \
	"card0-"; do
	# shellcheck disable=SC2086
	"$FBCLASSCTL" wait $bad >/dev/null 2>"$work/err"
	expect_eq "wait $bad: usage error" "$?" 2
done
finish
