#!/bin/bash
# make fuzz: build every libFuzzer target (tests/fuzz/fuzz-*.c) with clang,
# ASan and UBSan, and run each for FUZZ_SECONDS (default 60) from its seed
# corpus in tests/fuzz/corpus/<target>/, FUZZ_JOBS (default 2) at a time.  Exits non-zero on any crash,
# leak or timeout and prints the reproducer's path.
#
# A crash found here becomes a unit test before it is fixed.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
seconds=${FUZZ_SECONDS:-60}
out=${FUZZ_DIR:-$top_builddir/fuzz-out}
CC_FUZZ=${CC_FUZZ:-clang}

command -v "$CC_FUZZ" >/dev/null || { echo "fuzz: $CC_FUZZ not found (Debian package clang)" >&2; exit 1; }
[ -f "$top_builddir/config.h" ] || { echo "fuzz: run ./configure first ($top_builddir/config.h missing)" >&2; exit 1; }

# What this configuration builds into libfbclass (one file of each backend
# pair), with its flags and libraries: make fuzz passes them.
: "${FUZZ_SOURCES:?run me through make fuzz (FUZZ_SOURCES is not set)}"
# shellcheck disable=SC2086
cflags="-g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -include $top_builddir/config.h -I$top_builddir -I$top_srcdir/src ${FUZZ_CFLAGS:-}"
libs="${FUZZ_LIBS:-} -lm"

mkdir -p "$out/obj"
objs=()
for src in $FUZZ_SOURCES; do
	src=$top_srcdir/$src
	obj=$out/obj/$(basename "$src" .c).o
	# shellcheck disable=SC2086
	$CC_FUZZ $cflags -c "$src" -o "$obj" || { echo "fuzz: cannot compile $src" >&2; exit 1; }
	objs+=("$obj")
done

failed=0
# run_target NAME: run one built target from its corpus; the verdict to
# $out/NAME.verdict (the runs go side by side, FUZZ_JOBS at a time)
run_target() {
	local name=$1 short=${1#fuzz-} rc
	local bin=$out/$name corpus=$out/corpus/${1#fuzz-} artifacts=$out/artifacts/${1#fuzz-}/
	mkdir -p "$corpus" "$artifacts"
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$artifacts" "$corpus" "$top_srcdir/tests/fuzz/corpus/$short" \
		>"$out/$name.log" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ]; then
		{
			echo "fuzz: $name FAILED (exit $rc); reproducer:"
			ls "$artifacts" | sed "s|^|  $artifacts|"
			grep -E "ERROR|SUMMARY|runtime error" "$out/$name.log" | head -5
		} >"$out/$name.verdict"
		return 1
	fi
	grep -E "stat::number_of_executed_units" "$out/$name.log" | sed "s/^/fuzz: $name: /" >"$out/$name.verdict"
}
names=()
for target_src in "$top_srcdir"/tests/fuzz/fuzz-*.c; do
	name=$(basename "$target_src" .c)
	# shellcheck disable=SC2086
	if ! $CC_FUZZ $cflags -fsanitize=fuzzer "$target_src" "${objs[@]}" $libs -o "$out/$name"; then
		echo "fuzz: $name: build failed" >&2
		failed=1
		continue
	fi
	names+=("$name")
done
# Each target replays its corpus, then fuzzes for FUZZ_SECONDS; two at
# once (one a CPU of CI's two), FUZZ_JOBS to change it.
jobs=${FUZZ_JOBS:-2}
running=0
for name in "${names[@]}"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	echo "fuzz: $name for ${seconds}s"
	rm -f "$out/$name.verdict"
	run_target "$name" &
	running=$((running + 1))
done
wait
# the verdicts, in order (a status reaped by wait -n is not asked again)
for name in "${names[@]}"; do
	f=$out/$name.verdict
	if [ ! -s "$f" ]; then
		echo "fuzz: $name: no verdict (killed?)" >&2
		failed=1
	elif grep -q "^fuzz: $name FAILED" "$f"; then
		cat "$f" >&2
		failed=1
	else
		cat "$f"
	fi
done
exit $failed
