# bochs-drm with qemu's EDID (-device VGA,edid=on,xres=1280,yres=800): the
# display join of list, info and info -J against /sys/class/drm as the
# shell reads it and against edid-decode (host); /dev/fb/by-connector and
# a monitor= rule follow the connector's forced status through the daemon;
# the uevents each kernel sends; vfb has no card; path ids are udev's; and
# monitor -J and info -J validate against the JSON schema (host).
# shellcheck shell=sh disable=SC2034,SC2016,SC2154
# Boots on every kernel: DRM and EDID in sysfs differ between the kernels.
KERNELS=all
QEMU_VGA=none
QEMU_ARGS="-device VGA,edid=on,xres=1280,yres=800"
KCMDLINE=""
MODULES="bochs vfb"
GUEST_TOOLS="udevadm"

c=/sys/class/drm/card0-Virtual-1

# list_json FB: `list -J` of the display columns, one compact object
list_json() {
	fbclassctl list -J -o NAME,KIND,CARD,CONNECTOR,STATUS,MONITOR "$1" |
		jq -c '.framebuffers[0]'
}

# want_json NAME KIND CARD: the object list -J must print, from sysfs: the
# connected connectors of CARD, "connected" when there is one, and the
# monitor name the shell reads out of their EDID
want_json() {
	_conn=$(drm_connected "$3" | paste -sd, -)
	_status=null
	[ -n "$3" ] && _status='"disconnected"'
	[ -n "$_conn" ] && _status='"connected"'
	_mon=
	for _k in $(drm_connected "$3"); do
		_mon=$(edid_name "/sys/class/drm/$_k/edid")
		[ -n "$_mon" ] && break
	done
	jq -cn --arg n "$1" --arg k "$2" --arg c "$3" --arg co "$_conn" --arg m "$_mon" \
		--argjson s "$_status" \
		'def opt: if . == "" then null else . end;
		{name: $n, kind: $k, card: ($c | opt), connector: ($co | opt), status: $s,
		 monitor: ($m | opt)}'
}

scenario() {
	# every uevent, and fbclassctl monitor -J, from before the driver loads
	uevents_start /tmp/uevents
	fbclassctl monitor -J >/tmp/monitor.json 2>/tmp/monitor.err </dev/null &
	monpid=$!
	sleep 1
	t_check "modprobe bochs" modprobe bochs
	t_check "fb0 appears" sysfs_wait /sys/class/graphics/fb0 10
	t_check "card0-Virtual-1 appears" sysfs_wait "$c" 10
	fb_mknod fb0

	# --- the join, against sysfs as the shell reads it ---
	t_is "$(drm_card_of fb0)" card0 "sysfs: card0 shares fb0's parent device"
	t_is "$(cat "$c/status")" connected "sysfs: card0-Virtual-1 is connected"
	t_is "$(edid_name "$c/edid")" "QEMU Monitor" "sysfs: its EDID names the QEMU Monitor"
	t_is "$(list_json fb0)" "$(want_json fb0 drm card0)" \
		"list -J: KIND, CARD, CONNECTOR, STATUS, MONITOR as sysfs has them"
	fbclassctl info fb0 >/tmp/info.txt 2>&1
	t_check "info: a display section" grep -qE '^  display:$' /tmp/info.txt
	t_check "info: kind drm, card card0" sh -c \
		"grep -qE '^ +kind +drm\$' /tmp/info.txt && grep -qE '^ +card +card0\$' /tmp/info.txt"
	t_check "info: connector card0-Virtual-1, connected" sh -c \
		"grep -qE '^ +connector +card0-Virtual-1\$' /tmp/info.txt && grep -qE '^ +status +connected\$' /tmp/info.txt"
	t_check "info: monitor QEMU Monitor" grep -qE '^ +monitor +QEMU Monitor$' /tmp/info.txt
	fbclassctl info -J fb0 >/tmp/info.json 2>/tmp/info.err
	t_is "$(jq -r '.framebuffers[0].display.card | "\(.name) \(."maj:min") \(.driver) \(.syspath)"' /tmp/info.json)" \
		"card0 $(cat /sys/class/drm/card0/dev) $(basename "$(readlink -f /sys/class/drm/card0/device/driver)") $(readlink -f /sys/class/drm/card0)" \
		"info -J: the card's name, maj:min, driver and syspath as sysfs has them"
	t_is "$(jq -r '.framebuffers[0].display.card.connectors[] | select(.name == "card0-Virtual-1") |
		"\(.status) \(.enabled) \(.dpms) \(.modes | length) \(.edid.bytes)"' /tmp/info.json)" \
		"$(cat "$c/status") $(cat "$c/enabled") $(cat "$c/dpms") $(wc -l <"$c/modes") $(wc -c <"$c/edid")" \
		"info -J: the connector's status, enabled, dpms, modes and EDID size as sysfs has them"
	cp "$c/edid" /tmp/edid.bin
	out_file /tmp/edid.bin edid.bin
	out_file /tmp/info.json info.json
	t_path_id_udev fb0 bochs-drm

	# --- links by connector, and a rule on the monitor's name ---
	echo 'monitor="QEMU Monitor" link=display/main' >/tmp/rules.conf
	t_check "coldplug --config (a monitor= rule)" fbclassctl coldplug --config /tmp/rules.conf
	t_is "$(links_in /dev/fb/by-connector)" "$(drm_connected card0 | sed 's|$| -> ../../fb0|')" \
		"coldplug: a by-connector link for each connected connector"
	t_is "$(readlink /dev/display/main)" ../fb0 'coldplug: monitor="QEMU Monitor" makes display/main'

	# The daemon follows the connector.  The uevents, the same on 6.1.192
	# and 6.12.118 (busybox's listener and monitor -J agree): modprobe
	# bochs sends add card0, add card0-Virtual-1, then one change of card0
	# with HOTPLUG=1 ("hotplug": true); writing off or detect to the
	# status file sends nothing; a change written to card0's uevent file
	# sends a change of card0, SUBSYSTEM=drm, without HOTPLUG ("hotplug":
	# false).  Forcing the status off also drops the connector's EDID, and
	# bochs does not read it again on detect (the edid file stays empty on
	# both kernels): the monitor= link stays away then.
	fbclassctl monitor -J -s drm >/tmp/monitor-drm.json 2>/tmp/monitor-drm.err </dev/null &
	mondrm=$!
	daemon_start "daemon --config ready" /tmp/daemon.log --config /tmp/rules.conf
	t_is "$(readlink /dev/fb/by-connector/card0-Virtual-1)" ../../fb0 "daemon start: by-connector link"
	seen=
	for s in off detect; do
		uevent_mark /tmp/uevents "$s"
		echo "$s" >"$c/status"
		sleep 1
		uevent_mark /tmp/uevents "change after $s"
		now=$(cat "$c/status")
		seen="$seen $now"
		case $s in off) want=disconnected ;; *) want=connected ;; esac
		t_is "$now" "$want" "sysfs: $s makes card0-Virtual-1 $want"
		t_is "$(uevents_between /tmp/uevents "$s" "change after $s" | wc -l)" \
			"$(per_kernel 6.1=0 6.12=0)" "writing $s to the status sends no uevent"
		echo change >/sys/class/drm/card0/uevent
		if [ "$now" = connected ]; then
			t_check "$s + change: the by-connector link is back" \
				wait_for 50 sh -c '[ "$(readlink /dev/fb/by-connector/card0-Virtual-1)" = ../../fb0 ]'
		else
			t_check "$s + change: the by-connector link goes" \
				wait_for 50 sh -c '[ ! -L /dev/fb/by-connector/card0-Virtual-1 ]'
		fi
		sleep 1
		if [ "$(edid_name "$c/edid")" = "QEMU Monitor" ]; then
			t_is "$(readlink /dev/display/main)" ../fb0 "$s + change: EDID names the QEMU Monitor, display/main is there"
		else
			t_check "$s + change: no EDID names the QEMU Monitor ($(wc -c <"$c/edid") bytes), display/main is gone" \
				test ! -L /dev/display/main
		fi
		t_is "$(links_in /dev/fb/by-connector)" "$(drm_connected card0 | sed 's|$| -> ../../fb0|')" \
			"$s + change: the by-connector links are the connected connectors"
	done
	uevent_mark /tmp/uevents end
	t_check "the daemon logged card0's change events" grep -q 'card0: change event' /tmp/daemon.log
	daemon_stop "daemon: SIGTERM exit 0"
	kill -INT "$mondrm"
	wait "$mondrm"
	t_is "$?" 0 "monitor -J -s drm: SIGINT exits 0"
	# one line for each change written: the status sysfs had then, no HOTPLUG
	t_is "$(jq -c 'select(.name == "card0" and .action == "change") | [.subsystem, .hotplug, .status, .connected]' \
		/tmp/monitor-drm.json)" \
		"$(for s in $seen; do
			if [ "$s" = connected ]; then echo '["drm",false,"connected",["card0-Virtual-1"]]'
			else echo '["drm",false,"disconnected",[]]'; fi
		done)" "monitor -J -s drm: each change of card0, hotplug false, its status then"
	t_is "$(jq -r .subsystem /tmp/monitor-drm.json | sort -u)" drm "monitor -s drm: drm events only"
	t_diag "uevents the kernel sent: $(grep -v '^--- ' /tmp/uevents | grep ' drm ' | sort | uniq -c | tr -s ' ' | paste -sd';' -)"

	# --- vfb: a framebuffer with no card ---
	t_check "vfb loads as fb1" vfb_up fb1
	t_is "$(list_json fb1)" "$(want_json fb1 virtual "")" "vfb: list -J says KIND virtual, no card"
	t_is "$(fbclassctl info -J fb1 | jq -c '.framebuffers[0].display')" '{"kind":"virtual","video":[],"card":null}' \
		"vfb: info -J display has no card and no video= arguments"
	t_path_id_udev fb1 vfb
	t_check "rmmod vfb" rmmod vfb
	t_check "fb1 is gone" sysfs_gone /sys/class/graphics/fb1 10
	sleep 1
	kill -INT "$monpid"
	wait "$monpid"
	t_is "$?" 0 "monitor -J: SIGINT exits 0"
	t_is "$(grep -hv '^fbclassctl: monitor: listening for kernel uevents of ' \
		/tmp/monitor.err /tmp/monitor-drm.err)" "" "monitor: nothing on stderr but what it listens to"
	t_is "$(jq -r .subsystem /tmp/monitor.json | sort -u | paste -sd' ' -)" "drm graphics" \
		"monitor -J saw drm and graphics events"
	t_is "$(jq -c 'select(.subsystem == "graphics" and .name == "fb1") | [.action, .present]' /tmp/monitor.json)" \
		'["add",true]
["remove",false]' "monitor -J: fb1 added and removed"
	# what busybox's listener saw of the drm subsystem, as monitor -J shows it
	t_is "$(jq -r 'select(.subsystem == "drm") | "\(.action) \(.name) \(.hotplug)"' /tmp/monitor.json)" \
		"$(grep -v '^--- ' /tmp/uevents | awk '$2 == "drm" { n = $3; sub(/.*\//, "", n)
			print $1, n, ($4 == "HOTPLUG=1" ? "true" : "false") }')" \
		"monitor -J: the drm uevents busybox saw, with HOTPLUG=1 as hotplug"
	t_diag "drm events at modprobe bochs: $(jq -c 'select(.subsystem == "drm") | [.seqnum, .action, .name, .hotplug]' \
		/tmp/monitor.json | head -n 4 | paste -sd' ' -)"
	kill "$uevents_pid"
	out_file /tmp/monitor.json monitor.json
	t_kernel_clean "no oops, BUG or WARNING (but known kernel hazards)"
}

# edid_decoded BLOB: "monitor vendor product WxH-cm preferred" from edid-decode
edid_decoded() {
	edid-decode --skip-hex-dump "$1" 2>&1 | awk '
	/^Block 1/ { exit }
	/^    Manufacturer: / { v = $2 }
	/^    Model: / { p = $2 }
	/^    Maximum image size: / { sz = $4 "x" $7 }
	/^    Display Product Name: / { n = $0; sub(/^[^'\'']*'\''/, "", n); sub(/'\''$/, "", n) }
	/^    DTD 1: / { pref = $3 }
	END { print n "|" v "|" p "|" sz "|" pref }'
}

host_check() {
	_bad=0
	_want=$(edid_decoded edid.bin)
	_got=$(jq -r '.framebuffers[0].display.card.connectors[] | select(.name == "card0-Virtual-1") |
		.edid | "\(.monitor)|\(.vendor)|\(.product)|\(.width_cm)x\(.height_cm)|\(.preferred.width)x\(.preferred.height)"' info.json)
	if [ "$_got" = "$_want" ] && [ "$_want" = "QEMU Monitor|RHT|4660|32x20|1280x800" ]; then
		echo "ok - info -J's EDID is edid-decode's: $_got"
	else
		echo "not ok - info -J's EDID is edid-decode's (name|vendor|product|size|preferred)"
		echo "# edid-decode: $_want"
		echo "# info -J:     $_got"
		_bad=1
	fi
	for _doc in "monitor monitor.json" "info info.json"; do
		# shellcheck disable=SC2086
		if /usr/bin/python3 "$vm_here/../json/validate.py" "$vm_here/../json/fbclassctl.schema.json" $_doc; then
			echo "ok - ${_doc#* } validates against the schema (${_doc% *})"
		else
			echo "not ok - ${_doc#* } validates against the schema (${_doc% *})"
			_bad=1
		fi
	done
	return "$_bad"
}
