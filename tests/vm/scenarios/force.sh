# vfb as fb0 with fbcon on it: unload unbinds fbcon first; --force with a
# holder warns, unbinds vfb.0 instead of removing the module (whose code
# the holder's close still runs), and the later close does not oops.
# shellcheck shell=sh disable=SC2034
QEMU_VGA=none
KCMDLINE=""
MODULES="vfb"

scenario() {
	t_check "modprobe vfb" modprobe vfb vfb_enable=1
	t_check "fb0 appears" sysfs_wait /sys/class/graphics/fb0 10
	fb_mknod fb0
	out=$(fbclassctl holders -J fb0)
	t_is "$(echo "$out" | jq -r '.framebuffers[0].kernel[0].user')" fbcon \
		"holders -J fb0: fbcon is a kernel user"
	t_is "$(echo "$out" | jq -r '.framebuffers[0].kernel[0].first_console')" 1 \
		"holders -J fb0: from console 1"
	sleep 600 3</dev/fb0 &
	p=$!
	out=$(fbclassctl unload --force fb0 2>&1)
	rc=$?
	t_diag "unload --force fb0: $out"
	t_is "$rc" 0 "unload --force fb0 with a holder succeeds"
	case $out in *"*** --force"*) t_ok "it warns loudly" ;; *) t_not_ok "it warns loudly" ;; esac
	case $out in *"held by pid $p"*) t_ok "it names the holder" ;; *) t_not_ok "it names the holder" ;; esac
	case $out in *"unbinding fbcon (vtcon"*) t_ok "it unbinds fbcon first" ;;
	*) t_not_ok "it unbinds fbcon first" ;; esac
	case $out in *"unbinding vfb.0 from driver vfb"*) t_ok "it unbinds vfb.0, not rmmod" ;;
	*) t_not_ok "it unbinds vfb.0, not rmmod" ;; esac
	t_check "the vfb module stays loaded" grep -q "^vfb " /proc/modules
	t_check "fb0 is gone from sysfs" sh -c '! test -e /sys/class/graphics/fb0'
	t_check "/dev/fb0 is gone" sh -c '! test -e /dev/fb0'
	kill "$p"
	wait "$p" 2>/dev/null
	t_kernel_clean "the holder's late close: no oops, no warning (but known kernel hazards)"
	t_check "rmmod vfb once nobody holds it" rmmod vfb
}
