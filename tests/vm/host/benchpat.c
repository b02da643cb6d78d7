/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * benchpat OP FORMAT: what bench's validation pattern OP (fill, upload or
 * copy) looks like on a framebuffer whose format fbtool wrote to FORMAT
 * ("W H BPP VISUAL ROFF RLEN GOFF GLEN BOFF BLEN", then the colour map for
 * PSEUDOCOLOR), written as pngcmp reads it: "W H\n" then W*H RGB bytes.
 *
 * Built from the patterns as fbclassctl(8) documents them (BENCH PATTERNS),
 * sharing no code with fbclassctl, so that bench --snap's PNGs are checked
 * against an independent expectation:
 *   fill    every pixel the colour 0x12,0x34,0x56, each component cut to its
 *           field's top bits; index 5 in a colour map
 *   upload  xorshift32 (13, 17, 5) from 0x9e3779b9; each visible row's bytes
 *           (W*BPP/8) are the next outputs, little-endian, the last one cut
 *   copy    upload scrolled up by 16 rows; the last 16 rows stay
 * Components expand to 8 bits as v*255/max, rounded.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PSEUDOCOLOR 3 /* FB_VISUAL_PSEUDOCOLOR */

struct format {
	unsigned w, h, bpp, visual;
	unsigned off[3], len[3];
	uint8_t pal[256][3];
};

static uint8_t expand(uint32_t v, unsigned len)
{
	uint64_t max = (1ull << len) - 1;

	return len ? (uint8_t)((v * 255ull + max / 2) / max) : 0;
}

static void pixel_rgb(const struct format *f, uint32_t px, uint8_t *out)
{
	if (f->visual == PSEUDOCOLOR) {
		memcpy(out, f->pal[px & 0xff], 3);
		return;
	}
	for (int c = 0; c < 3; c++) {
		uint32_t v = (px >> f->off[c]) & (uint32_t)((1ull << f->len[c]) - 1);
		out[c] = expand(v, f->len[c]);
	}
}

static uint32_t fill_pixel(const struct format *f)
{
	static const uint8_t colour[3] = { 0x12, 0x34, 0x56 };
	uint32_t px = 0;

	if (f->visual == PSEUDOCOLOR)
		return 5;
	for (int c = 0; c < 3; c++) {
		uint32_t v = f->len[c] >= 8 ? (uint32_t)colour[c] << (f->len[c] - 8)
					    : (uint32_t)colour[c] >> (8 - f->len[c]);
		px |= v << f->off[c];
	}
	return px;
}

static int read_format(const char *path, struct format *f)
{
	FILE *in = fopen(path, "r");

	if (!in)
		return -1;
	if (fscanf(in, "%u %u %u %u %u %u %u %u %u %u", &f->w, &f->h, &f->bpp, &f->visual,
		   &f->off[0], &f->len[0], &f->off[1], &f->len[1], &f->off[2],
		   &f->len[2]) != 10)
		return -1;
	if (f->visual == PSEUDOCOLOR) {
		for (unsigned i = 0; i < (1u << f->bpp) && i < 256; i++) {
			unsigned r, g, b;
			if (fscanf(in, "%u %u %u", &r, &g, &b) != 3)
				return -1;
			f->pal[i][0] = (uint8_t)r;
			f->pal[i][1] = (uint8_t)g;
			f->pal[i][2] = (uint8_t)b;
		}
	}
	fclose(in);
	return 0;
}

int main(int argc, char *argv[])
{
	struct format f;
	size_t row;
	uint8_t *img, *out;
	uint32_t s = 0x9e3779b9u;
	unsigned bytespp;

	memset(&f, 0, sizeof(f));
	if (argc != 3 || (strcmp(argv[1], "fill") && strcmp(argv[1], "upload") &&
			  strcmp(argv[1], "copy"))) {
		fprintf(stderr, "usage: benchpat fill|upload|copy FORMAT\n");
		return 2;
	}
	if (read_format(argv[2], &f) < 0 || f.bpp % 8 || f.bpp == 0 || f.bpp > 32 ||
	    f.h <= 16) {
		fprintf(stderr, "benchpat: %s: not a format benchpat knows\n", argv[2]);
		return 1;
	}
	bytespp = f.bpp / 8;
	row = (size_t)f.w * bytespp;
	img = malloc(row * f.h);
	out = malloc((size_t)f.w * f.h * 3);
	if (!img || !out)
		return 1;
	if (strcmp(argv[1], "fill") == 0) {
		uint32_t px = fill_pixel(&f);
		for (size_t i = 0; i < (size_t)f.w * f.h; i++)
			for (unsigned b = 0; b < bytespp; b++)
				img[i * bytespp + b] = (uint8_t)(px >> (8 * b));
	} else {
		for (unsigned y = 0; y < f.h; y++) {
			for (size_t i = 0; i < row; i += 4) {
				s ^= s << 13;
				s ^= s >> 17;
				s ^= s << 5;
				for (size_t b = 0; b < 4 && i + b < row; b++)
					img[y * row + i + b] = (uint8_t)(s >> (8 * b));
			}
		}
		if (strcmp(argv[1], "copy") == 0)
			memmove(img, img + 16 * row, (f.h - 16) * row);
	}
	for (size_t i = 0; i < (size_t)f.w * f.h; i++) {
		uint32_t px = 0;
		for (unsigned b = 0; b < bytespp; b++)
			px |= (uint32_t)img[i * bytespp + b] << (8 * b);
		pixel_rgb(&f, px, out + i * 3);
	}
	printf("%u %u\n", f.w, f.h);
	fwrite(out, 3, (size_t)f.w * f.h, stdout);
	return fflush(stdout) == 0 ? 0 : 1;
}
