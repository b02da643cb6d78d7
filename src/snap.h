/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * snap: the visible area of a framebuffer as 8-bit RGB, and as a PNG.
 *
 * The conversion is a pure function of a byte buffer and a format, so it
 * is unit-tested on synthetic buffers.  Components expand to 8 bits over
 * the full range, rounded: v * 255 / max (5-bit 31 is 255, not 248).
 * pixman is not used here: its bit replication is off by one from that
 * rounding for some values (RGB565 through pixman_image_composite32 to
 * x8r8g8b8: 4 of the 32 5-bit and 10 of the 64 6-bit values, e.g. 5-bit 3
 * is 24, not 25).  For 8-bit components the two agree, but there pixman
 * would only move bytes, so one code path serves every format.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fbinfo_ioctl.h"

struct fb_snap_format {
	enum fb_pixel_kind kind; /* RGB, INDEXED or GRAY */
	unsigned bpp; /* 1, 2, 4, 8, 16, 24 or 32 */
	uint32_t visual; /* FB_VISUAL_* */
	struct fb_bitfield red, green, blue; /* for RGB */
	bool inverted; /* MONO01: 1 is black */
	bool lsb_first; /* sub-byte pixels: leftmost in the low bits */
	const struct fb_cmap_copy *cmap; /* INDEXED, DIRECTCOLOR, GRAY via cmap */
};

/* The visible area: where it starts and how big it is. */
struct fb_snap_area {
	unsigned xoffset, yoffset; /* first visible pixel, in pixels */
	unsigned width, height; /* xres, yres */
	unsigned line_length; /* bytes per line */
};

/* Derive the format from a hardware query (hw->cmap is pointed to, so hw
 * must outlive fmt's use).  Returns 0, or -EOPNOTSUPP with *why set for a
 * format snap cannot read (FOURCC, planes, unknown). */
int fb_snap_format_from_hw(const struct fb_hwinfo *hw, struct fb_snap_format *fmt,
			   const char **why);

/* Bytes of the buffer the area needs, from the start of its first line:
 * (yoffset + height) * line_length; 0 on overflow. */
size_t fb_snap_span(const struct fb_snap_area *a);

/* Convert the area of src (len bytes, the start of framebuffer memory)
 * into width*height*3 bytes of RGB at rgb.  Returns 0, -ERANGE when the
 * area does not fit in len or in line_length, -EINVAL for a bad format,
 * -ENODATA when a colour map is needed and missing. */
int fb_snap_convert(const uint8_t *src, size_t len, const struct fb_snap_area *a,
		    const struct fb_snap_format *fmt, uint8_t *rgb);

/* v of len bits to 8 bits, full range, rounded. */
uint8_t fb_expand_to_8(uint32_t v, unsigned len);

/* Write width*height RGB as an 8-bit RGB PNG.  Returns 0 or -EIO. */
int fb_snap_write_png(FILE *out, const uint8_t *rgb, unsigned width, unsigned height);

/* Write width*height RGB as a PNG named name, relative to dirfd (or
 * AT_FDCWD), mode 0644: into a new temporary file next to it (O_CREAT|
 * O_EXCL|O_NOFOLLOW, a random suffix), then renamed over name.  So a
 * reader never sees half a PNG, an earlier PNG of that name is replaced,
 * and a symlink planted at name is replaced, never followed (rename acts
 * on the link itself).  Returns 0 or -errno; the temporary is removed on
 * failure. */
int fb_snap_save_at(int dirfd, const char *name, const uint8_t *rgb, unsigned width,
		    unsigned height);

/* Copy [off, off+n) of a mapping into dst, catching SIGBUS (the device
 * or file behind the mapping went away): 0 or -ENODEV. */
int fb_snap_copy_guarded(uint8_t *dst, const volatile uint8_t *map, size_t off, size_t n);

/* Read the visible area of dev (node under devdir) into a newly allocated
 * RGB buffer: open, query, map read-only (pread when mapping fails), copy
 * the area out under a SIGBUS guard, unmap, close; then convert.  Returns
 * 0 or -errno: -ENODEV when the device went away during the read. */
int fb_snap_read(const struct fb_device *dev, const char *devdir, uint8_t **rgb,
		 unsigned *width, unsigned *height, char *fmtname, size_t fmtlen);
