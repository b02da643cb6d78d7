/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* A framebuffer of our own behind struct fb_caps_ops (src/fbcaps.h): the
 * kernel's pan rules, a check_var with a memory limit, and the ways a
 * driver answers FBIO_WAITFORVSYNC and FBIOBLANK.  For test-fbcaps and
 * test-bench-flip. */

#include <linux/fb.h>
#include <stdbool.h>
#include <stdint.h>

#include "fbcaps.h"

enum fake_vsync { VS_ENOTTY, VS_AT_ONCE, VS_PERIOD, VS_HANG };

struct fake {
	struct fb_var_screeninfo var;
	struct fb_fix_screeninfo fix;
	uint32_t max_yres_virtual; /* check_var refuses more (the memory) */
	bool no_check_var; /* fb_set_var writes the current var back */
	int pan_error; /* FBIOPAN_DISPLAY's -errno, 0: the kernel's rules */
	bool pan_stays; /* says yes, moves nothing */
	enum fake_vsync vsync;
	int blank; /* FBIOBLANK's answer */
	unsigned pans, tests, nows;
};

extern struct fake fake;
extern const struct fb_caps_ops fake_ops;
/* Every fault cleared, as vfb (640x480 in 1 MiB, pans and wraps by 1, no
 * ioctl, no blank) or as bochs's fbdev emulation with
 * drm_fbdev_overalloc=200 (1024x768 in 1024x1536, vsync at once). */
void fake_vfb(void);
void fake_bochs(void);
