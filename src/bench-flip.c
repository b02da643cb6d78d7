/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench's flip: page flips by FBIOPAN_DISPLAY between the visible page and
 * a second one below it, per second.  Where the virtual area has no room
 * for a second page, it is made taller for the run (the restore puts the
 * mode back); where the driver does not pan, or will not take it, the
 * flip is skipped with the reason.
 */
#include <errno.h>
#include <linux/fb.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "stop-signals.h"

#define FLIPS_PER_RUN 8
#define MAX_RUNS      200

static void skip(struct fb_bench_flip *f, const char *fmt, ...) _printf_format_(2, 3);
static void skip(struct fb_bench_flip *f, const char *fmt, ...)
{
	va_list ap;

	f->ran = false;
	va_start(ap, fmt);
	vsnprintf(f->skipped, sizeof(f->skipped), fmt, ap);
	va_end(ap);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Room for both pages: the virtual height made taller when it is not.
 * 0, 1 skipped (said in f), or -ENODEV. */
static int make_room(const struct fb_caps_ops *ops, int fd, struct fb_var_screeninfo *var,
		     const struct fb_fix_screeninfo *fix, struct fb_bench_flip *f)
{
	uint32_t need = (f->page_y > f->home_y ? f->page_y : f->home_y) + var->yres;
	struct fb_var_screeninfo v = *var;
	int r;

	if (var->yres_virtual >= need)
		return 0;
	if ((uint64_t)fix->line_length * need > fix->smem_len) {
		skip(f,
		     "no room for a second page: %u rows of %u bytes need more than smem_len %u",
		     need, fix->line_length, fix->smem_len);
		return 1;
	}
	v.yres_virtual = need;
	v.activate = FB_ACTIVATE_NOW;
	r = ops->ioctl(fd, FBIOPUT_VSCREENINFO, &v);
	if (r == -ENODEV)
		return r;
	if (r < 0) {
		skip(f, "the driver refuses a virtual height of %u (twice %u): %s", need,
		     var->yres, strerror(-r));
		return 1;
	}
	f->resized = true;
	if (ops->ioctl(fd, FBIOGET_VSCREENINFO, var) < 0 || var->yres_virtual < need) {
		skip(f, "asked for a virtual height of %u, the driver made it %u", need,
		     var->yres_virtual);
		return 1;
	}
	return 0;
}

/* One run: FLIPS_PER_RUN pans, there and back.  0 or -errno. */
static int flip_run(const struct fb_caps_ops *ops, int fd, struct fb_var_screeninfo *v,
		    const struct fb_bench_flip *f, double *seconds)
{
	double t0 = now();

	for (unsigned i = 0; i < FLIPS_PER_RUN; i++) {
		int r;

		v->yoffset = i % 2 ? f->home_y : f->page_y;
		r = ops->ioctl(fd, FBIOPAN_DISPLAY, v);
		if (r < 0)
			return r;
	}
	*seconds = now() - t0;
	return 0;
}

/* Timed runs until the budget is spent; the rate into f->rate. */
static int flip_measure(const struct fb_caps_ops *ops, int fd,
			struct fb_var_screeninfo *v, double budget, bool quick,
			struct fb_bench_flip *f)
{
	double rates[MAX_RUNS], start = now(), lo, hi;
	unsigned n = 0;

	while (n < MAX_RUNS) {
		double s;
		int r;

		if (fb_stop_signal)
			return -EINTR;
		r = flip_run(ops, fd, v, f, &s);
		if (r < 0)
			return r;
		rates[n++] = s > 0 ? FLIPS_PER_RUN / s : 0;
		if (quick || (n >= 3 && now() - start >= budget))
			break;
	}
	lo = hi = rates[0];
	for (unsigned i = 1; i < n; i++) {
		lo = rates[i] < lo ? rates[i] : lo;
		hi = rates[i] > hi ? rates[i] : hi;
	}
	f->rate = (struct fb_bench_stat){ fb_bench_median(rates, n), lo, hi, n };
	return 0;
}

/* Pan to the second page, read the offset back, and back home. */
static int flip_verify(const struct fb_caps_ops *ops, int fd, struct fb_var_screeninfo *v,
		       struct fb_bench_flip *f)
{
	struct fb_var_screeninfo got;
	int r;

	v->yoffset = f->page_y;
	r = ops->ioctl(fd, FBIOPAN_DISPLAY, v);
	if (r >= 0)
		r = ops->ioctl(fd, FBIOGET_VSCREENINFO, &got);
	if (r >= 0)
		f->verified = got.yoffset == f->page_y;
	v->yoffset = f->home_y;
	if (ops->ioctl(fd, FBIOPAN_DISPLAY, v) < 0 && r >= 0)
		r = -EIO;
	return r;
}

int fb_bench_flip(const struct fb_caps_ops *ops, int fd, double budget, bool quick,
		  struct fb_bench_flip *f)
{
	struct fb_var_screeninfo var;
	struct fb_fix_screeninfo fix;
	uint32_t step;
	int r;

	*f = (struct fb_bench_flip){ .verified = -1 };
	r = ops->ioctl(fd, FBIOGET_VSCREENINFO, &var);
	if (r >= 0)
		r = ops->ioctl(fd, FBIOGET_FSCREENINFO, &fix);
	if (r == -ENODEV)
		return r;
	if (r < 0) {
		skip(f, "cannot query the mode: %s", strerror(-r));
		return 0;
	}
	step = fix.ypanstep;
	if (!step) {
		skip(f, "the driver does not pan vertically (ypanstep 0)");
		return 0;
	}
	f->home_y = var.yoffset;
	f->page_y = var.yoffset ? 0 : (var.yres + step - 1) / step * step;
	r = make_room(ops, fd, &var, &fix, f);
	if (r != 0)
		return r < 0 ? r : 0;
	f->yres_virtual = var.yres_virtual;
	var.vmode &= ~FB_VMODE_YWRAP;
	r = flip_measure(ops, fd, &var, budget, quick, f);
	if (r >= 0)
		r = flip_verify(ops, fd, &var, f);
	if (r == -ENODEV || r == -EINTR)
		return r;
	if (r < 0) {
		skip(f, "FBIOPAN_DISPLAY between y=%u and y=%u: %s", f->home_y, f->page_y,
		     strerror(-r));
		return 0;
	}
	f->ran = true;
	return 0;
}
