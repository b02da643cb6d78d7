#!/bin/sh
# capture-sysfs.sh [SYSPATH...] - write the sysfs trees of devices and their
# whole parent chains in umockdev's record format (what umockdev-record
# writes and `umockdev-run -d FILE` loads), for the fixture tier.
# Default: every entry of /sys/class/graphics.  Runs under busybox sh in the
# VM (like util-linux's tests/ts/lsblk/mk-input.sh), or on any Linux host,
# on any kernel: it follows links, and knows no attribute by name.
#
# CAPTURE_DRM=1 adds the DRM side: with each device come the DRM devices
# that share its parent device (cardN, renderDN, and each card's connectors
# cardN-TYPE-N with status, enabled, dpms, modes and edid), and the default
# is every entry of /sys/class/graphics and of /sys/class/drm.  Off by
# default, so the scenarios that made the older trees make them again.
#
#   P: /devices/...        the device path
#   N: fb0                 its node name, from DEVNAME
#   E: KEY=VAL             the uevent environment
#   A: attr=value          text attributes, C-escaped (\n, \\, \ooo)
#   H: attr=hex            binary attributes
#   L: link=target         symlinks (device, driver, ...)
#
# The driver's module link lives outside /devices, where umockdev puts no
# devices, so it is written as a link relative to the device:
#   L: ../../../bus/pci/drivers/bochs-drm/module=../../../../module/bochs
# which umockdev creates as /sys/bus/pci/drivers/bochs-drm/module.
set -eu

SYS=${SYSFS:-/sys}

# Escape a file's bytes as umockdev's A: value (g_strcompress syntax).
# Prints nothing and fails if the file looks binary (then H: is used).
escape_text() {
	od -An -v -tx1 "$1" | awk '
	BEGIN {
		for (i = 0; i < 256; i++) hex[sprintf("%02x", i)] = i
		bad = 0
	}
	{
		for (f = 1; f <= NF; f++) {
			c = hex[$f]
			if (c == 92) out = out "\\\\"
			else if (c == 10) out = out "\\n"
			else if (c == 9) out = out "\\t"
			else if (c >= 32 && c < 127) out = out sprintf("%c", c)
			else if (c == 0) { bad = 1; exit }
			else out = out sprintf("\\%03o", c)
		}
	}
	END { if (bad) exit 1; printf "%s", out }'
}

hex_of() {
	od -An -v -tx1 "$1" | tr -d ' \n' | tr a-f A-F
}

# dotdots DEVPATH: "../" once per component, from the device dir to /sys.
dotdots() {
	echo "$1" | awk -F/ '{ s = ""; for (i = 2; i <= NF; i++) s = s "../"; printf "%s", s }'
}

# emit_dir SYSDIR RELPREFIX: attributes and links of one device directory,
# recursing into plain subdirectories (power/, ...) but not child devices.
# A subshell body, so the recursion keeps its own variables.
emit_dir() (
	_dir=$1
	_pre=$2
	for _f in "$_dir"/* "$_dir"/.[!.]*; do
		[ -e "$_f" ] || [ -L "$_f" ] || continue
		_name=$_pre${_f##*/}
		if [ -L "$_f" ]; then
			case $_name in
			subsystem) continue ;; # umockdev makes it from SUBSYSTEM
			esac
			echo "L: $_name=$(readlink "$_f")"
			continue
		fi
		if [ -d "$_f" ]; then
			# a child device (has its own uevent) is recorded on its own
			[ -e "$_f/uevent" ] && continue
			emit_dir "$_f" "$_name/"
			continue
		fi
		[ "$_name" = uevent ] && continue
		[ -f "$_f" ] || continue
		# write-only attributes (bind, remove, ...) and big binary
		# windows (PCI resourceN, rom) are not state worth recording
		_mode=$(stat -c %a "$_f")
		case $_mode in
		*[4567]?? | *?[4567]? | *??[4567]) ;;
		*) continue ;;
		esac
		_size=$(stat -c %s "$_f")
		[ "$_size" -le 65536 ] || continue
		case ${_f##*/} in
		resource[0-9]* | rom) continue ;;
		esac
		_tmp=/tmp/capture-sysfs.$$
		cat "$_f" >"$_tmp" 2>/dev/null || { rm -f "$_tmp"; continue; }
		if _val=$(escape_text "$_tmp"); then
			echo "A: $_name=$_val"
		else
			echo "H: $_name=$(hex_of "$_tmp")"
		fi
		rm -f "$_tmp"
	done
)

# emit_device SYSPATH: one record for one device.
emit_device() {
	_sp=$1
	_devpath=${_sp#"$SYS"}
	echo "P: $_devpath"
	_devname=$(sed -n 's/^DEVNAME=//p' "$_sp/uevent" 2>/dev/null || true)
	[ -n "$_devname" ] && echo "N: $_devname"
	# umockdev needs SUBSYSTEM; the kernel does not write it into uevent
	if [ -L "$_sp/subsystem" ] && ! grep -q '^SUBSYSTEM=' "$_sp/uevent"; then
		echo "E: SUBSYSTEM=$(basename "$(readlink "$_sp/subsystem")")"
	fi
	sed 's/^/E: /' "$_sp/uevent"
	emit_dir "$_sp" ""
	if [ -L "$_sp/driver" ]; then
		_drv=$(realpath "$_sp/driver")
		# once per driver: umockdev refuses to make the same link twice
		# (two cards of one driver)
		case $seen_drivers in
		*" $_drv "*) _drv= ;;
		*) seen_drivers="$seen_drivers$_drv " ;;
		esac
		if [ -n "$_drv" ] && [ -L "$_drv/module" ]; then
			_up=$(dotdots "$_devpath")
			echo "L: $_up${_drv#"$SYS"/}/module=$(readlink "$_drv/module")"
		fi
	fi
	echo
}

# chain SYSPATH: the device and every parent that is a device with a
# subsystem (umockdev records only those), innermost first.
chain() {
	_p=$(realpath "$1")
	while [ "$_p" != "$SYS/devices" ] && [ "$_p" != "$SYS" ] && [ "$_p" != / ]; do
		if [ -e "$_p/uevent" ] && [ -L "$_p/subsystem" ]; then
			echo "$_p"
		fi
		_p=${_p%/*}
	done
}

# drm_owner DRMENTRY: the device a /sys/class/drm entry belongs to: a card's
# or render node's parent (its device link); a connector's device link
# names its card, so the card's parent.
drm_owner() {
	[ -L "$1/device" ] || return 0
	_o=$(realpath "$1/device")
	if [ -L "$_o/subsystem" ] && [ "$(basename "$(readlink "$_o/subsystem")")" = drm ]; then
		[ -L "$_o/device" ] || return 0
		_o=$(realpath "$_o/device")
	fi
	echo "$_o"
}

# drm_siblings SYSPATH: the DRM entries that share SYSPATH's parent device.
drm_siblings() {
	[ -L "$1/device" ] || return 0
	_parent=$(realpath "$1/device")
	for _d in "$SYS"/class/drm/*; do
		[ -L "$_d" ] || continue # the class's own files (version)
		if [ "$(drm_owner "$_d")" = "$_parent" ]; then
			echo "$_d"
		fi
	done
}

drm=${CAPTURE_DRM:-0}
if [ $# -eq 0 ]; then
	_classes="$SYS/class/graphics/*"
	[ "$drm" = 1 ] && _classes="$_classes $SYS/class/drm/*"
	for _e in $_classes; do
		if [ -L "$_e" ]; then
			set -- "$@" "$_e"
		fi
	done
	[ $# -gt 0 ] || { echo "capture-sysfs: no entries in $SYS/class/graphics or $SYS/class/drm" >&2; exit 1; }
fi

# Parents first (umockdev wants a parent before its children), each once.
seen=" "
seen_drivers=" "
emit_chain() {
	for p in $(chain "$1" | tac); do
		case $seen in
		*" $p "*) continue ;;
		esac
		seen="$seen$p "
		emit_device "$p"
	done
}
for d in "$@"; do
	[ -e "$d" ] || { echo "capture-sysfs: $d: no such device" >&2; exit 1; }
	emit_chain "$d"
	[ "$drm" = 1 ] || continue
	for s in $(drm_siblings "$d"); do
		emit_chain "$s"
	done
done
