#!/bin/sh
# Install what building fbclassctl and running every test tier needs, from
# Debian 12 packages.  Run as root.  Used by both README commands and CI.
set -eu
if [ "$(id -u)" -ne 0 ]; then
	echo "tests/install-deps.sh: run me as root (apt-get needs it)" >&2
	exit 1
fi
packages="
	build-essential autoconf automake autoconf-archive libtool pkg-config
	libudev-dev libkmod-dev libsmartcols-dev libjson-c-dev
	libpixman-1-dev libpng-dev libsysfs-dev libdrm-dev
	umockdev man-db groff-base bsdextrautils util-linux jq python3 python3-jsonschema edid-decode
	prometheus
	bash-completion zsh
	qemu-system-x86 busybox-static cpio kmod fbset strace debian-archive-keyring initramfs-tools-core
	debootstrap systemd
	libdrm-tests drm-info socat
	clang libclang-rt-14-dev valgrind cppcheck clang-format git
"
# shellcheck disable=SC2086
missing=$(dpkg-query -W -f '${Status} ${Package}\n' $packages 2>&1 | grep -vc '^install ok installed' || true)
if [ "$missing" -ne 0 ]; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends $packages >/dev/null
fi
echo "tests/install-deps.sh: build and test dependencies are installed"

# In a git checkout: the commit-msg hook (tests/git/commit-msg, HACKING's
# rule for commit messages), as a link, owned as the checkout is.  A hook
# of another kind already there is left alone; outside git, nothing.
top=$(cd "$(dirname "$0")/.." && pwd)
if hooks=$(cd "$top" && git rev-parse --git-path hooks 2>/dev/null) && [ -e "$top/.git" ]; then
	case $hooks in /*) ;; *) hooks=$top/$hooks ;; esac
	hook=$hooks/commit-msg
	if [ "$(readlink "$hook" 2>/dev/null)" = "$top/tests/git/commit-msg" ]; then
		:
	elif [ -e "$hook" ] || [ -L "$hook" ]; then
		echo "tests/install-deps.sh: $hook is there already, not replaced (tests/git/commit-msg is the project's)"
	else
		mkdir -p "$hooks"
		ln -s "$top/tests/git/commit-msg" "$hook"
		chown -h --reference="$top" "$hook" 2>/dev/null || true
		echo "tests/install-deps.sh: commit-msg hook installed in $hooks"
	fi
fi
