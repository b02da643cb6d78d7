/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Fill and copy kernels.  One generic row routine per store width: an
 * unaligned head written with memcpy from a pattern buffer, an aligned body of
 * wide stores cycling through three pattern vectors (the period of a 3-byte
 * pixel in a 8/16/32-byte store; one vector repeats for 1, 2 and 4 bytes), and
 * a tail from the pattern buffer again.  No kernel ever loads the destination.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define BENCH_KERNEL_X86 1
#else
#define BENCH_KERNEL_X86 0
#endif

#include "bench-kernels.h"
#include "fbinfo_ioctl.h"
#include "macro.h"
#include "pixman-backend.h"

static const char *const fill_names[_BENCH_KERNEL_FILL_MAX] = {
	[BENCH_KERNEL_FILL_AUTO] = "auto",
	[BENCH_KERNEL_FILL_MEMSET] = "memset",
	[BENCH_KERNEL_FILL_SCALAR32] = "scalar32",
	[BENCH_KERNEL_FILL_STOS] = "stos",
	[BENCH_KERNEL_FILL_SSE2] = "sse2",
	[BENCH_KERNEL_FILL_SSE2_NT] = "sse2-nt",
	[BENCH_KERNEL_FILL_AVX2] = "avx2",
	[BENCH_KERNEL_FILL_AVX2_NT] = "avx2-nt",
	[BENCH_KERNEL_FILL_PIXMAN] = "pixman",
	[BENCH_KERNEL_FILL_REFERENCE] = "reference",
	[BENCH_KERNEL_FILL_SSE2_PFW] = "sse2-pfw",
	[BENCH_KERNEL_FILL_AVX2_PFW] = "avx2-pfw",
};

static const char *const copy_names[_BENCH_KERNEL_COPY_MAX] = {
	[BENCH_KERNEL_COPY_AUTO] = "auto",
	[BENCH_KERNEL_COPY_MEMCPY] = "memcpy",
	[BENCH_KERNEL_COPY_MEMMOVE] = "memmove",
	[BENCH_KERNEL_COPY_SCALAR32] = "scalar32",
	[BENCH_KERNEL_COPY_SSE2_NT] = "sse2-nt",
	[BENCH_KERNEL_COPY_AVX2_NT] = "avx2-nt",
	[BENCH_KERNEL_COPY_SSE41_LOAD] = "sse41-load",
	[BENCH_KERNEL_COPY_PIXMAN] = "pixman",
	[BENCH_KERNEL_COPY_REFERENCE] = "reference",
};

const char *bench_kernel_fill_method_name(enum bench_kernel_fill_method m)
{
	return (unsigned)m < _BENCH_KERNEL_FILL_MAX ? fill_names[m] : "?";
}

const char *bench_kernel_copy_method_name(enum bench_kernel_copy_method m)
{
	return (unsigned)m < _BENCH_KERNEL_COPY_MAX ? copy_names[m] : "?";
}

int bench_kernel_fill_method_from_name(const char *name)
{
	for (int i = 0; i < _BENCH_KERNEL_FILL_MAX; i++)
		if (strcmp(fill_names[i], name) == 0)
			return i;
	return -1;
}

int bench_kernel_copy_method_from_name(const char *name)
{
	for (int i = 0; i < _BENCH_KERNEL_COPY_MAX; i++)
		if (strcmp(copy_names[i], name) == 0)
			return i;
	return -1;
}

bool bench_kernel_fill_method_cpu_ok(enum bench_kernel_fill_method m)
{
	switch (m) {
	case BENCH_KERNEL_FILL_STOS:
	case BENCH_KERNEL_FILL_SSE2:
	case BENCH_KERNEL_FILL_SSE2_NT:
		return BENCH_KERNEL_X86;
	case BENCH_KERNEL_FILL_AVX2:
	case BENCH_KERNEL_FILL_AVX2_NT:
		return bench_kernel_cpu_has_avx2();
	case BENCH_KERNEL_FILL_SSE2_PFW:
		return bench_kernel_cpu_has_prefetchw();
	case BENCH_KERNEL_FILL_AVX2_PFW:
		return bench_kernel_cpu_has_avx2() && bench_kernel_cpu_has_prefetchw();
	default:
		return (unsigned)m < _BENCH_KERNEL_FILL_MAX;
	}
}

bool bench_kernel_copy_method_cpu_ok(enum bench_kernel_copy_method m)
{
	switch (m) {
	case BENCH_KERNEL_COPY_SSE2_NT:
		return BENCH_KERNEL_X86;
	case BENCH_KERNEL_COPY_AVX2_NT:
		return bench_kernel_cpu_has_avx2();
	case BENCH_KERNEL_COPY_SSE41_LOAD:
		return bench_kernel_cpu_has_sse41();
	default:
		return (unsigned)m < _BENCH_KERNEL_COPY_MAX;
	}
}

enum bench_kernel_fill_method bench_kernel_fill_choose(size_t bytes, unsigned bpp)
{
	if (bpp < 8 || !BENCH_KERNEL_X86)
		return BENCH_KERNEL_FILL_SCALAR32;
	if (bytes >= bench_kernel_nt_threshold())
		return bench_kernel_cpu_has_avx2() ? BENCH_KERNEL_FILL_AVX2_NT
						   : BENCH_KERNEL_FILL_SSE2_NT;
	/* AVX2 stores where the CPU has them; else rep stosq with fast strings
	 * (1, 2 and 4-byte pixels: a 3-byte pixel has no repeating qword); else
	 * SSE2.  rep stos is not steady in cache: on an AMD EPYC with ERMS and
	 * FSRM, two runs of make bench filled the 8 MB in-cache frame with
	 * stos at 98 GB/s in one and at 37 GB/s (the non-temporal rate) in the
	 * other, glibc's memset (rep stosb) alike, where avx2 ran at 89-91 GB/s
	 * in both.  Not the -pfw kernels: with a
	 * shuffled order avx2-pfw measured 0.84-0.86 of memset and avx2
	 * 0.86-0.87 on a Zen 1. */
	if (bench_kernel_cpu_has_avx2())
		return BENCH_KERNEL_FILL_AVX2;
	if (bpp != 24 && bench_kernel_cpu_has_erms())
		return BENCH_KERNEL_FILL_STOS;
	return BENCH_KERNEL_FILL_SSE2;
}

enum bench_kernel_copy_method bench_kernel_copy_choose(size_t bytes)
{
	if (BENCH_KERNEL_X86 && bytes >= bench_kernel_nt_threshold())
		return bench_kernel_cpu_has_avx2() ? BENCH_KERNEL_COPY_AVX2_NT
						   : BENCH_KERNEL_COPY_SSE2_NT;
	return BENCH_KERNEL_COPY_MEMMOVE;
}

/* ---- pixels ---- */

size_t bench_kernel_row_bytes(unsigned bpp, unsigned w)
{
	return ((size_t)w * bpp + 7) / 8;
}

/* A surface holds pixels as stored: 15 bpp is a 16-bit surface. */
static bool bpp_valid(unsigned bpp)
{
	return fb_pixel_bits_are_storage(bpp);
}

static uint32_t pixel_mask(unsigned bpp)
{
	return bpp >= 32 ? 0xffffffffu : (1u << bpp) - 1;
}

uint32_t bench_kernel_get_pixel(const struct bench_kernel_surface *s, unsigned x,
				unsigned y)
{
	const uint8_t *row = s->pixels + (size_t)y * s->stride;

	if (s->bpp < 8) {
		size_t bit = (size_t)x * s->bpp;
		return (row[bit / 8] >> (bit % 8)) & pixel_mask(s->bpp);
	}
	const uint8_t *p = row + (size_t)x * (s->bpp / 8);
	uint32_t v = 0;
	for (unsigned i = 0; i < s->bpp / 8; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

void bench_kernel_put_pixel(const struct bench_kernel_surface *s, unsigned x, unsigned y,
			    uint32_t pixel)
{
	uint8_t *row = s->pixels + (size_t)y * s->stride;

	pixel &= pixel_mask(s->bpp);
	if (s->bpp < 8) {
		size_t bit = (size_t)x * s->bpp;
		uint8_t m = (uint8_t)(pixel_mask(s->bpp) << (bit % 8));
		row[bit / 8] = (uint8_t)((row[bit / 8] & ~m) | (pixel << (bit % 8)));
		return;
	}
	uint8_t *p = row + (size_t)x * (s->bpp / 8);
	for (unsigned i = 0; i < s->bpp / 8; i++)
		p[i] = (uint8_t)(pixel >> (8 * i));
}

bool bench_kernel_pixel_is_byte_uniform(unsigned bpp, uint32_t pixel, uint8_t *byte)
{
	pixel &= pixel_mask(bpp);
	if (bpp < 8) {
		uint8_t b = 0;
		for (unsigned i = 0; i < 8; i += bpp)
			b |= (uint8_t)(pixel << i);
		*byte = b;
		return true;
	}
	*byte = (uint8_t)pixel;
	for (unsigned i = 1; i < bpp / 8; i++)
		if ((uint8_t)(pixel >> (8 * i)) != *byte)
			return false;
	return true;
}

/* ---- fill rows ---- */

/* The pixel repeated from byte 0 of a row; long enough for every load below. */
#define PAT_LEN 160
struct pattern {
	uint8_t b[PAT_LEN];
	unsigned period; /* bytes per pixel: 1..4 */
};

static void pattern_init(struct pattern *pat, unsigned bpp, uint32_t pixel)
{
	pat->period = bpp / 8;
	for (unsigned i = 0; i < PAT_LEN; i++)
		pat->b[i] = (uint8_t)(pixel >> (8 * (i % pat->period)));
}

/*
 * One row of n bytes at d; V-byte stores of type VT, vectors built with LOAD
 * from the pattern at the phase of the aligned start.  The body writes 192
 * bytes a step: three cache lines, and a whole number of periods of a 3-byte
 * pixel for every V.  AHEAD > 0 adds a PREFETCH of the lines AHEAD bytes on
 * (prefetchw: ask for the line in the modified state before the stores reach
 * it); the last AHEAD bytes are stored without, so nothing past the row is
 * prefetched.
 */
#define FILL_STEP 192
#define DEFINE_FILL_ROW(name, attr, VT, V, LOAD, STORE, AHEAD, PREFETCH)                  \
	static attr void name(uint8_t *d, size_t n, const struct pattern *pat)            \
	{                                                                                 \
		size_t h = (size_t)(-(uintptr_t)d) & (V - 1);                             \
		unsigned P = pat->period;                                                 \
		if (n < h + 3 * V) {                                                      \
			while (n > 96) {                                                  \
				memcpy(d, pat->b, 96); /* 96: a multiple of 1, 2, 3, 4 */ \
				d += 96;                                                  \
				n -= 96;                                                  \
			}                                                                 \
			memcpy(d, pat->b, n);                                             \
			return;                                                           \
		}                                                                         \
		memcpy(d, pat->b, h);                                                     \
		VT v0 = LOAD(pat->b + h % P);                                             \
		VT v1 = LOAD(pat->b + (h + V) % P);                                       \
		VT v2 = LOAD(pat->b + (h + 2 * V) % P);                                   \
		uint8_t *p = d + h;                                                       \
		size_t left = n - h;                                                      \
		for (; AHEAD && left >= FILL_STEP + (size_t)(AHEAD);                      \
		     p += FILL_STEP, left -= FILL_STEP) {                                 \
			PREFETCH(p + (AHEAD));                                            \
			PREFETCH(p + (AHEAD) + 64);                                       \
			PREFETCH(p + (AHEAD) + 128);                                      \
			for (unsigned k = 0; k < FILL_STEP; k += 3 * V) {                 \
				STORE(p + k, v0);                                         \
				STORE(p + k + V, v1);                                     \
				STORE(p + k + 2 * V, v2);                                 \
			}                                                                 \
		}                                                                         \
		for (; left >= FILL_STEP; p += FILL_STEP, left -= FILL_STEP)              \
			for (unsigned k = 0; k < FILL_STEP; k += 3 * V) {                 \
				STORE(p + k, v0);                                         \
				STORE(p + k + V, v1);                                     \
				STORE(p + k + 2 * V, v2);                                 \
			}                                                                 \
		for (; left >= 3 * V; p += 3 * V, left -= 3 * V) {                        \
			STORE(p, v0);                                                     \
			STORE(p + V, v1);                                                 \
			STORE(p + 2 * V, v2);                                             \
		}                                                                         \
		if (left >= V) {                                                          \
			STORE(p, v0);                                                     \
			p += V;                                                           \
			left -= V;                                                        \
			if (left >= V) {                                                  \
				STORE(p, v1);                                             \
				p += V;                                                   \
				left -= V;                                                \
			}                                                                 \
		}                                                                         \
		memcpy(p, pat->b + (size_t)(p - d) % P, left);                            \
	}

#define NO_PREFETCH(p) ((void)(p))

static inline uint32_t load32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t load64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* volatile: fbtest's loop, one 32-bit store each, not turned into anything else */
#define STORE32(p, v) (*(volatile uint32_t *)(void *)(p) = (v))
#define STORE64(p, v) (*(volatile uint64_t *)(void *)(p) = (v))
DEFINE_FILL_ROW(fill_row_scalar32, , uint32_t, 4, load32, STORE32, 0, NO_PREFETCH)
DEFINE_FILL_ROW(fill_row_u64, , uint64_t, 8, load64, STORE64, 0, NO_PREFETCH)

#if BENCH_KERNEL_X86
#define LOADU128(p)	_mm_loadu_si128((const __m128i *)(const void *)(p))
#define STORE128(p, v)	_mm_store_si128((__m128i *)(void *)(p), (v))
#define STREAM128(p, v) _mm_stream_si128((__m128i *)(void *)(p), (v))
#define LOADU256(p)	_mm256_loadu_si256((const __m256i *)(const void *)(p))
#define STORE256(p, v)	_mm256_store_si256((__m256i *)(void *)(p), (v))
#define STREAM256(p, v) _mm256_stream_si256((__m256i *)(void *)(p), (v))
/*
 * prefetchw 768 bytes (12 lines) ahead: a 1920x1080 24 bpp AVX2 fill in L3
 * went from ~0.8 to ~0.9 of memset (rep stosb) in a micro-benchmark here, but
 * not in make bench once its method order was shuffled; kept as methods to
 * measure, not chosen by AUTO.  256 ahead did not help, 1536 or more lost.  Ignored on UC and WC mappings, so harmless on a
 * framebuffer.
 */
#define PREFETCH_AHEAD 768
/* prefetchw where the function is built with target("prfchw"); gcc and
 * clang both emit it for a write prefetch (clang has no _m_prefetchw
 * without -mprfchw on the whole file) */
#define PREFETCHW(p) __builtin_prefetch((p), 1, 3)
DEFINE_FILL_ROW(fill_row_sse2, , __m128i, 16, LOADU128, STORE128, 0, NO_PREFETCH)
DEFINE_FILL_ROW(fill_row_sse2_pfw, __attribute__((target("prfchw"))), __m128i, 16,
		LOADU128, STORE128, PREFETCH_AHEAD, PREFETCHW)
DEFINE_FILL_ROW(fill_row_sse2_nt, , __m128i, 16, LOADU128, STREAM128, 0, NO_PREFETCH)
DEFINE_FILL_ROW(fill_row_avx2, __attribute__((target("avx2"))), __m256i, 32, LOADU256,
		STORE256, 0, NO_PREFETCH)
DEFINE_FILL_ROW(fill_row_avx2_pfw, __attribute__((target("avx2,prfchw"))), __m256i, 32,
		LOADU256, STORE256, PREFETCH_AHEAD, PREFETCHW)
DEFINE_FILL_ROW(fill_row_avx2_nt, __attribute__((target("avx2"))), __m256i, 32, LOADU256,
		STREAM256, 0, NO_PREFETCH)

/*
 * rep stosq for 1, 2 and 4-byte pixels: the qword repeats.  3-byte pixels have
 * no repeating qword: a 64-bit store loop (rep movsb from a pattern measured
 * slower than AVX2 stores here, so it is not kept).
 */
static void fill_row_stos(uint8_t *d, size_t n, const struct pattern *pat)
{
	unsigned P = pat->period;
	size_t h = (size_t)(-(uintptr_t)d) & 7;

	if (P == 3 || n < h + 64) {
		fill_row_u64(d, n, pat);
		return;
	}
	memcpy(d, pat->b, h);
	uint64_t q = load64(pat->b + h % P);
	uint8_t *p = d + h;
	size_t count = (n - h) / 8;
	size_t tail = (n - h) % 8;

	__asm__ volatile("rep stosq" : "+D"(p), "+c"(count) : "a"(q) : "memory");
	memcpy(p, pat->b + (size_t)(p - d) % P, tail);
}
#endif

typedef void (*fill_row_fn)(uint8_t *d, size_t n, const struct pattern *pat);

static fill_row_fn fill_row_for(enum bench_kernel_fill_method m)
{
	switch (m) {
	case BENCH_KERNEL_FILL_SCALAR32:
		return fill_row_scalar32;
#if BENCH_KERNEL_X86
	case BENCH_KERNEL_FILL_STOS:
		return fill_row_stos;
	case BENCH_KERNEL_FILL_SSE2:
		return fill_row_sse2;
	case BENCH_KERNEL_FILL_SSE2_NT:
		return fill_row_sse2_nt;
	case BENCH_KERNEL_FILL_AVX2:
		return fill_row_avx2;
	case BENCH_KERNEL_FILL_SSE2_PFW:
		return fill_row_sse2_pfw;
	case BENCH_KERNEL_FILL_AVX2_PFW:
		return fill_row_avx2_pfw;
	case BENCH_KERNEL_FILL_AVX2_NT:
		return fill_row_avx2_nt;
#endif
	default:
		return NULL;
	}
}

static bool method_is_nt(enum bench_kernel_fill_method m)
{
	return m == BENCH_KERNEL_FILL_SSE2_NT || m == BENCH_KERNEL_FILL_AVX2_NT;
}

static void store_fence(void)
{
#if BENCH_KERNEL_X86
	_mm_sfence();
#endif
}

bool bench_kernel_fill_method_usable(enum bench_kernel_fill_method m,
				     const struct bench_kernel_surface *s, uint32_t pixel)
{
	uint8_t byte;

	if (!bpp_valid(s->bpp) || !bench_kernel_fill_method_cpu_ok(m))
		return false;
	switch (m) {
	case BENCH_KERNEL_FILL_AUTO:
	case BENCH_KERNEL_FILL_REFERENCE:
		return true;
	case BENCH_KERNEL_FILL_MEMSET:
		return bench_kernel_pixel_is_byte_uniform(s->bpp, pixel, &byte);
	case BENCH_KERNEL_FILL_PIXMAN:
		return (s->bpp == 8 || s->bpp == 16 || s->bpp == 32) &&
		       s->stride % 4 == 0 && ((uintptr_t)s->pixels & 3) == 0 &&
		       s->stride / 4 <= INT32_MAX;
	default:
		return s->bpp >= 8;
	}
}

/* Sub-byte pixels: whole bytes with memset, the edge pixels one by one. */
static void fill_subbyte(const struct bench_kernel_surface *s, unsigned x, unsigned y,
			 unsigned w, unsigned h, uint32_t pixel)
{
	unsigned ppb = 8 / s->bpp; /* pixels per byte */
	uint8_t byte;

	bench_kernel_pixel_is_byte_uniform(s->bpp, pixel, &byte);
	for (unsigned r = y; r < y + h; r++) {
		unsigned c = x, end = x + w;

		while (c < end && c % ppb)
			bench_kernel_put_pixel(s, c++, r, pixel);
		if (end - c >= ppb) {
			size_t nbytes = (end - c) / ppb;
			memset(s->pixels + (size_t)r * s->stride + c / ppb, byte, nbytes);
			c += (unsigned)nbytes * ppb;
		}
		while (c < end)
			bench_kernel_put_pixel(s, c++, r, pixel);
	}
}

static bool rect_inside(const struct bench_kernel_surface *s, unsigned x, unsigned y,
			unsigned w, unsigned h)
{
	return x <= s->width && w <= s->width - x && y <= s->height &&
	       h <= s->height - y &&
	       bench_kernel_row_bytes(s->bpp, s->width) <= s->stride;
}

static __typeof__(pixman_fill) *bench_kernel_pixman_fill;
static __typeof__(pixman_blt) *bench_kernel_pixman_blt;

static bool bench_kernel_pixman_load(void)
{
	return fb_pixman_load(&bench_kernel_pixman_fill, &bench_kernel_pixman_blt) == 0;
}

int bench_kernel_fill(const struct bench_kernel_surface *s, unsigned x, unsigned y,
		      unsigned w, unsigned h, uint32_t pixel,
		      enum bench_kernel_fill_method m)
{
	if (!bpp_valid(s->bpp) || !rect_inside(s, x, y, w, h))
		return -EINVAL;
	if (!bench_kernel_fill_method_usable(m, s, pixel))
		return -ENOTSUP;
	if (w == 0 || h == 0)
		return 0;
	pixel &= pixel_mask(s->bpp);
	if (m == BENCH_KERNEL_FILL_AUTO)
		m = bench_kernel_fill_choose(bench_kernel_row_bytes(s->bpp, w) * h,
					     s->bpp);

	if (m == BENCH_KERNEL_FILL_REFERENCE) {
		for (unsigned r = y; r < y + h; r++)
			for (unsigned c = x; c < x + w; c++)
				bench_kernel_put_pixel(s, c, r, pixel);
		return 0;
	}
	if (s->bpp < 8) {
		fill_subbyte(s, x, y, w, h, pixel);
		return 0;
	}

	unsigned Bpp = s->bpp / 8;
	size_t n = (size_t)w * Bpp;
	uint8_t *row = s->pixels + (size_t)y * s->stride + (size_t)x * Bpp;

	if (m == BENCH_KERNEL_FILL_MEMSET) {
		if (s->stride == n) {
			memset(row, (int)(pixel & 0xff), n * h);
			return 0;
		}
		for (unsigned r = 0; r < h; r++, row += s->stride)
			memset(row, (int)(pixel & 0xff), n);
		return 0;
	}
	if (m == BENCH_KERNEL_FILL_PIXMAN) {
		if (!bench_kernel_pixman_load() ||
		    !bench_kernel_pixman_fill((uint32_t *)(void *)s->pixels,
					      (int)(s->stride / 4), (int)s->bpp, (int)x,
					      (int)y, (int)w, (int)h, pixel))
			return -ENOTSUP;
		return 0;
	}

	fill_row_fn fn = fill_row_for(m);
	struct pattern pat;

	if (!fn)
		return -ENOTSUP;
	pattern_init(&pat, s->bpp, pixel);
	/* Contiguous rows are one long row: the pattern continues, 96 % Bpp == 0. */
	if (s->stride == n) {
		fn(row, n * h, &pat);
	} else {
		for (unsigned r = 0; r < h; r++, row += s->stride)
			fn(row, n, &pat);
	}
	if (method_is_nt(m))
		store_fence();
	return 0;
}

/* ---- copy rows ---- */

/* Copy n bytes forward; callers guarantee d <= s or no overlap. */
typedef void (*copy_row_fn)(uint8_t *d, const uint8_t *s, size_t n);

/* The bytes before the first aligned one (head) go by memmove, and *d, *s,
 * *n move past them.  False when the row is shorter than head + body: then
 * memmove did it all. */
static inline bool copy_row_head(uint8_t **d, const uint8_t **s, size_t *n, size_t head,
				 size_t body)
{
	if (*n < head + body) {
		memmove(*d, *s, *n);
		return false;
	}
	memmove(*d, *s, head);
	*d += head;
	*s += head;
	*n -= head;
	return true;
}

static void copy_row_scalar32(uint8_t *d, const uint8_t *s, size_t n)
{
	if (!copy_row_head(&d, &s, &n, (size_t)(-(uintptr_t)d) & 3, 4))
		return;
	for (; n >= 4; n -= 4, d += 4, s += 4) {
		uint32_t v;
		memcpy(&v, s, 4);
		STORE32(d, v);
	}
	memmove(d, s, n);
}

#if BENCH_KERNEL_X86
/* Four loads, then four stores: safe for a forward copy with d < s overlapping. */
#define DEFINE_COPY_ROW(name, attr, VT, V, LOAD, STORE)                       \
	static attr void name(uint8_t *d, const uint8_t *s, size_t n)         \
	{                                                                     \
		size_t h = (size_t)(-(uintptr_t)d) & (V - 1);                 \
		if (!copy_row_head(&d, &s, &n, h, 4 * V))                     \
			return;                                               \
		for (; n >= 4 * V; n -= 4 * V, d += 4 * V, s += 4 * V) {      \
			VT a = LOAD(s), b = LOAD(s + V), c = LOAD(s + 2 * V), \
			   e = LOAD(s + 3 * V);                               \
			STORE(d, a);                                          \
			STORE(d + V, b);                                      \
			STORE(d + 2 * V, c);                                  \
			STORE(d + 3 * V, e);                                  \
		}                                                             \
		memmove(d, s, n);                                             \
	}

DEFINE_COPY_ROW(copy_row_sse2_nt, , __m128i, 16, LOADU128, STREAM128)
DEFINE_COPY_ROW(copy_row_avx2_nt, __attribute__((target("avx2"))), __m256i, 32, LOADU256,
		STREAM256)

/* movntdqa needs an aligned source: align s, store unaligned. */
__attribute__((target("sse4.1"))) static void copy_row_sse41_load(uint8_t *d,
								  const uint8_t *s,
								  size_t n)
{
	if (!copy_row_head(&d, &s, &n, (size_t)(-(uintptr_t)s) & 15, 64))
		return;
	for (; n >= 64; n -= 64, d += 64, s += 64) {
		__m128i a = _mm_stream_load_si128((__m128i *)(void *)s);
		__m128i b = _mm_stream_load_si128((__m128i *)(void *)(s + 16));
		__m128i c = _mm_stream_load_si128((__m128i *)(void *)(s + 32));
		__m128i e = _mm_stream_load_si128((__m128i *)(void *)(s + 48));
		_mm_storeu_si128((__m128i *)(void *)d, a);
		_mm_storeu_si128((__m128i *)(void *)(d + 16), b);
		_mm_storeu_si128((__m128i *)(void *)(d + 32), c);
		_mm_storeu_si128((__m128i *)(void *)(d + 48), e);
	}
	memmove(d, s, n);
}
#endif

static void copy_row_memcpy(uint8_t *d, const uint8_t *s, size_t n)
{
	if (d + n <= s || s + n <= d)
		memcpy(d, s, n);
	else
		memmove(d, s, n);
}

static void copy_row_memmove(uint8_t *d, const uint8_t *s, size_t n)
{
	memmove(d, s, n);
}

static copy_row_fn copy_row_for(enum bench_kernel_copy_method m)
{
	switch (m) {
	case BENCH_KERNEL_COPY_MEMCPY:
		return copy_row_memcpy;
	case BENCH_KERNEL_COPY_MEMMOVE:
		return copy_row_memmove;
	case BENCH_KERNEL_COPY_SCALAR32:
		return copy_row_scalar32;
#if BENCH_KERNEL_X86
	case BENCH_KERNEL_COPY_SSE2_NT:
		return copy_row_sse2_nt;
	case BENCH_KERNEL_COPY_AVX2_NT:
		return copy_row_avx2_nt;
	case BENCH_KERNEL_COPY_SSE41_LOAD:
		return copy_row_sse41_load;
#endif
	default:
		return NULL;
	}
}

bool bench_kernel_copy_method_usable(enum bench_kernel_copy_method m,
				     const struct bench_kernel_surface *dst,
				     const struct bench_kernel_surface *src)
{
	if (!bpp_valid(dst->bpp) || dst->bpp != src->bpp ||
	    !bench_kernel_copy_method_cpu_ok(m))
		return false;
	/* pixman_blt's SSE2 and MMX paths refuse 8 bpp; the general one has none */
	if (m == BENCH_KERNEL_COPY_PIXMAN)
		return (dst->bpp == 16 || dst->bpp == 32) && dst->stride % 4 == 0 &&
		       src->stride % 4 == 0 && ((uintptr_t)dst->pixels & 3) == 0 &&
		       ((uintptr_t)src->pixels & 3) == 0;
	return true;
}

static void copy_reference(const struct bench_kernel_surface *dst, unsigned dx,
			   unsigned dy, const struct bench_kernel_surface *src,
			   unsigned sx, unsigned sy, unsigned w, unsigned h)
{
	/* Through a temporary row set would be simplest; walk in a safe order. */
	bool backward = dst->pixels + (size_t)dy * dst->stride +
				bench_kernel_row_bytes(dst->bpp, dx) >
			src->pixels + (size_t)sy * src->stride +
				bench_kernel_row_bytes(src->bpp, sx);

	for (unsigned i = 0; i < h; i++) {
		unsigned r = backward ? h - 1 - i : i;
		for (unsigned j = 0; j < w; j++) {
			unsigned c = backward ? w - 1 - j : j;
			bench_kernel_put_pixel(dst, dx + c, dy + r,
					       bench_kernel_get_pixel(src, sx + c,
								      sy + r));
		}
	}
}

int bench_kernel_copy(const struct bench_kernel_surface *dst, unsigned dx, unsigned dy,
		      const struct bench_kernel_surface *src, unsigned sx, unsigned sy,
		      unsigned w, unsigned h, enum bench_kernel_copy_method m)
{
	if (!bpp_valid(dst->bpp) || !rect_inside(dst, dx, dy, w, h) ||
	    !rect_inside(src, sx, sy, w, h))
		return -EINVAL;
	if (!bench_kernel_copy_method_usable(m, dst, src))
		return -ENOTSUP;
	if (w == 0 || h == 0)
		return 0;
	if (m == BENCH_KERNEL_COPY_AUTO)
		m = bench_kernel_copy_choose(bench_kernel_row_bytes(dst->bpp, w) * h);
	/* Sub-byte pixels not starting on a byte, or ending inside one: exact path. */
	if (m == BENCH_KERNEL_COPY_REFERENCE ||
	    (dst->bpp < 8 &&
	     ((dx * dst->bpp) % 8 || (sx * dst->bpp) % 8 || (w * dst->bpp) % 8))) {
		copy_reference(dst, dx, dy, src, sx, sy, w, h);
		return 0;
	}

	size_t n = bench_kernel_row_bytes(dst->bpp, w);
	uint8_t *d = dst->pixels + (size_t)dy * dst->stride +
		     bench_kernel_row_bytes(dst->bpp, dx);
	const uint8_t *s = src->pixels + (size_t)sy * src->stride +
			   bench_kernel_row_bytes(src->bpp, sx);

	if (m == BENCH_KERNEL_COPY_PIXMAN) {
		/* pixman_blt walks rows top to bottom: only safe when d is not below s. */
		if (dst->pixels == src->pixels && d > s && d < s + (size_t)h * src->stride)
			return -ENOTSUP;
		if (!bench_kernel_pixman_load() ||
		    !bench_kernel_pixman_blt((uint32_t *)(void *)src->pixels,
					     (uint32_t *)(void *)dst->pixels,
					     (int)(src->stride / 4),
					     (int)(dst->stride / 4), (int)src->bpp,
					     (int)dst->bpp, (int)sx, (int)sy, (int)dx,
					     (int)dy, (int)w, (int)h))
			return -ENOTSUP;
		return 0;
	}

	copy_row_fn fn = copy_row_for(m);
	if (!fn)
		return -ENOTSUP;

	/* Whole contiguous rows on both sides: one long row. */
	if (dst->stride == n && src->stride == n) {
		n *= h;
		h = 1;
	}
	/* Rows bottom-up when the destination lies after the source. */
	bool backward = d > s;
	for (unsigned i = 0; i < h; i++) {
		unsigned r = backward ? h - 1 - i : i;
		uint8_t *dr = d + (size_t)r * dst->stride;
		const uint8_t *sr = s + (size_t)r * src->stride;

		if (dr > sr && dr < sr + n)
			memmove(dr, sr, n); /* only a backward copy is safe */
		else
			fn(dr, sr, n);
	}
	if (m == BENCH_KERNEL_COPY_SSE2_NT || m == BENCH_KERNEL_COPY_AVX2_NT)
		store_fence();
	return 0;
}
