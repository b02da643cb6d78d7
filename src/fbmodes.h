/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * fb.modes, fbset's mode database (fb.modes(5)), and the mode string
 * "WxH[-depth][@refresh]".  Pure: text in, modes out; nothing is opened
 * but the file fbmodes_load() is asked to read.
 *
 *   mode "NAME"
 *       geometry XRES YRES VXRES VYRES DEPTH
 *       timings PIXCLOCK LEFT RIGHT UPPER LOWER HSLEN VSLEN
 *       [hsync|vsync|csync|gsync high|low] [extsync|bcast|laced|double|accel|grayscale
 *       true|false] [nonstd N] [rgba R[/O],G[/O],B[/O],T[/O]]
 *   endmode
 *
 * A mode is kept as the fb_var_screeninfo fbset builds from it
 * (ConvertFromVideoMode): accel_flags FB_ACCELF_TEXT unless "accel false",
 * everything not named 0.  activate and FB_VMODE_CONUPDATE are the
 * request's business (modeset.c).
 */

#include <linux/fb.h>
#include <stddef.h>
#include <stdint.h>

struct fbmodes_mode {
	char *name;
	unsigned line; /* of its "mode" keyword */
	struct fb_var_screeninfo var;
};

struct fbmodes_db {
	struct fbmodes_mode *modes; /* in file order */
	size_t n;
};

/* Parse text (fb.modes syntax) named file in messages.  On a malformed
 * file, -EINVAL with "FILE:LINE: reason" in err and db left empty;
 * -ENOMEM.  A mode whose horizontal or vertical total is 0 is malformed
 * (fbset's "Bad video mode"), so is a name given twice. */
int fbmodes_parse(const char *text, const char *file, struct fbmodes_db *db, char *err,
		  size_t errlen);
/* Read and parse path.  -errno of open/read ("PATH: cause" in err), or
 * what fbmodes_parse() returns. */
int fbmodes_load(const char *path, struct fbmodes_db *db, char *err, size_t errlen);
void fbmodes_db_free(struct fbmodes_db *db);
/* The mode called name (exact, as fbset), or NULL. */
const struct fbmodes_mode *fbmodes_find(const struct fbmodes_db *db, const char *name);

/* "WxH[-depth][@refresh]" ("1024x768", "800x600-16", "640x480-8@60");
 * depth and refresh 0 when absent.  0 or -EINVAL. */
struct fbmodes_spec {
	uint32_t xres, yres, depth, refresh;
};
int fbmodes_parse_spec(const char *s, struct fbmodes_spec *spec);
/* The db mode of spec's size whose refresh is nearest spec's, of spec's
 * depth among equals (the caller sets the depth: the mode only gives the
 * timings); the first such in the file; NULL when none has that size. */
const struct fbmodes_mode *fbmodes_match_spec(const struct fbmodes_db *db,
					      const struct fbmodes_spec *spec);

/* fbset's rgba argument: "R,G,B,T" lengths or "R/O,G/O,B/O,T/O" with
 * offsets; missing trailing colours are 0.  0 or -EINVAL. */
int fbmodes_parse_rgba(const char *s, struct fb_var_screeninfo *var);

/* Pure.  VESA CVT's timings (standard blanking, progressive) for a
 * WxH mode at hz, as `cvt W H HZ` gives them, as the var fbset would
 * build from them at depth bpp (virtual size the visible one).  For a
 * mode whose own timings are not known.  0, or -EINVAL for a size or
 * refresh of 0 or a mode too large for var's fields. */
int fbmodes_cvt(uint32_t xres, uint32_t yres, uint32_t hz, uint32_t bpp,
		struct fb_var_screeninfo *var);
