#!/bin/bash
# Shell completion.  bash's is driven as bash drives it: the line split into
# COMP_WORDS as bash splits it (at blanks, and at the ":" and "=" of
# COMP_WORDBREAKS), COMP_CWORD, COMP_LINE and COMP_POINT set, the function
# `complete -F` names called, and COMPREPLY put in place of the text readline
# replaces.  What it offers is checked against the binary, not against the
# completion's own parsing: the commands and options --help lists (and each
# option offered is one the binary's parser knows), every column, strategy
# and subsystem offered is taken, and every argument name --help uses is one
# the completion knows.  Devices come from a umockdev tree.  It runs without
# the bash-completion package, and again with it when it is installed.
# zsh's parses, and compinit binds it to fbclassctl.
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

[ -x "$FBCLASSCTL" ] || skip "$FBCLASSCTL is not built"
case $FBCLASSCTL in /*) ;; *) FBCLASSCTL=$PWD/$FBCLASSCTL ;; esac
bashcomp=$top_srcdir/shell-completion/bash/fbclassctl
zshcomp=$top_srcdir/shell-completion/zsh/_fbclassctl
pkgcomp=/usr/share/bash-completion/bash_completion
: "${UMOCKDEV_RUN:=$(command -v umockdev-run || true)}"
# All of it in one umockdev-run, over a captured tree: fb0 and fb1 (and
# fbcon, no framebuffer) on card0 and card1 (and their connectors, no cards).
tree=$top_srcdir/tests/fixtures/captured/drm-bochs-2cards.umockdev
if [ -z "${COMPLETION_IN_UMOCKDEV:-}" ] && [ -x "$UMOCKDEV_RUN" ]; then
	COMPLETION_IN_UMOCKDEV=yes exec "$UMOCKDEV_RUN" -d "$tree" -- bash "${BASH_SOURCE[0]}" "$@"
fi
work=$(mktemp -d /tmp/fbclassctl-completion.XXXXXX)
trap 'rm -rf "$work"' EXIT
export LC_ALL=C

# offer LINE: the words the completion offers at the end of LINE, as they
# stand in the line after readline put them there, sorted, one a line.
# $WITH_PKG=yes: the bash-completion package's bash_completion sourced first.
offer() {
	# shellcheck disable=SC2016 # the script is bash -c's
	bash --norc --noprofile -c '
		line=$1
		if [ "${WITH_PKG:-}" = yes ]; then . "$4" || exit 1; fi
		. "$2" || exit 1
		read -ra COMP_WORDS <<<"$(sed -E "s/([:=]+)/ \1 /g" <<<"$line")"
		[[ $line == *" " ]] && COMP_WORDS+=("")
		COMP_WORDS[0]=$3
		line=$3${line#fbclassctl}
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE=$line COMP_POINT=${#line}
		fn=$(complete -p fbclassctl | sed -n "s/.* -F \([^ ]*\) .*/\1/p")
		[ -n "$fn" ] || { echo "no complete -F for fbclassctl" >&2; exit 1; }
		"$fn" fbclassctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		# readline replaces the text after the last blank, ":" or "="
		word=${line##*[[:space:]]}
		kept=
		[[ $word == *[:=]* ]] && kept=${word%"${word##*[:=]}"}
		for r in "${COMPREPLY[@]}"; do printf "%s\n" "$kept$r"; done
	' _ "$1" "$bashcomp" "$FBCLASSCTL" "$pkgcomp" 2>"$work/offer.err" | sort
	if [ -s "$work/offer.err" ]; then
		echo "# stderr of the completion at '$1':"
		sed 's/^/#   /' "$work/offer.err"
	fi
}

# offers LINE WANT...: the offer is exactly WANT
offers() {
	local line=$1 want=''
	shift
	[ $# -eq 0 ] || want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	expect_eq "complete '$line'" "$(offer "$line" | tr '\n' ' ')" "$want"
}

# help_options [COMMAND]: "OPTION ARG" for each option of the Options
# section of --help (ARG empty when it takes none)
help_options() {
	"$FBCLASSCTL" ${1:+"$1"} --help | awk '
		/^Options:/ { on = 1; next }
		on && !NF { exit }
		on && /^ +-/ {
			# the synopsis ends at two blanks: "-J, --json  JSON output"
			sub(/^ +/, ""); sub(/  .*/, ""); $0 = $0
			arg = ""; n = 0
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^--?[a-zA-Z][a-zA-Z0-9-]*,?$/ && arg == "") { sub(/,$/, "", $i); o[++n] = $i }
				else if ($i ~ /^[A-Z][A-Z.]*$/ && n && arg == "") arg = $i
				else break
			}
			for (i = 1; i <= n; i++) print o[i], arg
		}'
}

# takes_arg COMMAND OPTION: the binary's parser gives the long OPTION an
# argument (it refuses "--OPTION=1" for one that takes none)
takes_arg() {
	timeout 10 "$FBCLASSCTL" ${1:+"$1"} "$2=1" --no-such-option-zz >/dev/null 2>"$work/err"
	! grep -q "doesn't allow an argument" "$work/err"
}

# taken COMMAND OPTION: the binary's parser knows OPTION.  An argument and
# an unknown option follow, so that nothing but the parsing runs.
taken() {
	timeout 10 "$FBCLASSCTL" "$1" "$2" 1 --no-such-option-zz >/dev/null 2>"$work/err"
	! grep -qE -- "(unrecognized|invalid) option.*'(${2#-}|$2)'" "$work/err"
}

cmds=$("$FBCLASSCTL" --help | awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }')
check "--help lists commands" test -n "$cmds"

run_checks() {
	# commands and global options, as --help lists them
	expect_eq "complete 'fbclassctl ': the commands of --help" \
		"$(offer 'fbclassctl ' | tr '\n' ' ')" "$(sort <<<"$cmds" | tr '\n' ' ')"
	offers "fbclassctl li" list
	offers "fbclassctl -v col" coldplug
	expect_eq "complete 'fbclassctl -': the options of --help" \
		"$(offer 'fbclassctl -' | tr '\n' ' ')" "$(help_options | cut -d' ' -f1 | sort | tr '\n' ' ')"

	# each command's options: exactly those of its --help, each one known
	# to the parser (prose that quotes another tool's option is no option)
	local cmd o arg bad
	for cmd in $cmds; do
		expect_eq "complete 'fbclassctl $cmd -': the options of its --help" \
			"$(offer "fbclassctl $cmd -" | tr '\n' ' ')" \
			"$(help_options "$cmd" | cut -d' ' -f1 | sort | tr '\n' ' ')"
		bad=
		for o in $(offer "fbclassctl $cmd -"); do
			taken "$cmd" "$o" || bad="$bad $o"
		done
		expect_eq "fbclassctl $cmd takes every option offered" "${bad# }" ""
	done
	offers "fbclassctl list --output-" --output-all
	offers "fbclassctl -q bench --sn" --snap
	offers "fbclassctl info --pro" --probe

	# the arguments --help names are those the parser takes (so the help
	# read here, and by the completion, says which options take one)
	bad=
	for cmd in '' $cmds; do
		while read -r o arg; do
			case $o in --*) ;; *) continue ;; esac
			if takes_arg "$cmd" "$o"; then
				[ -n "$arg" ] || bad="$bad ${cmd:-fbclassctl}:$o(takes one)"
			else
				[ -z "$arg" ] || bad="$bad ${cmd:-fbclassctl}:$o(takes none)"
			fi
		done < <(help_options "$cmd")
	done
	expect_eq "the options --help writes with an argument are those that take one" "${bad# }" ""

	# every argument --help names is one the completion knows what to do
	# with, and a list or a column is offered
	bad=
	for cmd in $cmds; do
		while read -r o arg; do
			case $arg in
			'') ;;
			# set's: numbers, an fb.modes name, true or false
			XRES | PIXCLOCK | RGBA | POS | NAME | BOOL) ;;
			DIR | FILE | SECS | N | BYTES | MS | PID) ;;
			LIST | COLUMN)
				[ -n "$(offer "fbclassctl $cmd $o ")" ] || bad="$bad $cmd:$o:$arg(nothing offered)"
				;;
			*) bad="$bad $cmd:$o:$arg(unknown)" ;;
			esac
		done < <(help_options "$cmd")
	done
	expect_eq "every option argument --help names is completed" "${bad# }" ""
}

# list's columns: those of --list-columns, after a comma and after "+",
# ":" and "=" split off as bash does
column_checks() {
	local cols c bad=''
	cols=$("$FBCLASSCTL" list --list-columns | awk '{ print $1 }' | sort)
	expect_eq "complete 'fbclassctl list -o ': every column of --list-columns" \
		"$(offer 'fbclassctl list -o ' | tr '\n' ' ')" "$(tr '\n' ' ' <<<"$cols")"
	offers "fbclassctl list -o MA" MAJ:MIN
	offers "fbclassctl list -o NAME,MAJ:" NAME,MAJ:MIN
	offers "fbclassctl list -o NAME,MAJ:M" NAME,MAJ:MIN
	offers "fbclassctl list --output NAME,MO" NAME,MODULE NAME,MONITOR
	offers "fbclassctl list --output=MAJ:MIN,MO" --output=MAJ:MIN,MODULE --output=MAJ:MIN,MONITOR
	offers "fbclassctl list -o +KI" +KIND
	offers "fbclassctl list --output=+NA" --output=+NAME
	offers "fbclassctl list -o +NAME,PA" +NAME,PATH
	offers "fbclassctl list -x ST" STATE STATUS STRIDE
	offers "fbclassctl list -x st" STATE STATUS STRIDE
	expect_eq "complete 'fbclassctl list -o +PATH,': the other columns" \
		"$(offer 'fbclassctl list -o +PATH,' | tr '\n' ' ')" \
		"$(grep -vx PATH <<<"$cols" | sed 's/^/+PATH,/' | sort | tr '\n' ' ')"
	for c in $(offer 'fbclassctl list -o ') $(offer 'fbclassctl list -o +PATH,') \
		$(offer 'fbclassctl list -o NAME,MAJ:'); do
		"$FBCLASSCTL" list -o "$c" -H >/dev/null 2>&1 || bad="$bad $c"
	done
	expect_eq "list -o takes every column list offered" "${bad# }" ""
	# list --connectors has columns of its own
	offers "fbclassctl list --connectors -o SC" SCANOUT
	offers "fbclassctl list --connectors -x OW" OWNER
	offers "fbclassctl list -o SC"
}

# bench's strategies: the names under --strategy in bench --help (as
# tests/bench-cli.sh reads them), each one taken; monitor's subsystems
value_checks() {
	local want s bad='' n=0
	want=$("$FBCLASSCTL" bench --help | sed -n '/--strategy/,/-J, --json/p' | sed '1d;$d' |
		tr -s ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' ')
	expect_eq "complete 'fbclassctl bench -S ': the strategies of --help" \
		"$(offer 'fbclassctl bench -S ' | tr '\n' ' ')" "$want"
	offers "fbclassctl bench -S sh" shadow
	offers "fbclassctl bench --strategy memcpy,avx2" memcpy,avx2 memcpy,avx2-nt
	offers "fbclassctl bench --strategy=memcpy,sh" --strategy=memcpy,shadow
	for s in $(offer 'fbclassctl bench -S '); do
		n=$((n + 1))
		"$FBCLASSCTL" bench --strategy "$s" --help >/dev/null 2>&1 || bad="$bad $s"
	done
	expect_eq "bench takes every strategy offered ($n)" "${bad# }" ""
	check "more than 10 strategies offered" test "$n" -gt 10
	offers "fbclassctl monitor -s " drm graphics
	offers "fbclassctl monitor --subsystem graphics," graphics,drm
	bad=
	for s in $(offer 'fbclassctl monitor -s ') graphics,drm; do
		"$FBCLASSCTL" monitor -s "$s" --help >/dev/null 2>&1 || bad="$bad $s"
	done
	expect_eq "monitor takes every subsystem offered" "${bad# }" ""
	offers "fbclassctl daemon --ready-fd "
	offers "fbclassctl daemon --reload "
}

file_checks() {
	local d=$work/d
	mkdir -p "$d/sub" && touch "$d/shot.png" "$d/notes.txt"
	offers "fbclassctl coldplug --dev $d/" "$d/sub"
	offers "fbclassctl coldplug --dev=$d/" "--dev=$d/sub"
	offers "fbclassctl bench --snap $d/s" "$d/sub"
	offers "fbclassctl daemon --config $d/" "$d/notes.txt" "$d/shot.png" "$d/sub"
	offers "fbclassctl snap fb0 $d/" "$d/shot.png" "$d/sub"
	offers "fbclassctl snap card0-Virtual-1 $d/" "$d/shot.png" "$d/sub"
	offers "fbclassctl snap --dev $d fb0 $d/" "$d/shot.png" "$d/sub"
	offers "fbclassctl snap --all $d/" "$d/sub"
	offers "fbclassctl snap fb0 $d/shot.png $d/"
	offers "fbclassctl metrics --output $d/" "$d/notes.txt" "$d/shot.png" "$d/sub"
	offers "fbclassctl metrics -o $d/n" "$d/notes.txt"
}

# devices, from the umockdev tree
device_checks() {
	local cmd usage want o bad
	check "the umockdev tree has fb0 and card1" test -d /sys/class/graphics/fb0 -a -d /sys/class/drm/card1
	offers "fbclassctl info " fb0 fb1
	offers "fbclassctl -q bench -d 1 fb" fb0 fb1
	offers "fbclassctl list -o NAME fb0 " fb0 fb1
	offers "fbclassctl doctor " card0 card1 fb0 fb1
	offers "fbclassctl doctor fb0 "
	offers "fbclassctl holders c" card0 card1
	offers "fbclassctl unload --force f" fb0 fb1
	offers "fbclassctl unload fb0 "
	offers "fbclassctl wait --connected f" fb0 fb1
	offers "fbclassctl wait fb0 "
	offers "fbclassctl info /dev/f" /dev/fb0 /dev/fb1
	offers "fbclassctl holders /sys/" /sys/class/graphics/fb0 /sys/class/graphics/fb1
	offers "fbclassctl snap " card0-Virtual-1 card1-Virtual-2 fb0 fb1
	offers "fbclassctl snap card" card0-Virtual-1 card1-Virtual-2
	offers "fbclassctl pattern fb0 " bars checker grid ramp solid:black solid:blue \
		solid:green solid:red solid:white text
	offers "fbclassctl pattern -d 3 fb0 r" ramp
	offers "fbclassctl pattern fb0 solid:b" solid:black solid:blue
	offers "fbclassctl pattern fb0 bars "
	# console's commands, then each one's operands
	offers "fbclassctl console " blank cursor-blink map rotate
	offers "fbclassctl console map tty1" tty1 tty10 tty11 tty12
	offers "fbclassctl console map 1 " fb0 fb1
	offers "fbclassctl console blank " fb0 fb1
	offers "fbclassctl console blank fb0 " hsync normal powerdown unblank vsync
	offers "fbclassctl console rotate --all " 0 180 270 90
	offers "fbclassctl console --dev /dev blank fb0 p" powerdown
	offers "fbclassctl console cursor-blink " off on
	offers "fbclassctl console cursor-blink on "
	# which commands take devices: as their usage line says (console's are
	# its commands', above)
	for cmd in $cmds; do
		[ "$cmd" != console ] || continue
		usage=$("$FBCLASSCTL" "$cmd" --help | head -n 1)
		want=
		case $usage in *DEVICE* | *fbN*) want="fb0 fb1" ;; esac
		"$FBCLASSCTL" "$cmd" --help | grep -q cardN && want="card0 card1 $want"
		"$FBCLASSCTL" "$cmd" --help | grep -q '^ *fbclassctl .* CONNECTOR' &&
			want="card0-Virtual-1 card1-Virtual-2 $want"
		# shellcheck disable=SC2086
		offers "fbclassctl $cmd " $want
		# an option without an argument leaves the next word a device
		[ -n "$want" ] || continue
		bad=
		for o in $(help_options "$cmd" | awk 'NF == 1 && $1 != "-a" && $1 != "--all" && $1 != "--connectors" { print $1 }'); do
			# shellcheck disable=SC2086 # want: words
			[ "$(offer "fbclassctl $cmd $o " | tr '\n' ' ')" = "$(printf '%s\n' $want | sort | tr '\n' ' ')" ] ||
				bad="$bad $o"
		done
		expect_eq "complete 'fbclassctl $cmd OPTION ': devices after each option without an argument" \
			"${bad# }" ""
	done
}

run_checks
column_checks
value_checks
file_checks
if [ -n "${COMPLETION_IN_UMOCKDEV:-}" ]; then
	device_checks
else
	skip_part "devices from a umockdev tree" "umockdev-run is missing (Debian package umockdev)"
fi

# With the bash-completion package's bash_completion sourced first: the same
# offers (the completion uses none of its helpers, and must not clash)
if [ -r "$pkgcomp" ]; then
	export WITH_PKG=yes
	echo "# again with $pkgcomp"
	offers "fbclassctl moni" monitor
	offers "fbclassctl monitor -" --help --json --subsystem -J -h -s
	offers "fbclassctl list -o NAME,MAJ:" NAME,MAJ:MIN
	offers "fbclassctl list --output=+NA" --output=+NAME
	offers "fbclassctl bench -S sh" shadow
	file_checks
	unset WITH_PKG
else
	skip_part "with bash-completion's helpers loaded" "$pkgcomp is missing (Debian package bash-completion)"
fi

# zsh_options [COMMAND]: "OPTION yes|no" (takes an argument) for each
# option spec zsh's completion gives _arguments, here a stub that prints
# them (the first call, the global options', is made to say "a command")
zsh_options() {
	# shellcheck disable=SC2016 # the script is zsh's
	zsh -f -c '
		_call_program() { shift; "$@"; }
		_describe() { :; }
		_arguments() {
			if [[ -n $cmd && -z ${shifted-} ]]; then
				shifted=1 state=argument words=($cmd)
				return 1
			fi
			print -rl -- "$@"
		}
		cmd=$2 words=($1) curcontext=:complete:fbclassctl:
		source $3
	' _ "$FBCLASSCTL" "$1" "$zshcomp" 2>&1 |
		sed -nE 's/^(-[^=+[]*)([=+]?)[[].*/\1 \2/p' | sed 's/ [=+]$/ yes/; s/ $/ no/' | sort
}

# zsh: the file parses, compinit binds it to fbclassctl, and it gives
# _arguments the options of --help, with an argument where --help has one
if command -v zsh >/dev/null; then
	check "zsh -n _fbclassctl" zsh -n "$zshcomp"
	mkdir -p "$work/fpath" && cp "$zshcomp" "$work/fpath/"
	expect_eq "zsh compinit binds _fbclassctl to fbclassctl" \
		"$(HOME=$work zsh -f -c 'fpath=("$1" $fpath); autoload -Uz compinit; compinit -u -d "$2"; print -r -- $_comps[fbclassctl]' _ "$work/fpath" "$work/zcompdump")" \
		_fbclassctl
	for cmd in '' $cmds; do
		expect_eq "zsh: the options of fbclassctl${cmd:+ $cmd} --help" \
			"$(zsh_options "$cmd" | tr '\n' ' ')" \
			"$(help_options "$cmd" | awk '{ print $1, (NF > 1 ? "yes" : "no") }' | sort | tr '\n' ' ')"
	done
else
	skip_part "zsh completion" "zsh is missing (Debian package zsh)"
fi
finish
