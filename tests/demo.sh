#!/bin/bash
# The main job (README, first command): fbclassctl on this machine's
# framebuffers; where there are none, on the built-in VM when it exists.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${FBCLASSCTL:-$top/fbclassctl}
[ -x "$bin" ] || { echo "tests/demo.sh: $bin is not built; run make first" >&2; exit 1; }

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
