#!/bin/bash
# The main job (README, first command): fbclassctl on this machine's
# framebuffers; where there are none, on the built-in VM when it exists.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${FBCLASSCTL:-$top/_build/fbclassctl}
if [ -z "${FBCLASSCTL:-}" ]; then
	# Build out of tree, so the source tree stays clean.
	(cd "$top" && ./autogen.sh >/dev/null && mkdir -p _build && cd _build &&
		{ [ -f Makefile ] || ../configure -q; } && make -s -j2) || exit 1
fi
[ -x "$bin" ] || { echo "tests/demo.sh: $bin is not built" >&2; exit 1; }
export FBCLASSCTL=$bin

have_fb=false
for d in /sys/class/graphics/*; do
	[ -e "$d/dev" ] && have_fb=true
done
if $have_fb; then
	echo "== fbclassctl list (this machine)"
	"$bin" list
	echo
	echo "== fbclassctl info (this machine)"
	"$bin" info
	exit
fi
echo "This machine has no framebuffer devices (/sys/class/graphics has none)."
if [ -x "$top/tests/vm/demo.sh" ]; then
	echo "Running fbclassctl in the built-in VM instead."
	exec "$top/tests/vm/demo.sh"
fi
"$bin" list
