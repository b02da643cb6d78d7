# Shared helpers for the shell test tiers.  Sourced, not run.
# shellcheck shell=bash

: "${top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${FBCLASSCTL:=$top_builddir/fbclassctl}"

# SKIP (77) on a user's machine; under CI a tier that cannot run is a failure.
skip() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL (CI=true, a skip is a failure): $*" >&2
		exit 1
	fi
	echo "SKIP: $*" >&2
	exit 77
}

# skip_part DESC REASON: one check of a tier that cannot run here.  On a
# user's machine a TAP "# SKIP" line; under CI a failure, as skip() is.
skip_part() {
	if [ "${CI:-}" = true ]; then
		not_ok "$1 (CI=true, a skip is a failure: $2)"
	else
		n_skip=$((n_skip + 1))
		echo "ok - $1 # SKIP $2"
	fi
}

n_pass=0
n_fail=0
n_skip=0
ok() { n_pass=$((n_pass + 1)); echo "ok - $*"; }
not_ok() { n_fail=$((n_fail + 1)); echo "not ok - $*"; }

# check NAME CMD...: run CMD, report ok/not ok.
check() {
	local name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}

# expect_eq NAME GOT WANT: ok when GOT is WANT, else both shown.
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else
		not_ok "$1"
		printf '#   got:  %s\n#   want: %s\n' "$2" "$3"
	fi
}

# need_umockdev: UMOCKDEV_RUN found and FBCLASSCTL built, as an absolute
# path (umockdev-run's child may run elsewhere), or the script skips.
need_umockdev() {
	UMOCKDEV_RUN=${UMOCKDEV_RUN:-$(command -v umockdev-run)}
	[ -x "$UMOCKDEV_RUN" ] || skip "umockdev-run not found (Debian package umockdev)"
	[ -x "$FBCLASSCTL" ] || skip "$FBCLASSCTL not built"
	case $FBCLASSCTL in /*) ;; *) FBCLASSCTL=$PWD/$FBCLASSCTL ;; esac
}

# have_fixture FILE...: true when every FILE is there.  A missing one is
# a failed check, so that a renamed fixture cannot take its checks away
# in silence: `if have_fixture F; then ...checks on F...; fi`.
have_fixture() {
	local f rc=0
	for f; do
		[ -e "$f" ] && continue
		not_ok "fixture ${f#"$top_srcdir"/} is there"
		rc=1
	done
	return "$rc"
}

# The verdict, as tests/unit/test.h's test_finish(): a failure when a
# check failed or when none ran.  A script whose every check was skipped
# (skip_part) is a SKIP, as skip() is.
finish() {
	local skipped=
	[ "$n_skip" -eq 0 ] || skipped=", $n_skip skipped"
	echo "# $n_pass passed, $n_fail failed$skipped"
	if [ $((n_pass + n_fail)) -eq 0 ]; then
		[ "$n_skip" -gt 0 ] && skip "every check was skipped"
		echo "not ok - no check ran: a test that checks nothing cannot pass"
		return 1
	fi
	[ "$n_fail" -eq 0 ]
}
