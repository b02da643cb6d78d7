#!/bin/bash
# dracut module: fbclassctl coldplug --load-modules early in the boot.
# Install the directory as /usr/lib/dracut/modules.d/90fbclassctl/.
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
	inst_multiple fbclassctl
	# libkmod is dlopen()ed for --load-modules, so ldd does not name it.
	inst_libdir_file "libkmod.so.2*"
	[[ -f /etc/fbclassctl.conf ]] && inst_simple /etc/fbclassctl.conf
	# root:video 0660 needs the video group inside the initramfs.
	grep -qE '^video:' "$initdir/etc/group" 2>/dev/null ||
		grep -E '^video:' /etc/group >>"$initdir/etc/group"
	inst_hook pre-trigger 50 "$moddir/fbclassctl-coldplug.sh"
}
