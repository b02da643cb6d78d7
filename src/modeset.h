/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * Setting a mode as fbset does: the request built from the current mode
 * (or an fb.modes mode) the way fbset builds it, FBIOPUT_VSCREENINFO, and
 * what the driver made of it.  Hold nothing: open, save, put, read back,
 * close.  The pure parts (modeset_build, modeset_diff, modeset_video_args)
 * are unit-tested.
 */

#include <linux/fb.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "display.h"
#include "fbclass.h"

/* fbset's default mode database. */
#define MODESET_DEFAULT_DB "/etc/fb.modes"

/* What set asks for; each part only when its flag says so. */
struct modeset_request {
	/* An fb.modes mode: the whole base of the request, as fbset takes a
	 * named mode instead of the current one.  NULL: the current mode. */
	const struct fb_var_screeninfo *mode;
	bool geometry; /* -g */
	uint32_t xres, yres, xres_virtual, yres_virtual, bits_per_pixel;
	bool timings; /* -t */
	uint32_t pixclock, left_margin, right_margin, upper_margin, lower_margin,
		hsync_len, vsync_len;
	bool rgba; /* --rgba */
	struct fb_bitfield red, green, blue, transp;
	bool nonstd; /* --nonstd */
	uint32_t nonstd_value;
	int accel; /* --accel: -1 keep, 0 off, 1 FB_ACCELF_TEXT */
	bool all; /* FB_ACTIVATE_ALL: every console on the fb */
	bool test; /* FB_ACTIVATE_TEST: ask, apply nothing */
	bool pan; /* --pan X,Y */
	uint32_t pan_x, pan_y;
};

/* Does the request change the mode (anything beyond --pan)? */
bool modeset_changes_mode(const struct modeset_request *req);

/* Pure.  The var fbset would hand FBIOPUT_VSCREENINFO for req on a
 * framebuffer whose mode is cur: fbset's VideoMode round trip (every field
 * it does not know is 0: offsets, size in mm, rotate; vmode gets
 * FB_VMODE_CONUPDATE), activate NOW or TEST, ORed with ALL.  -EINVAL when
 * the horizontal or vertical total is 0 (fbset's "Bad video mode"). */
int modeset_build(const struct fb_var_screeninfo *cur, const struct modeset_request *req,
		  struct fb_var_screeninfo *out);

/* One field the driver did not take as asked. */
struct modeset_change {
	const char *field; /* "pixclock", "yres_virtual", "red", ... */
	char asked[32], got[32];
};
#define MODESET_MAX_CHANGES 32
/* Pure.  The fields of got that differ from asked, in var's order; colours
 * as LENGTH/OFFSET, sync as a number, vmode without FB_VMODE_CONUPDATE
 * and the like (only its scan bits).  Returns the number written. */
size_t modeset_diff(const struct fb_var_screeninfo *asked,
		    const struct fb_var_screeninfo *got, struct modeset_change *out,
		    size_t max);

struct modeset_result {
	struct fb_var_screeninfo before; /* saved first */
	struct fb_fix_screeninfo fix; /* before */
	struct fb_var_screeninfo asked; /* the request (modeset_build) */
	struct fb_var_screeninfo got; /* what FBIOPUT_VSCREENINFO wrote back */
	struct fb_var_screeninfo after; /* read back at the end */
	bool mode_put; /* a mode was asked and the driver took it (or would: test) */
	bool panned; /* FBIOPAN_DISPLAY done */
	char refused[256]; /* what the driver refused, "" when nothing */
};

/* Open the node read-write (a private node as root when allow_private),
 * save var and fix, put the request, read back, pan, close.  A refused
 * request leaves the old mode (put back if a driver changed it anyway);
 * the field to blame is found by asking again under FB_ACTIVATE_TEST with
 * one part at a time as it was.  Errors are reported (ERR).  0; -EINVAL
 * the driver refused (res->refused says what); -ERANGE a pan outside the
 * virtual area (nothing done); -ENODEV and other -errno. */
int modeset_apply(const struct fb_device *dev, const char *devdir, bool allow_private,
		  const struct modeset_request *req, struct modeset_result *res);

/* Pure.  The video= kernel arguments that give a DRM card's fbdev
 * emulation xres x yres: one per connected connector whose modes offer
 * that size, "video=Virtual-1:1024x768" with "@HZ" when the EDID's
 * preferred mode is that size.  malloc'd strings into *args (strv).
 * 0 or -ENOMEM. */
int modeset_video_args(const struct drm_card *card, uint32_t xres, uint32_t yres,
		       char ***args, size_t *n);
/* Pure.  The same arguments for every size connector c offers (its sysfs
 * "modes", each size once, in its order: the preferred first), when it is
 * connected; none otherwise.  Appended to *args (strv).  0 or -ENOMEM. */
int modeset_connector_video_args(const struct drm_connector *c, char ***args, size_t *n);

/* set --mode's value: a mode of the fb.modes file db_path (NULL: the
 * default, which may then be missing for WxH) by name, else
 * "WxH[-depth][@refresh]" with the file's timings for that size, else
 * (*spec_only) only the size and depth, for the current timings.  0, or
 * -EINVAL (reported: the file's "FILE:LINE: reason", an unknown name). */
int modeset_resolve_mode(const char *name, const char *db_path,
			 struct fb_var_screeninfo *mode, bool *spec_only);
/* A size without timings (spec_only) as -g on the current mode; a depth
 * of 0 is cur_bpp.  An -g already in q wins, as in fbset. */
void modeset_spec_to_geometry(const struct fb_var_screeninfo *m, uint32_t cur_bpp,
			      struct modeset_request *q);
