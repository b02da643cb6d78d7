#!/bin/bash
# Terminal tier: tables on an 80- and a 40-column terminal (the
# framebuffer console is this tool's home).  Every command that prints a
# table runs on the captured and hand-made trees under a pseudo-terminal
# (tests/tty-run.py); tests/tty-fit.py holds its lines to those it prints
# to a pipe: each still one line, led by the same NAME (no staircase), and
# none wider than the terminal where the long columns, cut, let it fit.
# doctor's summary and evidence, and holders' lines, wrap in place under
# their column.  To a
# pipe nothing is ever cut, whatever COLUMNS says.
set -u
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

export LC_ALL=C.UTF-8
py=/usr/bin/python3
[ -x "$py" ] || skip "/usr/bin/python3 not found (Debian package python3)"
need_umockdev

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/dev" "$work/proc" "$work/boot"
echo quiet >"$work/proc/cmdline"
ttyrun=$top_srcdir/tests/tty-run.py
fit=$top_srcdir/tests/tty-fit.py
# The long columns, cut in place (fbclassctl(8), list)
long_list=ID,PATH,MONITOR,NODE,CONNECTOR,REASON
long_conn=MONITOR,SCANOUT,OWNER

# The checker can fail: a staircase, a lost NAME, a line too wide.
fails() { ! "$@" >/dev/null; }
printf 'NAME ID\nfb0  x\n' >"$work/pipe"
printf 'NAME="fb0" ID="x"\n' >"$work/pairs"
printf 'NAME ID\nfb0\n     x\n' >"$work/tty"
check "tty-fit.py sees a staircase" fails "$py" "$fit" 80 "$work/tty" "$work/pipe" "$work/pairs" ID
printf 'NAME ID\n     x\n' >"$work/tty"
check "tty-fit.py sees a line without its NAME" fails "$py" "$fit" 80 "$work/tty" "$work/pipe" "$work/pairs" ID
printf 'NAME ID\nfb0  xxxxxxxxxx\n' >"$work/tty"
check "tty-fit.py sees a line wider than the terminal" fails "$py" "$fit" 8 "$work/tty" "$work/pipe" "$work/pairs" ID
printf 'ok  system  class  one two three four\n' >"$work/pipe"
printf 'ok  system  class  one two\n                   three four\n' >"$work/tty"
check "tty-fit.py --wrapped passes words wrapped in place" "$py" "$fit" --wrapped 30 "$work/tty" "$work/pipe"
check "tty-fit.py --wrapped sees a line too wide" fails "$py" "$fit" --wrapped 20 "$work/tty" "$work/pipe"
printf 'ok  system  class  one two\n' >"$work/tty"
check "tty-fit.py --wrapped sees words lost" fails "$py" "$fit" --wrapped 30 "$work/tty" "$work/pipe"
printf 'NAME ID\nfb0  x\n' >"$work/pipe"
check "tty-fit.py passes a table that fits" "$py" "$fit" 80 "$work/pipe" "$work/pipe" "$work/pairs" ID

# Each tree's runs go in one umockdev-run (its start is most of the time):
# out/N.pipe, .pairs, .pipe40 (COLUMNS=40, to a pipe), .tty80, .tty40.
# Its stdin is the list of runs: N, then the command's arguments.  What a
# run does is for the checks (a crashed fbclassctl shows as missing
# output, which they fail); the loop marks that it reached its end, so a
# harness that died (umockdev-run or the loop's bash, under its preload,
# whatever its status) is told apart.  That is tried once more, and said:
# it happened once in the sanitizer build, at the start of a tree.
runs() {
	local tree=$1 try rc
	cat >"$work/runs.in"
	for try in 1 2; do
		rm -rf "$out" && mkdir -p "$out"
		runs_once "$tree" <"$work/runs.in"
		rc=$?
		[ -e "$out/.complete" ] && return 0
		echo "# $tree: the harness died before its last run (status $rc, try $try)"
	done
}
runs_once() {
	local tree=$1
	"$UMOCKDEV_RUN" -d "$tree" -- bash -c '
		while IFS= read -r line; do
			eval "set -- $line"
			n=$1 table=$2
			shift 2
			"$FBCLASSCTL" "$@" >"$out/$n.pipe" 2>/dev/null </dev/null
			if [ "$table" = table ]; then
				"$FBCLASSCTL" "$@" -P >"$out/$n.pairs" 2>/dev/null </dev/null
				COLUMNS=40 "$FBCLASSCTL" "$@" >"$out/$n.pipe40" 2>/dev/null </dev/null
			fi
			for cols in 80 40; do
				"$py" "$ttyrun" "$cols" "$FBCLASSCTL" "$@" >"$out/$n.tty$cols" 2>/dev/null </dev/null
			done
		done
		: >"$out/.complete"'
}

# table N DESC LONG: a table's runs held by tty-fit.py; lines N DESC: a
# command that prints lines, not a table: as many on a terminal as to a
# pipe, nothing broken; wrapped N DESC: doctor's lines, wrapped in place
table() {
	local n=$1 desc=$2 long=$3 cols
	check "$desc: to a pipe, COLUMNS=40 cuts nothing" cmp -s "$out/$n.pipe" "$out/$n.pipe40"
	for cols in 80 40; do
		if "$py" "$fit" "$cols" "$out/$n.tty$cols" "$out/$n.pipe" "$out/$n.pairs" "$long" >"$work/why"; then
			ok "$desc at $cols columns"
		else
			not_ok "$desc at $cols columns"
			sed 's/^/#   /' "$work/why"
			sed 's/^/#   | /' "$out/$n.tty$cols"
		fi
	done
}
lines() {
	local n=$1 desc=$2 cols
	for cols in 80 40; do
		check "$desc at $cols columns: the lines a pipe gets" \
			test "$(wc -l <"$out/$n.tty$cols")" -eq "$(wc -l <"$out/$n.pipe")"
	done
}

wrapped() {
	local n=$1 desc=$2 cols
	for cols in 80 40; do
		if "$py" "$fit" --wrapped "$cols" "$out/$n.tty$cols" "$out/$n.pipe" >"$work/why"; then
			ok "$desc at $cols columns: wrapped in place"
		else
			not_ok "$desc at $cols columns: wrapped in place"
			sed 's/^/#   /' "$work/why"
			sed 's/^/#   | /' "$out/$n.tty$cols"
		fi
	done
}

export FBCLASSCTL py ttyrun
export out=$work/out
d=$work/dev
c="--dev $d --no-temp-node"
fixtures=$top_srcdir/tests/fixtures
# the captured kinds (one or two fbs, cards without one, four connectors),
# both kernels, a hostile tree and an EDID that is not trusted
trees=(captured/multi captured/drm-bochs captured/drm-bochs-2cards captured/drm-qxl
	captured/drm-nofbdev captured/vesafb captured-6.12/multi captured-6.12/drm-handoff
	handmade/hostile handmade/drm-edid-127)
check "there are trees to run on" test "${#trees[@]}" -ge 10
for t in "${trees[@]}"; do
	have_fixture "$fixtures/$t.umockdev" || continue
	runs "$fixtures/$t.umockdev" <<RUNS
list table list $c
plus table list -o +PATH,MODULE,MONITOR $c
all table list -O $c
drm table list --drm $c
conn table list --connectors
holders lines holders --dev $d
holders-card wrapped holders card0 fb0 --dev $d
doctor lines doctor --dev $d --proc $work/proc --boot $work/boot
RUNS
	table list "$t: list" "$long_list"
	table plus "$t: list -o +PATH,MODULE,MONITOR" "$long_list"
	table all "$t: list -O" "$long_list"
	table drm "$t: list --drm" "$long_list"
	table conn "$t: list --connectors" "$long_conn"
	lines holders "$t: holders"
	wrapped holders-card "$t: holders card0 fb0"
	wrapped doctor "$t: doctor"
done
finish
