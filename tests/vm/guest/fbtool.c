/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fbtool: a guest-side helper for the VM scenarios, independent of
 * fbclassctl's code (it is the oracle, so it shares nothing with it).
 *
 *   fbtool mmap DEV READYFILE       map DEV, close the fd, touch READYFILE,
 *                                   then sleep until killed
 *   fbtool fill DEV READYFILE       the same, after a memset of the whole
 *                                   mapping (every page faulted in)
 *   fbtool hold DEV READYFILE       fill, but keep the fd open too
 *   fbtool pattern DEV OUT [YOFF]   pan to YOFF (doubling yres_virtual when
 *                                   needed), fill the whole memory with 0xa5,
 *                                   write a known pattern in the visible
 *                                   area, and write to OUT what a correct
 *                                   snapshot shows: "W H\n" then W*H RGB
 *                                   bytes
 *   fbtool scribble DEV READYFILE   map DEV, touch READYFILE, then store a
 *                                   new value into every page of it, over
 *                                   and over, until killed (another
 *                                   program drawing all the time)
 *   fbtool format DEV OUT           write to OUT the visible geometry and
 *                                   pixel format: "W H BPP VISUAL ROFF RLEN
 *                                   GOFF GLEN BOFF BLEN\n", then, for
 *                                   PSEUDOCOLOR, 1<<BPP lines "R G B" of the
 *                                   colour map (8 bits, FBIOGETCMAP)
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <linux/fb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static int die(const char *what, const char *obj)
{
	fprintf(stderr, "fbtool: %s: %s: %s\n", obj, what, strerror(errno));
	return 1;
}

/* Map the whole of DEV's memory into *p (*fix: its fixed info); *fd is
 * the open node, for the caller to close.  0, or 1 (said). */
static int map_fb(const char *dev, struct fb_fix_screeninfo *fix, void **p, int *fd)
{
	int f = open(dev, O_RDWR);

	if (f < 0)
		return die("open", dev);
	if (ioctl(f, FBIOGET_FSCREENINFO, fix) < 0)
		return die("FBIOGET_FSCREENINFO", dev);
	*p = mmap(NULL, fix->smem_len, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
	if (*p == MAP_FAILED)
		return die("mmap", dev);
	*fd = f;
	return 0;
}

/* READYFILE made, holding text (may be ""): the scenario goes on. */
static int say_ready(const char *ready, const char *text)
{
	FILE *f = fopen(ready, "w");

	if (!f)
		return die("create", ready);
	fputs(text, f);
	fclose(f);
	return 0;
}

static int do_mmap(const char *dev, const char *ready, bool fill, bool keep_fd)
{
	struct fb_fix_screeninfo fix;
	char len[16];
	void *p;
	int fd;

	if (map_fb(dev, &fix, &p, &fd))
		return 1;
	if (fill)
		memset(p, 0x5a, fix.smem_len);
	if (!keep_fd)
		close(fd);
	snprintf(len, sizeof(len), "%u\n", fix.smem_len);
	if (say_ready(ready, len))
		return 1;
	for (;;)
		pause();
}

static int do_scribble(const char *dev, const char *ready)
{
	struct fb_fix_screeninfo fix;
	volatile uint32_t *p;
	void *map;
	int fd;

	if (map_fb(dev, &fix, &map, &fd))
		return 1;
	close(fd);
	if (say_ready(ready, ""))
		return 1;
	p = map;
	for (uint32_t v = 0x01020304;; v += 0x01010101)
		for (size_t i = 0; i < fix.smem_len / 4; i += 1024)
			p[i] = v;
}

/* Component c (0 r, 1 g, 2 b) of the pattern at x, y, in len bits. */
static uint32_t comp(int c, unsigned x, unsigned y, unsigned len)
{
	uint32_t v = c == 0   ? x * 7 + y * 3
		     : c == 1 ? x * 5 + y * 11 + 1
			      : (x ^ (y * 2)) + 3;

	return len >= 32 ? v : v & ((1u << len) - 1);
}

static uint8_t to8(uint32_t v, unsigned len)
{
	uint32_t max = len >= 32 ? 0xffffffffu : (1u << len) - 1;

	if (!len)
		return 0;
	return (uint8_t)(((uint64_t)v * 255 + max / 2) / max);
}

static int do_pattern(const char *dev, const char *out, unsigned yoff)
{
	struct fb_var_screeninfo var;
	struct fb_fix_screeninfo fix;
	uint16_t r[256], g[256], b[256];
	struct fb_cmap cmap = { .start = 0, .len = 256, .red = r, .green = g, .blue = b };
	unsigned bpp, bytespp;
	uint8_t *mem;
	FILE *f;
	int fd = open(dev, O_RDWR);

	if (fd < 0)
		return die("open", dev);
	if (ioctl(fd, FBIOGET_VSCREENINFO, &var) < 0)
		return die("FBIOGET_VSCREENINFO", dev);
	if (yoff) {
		if (var.yres_virtual < var.yres + yoff) {
			var.yres_virtual = var.yres + yoff;
			if (ioctl(fd, FBIOPUT_VSCREENINFO, &var) < 0)
				return die("FBIOPUT_VSCREENINFO (yres_virtual)", dev);
		}
		var.yoffset = yoff;
		if (ioctl(fd, FBIOPAN_DISPLAY, &var) < 0)
			return die("FBIOPAN_DISPLAY", dev);
	}
	if (ioctl(fd, FBIOGET_VSCREENINFO, &var) < 0 ||
	    ioctl(fd, FBIOGET_FSCREENINFO, &fix) < 0)
		return die("FBIOGET_*SCREENINFO", dev);
	if (var.yoffset != yoff) {
		fprintf(stderr, "fbtool: %s: yoffset is %u, not %u\n", dev, var.yoffset,
			yoff);
		return 1;
	}
	bpp = var.bits_per_pixel;
	bytespp = bpp / 8;
	if (bpp % 8) {
		fprintf(stderr, "fbtool: %s: %u bpp not supported\n", dev, bpp);
		return 1;
	}
	if (fix.visual == FB_VISUAL_PSEUDOCOLOR) {
		for (unsigned i = 0; i < 256; i++) {
			r[i] = (uint16_t)(i * 0x0101);
			g[i] = (uint16_t)((255 - i) * 0x0101);
			b[i] = (uint16_t)(((i * 37) & 255) * 0x0101);
		}
		cmap.len = 1u << bpp;
		if (ioctl(fd, FBIOPUTCMAP, &cmap) < 0)
			return die("FBIOPUTCMAP", dev);
	}
	mem = mmap(NULL, fix.smem_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mem == MAP_FAILED)
		return die("mmap", dev);
	memset(mem, 0xa5, fix.smem_len);
	f = fopen(out, "w");
	if (!f)
		return die("create", out);
	fprintf(f, "%u %u\n", var.xres, var.yres);
	for (unsigned y = 0; y < var.yres; y++) {
		for (unsigned x = 0; x < var.xres; x++) {
			size_t off = (size_t)(y + var.yoffset) * fix.line_length +
				     (size_t)(x + var.xoffset) * bytespp;
			uint32_t px;
			uint8_t rgb[3];

			if (fix.visual == FB_VISUAL_PSEUDOCOLOR) {
				px = (x * 3 + y * 5) & ((1u << bpp) - 1);
				rgb[0] = (uint8_t)(r[px] >> 8);
				rgb[1] = (uint8_t)(g[px] >> 8);
				rgb[2] = (uint8_t)(b[px] >> 8);
			} else {
				const struct fb_bitfield *bf[3] = { &var.red, &var.green,
								    &var.blue };

				px = 0;
				for (int c = 0; c < 3; c++) {
					uint32_t v = comp(c, x, y, bf[c]->length);

					px |= v << bf[c]->offset;
					rgb[c] = to8(v, bf[c]->length);
				}
				if (var.transp.length)
					px |= ((1u << var.transp.length) - 1)
					      << var.transp.offset;
			}
			for (unsigned i = 0; i < bytespp; i++)
				mem[off + i] =
					(uint8_t)(px >> (8 * i)); /* little-endian */
			fwrite(rgb, 1, 3, f);
		}
	}
	if (fclose(f) != 0)
		return die("write", out);
	munmap(mem, fix.smem_len);
	close(fd);
	return 0;
}

static int do_format(const char *dev, const char *out)
{
	struct fb_var_screeninfo var;
	struct fb_fix_screeninfo fix;
	uint16_t r[256], g[256], b[256];
	struct fb_cmap cmap = { .start = 0, .len = 256, .red = r, .green = g, .blue = b };
	FILE *f;
	int fd = open(dev, O_RDONLY);

	if (fd < 0)
		return die("open", dev);
	if (ioctl(fd, FBIOGET_VSCREENINFO, &var) < 0 ||
	    ioctl(fd, FBIOGET_FSCREENINFO, &fix) < 0)
		return die("FBIOGET_*SCREENINFO", dev);
	if (fix.visual == FB_VISUAL_PSEUDOCOLOR) {
		if (var.bits_per_pixel > 8) {
			fprintf(stderr, "fbtool: %s: PSEUDOCOLOR at %u bpp\n", dev,
				var.bits_per_pixel);
			return 1;
		}
		cmap.len = 1u << var.bits_per_pixel;
		if (ioctl(fd, FBIOGETCMAP, &cmap) < 0)
			return die("FBIOGETCMAP", dev);
	}
	close(fd);
	f = fopen(out, "w");
	if (!f)
		return die("create", out);
	fprintf(f, "%u %u %u %u %u %u %u %u %u %u\n", var.xres, var.yres,
		var.bits_per_pixel, fix.visual, var.red.offset, var.red.length,
		var.green.offset, var.green.length, var.blue.offset, var.blue.length);
	if (fix.visual == FB_VISUAL_PSEUDOCOLOR)
		for (unsigned i = 0; i < cmap.len; i++)
			fprintf(f, "%u %u %u\n", r[i] >> 8, g[i] >> 8, b[i] >> 8);
	if (fclose(f) != 0)
		return die("write", out);
	return 0;
}

int main(int argc, char *argv[])
{
	if (argc == 4 && strcmp(argv[1], "mmap") == 0)
		return do_mmap(argv[2], argv[3], false, false);
	if (argc == 4 && strcmp(argv[1], "fill") == 0)
		return do_mmap(argv[2], argv[3], true, false);
	if (argc == 4 && strcmp(argv[1], "hold") == 0)
		return do_mmap(argv[2], argv[3], true, true);
	if (argc == 4 && strcmp(argv[1], "scribble") == 0)
		return do_scribble(argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "format") == 0)
		return do_format(argv[2], argv[3]);
	if ((argc == 4 || argc == 5) && strcmp(argv[1], "pattern") == 0)
		return do_pattern(argv[2], argv[3],
				  argc == 5 ? (unsigned)atoi(argv[4]) : 0);
	fprintf(stderr,
		"usage: fbtool mmap|fill|hold|scribble DEV READYFILE | fbtool pattern DEV OUT [YOFFSET] | fbtool format DEV OUT\n");
	return 2;
}
