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

MANWIDTH=200 man -l "$top_srcdir/man/fbclassctl.8" 2>/dev/null | col -b >"$work/page"
# Every command in the table has a section.
# (each list is checked to be non-empty, so a changed --help layout fails)
cmds=$("$FBCLASSCTL" --help | awk '/^Commands:/{on=1; next} on && NF==0 {exit} on {print $1}')
check "--help lists commands" test -n "$cmds"
for cmd in $cmds; do
	if grep -qE "^   $cmd( |$)" "$work/page"; then ok "command $cmd documented"; else not_ok "command $cmd documented"; fi
done
# Every column of list, and every long option of every command.
cols=$("$FBCLASSCTL" list --help | awk '/^Columns/{on=1; next} on && NF==0 {exit} on {print $1}')
check "list --help lists columns" test "$(echo "$cols" | wc -w)" -ge 16
for col in $cols; do
	if grep -qF -- "$col" "$work/page"; then ok "column $col documented"; else not_ok "column $col documented"; fi
done
for cmd in $cmds; do
	for opt in $("$FBCLASSCTL" "$cmd" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
		if grep -qF -- "$opt" "$work/page"; then ok "$cmd $opt documented"; else not_ok "$cmd $opt documented"; fi
	done
done
finish
