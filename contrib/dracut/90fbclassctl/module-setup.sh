#!/bin/bash
# dracut module: fbclassctl coldplug --load-modules early in the boot.
# make install puts the directory in PREFIX/lib/dracut/modules.d/; dracut
# reads /usr/lib/dracut/modules.d (configure --prefix=/usr, or
# --with-dracutmoduledir).
# shellcheck disable=SC2154 # initdir and moddir are set by dracut

check() {
	require_binaries fbclassctl || return 1
	# Only when asked for (dracut --add fbclassctl, or add_dracutmodules+=).
	return 255
}

depends() {
	return 0
}

installkernel() {
	# coldplug only loads modules under drivers/gpu/drm/ and drivers/video/.
	instmods '=drivers/gpu/drm/tiny' '=drivers/video/fbdev'
}

install() {
	local bin dl feature soname without
	inst_multiple fbclassctl
	# The libraries it dlopen()s on first use, which ldd does not name.
	# --version names each ("png: dlopen libpng16.so.16"); inst_libdir_file
	# finds it in dracut's libdirs and adds what it needs in turn (libpng:
	# libz).  One that is missing costs the feature that needs it, not the
	# boot.
	bin=$(find_binary fbclassctl)
	for dl in $("$bin" --version | sed -n 's/^\([a-z]*\): dlopen \(lib[^ ,]*\.so\.[0-9]*\).*/\1:\2/p'); do
		feature=${dl%%:*} soname=${dl#*:}
		inst_libdir_file "$soname" && continue
		case $feature in
		kmod) without="coldplug --load-modules will load no driver" ;;
		table) without="list will print with its built-in printer" ;;
		png) without="snap will fail" ;;
		pixman) without="bench will have no pixman strategy" ;;
		zlib) without="doctor will not read /proc/config.gz" ;;
		drm) without="what KMS shows will be \"cannot tell\"" ;;
		json) without="-J will fail (coldplug needs no json-c)" ;;
		*) without="what needs it will fail" ;;
		esac
		dwarn "fbclassctl: $soname not found; $without"
	done
	[[ -f /etc/fbclassctl.conf ]] && inst_simple /etc/fbclassctl.conf
	# root:video 0660 needs the video group inside the initramfs.
	grep -qE '^video:' "$initdir/etc/group" 2>/dev/null ||
		grep -E '^video:' /etc/group >>"$initdir/etc/group"
	inst_hook pre-trigger 50 "$moddir/fbclassctl-coldplug.sh"
}
