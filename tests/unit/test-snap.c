/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* snap: every pixel format on synthetic buffers (odd widths, offsets,
 * stride padding), full-range expansion, and a PNG round trip through
 * libpng's own reader. */
#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "macro.h"
#include "snap.h"
#include "test.h"

struct fmt_case {
	const char *name; /* what fb_pixel_format_decode calls it */
	unsigned bpp;
	uint32_t visual;
	unsigned grayscale;
	unsigned ro, rl, go, gl, bo, bl, to, tl;
};

#define RGBC(n, bpp, ro, rl, go, gl, bo, bl, to, tl)                           \
	{                                                                      \
		n, bpp, FB_VISUAL_TRUECOLOR, 0, ro, rl, go, gl, bo, bl, to, tl \
	}

static const struct fmt_case cases[] = {
	RGBC("XRGB8888", 32, 16, 8, 8, 8, 0, 8, 0, 0),
	RGBC("ARGB8888", 32, 16, 8, 8, 8, 0, 8, 24, 8),
	RGBC("XBGR8888", 32, 0, 8, 8, 8, 16, 8, 0, 0),
	RGBC("RGB888", 24, 16, 8, 8, 8, 0, 8, 0, 0),
	RGBC("BGR888", 24, 0, 8, 8, 8, 16, 8, 0, 0),
	RGBC("RGB565", 16, 11, 5, 5, 6, 0, 5, 0, 0),
	RGBC("BGR565", 16, 0, 5, 5, 6, 11, 5, 0, 0),
	RGBC("XRGB1555", 16, 10, 5, 5, 5, 0, 5, 0, 0),
	RGBC("ARGB1555", 16, 10, 5, 5, 5, 0, 5, 15, 1),
	RGBC("XRGB2101010", 32, 20, 10, 10, 10, 0, 10, 0, 0),
	{ "C8", 8, FB_VISUAL_PSEUDOCOLOR, 0, 0, 8, 0, 8, 0, 8, 0, 0 },
	{ "C4", 4, FB_VISUAL_PSEUDOCOLOR, 0, 0, 4, 0, 4, 0, 4, 0, 0 },
	{ "C2", 2, FB_VISUAL_PSEUDOCOLOR, 0, 0, 2, 0, 2, 0, 2, 0, 0 },
	{ "C1", 1, FB_VISUAL_PSEUDOCOLOR, 0, 0, 1, 0, 1, 0, 1, 0, 0 },
	{ "R8", 8, FB_VISUAL_TRUECOLOR, 1, 0, 8, 0, 8, 0, 8, 0, 0 },
	{ "R4", 4, FB_VISUAL_TRUECOLOR, 1, 0, 4, 0, 4, 0, 4, 0, 0 },
	{ "R1", 1, FB_VISUAL_MONO10, 0, 0, 1, 0, 1, 0, 1, 0, 0 },
	{ "R1_INVERTED", 1, FB_VISUAL_MONO01, 0, 0, 1, 0, 1, 0, 1, 0, 0 },
	/* DIRECTCOLOR: each component indexes its cmap ramp */
	{ "RGB565", 16, FB_VISUAL_DIRECTCOLOR, 0, 11, 5, 5, 6, 0, 5, 0, 0 },
	{ "XRGB8888", 32, FB_VISUAL_DIRECTCOLOR, 0, 16, 8, 8, 8, 0, 8, 0, 0 },
	/* bits_per_pixel 15: RGB555 stored in 16 bits, as fbdev drivers do */
	RGBC("RGB555", 15, 10, 5, 5, 5, 0, 5, 0, 0),
};

static unsigned rnd_state = 12345;
static uint32_t rnd(uint32_t below)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return (rnd_state >> 8) % below;
}

/* The oracle: full range by floating-point rounding, independent of the
 * integer formula in snap.c. */
static uint8_t oracle8(uint32_t v, unsigned len)
{
	return (uint8_t)lround(v * 255.0 / (double)((1ull << len) - 1));
}

static void store(uint8_t *line, unsigned x, unsigned bpp, uint32_t px)
{
	if (bpp < 8) {
		unsigned bit = x * bpp, shift = 8 - bpp - bit % 8;
		uint8_t mask = (uint8_t)(((1u << bpp) - 1) << shift);

		line[bit / 8] = (uint8_t)((line[bit / 8] & ~mask) | (px << shift));
		return;
	}
	for (unsigned i = 0; i < bpp / 8; i++)
		line[x * (bpp / 8) + i] = (uint8_t)(px >> (8 * i));
}

static void make_hw(const struct fmt_case *c, struct fb_hwinfo *hw, unsigned line_length)
{
	memset(hw, 0, sizeof(*hw));
	hw->valid = true;
	hw->var.bits_per_pixel = c->bpp;
	hw->var.grayscale = c->grayscale;
	hw->var.red = (struct fb_bitfield){ c->ro, c->rl, 0 };
	hw->var.green = (struct fb_bitfield){ c->go, c->gl, 0 };
	hw->var.blue = (struct fb_bitfield){ c->bo, c->bl, 0 };
	hw->var.transp = (struct fb_bitfield){ c->to, c->tl, 0 };
	hw->fix.type = FB_TYPE_PACKED_PIXELS;
	hw->fix.visual = c->visual;
	hw->fix.line_length = line_length;
	if (c->visual == FB_VISUAL_PSEUDOCOLOR || c->visual == FB_VISUAL_DIRECTCOLOR) {
		unsigned bits = c->visual == FB_VISUAL_PSEUDOCOLOR ? c->bpp : c->gl;

		hw->cmap.len = bits >= 8 ? 256 : 1u << bits;
		for (unsigned i = 0; i < hw->cmap.len; i++) {
			hw->cmap.red[i] = (uint16_t)rnd(65536);
			hw->cmap.green[i] = (uint16_t)rnd(65536);
			hw->cmap.blue[i] = (uint16_t)rnd(65536);
		}
	}
}

/* One case at one geometry: pack random pixels, convert, compare. */
static void check_case(const struct fmt_case *c, unsigned w, unsigned h, unsigned xoff,
		       unsigned yoff, unsigned pad)
{
	unsigned stored = c->bpp == 15 ? 16 : c->bpp; /* bits in memory */
	unsigned line_length = ((xoff + w) * stored + 7) / 8 + pad;
	size_t len = (size_t)(yoff + h) * line_length;
	uint8_t *buf = malloc(len), *rgb = malloc((size_t)w * h * 3);
	uint8_t *want = malloc((size_t)w * h * 3);
	struct fb_hwinfo hw;
	struct fb_snap_format fmt;
	struct fb_pixel_format pf;
	struct fb_snap_area a = { xoff, yoff, w, h, line_length };
	const struct fb_cmap_copy *cm = &hw.cmap;
	unsigned bad = 0;

	make_hw(c, &hw, line_length);
	fb_pixel_format_decode(&hw.var, hw.fix.visual, &pf);
	ASSERT_STR_EQ(pf.name, c->name);
	ASSERT_INT_EQ(fb_snap_format_from_hw(&hw, &fmt, NULL), 0);
	memset(buf, 0x5a, len); /* padding and off-screen bytes: garbage */
	for (unsigned y = 0; y < h; y++) {
		for (unsigned x = 0; x < w; x++) {
			uint8_t *o = want + ((size_t)y * w + x) * 3;
			uint32_t px;

			if (c->visual == FB_VISUAL_PSEUDOCOLOR) {
				px = rnd(1u << c->bpp);
				o[0] = (uint8_t)(cm->red[px] >> 8);
				o[1] = (uint8_t)(cm->green[px] >> 8);
				o[2] = (uint8_t)(cm->blue[px] >> 8);
			} else if (c->grayscale || c->visual == FB_VISUAL_MONO10 ||
				   c->visual == FB_VISUAL_MONO01) {
				px = rnd(1u << c->bpp);
				o[0] = o[1] = o[2] =
					oracle8(c->visual == FB_VISUAL_MONO01
							? (~px & ((1u << c->bpp) - 1))
							: px,
						c->bpp);
			} else {
				uint32_t r = rnd(1u << c->rl), g = rnd(1u << c->gl),
					 b = rnd(1u << c->bl);

				px = r << c->ro | g << c->go | b << c->bo;
				if (c->tl)
					px |= rnd(1u << c->tl)
					      << c->to; /* alpha is ignored */
				if (c->visual == FB_VISUAL_DIRECTCOLOR) {
					o[0] = (uint8_t)(cm->red[r] >> 8);
					o[1] = (uint8_t)(cm->green[g] >> 8);
					o[2] = (uint8_t)(cm->blue[b] >> 8);
				} else {
					o[0] = oracle8(r, c->rl);
					o[1] = oracle8(g, c->gl);
					o[2] = oracle8(b, c->bl);
				}
			}
			store(buf + (size_t)(y + yoff) * line_length, x + xoff, stored,
			      px);
		}
	}
	ASSERT_INT_EQ(fb_snap_convert(buf, len, &a, &fmt, rgb), 0);
	for (size_t i = 0; i < (size_t)w * h * 3; i++)
		if (rgb[i] != want[i] && bad++ < 3)
			fprintf(stderr,
				"%s %s %ux%u+%u+%u pad %u: byte %zu (pixel %zu): %u != %u\n",
				c->name,
				c->visual == FB_VISUAL_DIRECTCOLOR ? "direct" : "", w, h,
				xoff, yoff, pad, i, i / 3, rgb[i], want[i]);
	ASSERT_INT_EQ(bad, 0);
	/* one byte short: refused, not read past the end */
	ASSERT_INT_EQ(fb_snap_convert(buf, len - 1, &a, &fmt, rgb), -ERANGE);
	free(buf);
	free(rgb);
	free(want);
}

static void test_formats(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		check_case(&cases[i], 1, 1, 0, 0, 0);
		check_case(&cases[i], 7, 3, 0, 0, 0);
		check_case(&cases[i], 13, 5, 3, 2, 5); /* odd width, offsets, padding */
		check_case(&cases[i], 33, 4, 11, 1, 1);
	}
}

static void test_expand(void)
{
	ASSERT_INT_EQ(fb_expand_to_8(31, 5), 255);
	ASSERT_INT_EQ(fb_expand_to_8(0, 5), 0);
	ASSERT_INT_EQ(fb_expand_to_8(16, 5), 132);
	ASSERT_INT_EQ(fb_expand_to_8(1, 5), 8);
	ASSERT_INT_EQ(fb_expand_to_8(63, 6), 255);
	ASSERT_INT_EQ(fb_expand_to_8(32, 6), 130);
	ASSERT_INT_EQ(fb_expand_to_8(1, 1), 255);
	ASSERT_INT_EQ(fb_expand_to_8(2, 2), 170);
	ASSERT_INT_EQ(fb_expand_to_8(255, 8), 255);
	ASSERT_INT_EQ(fb_expand_to_8(128, 8), 128);
	ASSERT_INT_EQ(fb_expand_to_8(1023, 10), 255);
	ASSERT_INT_EQ(fb_expand_to_8(512, 10), 128);
	ASSERT_INT_EQ(fb_expand_to_8(5, 0), 0);
	for (unsigned len = 1; len <= 12; len++)
		for (uint32_t v = 0; v < (1u << len); v++)
			if (fb_expand_to_8(v, len) != oracle8(v, len)) {
				ASSERT_INT_EQ(fb_expand_to_8(v, len), oracle8(v, len));
				break;
			}
}

static void test_refusals(void)
{
	struct fb_hwinfo hw;
	struct fb_snap_format fmt;
	struct fb_snap_area a = { 0, 0, 4, 1, 16 };
	uint8_t buf[64] = { 0 }, rgb[64];
	const char *why = NULL;

	make_hw(&cases[0], &hw, 16);
	ASSERT_INT_EQ(fb_snap_format_from_hw(&hw, &fmt, &why), 0);
	ASSERT_INT_EQ(fb_snap_convert(buf, sizeof(buf), &a, &fmt, rgb), 0);
	a.xoffset = 1; /* 5 pixels of 4 bytes do not fit in 16 bytes a line */
	ASSERT_INT_EQ(fb_snap_convert(buf, sizeof(buf), &a, &fmt, rgb), -ERANGE);
	a.xoffset = 0;
	a.yoffset = 4; /* line 4 ends at 80 > 64 */
	ASSERT_INT_EQ(fb_snap_convert(buf, sizeof(buf), &a, &fmt, rgb), -ERANGE);

	hw.var.grayscale = 0x34325258; /* "XR24" fourcc */
	ASSERT_INT_EQ(fb_snap_format_from_hw(&hw, &fmt, &why), -EOPNOTSUPP);
	ASSERT_TRUE(why && *why);
	make_hw(&cases[0], &hw, 16);
	hw.fix.type = FB_TYPE_PLANES;
	ASSERT_INT_EQ(fb_snap_format_from_hw(&hw, &fmt, &why), -EOPNOTSUPP);
	make_hw(&cases[0], &hw, 16);
	hw.var.bits_per_pixel = 12;
	ASSERT_INT_EQ(fb_snap_format_from_hw(&hw, &fmt, &why), -EOPNOTSUPP);

	/* C8 without a colour map */
	make_hw(&cases[10], &hw, 16);
	hw.cmap.len = 0;
	ASSERT_INT_EQ(fb_snap_format_from_hw(&hw, &fmt, NULL), 0);
	a = (struct fb_snap_area){ 0, 0, 4, 1, 16 };
	ASSERT_INT_EQ(fb_snap_convert(buf, sizeof(buf), &a, &fmt, rgb), -ENODATA);
}

static void test_png_round_trip(void)
{
	const unsigned w = 37, h = 11;
	uint8_t *rgb = malloc(w * h * 3), *back = malloc(w * h * 3);
	char path[256];
	png_image img;
	FILE *f;
	int fd;

	for (unsigned i = 0; i < w * h * 3; i++)
		rgb[i] = (uint8_t)rnd(256);
	rgb[0] = 255; /* full range survives */
	rgb[1] = 0;
	snprintf(path, sizeof(path), "%s/fbclass-snap.XXXXXX", getenv("TMPDIR") ?: "/tmp");
	fd = mkstemp(path);
	ASSERT_TRUE(fd >= 0);
	f = fdopen(fd, "w");
	ASSERT_TRUE(f != NULL);
	ASSERT_INT_EQ(fb_snap_write_png(f, rgb, w, h), 0);
	fclose(f);

	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	ASSERT_TRUE(png_image_begin_read_from_file(&img, path) != 0);
	ASSERT_INT_EQ(img.width, w);
	ASSERT_INT_EQ(img.height, h);
	ASSERT_INT_EQ(img.format, PNG_FORMAT_RGB); /* 8-bit RGB, no alpha */
	img.format = PNG_FORMAT_RGB;
	ASSERT_TRUE(png_image_finish_read(&img, NULL, back, 0, NULL) != 0);
	ASSERT_TRUE(memcmp(rgb, back, w * h * 3) == 0);
	png_image_free(&img);
	unlink(path);

	ASSERT_INT_EQ(fb_snap_write_png(stdout, rgb, 0, 1), -EINVAL);
	free(rgb);
	free(back);
}

/* A mapping whose file shrank faults with SIGBUS, as a mapping of a
 * removed device does: the copy must fail cleanly, not kill us. */
static void test_sigbus(void)
{
	char path[256];
	uint8_t dst[8192];
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *map;
	int fd;

	snprintf(path, sizeof(path), "%s/fbclass-bus.XXXXXX", getenv("TMPDIR") ?: "/tmp");
	fd = mkstemp(path);
	ASSERT_TRUE(fd >= 0);
	unlink(path);
	ASSERT_INT_EQ(ftruncate(fd, 2 * pg), 0);
	map = mmap(NULL, 2 * (size_t)pg, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_TRUE(map != MAP_FAILED);
	ASSERT_INT_EQ(fb_snap_copy_guarded(dst, map, 0, 2 * (size_t)pg), 0);
	ASSERT_INT_EQ(ftruncate(fd, 0), 0);
	ASSERT_INT_EQ(fb_snap_copy_guarded(dst, map, 0, 2 * (size_t)pg), -ENODEV);
	/* and the handler is gone again: a second guarded copy still works */
	ASSERT_INT_EQ(fb_snap_copy_guarded(dst, map, 0, 2 * (size_t)pg), -ENODEV);
	munmap(map, 2 * (size_t)pg);
	close(fd);
}

int main(void)
{
	test_sigbus();
	test_expand();
	test_formats();
	test_refusals();
	test_png_round_trip();
	return test_finish("test-snap");
}
