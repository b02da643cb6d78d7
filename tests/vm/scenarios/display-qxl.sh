# qxl (-vga qxl): Debian's qemu gives the driver four Virtual connectors,
# only the first connected (no SPICE client sets a monitor configuration);
# list's CONNECTOR, info -J's connectors and /dev/fb/by-connector agree
# with sysfs: only the connected one is a CONNECTOR and has a link; the
# path id is udev's.
# shellcheck shell=sh disable=SC2034,SC2016,SC2154
# Boots on every kernel: DRM and EDID in sysfs differ between the kernels.
KERNELS=all
QEMU_VGA=qxl
KCMDLINE=""
MODULES="qxl"
GUEST_TOOLS="udevadm"

scenario() {
	t_check "modprobe qxl" modprobe qxl
	t_check "fb0 appears" sysfs_wait /sys/class/graphics/fb0 20
	t_check "card0-Virtual-4 appears" sysfs_wait /sys/class/drm/card0-Virtual-4 10
	sleep 1
	for k in /sys/class/drm/card0-*; do
		t_diag "${k##*/}: $(cat "$k/status"), $(cat "$k/enabled"), EDID $(wc -c <"$k/edid") bytes"
	done
	t_is "$(drm_card_of fb0)" card0 "sysfs: card0 shares fb0's parent device"
	t_is "$(find /sys/class/drm/ -maxdepth 1 -name "card0-*" | wc -l)" 4 "sysfs: card0 has 4 connectors"
	t_is "$(drm_connected card0)" card0-Virtual-1 "sysfs: only card0-Virtual-1 is connected"
	fb_mknod fb0
	conn=$(drm_connected card0 | paste -sd, -)
	t_is "$(fbclassctl list -J -o NAME,KIND,CARD,CONNECTOR,STATUS,MONITOR fb0 | jq -c '.framebuffers[0]')" \
		"{\"name\":\"fb0\",\"kind\":\"drm\",\"card\":\"card0\",\"connector\":\"$conn\",\"status\":\"connected\",\"monitor\":null}" \
		"list -J: KIND drm, CARD card0, CONNECTOR only the connected ones ($conn), no EDID so no MONITOR"
	t_is "$(fbclassctl info -J fb0 | jq -r '.framebuffers[0].display.card.connectors[] | "\(.name) \(.status)"')" \
		"$(for k in /sys/class/drm/card0-*; do echo "${k##*/} $(cat "$k/status")"; done)" \
		"info -J: every connector with its sysfs status"
	t_check "coldplug" fbclassctl coldplug
	t_is "$(links_in /dev/fb/by-connector)" "$(drm_connected card0 | sed 's|$| -> ../../fb0|')" \
		"coldplug: by-connector links for the connected connectors only"
	t_path_id_udev fb0 qxl
	t_kernel_clean "no oops, BUG or WARNING (but known kernel hazards)"
}
