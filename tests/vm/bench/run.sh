#!/bin/bash
# make bench-vm: tests/vm/bench/bench-vm.sh in one boot per kernel of
# VM_KERNELS (make bench-vm: 6.1), with the three builds and fbfake.ko.
#   FBCLASSCTL         the default build (libudev)
#   FBCLASSCTL_SYSFS   the --with-libsysfs build; default
#                      $top_srcdir/_build-sysfs/fbclassctl (tests/run-all.sh's)
#   FBCLASSCTL_STATIC  the --with-libsysfs --enable-static-binary build;
#                      default $top_srcdir/_build-static/fbclassctl
#   ROUNDS             coldplug runs of each tool (30)
# A build whose directory has a Makefile is made first; one that is not
# there after that is reported as SKIPPED (the guest prints why), and the
# others run.  fbfake.ko (tests/vm/fbfake/build.sh) is built for each
# kernel; where it cannot be (Debian 13's headers need gcc-14), the
# coldplug part runs on the fbs there are (bochs-drm's one) and says why.  Everything
# else is tests/vm/run.sh's (VM_TIMEOUT, VM_KEEP, VM_STREAM, ...).
# Fails only when a tool does not work (a node or a link missing, a daemon
# dead); goals are printed, never asserted.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${top_srcdir:=$here/../../..}"
top_srcdir=$(cd "$top_srcdir" && pwd)
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
# shellcheck source=tests/vm/lib-vm.sh
. "$top_srcdir/tests/vm/lib-vm.sh"

say() { echo "bench-vm: $*" >&2; }
# shq STRING: STRING single-quoted for sh
shq() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

[ -x "$FBCLASSCTL" ] || skip "$FBCLASSCTL not built"
export FBCLASSCTL

# build VAR DESCRIPTION: make the build VAR names where its directory has a
# Makefile; export VAR if its binary is there, else set why_VAR and unset VAR
build() {
	local var=$1 what=$2 bin dir why
	bin=${!var}
	dir=$(dirname "$bin")
	if [ -f "$dir/Makefile" ]; then
		say "$what: make -C $dir fbclassctl"
		"${MAKE:-make}" -C "$dir" fbclassctl >"$work/make-$var.log" 2>&1 ||
			{ sed 's/^/  /' "$work/make-$var.log" | tail -n 20 >&2; }
	fi
	if [ -x "$bin" ]; then
		export "${var?}"
		return
	fi
	if [ -f "$dir/Makefile" ]; then
		printf -v "why_$var" '%s' "$bin: make -C $dir fbclassctl failed"
	else
		printf -v "why_$var" '%s' "$bin is not built, and $dir has no Makefile (configure one as tests/run-all.sh does, or set $var)"
	fi
	why=why_$var
	say "$what: SKIPPED: ${!why}"
	unset "$var"
}

work=$(mktemp -d "${TMPDIR:-/tmp}/fbclassctl-bench-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT
: "${FBCLASSCTL_SYSFS:=$top_srcdir/_build-sysfs/fbclassctl}"
: "${FBCLASSCTL_STATIC:=$top_srcdir/_build-static/fbclassctl}"
why_FBCLASSCTL_SYSFS=
why_FBCLASSCTL_STATIC=
build FBCLASSCTL_SYSFS "the libsysfs build"
build FBCLASSCTL_STATIC "the static build"

# The guest runs these files as they are (-g, unstripped); what strip
# would leave of each, for the memory table's "files" column.
for var in FBCLASSCTL FBCLASSCTL_SYSFS FBCLASSCTL_STATIC; do
	[ -n "${!var:-}" ] || continue
	size=$(($(stat -L -c %s "${!var}") / 1024))
	stripped=unknown
	strip -o "$work/stripped" "${!var}" 2>/dev/null &&
		stripped="$(($(stat -c %s "$work/stripped") / 1024)) kB"
	echo "bench-vm: $var=${!var}: $size kB, stripped $stripped"
done

# What the dynamic loader costs in the guest: a program that does nothing,
# static, dynamic with libc alone, and with each library fbclassctl names
# in DT_NEEDED added in turn (--no-as-needed keeps a library nothing calls),
# packed as guest helpers beside fbclassctl's own.
nothing_helpers=
nothing_libs=
why_nothing=
build_nothing() {
	local dir cc=${CC:-cc} i=0 libs="" l
	dir=$(dirname "$FBCLASSCTL")/tests/vm/guest
	command -v objdump >/dev/null || { why_nothing="objdump not found (binutils)"; return; }
	nothing_libs=$(LC_ALL=C objdump -p "$FBCLASSCTL" |
		awk '$1 == "NEEDED" && $2 !~ /^(libc|ld-linux)/ { printf "%s ", $2 }')
	echo 'int main(void) { return 0; }' >"$work/nothing.c"
	mkdir -p "$dir"
	if ! "$cc" -O2 -static -o "$dir/nothing-static" "$work/nothing.c" ||
		! "$cc" -O2 -o "$dir/nothing-libc" "$work/nothing.c"; then
		why_nothing="$cc cannot build a static and a dynamic program"
		return
	fi
	nothing_helpers="nothing-static nothing-libc"
	for l in $nothing_libs; do
		i=$((i + 1))
		libs="$libs -l:$l"
		# shellcheck disable=SC2086 # a word a library
		"$cc" -O2 -o "$dir/nothing-$i" "$work/nothing.c" -Wl,--no-as-needed $libs || {
			why_nothing="$cc cannot link a program with $l"
			nothing_helpers=
			return
		}
		nothing_helpers="$nothing_helpers nothing-$i"
	done
}
build_nothing
[ -z "$why_nothing" ] || say "the loader's cost: SKIPPED: $why_nothing"

series=$(vm_kernel_series) || exit 2
rc=0
for s in $series; do
	kerr=$work/kernel-$s.err
	if ! vm_kernel "$s" 2>"$kerr"; then
		echo "SKIP: bench-vm on $s: $(grep -v unsandboxed "$kerr" | tail -n 1)"
		[ "${CI:-}" = true ] && rc=1
		continue
	fi
	ko=
	no_fbfake=
	ko=$(bash "$top_srcdir/tests/vm/fbfake/build.sh" "$KVER" "$KSUITE" "$KPKGVER" 2>"$work/fbfake.err") ||
		{
			ko=
			no_fbfake="fbfake.ko cannot be built for $KVER: $(grep -v unsandboxed "$work/fbfake.err" | tail -n 1 | sed 's/^vm-fbfake [^:]*: //')"
			say "$no_fbfake"
		}
	# one scenario for this kernel: the host's settings, the statistics,
	# then the bench itself
	mkdir -p "$work/$s"
	scen=$work/$s/bench-vm.sh
	{
		echo "# Generated by tests/vm/bench/run.sh"
		echo "ROUNDS=$(shq "${ROUNDS:-30}")"
		echo "EXTRA_KO=$(shq "$ko")"
		echo "BENCH_NO_FBFAKE=$(shq "$no_fbfake")"
		echo "BENCH_NO_SYSFS=$(shq "$why_FBCLASSCTL_SYSFS")"
		echo "BENCH_NO_STATIC=$(shq "$why_FBCLASSCTL_STATIC")"
		echo "NOTHING_HELPERS=$(shq "$nothing_helpers")"
		echo "NOTHING_LIBS=$(shq "$nothing_libs")"
		echo "BENCH_NO_NOTHING=$(shq "$why_nothing")"
		cat "$here/stats.sh" "$here/bench-vm.sh"
	} >"$scen"
	# one boot at a time: two guests on two cores would time each other
	VM_KERNELS=$s VM_JOBS=1 bash "$top_srcdir/tests/vm/run.sh" "$scen" || rc=$?
done
exit "$rc"
