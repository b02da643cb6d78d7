/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * pattern: test patterns for panel bring-up, drawn in a framebuffer's own
 * pixel format.
 *
 * Pure: a pattern is rendered as 8-bit RGB (fb_pattern_render), then packed
 * into the format (fb_pattern_pack): truecolor fields of any length and
 * offset (RGB565, XRGB1555, BGR888, ARGB8888, ...), 8 bpp grayscale, and
 * 8 bpp pseudocolor through a colour map made for the image.  A component
 * v of 8 bits packs into a field of length L as v * (2^L - 1) / 255,
 * rounded; a transp field is set to its maximum (opaque).  Rows are written
 * at the stride; the padding after each row is left as it was.
 *
 * The patterns (W x H the visible size):
 *   bars     8 vertical bars, bar i over [i*W/8, (i+1)*W/8): white, yellow,
 *            cyan, green, magenta, red, blue, black;
 *   ramp     4 horizontal bands of H/4 rows (the last takes the rest): red,
 *            green, blue, gray, each rising from 0 to full over the width in
 *            N levels (N = the levels of the format's shortest colour
 *            field, at most 256, at most W; 64 for pseudocolor): level
 *            k = x*N/W, value k*255/(N-1) rounded;
 *   grid     black; white 1-pixel lines at every x and y that is a multiple
 *            of 64, gray (0x80) at the other multiples of 8, and white at the
 *            last column and row;
 *   checker  squares of 16 pixels, white where (x/16 + y/16) is odd, else black;
 *   solid:C  C is red, green, blue, white, black or #RRGGBB;
 *   text     lines of text (fb_pattern.text) in white on black, scaled so
 *            the longest line fills at most the width, inside a white
 *            1-pixel frame at the edges.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/fb.h>

#include "fbinfo_ioctl.h"

enum fb_pattern_kind {
	FB_PATTERN_BARS,
	FB_PATTERN_RAMP,
	FB_PATTERN_GRID,
	FB_PATTERN_CHECKER,
	FB_PATTERN_SOLID,
	FB_PATTERN_TEXT,
};

struct fb_pattern {
	enum fb_pattern_kind kind;
	uint8_t rgb[3]; /* solid */
	const char *text; /* text: lines separated by '\n'; not owned */
};

/* Parse NAME ("bars", "solid:red", "solid:#ff8000", ...).  0, or -EINVAL
 * with why set ("unknown pattern", "bad colour ..."). */
int fb_pattern_parse(const char *name, struct fb_pattern *p, char *why, size_t len);

/* A pixel format pattern can pack. */
struct fb_pattern_format {
	enum fb_pixel_kind kind; /* RGB, GRAY or INDEXED */
	unsigned bpp; /* storage bits: 8, 16, 24 or 32 */
	struct fb_bitfield red, green, blue, transp; /* RGB */
};

/* From a mode and its visual.  0, or -EOPNOTSUPP with why set (a depth
 * other than 8, 15, 16, 24 or 32; FOURCC; indexed or gray other than 8
 * bits; a field past the pixel or longer than 16 bits). */
int fb_pattern_format_from_var(const struct fb_var_screeninfo *var, uint32_t visual,
			       struct fb_pattern_format *fmt, char *why, size_t len);

/* The ramp's levels per channel for the format (see above). */
unsigned fb_pattern_levels(const struct fb_pattern_format *fmt, unsigned width);

/* Render p as width*height*3 bytes of RGB.  levels: fb_pattern_levels(). */
void fb_pattern_render(const struct fb_pattern *p, unsigned width, unsigned height,
		       unsigned levels, uint8_t *rgb);

/* The pixel value of one 8-bit colour in an RGB or GRAY format. */
uint32_t fb_pattern_pixel(const struct fb_pattern_format *fmt, const uint8_t rgb[3]);

/*
 * Pack width*height RGB into dst (rows stride bytes apart; the bytes after
 * width pixels untouched).  INDEXED: cmap gets a colour map of the image's
 * colours (entry v*0x101 for an 8-bit v), in the order they first appear,
 * and the pixels their indices; more than 256 colours fall back to 3-3-2
 * (index rrrgggbb).  cmap may be NULL for the other kinds.  0, or
 * -EINVAL (stride too short for the width, a NULL cmap for INDEXED).
 */
int fb_pattern_pack(const struct fb_pattern_format *fmt, const uint8_t *rgb,
		    unsigned width, unsigned height, uint8_t *dst, size_t stride,
		    struct fb_cmap_copy *cmap);
