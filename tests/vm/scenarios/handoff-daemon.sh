# vesafb at boot (vga=0x317, no DRM driver): KIND firmware, no card, the
# path id as udev's; then the handoff to bochs while the daemon runs and a
# process holds vesafb's /dev/fb0 open and mapped: the daemon logs one
# line naming both drivers and the card, and one naming the holder's pid
# and command, and moves the links; the kernel's "boot fb still active?"
# is what the table's handoff-held says, and nothing worse.
# shellcheck shell=sh disable=SC2034,SC2016,SC2154
# Boots on every kernel: the handoff differs between the kernels (sysfb, the fbdev emulation).
KERNELS=all
QEMU_VGA=std
KCMDLINE="vga=0x317"
MODULES="bochs"
GUEST_HELPERS="fbtool"
GUEST_TOOLS="udevadm"

scenario() {
	t_is "$(cat /sys/class/graphics/fb0/name)" "VESA VGA" "vesafb owns fb0 at boot"
	t_check "no DRM driver: no card in /sys/class/drm" test -z "$(drm_card_of fb0)"
	t_is "$(fbclassctl list -J -o NAME,KIND,CARD,CONNECTOR,STATUS,MONITOR fb0 | jq -c '.framebuffers[0]')" \
		'{"name":"fb0","kind":"firmware","card":null,"connector":null,"status":null,"monitor":null}' \
		"list -J: vesafb is KIND firmware, with no card"
	t_is "$(fbclassctl info -J fb0 | jq -c '.framebuffers[0].display')" '{"kind":"firmware","video":[],"card":null}' \
		"info -J: display kind firmware, no card, no video= arguments"
	t_path_id_udev fb0 vesafb
	was=$(basename "$(readlink -f /sys/class/graphics/fb0/device/driver)")
	t_is "$was" vesa-framebuffer "sysfs: fb0's driver is vesa-framebuffer"

	daemon_start "daemon ready" /tmp/daemon.log
	t_check "the daemon made /dev/fb0" test -c /dev/fb0
	rm -f /tmp/held
	fbtool hold /dev/fb0 /tmp/held &
	holder=$!
	t_check "pid $holder holds vesafb's fb0 open and mapped" wait_for 100 test -s /tmp/held
	comm=$(cat "/proc/$holder/comm")
	since=$(dmesg_lines)
	t_check "modprobe bochs" modprobe bochs
	t_check "fb0 is bochs's now" wait_for 100 grep -qx bochs-drmdrmfb /sys/class/graphics/fb0/name
	now=$(basename "$(readlink -f /sys/class/graphics/fb0/device/driver)")
	card=$(drm_card_of fb0)
	t_is "$now $card" "bochs-drm card0" "sysfs: fb0's driver is bochs-drm, on card0"
	line="fbclassctl: fb0: handoff: $was gave way to $now on $card; its node and links now lead there"
	t_check "the daemon logs the handoff" wait_for 50 grep -qxF "$line" /tmp/daemon.log
	t_check "the by-connector link made" \
		wait_for 50 sh -c '[ "$(readlink /dev/fb/by-connector/card0-Virtual-1)" = ../../fb0 ]'
	t_is "$(grep -c 'handoff:' /tmp/daemon.log)" 1 "one handoff line in the log"
	t_is "$(grep -c "pid $holder ($comm)" /tmp/daemon.log)" 1 \
		"one line names the holder, pid $holder ($comm)"
	t_diag_stdin </tmp/daemon.log
	t_is "$(links_in /dev/fb/by-path)" "pci-0000:00:02.0 -> ../../fb0" "by-path: vesafb's link moved to bochs's"
	t_is "$(links_in /dev/fb/by-name)" "bochs-drmdrmfb -> ../../fb0" "by-name: VESA_VGA's link replaced"
	daemon_stop "daemon: SIGTERM exit 0"

	# the kernel's side, from src/kernel-hazards.tab (handoff-held)
	re=$(hazard_regex handoff-held)
	t_check "the table has handoff-held for $VM_KUPSTREAM" test -n "$re"
	t_check "the kernel logged the conflict: /$re/" sh -c \
		"dmesg | tail -n +$((since + 1)) | grep -qE '$re'"
	kill "$holder"
	wait "$holder" 2>/dev/null
	sleep 1
	t_kernel_clean "no oops, BUG or WARNING after the handoff and the holder's exit (but known kernel hazards)"
}
