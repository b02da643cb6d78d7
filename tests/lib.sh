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
		echo "ok - $1 # SKIP $2"
	fi
}

n_pass=0
n_fail=0
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

finish() {
	echo "# $n_pass passed, $n_fail failed"
	[ "$n_fail" -eq 0 ]
}
