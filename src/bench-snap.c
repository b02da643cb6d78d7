/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench --snap DIR: after a validation, read the visible area back from the
 * device, convert it with snap.c and save it as DIR/fbN-OP.png.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "log.h"
#include "macro.h"
#include "nodes.h"
#include "png-backend.h"
#include "snap.h"

int fb_bench_snaps_open(struct fb_bench_snaps *s, const char *dir)
{
	int fd;

	*s = (struct fb_bench_snaps){ .dirfd = -1, .dir = dir };
	fd = node_dir_open(dir);
	if (fd < 0)
		return log_errno(-errno,
				 "bench: --snap %s: cannot open the directory: %m", dir);
	/* Checked now, before anything is drawn. */
	if (faccessat(fd, ".", W_OK | X_OK, AT_EACCESS) < 0) {
		int r = log_errno(-errno,
				  "bench: --snap %s: cannot write in the directory: %m",
				  dir);
		close(fd);
		return r;
	}
	if (fb_libpng_open("bench --snap") < 0) {
		close(fd);
		return -ENOENT;
	}
	s->dirfd = fd;
	return 0;
}

void fb_bench_snaps_reset(struct fb_bench_snaps *s)
{
	s->n = 0;
}

void fb_bench_snaps_close(struct fb_bench_snaps *s)
{
	if (s->dirfd >= 0)
		close(s->dirfd);
	s->dirfd = -1;
}

struct read_args {
	uint8_t *dst;
	const struct fb_bench_dev *dev;
};

static int copy_rows(void *arg)
{
	struct read_args *a = arg;
	const struct bench_kernel_surface *v = &a->dev->vis;
	size_t n = bench_kernel_row_bytes(v->bpp, v->width);

	/* Row by row, as the comparison reads: the padding is not ours. */
	for (unsigned y = 0; y < v->height; y++)
		memcpy(a->dst + (size_t)y * v->stride, v->pixels + (size_t)y * v->stride,
		       n);
	return 0;
}

/* The format as snap.c describes it: from the device now (its colour map
 * as it is), or from dev for a RAM buffer. */
static int snap_format(const struct fb_bench_dev *dev, struct fb_hwinfo *hw,
		       struct fb_snap_format *fmt)
{
	const char *why = NULL;
	int r;

	memset(hw, 0, sizeof(*hw));
	if (dev->fd >= 0 && !dev->is_ram) {
		r = fb_hw_query_fd(dev->fd, hw);
		if (r < 0)
			return r;
	} else {
		hw->var = dev->var;
		hw->fix.visual = dev->visual;
		hw->fix.type = FB_TYPE_PACKED_PIXELS;
	}
	hw->var.bits_per_pixel = dev->vis.bpp; /* 15 is stored as 16 */
	r = fb_snap_format_from_hw(hw, fmt, &why);
	if (r < 0)
		ERR("%s: cannot convert %s for a snapshot: %s", dev->name, dev->fmt.name,
		    why);
	return r;
}

uint8_t *fb_bench_read_rgb(const struct fb_bench_dev *dev, int *err)
{
	const struct bench_kernel_surface *v = &dev->vis;
	size_t len = fb_bench_frame_bytes(dev);
	struct fb_snap_area area = { 0, 0, v->width, v->height, (unsigned)v->stride };
	struct fb_snap_format fmt;
	_cleanup_free_ struct fb_hwinfo *hw = malloc(sizeof(*hw));
	_cleanup_free_ uint8_t *frame = calloc(1, len);
	uint8_t *rgb = malloc((size_t)v->width * v->height * 3);
	int r;

	if (!hw || !frame || !rgb) {
		r = -ENOMEM;
		goto fail;
	}
	r = snap_format(dev, hw, &fmt);
	if (r < 0)
		goto fail;
	/* vis starts at the first visible pixel: xoffset and yoffset are in it. */
	if (dev->use_rw) {
		r = fb_bench_rw_all(dev->fd, frame, len, dev->vis_offset, false);
	} else {
		struct read_args a = { frame, dev };
		r = fb_bench_guarded(copy_rows, &a);
	}
	if (r < 0)
		goto fail;
	r = fb_snap_convert(frame, len, &area, &fmt, rgb);
	if (r == -ENODATA)
		ERR("%s: format %s needs a colour map and FBIOGETCMAP gave none",
		    dev->name, dev->fmt.name);
	if (r < 0)
		goto fail;
	return rgb;
fail:
	free(rgb);
	*err = r;
	return NULL;
}

/* Where op's snapshot goes, or NULL when the one it has stays. */
static struct fb_bench_snapshot *slot_for(struct fb_bench_snaps *s, const char *op,
					  bool passed, bool *is_new)
{
	*is_new = false;
	for (size_t i = 0; i < s->n; i++) {
		if (strcmp(s->shots[i].op, op) != 0)
			continue;
		/* a failure replaces a pass: that is what a person wants to see */
		return s->shots[i].passed && !passed ? &s->shots[i] : NULL;
	}
	if (s->n == FB_BENCH_SNAP_MAX)
		return NULL;
	*is_new = true;
	return &s->shots[s->n];
}

void fb_bench_snaps_validated(void *arg, const struct fb_bench_dev *dev, const char *op,
			      const char *strategy, bool passed)
{
	struct fb_bench_snaps *s = arg;
	bool is_new;
	struct fb_bench_snapshot *shot = slot_for(s, op, passed, &is_new);
	char name[128];
	uint8_t *rgb;
	int r = 0;

	if (!shot)
		return;
	snprintf(name, sizeof(name), "%s-%s.png", dev->name, op);
	rgb = fb_bench_read_rgb(dev, &r);
	if (rgb) {
		r = fb_snap_save_at(s->dirfd, name, rgb, dev->vis.width, dev->vis.height);
		free(rgb);
		if (r < 0)
			ERR("%s: cannot write the %s snapshot %s/%s: %s", dev->name, op,
			    s->dir, name, strerror(-r));
	} else if (r != -EOPNOTSUPP && r != -ENODATA) {
		ERR("%s: cannot read the %s snapshot back: %s", dev->name, op,
		    strerror(-r));
	}
	if (r < 0) {
		/* the slot keeps what an earlier strategy wrote, if anything */
		if (!s->error)
			s->error = r;
		return;
	}
	shot->op = op;
	shot->strategy = strategy;
	shot->passed = passed;
	snprintf(shot->file, sizeof(shot->file), "%s%s%s", s->dir,
		 s->dir[0] && s->dir[strlen(s->dir) - 1] == '/' ? "" : "/", name);
	if (is_new)
		s->n++;
}
