# holders finds who holds a framebuffer (fd or mmap only), unload refuses
# while anything does and then removes vfb (module) and bochs (PCI unbind)
# cleanly, node and links included, without an oops (cycles.sh repeats it).
# shellcheck shell=sh disable=SC2034
QEMU_VGA=std
KCMDLINE=""
MODULES="bochs vfb"
GUEST_HELPERS="fbtool"

scenario() {
	t_check "modprobe bochs" modprobe bochs
	t_check "fb0 (bochs) appears" sysfs_wait /sys/class/graphics/fb0 10
	fb_mknod fb0
	fb_by_path fb0 pci-0000:00:02.0
	t_check "vfb loads as fb1" vfb_up_linked

	# --- an fd holder ---
	sleep 600 3</dev/fb1 &
	holder=$!
	out=$(fbclassctl holders fb1 2>&1)
	t_diag "holders fb1: $out"
	case $out in *"pid $holder "*"fd 3"*) t_ok "holders fb1 names pid $holder with fd 3" ;;
	*) t_not_ok "holders fb1 names pid $holder with fd 3" ;; esac
	t_is "$(fbclassctl holders -J fb1 | jq -c '.framebuffers[0].processes | map([.pid, .fds])')" \
		"[[$holder,[3]]]" "holders -J fb1: pid and fds"
	t_is "$(fbclassctl holders -J fb0 | jq -r '.framebuffers[0].processes | length')" 0 \
		"holders -J fb0: no process holds fb0"
	out=$(fbclassctl unload fb1 2>&1)
	rc=$?
	t_is "$rc" 1 "unload fb1 refuses while pid $holder holds it"
	case $out in *"pid $holder"*) t_ok "the refusal names pid $holder" ;;
	*) t_not_ok "the refusal names pid $holder"; t_diag "$out" ;; esac
	t_check "vfb is still loaded after the refusal" module_loaded vfb
	t_check "fb1 is still in sysfs" test -e /sys/class/graphics/fb1
	kill "$holder"
	wait "$holder" 2>/dev/null
	out=$(fbclassctl unload fb1 2>&1)
	rc=$?
	t_diag "unload fb1: $out"
	t_is "$rc" 0 "unload fb1 succeeds once the holder exited"
	t_check "vfb module is gone" sh -c '! grep -q "^vfb " /proc/modules'
	t_check "/sys/class/graphics/fb1 is gone" sh -c '! test -e /sys/class/graphics/fb1'
	t_check "/dev/fb1 is gone" sh -c '! test -e /dev/fb1'
	t_check "its by-path link is gone" sh -c '! test -L /dev/fb/by-path/platform-vfb.0'
	t_check "fb0's node and link stay" test -c /dev/fb0 -a -L /dev/fb/by-path/pci-0000:00:02.0

	# --- a holder through mmap only ---
	t_check "vfb loads again" vfb_up_linked
	rm -f /tmp/ready
	fbtool mmap /dev/fb1 /tmp/ready &
	mapper=$!
	sysfs_wait /tmp/ready 10
	smem=$(cat /tmp/ready)
	t_diag "maps of $mapper: $(grep fb1 /proc/$mapper/maps)"
	t_is "$(ls -l /proc/$mapper/fd | grep -c fb1)" 0 "the mapper closed its fd"
	t_is "$(fbclassctl holders -J fb1 | jq -c '.framebuffers[0].processes | map([.pid, .fds, .mmap_bytes])')" \
		"[[$mapper,[],$smem]]" "holders finds the mmap-only holder and its $smem bytes"
	out=$(fbclassctl holders fb1 2>&1)
	case $out in *"mmap $smem bytes"*) t_ok "holders fb1 says mmap $smem bytes" ;;
	*) t_not_ok "holders fb1 says mmap $smem bytes"; t_diag "$out" ;; esac
	fbclassctl unload fb1 >/dev/null 2>&1
	t_is "$?" 1 "unload refuses while only a mapping holds fb1"
	kill "$mapper"
	wait "$mapper" 2>/dev/null

	# --- through another node of the same device (not the one under /dev):
	# the fd by st_rdev, the mapping through /proc/PID/map_files ---
	mknod /tmp/otherfb c 29 1
	rm -f /tmp/ready
	fbtool mmap /tmp/otherfb /tmp/ready &
	mapper=$!
	sleep 600 4</tmp/otherfb &
	holder=$!
	sysfs_wait /tmp/ready 10
	t_is "$(fbclassctl holders -J fb1 | jq -c '.framebuffers[0].processes | map([.pid, .fds, .mappings])')" \
		"[[$mapper,[],1],[$holder,[4],0]]" "holders finds holders through another node of fb1"
	kill "$mapper" "$holder"
	wait "$mapper" "$holder" 2>/dev/null
	rm -f /tmp/otherfb
	t_check "unload fb1 after they exited" fbclassctl unload fb1

	# --- bochs: fbcon on it, a PCI driver ---
	out=$(fbclassctl holders fb0 2>&1)
	t_diag "holders fb0: $out"
	case $out in *fbcon*) t_ok "holders fb0 shows fbcon" ;;
	*) t_not_ok "holders fb0 shows fbcon" ;; esac
	t_diag "bochs refcnt: $(cat /sys/module/bochs/refcnt 2>&1)"
	out=$(fbclassctl unload fb0 2>&1)
	rc=$?
	t_diag "unload fb0: $out"
	t_is "$rc" 0 "unload fb0 (bochs) succeeds"
	case $out in *"unbinding fbcon"*) t_ok "unload says it unbinds fbcon first" ;;
	*) t_not_ok "unload says it unbinds fbcon first" ;; esac
	case $out in *"unbinding 0000:00:02.0 from driver bochs-drm"*) t_ok "bochs: the PCI device is unbound" ;;
	*) t_not_ok "bochs: the PCI device is unbound" ;; esac
	t_check "fb0 is gone from sysfs" sh -c '! test -e /sys/class/graphics/fb0'
	t_check "/dev/fb0 and its link are gone" sh -c '! test -e /dev/fb0 && ! test -L /dev/fb/by-path/pci-0000:00:02.0'
	t_kernel_clean "no oops, BUG or WARNING in dmesg (but known kernel hazards)"
}
