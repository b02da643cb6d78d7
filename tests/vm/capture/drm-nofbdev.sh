# Capture: bochs with drm_kms_helper.fbdev_emulation=0: card0 and its
# connector, and no framebuffer (the class holds only fbcon).
# File: drm-nofbdev.umockdev.
# shellcheck shell=sh disable=SC2034,SC2016
QEMU_VGA=std
KCMDLINE="drm_kms_helper.fbdev_emulation=0"
MODULES="bochs"

scenario() {
	# record the DRM side too
	export CAPTURE_DRM=1
	t_check "modprobe bochs" modprobe bochs
	t_check "card0-Virtual-1 appears" sysfs_wait /sys/class/drm/card0-Virtual-1 10
	sleep 1
	for p in /sys/module/*/parameters/fbdev_emulation; do
		[ -e "$p" ] && t_diag "$p: $(cat "$p")"
	done
	t_is "$(fb_count)" 0 "no framebuffer"
	/vm/capture-sysfs.sh >/tmp/drm-nofbdev.umockdev
	t_check "the capture has card0" grep -q '^P: /devices/.*/drm/card0$' /tmp/drm-nofbdev.umockdev
	t_check "... and no fb" sh -c '! grep -q "^P: .*/graphics/fb[0-9]" /tmp/drm-nofbdev.umockdev'
	out_file /tmp/drm-nofbdev.umockdev drm-nofbdev.umockdev
}
