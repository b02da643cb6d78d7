/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* info --probe's measuring (src/fbcaps.c) on a framebuffer of our own: the
 * kernel's pan rules, a check_var with a memory limit, and the ways a
 * driver answers FBIO_WAITFORVSYNC and FBIOBLANK. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "fbcaps.h"
#include "test.h"

enum fake_vsync { VS_ENOTTY, VS_AT_ONCE, VS_PERIOD, VS_HANG };

static struct fake {
	struct fb_var_screeninfo var;
	struct fb_fix_screeninfo fix;
	uint32_t max_yres_virtual; /* check_var refuses more (the memory) */
	bool no_check_var; /* fb_set_var writes the current var back */
	int pan_error; /* FBIOPAN_DISPLAY's -errno, 0: the kernel's rules */
	bool pan_stays; /* says yes, moves nothing */
	enum fake_vsync vsync;
	int blank; /* FBIOBLANK's answer */
	unsigned pans, tests, nows;
} fake;

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

static const struct fb_caps_ops fake_ops = { .ioctl = fake_ioctl };
static const struct fb_caps_opts quick = { .vsync_timeout_ms = 200, .vsync_waits = 6 };

/* vfb: 640x480 in 1 MiB, pans and wraps by 1, no ioctl, no blank. */
static void fake_vfb(void)
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
static void fake_bochs(void)
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

static bool has(const struct fb_caps_item *item, const char *text)
{
	if (strstr(item->reason, text))
		return true;
	fprintf(stderr, "no \"%s\" in \"%s\"\n", text, item->reason);
	return false;
}

static void test_vfb(void)
{
	struct fb_caps c;

	fake_vfb();
	fb_caps_probe_fd(&fake_ops, -1, &quick, &c);
	ASSERT_INT_EQ(c.pan.answer, FB_CAPS_YES);
	ASSERT_INT_EQ(c.double_height, 1);
	ASSERT_INT_EQ(c.ypanstep, 1);
	ASSERT_TRUE(has(&c.pan, "960 (twice 480) accepted under FB_ACTIVATE_TEST"));
	ASSERT_INT_EQ(fake.tests, 1);
	ASSERT_INT_EQ(fake.nows, 0); /* nothing applied */
	ASSERT_INT_EQ(fake.var.yres_virtual, 480);
	ASSERT_INT_EQ(c.pan_display.answer, FB_CAPS_UNTESTED);
	ASSERT_TRUE(has(&c.pan_display, "no room to pan"));
	ASSERT_INT_EQ(fake.pans, 0);
	ASSERT_INT_EQ(c.vsync.answer, FB_CAPS_NO);
	ASSERT_TRUE(has(&c.vsync, strerror(ENOTTY)));
	ASSERT_INT_EQ(c.refresh_mhz, 0);
	ASSERT_INT_EQ(c.blank.answer, FB_CAPS_NO);
	ASSERT_STR_EQ(fb_caps_answer_name(c.blank.answer), "no");
}

static void test_bochs(void)
{
	struct fb_caps c;

	fake_bochs();
	fb_caps_probe_fd(&fake_ops, -1, &quick, &c);
	ASSERT_INT_EQ(c.pan.answer, FB_CAPS_YES);
	ASSERT_INT_EQ(fake.tests, 0); /* twice the height already */
	ASSERT_INT_EQ(c.pan_display.answer, FB_CAPS_YES);
	ASSERT_TRUE(
		has(&c.pan_display, "panned to 0,768 and read back, then back to 0,0"));
	ASSERT_INT_EQ(fake.pans, 2);
	ASSERT_INT_EQ(fake.var.yoffset, 0);
	ASSERT_INT_EQ(c.vsync.answer, FB_CAPS_NO);
	ASSERT_TRUE(has(&c.vsync, "returns at once"));
	ASSERT_INT_EQ(c.blank.answer, FB_CAPS_YES);
	ASSERT_STR_EQ(fb_caps_answer_name(c.blank.answer), "yes");

	/* from a page further down, to the top and back there */
	fake_bochs();
	fake.var.yoffset = 768;
	fb_caps_probe_fd(&fake_ops, -1, &quick, &c);
	ASSERT_TRUE(
		has(&c.pan_display, "panned to 0,0 and read back, then back to 0,768"));
	ASSERT_INT_EQ(fake.var.yoffset, 768);

	/* only sideways room: x */
	fake_bochs();
	fake.var.yres_virtual = 768;
	fake.var.xres_virtual = 1040;
	fake.fix.xpanstep = 8;
	fb_caps_probe_fd(&fake_ops, -1, &quick, &c);
	ASSERT_TRUE(has(&c.pan_display, "panned to 16,0"));
	ASSERT_INT_EQ(fake.var.xoffset, 0);
}

static void test_pan_refused(void)
{
	struct fb_caps c;

	/* no step at all */
	fake_vfb();
	fake.fix.xpanstep = fake.fix.ypanstep = fake.fix.ywrapstep = 0;
	fb_caps_probe_fd(&fake_ops, -1, &quick, &c);
	ASSERT_INT_EQ(c.pan.answer, FB_CAPS_NO);
	ASSERT_TRUE(has(&c.pan, "pans in no direction"));
	ASSERT_INT_EQ(c.pan_display.answer, FB_CAPS_NO);
	ASSERT_INT_EQ(c.double_height, -1);

	/* steps, but no memory for a second page */
	fake_vfb();
	fake.max_yres_virtual = 480;
	fb_caps_probe_fd(&fake_ops, -1, &quick, &c);
	ASSERT_INT_EQ(c.pan.answer, FB_CAPS_NO);
	ASSERT_INT_EQ(c.double_height, 0);
	ASSERT_TRUE(has(&c.pan, "refused under FB_ACTIVATE_TEST"));

	/* no check_var: the kernel writes the current mode back */
	fake_vfb();
	fake.no_check_var = true;
	fb_caps_probe_fd(&fake_ops, -1, &quick, &c);
	ASSERT_INT_EQ(c.pan.answer, FB_CAPS_NO);
	ASSERT_TRUE(has(&c.pan, "would make it 480"));

	/* a pan that says yes and moves nothing */
	fake_bochs();
	fake.pan_stays = true;
	fb_caps_probe_fd(&fake_ops, -1, &quick, &c);
	ASSERT_INT_EQ(c.pan_display.answer, FB_CAPS_NO);
	ASSERT_TRUE(has(&c.pan_display, "offsets read back are 0,0"));

	/* a KMS client holds the card */
	fake_bochs();
	fake.pan_error = -EBUSY;
	fb_caps_probe_fd(&fake_ops, -1, &quick, &c);
	ASSERT_INT_EQ(c.pan_display.answer, FB_CAPS_UNTESTED);
	ASSERT_INT_EQ(fake.pans, 1);
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void test_vsync(void)
{
	struct fb_caps c;
	double t0;

	/* a wait of 5 ms: 200 Hz at most, slower on a busy machine */
	fake_bochs();
	fake.vsync = VS_PERIOD;
	fb_caps_probe_fd(&fake_ops, -1, &quick, &c);
	ASSERT_INT_EQ(c.vsync.answer, FB_CAPS_YES);
	ASSERT_MSG(c.refresh_mhz <= 201000 && c.refresh_mhz > 20000, "%llu mHz",
		   (unsigned long long)c.refresh_mhz);
	ASSERT_TRUE(has(&c.vsync, "7 waits"));

	/* a wait that never returns: killed at the timeout */
	fake_bochs();
	fake.vsync = VS_HANG;
	t0 = seconds();
	fb_caps_probe_fd(&fake_ops, -1, &quick, &c);
	ASSERT_MSG(seconds() - t0 < 2.0, "%.2f s", seconds() - t0);
	ASSERT_INT_EQ(c.vsync.answer, FB_CAPS_UNTESTED);
	ASSERT_TRUE(has(&c.vsync, "did not return within 200 ms (0 of 7 waits done)"));
	ASSERT_STR_EQ(fb_caps_answer_name(c.vsync.answer), "untested");
	ASSERT_INT_EQ(c.blank.answer, FB_CAPS_YES); /* the rest goes on */
}

static void test_no_node(void)
{
	char dir[] = "/tmp/test-fbcaps.XXXXXX";
	struct fb_device dev = { .name = "fb7",
				 .devname = "fb7",
				 .devnum = makedev(29, 7) };
	struct fb_caps c;
	char path[64];
	int fd;

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	fb_caps_probe(&dev, dir, false, &c);
	ASSERT_INT_EQ(c.pan.answer, FB_CAPS_UNTESTED);
	ASSERT_INT_EQ(c.vsync.answer, FB_CAPS_UNTESTED);
	ASSERT_TRUE(has(&c.blank, "no node"));
	ASSERT_INT_EQ(c.double_height, -1);

	/* something else at the node's name */
	snprintf(path, sizeof(path), "%s/fb7", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	ASSERT_TRUE(fd >= 0);
	close(fd);
	fb_caps_probe(&dev, dir, false, &c);
	ASSERT_TRUE(has(&c.pan_display, "is not fb7's node"));
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	test_vfb();
	test_bochs();
	test_pan_refused();
	test_vsync();
	test_no_node();
	return test_finish("fbcaps");
}
