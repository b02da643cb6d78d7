#!/bin/bash
# README.md's samples against real runs, so that none can drift.  A block
# of sample output sits under a hidden comment that says how to make it:
#
#   <!-- sample: fixture=captured-6.12/drm-handoff -->
#       each "$ fbclassctl ARGS" line of the block runs under umockdev-run
#       on tests/fixtures/captured-6.12/drm-handoff.umockdev, with --dev
#       (an empty directory, printed as /dev) and --no-temp-node added
#       where the command takes them; the lines up to the next "$" line
#       are its standard output.
#   <!-- sample: build=default -->
#       the lines run the built binary itself; compared whole in the
#       default build, key by key in the libsysfs one.
#   <!-- sample: rules -->
#       the block is a rules file: coldplug --check-config must take it.
#
# Trailing blanks are not compared (libsmartcols pads the last column).
# A block with a "$ fbclassctl" line and no such comment is a failure, and
# so is an option of a pasteable "fbclassctl COMMAND ..." line that the
# command's --help does not list.
#
#   FBCLASSCTL=_build/fbclassctl tests/readme.sh            check
#   FBCLASSCTL=_build/fbclassctl tests/readme.sh --update   rewrite the samples
#       from real runs, after a change of the output on purpose (review the diff!)
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

export LC_ALL=C.UTF-8
readme=$top_srcdir/README.md
update=false
[ "${1:-}" = --update ] && update=true

UMOCKDEV_RUN=${UMOCKDEV_RUN:-$(command -v umockdev-run)}
[ -x "$UMOCKDEV_RUN" ] || skip "umockdev-run not found (Debian package umockdev)"
[ -x "$FBCLASSCTL" ] || skip "$FBCLASSCTL not built"
case $FBCLASSCTL in /*) ;; *) FBCLASSCTL=$PWD/$FBCLASSCTL ;; esac
[ -f "$readme" ] || { not_ok "README.md is there" && finish; exit; }

work=$(mktemp -d /tmp/fbclassctl-readme.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/dev"

# The default build is the one README.md shows --version of.
build=default
if [ -x "$top_builddir/config.status" ]; then
	case " $("$top_builddir/config.status" --config) " in
	*--enable-static-binary[\'\ ]*) build=static ;;
	*--with-libsysfs[\'\ ]*) build=libsysfs ;;
	esac
fi

# takes CMD OPTION: fbclassctl CMD --help lists OPTION
takes() { "$FBCLASSCTL" "$1" --help 2>/dev/null | grep -qE -- "(^|[ ,])$2([ ,=]|\$)"; }

# run_sample SPEC LINE: run the "$ fbclassctl ..." LINE as SPEC says;
# its standard output, trailing blanks cut, to $work/got.
run_sample() {
	local spec=$1 line=${2#\$ fbclassctl} fixture='' w cmd=''
	local -a words argv
	case $line in *[\'\"\\\$\;\&\|\<\>\(\)\`*?~]*)
		echo "readme.sh: not plain words: $line" >"$work/err"
		: >"$work/got"
		return 1
		;;
	esac
	read -ra words <<<"$line"
	argv=()
	for w in "${words[@]}"; do
		argv+=("$w")
		if [ -n "$cmd" ] || [ "${w#-}" != "$w" ]; then continue; fi
		cmd=$w
		takes "$cmd" --dev && argv+=(--dev "$work/dev")
		takes "$cmd" --no-temp-node && argv+=(--no-temp-node)
	done
	case $spec in
	fixture=*[!A-Za-z0-9._/-]* | fixture=*..*)
		echo "readme.sh: not a fixture name: $spec" >"$work/err"
		: >"$work/got"
		return 1
		;;
	fixture=?*) fixture=$top_srcdir/tests/fixtures/${spec#fixture=}.umockdev ;;
	build=default) ;;
	*)
		echo "readme.sh: neither fixture=NAME nor build=default: $spec" >"$work/err"
		: >"$work/got"
		return 1
		;;
	esac
	if [ -n "$fixture" ] && [ ! -f "$fixture" ]; then
		echo "readme.sh: no fixture ${fixture#"$top_srcdir"/}" >"$work/err"
		: >"$work/got"
		return 1
	fi
	if [ -n "$fixture" ]; then
		"$UMOCKDEV_RUN" -d "$fixture" -- "$FBCLASSCTL" "${argv[@]}" >"$work/raw" 2>"$work/err"
	else
		"$FBCLASSCTL" "${argv[@]}" >"$work/raw" 2>"$work/err"
	fi
	sed -e "s|$work/dev|/dev|g" -e 's/[[:blank:]]*$//' "$work/raw" >"$work/got"
}

# judge SPEC LINE: $work/want (the README's lines) against $work/got
judge() {
	local spec=$1 line=$2 name="README.md:$3: $2"
	sed -i 's/[[:blank:]]*$//' "$work/want"
	if [ "$spec" = build=default ] && [ "$build" != default ]; then
		# Another build says other values: the same keys, in the same order.
		if diff <(cut -d: -f1 "$work/want") <(cut -d: -f1 "$work/got") >"$work/diff"; then
			ok "$name (the $build build: the same lines, values not compared)"
		else
			not_ok "$name: other lines in the $build build"
			sed 's/^/#   /' "$work/diff"
		fi
		return
	fi
	if grep -q 'root:video' "$work/want" && ! getent group video >/dev/null; then
		skip_part "$name" "no group video on this host"
		return
	fi
	if diff -u "$work/want" "$work/got" >"$work/diff"; then
		ok "$name ($(wc -l <"$work/want") lines)"
	else
		not_ok "$name: README.md says otherwise than the run"
		sed 's/^/#   /' "$work/diff"
		sed 's/^/#   stderr: /' "$work/err"
	fi
}

# check_options LINENO LINE: a pasteable "fbclassctl COMMAND OPTIONS..."
# uses only options COMMAND's --help (or the global --help) lists.
check_options() {
	local n=$1 cmd w bad=
	local -a words
	read -ra words <<<"${2%%&&*}"
	cmd=${words[1]:-}
	if ! "$FBCLASSCTL" "$cmd" --help >/dev/null 2>&1; then
		not_ok "README.md:$n: fbclassctl $cmd: no such command"
		return
	fi
	for w in "${words[@]:2}"; do
		[ "${w#-}" != "$w" ] || continue
		w=${w%%=*}
		takes "$cmd" "$w" || "$FBCLASSCTL" --help | grep -qE -- "(^|[ ,])$w([ ,=]|\$)" ||
			bad="$bad $w"
	done
	if [ -z "$bad" ]; then ok "README.md:$n: ${2%%&&*}"; else
		not_ok "README.md:$n: fbclassctl $cmd --help lists no$bad"
	fi
}

# check_rules LINENO: $work/want is a rules file coldplug takes
check_rules() {
	local name="README.md:$1: the rules file"
	if "$FBCLASSCTL" coldplug --check-config --config "$work/want" >"$work/err" 2>&1; then
		ok "$name: coldplug --check-config takes it ($(grep -cv '^#' "$work/want") rules)"
	else
		not_ok "$name: coldplug --check-config refuses it (exit $?)"
		sed 's/^/#   /' "$work/err"
	fi
}

# One pass over README.md; with --update, a new README.md beside it.
spec='' in_block=false cmd_line='' cmd_n=0 n=0 rules_n=''
: >"$work/new"
flush() {
	[ -n "$cmd_line" ] || return 0
	run_sample "$spec" "$cmd_line"
	if $update; then
		cat "$work/got" >>"$work/new"
	else
		judge "$spec" "$cmd_line" "$cmd_n"
	fi
	cmd_line=
}
while IFS= read -r line; do
	n=$((n + 1))
	if ! $in_block; then
		printf '%s\n' "$line" >>"$work/new"
		case $line in
		'<!-- sample: '*' -->')
			spec=${line#<!-- sample: }
			spec=${spec% -->}
			;;
		'```'*)
			in_block=true
			;;
		*) [ -z "$line" ] || spec= ;;
		esac
		continue
	fi
	case $spec:$line in
	rules:'```') check_rules "$rules_n" ;;
	rules:*)
		[ -n "$rules_n" ] || { rules_n=$n && : >"$work/want"; }
		printf '%s\n' "$line" >>"$work/want"
		;;
	esac
	case $line in
	'```')
		flush
		printf '%s\n' "$line" >>"$work/new"
		in_block=false spec='' rules_n=''
		continue
		;;
	'$ fbclassctl'*)
		flush
		printf '%s\n' "$line" >>"$work/new"
		if [ -z "$spec" ]; then
			not_ok "README.md:$n: '$line' has no <!-- sample: ... --> comment above its block"
			continue
		fi
		cmd_line=$line cmd_n=$n
		: >"$work/want"
		continue
		;;
	'fbclassctl '*)
		[ -n "$cmd_line" ] || check_options "$n" "$line"
		;;
	esac
	if [ -n "$cmd_line" ]; then
		printf '%s\n' "$line" >>"$work/want"
	else
		printf '%s\n' "$line" >>"$work/new"
	fi
done <"$readme"
$in_block && not_ok "README.md: a code block is not closed"

if $update; then
	if cmp -s "$work/new" "$readme"; then ok "README.md: samples unchanged"; else
		cp "$work/new" "$readme"
		ok "README.md: samples rewritten (review the diff)"
	fi
fi
finish
