#!/bin/bash
# make install DESTDIR=...: every file in its place with its mode, the
# systemd unit starting the installed binary, the example rules parsed by
# the installed binary; make uninstall leaves no file behind.  The
# directories are the build's own (configure's --with-* options), as
# `make install-dirs` prints them.
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

[ -f "$top_builddir/Makefile" ] || skip "no Makefile in $top_builddir (configure first)"
[ -x "$FBCLASSCTL" ] || skip "$FBCLASSCTL is not built"
work=$(mktemp -d /tmp/fbclassctl-install.XXXXXX)
trap 'rm -rf "$work"' EXIT
dest=$work/root

mk() { make -s --no-print-directory -C "$top_builddir" "$@"; }

# bindir=..., mandir=..., one a line; "no" where configure was told so
mk install-dirs >"$work/dirs" || { not_ok "make install-dirs"; finish; exit 1; }
while IFS='=' read -r k v; do
	case $k in
	bindir | mandir | docdir | systemdsystemunitdir | systemdservicetype | bashcompletiondir | zshcompletiondir | \
		initramfstoolsdir | dracutmodulesdir) printf -v "$k" '%s' "$v" ;;
	esac
done <"$work/dirs"
sed 's/^/#   /' "$work/dirs"

if mk install DESTDIR="$dest" >"$work/install.log" 2>&1; then
	ok "make install DESTDIR=$dest"
else
	not_ok "make install DESTDIR=$dest"
	sed 's/^/#   /' "$work/install.log"
	finish
	exit 1
fi

# installed MODE PATH: a regular file of that mode under DESTDIR
installed() {
	local got
	got=$(stat -c %a "$dest$2" 2>/dev/null) || { not_ok "installed: $2 is missing"; return; }
	expect_eq "installed: $2 mode $1" "$got" "$1"
}
installed 755 "$bindir/fbclassctl"
installed 644 "$mandir/man8/fbclassctl.8"
installed 644 "$mandir/man5/fbclassctl.conf.5"
installed 644 "$docdir/README.md"
installed 644 "$docdir/fbclassctl.conf.example"
installed 644 "$docdir/examples/busybox-init.example"
installed 755 "$docdir/examples/s6/fbclassctl/run"
installed 644 "$docdir/examples/s6/fbclassctl/notification-fd"
installed 644 "$docdir/examples/s6/fbclassctl/type"
installed 755 "$docdir/examples/runit/fbclassctl/run"
installed 644 "$docdir/examples/systemd/fbclassctl-metrics.service"
installed 644 "$docdir/examples/systemd/fbclassctl-metrics.timer"
if [ "$initramfstoolsdir" != no ]; then
	installed 755 "$initramfstoolsdir/hooks/fbclassctl"
	installed 755 "$initramfstoolsdir/scripts/init-top/fbclassctl"
fi
if [ "$dracutmodulesdir" != no ]; then
	installed 755 "$dracutmodulesdir/90fbclassctl/module-setup.sh"
	installed 755 "$dracutmodulesdir/90fbclassctl/fbclassctl-coldplug.sh"
fi
[ "$bashcompletiondir" = no ] || installed 644 "$bashcompletiondir/fbclassctl"
[ "$zshcompletiondir" = no ] || installed 644 "$zshcompletiondir/_fbclassctl"

if [ "$systemdsystemunitdir" != no ]; then
	unit=$dest$systemdsystemunitdir/fbclassctl.service
	installed 644 "$systemdsystemunitdir/fbclassctl.service"
	expect_eq "the unit's ExecStart is the installed binary" \
		"$(sed -n 's/^ExecStart=//p' "$unit" 2>/dev/null)" "$bindir/fbclassctl daemon --load-modules"
	check "the unit has no @VARIABLE@ left" sh -c '! grep -n "@[A-Za-z_]*@" "$1"' _ "$unit"
	# reload without /bin/kill (a minimal Debian has no procps): systemd
	# 253+ natively, 252 through the daemon's own --reload, which waits
	types=$(sed -n 's/^Type=//p' "$unit")
	reloads=$(sed -n 's/^ExecReload=//p' "$unit")
	expect_eq "the unit's Type= is configure's ($systemdservicetype)" "$types" "$systemdservicetype"
	case $systemdservicetype in
	notify) expect_eq "Type=notify: ExecReload= is the daemon's own --reload" \
		"$reloads" "$bindir/fbclassctl daemon --reload \$MAINPID" ;;
	notify-reload) expect_eq "Type=notify-reload: no ExecReload=" "$reloads" "" ;;
	*) not_ok "make install-dirs: unknown systemdservicetype '$systemdservicetype'" ;;
	esac
	check "the unit runs no kill" sh -c '! grep -n "^Exec.*kill" "$1"' _ "$unit"
else
	expect_eq "no unit installed (--with-systemdsystemunitdir=no)" "$(find "$dest" -name fbclassctl.service)" ""
fi

# the installed binary runs and takes the example rules, as they are
# (all commented out) and with each rule in force (owner weston is a user
# this machine need not have: root instead)
bin=$dest$bindir/fbclassctl
expect_eq "the installed binary runs" "$("$bin" --version | head -n 1)" "$("$FBCLASSCTL" --version | head -n 1)"
check "the example rules parse" "$bin" coldplug --check-config --config "$dest$docdir/fbclassctl.conf.example"
sed -e 's/^#\([a-z]\)/\1/' -e 's/owner=weston/owner=root/' "$dest$docdir/fbclassctl.conf.example" >"$work/rules.conf"
check "the example rules have 5 rules" grep -qx "$work/rules.conf: 5 rules, no errors" \
	<(cd "$work" && "$bin" coldplug --check-config --config "$work/rules.conf" 2>&1)

# The installed initramfs-tools hook, run as mkinitramfs runs it (Debian's
# hook-functions, an empty root): it packs every library that the installed
# binary's --version says is dlopen()ed, which copy_exec alone would not.
hookfns=/usr/share/initramfs-tools/hook-functions
if [ "$initramfstoolsdir" = no ]; then
	:
elif [ ! -r "$hookfns" ]; then
	skip_part "the initramfs-tools hook packs the dlopen()ed libraries" "no $hookfns (Debian package initramfs-tools-core)"
else
	initrd=$work/initrd
	mkdir -p "$initrd"
	failed=$n_fail
	PATH=$dest$bindir:$PATH DESTDIR=$initrd verbose=y version=none MODULESDIR=$work/no-modules \
		sh "$dest$initramfstoolsdir/hooks/fbclassctl" >"$work/hook.log" 2>&1
	check "the initramfs-tools hook exits 0" test $? -eq 0
	check "the hook packed fbclassctl" test -x "$initrd/bin/fbclassctl" -o -x "$initrd/usr/bin/fbclassctl"
	expect_eq "the hook warns of no missing library" "$(grep '^W:' "$work/hook.log")" ""
	sonames=$("$bin" --version | sed -n 's/^[a-z]*: dlopen \(lib[^ ,]*\.so\.[0-9]*\).*/\1/p')
	if [ "$("$bin" --version | sed -n 's/^link: //p')" = dynamic ]; then
		check "--version names the dlopen()ed libraries" test "$(echo "$sonames" | wc -w)" -ge 5
	fi
	for so in $sonames; do
		check "the hook packed $so" test -n "$(find "$initrd" -name "$so")"
	done
	[ "$n_fail" -eq "$failed" ] || sed 's/^/#   /' "$work/hook.log"
fi

if mk uninstall DESTDIR="$dest" >"$work/uninstall.log" 2>&1; then
	ok "make uninstall DESTDIR=$dest"
else
	not_ok "make uninstall DESTDIR=$dest"
	sed 's/^/#   /' "$work/uninstall.log"
fi
expect_eq "make uninstall leaves no file" "$(cd "$dest" && find . ! -type d | sort | tr '\n' ' ')" ""
finish
