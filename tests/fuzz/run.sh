#!/bin/bash
# make fuzz: build every libFuzzer target (tests/fuzz/fuzz-*.c) with clang,
# ASan and UBSan, and run each for FUZZ_SECONDS (default 60) from its seed
# corpus in tests/fuzz/corpus/<target>/.  Exits non-zero on any crash,
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
for target_src in "$top_srcdir"/tests/fuzz/fuzz-*.c; do
	name=$(basename "$target_src" .c)
	short=${name#fuzz-}
	bin=$out/$name
	# shellcheck disable=SC2086
	if ! $CC_FUZZ $cflags -fsanitize=fuzzer "$target_src" "${objs[@]}" $libs -o "$bin"; then
		echo "fuzz: $name: build failed" >&2
		failed=1
		continue
	fi
	corpus=$out/corpus/$short
	artifacts=$out/artifacts/$short/
	mkdir -p "$corpus" "$artifacts"
	echo "fuzz: $name for ${seconds}s"
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$artifacts" "$corpus" "$top_srcdir/tests/fuzz/corpus/$short" \
		>"$out/$name.log" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ]; then
		failed=1
		echo "fuzz: $name FAILED (exit $rc); reproducer:" >&2
		ls "$artifacts" | sed "s|^|  $artifacts|" >&2
		grep -E "ERROR|SUMMARY|runtime error" "$out/$name.log" | head -5 >&2
	else
		grep -E "stat::number_of_executed_units" "$out/$name.log" | sed "s/^/fuzz: $name: /"
	fi
done
exit $failed
