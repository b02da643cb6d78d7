/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* set's pure parts (modeset.c): the request fbset would build, the
 * report of what the driver changed, and the video= argument. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modeset.h"
#include "strutil.h"
#include "test.h"

/* vfb's default mode, with what fbset drops set: offsets, mm, rotate. */
static const struct fb_var_screeninfo vfb8 = {
	.xres = 640,
	.yres = 480,
	.xres_virtual = 640,
	.yres_virtual = 960,
	.xoffset = 8,
	.yoffset = 16,
	.bits_per_pixel = 8,
	.red = { 0, 8, 0 },
	.green = { 0, 8, 0 },
	.blue = { 0, 8, 0 },
	.activate = FB_ACTIVATE_NOW,
	.height = 300,
	.width = 400,
	.accel_flags = 0,
	.pixclock = 20000,
	.left_margin = 64,
	.right_margin = 64,
	.upper_margin = 32,
	.lower_margin = 32,
	.hsync_len = 64,
	.vsync_len = 2,
	.sync = FB_SYNC_HOR_HIGH_ACT | 0x80000000u,
	.vmode = FB_VMODE_DOUBLE | FB_VMODE_YWRAP,
	.rotate = 1,
	.colorspace = 7,
};

static struct modeset_request no_request(void)
{
	return (struct modeset_request){ .accel = -1 };
}

static void test_build_geometry(void)
{
	struct modeset_request q = no_request();
	struct fb_var_screeninfo v;

	ASSERT_TRUE(!modeset_changes_mode(&q));
	q.geometry = true;
	q.xres = 1024, q.yres = 768, q.xres_virtual = 1024, q.yres_virtual = 1536;
	q.bits_per_pixel = 16;
	ASSERT_TRUE(modeset_changes_mode(&q));
	ASSERT_INT_EQ(modeset_build(&vfb8, &q, &v), 0);
	ASSERT_INT_EQ(v.xres, 1024);
	ASSERT_INT_EQ(v.yres_virtual, 1536);
	ASSERT_INT_EQ(v.bits_per_pixel, 16);
	/* fbset keeps the rest of the current mode ... */
	ASSERT_INT_EQ(v.pixclock, 20000);
	ASSERT_INT_EQ(v.hsync_len, 64);
	ASSERT_INT_EQ(v.red.length, 8);
	/* ... drops what its VideoMode does not hold ... */
	ASSERT_INT_EQ(v.xoffset, 0);
	ASSERT_INT_EQ(v.yoffset, 0);
	ASSERT_INT_EQ(v.height, 0);
	ASSERT_INT_EQ(v.width, 0);
	ASSERT_INT_EQ(v.rotate, 0);
	ASSERT_INT_EQ(v.colorspace, 0);
	ASSERT_INT_EQ(v.sync, FB_SYNC_HOR_HIGH_ACT);
	/* ... and asks for CONUPDATE, now */
	ASSERT_INT_EQ(v.vmode, FB_VMODE_DOUBLE | FB_VMODE_CONUPDATE);
	ASSERT_INT_EQ(v.activate, FB_ACTIVATE_NOW);
	q.test = true;
	modeset_build(&vfb8, &q, &v);
	ASSERT_INT_EQ(v.activate, FB_ACTIVATE_TEST);
	q.all = true;
	modeset_build(&vfb8, &q, &v);
	ASSERT_INT_EQ(v.activate, FB_ACTIVATE_TEST | FB_ACTIVATE_ALL);
	q.test = false;
	modeset_build(&vfb8, &q, &v);
	ASSERT_INT_EQ(v.activate, FB_ACTIVATE_ALL);
}

static void test_build_options(void)
{
	struct modeset_request q = no_request();
	struct fb_var_screeninfo mode = { .xres = 800,
					  .yres = 600,
					  .xres_virtual = 800,
					  .yres_virtual = 600,
					  .bits_per_pixel = 32,
					  .accel_flags = FB_ACCELF_TEXT,
					  .pixclock = 25000,
					  .left_margin = 88,
					  .right_margin = 40,
					  .upper_margin = 23,
					  .lower_margin = 1,
					  .hsync_len = 128,
					  .vsync_len = 4,
					  .vmode = FB_VMODE_INTERLACED };
	struct fb_var_screeninfo v;

	/* an fb.modes mode is the whole base: nothing of the current mode */
	q.mode = &mode;
	ASSERT_INT_EQ(modeset_build(&vfb8, &q, &v), 0);
	ASSERT_INT_EQ(v.xres, 800);
	ASSERT_INT_EQ(v.pixclock, 25000);
	ASSERT_INT_EQ(v.red.length, 0);
	ASSERT_INT_EQ(v.sync, 0);
	ASSERT_INT_EQ(v.accel_flags, FB_ACCELF_TEXT);
	ASSERT_INT_EQ(v.vmode, FB_VMODE_INTERLACED | FB_VMODE_CONUPDATE);
	/* options apply on top of it */
	q.timings = true;
	q.pixclock = 39722, q.left_margin = 48, q.right_margin = 16, q.upper_margin = 33;
	q.lower_margin = 10, q.hsync_len = 96, q.vsync_len = 2;
	q.accel = 0;
	q.nonstd = true, q.nonstd_value = 3;
	q.rgba = true;
	q.red = (struct fb_bitfield){ 11, 5, 0 };
	q.green = (struct fb_bitfield){ 5, 6, 0 };
	q.blue = (struct fb_bitfield){ 0, 5, 0 };
	ASSERT_INT_EQ(modeset_build(&vfb8, &q, &v), 0);
	ASSERT_INT_EQ(v.pixclock, 39722);
	ASSERT_INT_EQ(v.vsync_len, 2);
	ASSERT_INT_EQ(v.accel_flags, 0);
	ASSERT_INT_EQ(v.nonstd, 3);
	ASSERT_INT_EQ(v.red.offset, 11);
	ASSERT_INT_EQ(v.red.length, 5);
	ASSERT_INT_EQ(v.green.length, 6);
	/* fbset's "Bad video mode" */
	q.timings = false;
	q.mode = NULL;
	q.geometry = true;
	struct fb_var_screeninfo zero = {};
	ASSERT_INT_EQ(modeset_build(&zero, &q, &v), -EINVAL);
}

static void test_diff(void)
{
	struct fb_var_screeninfo asked = vfb8, got = vfb8;
	struct modeset_change c[MODESET_MAX_CHANGES];
	size_t n;

	ASSERT_INT_EQ(modeset_diff(&asked, &got, c, MODESET_MAX_CHANGES), 0);
	/* neither CONUPDATE nor activate, height, rotate count */
	got.vmode |= FB_VMODE_CONUPDATE;
	got.activate = 0;
	got.height = 0;
	got.rotate = 0;
	ASSERT_INT_EQ(modeset_diff(&asked, &got, c, MODESET_MAX_CHANGES), 0);
	got.pixclock = 20001;
	got.yres_virtual = 1024;
	got.red = (struct fb_bitfield){ 11, 5, 0 };
	got.vmode = FB_VMODE_NONINTERLACED;
	n = modeset_diff(&asked, &got, c, MODESET_MAX_CHANGES);
	ASSERT_INT_EQ(n, 4);
	if (n == 4) {
		ASSERT_STR_EQ(c[0].field, "yres_virtual");
		ASSERT_STR_EQ(c[0].asked, "960");
		ASSERT_STR_EQ(c[0].got, "1024");
		ASSERT_STR_EQ(c[1].field, "red");
		ASSERT_STR_EQ(c[1].asked, "8/0");
		ASSERT_STR_EQ(c[1].got, "5/11");
		ASSERT_STR_EQ(c[2].field, "pixclock");
		ASSERT_STR_EQ(c[2].got, "20001");
		ASSERT_STR_EQ(c[3].field, "vmode");
		ASSERT_STR_EQ(c[3].asked, "2");
		ASSERT_STR_EQ(c[3].got, "0");
	}
	ASSERT_INT_EQ(modeset_diff(&asked, &got, c, 2), 2);
}

static void test_video_args(void)
{
	char *modes[] = { "1920x1080", "1024x768", "800x600" };
	char *none[] = { "1024x768" };
	struct drm_connector conns[] = {
		{ .name = "card0-DP-1",
		  .status = DRM_STATUS_DISCONNECTED,
		  .modes = none,
		  .n_modes = 1 },
		{ .name = "card0-Virtual-1",
		  .status = DRM_STATUS_CONNECTED,
		  .modes = modes,
		  .n_modes = 3,
		  .edid_info = { .has_preferred = true,
				 .preferred = { .hactive = 1024,
						.vactive = 768,
						.refresh_mhz = 60004 } } },
		{ .name = "card0-Virtual-2",
		  .status = DRM_STATUS_CONNECTED,
		  .modes = modes,
		  .n_modes = 3 },
	};
	struct drm_card card = { .name = "card0", .connectors = conns, .n_connectors = 3 };
	char **args = NULL;
	size_t n = 0;

	ASSERT_INT_EQ(modeset_video_args(&card, 1024, 768, &args, &n), 0);
	ASSERT_INT_EQ(n, 2);
	if (n == 2) {
		ASSERT_STR_EQ(args[0], "video=Virtual-1:1024x768@60");
		ASSERT_STR_EQ(args[1], "video=Virtual-2:1024x768");
	}
	strv_free(args, n);
	args = NULL, n = 0;
	ASSERT_INT_EQ(modeset_video_args(&card, 800, 600, &args, &n), 0);
	ASSERT_INT_EQ(n, 2);
	if (n == 2)
		ASSERT_STR_EQ(args[0], "video=Virtual-1:800x600");
	strv_free(args, n);
	args = NULL, n = 0;
	/* only a mode the connector offers */
	ASSERT_INT_EQ(modeset_video_args(&card, 1280, 1024, &args, &n), 0);
	ASSERT_INT_EQ(n, 0);
	ASSERT_INT_EQ(modeset_video_args(NULL, 1024, 768, &args, &n), 0);
	ASSERT_INT_EQ(n, 0);
	free(args);
}

static void test_connector_video_args(void)
{
	char *modes[] = { "1024x768", "1920x1080i", "1024x768", "800x600", "640x480" };
	struct drm_connector c = {
		.name = "card0-Virtual-1",
		.status = DRM_STATUS_CONNECTED,
		.modes = modes,
		.n_modes = 5,
		.edid_info = { .has_preferred = true,
			       .preferred = { .hactive = 1024,
					      .vactive = 768,
					      .refresh_mhz = 74950 } },
	};
	char **args = NULL;
	size_t n = 0;

	/* each size offered once, in sysfs's order; an interlaced one is left out */
	ASSERT_INT_EQ(modeset_connector_video_args(&c, &args, &n), 0);
	ASSERT_INT_EQ(n, 3);
	if (n == 3) {
		ASSERT_STR_EQ(args[0], "video=Virtual-1:1024x768@75");
		ASSERT_STR_EQ(args[1], "video=Virtual-1:800x600");
		ASSERT_STR_EQ(args[2], "video=Virtual-1:640x480");
	}
	strv_free(args, n);
	args = NULL, n = 0;
	c.status = DRM_STATUS_DISCONNECTED;
	ASSERT_INT_EQ(modeset_connector_video_args(&c, &args, &n), 0);
	ASSERT_INT_EQ(n, 0);
	free(args);
}

int main(void)
{
	test_build_geometry();
	test_build_options();
	test_diff();
	test_video_args();
	test_connector_video_args();
	return test_finish("test-modeset");
}
