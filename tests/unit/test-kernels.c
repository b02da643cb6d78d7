/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Fill and copy kernels against the one-pixel-at-a-time reference: every bpp,
 * odd widths, odd strides, misaligned bases.  The whole buffer is compared, so
 * a store into row padding, outside the rectangle or past the end is caught.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-cpu.h"
#include "bench-kernels.h"
#include "macro.h"
#include "test.h"

#define GUARD 64

/* Cases each kernel ran: a kernel this CPU cannot run is reported as not
 * tested, never as passed. */
static unsigned fill_cases[_BENCH_KERNEL_FILL_MAX], copy_cases[_BENCH_KERNEL_COPY_MAX];

static uint32_t rng = 0x9e3779b9u;
static uint32_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static void randomize(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)next_random();
}

static const unsigned bpps[] = { 1, 2, 4, 8, 16, 24, 32 };
static const unsigned widths[] = { 1, 2, 3, 5, 17, 31, 33, 64, 97, 257, 1366 };
static const unsigned pads[] = { 0, 1, 3, 8, 61 };
static const unsigned bases[] = { 0, 1, 4, 13, 32 };

/* Compare two buffers; print the first differing byte. */
static bool same(const uint8_t *got, const uint8_t *want, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++) {
		if (got[i] != want[i]) {
			ASSERT_MSG(false, "%s: byte %zu: got 0x%02x, want 0x%02x", what,
				   i, got[i], want[i]);
			return false;
		}
	}
	return true;
}

static void test_pixels(void)
{
	uint8_t buf[16] = { 0 };
	struct bench_kernel_surface s = {
		.pixels = buf, .stride = 16, .width = 4, .height = 1
	};

	s.bpp = 24;
	bench_kernel_put_pixel(&s, 1, 0, 0x123456);
	ASSERT_MSG(buf[3] == 0x56 && buf[4] == 0x34 && buf[5] == 0x12,
		   "24 bpp little-endian");
	ASSERT_MSG(bench_kernel_get_pixel(&s, 1, 0) == 0x123456, "24 bpp read back");
	s.bpp = 2;
	memset(buf, 0, sizeof(buf));
	bench_kernel_put_pixel(&s, 1, 0, 3);
	ASSERT_MSG(buf[0] == 0x0c, "2 bpp: pixel 1 in bits 2-3, got 0x%02x", buf[0]);

	uint8_t b;
	ASSERT_MSG(bench_kernel_pixel_is_byte_uniform(32, 0x00123456, &b) == false,
		   "32 bpp not uniform");
	ASSERT_MSG(bench_kernel_pixel_is_byte_uniform(16, 0xabab, &b) && b == 0xab,
		   "16 bpp uniform");
	ASSERT_MSG(bench_kernel_pixel_is_byte_uniform(4, 0x5, &b) && b == 0x55,
		   "4 bpp replicated");
	ASSERT_MSG(bench_kernel_pixel_is_byte_uniform(1, 1, &b) && b == 0xff,
		   "1 bpp replicated");
}

static void test_fill_one(unsigned bpp, unsigned width, unsigned pad, unsigned base,
			  enum bench_kernel_fill_method m, uint32_t pixel)
{
	unsigned height = 3;
	size_t stride = bench_kernel_row_bytes(bpp, width) + pad;
	size_t size = stride * height + 2 * GUARD + 64;
	uint8_t *got = malloc(size), *want = malloc(size);
	struct bench_kernel_surface sg = { got + GUARD + base, stride, width, height,
					   bpp };
	struct bench_kernel_surface sw = { want + GUARD + base, stride, width, height,
					   bpp };
	/* The whole surface, and an inner rectangle with odd edges. */
	unsigned rects[2][4] = { { 0, 0, width, height },
				 { width > 2 ? 1 : 0, 1, width > 2 ? width - 2 : width,
				   1 } };

	for (unsigned i = 0; i < 2; i++) {
		unsigned *r = rects[i];
		randomize(got, size);
		memcpy(want, got, size);
		if (!bench_kernel_fill_method_usable(m, &sg, pixel)) {
			ASSERT_MSG(bench_kernel_fill(&sg, r[0], r[1], r[2], r[3], pixel,
						     m) == -ENOTSUP,
				   "%s refused", bench_kernel_fill_method_name(m));
			break;
		}
		ASSERT_MSG(bench_kernel_fill(&sw, r[0], r[1], r[2], r[3], pixel,
					     BENCH_KERNEL_FILL_REFERENCE) == 0,
			   "reference");
		int rc = bench_kernel_fill(&sg, r[0], r[1], r[2], r[3], pixel, m);

		fill_cases[m]++;
		char what[160];
		snprintf(what, sizeof(what),
			 "fill %s bpp %u width %u pad %u base %u rect %u,%u %ux%u pixel 0x%x",
			 bench_kernel_fill_method_name(m), bpp, width, pad, base, r[0],
			 r[1], r[2], r[3], pixel);
		ASSERT_MSG(rc == 0, "%s: rc %d", what, rc);
		same(got, want, size, what);
	}
	free(got);
	free(want);
}

static void test_fill(void)
{
	const uint32_t pixels[] = { 0x123456, 0xf81f,	  0x00123456,
				    0,	      0xffffffff, 0xa5a5a5a5 };

	for (size_t b = 0; b < ARRAY_SIZE(bpps); b++)
		for (size_t w = 0; w < ARRAY_SIZE(widths); w++)
			for (size_t p = 0; p < ARRAY_SIZE(pads); p++)
				for (size_t o = 0; o < ARRAY_SIZE(bases); o++)
					for (int m = 0; m < _BENCH_KERNEL_FILL_MAX; m++) {
						if (!bench_kernel_fill_method_cpu_ok(m))
							continue;
						for (size_t c = 0; c < ARRAY_SIZE(pixels);
						     c++)
							test_fill_one(bpps[b], widths[w],
								      pads[p], bases[o],
								      m, pixels[c]);
					}
}

static void test_fill_large(void)
{
	/* Long contiguous rows (stride == row bytes) take the one-long-row path. */
	for (size_t b = 3; b < ARRAY_SIZE(bpps); b++)
		for (int m = 0; m < _BENCH_KERNEL_FILL_MAX; m++)
			if (bench_kernel_fill_method_cpu_ok(m))
				test_fill_one(bpps[b], 1920, 0, 0, m, 0x00123456);
}

/*
 * Every head and tail: rows starting at each offset mod 64 (the widest store
 * and the line), widths 1..67 pixels, and rows around the lengths where a
 * kernel changes loop: 3 stores, one 192-byte step, and 768 + 192 bytes,
 * past which the -pfw kernels prefetch.  Pads 0 (one long row), odd, and a
 * whole line.  Only the whole buffer compared with the reference will do.
 */
static void test_fill_alignment(void)
{
	static const unsigned long_rows[] = { 96,  191, 192,  193,  959,
					      960, 961, 1152, 1153, 2047 };
	static const unsigned apads[] = { 0, 5, 64 };
	/* memset needs a pixel of equal bytes; every other method gets a real one */
	static const uint32_t apixels[2] = { 0x00123456, 0xa5a5a5a5 };
	const unsigned height = 2, n_widths = 67 + (unsigned)ARRAY_SIZE(long_rows);
	size_t size = (2100 + 64) * height + 2 * GUARD + 64;
	uint8_t *orig = malloc(size), *got = malloc(size),
		*want[2] = { malloc(size), malloc(size) };
	char what[160];

	for (unsigned bpp = 8; bpp <= 32; bpp += 8)
		for (unsigned wi = 0; wi < n_widths; wi++) {
			unsigned Bpp = bpp / 8;
			unsigned width =
				wi < 67 ? wi + 1 : (long_rows[wi - 67] + Bpp - 1) / Bpp;

			for (size_t p = 0; p < ARRAY_SIZE(apads); p++)
				for (unsigned base = 0; base < 64; base++) {
					size_t stride =
						bench_kernel_row_bytes(bpp, width) +
						apads[p];
					size_t span = 2 * GUARD + 64 + stride * height;

					randomize(orig, span);
					for (int k = 0; k < 2; k++) {
						struct bench_kernel_surface sw = {
							want[k] + GUARD + base, stride,
							width, height, bpp
						};
						memcpy(want[k], orig, span);
						bench_kernel_fill(
							&sw, 0, 0, width, height,
							apixels[k],
							BENCH_KERNEL_FILL_REFERENCE);
					}
					for (int m = 0; m < _BENCH_KERNEL_FILL_MAX; m++) {
						struct bench_kernel_surface sg = {
							got + GUARD + base, stride, width,
							height, bpp
						};
						int k = m == BENCH_KERNEL_FILL_MEMSET;

						if (m == BENCH_KERNEL_FILL_REFERENCE ||
						    !bench_kernel_fill_method_usable(
							    m, &sg, apixels[k]))
							continue;
						memcpy(got, orig, span);
						fill_cases[m]++;
						int rc = bench_kernel_fill(&sg, 0, 0,
									   width, height,
									   apixels[k], m);
						snprintf(what, sizeof(what),
							 "fill %s bpp %u width %u pad %u base %u",
							 bench_kernel_fill_method_name(m),
							 bpp, width, apads[p], base);
						ASSERT_MSG(rc == 0, "%s: rc %d", what, rc);
						same(got, want[k], span, what);
					}
				}
		}
	free(orig);
	free(got);
	free(want[0]);
	free(want[1]);
}

static void test_copy_one(unsigned bpp, unsigned width, unsigned pad, unsigned base,
			  enum bench_kernel_copy_method m)
{
	unsigned height = 20;
	size_t stride = bench_kernel_row_bytes(bpp, width) + pad;
	size_t size = stride * height + 2 * GUARD + 64;
	uint8_t *got = malloc(size), *want = malloc(size), *src = malloc(size);
	struct bench_kernel_surface sg = { got + GUARD + base, stride, width, height,
					   bpp };
	struct bench_kernel_surface sw = { want + GUARD + base, stride, width, height,
					   bpp };
	struct bench_kernel_surface ss = { src + GUARD + (base + 3) % 32, stride, width,
					   height, bpp };
	char what[160];

	/* Upload: another buffer, another alignment. */
	randomize(src, size);
	randomize(got, size);
	memcpy(want, got, size);
	if (bench_kernel_copy_method_usable(m, &sg, &ss)) {
		bench_kernel_copy(&sw, 0, 0, &ss, 0, 0, width, height,
				  BENCH_KERNEL_COPY_REFERENCE);
		int rc = bench_kernel_copy(&sg, 0, 0, &ss, 0, 0, width, height, m);

		copy_cases[m]++;
		snprintf(what, sizeof(what), "upload %s bpp %u width %u pad %u base %u",
			 bench_kernel_copy_method_name(m), bpp, width, pad, base);
		ASSERT_MSG(rc == 0, "%s: rc %d", what, rc);
		same(got, want, size, what);
	}

	/* Scrolls in place: up 16 rows as fbcon does, down 3, and sideways. */
	const int moves[][2] = { { 0, -16 }, { 0, 3 }, { 1, 0 }, { -2, 1 } };
	for (size_t i = 0; i < ARRAY_SIZE(moves); i++) {
		int mx = moves[i][0], my = moves[i][1];
		unsigned w = width - (unsigned)abs(mx), h = height - (unsigned)abs(my);
		unsigned sx = mx < 0 ? (unsigned)-mx : 0, sy = my < 0 ? (unsigned)-my : 0;
		unsigned dx = mx > 0 ? (unsigned)mx : 0, dy = my > 0 ? (unsigned)my : 0;

		if ((unsigned)abs(mx) >= width)
			continue;
		randomize(got, size);
		memcpy(want, got, size);
		snprintf(what, sizeof(what),
			 "scroll %d,%d %s bpp %u width %u pad %u base %u", mx, my,
			 bench_kernel_copy_method_name(m), bpp, width, pad, base);
		if (!bench_kernel_copy_method_usable(m, &sg, &sg))
			break;
		bench_kernel_copy(&sw, dx, dy, &sw, sx, sy, w, h,
				  BENCH_KERNEL_COPY_REFERENCE);
		int rc = bench_kernel_copy(&sg, dx, dy, &sg, sx, sy, w, h, m);

		copy_cases[m]++;
		if (rc == -ENOTSUP && m == BENCH_KERNEL_COPY_PIXMAN)
			continue; /* pixman_blt cannot scroll down; it says so */
		ASSERT_MSG(rc == 0, "%s: rc %d", what, rc);
		same(got, want, size, what);
	}
	free(got);
	free(want);
	free(src);
}

static void test_copy(void)
{
	for (size_t b = 0; b < ARRAY_SIZE(bpps); b++)
		for (size_t w = 0; w < ARRAY_SIZE(widths); w++)
			for (size_t p = 0; p < ARRAY_SIZE(pads); p++)
				for (size_t o = 0; o < ARRAY_SIZE(bases); o += 2)
					for (int m = 0; m < _BENCH_KERNEL_COPY_MAX; m++)
						if (bench_kernel_copy_method_cpu_ok(m))
							test_copy_one(bpps[b], widths[w],
								      pads[p], bases[o],
								      m);
}

static void test_reject(void)
{
	uint8_t buf[64];
	struct bench_kernel_surface s = { buf, 16, 4, 4, 32 };

	ASSERT_MSG(bench_kernel_fill(&s, 1, 0, 4, 1, 0, BENCH_KERNEL_FILL_AUTO) == -EINVAL,
		   "rect past the right edge");
	ASSERT_MSG(bench_kernel_fill(&s, 0, 4, 1, 1, 0, BENCH_KERNEL_FILL_AUTO) == -EINVAL,
		   "rect past the bottom");
	s.bpp = 12;
	ASSERT_MSG(bench_kernel_fill(&s, 0, 0, 1, 1, 0, BENCH_KERNEL_FILL_AUTO) == -EINVAL,
		   "bpp 12");
	s.bpp = 32;
	ASSERT_MSG(bench_kernel_fill(&s, 0, 0, 1, 1, 0x123456,
				     BENCH_KERNEL_FILL_MEMSET) == -ENOTSUP,
		   "memset of a non-uniform pixel");
	s.stride = 12;
	ASSERT_MSG(bench_kernel_fill(&s, 0, 0, 1, 1, 0, BENCH_KERNEL_FILL_AUTO) == -EINVAL,
		   "stride < row");
	ASSERT_MSG(bench_kernel_fill_method_from_name("avx2-nt") ==
			   BENCH_KERNEL_FILL_AVX2_NT,
		   "name lookup");
	ASSERT_MSG(bench_kernel_copy_method_from_name("nope") == -1, "unknown name");
	ASSERT_MSG(bench_kernel_llc_bytes() >= 4096, "LLC size %zu",
		   bench_kernel_llc_bytes());
	ASSERT_MSG(bench_kernel_llc_sharers() >= 1, "LLC sharers %u",
		   bench_kernel_llc_sharers());
}

static void test_cpulist(void)
{
	static const struct {
		const char *list;
		unsigned n;
	} cases[] = {
		{ "0\n", 1 },	  { "0-1\n", 2 },  { "0-3,8-11\n", 8 }, { "0,2,4\n", 3 },
		{ "5-5", 1 },	  { "", 0 },	   { "x", 0 },		{ "3-1\n", 0 },
		{ "0-\n", 0 },	  { "0,,1\n", 0 }, { "-1\n", 0 },	{ "1x\n", 0 },
		{ "99999\n", 0 }, { "0-3,\n", 4 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ASSERT_MSG(bench_kernel_cpulist_count(cases[i].list) == cases[i].n,
			   "cpulist \"%s\": %u, want %u", cases[i].list,
			   bench_kernel_cpulist_count(cases[i].list), cases[i].n);
	/* AUTO goes non-temporal at 3/4 of a CPU's share of the LLC. */
	ASSERT_MSG(bench_kernel_nt_threshold() ==
			   bench_kernel_llc_bytes() / 4 * 3 / bench_kernel_llc_sharers(),
		   "threshold %zu", bench_kernel_nt_threshold());
}

/* Our own CPUID reading against libgcc's (which the tool no longer links
 * for its start-up cost): the same answer for each feature it asks. */
static void test_cpu_features(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_cpu_init();
	ASSERT_MSG(bench_kernel_cpu_has_avx2() == !!__builtin_cpu_supports("avx2"),
		   "avx2: ours %d, libgcc's %d", bench_kernel_cpu_has_avx2(),
		   !!__builtin_cpu_supports("avx2"));
	ASSERT_MSG(bench_kernel_cpu_has_sse41() == !!__builtin_cpu_supports("sse4.1"),
		   "sse4.1: ours %d, libgcc's %d", bench_kernel_cpu_has_sse41(),
		   !!__builtin_cpu_supports("sse4.1"));
	printf("cpu: avx2 %d, sse4.1 %d (libgcc agrees)\n", bench_kernel_cpu_has_avx2(),
	       bench_kernel_cpu_has_sse41());
#else
	ASSERT_MSG(!bench_kernel_cpu_has_avx2() && !bench_kernel_cpu_has_sse41(),
		   "no x86 features off x86");
#endif
}

/* One line per kernel: how many cases it ran, or why it ran none.  A
 * kernel this CPU can run must have run cases. */
static void report_cases(const char *op, const char *name, bool cpu_ok, unsigned n)
{
	if (!cpu_ok) {
		printf("%s %s: not tested: this CPU cannot run it\n", op, name);
		return;
	}
	printf("%s %s: %u cases\n", op, name, n);
	ASSERT_MSG(n > 0, "%s %s: this CPU can run it, but no case ran it", op, name);
}

int main(void)
{
	test_pixels();
	test_cpu_features();
	test_cpulist();
	test_reject();
	test_fill();
	test_fill_alignment();
	test_fill_large();
	/* The AUTO choice flips at the threshold: run both sides of it. */
	bench_kernel_set_nt_threshold(1);
	test_fill_large();
	test_copy();
	bench_kernel_set_nt_threshold(0);
	test_copy();
	for (int m = 0; m < _BENCH_KERNEL_FILL_MAX; m++)
		report_cases("fill", bench_kernel_fill_method_name(m),
			     bench_kernel_fill_method_cpu_ok(m), fill_cases[m]);
	for (int m = 0; m < _BENCH_KERNEL_COPY_MAX; m++)
		report_cases("copy", bench_kernel_copy_method_name(m),
			     bench_kernel_copy_method_cpu_ok(m), copy_cases[m]);
	return test_finish("test-kernels");
}
