#!/bin/bash
# ns tier: as root, in a private mount namespace, coldplug, hotplug and
# unload make and remove real nodes on a private tmpfs, and every hostile
# entry we know of in a dev dir is tried.
# The device source is a umockdev tree made by mkfixture.sh (fb0 on PCI,
# fb1 and fb2 on platform vfb.1 and vfb.2, both with the id "Virtual FB").
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

[ "$(id -u)" = 0 ] || skip "ns tier needs root (mknod, chown, mount)"
command -v unshare >/dev/null || skip "unshare (util-linux) is missing"
: "${UMOCKDEV_RUN:=$(command -v umockdev-run || true)}"
[ -x "$UMOCKDEV_RUN" ] || skip "umockdev-run is missing (Debian package umockdev)"
[ -x "$FBCLASSCTL" ] || skip "$FBCLASSCTL is not built"
getent group video >/dev/null || skip "no video group: the defaults under test differ"

if [ -z "${FBNS_INNER:-}" ]; then
	unshare --mount --propagation private true 2>/dev/null ||
		skip "unshare --mount does not work here"
	FBNS_INNER=1 exec unshare --mount --propagation private bash "$0" "$@"
fi

work=$(mktemp -d /tmp/fbclassctl-ns.XXXXXX)
trap 'umount "$dev" 2>/dev/null; rm -rf "$work"' EXIT
fixture=$work/three.umockdev
sh "$top_srcdir/tests/ns/mkfixture.sh" 3 >"$fixture"
dev=$work/dev
mkdir "$dev"

# fresh: an empty tmpfs at $dev
fresh() {
	umount "$dev" 2>/dev/null
	mount -t tmpfs -o "mode=0755${1:+,$1}" fbns "$dev"
}
fbc() { "$UMOCKDEV_RUN" -d "$fixture" -- "$FBCLASSCTL" "$@"; }
# node NAME: "type maj:min user:group mode" of $dev/NAME (hex maj:min as stat)
node() { stat -c '%F %t:%T %U:%G %a' "$dev/$1" 2>&1; }
tree() { (cd "$dev" && ls -liR --time-style=+%s.%N .); }
expect_grep() { # NAME PATTERN FILE
	if grep -qF -- "$2" "$3"; then ok "$1"; else
		not_ok "$1"
		echo "#   no \"$2\" in:" && sed 's/^/#   /' "$3"
	fi
}

# ---- coldplug on an empty dev dir ----
fresh
fbc coldplug --dev "$dev" --dry-run >"$work/out" 2>"$work/err"
expect_eq "dry-run exits 0" "$?" 0
cat >"$work/want" <<EOF
mknod $dev/fb0 c 29 0
chown root:video $dev/fb0
chmod 0660 $dev/fb0
mknod $dev/fb1 c 29 1
chown root:video $dev/fb1
chmod 0660 $dev/fb1
mknod $dev/fb2 c 29 2
chown root:video $dev/fb2
chmod 0660 $dev/fb2
mkdir -m 0755 $dev/fb
mkdir -m 0755 $dev/fb/by-path
ln -s ../../fb0 $dev/fb/by-path/pci-0000:00:02.0
mkdir -m 0755 $dev/fb/by-name
ln -s ../../fb0 $dev/fb/by-name/bochs-drmdrmfb
ln -s ../../fb1 $dev/fb/by-path/platform-vfb.1
ln -s ../../fb1 $dev/fb/by-name/Virtual_FB
ln -s ../../fb2 $dev/fb/by-path/platform-vfb.2
EOF
check "dry-run prints the plan" diff -u "$work/want" "$work/out"
expect_eq "dry-run changes nothing" "$(ls -A "$dev")" ""

fbc coldplug --dev "$dev" 2>"$work/err"
expect_eq "coldplug exits 0" "$?" 0
expect_eq "fb0 is c 29:0 root:video 0660" "$(node fb0)" "character special file 1d:0 root:video 660"
expect_eq "fb2 is c 29:2 root:video 0660" "$(node fb2)" "character special file 1d:2 root:video 660"
expect_eq "by-path link of fb0" "$(readlink "$dev/fb/by-path/pci-0000:00:02.0")" "../../fb0"
expect_eq "by-path link of fb2" "$(readlink "$dev/fb/by-path/platform-vfb.2")" "../../fb2"
expect_eq "by-name collision: lowest minor wins" "$(readlink "$dev/fb/by-name/Virtual_FB")" "../../fb1"
expect_eq "link dirs are 0755" "$(stat -c %a "$dev/fb" "$dev/fb/by-path" | tr '\n' ' ')" "755 755 "
expect_eq "no temporary entry left" "$(find "$dev" -name '.fbclassctl-*')" ""
expect_eq "coldplug is quiet" "$(cat "$work/err")" ""

tree >"$work/tree1"
fbc coldplug --dev "$dev" 2>"$work/err"
expect_eq "second coldplug exits 0" "$?" 0
tree >"$work/tree2"
check "second coldplug changes nothing (ls -liR, times too)" diff -u "$work/tree1" "$work/tree2"
expect_eq "dry-run on a right /dev prints nothing" "$(fbc coldplug --dev "$dev" --dry-run)" ""

# ---- owner and mode of an existing right node are fixed in place ----
ino=$(stat -c %i "$dev/fb1")
chown 65534:65534 "$dev/fb1" && chmod 0666 "$dev/fb1"
expect_eq "dry-run names the fix" "$(fbc coldplug --dev "$dev" --dry-run)" \
	"chown root:video $dev/fb1
chmod 0660 $dev/fb1"
fbc coldplug --dev "$dev" 2>"$work/err"
expect_eq "wrong owner/mode fixed" "$(node fb1)" "character special file 1d:1 root:video 660"
expect_eq "fixed in place (same inode)" "$(stat -c %i "$dev/fb1")" "$ino"

# ---- prune: only what fbclassctl owns ----
mknod "$dev/fb7" c 29 7
mknod "$dev/fb8" c 1 3
echo data >"$dev/fb9"
mknod "$dev/fbx" c 29 5
ln -s ../../fb7 "$dev/fb/by-path/platform-gone.0"
echo keep >"$dev/fb/by-path/notes"
fbc coldplug --dev "$dev" 2>"$work/err"
expect_eq "coldplug with strays exits 0" "$?" 0
check "stale fb7 (29:7) pruned" test ! -e "$dev/fb7"
check "fb8 of another major kept" test -c "$dev/fb8"
check "regular file fb9 kept" test "$(cat "$dev/fb9")" = data
check "fbx (not an fbN name) kept" test -c "$dev/fbx"
check "stale by-path link pruned" test ! -L "$dev/fb/by-path/platform-gone.0"
check "regular file under by-path kept" test -f "$dev/fb/by-path/notes"
rm -f "$dev/fb8" "$dev/fb9" "$dev/fbx" "$dev/fb/by-path/notes"

# ---- hostile entries at node names ----
fresh
echo secret >"$work/victim"
chown 65534:65534 "$work/victim"
chmod 0604 "$work/victim"
ln -s "$work/victim" "$dev/fb0"
echo junk >"$dev/fb1"
mkdir "$dev/fb2" && echo inside >"$dev/fb2/file"
fbc coldplug --dev "$dev" 2>"$work/err"
expect_eq "directory at a node name: exit 1" "$?" 1
expect_eq "victim untouched" "$(stat -c '%U:%G %a' "$work/victim"):$(cat "$work/victim")" \
	"nobody:nogroup 604:secret"
expect_eq "symlink fb0 replaced by the node" "$(node fb0)" "character special file 1d:0 root:video 660"
expect_grep "symlink replacement warned" "$dev/fb0: replacing a symlink with the character device 29:0" "$work/err"
expect_eq "regular file fb1 replaced" "$(node fb1)" "character special file 1d:1 root:video 660"
expect_grep "file replacement warned" "$dev/fb1: replacing a regular file with the character device 29:1" "$work/err"
check "directory fb2 left alone" test "$(cat "$dev/fb2/file")" = inside
expect_grep "directory named in the error" "$dev/fb2: is a directory, not the character device 29:2; left alone" "$work/err"
check "no link to the directory at fb2" test ! -L "$dev/fb/by-path/platform-vfb.2"
expect_eq "links of the others still made" "$(readlink "$dev/fb/by-path/pci-0000:00:02.0")" "../../fb0"

fresh
mknod "$dev/fb0" c 1 1
fbc coldplug --dev "$dev" 2>"$work/err"
expect_eq "node with a wrong number replaced" "$(node fb0)" "character special file 1d:0 root:video 660"
expect_grep "wrong number warned" "$dev/fb0: replacing a character device with another number" "$work/err"

# ---- planted directory symlinks ----
fresh
mkdir "$work/elsewhere" "$dev/fb"
ln -s "$work/elsewhere" "$dev/fb/by-path"
fbc coldplug --dev "$dev" 2>"$work/err"
expect_eq "planted fb/by-path symlink: exit 1" "$?" 1
expect_eq "nothing written through fb/by-path" "$(ls -A "$work/elsewhere")" ""
expect_grep "planted symlink named" "$dev/fb/by-path: not a directory (a symlink?): nothing written there" "$work/err"
check "fb/by-path is still the planted symlink" test -L "$dev/fb/by-path"
check "nodes made anyway" test -c "$dev/fb0"
check "by-name links made anyway" test -L "$dev/fb/by-name/Virtual_FB"

fresh
ln -s "$work/elsewhere" "$dev/fb"
fbc coldplug --dev "$dev" 2>"$work/err"
expect_eq "planted fb symlink: exit 1" "$?" 1
expect_eq "nothing written through fb" "$(ls -A "$work/elsewhere")" ""

# ---- read-only and full dev dirs ----
fresh
mount -o remount,ro "$dev"
fbc coldplug --dev "$dev" 2>"$work/err"
expect_eq "read-only dev: exit 1" "$?" 1
expect_grep "read-only dev: clear error" "$dev/fb0: cannot create node: Read-only file system" "$work/err"
mount -o remount,rw "$dev"
expect_eq "read-only dev: nothing made" "$(ls -A "$dev")" ""

fresh "size=8k,nr_inodes=3"
fbc coldplug --dev "$dev" 2>"$work/err"
expect_eq "full dev: exit 1" "$?" 1
expect_grep "full dev: clear error" "cannot create node: No space left on device" "$work/err"
expect_eq "full dev: no temporary entry left" "$(find "$dev" -name '.fbclassctl-*')" ""
expect_eq "full dev: no link to a node not made" "$(find "$dev" -xtype l)" ""
for f in "$dev"/fb[0-9]*; do
	[ -e "$f" ] || continue
	check "full dev: $(basename "$f") complete" test "$(stat -c '%F %U:%G %a' "$f")" = \
		"character special file root:video 660"
done

# ---- how a node is made, and one made by someone else meanwhile ----
# A preloaded mknodat() and renameat2() (tests/ns/create-race.c) trace
# the calls, put a file at the name first, or fail as a file system
# without RENAME_NOREPLACE does.  On a tmpfs a node is born under its own
# name with its owner and mode; in a set-group-ID dev dir (which would
# give it the directory's group) it is made under a temporary name and
# moved into place.
fresh_setgid() {
	fresh
	chgrp 1 "$dev" && chmod g+s "$dev"
}
if ! command -v "${CC:-cc}" >/dev/null; then
	skip_part "how a node is made" "no C compiler (${CC:-cc}) for the preload"
elif ! ${CC:-cc} -std=gnu11 -O2 -fPIC -shared -o "$work/create-race.so" \
	"$top_srcdir/tests/ns/create-race.c" -ldl 2>"$work/cc.err"; then
	not_ok "how a node is made: the preload builds"
	sed 's/^/#   /' "$work/cc.err"
else
	race() { # MODE ARGS...: coldplug with the racer
		local mode=$1
		shift
		: >"$work/trace"
		# shellcheck disable=SC2016 # umockdev's LD_PRELOAD, in there
		FBNS_RACE=$mode FBNS_TRACE=$work/trace "$UMOCKDEV_RUN" -d "$fixture" -- sh -c \
			'LD_PRELOAD="$LD_PRELOAD:$0" exec "$@"' "$work/create-race.so" \
			"$FBCLASSCTL" "$@"
	}
	nodes_right() { # WHAT
		for f in fb0 fb1 fb2; do
			expect_eq "$1: $f is the node" "$(node $f | cut -d' ' -f1-3,5-)" \
				"character special file root:video 660"
		done
		expect_eq "$1: no temporary entry left" "$(find "$dev" -name '.fbclassctl-*')" ""
	}
	fresh
	race trace coldplug --dev "$dev" 2>"$work/err"
	expect_eq "born: coldplug exits 0" "$?" 0
	expect_eq "born: each node in one mknodat() under its name, nothing renamed" \
		"$(cat "$work/trace")" "$(printf 'mknodat fb%s\n' 0 1 2)"
	nodes_right born
	expect_eq "born: the directories after the nodes are root's again" \
		"$(stat -c '%U:%G %a' "$dev/fb" "$dev/fb/by-path" "$dev/fb/by-name")" \
		"$(printf 'root:root 755\n%.0s' 1 2 3)"
	fresh_setgid
	race trace coldplug --dev "$dev" 2>"$work/err"
	expect_eq "set-group-ID dev dir: coldplug exits 0" "$?" 0
	expect_eq "set-group-ID dev dir: each node made under a temporary name, then moved" \
		"$(sed 's/[0-9]*-fb/PID-fb/g' "$work/trace")" \
		"$(for n in 0 1 2; do
			printf 'mknodat .fbclassctl-PID-fb%s\nrenameat2 .fbclassctl-PID-fb%s fb%s\n' $n $n $n
		done)"
	nodes_right "set-group-ID dev dir"
	for how in born renamed; do
		if [ $how = born ]; then fresh; else fresh_setgid; fi
		race file coldplug --dev "$dev" 2>"$work/err"
		expect_eq "race ($how): coldplug exits 0" "$?" 0
		expect_grep "race ($how): the entry made meanwhile is looked at, not overwritten unseen" \
			"$dev/fb0: replacing a regular file with the character device 29:0" "$work/err"
		nodes_right "race ($how)"
	done
	fresh_setgid
	race einval coldplug --dev "$dev" 2>"$work/err"
	expect_eq "no RENAME_NOREPLACE: coldplug exits 0" "$?" 0
	expect_eq "no RENAME_NOREPLACE: nothing said" "$(cat "$work/err")" ""
	nodes_right "no RENAME_NOREPLACE"
fi

# ---- rules ----
fresh
cat >"$work/good.conf" <<'EOF'
# fb0 is the main display
name=fb0 group=root mode=0600 link=display/main
id="Virtual FB" driver=vfb path=platform-vfb.2 ignore
EOF
expect_eq "check-config of a good file" "$(fbc coldplug --check-config --config "$work/good.conf"; echo "rc=$?")" \
	"$work/good.conf: 2 rules, no errors
rc=0"
fbc coldplug --dev "$dev" --config "$work/good.conf" 2>"$work/err"
expect_eq "rules: coldplug exits 0" "$?" 0
expect_eq "rules: fb0 root:root 0600" "$(node fb0)" "character special file 1d:0 root:root 600"
expect_eq "rules: display/main link" "$(readlink "$dev/display/main")" "../fb0"
check "rules: ignored fb2 has no node" test ! -e "$dev/fb2"
check "rules: ignored fb2 has no link" test ! -e "$dev/fb/by-path/platform-vfb.2"
expect_eq "rules: fb1 keeps the defaults" "$(node fb1)" "character special file 1d:1 root:video 660"
mknod "$dev/fb2" c 29 2
fbc coldplug --dev "$dev" --config "$work/good.conf" 2>"$work/err"
check "rules: an ignored device's node is not pruned" test -c "$dev/fb2"
sed -i 's/name=fb0/name=fb5/' "$work/good.conf"
fbc coldplug --dev "$dev" --config "$work/good.conf" 2>"$work/err"
check "rules: stale display/main pruned" test ! -L "$dev/display/main"

cat >"$work/bad.conf" <<'EOF'
name=fb0 mode=0660
frobnicate
name=fb0 colour=blue
name=fb0 owner=nosuchuser-fbclassctl
name=fb0 group=nosuchgroup-fbclassctl
name=fb0 mode=999
name=fb0 link=../../etc/x
name=fb0 link=/etc/x
id="unterminated mode=0600
name=fb0
mode=0600
name=fb0 ignore mode=0600
EOF
tree >"$work/tree1"
fbc coldplug --check-config --config "$work/bad.conf" >/dev/null 2>"$work/err"
expect_eq "check-config of a bad file exits 2" "$?" 2
cat >"$work/want" <<EOF
fbclassctl: $work/bad.conf:2: expected KEY=VALUE or "ignore", got "frobnicate"
fbclassctl: $work/bad.conf:3: unknown key "colour"
fbclassctl: $work/bad.conf:4: unknown user "nosuchuser-fbclassctl"
fbclassctl: $work/bad.conf:5: unknown group "nosuchgroup-fbclassctl"
fbclassctl: $work/bad.conf:6: invalid mode "999": expected octal 0 to 0777
fbclassctl: $work/bad.conf:7: invalid link "../../etc/x": must not contain ".."
fbclassctl: $work/bad.conf:8: invalid link "/etc/x": must be relative
fbclassctl: $work/bad.conf:9: unterminated quote in value of "id"
fbclassctl: $work/bad.conf:10: rule has no action (owner=, group=, mode=, link=, fbmode=, console=, rotate= or ignore)
fbclassctl: $work/bad.conf:11: rule has no match (name=, driver=, path=, id=, connector= or monitor=)
fbclassctl: $work/bad.conf:12: "ignore" cannot be combined with other actions
EOF
check "check-config names every bad line" diff -u "$work/want" "$work/err"
fbc coldplug --dev "$dev" --config "$work/bad.conf" 2>/dev/null
expect_eq "coldplug with a bad file exits 2" "$?" 2
tree >"$work/tree2"
check "coldplug with a bad file touches nothing" diff -u "$work/tree1" "$work/tree2"
fbc coldplug --check-config --config "$work/missing.conf" 2>"$work/err"
expect_eq "check-config of a missing file exits 2" "$?" 2
expect_grep "missing file named" "$work/missing.conf: cannot open rules file: No such file or directory" "$work/err"

# ---- hotplug ----
fresh
P0=/devices/pci0000:00/0000:00:02.0/graphics/fb0
# hp OUT VAR=VALUE...: run hotplug with exactly these uevent variables
hp() {
	local out=$1
	shift
	env -i PATH="$PATH" ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} "$@" "$UMOCKDEV_RUN" -d "$fixture" -- \
		"$FBCLASSCTL" hotplug --dev "$dev" >"$out" 2>&1
}
reject() { # NAME MESSAGE VAR=VALUE...
	local name=$1 msg=$2
	shift 2
	hp "$work/hp" "$@"
	local rc=$?
	if [ "$rc" = 1 ] && grep -qF -- "$msg" "$work/hp" && [ -z "$(ls -A "$dev")" ] &&
		[ ! -e /tmp/pwn ] && [ ! -e /etc/x ]; then
		ok "hotplug rejects $name"
	else
		not_ok "hotplug rejects $name (rc=$rc, dev: $(ls -A "$dev"))"
		sed 's/^/#   /' "$work/hp"
	fi
}
base=(ACTION=add SUBSYSTEM=graphics SEQNUM=7)
reject "DEVNAME ../../tmp/pwn" 'DEVNAME "../../tmp/pwn" is not a plain name' \
	"${base[@]}" DEVPATH=$P0 MAJOR=29 MINOR=0 DEVNAME=../../tmp/pwn
reject "DEVNAME /etc/x" 'DEVNAME "/etc/x" is not a plain name' \
	"${base[@]}" DEVPATH=$P0 MAJOR=29 MINOR=0 DEVNAME=/etc/x
reject "DEVNAME fb0/../x" 'DEVNAME "fb0/../x" is not a plain name' \
	"${base[@]}" DEVPATH=$P0 MAJOR=29 MINOR=0 DEVNAME=fb0/../x
reject "MAJOR:MINOR 1:1 (/dev/mem)" "MAJOR 1 is not the framebuffer major 29" \
	"${base[@]}" DEVPATH=$P0 MAJOR=1 MINOR=1 DEVNAME=fb0
reject "MAJOR:MINOR 29:5 that sysfs disagrees with" \
	"fb0: uevent rejected: MAJOR:MINOR 29:5 disagree with sysfs dev 29:0" \
	"${base[@]}" DEVPATH=$P0 MAJOR=29 MINOR=5 DEVNAME=fb0
reject "DEVPATH outside /devices" 'DEVPATH "/class/graphics/fb0" is not under /devices' \
	"${base[@]}" DEVPATH=/class/graphics/fb0 MAJOR=29 MINOR=0 DEVNAME=fb0
reject "DEVPATH with .." 'has a "." or ".." component' \
	"${base[@]}" DEVPATH=/devices/../../tmp/fb0 MAJOR=29 MINOR=0 DEVNAME=fb0
reject "a vanished DEVPATH" "(device vanished?)" \
	"${base[@]}" DEVPATH=/devices/platform/vfb.9/graphics/fb9 MAJOR=29 MINOR=9 DEVNAME=fb9
reject "DEVNAME other than the sysfs name" 'DEVNAME "fb1" is not the device'"'"'s name "fb0"' \
	"${base[@]}" DEVPATH=$P0 MAJOR=29 MINOR=0 DEVNAME=fb1
hp "$work/hp" ACTION=add SUBSYSTEM=block DEVPATH=/devices/virtual/block/loop0 MAJOR=7 \
	MINOR=0 DEVNAME=loop0
expect_eq "other subsystem: exit 0, nothing made" "$?:$(ls -A "$dev")" "0:"

hp "$work/hp" "${base[@]}" DEVPATH=$P0 MAJOR=29 MINOR=0 DEVNAME=fb0
expect_eq "hotplug add exits 0" "$?" 0
expect_eq "hotplug add made fb0" "$(node fb0)" "character special file 1d:0 root:video 660"
expect_eq "hotplug add made fb0's by-path link" "$(readlink "$dev/fb/by-path/pci-0000:00:02.0")" "../../fb0"
check "hotplug add made only fb0" test ! -e "$dev/fb1"

hp "$work/hp" ACTION=remove SUBSYSTEM=graphics DEVPATH=$P0 MAJOR=29 MINOR=0 DEVNAME=fb0
expect_eq "remove of a device still in sysfs: exit 0" "$?" 0
check "remove of a device still in sysfs keeps the node" test -c "$dev/fb0"

P9=/devices/platform/vfb.9/graphics/fb9
mknod "$dev/fb9" c 29 9
ln -s ../../fb9 "$dev/fb/by-path/platform-vfb.9"
hp "$work/hp" ACTION=remove SUBSYSTEM=graphics DEVPATH=$P9 MAJOR=29 MINOR=8 DEVNAME=fb9
check "remove with another number keeps the node" test -c "$dev/fb9"
check "remove with another number keeps the link" test -L "$dev/fb/by-path/platform-vfb.9"
hp "$work/hp" ACTION=remove SUBSYSTEM=graphics DEVPATH=$P9 MAJOR=29 MINOR=9 DEVNAME=fb9
expect_eq "remove exits 0" "$?" 0
check "remove deletes the node" test ! -e "$dev/fb9"
check "remove deletes its link" test ! -L "$dev/fb/by-path/platform-vfb.9"
check "remove keeps other links" test -L "$dev/fb/by-path/pci-0000:00:02.0"

# ---- unload removes the node the node manager's way ----
# The fake vfb.1 gets a driver directory; when unload writes "vfb.1" to
# its unbind file, the watcher takes fb1 out of the fake sysfs, as the
# kernel would.  --force: a process this test does not control (pid 1 of
# a container) may not be inspectable, which refuses the unload.
cat >"$work/unbind.sh" <<'EOF'
drv=$UMOCKDEV_DIR/sys/bus/platform/drivers/vfb
mkdir -p "$drv" && : >"$drv/unbind" && ln -s ../../../../devices/platform/vfb.1 "$drv/vfb.1"
(for _ in $(seq 200); do
	if grep -qx vfb.1 "$drv/unbind"; then
		rm -rf "$UMOCKDEV_DIR/sys/devices/platform/vfb.1/graphics" "$UMOCKDEV_DIR/sys/class/graphics/fb1"
		exit
	fi
	sleep 0.05
done) &
"$@"
rc=$?
wait
exit $rc
EOF
fresh
printf 'name=fb1 link=display/x link=display/y\nname=fb2 link=display/z\n' >"$work/unload.conf"
fbc coldplug --dev "$dev" --config "$work/unload.conf" 2>"$work/err"
expect_eq "unload: coldplug with rule links exits 0" "$?" 0
ln -sfn "$dev/fb1" "$dev/display/y"
ln -s "$dev/fb1" "$dev/fb/by-path/absolute"
ln -s ../fb1 "$dev/display/mine"
ln -s fb1 "$dev/myfb"
"$UMOCKDEV_RUN" -d "$fixture" -- sh "$work/unbind.sh" "$FBCLASSCTL" unload --force --dev "$dev" \
	--config "$work/unload.conf" fb1 >"$work/out" 2>"$work/err"
expect_eq "unload fb1 exits 0" "$?" 0
expect_grep "unload unbinds vfb.1" "fb1: unbinding vfb.1 from driver vfb" "$work/out"
expect_grep "unload says the node went" "removed $dev/fb1" "$work/out"
expect_grep "unload says the rule link went" "removed $dev/display/x" "$work/out"
check "unload removed fb1" test ! -e "$dev/fb1"
check "unload removed fb1's by-path link" test ! -L "$dev/fb/by-path/platform-vfb.1"
check "unload removed the rule link display/x" test ! -L "$dev/display/x"
check "unload kept display/y, a rule link it did not make (absolute)" test -L "$dev/display/y"
check "unload kept an absolute link under fb/by-path" test -L "$dev/fb/by-path/absolute"
check "unload kept a link outside fb/by-* that no rule names" test -L "$dev/display/mine"
check "unload kept a link in the dev dir itself" test -L "$dev/myfb"
check "unload kept fb2's rule link" test -L "$dev/display/z"
check "unload kept fb0 and fb2" test -c "$dev/fb0" -a -c "$dev/fb2"
check "unload kept fb0's link" test -L "$dev/fb/by-path/pci-0000:00:02.0"

# libpng, libsmartcols and json-c are dlopen()ed: the daemon maps none.  Where
# libpng cannot be loaded (a file that is not a library bound over it, in
# this namespace only) snap and bench --snap say so and exit 1 before
# touching a device.
fresh
# umockdev-run itself, not tests/umockdev-run.sh: fbclassctl must be its child
"${UMOCKDEV_RUN_REAL:-$UMOCKDEV_RUN}" -d "$fixture" -- "$FBCLASSCTL" daemon --dev "$dev" >"$work/d.out" 2>"$work/d.err" &
upid=$!
# umockdev-run (which itself maps libz and libm) runs fbclassctl as its
# child: wait, without a fixed deadline that a loaded machine can miss, for
# that child to say it is ready, and look at its maps, never umockdev-run's.
# child_named PPID COMM: the pid of PPID's child named COMM, read from
# /proc (not pgrep: procps is not in a minimal Debian root)
child_named() {
	local stat line rest
	for stat in /proc/[0-9]*/stat; do
		read -r line <"$stat" 2>/dev/null || continue
		# "PID (COMM) STATE PPID ..."
		rest=${line##*) }
		rest=${rest#* }
		[ "${rest%% *}" = "$1" ] && [ "${line#*(}" != "${line#*("$2") }" ] || continue
		echo "${line%% *}"
		return
	done
}
dpid=
for _ in $(seq 600); do
	[ -n "$dpid" ] || dpid=$(child_named "$upid" fbclassctl)
	[ -n "$dpid" ] && grep -q "daemon ready" "$work/d.err" && break
	kill -0 "$upid" 2>/dev/null || break
	sleep 0.1
done
if [ -n "$dpid" ] && grep -q "daemon ready" "$work/d.err"; then
	# libpng brings libz and libm; an ASan build maps libm for libasan.
	if grep -q libasan "/proc/$dpid/maps"; then
		libs='libpng|libz\.|libsmartcols|libjson-c' what="libpng, libz, libsmartcols or json-c (ASan build: libasan maps libm)"
	else
		libs='libpng|libz\.|libm\.|libsmartcols|libjson-c' what="libpng, libz, libm, libsmartcols or json-c"
	fi
	grep -E "$libs" "/proc/$dpid/maps" >"$work/maps" 2>&1
	expect_eq "the daemon maps no $what" "$(wc -l <"$work/maps")" 0
	sed 's/^/#   /' "$work/maps"
	kill "$dpid"
else
	if [ -z "$dpid" ]; then
		not_ok "umockdev-run (pid $upid) never ran fbclassctl as its child"
	else
		not_ok "the daemon (pid $dpid) never said it was ready"
	fi
	sed 's/^/#   /' "$work/d.err"
	kill "$upid" 2>/dev/null
fi
wait "$upid" 2>/dev/null
# libpath SONAME: where the dynamic linker finds it (x86-64), or nothing
libpath() { ldconfig -p | awk -v n="$1" '$1 == n && /x86-64/ { print $NF; exit }'; }
pnglib=$(libpath libpng16.so.16)
if [ -n "$pnglib" ] && mount --bind /dev/null "$(readlink -f "$pnglib")"; then
	"$FBCLASSCTL" snap fb0 "$work/x.png" 2>"$work/png.err"
	expect_eq "no libpng: snap exits 1" "$?" 1
	expect_grep "no libpng: snap names the library" \
		"snap: cannot load libpng16.so.16 (Debian package libpng16-16): " "$work/png.err"
	check "no libpng: no file" test ! -e "$work/x.png"
	mkdir "$work/shots"
	"$FBCLASSCTL" bench --quick --snap "$work/shots" fb0 2>"$work/png.err"
	expect_eq "no libpng: bench --snap exits 1" "$?" 1
	expect_grep "no libpng: bench --snap names the library" \
		"bench --snap: cannot load libpng16.so.16 (Debian package libpng16-16): " "$work/png.err"
	umount "$(readlink -f "$pnglib")"
else
	skip_part "no libpng: snap and bench --snap name the library" "no libpng16.so.16 to hide"
fi
# Without libsmartcols (an initramfs packed by what ldd names), list prints
# the same table and JSON with the built-in printer, and -v says so.
scolslib=$(libpath libsmartcols.so.1)
"$FBCLASSCTL" list -o +KIND,PATH >"$work/list.want" 2>/dev/null
"$FBCLASSCTL" list -J -o +KIND,PATH >"$work/listj.want" 2>/dev/null
if "$FBCLASSCTL" --version | grep -q '^table: dlopen' &&
	[ -n "$scolslib" ] && mount --bind /dev/null "$(readlink -f "$scolslib")"; then
	"$FBCLASSCTL" -v list -o +KIND,PATH >"$work/list.out" 2>"$work/list.err"
	expect_eq "no libsmartcols: list exits 0" "$?" 0
	check "no libsmartcols: the same table" cmp "$work/list.want" "$work/list.out"
	"$FBCLASSCTL" list -J -o +KIND,PATH >"$work/listj.out" 2>/dev/null
	check "no libsmartcols: the same JSON" cmp "$work/listj.want" "$work/listj.out"
	expect_grep "no libsmartcols: -v names the library" \
		"cannot load libsmartcols.so.1 (Debian package libsmartcols1): " "$work/list.err"
	expect_grep "no libsmartcols: -v says the built-in printer prints" \
		"printing the table with the built-in printer" "$work/list.err"
	umount "$(readlink -f "$scolslib")"
else
	skip_part "no libsmartcols: list falls back to the built-in printer" "list does not dlopen libsmartcols.so.1 here"
fi

finish
