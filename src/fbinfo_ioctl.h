/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Hardware query: open the node, FBIOGET_*, close.  Plus pure decoders. */

#include <linux/fb.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fbclass.h"

/* State of the /dev node named by DEVNAME under --dev DIR. */
enum fb_hw_node_state {
	FB_HW_NODE_OK, /* character device with the right st_rdev */
	FB_HW_NODE_MISSING, /* nothing at that name */
	FB_HW_NODE_WRONG, /* something else: symlink, file, wrong number */
};

struct fb_hw_node {
	char path[4096];
	enum fb_hw_node_state state;
	uid_t uid;
	gid_t gid;
	mode_t mode; /* full st_mode of the entry, when it exists */
};

struct fb_cmap_copy {
	uint32_t start, len; /* len 0: no colour map */
	uint16_t red[256], green[256], blue[256], transp[256];
	bool has_transp;
};

struct fb_hwinfo {
	bool valid; /* var and fix were read */
	int error; /* -errno of the failed step when !valid */
	bool via_private_node; /* read through a temporary node (root only) */
	struct fb_var_screeninfo var;
	struct fb_fix_screeninfo fix;
	struct fb_cmap_copy cmap;
};

/* Look at the node for dev under devdir (never follows a symlink). */
void fb_hw_node_inspect(const struct fb_device *dev, const char *devdir,
			struct fb_hw_node *node);

/* Open read-only the node (or, as root and when allow_private, a private
 * temporary node when the node is missing or wrong), query var, fix and,
 * for PSEUDOCOLOR and DIRECTCOLOR, the cmap; close.  Returns 0 or -errno
 * (-ENOENT: no node, -ESTALE: something else at its name); info->error
 * too. */
int fb_hw_query(const struct fb_device *dev, const char *devdir, bool allow_private,
		struct fb_hwinfo *info);
/* Query on an already open fd; used by fb_hw_query and bench. */
int fb_hw_query_fd(int fd, struct fb_hwinfo *info);
/* FBIOPUT_VSCREENINFO: the kernel writes back into var what it made of
 * the request (under FB_ACTIVATE_TEST too, applying nothing).  0 or -errno. */
int fb_hw_put_var(int fd, struct fb_var_screeninfo *var);
/* FBIOPAN_DISPLAY to var's xoffset and yoffset.  0 or -errno. */
int fb_hw_pan(int fd, struct fb_var_screeninfo *var);
/* Open a node for dev with flags (O_CLOEXEC|O_NOFOLLOW added), falling
 * back to a private temporary node as root when allow_private.  The fd is
 * checked to be the right character device.  Returns fd or -errno. */
int fb_hw_open(const struct fb_device *dev, const char *devdir, int flags,
	       bool allow_private, bool *via_private);
/* The same for any character device: devdir/name if it is devnum, else
 * (as root, when allow_private) a private temporary node. */
int fb_chrdev_open(const char *devdir, const char *name, dev_t devnum, int flags,
		   bool allow_private, bool *via_private);

/* ---- pure decoders ---- */
const char *fb_type_name(uint32_t type);
const char *fb_type_aux_name(uint32_t type, uint32_t aux); /* NULL if none applies */
const char *fb_visual_name(uint32_t visual);
const char *fb_accel_name(uint32_t accel);
/* Space-separated names of set bits ("HOR_HIGH_ACT VERT_HIGH_ACT"), or
 * "none"; unknown bits as "0x..".  Writes into buf. */
const char *fb_sync_names(uint32_t sync, char *buf, size_t len);
const char *fb_vmode_names(uint32_t vmode, char *buf, size_t len);
const char *fb_activate_names(uint32_t activate, char *buf, size_t len);

/* What a pixel is, enough to store one and read one back. */
enum fb_pixel_kind {
	FB_PIXEL_UNKNOWN,
	FB_PIXEL_RGB, /* packed truecolor/directcolor, masks in var */
	FB_PIXEL_INDEXED, /* C1..C8: cmap indices */
	FB_PIXEL_GRAY, /* R1..R8: grayscale */
	FB_PIXEL_FOURCC, /* var.grayscale > 1: a fourcc the driver names */
};

struct fb_pixel_format {
	enum fb_pixel_kind kind;
	unsigned bpp;
	char name[64]; /* DRM fourcc style: XRGB8888, RGB565, C8, R8, ... */
};

/* Bits one packed pixel takes in memory for the bits_per_pixel a driver
 * reports: 1, 2, 4, 8, 16, 24 and 32 themselves, 15 (RGB555) takes 16;
 * 0 for any other depth, which fbclassctl cannot address.  The one check
 * of a supported depth: bench, snap and the fill and copy kernels ask it. */
unsigned fb_pixel_storage_bits(unsigned bits_per_pixel);
/* bpp is a storage size itself (a surface's or a converted area's depth:
 * 15 is not, its pixels take 16). */
bool fb_pixel_bits_are_storage(unsigned bpp);

/* Name the format after the DRM fourcc convention from var and the visual. */
void fb_pixel_format_decode(const struct fb_var_screeninfo *var, uint32_t visual,
			    struct fb_pixel_format *fmt);

/* Refresh in millihertz from the timings; 0 when pixclock is 0 or the
 * timings are degenerate. */
uint64_t fb_refresh_mhz(const struct fb_var_screeninfo *var);

/* fix->id as a C string into buf (len > 0): its 16 bytes need not end
 * in a NUL.  Returns buf. */
const char *fb_fix_id(const struct fb_fix_screeninfo *fix, char *buf, size_t len);
/* A buffer that holds all of it. */
#define FB_FIX_ID_MAX (sizeof(((struct fb_fix_screeninfo *)0)->id) + 1)

/* The mode block that "fbset -s" prints for var, byte for byte. */
void fb_print_fbset_mode(FILE *out, const struct fb_var_screeninfo *var);
