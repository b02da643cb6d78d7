/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Setting a mode as fbset does, and saying what the driver made of it. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fbinfo_ioctl.h"
#include "fbmodes.h"
#include "log.h"
#include "macro.h"
#include "modeset.h"
#include "strutil.h"

/* The var.sync bits fbset's VideoMode carries; the rest it drops. */
#define FBSET_SYNC_BITS                                                         \
	(FB_SYNC_HOR_HIGH_ACT | FB_SYNC_VERT_HIGH_ACT | FB_SYNC_COMP_HIGH_ACT | \
	 FB_SYNC_ON_GREEN | FB_SYNC_EXT | FB_SYNC_BROADCAST)

bool modeset_changes_mode(const struct modeset_request *req)
{
	return req->mode || req->geometry || req->timings || req->rgba || req->nonstd ||
	       req->accel >= 0;
}

static void apply_options(const struct modeset_request *req, struct fb_var_screeninfo *v)
{
	if (req->geometry) {
		v->xres = req->xres;
		v->yres = req->yres;
		v->xres_virtual = req->xres_virtual;
		v->yres_virtual = req->yres_virtual;
		v->bits_per_pixel = req->bits_per_pixel;
	}
	if (req->timings) {
		v->pixclock = req->pixclock;
		v->left_margin = req->left_margin;
		v->right_margin = req->right_margin;
		v->upper_margin = req->upper_margin;
		v->lower_margin = req->lower_margin;
		v->hsync_len = req->hsync_len;
		v->vsync_len = req->vsync_len;
	}
	if (req->nonstd)
		v->nonstd = req->nonstd_value;
	if (req->accel >= 0)
		v->accel_flags = req->accel ? FB_ACCELF_TEXT : 0;
	if (req->rgba) {
		v->red = req->red;
		v->green = req->green;
		v->blue = req->blue;
		v->transp = req->transp;
	}
}

int modeset_build(const struct fb_var_screeninfo *cur, const struct modeset_request *req,
		  struct fb_var_screeninfo *out)
{
	const struct fb_var_screeninfo *base = req->mode ? req->mode : cur;
	struct fb_var_screeninfo v = {};
	uint32_t scan = base->vmode & FB_VMODE_MASK;
	uint64_t htotal, vtotal;

	/* fbset's ConvertToVideoMode, then ConvertFromVideoMode: what its
	 * VideoMode holds survives, the rest is 0. */
	v.xres = base->xres;
	v.yres = base->yres;
	v.xres_virtual = base->xres_virtual;
	v.yres_virtual = base->yres_virtual;
	v.bits_per_pixel = base->bits_per_pixel;
	v.grayscale = base->grayscale;
	v.red = base->red;
	v.green = base->green;
	v.blue = base->blue;
	v.transp = base->transp;
	v.nonstd = base->nonstd;
	v.accel_flags = base->accel_flags;
	v.pixclock = base->pixclock;
	v.left_margin = base->left_margin;
	v.right_margin = base->right_margin;
	v.upper_margin = base->upper_margin;
	v.lower_margin = base->lower_margin;
	v.hsync_len = base->hsync_len;
	v.vsync_len = base->vsync_len;
	v.sync = base->sync & FBSET_SYNC_BITS;
	apply_options(req, &v);
	/* fbset's colours carry no msb_right */
	v.red.msb_right = v.green.msb_right = v.blue.msb_right = v.transp.msb_right = 0;
	v.vmode = scan == FB_VMODE_INTERLACED || scan == FB_VMODE_DOUBLE
			  ? scan
			  : FB_VMODE_NONINTERLACED;
	v.vmode |= FB_VMODE_CONUPDATE;
	v.activate = (req->test ? FB_ACTIVATE_TEST : FB_ACTIVATE_NOW) |
		     (req->all ? FB_ACTIVATE_ALL : 0);
	htotal = (uint64_t)v.left_margin + v.xres + v.right_margin + v.hsync_len;
	vtotal = (uint64_t)v.upper_margin + v.yres + v.lower_margin + v.vsync_len;
	*out = v;
	return htotal && vtotal ? 0 : -EINVAL;
}

/* ---- what the driver changed ---- */

#define U32_FIELD(name)                                                \
	{                                                              \
#name, offsetof(struct fb_var_screeninfo, name), false \
	}
#define BITFIELD(name)                                                \
	{                                                             \
#name, offsetof(struct fb_var_screeninfo, name), true \
	}

static const struct var_field {
	const char *name;
	size_t offset;
	bool bitfield;
} var_fields[] = {
	U32_FIELD(xres),	   U32_FIELD(yres),	    U32_FIELD(xres_virtual),
	U32_FIELD(yres_virtual),   U32_FIELD(xoffset),	    U32_FIELD(yoffset),
	U32_FIELD(bits_per_pixel), U32_FIELD(grayscale),    BITFIELD(red),
	BITFIELD(green),	   BITFIELD(blue),	    BITFIELD(transp),
	U32_FIELD(nonstd),	   U32_FIELD(accel_flags),  U32_FIELD(pixclock),
	U32_FIELD(left_margin),	   U32_FIELD(right_margin), U32_FIELD(upper_margin),
	U32_FIELD(lower_margin),   U32_FIELD(hsync_len),    U32_FIELD(vsync_len),
	U32_FIELD(sync),
};

static void field_text(const struct fb_var_screeninfo *v, const struct var_field *f,
		       char *buf, size_t len)
{
	const char *p = (const char *)v + f->offset;

	if (f->bitfield) {
		const struct fb_bitfield *b = (const struct fb_bitfield *)(const void *)p;

		snprintf(buf, len, "%" PRIu32 "/%" PRIu32, b->length, b->offset);
	} else {
		uint32_t u;

		memcpy(&u, p, sizeof(u));
		snprintf(buf, len, "%" PRIu32, u);
	}
}

size_t modeset_diff(const struct fb_var_screeninfo *asked,
		    const struct fb_var_screeninfo *got, struct modeset_change *out,
		    size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(var_fields) && n < max; i++) {
		char a[32], g[32];

		field_text(asked, &var_fields[i], a, sizeof(a));
		field_text(got, &var_fields[i], g, sizeof(g));
		if (strcmp(a, g) == 0)
			continue;
		out[n].field = var_fields[i].name;
		memcpy(out[n].asked, a, sizeof(a));
		memcpy(out[n].got, g, sizeof(g));
		n++;
	}
	if (n < max && (asked->vmode & FB_VMODE_MASK) != (got->vmode & FB_VMODE_MASK)) {
		out[n].field = "vmode";
		snprintf(out[n].asked, sizeof(out[n].asked), "%" PRIu32,
			 asked->vmode & FB_VMODE_MASK);
		snprintf(out[n].got, sizeof(out[n].got), "%" PRIu32,
			 got->vmode & FB_VMODE_MASK);
		n++;
	}
	return n;
}

static int get_var(int fd, struct fb_var_screeninfo *v)
{
	return ioctl(fd, FBIOGET_VSCREENINFO, v) < 0 ? -errno : 0;
}

/* ---- a refused request: which part ---- */

/* One part of a request, put back as it was for the probe. */
static void part_revert(int part, const struct fb_var_screeninfo *cur,
			struct fb_var_screeninfo *v)
{
	switch (part) {
	case 0:
		v->xres = cur->xres;
		v->yres = cur->yres;
		break;
	case 1:
		v->xres_virtual = cur->xres_virtual;
		v->yres_virtual = cur->yres_virtual;
		break;
	case 2:
		v->bits_per_pixel = cur->bits_per_pixel;
		v->red = cur->red;
		v->green = cur->green;
		v->blue = cur->blue;
		v->transp = cur->transp;
		break;
	case 3:
		v->pixclock = cur->pixclock;
		v->left_margin = cur->left_margin;
		v->right_margin = cur->right_margin;
		v->upper_margin = cur->upper_margin;
		v->lower_margin = cur->lower_margin;
		v->hsync_len = cur->hsync_len;
		v->vsync_len = cur->vsync_len;
		v->sync = cur->sync & FBSET_SYNC_BITS;
		break;
	case 4:
		v->nonstd = cur->nonstd;
		v->accel_flags = cur->accel_flags;
		v->grayscale = cur->grayscale;
		break;
	}
}

static const char *const part_names[] = {
	"the resolution (xres, yres)",
	"the virtual size (xres_virtual, yres_virtual)",
	"the depth (bits_per_pixel, rgba)",
	"the timings (pixclock, margins, sync lengths, sync)",
	"nonstd, accel_flags or grayscale",
};

/* Say which part the driver refuses, into res->refused. */
static void blame(int fd, const struct fb_var_screeninfo *asked,
		  struct modeset_result *res)
{
	const struct fb_var_screeninfo *cur = &res->before;
	uint64_t need = (uint64_t)asked->xres_virtual * asked->yres_virtual *
			asked->bits_per_pixel / 8;

	if (need > res->fix.smem_len) {
		snprintf(res->refused, sizeof(res->refused),
			 "yres_virtual: %" PRIu32 "x%" PRIu32 " at %" PRIu32
			 " bpp needs %" PRIu64 " bytes, the framebuffer has %" PRIu32,
			 asked->xres_virtual, asked->yres_virtual, asked->bits_per_pixel,
			 need, res->fix.smem_len);
		return;
	}
	for (int part = 0; part < (int)ARRAY_SIZE(part_names); part++) {
		struct fb_var_screeninfo probe = *asked;

		part_revert(part, cur, &probe);
		if (memcmp(&probe, asked, sizeof(probe)) == 0)
			continue;
		probe.activate = FB_ACTIVATE_TEST;
		if (fb_hw_put_var(fd, &probe) == 0) {
			snprintf(res->refused, sizeof(res->refused),
				 "%s: accepted with the current one", part_names[part]);
			return;
		}
	}
	snprintf(res->refused, sizeof(res->refused),
		 "no single part: the combination (every part alone is refused too)");
}

static int put_mode(int fd, const struct fb_device *dev,
		    const struct modeset_request *req, struct modeset_result *res)
{
	int r;

	res->got = res->asked;
	r = fb_hw_put_var(fd, &res->got);
	if (r == 0) {
		res->mode_put = true;
		return 0;
	}
	/* A device gone, or an ioctl that never reached a driver's check. */
	if (r == -ENODEV || r == -ENXIO || r == -EIO || r == -EFAULT)
		return log_errno(r, "%s: FBIOPUT_VSCREENINFO failed: %m%s", dev->name,
				 r == -ENODEV ? " (device removed?)" : "");
	blame(fd, &res->asked, res);
	ERR("%s: the driver refuses the mode%s (%s): %s", dev->name,
	    req->test ? " (--test)" : "", strerror(-r), res->refused);
	return -EINVAL;
}

static int pan(int fd, const struct fb_device *dev, const struct modeset_request *req,
	       struct modeset_result *res)
{
	struct fb_var_screeninfo v;
	int r;

	r = get_var(fd, &v);
	if (r < 0)
		return log_errno(r, "%s: cannot read the mode: %m", dev->name);
	if ((uint64_t)req->pan_x + v.xres > v.xres_virtual ||
	    (uint64_t)req->pan_y + v.yres > v.yres_virtual) {
		ERR("%s: pan %" PRIu32 ",%" PRIu32 " puts the %" PRIu32 "x%" PRIu32
		    " screen outside the virtual area %" PRIu32 "x%" PRIu32,
		    dev->name, req->pan_x, req->pan_y, v.xres, v.yres, v.xres_virtual,
		    v.yres_virtual);
		return -ERANGE;
	}
	if (req->test)
		return 0;
	v.xoffset = req->pan_x;
	v.yoffset = req->pan_y;
	r = fb_hw_pan(fd, &v);
	if (r < 0) {
		snprintf(res->refused, sizeof(res->refused),
			 "FBIOPAN_DISPLAY to %" PRIu32 ",%" PRIu32
			 ": %s (xpanstep %u, ypanstep %u, ywrapstep %u)",
			 req->pan_x, req->pan_y, strerror(-r), res->fix.xpanstep,
			 res->fix.ypanstep, res->fix.ywrapstep);
		ERR("%s: the driver refuses the pan: %s", dev->name, res->refused);
		return r == -ENODEV ? r : -EINVAL;
	}
	res->panned = true;
	return 0;
}

static bool same_mode(const struct fb_var_screeninfo *a, const struct fb_var_screeninfo *b)
{
	struct modeset_change c[1];

	return modeset_diff(a, b, c, 1) == 0;
}

static int open_node(const struct fb_device *dev, const char *devdir, bool allow_private)
{
	bool via_private;
	int fd = fb_hw_open(dev, devdir, O_RDWR, allow_private, &via_private);

	if (fd == -ENOENT)
		ERR("%s: no node %s/%s; 'fbclassctl coldplug' creates it", dev->name,
		    devdir, dev->devname);
	else if (fd == -ESTALE)
		ERR("%s: %s/%s is not character device %u:%u", dev->name, devdir,
		    dev->devname, major(dev->devnum), minor(dev->devnum));
	else if (fd < 0)
		log_errno(fd, "%s: cannot open %s/%s read-write: %m", dev->name, devdir,
			  dev->devname);
	return fd;
}

/* A refused request, or a test, must leave the mode as it was: when a
 * driver changed it anyway, put the saved one back. */
static void keep_old_mode(int fd, const struct fb_device *dev, struct modeset_result *res)
{
	struct fb_var_screeninfo v = res->before;

	if (same_mode(&res->before, &res->after))
		return;
	WRN("%s: the driver changed the mode although it %s; putting the old one back",
	    dev->name,
	    res->refused[0] ? "refused the request" : "was only asked (--test)");
	v.activate = FB_ACTIVATE_NOW;
	if (fb_hw_put_var(fd, &v) < 0 || get_var(fd, &res->after) < 0)
		ERR("%s: cannot put the old mode back: %m", dev->name);
}

static int modeset_on_fd(int fd, const struct fb_device *dev,
			 const struct modeset_request *req, struct modeset_result *res)
{
	int r = 0;

	if (get_var(fd, &res->before) < 0 || ioctl(fd, FBIOGET_FSCREENINFO, &res->fix) < 0)
		return log_errno(-errno, "%s: cannot read the mode: %m", dev->name);
	res->after = res->before;
	if (modeset_changes_mode(req)) {
		if (modeset_build(&res->before, req, &res->asked) < 0) {
			ERR("%s: bad mode: its horizontal or vertical total is 0",
			    dev->name);
			return -EDOM;
		}
		r = put_mode(fd, dev, req, res);
	}
	if (r == 0 && req->pan)
		r = pan(fd, dev, req, res);
	if (get_var(fd, &res->after) < 0) {
		if (r == 0)
			r = log_errno(-errno, "%s: cannot read the mode back: %m",
				      dev->name);
		return r;
	}
	if (modeset_changes_mode(req) && (r < 0 || req->test))
		keep_old_mode(fd, dev, res);
	return r;
}

int modeset_apply(const struct fb_device *dev, const char *devdir, bool allow_private,
		  const struct modeset_request *req, struct modeset_result *res)
{
	int fd, r;

	memset(res, 0, sizeof(*res));
	fd = open_node(dev, devdir, allow_private);
	if (fd < 0)
		return fd;
	r = modeset_on_fd(fd, dev, req, res);
	close(fd);
	return r;
}

/* ---- --mode ---- */

/* --mode: a name of the db, else WxH[-depth][@refresh] with the db's
 * timings for that size, else the current timings.  0, -EINVAL (said;
 * usage), or the db's error. */
int modeset_resolve_mode(const char *name, const char *db_path,
			 struct fb_var_screeninfo *mode, bool *spec_only)
{
	_cleanup_(fbmodes_db_free) struct fbmodes_db db = {};
	const char *path = db_path ? db_path : MODESET_DEFAULT_DB;
	const struct fbmodes_mode *m;
	struct fbmodes_spec spec;
	char err[512];
	bool is_spec = fbmodes_parse_spec(name, &spec) == 0;
	int r = fbmodes_load(path, &db, err, sizeof(err));

	*spec_only = false;
	if (r == -EINVAL || (r < 0 && (!is_spec || db_path))) {
		ERR("%s", err);
		return -EINVAL;
	}
	m = fbmodes_find(&db, name);
	if (!m && is_spec)
		m = fbmodes_match_spec(&db, &spec);
	if (m) {
		*mode = m->var;
		if (is_spec && spec.depth)
			mode->bits_per_pixel = spec.depth;
		return 0;
	}
	if (!is_spec) {
		_cleanup_free_ char *esc = str_escape(name, 64);

		ERR("unknown mode '%s': not in %s, and not WxH[-DEPTH][@HZ]",
		    esc ? esc : "?", path);
		return -EINVAL;
	}
	/* No timings for that size: the size and depth, on the current timings. */
	if (spec.refresh)
		WRN("no %" PRIu32 "x%" PRIu32 " mode in %s: @%" PRIu32
		    " cannot be honoured; the current timings are kept",
		    spec.xres, spec.yres, path, spec.refresh);
	*spec_only = true;
	*mode = (struct fb_var_screeninfo){ .xres = spec.xres,
					    .yres = spec.yres,
					    .xres_virtual = spec.xres,
					    .yres_virtual = spec.yres,
					    .bits_per_pixel = spec.depth };
	return 0;
}

/* A size without timings becomes -g on the current mode (and a depth of 0
 * the current depth). */
void modeset_spec_to_geometry(const struct fb_var_screeninfo *m, uint32_t cur_bpp,
			      struct modeset_request *q)
{
	bool had = q->geometry;

	if (had) /* -g given too: it wins, as fbset applies it after the mode */
		return;
	q->geometry = true;
	q->xres = m->xres;
	q->yres = m->yres;
	q->xres_virtual = m->xres_virtual;
	q->yres_virtual = m->yres_virtual;
	q->bits_per_pixel = m->bits_per_pixel ? m->bits_per_pixel : cur_bpp;
}

/* ---- DRM's fbdev emulation: the kernel argument ---- */

static bool connector_offers(const struct drm_connector *c, const char *size)
{
	for (size_t i = 0; i < c->n_modes; i++)
		if (strcmp(c->modes[i], size) == 0)
			return true;
	return false;
}

/* "video=NAME:WxH", with "@HZ" when it is the EDID's preferred size. */
static int video_arg(const struct drm_connector *c, uint32_t xres, uint32_t yres,
		     char **arg)
{
	const struct edid_timing *p = &c->edid_info.preferred;

	if (c->edid_info.has_preferred && p->hactive == xres && p->vactive == yres &&
	    p->refresh_mhz)
		return asprintf(arg, "video=%s:%" PRIu32 "x%" PRIu32 "@%" PRIu64,
				display_connector_short_name(c), xres, yres,
				(p->refresh_mhz + 500) / 1000);
	return asprintf(arg, "video=%s:%" PRIu32 "x%" PRIu32,
			display_connector_short_name(c), xres, yres);
}

static int push_video_arg(const struct drm_connector *c, uint32_t xres, uint32_t yres,
			  char ***args, size_t *n, size_t *cap)
{
	char *arg = NULL;

	if (video_arg(c, xres, yres, &arg) < 0)
		return -ENOMEM;
	return strv_push(args, n, cap, arg) < 0 ? -ENOMEM : 0;
}

int modeset_video_args(const struct drm_card *card, uint32_t xres, uint32_t yres,
		       char ***args, size_t *n)
{
	size_t cap = *n;
	char size[32];

	snprintf(size, sizeof(size), "%" PRIu32 "x%" PRIu32, xres, yres);
	for (size_t i = 0; card && i < card->n_connectors; i++) {
		const struct drm_connector *c = &card->connectors[i];

		if (c->status != DRM_STATUS_CONNECTED || !connector_offers(c, size))
			continue;
		if (push_video_arg(c, xres, yres, args, n, &cap) < 0)
			return -ENOMEM;
	}
	return 0;
}

int modeset_connector_video_args(const struct drm_connector *c, char ***args, size_t *n)
{
	size_t cap = *n;

	if (c->status != DRM_STATUS_CONNECTED)
		return 0;
	for (size_t j = 0; j < c->n_modes; j++) {
		struct fbmodes_spec spec;

		/* one line per refresh in sysfs: each size once; "WxHi" and
		 * the like are not what video= takes as WxH */
		if (strv_contains(c->modes, j, c->modes[j]) ||
		    fbmodes_parse_spec(c->modes[j], &spec) < 0 || spec.depth ||
		    spec.refresh)
			continue;
		if (push_video_arg(c, spec.xres, spec.yres, args, n, &cap) < 0)
			return -ENOMEM;
	}
	return 0;
}
