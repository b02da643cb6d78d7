#!/bin/bash
# bench/coldplug-vs-mdev.sh: "fbclassctl coldplug" against "busybox mdev -s"
# on the same generated sysfs tree of N framebuffers (default 32, FB_MAX),
# in the same run.  As root, in a private mount namespace, each run on a
# fresh tmpfs.  Runs alternate between the two tools; medians are compared.
#
# The tree is built once by umockdev from tests/ns/mkfixture.sh.  mdev -s
# reads it bind-mounted over /sys.  libudev refuses a /sys that is not
# sysfs (it checks the fs magic), so fbclassctl reads the same directory
# through umockdev's preload library (LD_PRELOAD + UMOCKDEV_DIR, without
# umockdev-run's one-second set-up), which adds its path-rewriting cost to
# fbclassctl's time, not to mdev's.
#
# Environment: FBCLASSCTL (binary), N (framebuffers), ROUNDS (default 30),
# PRELOAD (default yes; no: without umockdev, --with-libsysfs builds only),
# BUSYBOX (default: busybox, which must have mdev).
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
[ -n "$BUSYBOX" ] && "$BUSYBOX" mdev --help >/dev/null 2>&1 ||
	die "busybox with mdev is missing (Debian package busybox-static)"
command -v umockdev-run >/dev/null || die "umockdev-run is missing (Debian package umockdev)"

if [ -z "${FBBENCH_INNER:-}" ]; then
	work=$(mktemp -d /tmp/fbclassctl-bench.XXXXXX)
	trap 'rm -rf "$work"' EXIT
	# umockdev builds a real directory tree from the description; copy it
	# out and use it as /sys for both tools.
	sh "$top_srcdir/tests/ns/mkfixture.sh" "$N" >"$work/tree.umockdev"
	mkdir "$work/testbed"
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
# PRELOAD=no: run fbclassctl straight on the bind-mounted /sys, as mdev
# runs; only a --with-libsysfs build can (libsysfs takes the first sysfs
# of /proc/mounts, which is the /sys the tree is mounted over).
preload() {
	if [ "${PRELOAD:-yes}" = no ]; then
		"$@"
	else
		LD_PRELOAD=libumockdev-preload.so.0 UMOCKDEV_DIR=$work/testbed "$@"
	fi
}
fbc() { preload "$FBCLASSCTL" -q coldplug --dev "$work/dev"; }
# run_one WHAT: time one run on a fresh /dev, print microseconds.  The
# clock is bash's own: no fork of date(1) inside the timed interval.
run_one() {
	local t0 t1
	fresh_dev
	t0=${EPOCHREALTIME/./}
	case $1 in
	fbclassctl) fbc ;;
	mdev) "$BUSYBOX" mdev -s ;;
	startup) preload "$FBCLASSCTL" --version >/dev/null ;;
	scan) preload "$FBCLASSCTL" -q coldplug --dev "$work/dev" --dry-run >/dev/null ;;
	esac
	t1=${EPOCHREALTIME/./}
	echo $((t1 - t0))
}

# Sanity: both make all N nodes from this tree.
fresh_dev
fbc
n_fb=$(ls "$work/dev" | grep -c '^fb[0-9][0-9]*$' || true)
[ "$n_fb" = "$N" ] || die "fbclassctl made $n_fb nodes, not $N"
n_links=$(ls "$work/dev/fb/by-path" | wc -l)
fresh_dev
"$BUSYBOX" mdev -s
n_mdev=$(ls /dev | grep -c '^fb[0-9][0-9]*$' || true)
[ "$n_mdev" = "$N" ] || die "mdev -s made $n_mdev nodes, not $N"

what="fbclassctl mdev startup scan"
for w in $what; do : >"$work/$w.t"; done
for _ in $(seq "$ROUNDS"); do
	for w in $what; do run_one "$w" >>"$work/$w.t"; done
done
median() { sort -n "$1" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
awk -v f="$(median "$work/fbclassctl.t")" -v m="$(median "$work/mdev.t")" \
	-v s0="$(median "$work/startup.t")" -v s1="$(median "$work/scan.t")" \
	-v n="$N" -v r="$ROUNDS" -v p="${PRELOAD:-yes}" -v l="$n_links" 'BEGIN {
	printf "coldplug of %d framebuffers, fresh tmpfs /dev, median of %d runs each\n", n, r
	printf "  fbclassctl coldplug:   %7.2f ms  (%d nodes, %d by-path + by-name links)\n", f / 1e3, n, l
	printf "  busybox mdev -s:       %7.2f ms  (%d nodes, no links)\n", m / 1e3, n
	printf "  ratio fbclassctl/mdev: %7.2f     (goal: < 0.50)\n", f / m
	printf "where fbclassctl spends it (umockdev preload: %s):\n", p
	printf "  start-up (--version):        %7.2f ms\n", s0 / 1e3
	printf "  + scan and plan (--dry-run): %7.2f ms\n", (s1 - s0) / 1e3
	printf "  + apply and prune:           %7.2f ms\n", (f - s1) / 1e3
}'
