/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pattern: names, formats, every pattern's geometry, and the packing into
 * truecolor (RGB/BGR, 15 to 32 bpp, alpha), gray and pseudocolor at padded
 * strides.  The expected pixels come from a reference written here in
 * floating point and from literals worked out by hand, never from
 * pattern.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "pattern.h"
#include "test.h"

struct fmt_case {
	const char *name;
	unsigned bpp; /* bits_per_pixel as the driver reports it */
	unsigned ro, rl, go, gl, bo, bl, to, tl;
	/* by hand: red, green, blue, white, #804020 */
	uint32_t red, green, blue, white, brown;
};

static const struct fmt_case cases[] = {
	{ "XRGB8888", 32, 16, 8, 8, 8, 0, 8, 0, 0, 0x00ff0000, 0x0000ff00, 0x000000ff,
	  0x00ffffff, 0x00804020 },
	{ "ARGB8888", 32, 16, 8, 8, 8, 0, 8, 24, 8, 0xffff0000, 0xff00ff00, 0xff0000ff,
	  0xffffffff, 0xff804020 },
	{ "XBGR8888", 32, 0, 8, 8, 8, 16, 8, 0, 0, 0x000000ff, 0x0000ff00, 0x00ff0000,
	  0x00ffffff, 0x00204080 },
	{ "RGB888", 24, 16, 8, 8, 8, 0, 8, 0, 0, 0xff0000, 0x00ff00, 0x0000ff, 0xffffff,
	  0x804020 },
	{ "BGR888", 24, 0, 8, 8, 8, 16, 8, 0, 0, 0x0000ff, 0x00ff00, 0xff0000, 0xffffff,
	  0x204080 },
	/* 0x80 -> 16 of 31, 0x40 -> 16 of 63, 0x20 -> 4 of 31 */
	{ "RGB565", 16, 11, 5, 5, 6, 0, 5, 0, 0, 0xf800, 0x07e0, 0x001f, 0xffff, 0x8204 },
	{ "BGR565", 16, 0, 5, 5, 6, 11, 5, 0, 0, 0x001f, 0x07e0, 0xf800, 0xffff, 0x2210 },
	/* 0x40 -> 8 of 31 */
	{ "XRGB1555", 16, 10, 5, 5, 5, 0, 5, 0, 0, 0x7c00, 0x03e0, 0x001f, 0x7fff,
	  0x4104 },
	{ "RGB555 (15 bpp)", 15, 10, 5, 5, 5, 0, 5, 0, 0, 0x7c00, 0x03e0, 0x001f, 0x7fff,
	  0x4104 },
	{ "ARGB1555", 16, 10, 5, 5, 5, 0, 5, 15, 1, 0xfc00, 0x83e0, 0x801f, 0xffff,
	  0xc104 },
	/* 0x80 -> 514 of 1023, 0x40 -> 257, 0x20 -> 128 */
	{ "XRGB2101010", 32, 20, 10, 10, 10, 0, 10, 0, 0, 0x3ff00000, 0x000ffc00,
	  0x000003ff, 0x3fffffff, (514u << 20) | (257u << 10) | 128u },
	/* 0x80 -> 4 of 7, 0x40 -> 2 of 7, 0x20 -> 0 of 3 */
	{ "RGB332", 8, 5, 3, 2, 3, 0, 2, 0, 0, 0xe0, 0x1c, 0x03, 0xff, 0x88 },
	{ "RGB444", 16, 8, 4, 4, 4, 0, 4, 0, 0, 0x0f00, 0x00f0, 0x000f, 0x0fff, 0x0842 },
};

static struct fb_var_screeninfo var_of(const struct fmt_case *c)
{
	return (struct fb_var_screeninfo){
		.bits_per_pixel = c->bpp,
		.red = { c->ro, c->rl, 0 },
		.green = { c->go, c->gl, 0 },
		.blue = { c->bo, c->bl, 0 },
		.transp = { c->to, c->tl, 0 },
	};
}

/* The reference: each component scaled in floating point and rounded. */
static uint32_t ref_pixel(const struct fmt_case *c, const uint8_t rgb[3])
{
	const unsigned off[4] = { c->ro, c->go, c->bo, c->to },
		       len[4] = { c->rl, c->gl, c->bl, c->tl };
	const double v[4] = { rgb[0], rgb[1], rgb[2], 255 };
	uint32_t p = 0;

	for (int i = 0; i < 4; i++)
		if (len[i])
			p |= (uint32_t)lround(v[i] / 255.0 * (double)((1u << len[i]) - 1))
			     << off[i];
	return p;
}

static uint32_t load(const uint8_t *p, unsigned bytes)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < bytes; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

static void test_parse(void)
{
	struct fb_pattern p;
	char why[160];

	ASSERT_INT_EQ(fb_pattern_parse("bars", &p, why, sizeof(why)), 0);
	ASSERT_INT_EQ(p.kind, FB_PATTERN_BARS);
	ASSERT_INT_EQ(fb_pattern_parse("checker", &p, why, sizeof(why)), 0);
	ASSERT_INT_EQ(p.kind, FB_PATTERN_CHECKER);
	ASSERT_INT_EQ(fb_pattern_parse("text", &p, why, sizeof(why)), 0);
	ASSERT_INT_EQ(p.kind, FB_PATTERN_TEXT);
	ASSERT_INT_EQ(fb_pattern_parse("solid:green", &p, why, sizeof(why)), 0);
	ASSERT_INT_EQ(p.kind, FB_PATTERN_SOLID);
	ASSERT_TRUE(p.rgb[0] == 0 && p.rgb[1] == 255 && p.rgb[2] == 0);
	ASSERT_INT_EQ(fb_pattern_parse("solid:#Ff8001", &p, why, sizeof(why)), 0);
	ASSERT_TRUE(p.rgb[0] == 0xff && p.rgb[1] == 0x80 && p.rgb[2] == 0x01);
	ASSERT_INT_EQ(fb_pattern_parse("plaid", &p, why, sizeof(why)), -EINVAL);
	ASSERT_TRUE(strstr(why, "unknown pattern") != NULL);
	ASSERT_INT_EQ(fb_pattern_parse("solid:#12345", &p, why, sizeof(why)), -EINVAL);
	ASSERT_TRUE(strstr(why, "6 hex digits, not 5") != NULL);
	ASSERT_INT_EQ(fb_pattern_parse("solid:#12345g", &p, why, sizeof(why)), -EINVAL);
	ASSERT_TRUE(strstr(why, "hex digits") != NULL);
	ASSERT_INT_EQ(fb_pattern_parse("solid:pink", &p, why, sizeof(why)), -EINVAL);
	ASSERT_TRUE(strstr(why, "unknown colour") != NULL);
	ASSERT_INT_EQ(fb_pattern_parse("solid:", &p, why, sizeof(why)), -EINVAL);
	ASSERT_INT_EQ(fb_pattern_parse("Bars", &p, why, sizeof(why)), -EINVAL);
}

static void test_formats(void)
{
	struct fb_pattern_format f;
	struct fb_var_screeninfo v = { .bits_per_pixel = 8,
				       .red = { 0, 8, 0 },
				       .green = { 0, 8, 0 },
				       .blue = { 0, 8, 0 } };
	char why[160];

	ASSERT_INT_EQ(fb_pattern_format_from_var(&v, FB_VISUAL_PSEUDOCOLOR, &f, why,
						 sizeof(why)),
		      0);
	ASSERT_INT_EQ(f.kind, FB_PIXEL_INDEXED);
	ASSERT_INT_EQ(f.bpp, 8);
	v.grayscale = 1;
	ASSERT_INT_EQ(fb_pattern_format_from_var(&v, FB_VISUAL_PSEUDOCOLOR, &f, why,
						 sizeof(why)),
		      0);
	ASSERT_INT_EQ(f.kind, FB_PIXEL_GRAY);
	v.grayscale = 0;
	v.bits_per_pixel = 4;
	ASSERT_INT_EQ(fb_pattern_format_from_var(&v, FB_VISUAL_PSEUDOCOLOR, &f, why,
						 sizeof(why)),
		      -EOPNOTSUPP);
	ASSERT_TRUE(strstr(why, "4 bpp") != NULL);
	v.bits_per_pixel = 32;
	v.grayscale = 0x34325258; /* XR24 */
	ASSERT_INT_EQ(fb_pattern_format_from_var(&v, FB_VISUAL_TRUECOLOR, &f, why,
						 sizeof(why)),
		      -EOPNOTSUPP);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		v = var_of(&cases[i]);
		ASSERT_MSG(fb_pattern_format_from_var(&v, FB_VISUAL_TRUECOLOR, &f, why,
						      sizeof(why)) == 0,
			   "%s", cases[i].name);
		ASSERT_INT_EQ(f.bpp, cases[i].bpp == 15 ? 16 : cases[i].bpp);
	}
	/* a field past the pixel */
	v = var_of(&cases[5]);
	v.red.offset = 12;
	ASSERT_INT_EQ(fb_pattern_format_from_var(&v, FB_VISUAL_TRUECOLOR, &f, why,
						 sizeof(why)),
		      -EOPNOTSUPP);
}

static void check_pixel(const struct fmt_case *c, const struct fb_pattern_format *f,
			const uint8_t rgb[3], uint32_t by_hand)
{
	uint32_t got = fb_pattern_pixel(f, rgb);

	ASSERT_MSG(got == by_hand, "%s #%02x%02x%02x: 0x%x, by hand 0x%x", c->name,
		   rgb[0], rgb[1], rgb[2], got, by_hand);
	ASSERT_MSG(got == ref_pixel(c, rgb), "%s #%02x%02x%02x: 0x%x, reference 0x%x",
		   c->name, rgb[0], rgb[1], rgb[2], got, ref_pixel(c, rgb));
}

static void test_pixels(void)
{
	static const uint8_t red[3] = { 255, 0, 0 }, green[3] = { 0, 255, 0 },
			     blue[3] = { 0, 0, 255 }, white[3] = { 255, 255, 255 },
			     brown[3] = { 0x80, 0x40, 0x20 };
	char why[160];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct fmt_case *c = &cases[i];
		struct fb_var_screeninfo v = var_of(c);
		struct fb_pattern_format f;

		ASSERT_INT_EQ(fb_pattern_format_from_var(&v, FB_VISUAL_TRUECOLOR, &f, why,
							 sizeof(why)),
			      0);
		check_pixel(c, &f, red, c->red);
		check_pixel(c, &f, green, c->green);
		check_pixel(c, &f, blue, c->blue);
		check_pixel(c, &f, white, c->white);
		check_pixel(c, &f, brown, c->brown);
		/* every 8-bit value of each component against the reference */
		for (unsigned x = 0; x < 256; x++) {
			uint8_t rgb[3] = { (uint8_t)x, (uint8_t)(255 - x),
					   (uint8_t)(x * 7) };
			uint32_t got = fb_pattern_pixel(&f, rgb);

			ASSERT_MSG(got == ref_pixel(c, rgb),
				   "%s value %u: 0x%x, reference 0x%x", c->name, x, got,
				   ref_pixel(c, rgb));
		}
	}
}

/* Bars over a padded stride: each pixel where it belongs, the padding as it was. */
static void test_pack_stride(void)
{
	const unsigned w = 37, h = 5;
	static const uint8_t bars[8][3] = {
		{ 255, 255, 255 }, { 255, 255, 0 }, { 0, 255, 255 }, { 0, 255, 0 },
		{ 255, 0, 255 },   { 255, 0, 0 },   { 0, 0, 255 },   { 0, 0, 0 },
	};
	struct fb_pattern p = { .kind = FB_PATTERN_BARS };
	uint8_t *rgb = malloc(w * h * 3);
	char why[160];

	fb_pattern_render(&p, w, h, 256, rgb);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct fmt_case *c = &cases[i];
		struct fb_var_screeninfo v = var_of(c);
		struct fb_pattern_format f;
		unsigned bytes = (c->bpp + 7) / 8;
		size_t stride = w * bytes + 11;
		uint8_t *buf = malloc(stride * h);
		unsigned bad = 0, pad = 0;

		ASSERT_INT_EQ(fb_pattern_format_from_var(&v, FB_VISUAL_TRUECOLOR, &f, why,
							 sizeof(why)),
			      0);
		memset(buf, 0xee, stride * h);
		ASSERT_INT_EQ(fb_pattern_pack(&f, rgb, w, h, buf, stride, NULL), 0);
		for (unsigned y = 0; y < h; y++) {
			for (unsigned x = 0; x < w; x++) {
				unsigned bar = (unsigned)floor(x * 8.0 / w);
				uint32_t got = load(buf + y * stride + x * bytes, bytes);

				bad += got != ref_pixel(c, bars[bar]);
			}
			for (size_t k = w * bytes; k < stride; k++)
				pad += buf[y * stride + k] != 0xee;
		}
		ASSERT_MSG(bad == 0, "%s: %u pixels wrong", c->name, bad);
		ASSERT_MSG(pad == 0, "%s: %u padding bytes written", c->name, pad);
		ASSERT_INT_EQ(fb_pattern_pack(&f, rgb, w, h, buf, w * bytes - 1, NULL),
			      -EINVAL);
		free(buf);
	}
	free(rgb);
}

static const uint8_t *at(const uint8_t *rgb, unsigned w, unsigned x, unsigned y)
{
	return rgb + ((size_t)y * w + x) * 3;
}

static bool is(const uint8_t *px, uint8_t r, uint8_t g, uint8_t b)
{
	return px[0] == r && px[1] == g && px[2] == b;
}

static void test_ramp(void)
{
	const unsigned w = 300, h = 41;
	struct fb_pattern p = { .kind = FB_PATTERN_RAMP };
	uint8_t *rgb = malloc(w * h * 3);
	struct fb_pattern_format f565 = { FB_PIXEL_RGB, 16,	     { 11, 5, 0 },
					  { 5, 6, 0 },	{ 0, 5, 0 }, { 0, 0, 0 } };
	struct fb_pattern_format f888 = { FB_PIXEL_RGB, 32,	     { 16, 8, 0 },
					  { 8, 8, 0 },	{ 0, 8, 0 }, { 0, 0, 0 } };
	struct fb_pattern_format c8 = { .kind = FB_PIXEL_INDEXED, .bpp = 8 };
	unsigned bad = 0;

	/* the shortest field: 32 levels for RGB565 (blue, red), 256 for 8 bits
	 * but no more than the width */
	ASSERT_INT_EQ(fb_pattern_levels(&f565, w), 32);
	ASSERT_INT_EQ(fb_pattern_levels(&f888, w), 256);
	ASSERT_INT_EQ(fb_pattern_levels(&f888, 100), 100);
	ASSERT_INT_EQ(fb_pattern_levels(&c8, w), 64);
	fb_pattern_render(&p, w, h, 32, rgb);
	/* bands of 41/4 = 10 rows; the gray band takes the last 11 */
	for (unsigned y = 0; y < h; y++) {
		unsigned band = y < 10 ? 0 : y < 20 ? 1 : y < 30 ? 2 : 3;

		for (unsigned x = 0; x < w; x++) {
			double k = floor(x * 32.0 / w);
			uint8_t v = (uint8_t)lround(k * 255.0 / 31.0);
			uint8_t want[3] = { 0, 0, 0 };

			if (band == 3)
				want[0] = want[1] = want[2] = v;
			else
				want[band] = v;
			bad += memcmp(at(rgb, w, x, y), want, 3) != 0;
		}
	}
	ASSERT_MSG(bad == 0, "ramp: %u pixels wrong", bad);
	ASSERT_TRUE(is(at(rgb, w, 0, 0), 0, 0, 0));
	ASSERT_TRUE(is(at(rgb, w, w - 1, 0), 255, 0, 0));
	ASSERT_TRUE(is(at(rgb, w, w - 1, 15), 0, 255, 0));
	ASSERT_TRUE(is(at(rgb, w, w - 1, 25), 0, 0, 255));
	ASSERT_TRUE(is(at(rgb, w, w - 1, 40), 255, 255, 255));
	/* packed into RGB565, the red band's level is the red field itself */
	{
		uint8_t *buf = malloc(w * 2 * h);

		ASSERT_INT_EQ(fb_pattern_pack(&f565, rgb, w, h, buf, w * 2, NULL), 0);
		bad = 0;
		for (unsigned x = 0; x < w; x++)
			bad += load(buf + x * 2, 2) >> 11 != (unsigned)(x * 32 / w);
		ASSERT_MSG(bad == 0, "ramp in RGB565: %u red levels wrong", bad);
		free(buf);
	}
	free(rgb);
}

struct probe {
	unsigned x, y;
	uint8_t r, g, b;
};

static void check_probes(const char *what, const uint8_t *rgb, unsigned w,
			 const struct probe *pr, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ASSERT_MSG(is(at(rgb, w, pr[i].x, pr[i].y), pr[i].r, pr[i].g, pr[i].b),
			   "%s at %u,%u: want #%02x%02x%02x", what, pr[i].x, pr[i].y,
			   pr[i].r, pr[i].g, pr[i].b);
}

static void test_grid_checker(void)
{
	const unsigned w = 130, h = 70;
	/* white every 64 and at the last column and row, gray every 8 */
	static const struct probe grid[] = {
		{ 0, 5, 255, 255, 255 },     { 64, 5, 255, 255, 255 },
		{ 128, 5, 255, 255, 255 },   { 8, 5, 0x80, 0x80, 0x80 },
		{ 56, 5, 0x80, 0x80, 0x80 }, { 5, 16, 0x80, 0x80, 0x80 },
		{ 5, 64, 255, 255, 255 },    { 1, 1, 0, 0, 0 },
		{ 63, 63, 0, 0, 0 },	     { 129, 5, 255, 255, 255 },
		{ 5, 69, 255, 255, 255 },    { 127, 5, 0, 0, 0 },
	};
	/* 16-pixel squares, black at the origin; 129/16 + 69/16 = 8 + 4 */
	static const struct probe checker[] = {
		{ 0, 0, 0, 0, 0 },	  { 15, 15, 0, 0, 0 }, { 16, 0, 255, 255, 255 },
		{ 0, 16, 255, 255, 255 }, { 16, 16, 0, 0, 0 }, { 129, 69, 0, 0, 0 },
	};
	struct fb_pattern p = { .kind = FB_PATTERN_GRID };
	uint8_t *rgb = malloc(w * h * 3);

	fb_pattern_render(&p, w, h, 256, rgb);
	check_probes("grid", rgb, w, grid, ARRAY_SIZE(grid));
	p.kind = FB_PATTERN_CHECKER;
	fb_pattern_render(&p, w, h, 256, rgb);
	check_probes("checker", rgb, w, checker, ARRAY_SIZE(checker));
	p = (struct fb_pattern){ .kind = FB_PATTERN_SOLID, .rgb = { 1, 2, 3 } };
	fb_pattern_render(&p, w, h, 256, rgb);
	ASSERT_TRUE(is(at(rgb, w, 0, 0), 1, 2, 3));
	ASSERT_TRUE(is(at(rgb, w, w - 1, h - 1), 1, 2, 3));
	free(rgb);
}

static void test_text(void)
{
	const unsigned w = 64, h = 40;
	struct fb_pattern p = { .kind = FB_PATTERN_TEXT, .text = "I\nI" };
	uint8_t *rgb = malloc(w * h * 3);
	unsigned white = 0;

	fb_pattern_render(&p, w, h, 256, rgb);
	/* the frame */
	for (unsigned x = 0; x < w; x++)
		ASSERT_TRUE(is(at(rgb, w, x, 0), 255, 255, 255) &&
			    is(at(rgb, w, x, h - 1), 255, 255, 255));
	for (unsigned y = 0; y < h; y++)
		ASSERT_TRUE(is(at(rgb, w, 0, y), 255, 255, 255) &&
			    is(at(rgb, w, w - 1, y), 255, 255, 255));
	/* two 5x7 I's (11 pixels each) at scale (40-2)/18 = 2: 4 pixels each */
	for (unsigned y = 1; y < h - 1; y++)
		for (unsigned x = 1; x < w - 1; x++)
			white += is(at(rgb, w, x, y), 255, 255, 255);
	ASSERT_INT_EQ(white, 2 * 11 * 4);
	/* too small for scale 1: clipped, no write outside the image */
	p.text = "a line far longer than the width";
	fb_pattern_render(&p, 8, 8, 256, rgb);
	ASSERT_TRUE(is(at(rgb, 8, 7, 7), 255, 255, 255));
	free(rgb);
}

static void check_indexed(const char *what, const uint8_t *rgb, unsigned w, unsigned h,
			  size_t stride, unsigned want_len)
{
	struct fb_pattern_format c8 = { .kind = FB_PIXEL_INDEXED, .bpp = 8 };
	struct fb_cmap_copy cmap;
	uint8_t *buf = malloc(stride * h);
	unsigned bad = 0, pad = 0;

	memset(buf, 0xee, stride * h);
	ASSERT_INT_EQ(fb_pattern_pack(&c8, rgb, w, h, buf, stride, &cmap), 0);
	ASSERT_MSG(cmap.len == want_len, "%s: %u colours, want %u", what, cmap.len,
		   want_len);
	for (unsigned y = 0; y < h; y++) {
		for (unsigned x = 0; x < w; x++) {
			const uint8_t *c = at(rgb, w, x, y);
			unsigned i = buf[y * stride + x];

			bad += i >= cmap.len || cmap.red[i] != c[0] * 257 ||
			       cmap.green[i] != c[1] * 257 || cmap.blue[i] != c[2] * 257;
		}
		for (size_t k = w; k < stride; k++)
			pad += buf[y * stride + k] != 0xee;
	}
	ASSERT_MSG(bad == 0, "%s: %u pixels whose map entry is not their colour", what,
		   bad);
	ASSERT_MSG(pad == 0, "%s: %u padding bytes written", what, pad);
	ASSERT_INT_EQ(fb_pattern_pack(&c8, rgb, w, h, buf, stride, NULL), -EINVAL);
	free(buf);
}

static void test_indexed(void)
{
	const unsigned w = 257, h = 9;
	struct fb_pattern p = { .kind = FB_PATTERN_BARS };
	struct fb_pattern_format c8 = { .kind = FB_PIXEL_INDEXED, .bpp = 8 };
	struct fb_cmap_copy cmap;
	uint8_t *rgb = malloc(w * h * 3), *buf = malloc(w * h);

	fb_pattern_render(&p, w, h, 256, rgb);
	check_indexed("bars", rgb, w, h, w + 3, 8);
	/* 64 levels in 4 bands: red, green and blue share black with gray */
	p.kind = FB_PATTERN_RAMP;
	fb_pattern_render(&p, w, h, 64, rgb);
	check_indexed("ramp", rgb, w, h, w + 5, 4 * 64 - 3);
	/* more than 256 colours: 3-3-2 */
	for (unsigned x = 0; x < w; x++)
		for (unsigned y = 0; y < h; y++)
			memcpy(rgb + ((size_t)y * w + x) * 3,
			       (uint8_t[3]){ (uint8_t)x, (uint8_t)y, (uint8_t)(x == 256) },
			       3);
	memcpy(rgb, (uint8_t[3]){ 255, 0, 0 }, 3);
	memcpy(rgb + 3, (uint8_t[3]){ 0x80, 0xff, 0x40 }, 3);
	ASSERT_INT_EQ(fb_pattern_pack(&c8, rgb, w, h, buf, w, &cmap), 0);
	ASSERT_INT_EQ(cmap.len, 256);
	ASSERT_INT_EQ(buf[0], 0xe0); /* 111 000 00 */
	ASSERT_INT_EQ(buf[1], 0x9d); /* 100 111 01 */
	ASSERT_TRUE(cmap.red[0xe0] == 0xffff && cmap.green[0xe0] == 0 &&
		    cmap.blue[0xe0] == 0);
	ASSERT_INT_EQ(cmap.green[0x1c], 0xffff);
	ASSERT_INT_EQ(cmap.blue[0x03], 0xffff);
	free(buf);
	free(rgb);
}

static void test_gray(void)
{
	struct fb_pattern_format r8 = { .kind = FB_PIXEL_GRAY, .bpp = 8 };

	/* Rec. 601 luma: 0.299 R + 0.587 G + 0.114 B */
	ASSERT_INT_EQ(fb_pattern_pixel(&r8, (uint8_t[3]){ 255, 0, 0 }), 76);
	ASSERT_INT_EQ(fb_pattern_pixel(&r8, (uint8_t[3]){ 0, 255, 0 }), 150);
	ASSERT_INT_EQ(fb_pattern_pixel(&r8, (uint8_t[3]){ 0, 0, 255 }), 29);
	ASSERT_INT_EQ(fb_pattern_pixel(&r8, (uint8_t[3]){ 255, 255, 255 }), 255);
	ASSERT_INT_EQ(fb_pattern_pixel(&r8, (uint8_t[3]){ 0, 0, 0 }), 0);
}

int main(void)
{
	test_parse();
	test_formats();
	test_pixels();
	test_pack_stride();
	test_ramp();
	test_grid_checker();
	test_text();
	test_indexed();
	test_gray();
	return test_finish("test-pattern");
}
