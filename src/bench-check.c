/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What bench checks and puts back: signals (SIGINT/SIGTERM flag, SIGBUS on a
 * mapping turned into -ENODEV), the expected pixels of a format, the
 * comparison with its first mismatch, save/restore of contents, var and
 * cmap, and what the read-backs after the restore come to.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "bench.h"
#include "stop-signals.h"
#include "log.h"

/* ---- signals ---- */

static sigjmp_buf *volatile bus_jmp;
static struct sigaction old_bus;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	sigjmp_buf *jb = bus_jmp;

	if (jb)
		siglongjmp(*jb, 1);
	/* Not ours: die of it as we would have. */
	signal(sig, SIG_DFL);
	raise(sig);
}

void fb_bench_install_signals(void)
{
	struct sigaction sb = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO };

	sigemptyset(&sb.sa_mask);
	fb_stop_signals_catch();
	sigaction(SIGBUS, &sb, &old_bus);
}

void fb_bench_restore_signals(void)
{
	fb_stop_signals_restore();
	sigaction(SIGBUS, &old_bus, NULL);
}

int fb_bench_guarded(int (*fn)(void *arg), void *arg)
{
	sigjmp_buf jb;
	struct sigaction sb = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO }, old;
	int r;

	/* Always ours while a mapping is touched, whoever installed what. */
	sigemptyset(&sb.sa_mask);
	sigaction(SIGBUS, &sb, &old);
	if (sigsetjmp(jb, 1)) {
		bus_jmp = NULL;
		sigaction(SIGBUS, &old, NULL);
		return -ENODEV;
	}
	bus_jmp = &jb;
	r = fn(arg);
	bus_jmp = NULL;
	sigaction(SIGBUS, &old, NULL);
	return r;
}

/* ---- pixels ---- */

static uint32_t field_bits(const struct fb_bitfield *f, uint8_t value8)
{
	if (f->length == 0 || f->offset >= 32)
		return 0;
	uint32_t v = f->length >= 8 ? (uint32_t)value8 << (f->length - 8)
				    : (uint32_t)value8 >> (8 - f->length);
	return (v & (f->length >= 32 ? 0xffffffffu : (1u << f->length) - 1)) << f->offset;
}

static uint32_t bpp_mask(unsigned bpp)
{
	return bpp >= 32 ? 0xffffffffu : (1u << bpp) - 1;
}

uint32_t fb_bench_fill_pixel(const struct fb_bench_dev *dev)
{
	const struct fb_var_screeninfo *v = &dev->var;
	unsigned bpp = dev->vis.bpp;

	switch (dev->fmt.kind) {
	case FB_PIXEL_RGB:
		/* The test colour: 0x123456, and an alpha field fully opaque. */
		return (field_bits(&v->red, 0x12) | field_bits(&v->green, 0x34) |
			field_bits(&v->blue, 0x56) | field_bits(&v->transp, 0xff)) &
		       bpp_mask(bpp);
	case FB_PIXEL_GRAY:
		return (0xa5u >> (bpp < 8 ? 8 - bpp : 0)) & bpp_mask(bpp);
	case FB_PIXEL_INDEXED:
		return 5 & bpp_mask(bpp);
	default:
		return 0x00123456 & bpp_mask(bpp);
	}
}

uint32_t fb_bench_compare_mask(const struct fb_bench_dev *dev)
{
	const struct fb_var_screeninfo *v = &dev->var;
	uint32_t m;

	if (dev->fmt.kind != FB_PIXEL_RGB)
		return bpp_mask(dev->vis.bpp);
	/* Bits outside every field (the X of XRGB, bit 15 of RGB555) need not
	 * read back: hardware may drop them. */
	m = field_bits(&v->red, 0xff) | field_bits(&v->green, 0xff) |
	    field_bits(&v->blue, 0xff) | field_bits(&v->transp, 0xff);
	return m ? m & bpp_mask(dev->vis.bpp) : bpp_mask(dev->vis.bpp);
}

/* ---- comparison ---- */

struct compare_args {
	const struct fb_bench_dev *dev;
	const struct bench_kernel_surface *want;
	uint32_t pixel;
	const char *op, *strategy;
	struct fb_bench_validation *v;
	uint8_t *row_got, *row_want; /* one row each */
};

static void note_mismatch(struct compare_args *a, unsigned x, unsigned y, uint32_t want,
			  uint32_t got)
{
	struct fb_bench_validation *v = a->v;

	v->passed = false;
	v->mismatches++;
	if (!v->have_first) {
		v->have_first = true;
		v->first =
			(struct fb_bench_mismatch){ x, y, want, got, a->op, a->strategy };
	}
}

static int compare_rows(void *arg)
{
	struct compare_args *a = arg;
	const struct fb_bench_dev *dev = a->dev;
	const struct bench_kernel_surface *s = &dev->vis;
	size_t n = bench_kernel_row_bytes(s->bpp, s->width);
	uint32_t mask = fb_bench_compare_mask(dev);
	struct bench_kernel_surface rg = { a->row_got, n, s->width, 1, s->bpp };
	struct bench_kernel_surface rw = { a->row_want, n, s->width, 1, s->bpp };

	if (!a->want)
		bench_kernel_fill(&rw, 0, 0, s->width, 1, a->pixel,
				  BENCH_KERNEL_FILL_REFERENCE);
	for (unsigned y = 0; y < s->height; y++) {
		const uint8_t *src = s->pixels + (size_t)y * s->stride;

		if (dev->use_rw) {
			ssize_t r =
				pread(dev->fd, a->row_got, n,
				      dev->vis_offset + (off_t)((size_t)y * s->stride));
			if (r < 0)
				return -errno;
			if ((size_t)r != n)
				return -EIO;
		} else {
			/* One copy out of device memory per row; byte reads of
			 * write-combined memory would take seconds. */
			memcpy(a->row_got, src, n);
		}
		if (a->want)
			memcpy(a->row_want, a->want->pixels + (size_t)y * a->want->stride,
			       n);
		a->v->bytes_checked += n;
		if (memcmp(a->row_got, a->row_want, n) == 0)
			continue;
		for (unsigned x = 0; x < s->width; x++) {
			uint32_t got = bench_kernel_get_pixel(&rg, x, 0),
				 want = bench_kernel_get_pixel(&rw, x, 0);
			if ((got ^ want) & mask)
				note_mismatch(a, x, y, want & mask, got & mask);
		}
	}
	return 0;
}

int fb_bench_compare(const struct fb_bench_dev *dev,
		     const struct bench_kernel_surface *want, uint32_t pixel,
		     const char *op, const char *strategy, struct fb_bench_validation *v)
{
	size_t n = bench_kernel_row_bytes(dev->vis.bpp, dev->vis.width);
	struct compare_args a = { dev,	    want, pixel,	  op,
				  strategy, v,	  malloc(n + 64), malloc(n + 64) };
	int r = -ENOMEM;

	if (a.row_got && a.row_want)
		r = fb_bench_guarded(compare_rows, &a);
	free(a.row_got);
	free(a.row_want);
	return r;
}

/* ---- save and restore ---- */

struct copy_args {
	uint8_t *dst;
	const uint8_t *src;
	size_t len;
};

static int copy_guarded(void *arg)
{
	struct copy_args *c = arg;
	memcpy(c->dst, c->src, c->len);
	return 0;
}

size_t fb_bench_frame_bytes(const struct fb_bench_dev *dev)
{
	return dev->vis.stride * dev->vis.height;
}

int fb_bench_rw_all(int fd, void *buf, size_t len, off_t off, bool write_it)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t r = write_it ? pwrite(fd, p, len, off) : pread(fd, p, len, off);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -EIO;
		p += r;
		off += r;
		len -= (size_t)r;
	}
	return 0;
}

int fb_bench_save(const struct fb_bench_dev *dev, struct fb_bench_saved *saved)
{
	int r;

	*saved = (struct fb_bench_saved){ .len = fb_bench_frame_bytes(dev) };
	saved->contents = malloc(saved->len);
	if (!saved->contents)
		return -ENOMEM;
	if (dev->use_rw) {
		r = fb_bench_rw_all(dev->fd, saved->contents, saved->len, dev->vis_offset,
				    false);
	} else {
		struct copy_args c = { saved->contents, dev->vis.pixels, saved->len };
		r = fb_bench_guarded(copy_guarded, &c);
	}
	if (r < 0)
		goto fail;
	if (dev->fd >= 0 && !dev->is_ram) {
		struct fb_hwinfo hw;
		r = fb_hw_query_fd(dev->fd, &hw);
		if (r < 0)
			goto fail;
		saved->have_hw = true;
		saved->var = hw.var;
		saved->cmap = hw.cmap;
	}
	return 0;
fail:
	fb_bench_saved_free(saved);
	return r;
}

int fb_bench_put_cmap(int fd, const struct fb_cmap_copy *c)
{
	struct fb_cmap cmap = {
		.start = c->start,
		.len = c->len,
		.red = (uint16_t *)c->red,
		.green = (uint16_t *)c->green,
		.blue = (uint16_t *)c->blue,
		.transp = c->has_transp ? (uint16_t *)c->transp : NULL,
	};
	return ioctl(fd, FBIOPUTCMAP, &cmap) < 0 ? -errno : 0;
}

int fb_bench_put_frame(const struct fb_bench_dev *dev, const uint8_t *frame)
{
	size_t len = fb_bench_frame_bytes(dev);

	if (dev->use_rw)
		return fb_bench_rw_all(dev->fd, (void *)frame, len, dev->vis_offset, true);
	struct copy_args c = { dev->vis.pixels, frame, len };
	return fb_bench_guarded(copy_guarded, &c);
}

int fb_bench_restore(const struct fb_bench_dev *dev, const struct fb_bench_saved *saved)
{
	int r;

	if (!saved->contents)
		return -EINVAL;
	r = fb_bench_put_frame(dev, saved->contents);
	if (r < 0)
		return r;
	if (saved->have_hw) {
		struct fb_hwinfo now;
		r = fb_hw_query_fd(dev->fd, &now);
		if (r < 0)
			return r;
		if (memcmp(&now.var, &saved->var, sizeof(now.var)) != 0) {
			struct fb_var_screeninfo var = saved->var;
			var.activate = FB_ACTIVATE_NOW;
			if (ioctl(dev->fd, FBIOPUT_VSCREENINFO, &var) < 0)
				return -errno;
		}
		if (saved->cmap.len &&
		    (now.cmap.len != saved->cmap.len ||
		     memcmp(now.cmap.red, saved->cmap.red, sizeof(now.cmap.red)) ||
		     memcmp(now.cmap.green, saved->cmap.green, sizeof(now.cmap.green)) ||
		     memcmp(now.cmap.blue, saved->cmap.blue, sizeof(now.cmap.blue)))) {
			r = fb_bench_put_cmap(dev->fd, &saved->cmap);
			if (r < 0)
				return r;
		}
		/* Deferred-I/O drivers show the restored frame only after a flush. */
		if (fsync(dev->fd) < 0 && errno != EINVAL && errno != EROFS)
			return -errno;
	}
	return 0;
}

void fb_bench_saved_free(struct fb_bench_saved *saved)
{
	free(saved->contents);
	saved->contents = NULL;
}

const char *fb_bench_restore_name(enum fb_bench_restore_state state)
{
	switch (state) {
	case FB_BENCH_RESTORE_YES:
		return "yes";
	case FB_BENCH_RESTORE_CONSOLE_REDRAWN:
		return "console-redrawn";
	case FB_BENCH_RESTORE_NO:
		break;
	}
	return "no";
}

void fb_bench_restore_judge(const struct fb_bench_validation *gfx,
			    const struct fb_bench_validation *text, bool repainted,
			    struct fb_bench_report *rep)
{
	/* The first read-back that differs decides, with its first pixel. */
	const struct fb_bench_validation *v = gfx;

	rep->restore_after_text = false;
	if (!gfx->mismatches && text && text->mismatches) {
		v = text;
		rep->restore_after_text = true;
	}
	rep->restore_mismatches = v->mismatches;
	if (v->have_first)
		rep->restore_first = v->first;
	if (!v->mismatches)
		rep->restore = FB_BENCH_RESTORE_YES;
	else if (rep->restore_after_text && repainted)
		rep->restore = FB_BENCH_RESTORE_CONSOLE_REDRAWN;
	else
		rep->restore = FB_BENCH_RESTORE_NO;
	rep->restored = rep->restore != FB_BENCH_RESTORE_NO;
}
