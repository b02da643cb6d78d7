#!/bin/bash
# bench/coldplug-vs-mdev.sh: "fbclassctl coldplug" against "busybox mdev -s"
# on the same generated sysfs tree of N framebuffers (default 32, FB_MAX),
# in the same run.  As root, in a private mount namespace, each run on a
# fresh tmpfs.  Runs alternate between the two tools; the table (median
# [q1 q3], ratio, goal) is the VM bench's (tests/vm/bench/stats.sh).
#
# The tree is built once by umockdev from tests/ns/mkfixture.sh.  Both
# tools read it bind-mounted over /sys, with no preload: coldplug reads
# through the direct sysfs reader in every build (src/sysfs-direct.c),
# which takes any directory tree.  Only the library readers need more:
# libudev refuses a /sys that is not sysfs (it checks the fs magic), so
# PRELOAD=yes runs fbclassctl under umockdev's preload library instead
# (LD_PRELOAD + UMOCKDEV_DIR), which adds its path-rewriting cost to
# fbclassctl's time, not to mdev's.
#
# Debian's busybox-static is the reference, as the goal line says.  Its
# busybox package is linked as fbclassctl's default build is, against
# libc: that mdev -s runs too (BUSYBOX_DYNAMIC, or unpacked from
# `apt-get download busybox` into a cache, never installed; skipped with
# the reason when neither works), so the loader's share shows beside it.
#
# Last, what the dynamic loader costs: a program that does nothing, built
# static, dynamic with libc alone, and with each library fbclassctl names
# in DT_NEEDED added in turn (needs cc; skipped with the reason without).
#
# Environment: FBCLASSCTL (binary), N (framebuffers), ROUNDS (default 30),
# PRELOAD (default no), BUSYBOX (default: busybox, which must have mdev),
# BUSYBOX_DYNAMIC (default: Debian's busybox, cached), CC (default cc).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$(cd "$here/.." && pwd)}"
: "${FBCLASSCTL:=$top_srcdir/_build/fbclassctl}"
: "${N:=32}"
: "${ROUNDS:=30}"
: "${BUSYBOX:=$(command -v busybox || true)}"

die() { echo "bench-coldplug: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root (mount namespace, mknod)"
[ -x "$FBCLASSCTL" ] || die "$FBCLASSCTL is not built"
if [ -z "$BUSYBOX" ] || ! "$BUSYBOX" mdev --help >/dev/null 2>&1; then
	die "busybox with mdev is missing (Debian package busybox-static)"
fi
command -v umockdev-run >/dev/null || die "umockdev-run is missing (Debian package umockdev)"

# busybox_dynamic: Debian's dynamically linked busybox, on stdout; or a
# reason on stderr and status 1
busybox_dynamic() {
	local cache=${XDG_CACHE_HOME:-$HOME/.cache}/fbclassctl-bench/busybox deb
	if [ -n "${BUSYBOX_DYNAMIC:-}" ]; then
		echo "$BUSYBOX_DYNAMIC"
		return 0
	fi
	if [ ! -x "$cache/bin/busybox" ]; then
		mkdir -p "$cache/deb" "$cache/bin" || return 1
		if ! (cd "$cache/deb" && apt-get download busybox >/dev/null 2>&1); then
			echo "apt-get download busybox failed" >&2
			return 1
		fi
		for deb in "$cache"/deb/busybox_*.deb; do :; done
		if ! dpkg-deb -x "$deb" "$cache/unpacked" ||
			! cp "$cache/unpacked/bin/busybox" "$cache/bin/busybox"; then
			echo "cannot unpack $deb" >&2
			return 1
		fi
	fi
	if ! "$cache/bin/busybox" mdev --help >/dev/null 2>&1; then
		echo "$cache/bin/busybox has no mdev" >&2
		return 1
	fi
	echo "$cache/bin/busybox"
}

if [ -z "${FBBENCH_INNER:-}" ]; then
	work=$(mktemp -d /tmp/fbclassctl-bench.XXXXXX)
	trap 'rm -rf "$work"' EXIT
	BUSYBOX_DYNAMIC=$(busybox_dynamic 2>"$work/bbdyn.why") || BUSYBOX_DYNAMIC=
	bbdyn_why=$(cat "$work/bbdyn.why")
	export BUSYBOX_DYNAMIC bbdyn_why
	# umockdev builds a real directory tree from the description; copy it
	# out and use it as /sys for both tools.
	sh "$top_srcdir/tests/ns/mkfixture.sh" "$N" >"$work/tree.umockdev"
	mkdir "$work/testbed"
	# shellcheck disable=SC2016 # expanded by that sh
	umockdev-run -d "$work/tree.umockdev" -- sh -c 'cp -a "$UMOCKDEV_DIR/sys" "$1"' sh \
		"$work/testbed/sys"
	[ -d "$work/testbed/sys/class/graphics" ] || die "could not build the sysfs tree"
	# /sys/dev/char/MAJ:MIN links, as the kernel has them: mdev -s walks these.
	mkdir -p "$work/testbed/sys/dev/char"
	for c in "$work/testbed/sys/class/graphics"/*; do
		t=$(readlink "$c")
		ln -s "../../${t#../../}" "$work/testbed/sys/dev/char/$(cat "$c/dev")"
	done
	FBBENCH_INNER=1 FBBENCH_WORK=$work unshare --mount --propagation private \
		bash "$0" "$@"
	exit $?
fi

work=$FBBENCH_WORK
mkdir "$work/dev"
mount --bind "$work/testbed/sys" /sys
mount -t tmpfs -o mode=0755 fbbench /dev
mount -t tmpfs -o mode=0755 fbbench "$work/dev"

fresh_dev() {
	umount /dev "$work/dev"
	mount -t tmpfs -o mode=0755 fbbench /dev
	mount -t tmpfs -o mode=0755 fbbench "$work/dev"
}
# fbclassctl straight on the bind-mounted /sys, as mdev runs; PRELOAD=yes:
# through umockdev's preload (what --full-scan's libudev would need), by
# env(1), whose exec is then fbclassctl's cost too.
pre=()
if [ "${PRELOAD:-no}" = yes ]; then
	pre=(env LD_PRELOAD=libumockdev-preload.so.0 UMOCKDEV_DIR="$work/testbed")
fi
fbc() { "${pre[@]}" "$FBCLASSCTL" -q coldplug --dev "$work/dev"; }
# run_one WHAT: time one run on a fresh /dev, print microseconds.  Every
# tool is started by the same line: bash's own cost around it (a function
# call and a test took 40 us, 2% of a run) falls on all of them alike.
# The clock is bash's own: no fork of date(1) inside the timed interval.
run_one() {
	local t0 t1 cmd
	case $1 in
	fbclassctl) cmd=("${pre[@]}" "$FBCLASSCTL" -q coldplug --dev "$work/dev") ;;
	mdev) cmd=("$BUSYBOX" mdev -s) ;;
	mdev-dynamic) cmd=("$BUSYBOX_DYNAMIC" mdev -s) ;;
	startup) cmd=("${pre[@]}" "$FBCLASSCTL" --version) ;;
	hello-*) cmd=("$work/$1") ;;
	scan) cmd=("${pre[@]}" "$FBCLASSCTL" -q coldplug --dev "$work/dev" --dry-run) ;;
	esac
	fresh_dev
	t0=${EPOCHREALTIME/./}
	# coldplug loads no locale until it prints (log.h); --version does
	if [ "$1" = startup ]; then
		LC_ALL=C "${cmd[@]}" >/dev/null
	else
		"${cmd[@]}" >/dev/null
	fi
	t1=${EPOCHREALTIME/./}
	echo $((t1 - t0))
}

# count_in DIR GLOB: the entries of DIR that GLOB matches
count_in() {
	local n=0 f
	for f in "$1"/$2; do [ -e "$f" ] && n=$((n + 1)); done
	echo "$n"
}
# Sanity: both make all N nodes from this tree.
fresh_dev
fbc
n_fb=$(count_in "$work/dev" 'fb[0-9]*')
[ "$n_fb" = "$N" ] || die "fbclassctl made $n_fb nodes, not $N"
n_links=$(count_in "$work/dev/fb/by-path" '*')
n_names=$(count_in "$work/dev/fb/by-name" '*')
fresh_dev
"$BUSYBOX" mdev -s
n_mdev=$(count_in /dev 'fb[0-9]*')
[ "$n_mdev" = "$N" ] || die "mdev -s made $n_mdev nodes, not $N"

what="fbclassctl mdev startup scan"
if [ -n "$BUSYBOX_DYNAMIC" ]; then
	fresh_dev
	"$BUSYBOX_DYNAMIC" mdev -s
	n_mdev=$(count_in /dev 'fb[0-9]*')
	[ "$n_mdev" = "$N" ] || die "$BUSYBOX_DYNAMIC mdev -s made $n_mdev nodes, not $N"
	what="$what mdev-dynamic"
fi
for w in $what; do : >"$work/$w.t"; done
for _ in $(seq "$ROUNDS"); do
	for w in $what; do run_one "$w" >>"$work/$w.t"; done
done
# the same statistics and format as the VM bench's (make bench-vm)
# shellcheck source=tests/vm/bench/stats.sh
. "$top_srcdir/tests/vm/bench/stats.sh"
f=$(quartiles <"$work/fbclassctl.t")
m=$(quartiles <"$work/mdev.t")
s0=$(median <"$work/startup.t")
s1=$(median <"$work/scan.t")
build=default
goal=1.0
case $("$FBCLASSCTL" --version) in
*"link: static"*) build=static goal=0.5 ;;
*"sysfs: libsysfs"*) build=libsysfs goal= ;;
esac
r=$(ratio "${f%% *}" "${m%% *}")
echo "coldplug of $N fbs (a generated sysfs tree), fresh tmpfs /dev, $ROUNDS runs alternating, median [q1 q3]"
printf '  %-26s %-26s (%d nodes, no links)\n' "busybox mdev -s" "$(ms_iqr "$m")" "$N"
printf '  %-26s %-26s ratio %s%s  (%d nodes, %d by-path + %d by-name links)\n' "fbclassctl ($build)" \
	"$(ms_iqr "$f")" "$r" "${goal:+  $(goal_le "$r" "$goal")}" "$N" "$n_links" "$n_names"
if [ -n "$BUSYBOX_DYNAMIC" ]; then
	d=$(quartiles <"$work/mdev-dynamic.t")
	printf '  %-26s %-26s ratio of fbclassctl (%s) to it %s\n' "mdev -s, dynamic" \
		"$(ms_iqr "$d")" "$build" "$(ratio "${f%% *}" "${d%% *}")"
	echo "  (mdev -s, dynamic: Debian's busybox package, linked against libc as fbclassctl's default build is)"
else
	echo "  mdev -s, dynamic: skipped ($bbdyn_why)"
fi
awk -v f="${f%% *}" -v s0="$s0" -v s1="$s1" -v p="${PRELOAD:-no}" 'BEGIN {
	printf "where fbclassctl spends it, medians (umockdev preload: %s):\n", p
	printf "  start-up (--version):        %7.2f ms\n", s0 / 1e3
	printf "  + scan and plan (--dry-run): %7.2f ms\n", (s1 - s0) / 1e3
	printf "  + apply and prune:           %7.2f ms\n", (f - s1) / 1e3
}'

# What the dynamic loader costs: "hello" (main returns 0) static, with libc
# alone, then with each of fbclassctl's DT_NEEDED libraries added in turn
# (--no-as-needed keeps a library nothing calls).  Same rounds, alternating.
needed=$(LC_ALL=C objdump -p "$FBCLASSCTL" 2>/dev/null |
	awk '$1 == "NEEDED" && $2 !~ /^(libc|ld-linux)/ { print $2 }')
if ! command -v "${CC:-cc}" >/dev/null || ! command -v objdump >/dev/null; then
	echo "start-up per library: skipped (needs ${CC:-cc} and objdump)"
	exit 0
fi
echo 'int main(void) { return 0; }' >"$work/hello.c"
"${CC:-cc}" -O2 -static -o "$work/hello-static" "$work/hello.c" 2>/dev/null ||
	{ echo "start-up per library: skipped (${CC:-cc} cannot link a static program)"; exit 0; }
"${CC:-cc}" -O2 -o "$work/hello-libc" "$work/hello.c"
libs="" hellos="hello-static hello-libc" i=0
for l in $needed; do
	i=$((i + 1))
	libs="$libs -l:$l"
	# shellcheck disable=SC2086 # one word per library
	"${CC:-cc}" -O2 -o "$work/hello-$i" "$work/hello.c" -Wl,--no-as-needed $libs ||
		die "cannot link a program with $l"
	hellos="$hellos hello-$i"
done
for w in $hellos; do : >"$work/$w.t"; done
for _ in $(seq "$ROUNDS"); do
	for w in $hellos; do run_one "$w" >>"$work/$w.t"; done
done
echo "start-up of a program that does nothing, medians:"
prev=""
i=0
for w in $hellos; do
	m=$(median <"$work/$w.t")
	case $w in
	hello-static) what="static" ;;
	hello-libc) what="dynamic, libc alone" ;;
	*) i=$((i + 1)); what="+ $(echo "$needed" | sed -n "${i}p")" ;;
	esac
	awk -v w="$what" -v m="$m" -v p="$prev" 'BEGIN {
		printf "  %-28s %7.2f ms", w, m / 1e3
		if (p != "") printf "  (%+.2f ms)", (m - p) / 1e3
		printf "\n" }'
	prev=$m
done
