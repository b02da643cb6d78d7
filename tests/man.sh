#!/bin/bash
# The man pages render without warnings, and every command, column and
# option that --help lists is documented.
set -u
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

command -v man >/dev/null || skip "man not found (Debian package man-db)"
[ -x "$FBCLASSCTL" ] || skip "$FBCLASSCTL not built"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for page in "$top_srcdir"/man/*.[0-9]; do
	name=$(basename "$page")
	if LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$page" >"$work/out" 2>"$work/err" &&
		[ ! -s "$work/err" ]; then
		ok "$name renders without warnings"
	else
		not_ok "$name renders without warnings"
		sed 's/^/#   /' "$work/err"
	fi
done

MANWIDTH=200 man -l "$top_srcdir/man/fbclassctl.8" 2>/dev/null | col -b | expand >"$work/page"
# section CMD: the text of command CMD's own entry under COMMANDS, up to
# the next command or heading.  A name documented elsewhere does not count.
section() {
	awk -v cmd="$1" '
		/^[A-Z]/ { on = 0 }
		/^   [a-z]/ { on = ($1 == cmd) }
		on' "$work/page"
}
# (each list is checked to be non-empty, so a changed --help layout fails)
cmds=$("$FBCLASSCTL" --help | awk '/^Commands:/{on=1; next} on && NF==0 {exit} on {print $1}')
check "--help lists commands" test -n "$cmds"
for cmd in $cmds; do
	section "$cmd" >"$work/sec-$cmd"
	if [ -s "$work/sec-$cmd" ]; then ok "command $cmd has its section"; else not_ok "command $cmd has its section"; fi
done
# Every column of list in list's column list: a line that starts with it.
cols=$("$FBCLASSCTL" list --help | awk '/^Columns/{on=1; next} on && NF==0 {exit} on {print $1}')
check "list --help lists columns" test "$(echo "$cols" | wc -w)" -ge 16
awk '/^       The columns:/{on=1; next} on && /^       [A-Z]/{print $1}' "$work/sec-list" >"$work/cols"
for col in $cols; do
	if grep -qxF -- "$col" "$work/cols"; then ok "column $col in list's column list"; else not_ok "column $col in list's column list"; fi
done
for col in $(cat "$work/cols"); do
	if echo "$cols" | grep -qxF -- "$col"; then ok "documented column $col exists"; else not_ok "documented column $col exists (not in list --help)"; fi
done
# Every long option of every command in that command's own section (a
# word of its own: --dev does not count for --dev-dir).  --help is
# documented once, under OPTIONS, for every command.
for cmd in $cmds; do
	for opt in $("$FBCLASSCTL" "$cmd" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
		[ "$opt" = --help ] && continue
		if grep -qE -- "(^|[^a-z-])$opt([^a-z-]|\$)" "$work/sec-$cmd"; then
			ok "$cmd $opt documented in its section"
		else
			not_ok "$cmd $opt documented in its section"
		fi
	done
done
# Every check doctor makes (the name of each finding in src/doctor.c) is
# in doctor's list of checks, and so is every verdict.
# (the verdict may be an expression: the check is add()'s first string)
checks=$(grep -oE 'add\(c, [^"]*"[a-z-]+"' "$top_srcdir/src/doctor.c" | sed 's/.*"\(.*\)"/\1/' | sort -u)
check "src/doctor.c makes checks" test "$(echo "$checks" | wc -w)" -ge 17
for name in $checks unknown; do
	if grep -qE -- "(^|[^a-z-])$name([^a-z-]|\$)" "$work/sec-doctor"; then
		ok "doctor's $name documented"
	else
		not_ok "doctor's $name documented in its section"
	fi
done
# KERNEL HAZARDS holds exactly what man/kernel-hazards.awk makes of the
# table the tests and the C code read (make man-hazards writes it).
awk '/^\.\\" hazards begin/{on=1; next} /^\.\\" hazards end/{on=0} on' \
	"$top_srcdir/man/fbclassctl.8" >"$work/hazards.have"
awk -f "$top_srcdir/man/kernel-hazards.awk" "$top_srcdir/src/kernel-hazards.tab" >"$work/hazards.want"
check "KERNEL HAZARDS lists src/kernel-hazards.tab (make man-hazards)" \
	cmp -s "$work/hazards.want" "$work/hazards.have"
check "KERNEL HAZARDS is not empty" test -s "$work/hazards.have"

# Global options, under OPTIONS.
awk '/^OPTIONS/{on=1; next} /^[A-Z]/{on=0} on' "$work/page" >"$work/sec-options"
for opt in $("$FBCLASSCTL" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
	if grep -qE -- "(^|[^a-z-])$opt([^a-z-]|\$)" "$work/sec-options"; then
		ok "global $opt documented under OPTIONS"
	else
		not_ok "global $opt documented under OPTIONS"
	fi
done

# HACKING's map names every file of src/ (a .h with its .c as NAME.[ch]).
for f in "$top_srcdir"/src/*.[ch]; do
	base=$(basename "$f")
	stem=${base%.?}
	if grep -qE -- "(^|[^a-z-])($base|$stem\.\[ch\])([^a-z.-]|\$)" "$top_srcdir/HACKING"; then
		ok "HACKING names src/$base"
	else
		not_ok "HACKING names src/$base"
	fi
done

# JSON OUTPUT names every top-level key of each command's document, as the
# schema defines them.
schema=$top_srcdir/tests/json/fbclassctl.schema.json
if command -v jq >/dev/null; then
	awk '/^JSON OUTPUT/{on=1; next} /^[A-Z]/{on=0} on' "$work/page" >"$work/sec-json"
	keys=$(jq -r '."$defs" | (.list, .info, .holders, .doctor, .bench, .monitor) | .properties | keys[]' "$schema" | sort -u)
	check "the schema names top-level keys" test "$(echo "$keys" | wc -w)" -ge 15
	for key in $keys; do
		if grep -qE -- "(^|[^a-z_:])$key([^a-z_:]|\$)" "$work/sec-json"; then
			ok "JSON key $key under JSON OUTPUT"
		else
			not_ok "JSON key $key under JSON OUTPUT"
		fi
	done
else
	skip_part "JSON OUTPUT names the schema's keys" "jq not found (Debian package jq)"
fi
finish
