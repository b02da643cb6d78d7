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

#include "fb-fake-ioctl.h"
#include "fbcaps.h"
#include "test.h"

static const struct fb_caps_opts quick = { .vsync_timeout_ms = 200, .vsync_waits = 6 };

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
