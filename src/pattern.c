/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Test patterns: rendered as RGB, packed into a framebuffer's format (pure). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "pattern.h"

/* ---- names ---- */

static const struct {
	const char *name;
	uint8_t rgb[3];
} named_colours[] = {
	{ "red", { 0xff, 0, 0 } },  { "green", { 0, 0xff, 0 } },
	{ "blue", { 0, 0, 0xff } }, { "white", { 0xff, 0xff, 0xff } },
	{ "black", { 0, 0, 0 } },
};

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int parse_colour(const char *s, uint8_t rgb[3], char *why, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(named_colours); i++) {
		if (strcmp(s, named_colours[i].name) == 0) {
			memcpy(rgb, named_colours[i].rgb, 3);
			return 0;
		}
	}
	if (s[0] != '#') {
		snprintf(why, len,
			 "unknown colour (red, green, blue, white, black or #RRGGBB)");
		return -EINVAL;
	}
	if (strlen(s) != 7) {
		snprintf(why, len, "bad colour: #RRGGBB takes 6 hex digits, not %zu",
			 strlen(s) - 1);
		return -EINVAL;
	}
	for (int i = 0; i < 3; i++) {
		int hi = hex_digit(s[1 + 2 * i]), lo = hex_digit(s[2 + 2 * i]);

		if (hi < 0 || lo < 0) {
			snprintf(why, len,
				 "bad colour: #RRGGBB takes hex digits 0-9, a-f");
			return -EINVAL;
		}
		rgb[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

int fb_pattern_parse(const char *name, struct fb_pattern *p, char *why, size_t len)
{
	static const struct {
		const char *name;
		enum fb_pattern_kind kind;
	} plain[] = {
		{ "bars", FB_PATTERN_BARS }, { "ramp", FB_PATTERN_RAMP },
		{ "grid", FB_PATTERN_GRID }, { "checker", FB_PATTERN_CHECKER },
		{ "text", FB_PATTERN_TEXT },
	};

	*p = (struct fb_pattern){ .kind = FB_PATTERN_BARS };
	for (size_t i = 0; i < ARRAY_SIZE(plain); i++) {
		if (strcmp(name, plain[i].name) == 0) {
			p->kind = plain[i].kind;
			return 0;
		}
	}
	if (strncmp(name, "solid:", 6) == 0) {
		p->kind = FB_PATTERN_SOLID;
		return parse_colour(name + 6, p->rgb, why, len);
	}
	snprintf(why, len,
		 "unknown pattern (bars, ramp, grid, checker, solid:COLOUR, text)");
	return -EINVAL;
}

/* ---- formats ---- */

static bool field_fits(const struct fb_bitfield *f, unsigned bpp)
{
	return f->length <= 16 && (f->length == 0 || f->offset + f->length <= bpp);
}

int fb_pattern_format_from_var(const struct fb_var_screeninfo *var, uint32_t visual,
			       struct fb_pattern_format *fmt, char *why, size_t len)
{
	struct fb_pixel_format pf;
	unsigned bpp = fb_pixel_storage_bits(var->bits_per_pixel);

	fb_pixel_format_decode(var, visual, &pf);
	*fmt = (struct fb_pattern_format){ .kind = pf.kind, .bpp = bpp };
	if (bpp < 8) {
		snprintf(why, len,
			 "%u bpp: patterns are drawn at 8, 15, 16, 24 or 32 bpp",
			 var->bits_per_pixel);
		return -EOPNOTSUPP;
	}
	if ((pf.kind == FB_PIXEL_INDEXED || pf.kind == FB_PIXEL_GRAY) && bpp == 8)
		return 0;
	if (pf.kind != FB_PIXEL_RGB) {
		snprintf(why, len, "format %s at %u bpp cannot be drawn", pf.name,
			 var->bits_per_pixel);
		return -EOPNOTSUPP;
	}
	fmt->red = var->red;
	fmt->green = var->green;
	fmt->blue = var->blue;
	fmt->transp = var->transp;
	if (!field_fits(&fmt->red, bpp) || !field_fits(&fmt->green, bpp) ||
	    !field_fits(&fmt->blue, bpp) || !field_fits(&fmt->transp, bpp) ||
	    !fmt->red.length || !fmt->green.length || !fmt->blue.length) {
		snprintf(why, len,
			 "format %s: a colour field is empty, past %u bits or over 16",
			 pf.name, bpp);
		return -EOPNOTSUPP;
	}
	return 0;
}

unsigned fb_pattern_levels(const struct fb_pattern_format *fmt, unsigned width)
{
	unsigned n = 256;

	if (fmt->kind == FB_PIXEL_INDEXED) {
		n = 64; /* four bands of 64 fill the 256 entries */
	} else if (fmt->kind == FB_PIXEL_RGB) {
		unsigned l = fmt->red.length;

		l = fmt->green.length < l ? fmt->green.length : l;
		l = fmt->blue.length < l ? fmt->blue.length : l;
		n = l >= 8 ? 256 : 1u << l;
	}
	if (n > width)
		n = width;
	return n < 2 ? 2 : n;
}

/* ---- rendering ---- */

static void put(uint8_t *rgb, unsigned width, unsigned x, unsigned y, const uint8_t c[3])
{
	memcpy(rgb + ((size_t)y * width + x) * 3, c, 3);
}

static void render_bars(unsigned w, unsigned h, uint8_t *rgb)
{
	static const uint8_t bars[8][3] = {
		{ 255, 255, 255 }, { 255, 255, 0 }, { 0, 255, 255 }, { 0, 255, 0 },
		{ 255, 0, 255 },   { 255, 0, 0 },   { 0, 0, 255 },   { 0, 0, 0 },
	};

	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++)
			put(rgb, w, x, y, bars[(uint64_t)x * 8 / w]);
}

static void render_ramp(unsigned w, unsigned h, unsigned levels, uint8_t *rgb)
{
	unsigned band_h = h / 4 ? h / 4 : 1;

	for (unsigned y = 0; y < h; y++) {
		unsigned band = y / band_h > 3 ? 3 : y / band_h;

		for (unsigned x = 0; x < w; x++) {
			unsigned k = (unsigned)((uint64_t)x * levels / w);
			uint8_t v =
				(uint8_t)((k * 255 + (levels - 1) / 2) / (levels - 1));
			uint8_t c[3] = { 0, 0, 0 };

			if (band == 3)
				c[0] = c[1] = c[2] = v;
			else
				c[band] = v;
			put(rgb, w, x, y, c);
		}
	}
}

static void render_grid(unsigned w, unsigned h, uint8_t *rgb)
{
	static const uint8_t black[3] = { 0, 0, 0 }, gray[3] = { 0x80, 0x80, 0x80 },
			     white[3] = { 255, 255, 255 };

	for (unsigned y = 0; y < h; y++) {
		for (unsigned x = 0; x < w; x++) {
			const uint8_t *c = black;

			if (x % 64 == 0 || y % 64 == 0 || x == w - 1 || y == h - 1)
				c = white;
			else if (x % 8 == 0 || y % 8 == 0)
				c = gray;
			put(rgb, w, x, y, c);
		}
	}
}

static void render_fill(unsigned w, unsigned h, const uint8_t c[3], uint8_t *rgb)
{
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++)
			put(rgb, w, x, y, c);
}

static void render_checker(unsigned w, unsigned h, uint8_t *rgb)
{
	static const uint8_t black[3] = { 0, 0, 0 }, white[3] = { 255, 255, 255 };

	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++)
			put(rgb, w, x, y, (x / 16 + y / 16) % 2 ? white : black);
}

/* ---- text: a 5x7 font, bit 4 the leftmost column ---- */

struct glyph {
	char c;
	uint8_t rows[7];
};

static const struct glyph font[] = {
	{ '0', { 0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e } },
	{ '1', { 0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e } },
	{ '2', { 0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f } },
	{ '3', { 0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e } },
	{ '4', { 0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02 } },
	{ '5', { 0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e } },
	{ '6', { 0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e } },
	{ '7', { 0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08 } },
	{ '8', { 0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e } },
	{ '9', { 0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c } },
	{ 'A', { 0x0e, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11 } },
	{ 'B', { 0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e } },
	{ 'C', { 0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e } },
	{ 'D', { 0x1e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1e } },
	{ 'E', { 0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f } },
	{ 'F', { 0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10 } },
	{ 'G', { 0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f } },
	{ 'H', { 0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11 } },
	{ 'I', { 0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e } },
	{ 'J', { 0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c } },
	{ 'K', { 0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11 } },
	{ 'L', { 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f } },
	{ 'M', { 0x11, 0x1b, 0x15, 0x15, 0x11, 0x11, 0x11 } },
	{ 'N', { 0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11 } },
	{ 'O', { 0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e } },
	{ 'P', { 0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10 } },
	{ 'Q', { 0x0e, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0d } },
	{ 'R', { 0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11 } },
	{ 'S', { 0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e } },
	{ 'T', { 0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04 } },
	{ 'U', { 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e } },
	{ 'V', { 0x11, 0x11, 0x11, 0x11, 0x11, 0x0a, 0x04 } },
	{ 'W', { 0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0a } },
	{ 'X', { 0x11, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x11 } },
	{ 'Y', { 0x11, 0x11, 0x11, 0x0a, 0x04, 0x04, 0x04 } },
	{ 'Z', { 0x1f, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1f } },
	{ 'x', { 0x00, 0x00, 0x11, 0x0a, 0x04, 0x0a, 0x11 } },
	{ ' ', { 0 } },
	{ '-', { 0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00 } },
	{ '.', { 0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x0c } },
	{ ',', { 0x00, 0x00, 0x00, 0x00, 0x0c, 0x04, 0x08 } },
	{ ':', { 0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x0c, 0x00 } },
	{ '/', { 0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00 } },
	{ '@', { 0x0e, 0x11, 0x17, 0x15, 0x17, 0x10, 0x0e } },
	{ '=', { 0x00, 0x00, 0x1f, 0x00, 0x1f, 0x00, 0x00 } },
	{ '_', { 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1f } },
	{ '+', { 0x00, 0x04, 0x04, 0x1f, 0x04, 0x04, 0x00 } },
	{ '#', { 0x0a, 0x0a, 0x1f, 0x0a, 0x1f, 0x0a, 0x0a } },
	{ '(', { 0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02 } },
	{ ')', { 0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08 } },
};

/* Any other character: a box. */
static const struct glyph box = { '?', { 0x1f, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1f } };

#define CELL_W 6
#define CELL_H 9

static const struct glyph *glyph_of(char c)
{
	if (c >= 'a' && c <= 'z' && c != 'x')
		c = (char)(c - 'a' + 'A');
	for (size_t i = 0; i < ARRAY_SIZE(font); i++)
		if (font[i].c == c)
			return &font[i];
	return &box;
}

/* The scaled glyph of c with its top left at (x0, y0), clipped. */
static void draw_glyph(uint8_t *rgb, unsigned w, unsigned h, long x0, long y0, unsigned s,
		       char c)
{
	static const uint8_t white[3] = { 255, 255, 255 };
	const struct glyph *g = glyph_of(c);

	for (unsigned gy = 0; gy < 7 * s; gy++) {
		for (unsigned gx = 0; gx < 5 * s; gx++) {
			long x = x0 + gx, y = y0 + gy;

			if (!(g->rows[gy / s] & (0x10 >> (gx / s))))
				continue;
			if (x >= 0 && y >= 0 && x < (long)w && y < (long)h)
				put(rgb, w, (unsigned)x, (unsigned)y, white);
		}
	}
}

static void render_text(unsigned w, unsigned h, const char *text, uint8_t *rgb)
{
	static const uint8_t black[3] = { 0, 0, 0 }, white[3] = { 255, 255, 255 };
	unsigned lines = 1, cols = 0, cur = 0, s;
	long x0, y0, x, y;

	render_fill(w, h, black, rgb);
	text = text ? text : "";
	for (const char *p = text; *p; p++) {
		cur = *p == '\n' ? 0 : cur + 1;
		lines += *p == '\n';
		cols = cur > cols ? cur : cols;
	}
	s = (w - 2) / (CELL_W * (cols ? cols : 1));
	s = (h - 2) / (CELL_H * lines) < s ? (h - 2) / (CELL_H * lines) : s;
	s = s ? s : 1;
	x0 = ((long)w - (long)(cols * CELL_W * s)) / 2;
	y0 = ((long)h - (long)(lines * CELL_H * s)) / 2;
	x = x0;
	y = y0;
	for (const char *p = text; *p; p++) {
		if (*p == '\n') {
			x = x0;
			y += CELL_H * s;
			continue;
		}
		draw_glyph(rgb, w, h, x, y + s, s, *p);
		x += CELL_W * s;
	}
	for (unsigned i = 0; i < w; i++) {
		put(rgb, w, i, 0, white);
		put(rgb, w, i, h - 1, white);
	}
	for (unsigned i = 0; i < h; i++) {
		put(rgb, w, 0, i, white);
		put(rgb, w, w - 1, i, white);
	}
}

void fb_pattern_render(const struct fb_pattern *p, unsigned width, unsigned height,
		       unsigned levels, uint8_t *rgb)
{
	if (!width || !height)
		return;
	switch (p->kind) {
	case FB_PATTERN_BARS:
		render_bars(width, height, rgb);
		break;
	case FB_PATTERN_RAMP:
		render_ramp(width, height, levels < 2 ? 2 : levels, rgb);
		break;
	case FB_PATTERN_GRID:
		render_grid(width, height, rgb);
		break;
	case FB_PATTERN_CHECKER:
		render_checker(width, height, rgb);
		break;
	case FB_PATTERN_SOLID:
		render_fill(width, height, p->rgb, rgb);
		break;
	case FB_PATTERN_TEXT:
		render_text(width, height, p->text, rgb);
		break;
	}
}

/* ---- packing ---- */

static uint32_t field_value(const struct fb_bitfield *f, uint8_t v)
{
	uint32_t max;

	if (!f->length)
		return 0;
	max = (1u << f->length) - 1;
	return (uint32_t)(((uint64_t)v * max + 127) / 255) << f->offset;
}

uint32_t fb_pattern_pixel(const struct fb_pattern_format *fmt, const uint8_t rgb[3])
{
	if (fmt->kind == FB_PIXEL_GRAY)
		return ((unsigned)rgb[0] * 299 + (unsigned)rgb[1] * 587 +
			(unsigned)rgb[2] * 114 + 500) /
		       1000;
	return field_value(&fmt->red, rgb[0]) | field_value(&fmt->green, rgb[1]) |
	       field_value(&fmt->blue, rgb[2]) | field_value(&fmt->transp, 255);
}

static void store(uint8_t *p, unsigned bytes, uint32_t v)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The image's colours into the map, in order of first appearance; an
 * open-addressed table keyed by the colour.  false: more than 256. */
struct palette {
	uint32_t key[1024]; /* colour + 1; 0 empty */
	uint16_t index[1024];
	unsigned n;
};

static int palette_index(struct palette *pal, const uint8_t c[3],
			 struct fb_cmap_copy *cmap)
{
	uint32_t key = ((uint32_t)c[0] << 16 | (uint32_t)c[1] << 8 | c[2]) + 1;
	size_t h = (key * 2654435761u) >> 22;

	while (pal->key[h] && pal->key[h] != key)
		h = (h + 1) % ARRAY_SIZE(pal->key);
	if (pal->key[h])
		return pal->index[h];
	if (pal->n == 256)
		return -1;
	pal->key[h] = key;
	pal->index[h] = (uint16_t)pal->n;
	cmap->red[pal->n] = (uint16_t)(c[0] * 0x101);
	cmap->green[pal->n] = (uint16_t)(c[1] * 0x101);
	cmap->blue[pal->n] = (uint16_t)(c[2] * 0x101);
	return (int)pal->n++;
}

static void cmap_332(struct fb_cmap_copy *cmap)
{
	for (unsigned i = 0; i < 256; i++) {
		cmap->red[i] = (uint16_t)((i >> 5) * 255 / 7 * 0x101);
		cmap->green[i] = (uint16_t)((i >> 2 & 7) * 255 / 7 * 0x101);
		cmap->blue[i] = (uint16_t)((i & 3) * 255 / 3 * 0x101);
	}
	cmap->len = 256;
}

static int pack_indexed(const uint8_t *rgb, unsigned w, unsigned h, uint8_t *dst,
			size_t stride, struct fb_cmap_copy *cmap)
{
	struct palette *pal = calloc(1, sizeof(*pal));
	bool full = false;

	if (!pal)
		return -ENOMEM;
	*cmap = (struct fb_cmap_copy){ 0 };
	for (unsigned y = 0; y < h && !full; y++) {
		for (unsigned x = 0; x < w; x++) {
			int i = palette_index(pal, rgb + ((size_t)y * w + x) * 3, cmap);

			if (i < 0) {
				full = true;
				break;
			}
			dst[(size_t)y * stride + x] = (uint8_t)i;
		}
	}
	cmap->len = pal->n;
	free(pal);
	if (!full)
		return 0;
	cmap_332(cmap);
	for (unsigned y = 0; y < h; y++) {
		for (unsigned x = 0; x < w; x++) {
			const uint8_t *c = rgb + ((size_t)y * w + x) * 3;

			dst[(size_t)y * stride + x] =
				(uint8_t)((c[0] >> 5) << 5 | (c[1] >> 5) << 2 | c[2] >> 6);
		}
	}
	return 0;
}

int fb_pattern_pack(const struct fb_pattern_format *fmt, const uint8_t *rgb,
		    unsigned width, unsigned height, uint8_t *dst, size_t stride,
		    struct fb_cmap_copy *cmap)
{
	unsigned bytes = fmt->bpp / 8;
	uint32_t last = 0;
	uint8_t last_c[3];
	bool have_last = false;

	if (!bytes || bytes > 4 || stride < (size_t)width * bytes)
		return -EINVAL;
	if (fmt->kind == FB_PIXEL_INDEXED)
		return cmap && bytes == 1
			       ? pack_indexed(rgb, width, height, dst, stride, cmap)
			       : -EINVAL;
	for (unsigned y = 0; y < height; y++) {
		for (unsigned x = 0; x < width; x++) {
			const uint8_t *c = rgb + ((size_t)y * width + x) * 3;

			if (!have_last || memcmp(c, last_c, 3) != 0) {
				last = fb_pattern_pixel(fmt, c);
				memcpy(last_c, c, 3);
				have_last = true;
			}
			store(dst + (size_t)y * stride + (size_t)x * bytes, bytes, last);
		}
	}
	return 0;
}
