# What the systemd tier's scripts share (bash, sourced by run.sh and
# initrd.sh after lib.sh and lib-vm.sh).
#
# build_usr SUITE: fbclassctl
# configured --prefix=/usr for SUITE's systemd, in
# $top_builddir/tests/vm-systemd-build/SUITE (configured once, then made
# again like any build directory), as a user builds it.  Prints it.  Under
# a lock: make check-vm -j2 runs run.sh and initrd.sh side by side, and
# both install from the same build directory.
# shellcheck shell=bash disable=SC2154 # top_srcdir, top_builddir: lib.sh's
build_usr() {
	local suite=$1 dir=$top_builddir/tests/vm-systemd-build/$1 flags=(--prefix=/usr)
	# Debian 13's systemd is 257: Type=notify-reload, and merged /usr.
	# The host (Debian 12) answers pkg-config for 252, so say it.
	[ "$suite" = bookworm ] ||
		flags+=(--with-systemd-reload=notify-reload --with-systemdsystemunitdir=/usr/lib/systemd/system)
	mkdir -p "$dir"
	(
		flock 8
		if [ ! -f "$dir/Makefile" ] || [ "$(cat "$dir/.flags" 2>/dev/null)" != "${flags[*]}" ]; then
			(cd "$dir" && "$top_srcdir/configure" "${flags[@]}" >configure.out 2>&1) || {
				tail -n 20 "$dir/configure.out" >&2
				exit 1
			}
			echo "${flags[*]}" >"$dir/.flags"
		fi
		# the parent make's jobserver is not this make's
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$dir" -j2 -s >"$dir/make.out" 2>&1 || {
			tail -n 20 "$dir/make.out" >&2
			exit 1
		}
	) 8>"$dir.lock" || return 1
	echo "$dir"
}

# tier_setup NAME: skip where a --prefix=/usr build cannot be made beside
# the tests' own (a source tree configured in place); set work, a fresh
# directory (removed at exit unless VM_KEEP=1), and logs, the VM tier's
# log directory
tier_setup() {
	[ "$(cd "$top_srcdir" && pwd)" != "$(cd "$top_builddir" && pwd)" ] ||
		[ ! -f "$top_srcdir/config.status" ] ||
		skip "the source tree is configured in place: a second build (--prefix=/usr) needs a clean source tree (build out of tree, as HACKING says)"
	work=$(mktemp -d "${TMPDIR:-/tmp}/fbclassctl-vm-$1.XXXXXX")
	if [ "${VM_KEEP:-0}" = 1 ]; then
		vm_say "work directory kept: $work"
	else
		trap 'rm -rf "$work"' EXIT
	fi
	logs=$top_builddir/tests/vm-logs
	mkdir -p "$logs"
}

# since T0: seconds since T0 (date +%s.%N), one decimal
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
