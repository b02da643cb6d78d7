#!/bin/bash
# json-c is dlopen()ed for -J only (src/jsonc-dlopen.c).  With an empty
# file for libjson-c.so.5 first in the search path, every -J says so and
# exits 1 before any work, and the commands without -J (coldplug above
# all) do what they do with the library: a binary that still named
# json-c in DT_NEEDED would not even start.
set -u
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

need_umockdev
"$FBCLASSCTL" --version | grep -q '^link: static' &&
	skip "the static build links json-c in"
tree=$top_srcdir/tests/fixtures/captured-6.12/drm-bochs.umockdev
have_fixture "$tree" || finish
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/lib" "$work/dev"
: >"$work/lib/libjson-c.so.5"

# run OUT-PREFIX [LD_LIBRARY_PATH] -- ARGS...: fbclassctl on the tree;
# stdout, stderr and the exit status in $work/OUT-PREFIX.{out,err,rc}
run() {
	local p=$work/$1 lib=$2
	shift 3
	"$UMOCKDEV_RUN" -d "$tree" -- env ${lib:+LD_LIBRARY_PATH="$lib"} "$FBCLASSCTL" "$@" \
		>"$p.out" 2>"$p.err"
	echo "$?" >"$p.rc"
}

for cmd in list info doctor holders console monitor bench; do
	run j "$work/lib" -- "$cmd" -J
	expect_eq "$cmd -J without json-c: exit 1" "$(cat "$work/j.rc")" 1
	check "$cmd -J without json-c: says which library, from which package, and why" \
		grep -qx "fbclassctl: $cmd -J: cannot load libjson-c.so.5 (Debian package libjson-c5): .*file too short" \
		"$work/j.err"
	check "$cmd -J without json-c: nothing on stdout" test ! -s "$work/j.out"
done

# Without -J: the same output and status as with json-c, and no word of it.
for args in "coldplug --dry-run --dev $work/dev" "list" "list -P" "info fb0" "doctor" "holders"; do
	# shellcheck disable=SC2086 # args are words
	run want "" -- $args
	# shellcheck disable=SC2086
	run got "$work/lib" -- $args
	expect_eq "$args without json-c: the same exit status" \
		"$(cat "$work/got.rc")" "$(cat "$work/want.rc")"
	# holders and doctor count the host's processes, which come and go
	[ "$args" = holders ] || [ "$args" = doctor ] ||
		check "$args without json-c: the same output" cmp -s "$work/want.out" "$work/got.out"
	check "$args without json-c: no word of json-c" sh -c '! grep -qi json "$1"' - "$work/got.err"
	[ "${args%% *}" = coldplug ] &&
		check "coldplug --dry-run without json-c: plans fb0's node" \
			grep -qx "mknod $work/dev/fb0 c 29 0" "$work/got.out"
done

finish
