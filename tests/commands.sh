#!/bin/bash
# Every external command the tests and their helpers name comes from a
# package that a minimal Debian 12 root has (debootstrap --variant=minbase,
# the debian:12 image: the packages of Priority required) or that
# tests/install-deps.sh installs.  A command that is neither is named with
# its package and the first file that calls it.
#
# The words of every shell script under tests/ (and .ci/run), comments,
# prose, variables ($x, x=), options (-x) and paths (/x, x/) left out,
# that name a program of a Debian package here are the commands; each
# program's package is dpkg's answer for its file.  Words that name a
# program here but are not commands in those scripts are listed in
# not_commands below, each with where it comes from.
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

command -v dpkg-query >/dev/null || skip "not a Debian system (no dpkg-query)"

# Words that name programs on this machine but are not commands the tests
# need, each with the reason.
not_commands=(
	gdb        # tests/fixtures/run.sh: a core's backtrace, only where command -v finds gdb
	shellcheck # tests/hostile/vm.sh: a directive in a generated script's comment
	node       # tests/fixtures/run.sh: a word in a jq program
	view       # tests/fixtures/run.sh: a word in a message
	opt        # tests/man.sh: a loop variable
	w          # this file: a loop variable
	init       # tests/commit-msg.sh: git init, a subcommand
	poweroff   # tests/vm/systemd/run.sh: systemctl poweroff, a subcommand, in the guest
	top        # tests/vm/systemd/initrd.sh: break=top, initramfs-tools' first stop
	red        # tests/completion.sh, tests/vm/scenarios/pattern.sh: solid:red, a pattern name
)
# The programs of Debian's packages only (not /usr/local, not ~/.pyenv)
debian_path=/usr/sbin:/usr/bin:/sbin:/bin

listed=$(sed -n '/^packages="/,/^"/{s/^packages="//;s/"$//;p}' "$top_srcdir/tests/install-deps.sh")
case " $(echo $listed) " in
*" git "*) ;;
*) skip "cannot read the package list of tests/install-deps.sh" ;;
esac
# what installing them installs: the packages and what they depend on
# shellcheck disable=SC2086
deps=" $(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
	--no-breaks --no-replaces --no-enhances $listed | grep -v '^ ' | tr -d '<>' | sort -u | tr '\n' ' ') "

mapfile -t scripts < <(cd "$top_srcdir" &&
	{ find tests -name '*.sh' -o -name 'run' -path 'tests/*'; echo .ci/run; } | sort -u)

# word<TAB>first file naming it, for each word of the scripts
declare -A first=()
for f in "${scripts[@]}"; do
	while read -r w; do
		[ -n "${first[$w]:-}" ] || first[$w]=$f
	# comments, and quoted prose (a string with a space and no $ or `) out
	done < <(sed -e 's/^[[:space:]]*#.*//' -e 's/[[:space:]]#.*//' \
		-e 's/"[^"$`]* [^"$`]*"//g' -e "s/'[^'$\`]* [^'$\`]*'//g" "$top_srcdir/$f" |
		perl -ne 'print "$1\n" while /(?<![\w.\$\/{-])([A-Za-z_][\w.+-]*)(?![\w.+=\/-])/g' |
		sort -u)
done

# resolved program path<TAB>word, for the words that name a program here
declare -A path_of=()
for w in "${!first[@]}"; do
	case " ${not_commands[*]} " in *" $w "*) continue ;; esac
	case $(type -t "$w") in builtin | keyword) continue ;; esac
	p=$(PATH=$debian_path type -P "$w") || continue
	path_of[$w]=$p
done

# owner PATH: the package that holds PATH, trying the merged-/usr twin
# (/bin/x and /usr/bin/x) and the file behind a symlink (alternatives)
owner() {
	local p
	for p in "$1" "${1#/usr}" "/usr$1" "$(readlink -f "$1")"; do
		dpkg-query -S "$p" 2>/dev/null | awk -F': ' '!/^diversion/ { sub(/[:,].*/, "", $1); print $1; exit }' |
			grep . && return
	done
	echo "?"
}

required() {
	case "$(dpkg-query -W -f '${Priority} ${Essential}' "$1" 2>/dev/null)" in
	"required "* | *" yes") return 0 ;;
	esac
	return 1
}

n_cmds=0
for w in $(printf '%s\n' "${!path_of[@]}" | sort); do
	n_cmds=$((n_cmds + 1))
	pkg=$(owner "${path_of[$w]}")
	if [ "$pkg" = "?" ]; then
		not_ok "$w (${path_of[$w]}, named in ${first[$w]}) belongs to no Debian package here: install it from a package tests/install-deps.sh names, or add it to not_commands with the reason"
	elif required "$pkg" || [[ $deps == *" $pkg "* ]]; then
		ok "$w: $pkg"
	else
		not_ok "$w (${path_of[$w]}, named in ${first[$w]}) comes from $pkg, which neither a minbase root nor tests/install-deps.sh has"
	fi
done
[ "$n_cmds" -gt 20 ] || not_ok "only $n_cmds commands found in ${#scripts[@]} scripts: the scan is broken"
finish
