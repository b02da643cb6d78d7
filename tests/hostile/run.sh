#!/bin/bash
# The hostile-input catalogue: every line of tests/hostile/cases.txt, each in
# its tier (fixture, ns, vm), as TAP.  See the top of cases.txt for the
# format.  Exits non-zero on any failure.
#
#   tests/hostile/run.sh                   every tier
#   tests/hostile/run.sh fixture ns        some tiers
#   HOSTILE_TIERS="fixture ns" run.sh      the same, where make runs it
#   HOSTILE_CASE=PATTERN run.sh            only cases whose name matches (grep -E)
#
# A tier that cannot run here (no root for ns, no qemu or kernel for vm) is
# reported as SKIP on each of its cases; under CI=true that is a failure.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${top_srcdir:=$(cd "$here/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
export LC_ALL=C.UTF-8

cases=$here/cases.txt
tiers=${*:-${HOSTILE_TIERS:-fixture ns vm}}
: "${UMOCKDEV_RUN:=$(command -v umockdev-run || true)}"
export UMOCKDEV_RUN FBCLASSCTL
HOSTILE_TREES=$here/trees
HOSTILE_FIX=$top_srcdir/tests/fixtures
export HOSTILE_TREES HOSTILE_FIX

[ -x "$FBCLASSCTL" ] || skip "$FBCLASSCTL not built"
[ -x "$UMOCKDEV_RUN" ] || skip "umockdev-run not found (Debian package umockdev)"

# split LINE: the fields of a case line into F[0..6]; 1 if it is not one.
split() {
	local rest=$1
	F=()
	while [[ $rest == *" | "* ]]; do
		F+=("${rest%%" | "*}")
		rest=${rest#*" | "}
	done
	F+=("$rest")
	[ "${#F[@]}" -eq 7 ]
}

# case_lines TIER: the case lines of TIER (and bad lines of any tier).
case_lines() {
	local line
	while IFS= read -r line; do
		case $line in "" | "#"*) continue ;; esac
		if ! split "$line"; then
			echo "BAD ${#F[@]} fields: $line"
			continue
		fi
		[ "${F[0]}" = "$1" ] || continue
		[ -z "${HOSTILE_CASE:-}" ] || grep -qE -- "$HOSTILE_CASE" <<<"${F[1]}" || continue
		printf '%s\n' "$line"
	done <"$cases"
}

# tier_skipped TIER REASON: every case of TIER as SKIP (a failure under CI).
tier_skipped() {
	local line
	while IFS= read -r line; do
		split "$line"
		skip_part "${F[0]}/${F[1]}" "$2"
	done < <(case_lines "$1")
}

# Helpers that a case's setup, command and state may use (fixture, ns).
# fbc ARGS: fbclassctl on $TREE under umockdev-run (directly when TREE is empty)
fbc() {
	if [ -n "${TREE:-}" ]; then
		"$UMOCKDEV_RUN" -d "$TREE" -- "$FBCLASSCTL" "$@"
	else
		"$FBCLASSCTL" "$@"
	fi
}
# hp VAR=VALUE...: fbclassctl hotplug --dev $DEV with exactly these uevent variables
hp() {
	env -i PATH="$PATH" "$@" "$UMOCKDEV_RUN" -d "$TREE" -- "$FBCLASSCTL" hotplug --dev "$DEV"
}
# conf LINE: $W/c.conf holding that one line (printf %b: \t, \001 and \" work)
conf() { printf '%b\n' "$1" >"$W/c.conf"; }
# empty DIR: DIR exists and holds nothing
empty() { [ -d "$1" ] && [ -z "$(ls -A "$1")" ]; }

# run_case LINE WORKDIR: run one case; prints the TAP line.
run_case() {
	local line=$1 cw=$2 rc state why=
	split "$line"
	local tier=${F[0]} name=${F[1]} setup=${F[2]} cmd=${F[3]} want_rc=${F[4]} msg=${F[5]} test=${F[6]}
	[ "$setup" = - ] && setup=:
	# the message may name $DEV or $W (only these two are expanded)
	msg=${msg//\$DEV/$DEV}
	msg=${msg//\$W/$cw/w}
	mkdir -p "$cw/w"
	(
		W=$cw/w OUT=$cw/out ERR=$cw/err
		export W OUT ERR
		eval "$setup" >"$cw/setup.log" 2>&1 || { echo setup >"$cw/status"; exit 0; }
		eval "$cmd" >"$OUT" 2>"$ERR"
		echo "$?" >"$cw/rc"
		if eval "$test" >"$cw/state.log" 2>&1; then echo ok; else echo bad; fi >"$cw/status"
	)
	state=$(cat "$cw/status" 2>/dev/null)
	rc=$(cat "$cw/rc" 2>/dev/null)
	if [ "$state" = setup ]; then
		why="setup failed: $(tr '\n' ' ' <"$cw/setup.log")"
	elif [ "$rc" != "$want_rc" ]; then
		why="exit $rc, expected $want_rc"
	elif [ "$msg" != - ] && ! grep -qF -- "$msg" "$cw/err"; then
		why="no '$msg' in stderr"
	elif [ "$state" != ok ]; then
		why="state afterwards wrong: $test"
	fi
	if [ -z "$why" ]; then
		ok "$tier/$name"
	else
		not_ok "$tier/$name: $why"
		sed 's/^/#   stderr: /' "$cw/err" 2>/dev/null | head -n 20
		sed 's/^/#   state: /' "$cw/state.log" 2>/dev/null | head -n 5
	fi
}

work=$(mktemp -d "${TMPDIR:-/tmp}/fbclassctl-hostile.XXXXXX")
trap 'rm -rf "$work"' EXIT
n=0
# the ns tier re-runs this script inside unshare; it prints only TAP lines
if [ -n "${HOSTILE_NS_INNER:-}" ]; then
	ns_tree=$work/three.umockdev
	sh "$top_srcdir/tests/ns/mkfixture.sh" 3 >"$ns_tree"
	while IFS= read -r line; do
		n=$((n + 1))
		# $DEV two levels down, so "../../x" stays inside the case's directory
		d=$work/$n/d/dev
		mkdir -p "$d"
		mount -t tmpfs -o mode=0755 hostile "$d"
		DEV=$d TREE=$ns_tree run_case "$line" "$work/$n"
		while mountpoint -q "$d"; do umount "$d" || break; done
	done < <(case_lines ns)
	exit 0
fi
bad_lines=$(grep -c '^BAD' < <(case_lines none) || true)
if [ "$bad_lines" -gt 0 ]; then
	case_lines none | grep '^BAD' | while IFS= read -r l; do echo "# $l"; done
	not_ok "cases.txt: $bad_lines lines without 7 fields"
fi

# ---- fixture: umockdev, a fresh empty --dev dir, no privileges needed ----
run_fixture() {
	local line
	while IFS= read -r line; do
		n=$((n + 1))
		mkdir -p "$work/$n/dev"
		DEV=$work/$n/dev TREE= run_case "$line" "$work/$n"
	done < <(case_lines fixture)
}

# ---- ns: as root in a private mount namespace, a tmpfs on $DEV ----
run_ns() {
	local line reason=
	[ "$(id -u)" = 0 ] || reason="needs root (mknod, chown, mount)"
	[ -n "$reason" ] || unshare --mount --propagation private true 2>/dev/null ||
		reason="unshare --mount does not work here"
	[ -n "$reason" ] || getent group video >/dev/null || reason="no video group"
	if [ -n "$reason" ]; then
		tier_skipped ns "$reason"
		return
	fi
	# the inner runner prints TAP; count its lines here
	while IFS= read -r line; do
		echo "$line"
		case $line in
		"ok "*) n_pass=$((n_pass + 1)) ;;
		"not ok "*) n_fail=$((n_fail + 1)) ;;
		esac
	done < <(HOSTILE_NS_INNER=1 unshare --mount --propagation private bash "$here/run.sh" ns 2>&1)
}

# ---- vm: all vm cases in one boot of a generated scenario ----
# shellcheck source=tests/hostile/vm.sh
. "$here/vm.sh"

for tier in $tiers; do
	case $tier in
	fixture) run_fixture ;;
	ns) run_ns ;;
	vm) run_vm ;;
	*) echo "hostile: no tier '$tier' (fixture, ns, vm)" >&2; exit 2 ;;
	esac
done
finish
