/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The framebuffer of fb-fake-ioctl.h. */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "fb-fake-ioctl.h"

struct fake fake;

/* fb_pan_display's checks (drivers/video/fbdev/core/fbmem.c) */
static int fake_pan(const struct fb_var_screeninfo *v)
{
	const struct fb_fix_screeninfo *fix = &fake.fix;
	uint32_t yres = fake.var.yres;

	fake.pans++;
	if (fake.pan_error)
		return fake.pan_error;
	if (v->yoffset > 0) {
		if (v->vmode & FB_VMODE_YWRAP) {
			if (!fix->ywrapstep || v->yoffset % fix->ywrapstep)
				return -EINVAL;
			yres = 0;
		} else if (!fix->ypanstep || v->yoffset % fix->ypanstep) {
			return -EINVAL;
		}
	}
	if (v->xoffset > 0 && (!fix->xpanstep || v->xoffset % fix->xpanstep))
		return -EINVAL;
	if (v->yoffset > fake.var.yres_virtual - yres ||
	    v->xoffset > fake.var.xres_virtual - fake.var.xres)
		return -EINVAL;
	if (!fake.pan_stays) {
		fake.var.xoffset = v->xoffset;
		fake.var.yoffset = v->yoffset;
	}
	return 0;
}

static int fake_put(struct fb_var_screeninfo *v)
{
	if ((v->activate & FB_ACTIVATE_MASK) == FB_ACTIVATE_TEST)
		fake.tests++;
	else
		fake.nows++;
	if (fake.no_check_var) {
		*v = fake.var;
		return 0;
	}
	if (v->yres_virtual > fake.max_yres_virtual)
		return -EINVAL;
	if ((v->activate & FB_ACTIVATE_MASK) == FB_ACTIVATE_NOW)
		fake.var = *v;
	return 0;
}

static int fake_vsync(void)
{
	struct timespec ts = { 0, 5000000 };

	switch (fake.vsync) {
	case VS_ENOTTY:
		return -ENOTTY;
	case VS_AT_ONCE:
		return 0;
	case VS_PERIOD:
		nanosleep(&ts, NULL);
		return 0;
	case VS_HANG:
		for (;;)
			pause();
	}
	return -EINVAL;
}

static int fake_ioctl(int fd, unsigned long request, void *arg)
{
	(void)fd;
	switch (request) {
	case FBIOGET_VSCREENINFO:
		memcpy(arg, &fake.var, sizeof(fake.var));
		return 0;
	case FBIOGET_FSCREENINFO:
		memcpy(arg, &fake.fix, sizeof(fake.fix));
		return 0;
	case FBIOPUT_VSCREENINFO:
		return fake_put(arg);
	case FBIOPAN_DISPLAY:
		return fake_pan(arg);
	case FBIO_WAITFORVSYNC:
		return fake_vsync();
	case FBIOBLANK:
		return (uintptr_t)arg == FB_BLANK_UNBLANK ? fake.blank : -EINVAL;
	}
	return -ENOTTY;
}

const struct fb_caps_ops fake_ops = { .ioctl = fake_ioctl };

/* vfb: 640x480 in 1 MiB, pans and wraps by 1, no ioctl, no blank. */
void fake_vfb(void)
{
	fake = (struct fake){
		.var = { .xres = 640,
			 .yres = 480,
			 .xres_virtual = 640,
			 .yres_virtual = 480,
			 .bits_per_pixel = 8 },
		.fix = { .xpanstep = 1,
			 .ypanstep = 1,
			 .ywrapstep = 1,
			 .line_length = 640,
			 .smem_len = 1 << 20 },
		.max_yres_virtual = (1 << 20) / 640,
		.vsync = VS_ENOTTY,
		.blank = -EINVAL,
	};
}

/* bochs's fbdev emulation with drm_fbdev_overalloc=200. */
void fake_bochs(void)
{
	fake = (struct fake){
		.var = { .xres = 1024,
			 .yres = 768,
			 .xres_virtual = 1024,
			 .yres_virtual = 1536,
			 .bits_per_pixel = 32 },
		.fix = { .xpanstep = 1, .ypanstep = 1, .line_length = 4096 },
		.max_yres_virtual = 1536,
		.vsync = VS_AT_ONCE,
		.blank = 0,
	};
}
