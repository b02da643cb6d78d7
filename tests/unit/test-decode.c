/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Pixel format names, the decoded name tables, refresh, the fbset block. */
#include <linux/fb.h>

#include "fbinfo_ioctl.h"
#include "test.h"

struct bf {
	unsigned len, off;
};

static struct fb_var_screeninfo var_rgb(unsigned bpp, struct bf r, struct bf g,
					struct bf b, struct bf t)
{
	struct fb_var_screeninfo v = { .bits_per_pixel = bpp };

	v.red = (struct fb_bitfield){ .offset = r.off, .length = r.len };
	v.green = (struct fb_bitfield){ .offset = g.off, .length = g.len };
	v.blue = (struct fb_bitfield){ .offset = b.off, .length = b.len };
	v.transp = (struct fb_bitfield){ .offset = t.off, .length = t.len };
	return v;
}

static void fmt_is(const struct fb_var_screeninfo *v, uint32_t visual, const char *name,
		   enum fb_pixel_kind kind)
{
	struct fb_pixel_format f;

	fb_pixel_format_decode(v, visual, &f);
	ASSERT_STR_EQ(f.name, name);
	ASSERT_INT_EQ(f.kind, kind);
}

#define RGB(bpp, rl, ro, gl, go, bl, bo, tl, to)                   \
	var_rgb(bpp, (struct bf){ rl, ro }, (struct bf){ gl, go }, \
		(struct bf){ bl, bo }, (struct bf){ tl, to })

static void test_formats(void)
{
	const uint32_t TC = FB_VISUAL_TRUECOLOR;
	struct fb_var_screeninfo v;

	v = RGB(32, 8, 16, 8, 8, 8, 0, 0, 0);
	fmt_is(&v, TC, "XRGB8888", FB_PIXEL_RGB);
	fmt_is(&v, FB_VISUAL_DIRECTCOLOR, "XRGB8888", FB_PIXEL_RGB);
	v = RGB(32, 8, 16, 8, 8, 8, 0, 8, 24);
	fmt_is(&v, TC, "ARGB8888", FB_PIXEL_RGB);
	v = RGB(32, 8, 0, 8, 8, 8, 16, 0, 0);
	fmt_is(&v, TC, "XBGR8888", FB_PIXEL_RGB);
	v = RGB(32, 8, 0, 8, 8, 8, 16, 8, 24);
	fmt_is(&v, TC, "ABGR8888", FB_PIXEL_RGB);
	v = RGB(32, 8, 24, 8, 16, 8, 8, 0, 0);
	fmt_is(&v, TC, "RGBX8888", FB_PIXEL_RGB);
	v = RGB(32, 8, 24, 8, 16, 8, 8, 8, 0);
	fmt_is(&v, TC, "RGBA8888", FB_PIXEL_RGB);
	v = RGB(32, 8, 8, 8, 16, 8, 24, 0, 0);
	fmt_is(&v, TC, "BGRX8888", FB_PIXEL_RGB);
	v = RGB(32, 8, 8, 8, 16, 8, 24, 8, 0);
	fmt_is(&v, TC, "BGRA8888", FB_PIXEL_RGB);
	v = RGB(32, 10, 20, 10, 10, 10, 0, 0, 0);
	fmt_is(&v, TC, "XRGB2101010", FB_PIXEL_RGB);
	v = RGB(32, 10, 20, 10, 10, 10, 0, 2, 30);
	fmt_is(&v, TC, "ARGB2101010", FB_PIXEL_RGB);
	v = RGB(24, 8, 16, 8, 8, 8, 0, 0, 0);
	fmt_is(&v, TC, "RGB888", FB_PIXEL_RGB);
	v = RGB(24, 8, 0, 8, 8, 8, 16, 0, 0);
	fmt_is(&v, TC, "BGR888", FB_PIXEL_RGB);
	v = RGB(16, 5, 11, 6, 5, 5, 0, 0, 0);
	fmt_is(&v, TC, "RGB565", FB_PIXEL_RGB);
	v = RGB(16, 5, 0, 6, 5, 5, 11, 0, 0);
	fmt_is(&v, TC, "BGR565", FB_PIXEL_RGB);
	v = RGB(16, 5, 10, 5, 5, 5, 0, 0, 0);
	fmt_is(&v, TC, "XRGB1555", FB_PIXEL_RGB);
	v = RGB(16, 5, 10, 5, 5, 5, 0, 1, 15);
	fmt_is(&v, TC, "ARGB1555", FB_PIXEL_RGB);
	v = RGB(16, 5, 0, 5, 5, 5, 10, 0, 0);
	fmt_is(&v, TC, "XBGR1555", FB_PIXEL_RGB);
	v = RGB(16, 4, 8, 4, 4, 4, 0, 0, 0);
	fmt_is(&v, TC, "XRGB4444", FB_PIXEL_RGB);
	v = RGB(16, 4, 8, 4, 4, 4, 0, 4, 12);
	fmt_is(&v, TC, "ARGB4444", FB_PIXEL_RGB);
	v = RGB(15, 5, 10, 5, 5, 5, 0, 0, 0);
	fmt_is(&v, TC, "RGB555", FB_PIXEL_RGB);
	v = RGB(8, 3, 5, 3, 2, 2, 0, 0, 0);
	fmt_is(&v, TC, "RGB332", FB_PIXEL_RGB);

	/* Indexed and grayscale */
	for (unsigned bpp = 1; bpp <= 8; bpp *= 2) {
		char name[8];

		v = RGB(bpp, bpp, 0, bpp, 0, bpp, 0, 0, 0);
		snprintf(name, sizeof(name), "C%u", bpp);
		fmt_is(&v, FB_VISUAL_PSEUDOCOLOR, name, FB_PIXEL_INDEXED);
		fmt_is(&v, FB_VISUAL_STATIC_PSEUDOCOLOR, name, FB_PIXEL_INDEXED);
		v.grayscale = 1;
		snprintf(name, sizeof(name), "R%u", bpp);
		fmt_is(&v, FB_VISUAL_PSEUDOCOLOR, name, FB_PIXEL_GRAY);
	}
	v = RGB(8, 8, 0, 8, 0, 8, 0, 0, 0);
	v.grayscale = 1;
	fmt_is(&v, TC, "R8", FB_PIXEL_GRAY);
	v = RGB(1, 1, 0, 1, 0, 1, 0, 0, 0);
	fmt_is(&v, FB_VISUAL_MONO10, "R1", FB_PIXEL_GRAY);
	fmt_is(&v, FB_VISUAL_MONO01, "R1_INVERTED", FB_PIXEL_GRAY);

	/* A fourcc in grayscale (FB_CAP_FOURCC drivers): "YUYV" */
	v = RGB(16, 0, 0, 0, 0, 0, 0, 0, 0);
	v.grayscale = 'Y' | 'U' << 8 | 'Y' << 16 | (uint32_t)'V' << 24;
	fmt_is(&v, FB_VISUAL_FOURCC, "YUYV", FB_PIXEL_FOURCC);

	/* Anything else is unknown(...) with the bitfields spelled out. */
	v = RGB(32, 8, 16, 8, 12, 8, 0, 0, 0); /* red and green overlap */
	fmt_is(&v, TC, "unknown(r8/16,g8/12,b8/0,t0/0)", FB_PIXEL_UNKNOWN);
	v = RGB(32, 8, 16, 8, 8, 8, 0, 0, 0);
	v.red.msb_right = 1;
	fmt_is(&v, TC, "unknown(r8/16,g8/8,b8/0,t0/0)", FB_PIXEL_UNKNOWN);
	v = RGB(32, 8, 20, 8, 8, 8, 0, 0, 0); /* two gaps */
	fmt_is(&v, TC, "unknown(r8/20,g8/8,b8/0,t0/0)", FB_PIXEL_UNKNOWN);
	v = RGB(16, 8, 16, 8, 8, 8, 0, 0, 0); /* outside the pixel */
	fmt_is(&v, TC, "unknown(r8/16,g8/8,b8/0,t0/0)", FB_PIXEL_UNKNOWN);
	v = RGB(0, 0, 0, 0, 0, 0, 0, 0, 0); /* bits_per_pixel 0 */
	fmt_is(&v, TC, "unknown(r0/0,g0/0,b0/0,t0/0)", FB_PIXEL_UNKNOWN);
	v = RGB(32, 8, 16, 8, 8, 8, 0, 0, 0);
	fmt_is(&v, FB_VISUAL_PSEUDOCOLOR, "unknown(r8/16,g8/8,b8/0,t0/0)",
	       FB_PIXEL_UNKNOWN);
	v = RGB(64, 16, 32, 16, 16, 16, 0, 0, 0);
	fmt_is(&v, TC, "unknown(r16/32,g16/16,b16/0,t0/0)", FB_PIXEL_UNKNOWN);
}

static void test_names(void)
{
	char buf[128];

	ASSERT_STR_EQ(fb_type_name(FB_TYPE_PACKED_PIXELS), "PACKED_PIXELS");
	ASSERT_STR_EQ(fb_type_name(FB_TYPE_PLANES), "PLANES");
	ASSERT_STR_EQ(fb_type_name(FB_TYPE_INTERLEAVED_PLANES), "INTERLEAVED_PLANES");
	ASSERT_STR_EQ(fb_type_name(FB_TYPE_TEXT), "TEXT");
	ASSERT_STR_EQ(fb_type_name(FB_TYPE_VGA_PLANES), "VGA_PLANES");
	ASSERT_STR_EQ(fb_type_name(FB_TYPE_FOURCC), "FOURCC");
	ASSERT_NULL(fb_type_name(6));
	ASSERT_STR_EQ(fb_type_aux_name(FB_TYPE_TEXT, FB_AUX_TEXT_CGA), "TEXT_CGA");
	ASSERT_STR_EQ(fb_type_aux_name(FB_TYPE_VGA_PLANES, FB_AUX_VGA_PLANES_CFB8),
		      "VGA_PLANES_CFB8");
	ASSERT_NULL(fb_type_aux_name(FB_TYPE_PACKED_PIXELS, 0));

	ASSERT_STR_EQ(fb_visual_name(FB_VISUAL_MONO01), "MONO01");
	ASSERT_STR_EQ(fb_visual_name(FB_VISUAL_MONO10), "MONO10");
	ASSERT_STR_EQ(fb_visual_name(FB_VISUAL_TRUECOLOR), "TRUECOLOR");
	ASSERT_STR_EQ(fb_visual_name(FB_VISUAL_PSEUDOCOLOR), "PSEUDOCOLOR");
	ASSERT_STR_EQ(fb_visual_name(FB_VISUAL_DIRECTCOLOR), "DIRECTCOLOR");
	ASSERT_STR_EQ(fb_visual_name(FB_VISUAL_STATIC_PSEUDOCOLOR), "STATIC_PSEUDOCOLOR");
	ASSERT_STR_EQ(fb_visual_name(FB_VISUAL_FOURCC), "FOURCC");
	ASSERT_NULL(fb_visual_name(7));

	ASSERT_STR_EQ(fb_accel_name(FB_ACCEL_NONE), "NONE");
	ASSERT_STR_EQ(fb_accel_name(FB_ACCEL_MATROX_MGAG400), "MATROX_MGAG400");
	ASSERT_STR_EQ(fb_accel_name(FB_ACCEL_CIRRUS_ALPINE),
		      "TRIDENT_BLADEXP/CIRRUS_ALPINE");
	ASSERT_STR_EQ(fb_accel_name(FB_ACCEL_PUV3_UNIGFX), "PUV3_UNIGFX");
	ASSERT_NULL(fb_accel_name(0x7777));

	ASSERT_STR_EQ(fb_sync_names(0, buf, sizeof(buf)), "none");
	ASSERT_STR_EQ(fb_sync_names(FB_SYNC_HOR_HIGH_ACT | FB_SYNC_VERT_HIGH_ACT, buf,
				    sizeof(buf)),
		      "HOR_HIGH_ACT VERT_HIGH_ACT");
	ASSERT_STR_EQ(fb_sync_names(FB_SYNC_EXT | FB_SYNC_COMP_HIGH_ACT |
					    FB_SYNC_BROADCAST | FB_SYNC_ON_GREEN | 0x100,
				    buf, sizeof(buf)),
		      "EXT COMP_HIGH_ACT BROADCAST ON_GREEN 0x100");
	ASSERT_STR_EQ(fb_vmode_names(0, buf, sizeof(buf)), "NONINTERLACED");
	ASSERT_STR_EQ(fb_vmode_names(FB_VMODE_INTERLACED, buf, sizeof(buf)), "INTERLACED");
	ASSERT_STR_EQ(fb_vmode_names(FB_VMODE_DOUBLE | FB_VMODE_YWRAP, buf, sizeof(buf)),
		      "DOUBLE YWRAP");
	ASSERT_STR_EQ(fb_vmode_names(FB_VMODE_SMOOTH_XPAN | 0x4000, buf, sizeof(buf)),
		      "NONINTERLACED SMOOTH_XPAN 0x4000");
	ASSERT_STR_EQ(fb_vmode_names(0x20, buf, sizeof(buf)), "0x20");
	ASSERT_STR_EQ(fb_activate_names(FB_ACTIVATE_NOW, buf, sizeof(buf)), "NOW");
	ASSERT_STR_EQ(fb_activate_names(FB_ACTIVATE_TEST | FB_ACTIVATE_FORCE, buf,
					sizeof(buf)),
		      "TEST FORCE");
	ASSERT_STR_EQ(fb_activate_names(FB_ACTIVATE_NXTOPEN | FB_ACTIVATE_VBL |
						FB_ACTIVATE_ALL | FB_ACTIVATE_INV_MODE |
						FB_ACTIVATE_KD_TEXT,
					buf, sizeof(buf)),
		      "NXTOPEN VBL ALL INV_MODE KD_TEXT");
	ASSERT_STR_EQ(fb_activate_names(5 | 0x10000, buf, sizeof(buf)), "0x5 0x10000");
	/* A tiny buffer truncates, never overflows. */
	char tiny[6];
	fb_sync_names(FB_SYNC_HOR_HIGH_ACT | FB_SYNC_VERT_HIGH_ACT, tiny, sizeof(tiny));
	ASSERT_STR_EQ(tiny, "HOR_H");
}

/* vfb's built-in 640x480 mode, by hand: htotal 832, vtotal 546 lines,
 * 50 MHz pixel clock → 60.096 kHz, 110.07 Hz. */
static struct fb_var_screeninfo vfb_default(void)
{
	struct fb_var_screeninfo v = RGB(8, 8, 0, 8, 0, 8, 0, 0, 0);

	v.xres = v.xres_virtual = 640;
	v.yres = v.yres_virtual = 480;
	v.pixclock = 20000;
	v.left_margin = 64;
	v.right_margin = 64;
	v.upper_margin = 32;
	v.lower_margin = 32;
	v.hsync_len = 64;
	v.vsync_len = 2;
	return v;
}

static void test_refresh(void)
{
	struct fb_var_screeninfo v = vfb_default();

	ASSERT_INT_EQ(fb_refresh_mhz(&v), 110066);
	v.vmode = FB_VMODE_INTERLACED;
	ASSERT_INT_EQ(fb_refresh_mhz(&v), 220132);
	v.pixclock = 0;
	ASSERT_INT_EQ(fb_refresh_mhz(&v), 0);
	v = (struct fb_var_screeninfo){ .pixclock = 1 };
	ASSERT_INT_EQ(fb_refresh_mhz(&v), 0);
	/* Huge timings do not overflow. */
	v = (struct fb_var_screeninfo){ .pixclock = UINT32_MAX,
					.xres = UINT32_MAX,
					.yres = UINT32_MAX,
					.left_margin = UINT32_MAX,
					.upper_margin = UINT32_MAX };
	ASSERT_INT_EQ(fb_refresh_mhz(&v), 0);
}

static void fbset_is(const struct fb_var_screeninfo *v, const char *expect)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fb_print_fbset_mode(f, v);
	fclose(f);
	ASSERT_STR_EQ(buf, expect);
	free(buf);
}

static void test_fbset(void)
{
	struct fb_var_screeninfo v = vfb_default();

	fbset_is(&v, "\nmode \"640x480-110\"\n"
		     "    # D: 50.000 MHz, H: 60.096 kHz, V: 110.066 Hz\n"
		     "    geometry 640 480 640 480 8\n"
		     "    timings 20000 64 64 32 32 64 2\n"
		     "    rgba 8/0,8/0,8/0,0/0\n"
		     "endmode\n\n");
	/* bochs-drm through the DRM fbdev emulation: no timings at all. */
	v = RGB(32, 8, 16, 8, 8, 8, 0, 0, 0);
	v.xres = v.xres_virtual = 1024;
	v.yres = 768;
	v.yres_virtual = 768;
	v.accel_flags = 1;
	fbset_is(&v, "\nmode \"1024x768\"\n"
		     "    geometry 1024 768 1024 768 32\n"
		     "    timings 0 0 0 0 0 0 0\n"
		     "    accel true\n"
		     "    rgba 8/16,8/8,8/0,0/0\n"
		     "endmode\n\n");
	/* Every flag line, in fbset's order. */
	v.sync = 0x3f | 0x80;
	v.vmode = FB_VMODE_DOUBLE;
	v.nonstd = 3;
	v.grayscale = 1;
	v.accel_flags = 0;
	fbset_is(&v, "\nmode \"1024x768\"\n"
		     "    geometry 1024 768 1024 768 32\n"
		     "    timings 0 0 0 0 0 0 0\n"
		     "    hsync high\n"
		     "    vsync high\n"
		     "    csync high\n"
		     "    gsync true\n"
		     "    extsync true\n"
		     "    bcast true\n"
		     "    sync 0x80\n"
		     "    double true\n"
		     "    nonstd 3\n"
		     "    grayscale true\n"
		     "    rgba 8/16,8/8,8/0,0/0\n"
		     "endmode\n\n");
}

/* Found by fuzz-pixfmt: a refresh past INT_MAX.  fbset's (int) cast gives
 * INT_MIN on x86-64; the block must say the same without undefined
 * behaviour. */
static void test_fbset_huge_refresh(void)
{
	struct fb_var_screeninfo v = { .xres = 1,
				       .yres = 1,
				       .xres_virtual = 1,
				       .yres_virtual = 1,
				       .bits_per_pixel = 8,
				       .pixclock = 1 };

	fbset_is(&v,
		 "\nmode \"1x1--2147483648\"\n"
		 "    # D: 1000000.000 MHz, H: 1000000000.000 kHz, V: 1000000000000.000 Hz\n"
		 "    geometry 1 1 1 1 8\n"
		 "    timings 1 0 0 0 0 0 0\n"
		 "    rgba 0/0,0/0,0/0,0/0\n"
		 "endmode\n\n");
}

static void test_storage_bits(void)
{
	static const unsigned ok[] = { 1, 2, 4, 8, 16, 24, 32 };

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		ASSERT_INT_EQ(fb_pixel_storage_bits(ok[i]), ok[i]);
	ASSERT_INT_EQ(fb_pixel_storage_bits(15), 16);
	ASSERT_INT_EQ(fb_pixel_storage_bits(0), 0);
	ASSERT_INT_EQ(fb_pixel_storage_bits(3), 0);
	ASSERT_INT_EQ(fb_pixel_storage_bits(12), 0);
	ASSERT_INT_EQ(fb_pixel_storage_bits(48), 0);
	ASSERT_INT_EQ(fb_pixel_storage_bits(UINT32_MAX), 0);
}

int main(void)
{
	test_storage_bits();
	test_formats();
	test_names();
	test_refresh();
	test_fbset();
	test_fbset_huge_refresh();
	return test_finish("test-decode");
}
