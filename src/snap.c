/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* snap: framebuffer memory to RGB, RGB to PNG. */
#include <errno.h>
#include <fcntl.h>
#include <png.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kernel-hazards.h"
#include "log.h"
#include "macro.h"
#include "png-backend.h"
#include "snap.h"
#include "stop-signals.h"

uint8_t fb_expand_to_8(uint32_t v, unsigned len)
{
	uint64_t max;

	if (len == 0)
		return 0;
	if (len > 32)
		len = 32;
	max = (len == 32) ? 0xffffffffull : ((1ull << len) - 1);
	if (v > max)
		v = (uint32_t)max;
	return (uint8_t)(((uint64_t)v * 255 + max / 2) / max);
}

int fb_snap_format_from_hw(const struct fb_hwinfo *hw, struct fb_snap_format *fmt,
			   const char **why)
{
	struct fb_pixel_format pf;
	const char *dummy;

	if (!why)
		why = &dummy;
	memset(fmt, 0, sizeof(*fmt));
	if (hw->fix.type != FB_TYPE_PACKED_PIXELS) {
		*why = "only packed pixels can be read (not planes or text)";
		return -EOPNOTSUPP;
	}
	fb_pixel_format_decode(&hw->var, hw->fix.visual, &pf);
	fmt->kind = pf.kind;
	fmt->bpp = fb_pixel_storage_bits(hw->var.bits_per_pixel);
	fmt->visual = hw->fix.visual;
	fmt->red = hw->var.red;
	fmt->green = hw->var.green;
	fmt->blue = hw->var.blue;
	fmt->inverted = hw->fix.visual == FB_VISUAL_MONO01;
	fmt->cmap = hw->cmap.len ? &hw->cmap : NULL;
	switch (pf.kind) {
	case FB_PIXEL_RGB:
	case FB_PIXEL_INDEXED:
	case FB_PIXEL_GRAY:
		break;
	default:
		*why = "the pixel format is not one snap can read";
		return -EOPNOTSUPP;
	}
	if (!fmt->bpp) {
		*why = "bits_per_pixel is not 1, 2, 4, 8, 15, 16, 24 or 32";
		return -EOPNOTSUPP;
	}
	return 0;
}

size_t fb_snap_span(const struct fb_snap_area *a)
{
	uint64_t n = ((uint64_t)a->yoffset + a->height) * a->line_length;

	return n > SIZE_MAX ? 0 : (size_t)n;
}

static uint32_t reverse_bits(uint32_t v, unsigned len)
{
	uint32_t r = 0;

	for (unsigned i = 0; i < len; i++)
		r |= ((v >> i) & 1u) << (len - 1 - i);
	return r;
}

static uint32_t field(uint32_t px, const struct fb_bitfield *f)
{
	uint32_t v;

	if (f->length == 0 || f->offset >= 32)
		return 0;
	v = px >> f->offset;
	if (f->length < 32)
		v &= (1u << f->length) - 1;
	return f->msb_right ? reverse_bits(v, f->length) : v;
}

static uint8_t cmap8(const uint16_t *table, const struct fb_cmap_copy *c, uint32_t idx)
{
	if (idx < c->start || idx - c->start >= c->len)
		return 0;
	return (uint8_t)(table[idx - c->start] >> 8);
}

static uint32_t load_pixel(const uint8_t *line, uint64_t x,
			   const struct fb_snap_format *fmt)
{
	unsigned bpp = fmt->bpp;

	if (bpp < 8) {
		uint64_t bit = x * bpp;
		uint8_t byte = line[bit / 8];
		unsigned shift = fmt->lsb_first ? (unsigned)(bit % 8)
						: 8 - bpp - (unsigned)(bit % 8);

		return (byte >> shift) & ((1u << bpp) - 1);
	}
	/* Framebuffers hold pixels in the CPU's byte order; this is x86. */
	const uint8_t *p = line + x * (bpp / 8);
	switch (bpp) {
	case 8:
		return p[0];
	case 16:
		return (uint32_t)p[0] | (uint32_t)p[1] << 8;
	case 24:
		return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
	default:
		return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		       (uint32_t)p[3] << 24;
	}
}

static void to_rgb(uint32_t px, const struct fb_snap_format *fmt, uint8_t *out)
{
	const struct fb_cmap_copy *c = fmt->cmap;
	uint32_t r, g, b;

	switch (fmt->kind) {
	case FB_PIXEL_INDEXED:
		out[0] = cmap8(c->red, c, px);
		out[1] = cmap8(c->green, c, px);
		out[2] = cmap8(c->blue, c, px);
		return;
	case FB_PIXEL_GRAY:
		if (c && fmt->visual == FB_VISUAL_PSEUDOCOLOR) {
			out[0] = cmap8(c->red, c, px);
			out[1] = cmap8(c->green, c, px);
			out[2] = cmap8(c->blue, c, px);
			return;
		}
		if (fmt->inverted)
			px = ~px & ((1u << fmt->bpp) - 1);
		out[0] = out[1] = out[2] = fb_expand_to_8(px, fmt->bpp);
		return;
	default:
		r = field(px, &fmt->red);
		g = field(px, &fmt->green);
		b = field(px, &fmt->blue);
		if (fmt->visual == FB_VISUAL_DIRECTCOLOR && c) {
			/* each component indexes its own ramp */
			out[0] = cmap8(c->red, c, r);
			out[1] = cmap8(c->green, c, g);
			out[2] = cmap8(c->blue, c, b);
			return;
		}
		out[0] = fb_expand_to_8(r, fmt->red.length);
		out[1] = fb_expand_to_8(g, fmt->green.length);
		out[2] = fb_expand_to_8(b, fmt->blue.length);
		return;
	}
}

int fb_snap_convert(const uint8_t *src, size_t len, const struct fb_snap_area *a,
		    const struct fb_snap_format *fmt, uint8_t *rgb)
{
	uint64_t line_bits = (uint64_t)a->line_length * 8;
	size_t span = fb_snap_span(a);

	if (!fb_pixel_bits_are_storage(fmt->bpp))
		return -EINVAL;
	if (fmt->kind != FB_PIXEL_RGB && fmt->kind != FB_PIXEL_INDEXED &&
	    fmt->kind != FB_PIXEL_GRAY)
		return -EINVAL;
	if (fmt->kind == FB_PIXEL_INDEXED && !fmt->cmap)
		return -ENODATA;
	if (((uint64_t)a->xoffset + a->width) * fmt->bpp > line_bits)
		return -ERANGE;
	if (a->height && (span == 0 || span > len))
		return -ERANGE;
	for (unsigned y = 0; y < a->height; y++) {
		const uint8_t *line = src + (size_t)(a->yoffset + y) * a->line_length;

		for (unsigned x = 0; x < a->width; x++) {
			uint32_t px = load_pixel(line, (uint64_t)a->xoffset + x, fmt);

			to_rgb(px, fmt, rgb + ((size_t)y * a->width + x) * 3);
		}
	}
	return 0;
}

/* ---- PNG ---- */

struct png_err {
	jmp_buf jb;
};

static void png_error_fn(png_structp png, png_const_charp msg)
{
	struct png_err *e = png_get_error_ptr(png);

	ERR("PNG: %s", msg);
	longjmp(e->jb, 1);
}

static void png_warning_fn(png_structp png, png_const_charp msg)
{
	(void)png;
	WRN("PNG: %s", msg);
}

int fb_snap_write_png(FILE *out, const uint8_t *rgb, unsigned width, unsigned height)
{
	struct png_err e;
	png_structp png;
	png_infop info = NULL;
	volatile int r = 0;

	if (!width || !height)
		return -EINVAL;
	if (fb_libpng_open("snap") < 0)
		return -ENOENT;
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &e, png_error_fn,
				      png_warning_fn);
	if (!png)
		return -ENOMEM;
	info = png_create_info_struct(png);
	if (!info) {
		png_destroy_write_struct(&png, NULL);
		return -ENOMEM;
	}
	if (setjmp(e.jb)) {
		r = -EIO;
		goto finish;
	}
	png_init_io(png, out);
	png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (unsigned y = 0; y < height; y++)
		png_write_row(png, rgb + (size_t)y * width * 3);
	png_write_end(png, info);
	if (fflush(out) != 0 || ferror(out))
		r = -EIO;
finish:
	png_destroy_write_struct(&png, &info);
	return r;
}

/* A name no other writer uses: O_EXCL turns a collision into a retry. */
static void temp_name(char *buf, size_t len, const char *name, unsigned attempt)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(buf, len, "%s.%08lx~", name,
		 (unsigned long)(((uint64_t)getpid() << 20) ^ (uint64_t)ts.tv_nsec ^
				 ((uint64_t)attempt * 0x9e3779b9u)) &
			 0xffffffffu);
}

int fb_snap_save_at(int dirfd, const char *name, const uint8_t *rgb, unsigned width,
		    unsigned height)
{
	char tmp[4096];
	FILE *f;
	int fd = -1, r;

	if (strlen(name) + 11 >= sizeof(tmp))
		return -ENAMETOOLONG;
	for (unsigned attempt = 0; fd < 0 && attempt < 100; attempt++) {
		temp_name(tmp, sizeof(tmp), name, attempt);
		fd = openat(dirfd, tmp,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			return -errno;
	}
	if (fd < 0)
		return -EEXIST;
	f = fdopen(fd, "w");
	if (!f) {
		r = -errno;
		close(fd);
		unlinkat(dirfd, tmp, 0);
		return r;
	}
	r = fb_snap_write_png(f, rgb, width, height);
	if (r == 0 && fchmod(fileno(f), 0644) < 0)
		r = -errno;
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	/* A stop signal during the write leaves no file at all. */
	if (r == 0 && fb_stop_signal)
		r = -EINTR;
	if (r == 0 && renameat(dirfd, tmp, dirfd, name) < 0)
		r = -errno;
	if (r < 0)
		unlinkat(dirfd, tmp, 0);
	return r;
}

/* ---- reading the device ---- */

static sigjmp_buf bus_jb;
static volatile sig_atomic_t bus_armed;

static void on_sigbus(int sig)
{
	(void)sig;
	if (bus_armed)
		siglongjmp(bus_jb, 1);
	signal(SIGBUS, SIG_DFL);
	raise(SIGBUS);
}

int fb_snap_copy_guarded(uint8_t *dst, const volatile uint8_t *map, size_t off, size_t n)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	int r = 0;

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &old) < 0)
		return -errno;
	if (sigsetjmp(bus_jb, 1) == 0) {
		bus_armed = 1;
		/* through a volatile pointer: memcpy may use vector loads, which
		 * some device memory does not take */
		for (size_t i = 0; i < n; i++)
			dst[i] = map[off + i];
	} else {
		r = -ENODEV;
	}
	bus_armed = 0;
	sigaction(SIGBUS, &old, NULL);
	return r;
}

static int read_span(int fd, size_t smem_len, size_t off, size_t n, uint8_t *dst)
{
	void *map = mmap(NULL, smem_len, PROT_READ, MAP_SHARED, fd, 0);
	size_t got = 0;
	int r;

	if (map != MAP_FAILED) {
		r = fb_snap_copy_guarded(dst, map, off, n);
		munmap(map, smem_len);
		return r;
	}
	DBG("mmap of %zu bytes failed (%m); reading with pread", smem_len);
	while (got < n) {
		ssize_t k = pread(fd, dst + got, n - got, (off_t)(off + got));

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (k == 0)
			return -ENODEV; /* memory shrank: the device changed or left */
		got += (size_t)k;
	}
	return 0;
}

int fb_snap_read(const struct fb_device *dev, const char *devdir, uint8_t **rgb,
		 unsigned *width, unsigned *height, char *fmtname, size_t fmtlen)
{
	struct fb_hwinfo hw;
	struct fb_snap_format fmt;
	struct fb_snap_area a;
	struct fb_pixel_format pf;
	_cleanup_free_ uint8_t *buf = NULL;
	uint8_t *out = NULL;
	const char *why = NULL;
	size_t first, span;
	int fd, r;

	*rgb = NULL;
	fd = fb_hw_open(dev, devdir, O_RDONLY, true, NULL);
	if (fd < 0)
		return fd;
	r = fb_hw_query_fd(fd, &hw);
	if (r < 0)
		goto finish;
	fb_pixel_format_decode(&hw.var, hw.fix.visual, &pf);
	snprintf(fmtname, fmtlen, "%s", pf.name);
	r = fb_snap_format_from_hw(&hw, &fmt, &why);
	if (r < 0) {
		ERR("%s: cannot snap format %s: %s", dev->name, pf.name, why);
		goto finish;
	}
	a.xoffset = hw.var.xoffset;
	a.yoffset = hw.var.yoffset;
	a.width = hw.var.xres;
	a.height = hw.var.yres;
	a.line_length = hw.fix.line_length;
	if (!a.line_length)
		a.line_length =
			(unsigned)(((uint64_t)hw.var.xres_virtual * fmt.bpp + 7) / 8);
	span = fb_snap_span(&a);
	if (!a.width || !a.height || !span || span > hw.fix.smem_len) {
		ERR("%s: visible area %ux%u+%u+%u (line_length %u) does not fit in smem_len %u",
		    dev->name, a.width, a.height, a.xoffset, a.yoffset, a.line_length,
		    hw.fix.smem_len);
		r = -ERANGE;
		goto finish;
	}
	kernel_hazards_warn(dev);
	/* Only the visible lines are copied; the conversion sees them as
	 * starting at line 0. */
	first = (size_t)a.yoffset * a.line_length;
	buf = malloc(span - first);
	out = malloc((size_t)a.width * a.height * 3);
	if (!buf || !out) {
		r = -ENOMEM;
		goto finish;
	}
	r = read_span(fd, hw.fix.smem_len, first, span - first, buf);
	if (r < 0)
		goto finish;
	close(fd);
	fd = -1;
	a.yoffset = 0;
	r = fb_snap_convert(buf, span - first, &a, &fmt, out);
	if (r == -ENODATA)
		ERR("%s: format %s needs a colour map and FBIOGETCMAP gave none",
		    dev->name, pf.name);
	if (r < 0)
		goto finish;
	*rgb = out;
	out = NULL;
	*width = a.width;
	*height = a.height;
finish:
	if (fd >= 0)
		close(fd);
	free(out);
	return r;
}
