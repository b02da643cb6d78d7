# fbclassctl as the project's initramfs-tools hook packs it (Debian's
# copy_exec: the binary and what ldd names, plus what the hook adds for
# the libraries fbclassctl dlopen()s): list, list -J, info, coldplug
# --load-modules and snap work there, with no library the hook did not
# pack.  mkinitramfs.sh runs the hook into the empty root first and lists
# what it put there in /vm/hook-manifest.
# shellcheck shell=sh disable=SC2034
QEMU_VGA=std
KCMDLINE=""
MODULES="bochs"
GUEST_PACK=initramfs-tools

# in_manifest SONAME: the hook packed a file of that name (or a link to it)
in_manifest() { grep -q "/$1\$" /vm/hook-manifest; }

scenario() {
	# copy_exec's /bin/fbclassctl is /usr/bin/fbclassctl on a merged-/usr host
	t_check "the hook packed fbclassctl" in_manifest bin/fbclassctl
	t_check "fbclassctl in PATH is the one the hook packed" \
		grep -qx ".$(command -v fbclassctl)" /vm/hook-manifest
	t_is "$(fbclassctl --version | sed -n 's/^link: //p')" dynamic "the packed build is the dynamic one"
	# every library the binary says it dlopen()s, by the soname it names
	_sonames=$(fbclassctl --version | grep -o 'lib[a-z0-9_+-]*\.so\.[0-9]*' | sort -u)
	t_check "--version names the dlopen()ed libraries" test -n "$_sonames"
	for _so in $_sonames; do
		t_check "the hook packed $_so" in_manifest "$_so"
	done
	t_diag "hook-manifest: $(grep -c . /vm/hook-manifest) files"

	t_check "coldplug --load-modules loads bochs through the packed libkmod" \
		fbclassctl coldplug --load-modules
	t_check "fb0 appears" sysfs_wait /sys/devices/pci0000:00/0000:00:02.0/graphics/fb0 10
	t_check "coldplug made /dev/fb0" test -c /dev/fb0
	t_is "$(stat -c '%U:%G %a' /dev/fb0)" "root:video 660" \
		"/dev/fb0 is root:video 0660 (the hook packed the video group)"

	fbclassctl list >/tmp/list.out 2>/tmp/list.err
	t_is "$?" 0 "list exits 0"
	t_check "list prints fb0's row" grep -q '^fb0 ' /tmp/list.out
	t_is "$(cat /tmp/list.err)" "" "list says nothing on stderr (libsmartcols loaded)"
	fbclassctl -v list >/dev/null 2>/tmp/list-v.err
	t_check "list -v does not fall back to the built-in printer" \
		sh -c '! grep -q "built-in" /tmp/list-v.err'
	t_is "$(fbclassctl list -J | jq -r '.framebuffers[0].name')" fb0 "list -J names fb0"
	fbclassctl info fb0 >/tmp/info.out 2>&1
	t_is "$?" 0 "info fb0 exits 0"
	t_check "snap fb0 writes a PNG (libpng and libz packed)" fbclassctl snap fb0 /tmp/fb0.png
	t_is "$(od -An -tx1 -N8 /tmp/fb0.png | tr -d ' ')" 89504e470d0a1a0a "the PNG starts with its signature"
}
