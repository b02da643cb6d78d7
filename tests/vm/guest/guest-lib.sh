# TAP helpers for scenarios, sourced by /init in the guest (busybox sh).
# Every helper prints exactly one TAP line; t_done prints the plan last.
# shellcheck shell=sh

t_n=0
t_failed=0

t_ok() {
	t_n=$((t_n + 1))
	echo "ok $t_n - $*"
}

t_not_ok() {
	t_n=$((t_n + 1))
	t_failed=$((t_failed + 1))
	echo "not ok $t_n - $*"
}

# t_check DESC CMD...: ok if CMD succeeds; its output is shown on failure.
t_check() {
	_desc=$1
	shift
	if _out=$("$@" 2>&1); then
		t_ok "$_desc"
	else
		t_not_ok "$_desc"
		t_diag "command: $*"
		printf '%s\n' "$_out" | t_diag_stdin
	fi
}

# t_is GOT WANT DESC
t_is() {
	if [ "$1" = "$2" ]; then
		t_ok "$3"
	else
		t_not_ok "$3"
		t_diag "got:  '$1'"
		t_diag "want: '$2'"
	fi
}

t_diag() { echo "# $*"; }
t_diag_stdin() { sed 's/^/# /'; }

t_done() { echo "1..$t_n"; }

# out_file FILE NAME: send FILE to the host over the data port (/dev/ttyS1),
# base64 between markers; the host writes it to its result directory as NAME
# and fails the boot if it did not arrive whole (the "# sent" line).
out_file() {
	{
		echo "==> BEGIN $2"
		base64 <"$1"
		echo "==> END $2"
	} >/dev/ttyS1
	echo "# sent $2 $(md5sum <"$1" | cut -d' ' -f1)"
}

# out_file_gz FILE NAME: FILE compressed (gzip -1) as NAME.gz: the data port
# carries ~200 kB/s under TCG, and a raw frame of a test pattern is megabytes
# that compress a hundredfold.
out_file_gz() {
	gzip -1 -c "$1" >"$1.gz" && out_file "$1.gz" "$2.gz"
	rm -f "$1.gz"
}

# sysfs_wait PATH [SECS]: wait until PATH exists (uevents are asynchronous).
sysfs_wait() {
	_i=0
	while [ ! -e "$1" ]; do
		_i=$((_i + 1))
		[ "$_i" -gt $((${2:-5} * 10)) ] && return 1
		usleep 100000
	done
}

# sysfs_gone PATH [SECS]
sysfs_gone() {
	_i=0
	while [ -e "$1" ]; do
		_i=$((_i + 1))
		[ "$_i" -gt $((${2:-5} * 10)) ] && return 1
		usleep 100000
	done
}

# fb_mknod fbN: make /dev/fbN from its sysfs dev attribute (no coldplug yet).
fb_mknod() {
	_dev=$(cat "/sys/class/graphics/$1/dev") || return 1
	rm -f "/dev/$1"
	mknod -m 0600 "/dev/$1" c "${_dev%%:*}" "${_dev#*:}"
}

# fb_count: how many framebuffers (entries with a dev attribute) exist.
fb_count() {
	_c=0
	for _d in /sys/class/graphics/*; do
		[ -e "$_d/dev" ] && _c=$((_c + 1))
	done
	echo "$_c"
}

# t_run DESC CMD...: run CMD with its output on the console (the demo).
t_run() {
	_desc=$1
	shift
	echo
	echo "=== \$ $*"
	if "$@"; then t_ok "$_desc"; else t_not_ok "$_desc (exit $?)"; fi
}
