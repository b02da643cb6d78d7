#!/bin/bash
# bench on the command line: usage errors, and the errors a machine without
# a usable framebuffer gives (umockdev sysfs trees; no real device needed).
set -u
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

[ -x "$FBCLASSCTL" ] || skip "$FBCLASSCTL not built"
UMOCKDEV_RUN=${UMOCKDEV_RUN:-$(command -v umockdev-run)}
[ -x "$UMOCKDEV_RUN" ] || skip "umockdev-run not found (Debian package umockdev)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fixture=$top_srcdir/tests/fixtures/captured/bochs.umockdev

# run RC STDERR-SUBSTRING [umockdev args] -- fbclassctl ARGS...
run() {
	local want=$1 err=$2
	shift 2
	local mock=()
	while [ "$1" != -- ]; do mock+=("$1"); shift; done
	shift
	"$UMOCKDEV_RUN" "${mock[@]}" -- "$FBCLASSCTL" "$@" >"$work/out" 2>"$work/err"
	local rc=$?
	if [ "$rc" -ne "$want" ]; then
		not_ok "bench $*: exit $rc, expected $want"
		sed 's/^/#   /' "$work/err"
	elif ! grep -qF -- "$err" "$work/err"; then
		not_ok "bench $*: stderr lacks '$err'"
		sed 's/^/#   /' "$work/err"
	else
		ok "fbclassctl $* (exit $rc)"
	fi
}

run 2 "unknown strategy 'nope'" -- bench --strategy memcpy,nope
# kernels only make bench measures: no op of bench runs them
run 2 "unknown strategy 'sse2-pfw'" -- bench --strategy sse2-pfw
run 2 "unknown strategy 'reference'" -- bench --strategy reference
# every strategy --help names is taken (then: no framebuffer here)
strategies=$("$FBCLASSCTL" bench --help | sed -n '/--strategy/,/-J, --json/p' | sed '1d;$d' | tr -s ' \n' '  ')
expect_eq "bench --help names the strategies" "$(echo $strategies | wc -w)" 16
for st in $strategies; do
	run 1 "no framebuffer to benchmark" -- bench --strategy "$st"
done
run 2 '--duration: "0" is not a number of seconds above 0, at most 3600' -- bench -d 0
run 2 '--duration: "abc" is not a number of seconds' -- bench --duration abc
run 2 '--duration: "1e9" is not a number of seconds' -- bench --duration 1e9
run 1 "no framebuffer to benchmark" -- bench
run 1 "no framebuffer to benchmark" -- bench -J --quick
run 4 "fb7: no such framebuffer" -d "$fixture" -- bench fb7
mkdir "$work/dev"
# A device in sysfs but no node to open (and, as root, no real device behind
# the private node either): one clear error, exit 1, after the warning.
run 1 "fb0: cannot open $work/dev/fb0 read-write" -d "$fixture" -- bench --quick --dev "$work/dev" fb0
check "the warning names the device" grep -qF "fb0: bench draws on the visible screen" "$work/err"
check "one error line" test "$(grep -c 'cannot open' "$work/err")" -eq 1
run 1 "fb0: cannot open" -d "$fixture" -- bench -J --dev "$work/dev"
check "-J still prints the document" grep -qF '"framebuffers"' "$work/out"
# --snap DIR: a DIR that cannot take the files is refused before anything
# is drawn (no "draws on the visible screen" warning), naming DIR and the cause.
run 1 "bench: --snap $work/nodir: cannot open the directory: No such file or directory" \
	-d "$fixture" -- bench --quick --snap "$work/nodir" fb0
check "--snap: refused before the warning" sh -c "! grep -q 'draws on the visible screen' '$work/err'"
: >"$work/file"
run 1 "bench: --snap $work/file: cannot open the directory: Not a directory" \
	-d "$fixture" -- bench --quick --snap "$work/file" fb0
check "bench --help names --snap" sh -c "'$FBCLASSCTL' bench --help | grep -q 'DIR/fbN-fill.png'"
finish
