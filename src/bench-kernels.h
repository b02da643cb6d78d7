/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * Pattern-fill and copy kernels for packed pixel surfaces (framebuffer or RAM).
 *
 * A fill has an arbitrary colour, so memset only serves when every byte of the
 * pixel is the same.  Every kernel writes whole bytes inside the rectangle and
 * nothing else: row padding and pixels outside are never touched, and no
 * kernel reads the destination (no read-modify-write, even at 24 bpp), except
 * the generic sub-byte path (1, 2, 4 bpp), which must merge edge pixels.
 *
 * Pixels are stored little-endian, the first pixel of a sub-byte group in the
 * least significant bits, as the kernel's cfb/sys drawing code does on x86.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench-cpu.h"

struct bench_kernel_surface {
	uint8_t *pixels; /* first byte of row 0 */
	size_t stride; /* bytes per line (line_length), >= the row bytes */
	unsigned width; /* pixels per row */
	unsigned height; /* rows */
	unsigned bpp; /* bits per pixel: 1, 2, 4, 8, 16, 24 or 32 */
};

enum bench_kernel_fill_method {
	BENCH_KERNEL_FILL_AUTO, /* best for the size and CPU: see bench_kernel_fill_choose() */
	BENCH_KERNEL_FILL_MEMSET, /* glibc memset; only when every byte of the pixel agrees */
	BENCH_KERNEL_FILL_SCALAR32, /* 32-bit stores, as fbtest does */
	BENCH_KERNEL_FILL_STOS, /* rep stosq (a 64-bit store loop at 24 bpp) */
	BENCH_KERNEL_FILL_SSE2, /* 16-byte temporal stores */
	BENCH_KERNEL_FILL_SSE2_NT, /* 16-byte non-temporal stores (movntdq) */
	BENCH_KERNEL_FILL_AVX2, /* 32-byte temporal stores */
	BENCH_KERNEL_FILL_AVX2_NT, /* 32-byte non-temporal stores (vmovntdq) */
	BENCH_KERNEL_FILL_PIXMAN, /* pixman_fill: 8, 16, 32 bpp, stride a multiple of 4 */
	BENCH_KERNEL_FILL_REFERENCE, /* one pixel at a time; the oracle of the tests */
	BENCH_KERNEL_FILL_SSE2_PFW, /* BENCH_KERNEL_FILL_SSE2 with prefetchw ahead of the stores */
	BENCH_KERNEL_FILL_AVX2_PFW, /* BENCH_KERNEL_FILL_AVX2 with prefetchw ahead of the stores */
	_BENCH_KERNEL_FILL_MAX,
};

enum bench_kernel_copy_method {
	BENCH_KERNEL_COPY_AUTO,
	BENCH_KERNEL_COPY_MEMCPY, /* glibc memcpy per row (memmove where rows overlap) */
	BENCH_KERNEL_COPY_MEMMOVE, /* glibc memmove, one call when rows are contiguous */
	BENCH_KERNEL_COPY_SCALAR32, /* 32-bit loads and stores, as fbtest does */
	BENCH_KERNEL_COPY_SSE2_NT, /* unaligned loads, non-temporal 16-byte stores */
	BENCH_KERNEL_COPY_AVX2_NT, /* unaligned loads, non-temporal 32-byte stores */
	BENCH_KERNEL_COPY_SSE41_LOAD, /* movntdqa streaming loads (for reads from WC memory) */
	BENCH_KERNEL_COPY_PIXMAN, /* pixman_blt: 16, 32 bpp, strides multiples of 4 */
	BENCH_KERNEL_COPY_REFERENCE,
	_BENCH_KERNEL_COPY_MAX,
};

const char *bench_kernel_fill_method_name(enum bench_kernel_fill_method m);
const char *bench_kernel_copy_method_name(enum bench_kernel_copy_method m);
/* -1 when unknown. */
int bench_kernel_fill_method_from_name(const char *name);
int bench_kernel_copy_method_from_name(const char *name);

/* The CPU has what the method needs (AVX2, SSE4.1); no surface checks. */
bool bench_kernel_fill_method_cpu_ok(enum bench_kernel_fill_method m);
bool bench_kernel_copy_method_cpu_ok(enum bench_kernel_copy_method m);
/* The method can fill s with pixel: CPU, bpp, alignment, uniform bytes. */
bool bench_kernel_fill_method_usable(enum bench_kernel_fill_method m,
				     const struct bench_kernel_surface *s,
				     uint32_t pixel);
bool bench_kernel_copy_method_usable(enum bench_kernel_copy_method m,
				     const struct bench_kernel_surface *dst,
				     const struct bench_kernel_surface *src);

/* What AUTO runs for a fill or copy touching `bytes` bytes. */
enum bench_kernel_fill_method bench_kernel_fill_choose(size_t bytes, unsigned bpp);
enum bench_kernel_copy_method bench_kernel_copy_choose(size_t bytes);

/* Fill the w×h rectangle at x,y with pixel (low bpp bits).  Returns 0,
 * -EINVAL (rectangle outside, bad bpp) or -ENOTSUP (method not usable). */
int bench_kernel_fill(const struct bench_kernel_surface *s, unsigned x, unsigned y,
		      unsigned w, unsigned h, uint32_t pixel,
		      enum bench_kernel_fill_method m);

/* Copy a w×h rectangle from src at sx,sy to dst at dx,dy.  src and dst may be
 * the same memory and overlap (a scroll); the result is as if through a
 * temporary buffer.  Same bpp on both sides.  Returns 0, -EINVAL or -ENOTSUP. */
int bench_kernel_copy(const struct bench_kernel_surface *dst, unsigned dx, unsigned dy,
		      const struct bench_kernel_surface *src, unsigned sx, unsigned sy,
		      unsigned w, unsigned h, enum bench_kernel_copy_method m);

/* Slow reference accessors, any supported bpp. */
uint32_t bench_kernel_get_pixel(const struct bench_kernel_surface *s, unsigned x,
				unsigned y);
void bench_kernel_put_pixel(const struct bench_kernel_surface *s, unsigned x, unsigned y,
			    uint32_t pixel);
/* Bytes that hold the first w pixels of a row (rounded up). */
size_t bench_kernel_row_bytes(unsigned bpp, unsigned w);
/* The pixel repeated to fill one byte (bpp <= 8) or its low byte otherwise;
 * true when every byte of the stored pixel is that byte (memset can fill). */
bool bench_kernel_pixel_is_byte_uniform(unsigned bpp, uint32_t pixel, uint8_t *byte);
