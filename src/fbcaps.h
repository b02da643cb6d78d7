/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * What a framebuffer can do, measured by trying it (info --probe): pan,
 * FBIOPAN_DISPLAY, FBIO_WAITFORVSYNC and FBIOBLANK, each yes, no or
 * untested with its reason.  Within bench's rules: the pan offsets are put
 * back, a mode is only asked under FB_ACTIVATE_TEST (nothing applied), and
 * nothing hangs: the vsync waits run in a child that is killed at a
 * timeout.  The ioctls go through a table, so that tests/unit/test-fbcaps.c
 * hands it a framebuffer of its own.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fbclass.h"
#include "macro.h"

enum fb_caps_answer {
	FB_CAPS_UNTESTED,
	FB_CAPS_YES,
	FB_CAPS_NO,
};

struct fb_caps_item {
	enum fb_caps_answer answer;
	char reason[224];
};

struct fb_caps {
	/* the driver's pan steps, and a virtual height of twice the
	 * visible one asked under FB_ACTIVATE_TEST */
	struct fb_caps_item pan;
	uint16_t xpanstep, ypanstep, ywrapstep;
	int double_height; /* 1 accepted, 0 refused (or shrunk), -1 not asked */
	/* FBIOPAN_DISPLAY to another offset, read back, and back again */
	struct fb_caps_item pan_display;
	/* FBIO_WAITFORVSYNC under a timeout; the rate of successive waits */
	struct fb_caps_item vsync;
	uint64_t refresh_mhz; /* 0: not measured */
	/* FBIOBLANK, tried with FB_BLANK_UNBLANK (blanking would be seen) */
	struct fb_caps_item blank;
};

struct fb_caps_ops {
	/* ioctl(2): its result (>= 0), or -errno.  Called in a forked child
	 * too (the vsync waits). */
	int (*ioctl)(int fd, unsigned long request, void *arg);
};
extern const struct fb_caps_ops fb_caps_kernel_ops;

struct fb_caps_opts {
	unsigned vsync_timeout_ms; /* one wait; 0: 500 */
	unsigned vsync_waits; /* after the first, to time; 0: 10 */
};

/* Every item untested with why (printf-style), the steps unknown. */
void fb_caps_untested(struct fb_caps *caps, const char *fmt, ...) _printf_format_(2, 3);

/* Probe on fd, open read-write.  Never fails: what cannot be tried is
 * untested with its reason. */
void fb_caps_probe_fd(const struct fb_caps_ops *ops, int fd, const struct fb_caps_opts *o,
		      struct fb_caps *caps);

/* Open dev's node under devdir read-write (as root, when allow_private, a
 * private temporary node where it is missing), probe, close.  A node that
 * cannot be opened (none, not root) makes every item untested with why. */
void fb_caps_probe(const struct fb_device *dev, const char *devdir, bool allow_private,
		   struct fb_caps *caps);

/* "yes", "no", "untested" */
const char *fb_caps_answer_name(enum fb_caps_answer answer);

/* info's section: "  capabilities (probed):" and a line per item, the
 * reasons escaped. */
void fb_caps_print(FILE *out, const struct fb_caps *caps);
/* {"pan": {answer, reason, xpanstep, ypanstep, ywrapstep, double_height},
 *  "pan_display": {answer, reason}, "vsync": {answer, reason, refresh_hz},
 *  "blank": {answer, reason}} */
struct json_object *fb_caps_json(const struct fb_caps *caps);
