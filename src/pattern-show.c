/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pattern on a real framebuffer: bench's open, save and restore around a
 * drawn pattern and a wait. */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "log.h"
#include "pattern-show.h"
#include "stop-signals.h"

struct show_ctx {
	const struct fb_device *fbdev;
	struct fb_bench_dev dev;
	struct fb_bench_mapping m;
	struct fb_pattern_format fmt;
	struct fb_bench_saved saved;
	struct fb_bench_console con;
	struct fb_cmap_copy cmap;
	uint8_t *frame;
};

/* The text pattern's lines: name and driver, format, mode, stride. */
static void describe(const struct show_ctx *c, char *buf, size_t len)
{
	const struct fb_var_screeninfo *v = &c->m.hw.var;
	uint64_t mhz = fb_refresh_mhz(v);
	char refresh[32] = "refresh unknown";

	if (mhz)
		snprintf(refresh, sizeof(refresh), "%" PRIu64 ".%02" PRIu64 " Hz",
			 mhz / 1000, mhz % 1000 / 10);
	snprintf(buf, len, "%s %s\n%s %u bpp\n%ux%u virtual %ux%u\n%s\nstride %u bytes",
		 c->fbdev->name, c->m.id, c->dev.fmt.name, v->bits_per_pixel, v->xres,
		 v->yres, v->xres_virtual, v->yres_virtual, refresh,
		 c->m.hw.fix.line_length);
}

/* The pattern packed into a copy of the saved frame: the padding after
 * each row stays as it was. */
static int prepare_frame(struct show_ctx *c, const struct fb_pattern *p)
{
	unsigned w = c->dev.vis.width, h = c->dev.vis.height;
	uint8_t *rgb = malloc((size_t)w * h * 3);
	int r = -ENOMEM;

	c->frame = malloc(c->saved.len);
	if (rgb && c->frame) {
		memcpy(c->frame, c->saved.contents, c->saved.len);
		fb_pattern_render(p, w, h, fb_pattern_levels(&c->fmt, w), rgb);
		r = fb_pattern_pack(&c->fmt, rgb, w, h, c->frame, c->dev.vis.stride,
				    &c->cmap);
	}
	free(rgb);
	if (r < 0)
		ERR("%s: cannot prepare the pattern: %s", c->fbdev->name, strerror(-r));
	return r;
}

static int draw(struct show_ctx *c)
{
	int r;

	if (c->fmt.kind == FB_PIXEL_INDEXED) {
		c->cmap.start = 0;
		r = fb_bench_put_cmap(c->dev.fd, &c->cmap);
		if (r < 0) {
			ERR("%s: cannot set the colour map of the pattern (%u entries): %s",
			    c->fbdev->name, c->cmap.len, strerror(-r));
			return r;
		}
	}
	r = fb_bench_put_frame(&c->dev, c->frame);
	if (r < 0) {
		if (r != -ENODEV)
			ERR("%s: cannot write the pattern: %s", c->fbdev->name,
			    strerror(-r));
		return r;
	}
	/* Deferred-I/O drivers show it only after a flush; others refuse fsync. */
	(void)fsync(c->dev.fd);
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool device_gone(const struct fb_bench_dev *dev)
{
	return dev->syspath && access(dev->syspath, F_OK) < 0 && errno == ENOENT;
}

/* Until a key on the terminal, the time or a stop signal, looking every
 * 100 ms whether the device is still there.  0, -EINTR or -ENODEV. */
static int wait_end(const struct show_ctx *c, const struct fb_pattern_show_opts *o)
{
	struct termios old, raw;
	bool key = o->key, term = false;
	double end = o->seconds >= 0 ? now() + o->seconds : -1;

	if (key && tcgetattr(STDIN_FILENO, &old) == 0) {
		raw = old;
		raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		raw.c_cc[VMIN] = 1;
		raw.c_cc[VTIME] = 0;
		term = tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0;
	}
	for (;;) {
		struct pollfd pfd = { STDIN_FILENO, POLLIN, 0 };
		int ms = 100, r = 0;
		char ch;

		if (fb_stop_signal)
			r = -EINTR;
		else if (device_gone(&c->dev))
			r = -ENODEV;
		else if (end >= 0 && end - now() <= 0)
			r = 1;
		if (r) {
			if (term)
				tcsetattr(STDIN_FILENO, TCSANOW, &old);
			return r < 0 ? r : 0;
		}
		if (end >= 0 && (end - now()) * 1000 < ms)
			ms = (int)((end - now()) * 1000) + 1;
		if (poll(&pfd, key ? 1 : 0, ms) > 0 && key) {
			/* a key ends it; a closed terminal stops the watch */
			if ((pfd.revents & POLLIN) && read(STDIN_FILENO, &ch, 1) == 1)
				end = now();
			else
				key = false;
		}
	}
}

/* Put the screen, mode and colour map back, unless the device is gone. */
static int put_back(struct show_ctx *c, int r)
{
	int rr;

	if (r == -ENODEV) {
		ERR("%s: the device went away while the pattern was shown (%s: %s); nothing left to put back",
		    c->fbdev->name, c->dev.syspath ? c->dev.syspath : c->fbdev->name,
		    strerror(ENODEV));
		return r;
	}
	rr = fb_bench_restore(&c->dev, &c->saved);
	if (rr == -ENODEV) {
		ERR("%s: the device went away while the screen was put back",
		    c->fbdev->name);
		return rr;
	}
	if (rr < 0) {
		ERR("%s: cannot put the screen, mode and colour map back: %s",
		    c->fbdev->name, strerror(-rr));
		return r < 0 ? r : rr;
	}
	return r;
}

static int show_saved(struct show_ctx *c, struct fb_pattern *p,
		      const struct fb_pattern_show_opts *opts)
{
	int r = prepare_frame(c, p);

	if (r >= 0)
		r = draw(c);
	if (r >= 0 && opts->shown)
		opts->shown(opts->shown_arg, c->fbdev->name, c->dev.fmt.name,
			    c->dev.vis.width, c->dev.vis.height,
			    (unsigned)c->dev.vis.stride);
	if (r >= 0 && opts->keep)
		return 0;
	if (r >= 0)
		r = wait_end(c, opts);
	return put_back(c, r);
}

int fb_pattern_show(const struct fb_device *fbdev, const char *devdir,
		    struct fb_pattern *p, const struct fb_pattern_show_opts *opts)
{
	static char text[512];
	struct show_ctx c = { .fbdev = fbdev, .con = { .fd = -1 } };
	char why[160];
	int r;

	r = fb_bench_device_open(fbdev, devdir, &c.dev, &c.m);
	if (r < 0)
		return r;
	r = fb_pattern_format_from_var(&c.m.hw.var, c.m.hw.fix.visual, &c.fmt, why,
				       sizeof(why));
	if (r < 0) {
		ERR("%s: cannot draw a pattern: %s", fbdev->name, why);
		goto close;
	}
	if (p->kind == FB_PATTERN_TEXT) {
		describe(&c, text, sizeof(text));
		p->text = text;
	}
	fb_bench_install_signals();
	/* --keep leaves the VT as it is: no console stuck in graphics mode */
	if (!opts->keep)
		fb_bench_console_quiet(devdir, &c.con);
	r = fb_bench_save(&c.dev, &c.saved);
	if (r < 0)
		ERR("%s: cannot save the screen, mode and colour map: %s%s", fbdev->name,
		    strerror(-r), r == -ENODEV ? " (device removed?)" : "");
	else
		r = show_saved(&c, p, opts);
	fb_bench_console_restore(&c.con);
	fb_bench_restore_signals();
	fb_bench_saved_free(&c.saved);
	free(c.frame);
close:
	fb_bench_device_close(&c.dev, &c.m);
	return r;
}
