#!/bin/bash
# tests/git/commit-msg, HACKING's rule for commit messages: messages that
# keep it pass, each way of breaking it is named; --range over a history.
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
hook=$top_srcdir/tests/git/commit-msg
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# msg_ok DESC TEXT / msg_bad DESC WANT TEXT: the verdict, and the reason
msg_ok() {
	printf '%s\n' "$2" >"$work/msg"
	if sh "$hook" "$work/msg" 2>"$work/err"; then ok "$1"; else
		not_ok "$1"
		sed 's/^/#   /' "$work/err"
	fi
}
msg_bad() {
	printf '%s\n' "$3" >"$work/msg"
	if sh "$hook" "$work/msg" 2>"$work/err"; then
		not_ok "$1: accepted"
	elif grep -qF -- "$2" "$work/err"; then ok "$1"; else
		not_ok "$1: the reason is not '$2'"
		sed 's/^/#   /' "$work/err"
	fi
}
body='

Why: the reason, in a body.'
long=$(printf 'vm: %069d' 0)
msg_ok "area: summary, a blank line, a body" "vm: boot each scenario once$body"
msg_ok "two areas" "tests, vm: scale the loop counts under CI$body"
msg_ok "git's comment lines are not the message" "$(printf 'lib: fail a script that checked nothing\n\nWhy.\n# Please enter the commit message\n#\tmodified: x')"
msg_ok "72 characters" "$(printf 'vm: %068d' 0)$body"
msg_bad "73 characters" "73 characters, more than 72" "$long$body"
msg_bad "no area" "is not \"area: summary\"" "Fix the daemon scenario$body"
msg_bad "no space after the colon" "is not \"area: summary\"" "vm:boot once$body"
msg_bad "a full stop" "full stop" "vm: boot once.$body"
msg_bad "no blank second line" "second line is not blank" "$(printf 'vm: boot once\nWhy.')"
msg_bad "no body" "no body" "vm: boot once"
msg_bad "an empty message" "empty" "# only a comment"

# --range: in a history of its own, the bad commit is named, the good not
if command -v git >/dev/null; then
	g() { git -C "$work/repo" -c user.name=t -c user.email=t@t -c commit.gpgsign=false "$@"; }
	git init -q "$work/repo"
	g commit -q --allow-empty -m base
	g commit -q --allow-empty -m "vm: boot once" -m "Why."
	g commit -q --allow-empty -m "A subject without an area"
	(cd "$work/repo" && sh "$hook" --range HEAD~2..HEAD) >"$work/out" 2>&1
	expect_eq "--range: a bad commit fails the range" "$?" 1
	check "--range names the commit that breaks the rule" grep -q "A subject without an area" "$work/out"
	check "--range does not name the one that keeps it" test "$(grep -c 'vm: boot once' "$work/out")" -eq 0
	(cd "$work/repo" && sh "$hook" --range HEAD~2..HEAD~1) >"$work/out" 2>&1
	expect_eq "--range: a good range passes" "$?" 0
else
	skip_part "--range over a history" "git not found (Debian package git)"
fi
finish
