/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * snap CONNECTOR (src/kms-capture.c) on answers captured on bochs in the
 * VM (tests/unit/kms/NAME/drm_info.json, through kms-fake.c) and on a
 * fake mapping of the FB: which formats and modifiers are read and how
 * each is named when not; the pixels of every linear format, by hand;
 * no handle for a caller that is not root; an FB gone; every handle
 * closed and the mapping undone whatever happens.
 */
#include <drm_fourcc.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kms-capture.h"
#include "kms-fake.h"
#include "snap.h"
#include "test.h"

static int load(const char *name)
{
	char dir[512];

	return kms_fake_load(name, dir, sizeof(dir));
}

/* One pixel of fourcc (its bytes in memory) to RGB. */
static void check_pixel(uint32_t fourcc, const uint8_t *px, unsigned r, unsigned g,
			unsigned b)
{
	struct fb_snap_format fmt;
	struct fb_snap_area a = { .width = 1, .height = 1, .line_length = 4 };
	uint8_t rgb[3] = { 0 };
	char why[160] = "", name[5];

	ASSERT_MSG(kms_snap_format(fourcc, DRM_FORMAT_MOD_LINEAR, &fmt, why,
				   sizeof(why)) == 0,
		   "%s: %s", kms_fourcc_str(fourcc, name), why);
	ASSERT_INT_EQ(fb_snap_convert(px, 4, &a, &fmt, rgb), 0);
	ASSERT_MSG(rgb[0] == r && rgb[1] == g && rgb[2] == b,
		   "%s: got %u,%u,%u want %u,%u,%u", kms_fourcc_str(fourcc, name), rgb[0],
		   rgb[1], rgb[2], r, g, b);
}

/* The layouts drm_fourcc.h gives, written out byte by byte (little endian). */
static void test_formats(void)
{
	check_pixel(DRM_FORMAT_XRGB8888, (const uint8_t[]){ 0x30, 0x20, 0x10, 0x00 },
		    0x10, 0x20, 0x30);
	check_pixel(DRM_FORMAT_ARGB8888, (const uint8_t[]){ 0x30, 0x20, 0x10, 0x7f },
		    0x10, 0x20, 0x30);
	check_pixel(DRM_FORMAT_XBGR8888, (const uint8_t[]){ 0x10, 0x20, 0x30, 0xff },
		    0x10, 0x20, 0x30);
	check_pixel(DRM_FORMAT_ABGR8888, (const uint8_t[]){ 0x10, 0x20, 0x30, 0x00 },
		    0x10, 0x20, 0x30);
	check_pixel(DRM_FORMAT_RGB888, (const uint8_t[]){ 0x30, 0x20, 0x10, 0xee }, 0x10,
		    0x20, 0x30);
	check_pixel(DRM_FORMAT_BGR888, (const uint8_t[]){ 0x10, 0x20, 0x30, 0xee }, 0x10,
		    0x20, 0x30);
	/* RGB565 r=3 g=13 b=31: 0x19bf; 5-bit 3 is 25, 6-bit 13 is 53 */
	check_pixel(DRM_FORMAT_RGB565, (const uint8_t[]){ 0xbf, 0x19, 0, 0 }, 25, 53, 255);
	check_pixel(DRM_FORMAT_RGB565, (const uint8_t[]){ 0x00, 0xf8, 0, 0 }, 255, 0, 0);
}

static void check_refused(uint32_t fourcc, uint64_t modifier, const char *named)
{
	struct fb_snap_format fmt;
	char why[160] = "";

	ASSERT_INT_EQ(kms_snap_format(fourcc, modifier, &fmt, why, sizeof(why)),
		      -EOPNOTSUPP);
	ASSERT_MSG(strstr(why, named), "\"%s\" names %s", why, named);
}

static void test_refused(void)
{
	check_refused(DRM_FORMAT_XRGB8888, I915_FORMAT_MOD_X_TILED,
		      "modifier I915_X_TILED: only a linear FB");
	check_refused(DRM_FORMAT_XRGB8888, DRM_FORMAT_MOD_BROADCOM_VC4_T_TILED,
		      "BROADCOM_VC4_T_TILED");
	check_refused(DRM_FORMAT_ARGB8888, AMD_FMT_MOD | 0x1234,
		      "modifier AMD 0x0200000000001234");
	check_refused(DRM_FORMAT_XRGB8888, DRM_FORMAT_MOD_INVALID, "modifier INVALID");
	check_refused(DRM_FORMAT_XRGB8888, 0x7f00000000000001ull,
		      "vendor 0x7f 0x7f00000000000001");
	check_refused(DRM_FORMAT_NV12, DRM_FORMAT_MOD_LINEAR,
		      "format is NV12 (0x3231564e)");
	check_refused(DRM_FORMAT_XRGB2101010, DRM_FORMAT_MOD_LINEAR, "format is XR30");
	check_refused(DRM_FORMAT_RGB332, DRM_FORMAT_MOD_LINEAR, "format is RGB8");
}

static void test_connector_arg(void)
{
	unsigned minor = 99;

	ASSERT_STR_EQ(kms_connector_arg("card0-Virtual-1", &minor), "card0-Virtual-1");
	ASSERT_INT_EQ(minor, 0);
	ASSERT_STR_EQ(kms_connector_arg("/sys/class/drm/card12-HDMI-A-1", &minor),
		      "card12-HDMI-A-1");
	ASSERT_INT_EQ(minor, 12);
	ASSERT_NULL(kms_connector_arg("fb0", &minor));
	ASSERT_NULL(kms_connector_arg("card0", &minor));
	ASSERT_NULL(kms_connector_arg("card0-", &minor));
	ASSERT_NULL(kms_connector_arg("card-Virtual-1", &minor));
	ASSERT_NULL(kms_connector_arg("card0-../../x", &minor));
	ASSERT_NULL(kms_connector_arg("card99999999999-x", &minor));
}

/* The mapping: an XR24 buffer whose pixel (x, y) is (x, y, x ^ y) mod 256,
 * at the pitch GETFB2 gives; every map and unmap counted. */
static struct {
	uint8_t *buf;
	size_t len, pitch;
	uint32_t handle;
	int maps, unmaps, fail;
} fake_map;

static void *map(int fd, uint32_t handle, size_t len)
{
	(void)fd;
	fake_map.handle = handle;
	if (fake_map.fail) {
		errno = fake_map.fail;
		return NULL;
	}
	fake_map.maps++;
	fake_map.len = len;
	fake_map.buf = calloc(1, len);
	for (size_t off = 0; off + 4 <= len; off += 4) {
		size_t x = (off % fake_map.pitch) / 4, y = off / fake_map.pitch;

		fake_map.buf[off + 2] = (uint8_t)x;
		fake_map.buf[off + 1] = (uint8_t)y;
		fake_map.buf[off] = (uint8_t)(x ^ y);
	}
	return fake_map.buf;
}

static void unmap(void *p, size_t len)
{
	ASSERT_TRUE(p == fake_map.buf);
	ASSERT_INT_EQ(len, fake_map.len);
	fake_map.unmaps++;
	free(p);
}

static const struct kms_capture_ops fake_ops = { &kms_fake_ops, map, unmap };

static int capture(const char *connector, size_t pitch, struct kms_snap *s, char *reason,
		   size_t len)
{
	memset(&fake_map, 0, sizeof(fake_map));
	fake_map.pitch = pitch;
	reason[0] = '\0';
	return kms_capture_card(&fake_ops, -1, 0, connector, s, reason, len);
}

/* What fbcon shows at the console: all 1280x800, every pixel as mapped. */
static void test_console(void)
{
	struct kms_snap s;
	char reason[256];
	size_t bad = 0;

	if (load("bochs-6.12-console") < 0)
		return;
	kms_fake.handle = 7;
	ASSERT_MSG(capture("card0-Virtual-1", 5120, &s, reason, sizeof(reason)) == 0,
		   "%s", reason);
	ASSERT_INT_EQ(s.width, 1280);
	ASSERT_INT_EQ(s.height, 800);
	ASSERT_INT_EQ(s.fb_id, 38);
	ASSERT_INT_EQ(s.fourcc, DRM_FORMAT_XRGB8888);
	ASSERT_INT_EQ(fake_map.handle, 7);
	/* the bytes the last line needs, whole pages */
	ASSERT_INT_EQ(fake_map.len, 5120 * 800);
	for (unsigned y = 0; s.rgb && y < s.height; y++)
		for (unsigned x = 0; x < s.width; x++) {
			const uint8_t *p = s.rgb + ((size_t)y * s.width + x) * 3;

			bad += p[0] != (uint8_t)x || p[1] != (uint8_t)y ||
			       p[2] != (uint8_t)(x ^ y);
		}
	ASSERT_INT_EQ(bad, 0);
	ASSERT_INT_EQ(fake_map.unmaps, 1);
	ASSERT_INT_EQ(kms_fake.closed_handles, kms_fake.given_handles);
	kms_snap_free(&s);
}

/* modetest's 800x600 FB: the plane's source rectangle */
static void test_modetest(const char *name, uint32_t fb_id)
{
	struct kms_snap s;
	char reason[256];

	if (load(name) < 0)
		return;
	kms_fake.handle = 3;
	ASSERT_MSG(capture("card0-Virtual-1", 3200, &s, reason, sizeof(reason)) == 0,
		   "%s: %s", name, reason);
	ASSERT_INT_EQ(fake_map.len, (3200 * 600 + 4095) / 4096 * 4096);
	ASSERT_INT_EQ(s.width, 800);
	ASSERT_INT_EQ(s.height, 600);
	ASSERT_INT_EQ(s.fb_id, fb_id);
	ASSERT_INT_EQ(kms_fake.closed_handles, kms_fake.given_handles);
	ASSERT_INT_EQ(fake_map.unmaps, fake_map.maps);
	kms_snap_free(&s);
}

/* check_error NAME: what a failure says, and that nothing is left held */
static void check_error(const char *connector, int want, const char *says)
{
	struct kms_snap s;
	char reason[256];

	ASSERT_INT_EQ(capture(connector, 5120, &s, reason, sizeof(reason)), want);
	ASSERT_MSG(strstr(reason, says), "\"%s\" says \"%s\"", reason, says);
	ASSERT_NULL(s.rgb);
	ASSERT_INT_EQ(kms_fake.closed_handles, kms_fake.given_handles);
	ASSERT_INT_EQ(fake_map.unmaps, fake_map.maps);
}

static void test_errors(void)
{
	if (load("bochs-6.12-console") < 0)
		return;
	/* not root: GETFB2 gives no handle */
	check_error("card0-Virtual-1", -EACCES,
		    "GETFB2 gave no handle to FB 38's buffer: reading it needs root "
		    "(CAP_SYS_ADMIN)");
	kms_fake.handle = 5;
	kms_fake.modifier = I915_FORMAT_MOD_Y_TILED;
	check_error("card0-Virtual-1", -EOPNOTSUPP,
		    "FB 38 cannot be read: the FB has modifier I915_Y_TILED");
	kms_fake.modifier = 0;
	kms_fake.fourcc = DRM_FORMAT_YUYV;
	check_error("card0-Virtual-1", -EOPNOTSUPP, "format is YUYV");
	kms_fake.fourcc = 0;
	kms_fake.gone_fb = 38;
	check_error("card0-Virtual-1", -ENOENT, "FB 38 was freed before it could be read");
	kms_fake.gone_fb = 0;
	check_error("card0-HDMI-A-1", -ENODEV, "no such connector on card0");
	kms_fake.vanished = 32;
	check_error("card0-Virtual-1", -ENODEV, "no such connector");
	kms_fake.vanished = 0;
	memset(&fake_map, 0, sizeof(fake_map));
	fake_map.fail = ENOMEM;
	{
		struct kms_snap s;
		char reason[256] = "";

		fake_map.pitch = 5120;
		ASSERT_INT_EQ(kms_capture_card(&fake_ops, -1, 0, "card0-Virtual-1", &s,
					       reason, sizeof(reason)),
			      -ENOMEM);
		ASSERT_MSG(strstr(reason, "FB 38: cannot map its buffer"), "%s", reason);
		ASSERT_INT_EQ(kms_fake.closed_handles, kms_fake.given_handles);
	}
}

int main(void)
{
	test_formats();
	test_refused();
	test_connector_arg();
	test_console();
	test_modetest("bochs-6.1-modetest", 39);
	test_modetest("bochs-6.12-modetest", 40);
	test_errors();
	json_object_put(kms_fake.root);
	return test_finish("test-kms-capture");
}
