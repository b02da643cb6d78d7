#!/bin/bash
# coldplug and hotplug on the command line, no root needed: --help, usage
# errors, --check-config, --dry-run under umockdev, ignored uevents.
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

[ -x "$FBCLASSCTL" ] || skip "$FBCLASSCTL is not built"
: "${UMOCKDEV_RUN:=$(command -v umockdev-run || true)}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# env -i, but keeping a sanitizer build's options
envi() { env -i ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} "$@"; }
# run OUT CMD...: run, stdout+stderr to OUT, echo the exit status
run() {
	local out=$1
	shift
	"$@" >"$out" 2>&1
	echo $?
}
for cmd in coldplug hotplug; do
	expect_eq "$cmd --help exits 0" "$(run "$work/out" "$FBCLASSCTL" $cmd --help)" 0
	check "$cmd --help shows usage" grep -q "^Usage: fbclassctl $cmd" "$work/out"
	for opt in --dev --config --dry-run; do
		check "$cmd --help lists $opt" grep -q -- "$opt" "$work/out"
	done
	expect_eq "$cmd --bogus exits 2" "$(run "$work/out" "$FBCLASSCTL" $cmd --bogus)" 2
	check "$cmd --bogus says how to get help" grep -qF "Try 'fbclassctl $cmd --help'" "$work/out"
	expect_eq "$cmd with an argument exits 2" "$(run "$work/out" "$FBCLASSCTL" $cmd extra)" 2
	check "$cmd names the extra argument" grep -qF "unexpected argument \"extra\"" "$work/out"
done
"$FBCLASSCTL" coldplug --help >"$work/out"
for opt in --check-config --load-modules --settle; do
	check "coldplug --help lists $opt" grep -q -- "$opt" "$work/out"
done
expect_eq "hotplug --load-modules exits 2" \
	"$(run "$work/out" "$FBCLASSCTL" hotplug --load-modules)" 2
check "hotplug --load-modules is for coldplug only" \
	grep -qF "hotplug: option --load-modules is for coldplug only" "$work/out"
expect_eq "--settle x exits 2" "$(run "$work/out" "$FBCLASSCTL" coldplug --settle x)" 2
check "--settle x is named, with the range" grep -qF -- '--settle: "x" is not a number of seconds from 0 to 3600' "$work/out"
expect_eq "--settle -1 exits 2" "$(run "$work/out" "$FBCLASSCTL" coldplug --settle -1)" 2
check "both commands are in fbclassctl --help" \
	sh -c '"$1" --help | grep -q "^  coldplug " && "$1" --help | grep -q "^  hotplug "' sh "$FBCLASSCTL"

# --check-config touches nothing and needs no root.
printf 'name=fb0 mode=0600\nname=fb1 link=display/x\n' >"$work/good.conf"
expect_eq "check-config good: exit 0" \
	"$(run "$work/out" "$FBCLASSCTL" coldplug --check-config --config "$work/good.conf")" 0
expect_eq "check-config good: summary" "$(cat "$work/out")" "$work/good.conf: 2 rules, no errors"
printf 'name=fb0 mode=0600\n\nname=fb1 mode=8\n' >"$work/bad.conf"
expect_eq "check-config bad: exit 2" \
	"$(run "$work/out" "$FBCLASSCTL" coldplug --check-config --config "$work/bad.conf")" 2
expect_eq "check-config bad: FILE:LINE: reason" "$(cat "$work/out")" \
	"fbclassctl: $work/bad.conf:3: invalid mode \"8\": expected octal 0 to 0777"
mkdir "$work/confdir"
expect_eq "check-config of a directory: exit 2" \
	"$(run "$work/out" "$FBCLASSCTL" coldplug --check-config --config "$work/confdir")" 2
check "a directory is not a rules file" grep -qF "$work/confdir: rules file is not a regular file" "$work/out"

# hotplug: events that are not for us exit 0 without looking at anything.
expect_eq "hotplug of another subsystem exits 0" "$(envi ACTION=add SUBSYSTEM=block \
	DEVPATH=/devices/virtual/block/loop0 "$FBCLASSCTL" hotplug --dev "$work/nodir"; echo $?)" 0
expect_eq "hotplug with no environment exits 0" "$(envi "$FBCLASSCTL" hotplug; echo $?)" 0
expect_eq "hotplug of fbcon exits 0" "$(envi ACTION=add SUBSYSTEM=graphics \
	DEVPATH=/devices/virtual/graphics/fbcon "$FBCLASSCTL" hotplug; echo $?)" 0
expect_eq "hotplug bad DEVNAME exits 1" "$(run "$work/out" envi ACTION=add SUBSYSTEM=graphics \
	DEVPATH=/devices/x/graphics/fb0 MAJOR=29 MINOR=0 DEVNAME=../fb0 "$FBCLASSCTL" hotplug)" 1
expect_eq "hotplug bad DEVNAME message" "$(cat "$work/out")" \
	"fbclassctl: uevent rejected: DEVNAME \"../fb0\" is not a plain name (no '/', no \"..\")"

# --dry-run as any user, on a umockdev tree.
if [ -x "$UMOCKDEV_RUN" ]; then
	sh "$top_srcdir/tests/ns/mkfixture.sh" 2 >"$work/two.umockdev"
	mkdir "$work/dev"
	"$UMOCKDEV_RUN" -d "$work/two.umockdev" -- "$FBCLASSCTL" coldplug --dev "$work/dev" \
		--dry-run --config "$work/good.conf" >"$work/out" 2>"$work/err"
	expect_eq "dry-run with rules: exit 0" "$?" 0
	# the defaults: root:video 0660, or root:root 0600 without a video group
	if getent group video >/dev/null; then grp=video mode=0660; else grp=root mode=0600; fi
	cat >"$work/want" <<EOF
mknod $work/dev/fb0 c 29 0
chown root:$grp $work/dev/fb0
chmod 0600 $work/dev/fb0
mknod $work/dev/fb1 c 29 1
chown root:$grp $work/dev/fb1
chmod $mode $work/dev/fb1
mkdir -m 0755 $work/dev/fb
mkdir -m 0755 $work/dev/fb/by-path
ln -s ../../fb0 $work/dev/fb/by-path/pci-0000:00:02.0
mkdir -m 0755 $work/dev/fb/by-name
ln -s ../../fb0 $work/dev/fb/by-name/bochs-drmdrmfb
ln -s ../../fb1 $work/dev/fb/by-path/platform-vfb.1
ln -s ../../fb1 $work/dev/fb/by-name/Virtual_FB
mkdir -m 0755 $work/dev/display
ln -s ../fb1 $work/dev/display/x
EOF
	check "dry-run with rules prints the plan" diff -u "$work/want" "$work/out"
	expect_eq "dry-run made nothing" "$(ls -A "$work/dev")" ""
else
	skip_part "dry-run with rules prints the plan" "umockdev-run missing (Debian package umockdev)"
fi
finish
