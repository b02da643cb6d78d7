#!/bin/bash
# make check-valgrind: tests/cli.sh and the fixture tier with fbclassctl
# under valgrind (tests/valgrind.sh), where it finds what ASan cannot: a
# read of memory never written, in the plain build users run.  The fixture
# tier runs only its gathering runs (FIXTURES_RUNS=gather), in two shards;
# the three parts run JOBS at a time (default 2).  Shard 0 also holds the
# tier's facts: measured, the CLI part takes about 100 s, shard 0 160 s
# and a third of the fixtures 83 s, so two shards end first (about 225 s
# of wall time) and three end later (about 243 s).  VALGRIND_FULL=1 (make
# check-full) runs every fixture run, in one part.
# Needs top_srcdir, top_builddir and UMOCKDEV_RUN, as make sets them.
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
command -v valgrind >/dev/null || { echo "valgrind not found (Debian package valgrind)" >&2; exit 1; }
export FBCLASSCTL_REAL=$top_builddir/fbclassctl FBCLASSCTL=$top_srcdir/tests/valgrind.sh
export top_srcdir top_builddir UMOCKDEV_RUN
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

if [ "${VALGRIND_FULL:-0}" = 1 ]; then
	parts=("cli" "fixtures all 0/1")
else
	parts=("cli" "fixtures gather 0/2" "fixtures gather 1/2")
fi
# part NAME [RUNS SHARD]: one test script, its log in $logs/N.log
part() {
	case $1 in
	cli) bash "$top_srcdir/tests/cli.sh" ;;
	fixtures) FIXTURES_RUNS=$2 FIXTURES_SHARD=$3 bash "$top_srcdir/tests/fixtures/run.sh" ;;
	esac
}
pids=()
n=0
for p in "${parts[@]}"; do
	# shellcheck disable=SC2086
	(part $p >"$logs/$n.log" 2>&1; echo $? >"$logs/$n.rc") &
	pids+=($!)
	n=$((n + 1))
	# at most JOBS at once: wait for the oldest before starting more
	[ "${#pids[@]}" -lt "${JOBS:-2}" ] || { wait "${pids[0]}"; pids=("${pids[@]:1}"); }
done
wait
rc=0
for ((i = 0; i < n; i++)); do
	r=$(cat "$logs/$i.rc" 2>/dev/null || echo 1)
	echo "check-valgrind: ${parts[$i]}: $(tail -n 1 "$logs/$i.log") (exit $r)"
	if [ "$r" != 0 ]; then
		grep -E "^not ok|==[0-9]+==" "$logs/$i.log" | head -n 40
		rc=1
	fi
done
exit "$rc"
