#!/bin/bash
# tests/umockdev-run.sh OPTIONS -- COMMAND...: umockdev-run, run once more
# when it died before it started COMMAND.  make check's UMOCKDEV_RUN.
#
# umockdev-run 0.17 (Debian 12) dies by SIGSEGV about once in a few
# thousand starts: its socket thread reads the environment (getenv in
# g_signal_connect_data) while its main thread, still loading the
# testbed description, changes it (the core: thread 1 in __GI_getenv,
# thread 3 in g_file_get_contents).  COMMAND has not run then, so such a
# death says nothing of fbclassctl.  COMMAND is started through a shell
# that marks its start and then execs it (the same process, as callers
# that signal umockdev-run's child expect); without the mark and with a
# death by a signal, this runs it once more and appends a line to
# $top_builddir/tests/umockdev-run-retries.log, which tests/run-all.sh
# prints.  A death after the mark (COMMAND's own, or umockdev-run's while
# COMMAND ran) is returned as it is: the test sees it.
#
# Callers that need umockdev-run itself as the parent of COMMAND (they
# read its children, or signal it) use $UMOCKDEV_RUN_REAL.
set -u
real=${UMOCKDEV_RUN_REAL:-$(command -v umockdev-run)}
opts=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	opts+=("$1")
	shift
done
[ $# -gt 0 ] || exec "$real" "${opts[@]}"
shift
dir=$(mktemp -d "${TMPDIR:-/tmp}/umockdev-run.XXXXXX") || exec "$real" "${opts[@]}" -- "$@"
trap 'rm -rf "$dir"' EXIT
# COMMAND writes to our stderr (fd 3); bash's own notice of a death by a
# signal ("line N: PID Segmentation fault") goes to /dev/null, not into
# the stderr a test compares
exec 3>&2
for try in 1 2; do
	{ "$real" "${opts[@]}" -- /bin/sh -c ': >"$0" && exec "$@"' "$dir/started" "$@" 2>&3 3>&-; } 2>/dev/null
	rc=$?
	if [ "$rc" -le 128 ] || [ -e "$dir/started" ] || [ "$try" = 2 ]; then
		break
	fi
	if [ -n "${top_builddir:-}" ] && [ -d "$top_builddir/tests" ]; then
		printf '%s: umockdev-run died by signal %d before it ran %s; once more\n' \
			"$(date -u +%FT%T)" $((rc - 128)) "${1##*/}" >>"$top_builddir/tests/umockdev-run-retries.log"
	fi
done
exit "$rc"
