/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fb.modes parsing (fbmodes.c): good files, every kind of malformed one,
 * the mode string and rgba. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fbinfo_ioctl.h"
#include "fbmodes.h"
#include "test.h"

static const char good[] = "# a comment\n"
			   "mode \"640x480-60\"\n"
			   "    # D: 25.175 MHz\n"
			   "    geometry 640 480 640 480 8\n"
			   "    timings 39722 48 16 33 10 96 2\n"
			   "endmode\n"
			   "\n"
			   "mode \"1024x768-16\"\n"
			   "    geometry 1024 768 1024 1536 16\n"
			   "    timings 15384 160 24 29 3 136 6\n"
			   "    hsync high\n"
			   "    VSYNC High\n"
			   "    accel false\n"
			   "    laced true\n"
			   "    nonstd 1\n"
			   "    rgba 5/11,6/5,5/0,0/0\n"
			   "endmode\n"
			   "mode \"1024x768-75\" geometry 1024 768 1024 768 8 "
			   "timings 12690 176 16 28 1 96 3 endmode\n";

static void test_good(void)
{
	struct fbmodes_db db;
	char err[256];
	const struct fbmodes_mode *m;

	ASSERT_INT_EQ(fbmodes_parse(good, "t.modes", &db, err, sizeof(err)), 0);
	ASSERT_INT_EQ(db.n, 3);
	m = fbmodes_find(&db, "640x480-60");
	ASSERT_TRUE(m != NULL);
	if (m) {
		ASSERT_INT_EQ(m->line, 2);
		ASSERT_INT_EQ(m->var.xres, 640);
		ASSERT_INT_EQ(m->var.yres_virtual, 480);
		ASSERT_INT_EQ(m->var.bits_per_pixel, 8);
		ASSERT_INT_EQ(m->var.pixclock, 39722);
		ASSERT_INT_EQ(m->var.left_margin, 48);
		ASSERT_INT_EQ(m->var.right_margin, 16);
		ASSERT_INT_EQ(m->var.upper_margin, 33);
		ASSERT_INT_EQ(m->var.lower_margin, 10);
		ASSERT_INT_EQ(m->var.hsync_len, 96);
		ASSERT_INT_EQ(m->var.vsync_len, 2);
		/* fbset's default: accel true */
		ASSERT_INT_EQ(m->var.accel_flags, FB_ACCELF_TEXT);
		ASSERT_INT_EQ(m->var.sync, 0);
		ASSERT_INT_EQ(m->var.vmode, FB_VMODE_NONINTERLACED);
	}
	m = fbmodes_find(&db, "1024x768-16");
	ASSERT_TRUE(m != NULL);
	if (m) {
		ASSERT_INT_EQ(m->line, 8);
		ASSERT_INT_EQ(m->var.yres_virtual, 1536);
		ASSERT_INT_EQ(m->var.sync, FB_SYNC_HOR_HIGH_ACT | FB_SYNC_VERT_HIGH_ACT);
		ASSERT_INT_EQ(m->var.accel_flags, 0);
		ASSERT_INT_EQ(m->var.vmode, FB_VMODE_INTERLACED);
		ASSERT_INT_EQ(m->var.nonstd, 1);
		ASSERT_INT_EQ(m->var.red.length, 5);
		ASSERT_INT_EQ(m->var.red.offset, 11);
		ASSERT_INT_EQ(m->var.green.length, 6);
		ASSERT_INT_EQ(m->var.green.offset, 5);
		ASSERT_INT_EQ(m->var.blue.offset, 0);
	}
	ASSERT_TRUE(fbmodes_find(&db, "1024x768-75") != NULL);
	ASSERT_NULL(fbmodes_find(&db, "640x480"));
	fbmodes_db_free(&db);
	ASSERT_INT_EQ(fbmodes_parse("", "empty", &db, err, sizeof(err)), 0);
	ASSERT_INT_EQ(db.n, 0);
}

/* Each malformed text: -EINVAL, the db empty, and err exactly so. */
static void bad(const char *text, const char *want)
{
	struct fbmodes_db db;
	char err[256] = "";
	int r = fbmodes_parse(text, "bad.modes", &db, err, sizeof(err));

	ASSERT_MSG(r == -EINVAL, "%s: r=%d", want, r);
	ASSERT_INT_EQ(db.n, 0);
	ASSERT_STR_EQ(err, want);
	fbmodes_db_free(&db);
}

#define MODE_HEAD "mode \"a\"\n geometry 640 480 640 480 8\n"
#define TIMINGS	  " timings 39722 48 16 33 10 96 2\n"

static void test_malformed(void)
{
	bad("modes \"a\"\n", "bad.modes:1: expected mode, found 'modes'");
	bad("\n\nmode a\n",
	    "bad.modes:3: expected a mode name in double quotes, found 'a'");
	bad("mode \"a\n", "bad.modes:1: unterminated mode name");
	bad("mode \"a\" timings 1 2 3 4 5 6 7\n",
	    "bad.modes:1: expected geometry after the mode name, found 'timings'");
	bad("mode \"a\"\n geometry 640 480 640 x 8\n",
	    "bad.modes:2: geometry takes 5 numbers, found 'x' as number 4");
	bad(MODE_HEAD " timings 1 2 3\nendmode\n",
	    "bad.modes:4: timings takes 7 numbers, found 'endmode' as number 4");
	bad(MODE_HEAD "endmode\n",
	    "bad.modes:3: expected timings after geometry, found 'endmode'");
	bad(MODE_HEAD TIMINGS, "bad.modes:4: mode \"a\" of line 1 has no endmode");
	bad(MODE_HEAD TIMINGS " hsync maybe\nendmode\n",
	    "bad.modes:4: hsync takes high or low, not 'maybe'");
	bad(MODE_HEAD TIMINGS " laced high\nendmode\n",
	    "bad.modes:4: laced takes true or false, not 'high'");
	bad(MODE_HEAD TIMINGS " frobnicate true\nendmode\n",
	    "bad.modes:4: unknown keyword 'frobnicate' in a mode");
	bad(MODE_HEAD TIMINGS " rgba 8/0,8/x\nendmode\n",
	    "bad.modes:4: bad rgba '8/0,8/' (R/O,G/O,B/O,T/O or R,G,B,T)");
	bad(MODE_HEAD TIMINGS " rgba true\nendmode\n",
	    "bad.modes:4: rgba takes R/O,G/O,B/O,T/O, not 'true'");
	bad(MODE_HEAD " timings 1 2 3 4 5 6 99999999999\nendmode\n",
	    "bad.modes:3: number '99999999999' is not a decimal below 2^32");
	bad(MODE_HEAD " timings 1 2 3 4 5 6 010\nendmode\n",
	    "bad.modes:3: number '010' is not a decimal below 2^32");
	bad(MODE_HEAD TIMINGS " $\nendmode\n", "bad.modes:4: invalid character '$'");
	bad(MODE_HEAD TIMINGS "endmode\n" MODE_HEAD TIMINGS "endmode\n",
	    "bad.modes:8: duplicate mode name \"a\"");
	bad("mode \"z\" geometry 0 0 0 0 8 timings 0 0 0 0 0 0 0 endmode\n",
	    "bad.modes:1: bad mode \"z\": its horizontal total is 0");
	bad("mode \"\x1b[2J\" geometry 0 0 0 0 8 timings 0 0 0 0 0 0 0 endmode\n",
	    "bad.modes:1: bad mode \"\\x1b[2J\": its horizontal total is 0");
}

static void test_load(void)
{
	char path[] = "/tmp/test-fbmodes-XXXXXX", err[256];
	struct fbmodes_db db;
	int fd = mkstemp(path);

	ASSERT_TRUE(fd >= 0);
	if (fd < 0)
		return;
	ASSERT_INT_EQ(write(fd, good, strlen(good)), (long long)strlen(good));
	close(fd);
	ASSERT_INT_EQ(fbmodes_load(path, &db, err, sizeof(err)), 0);
	ASSERT_INT_EQ(db.n, 3);
	fbmodes_db_free(&db);
	unlink(path);
	ASSERT_INT_EQ(fbmodes_load(path, &db, err, sizeof(err)), -ENOENT);
	ASSERT_TRUE(strstr(err, "No such file") != NULL);
	ASSERT_TRUE(strncmp(err, path, strlen(path)) == 0);
}

static void test_spec(void)
{
	struct fbmodes_spec s;
	struct fbmodes_db db;
	char err[256];
	const struct fbmodes_mode *m;

	ASSERT_INT_EQ(fbmodes_parse_spec("1024x768", &s), 0);
	ASSERT_INT_EQ(s.xres, 1024);
	ASSERT_INT_EQ(s.yres, 768);
	ASSERT_INT_EQ(s.depth, 0);
	ASSERT_INT_EQ(s.refresh, 0);
	ASSERT_INT_EQ(fbmodes_parse_spec("800x600-16@75", &s), 0);
	ASSERT_INT_EQ(s.depth, 16);
	ASSERT_INT_EQ(s.refresh, 75);
	ASSERT_INT_EQ(fbmodes_parse_spec("800x600@60", &s), 0);
	ASSERT_INT_EQ(s.refresh, 60);
	ASSERT_INT_EQ(s.depth, 0);
	const char *bad_specs[] = {
		"",	     "1024",	   "1024x",	 "x768",     "1024x768-",
		"1024x768@", "1024x768-0", "0x768",	 "1024X768", "1024x768-16@60Hz",
		"1024x768 ", "-1x768",	   "1024x768-64"
	};
	for (size_t i = 0; i < sizeof(bad_specs) / sizeof(bad_specs[0]); i++)
		ASSERT_MSG(fbmodes_parse_spec(bad_specs[i], &s) == -EINVAL, "'%s'",
			   bad_specs[i]);

	ASSERT_INT_EQ(fbmodes_parse(good, "t", &db, err, sizeof(err)), 0);
	fbmodes_parse_spec("1024x768@75", &s);
	m = fbmodes_match_spec(&db, &s);
	ASSERT_STR_EQ(m ? m->name : NULL, "1024x768-75");
	fbmodes_parse_spec("1024x768-16", &s);
	m = fbmodes_match_spec(&db, &s);
	ASSERT_STR_EQ(m ? m->name : NULL, "1024x768-16");
	/* no mode of that depth: the timings of one of that size */
	fbmodes_parse_spec("1024x768-32", &s);
	m = fbmodes_match_spec(&db, &s);
	ASSERT_STR_EQ(m ? m->name : NULL, "1024x768-16");
	/* the depth chooses among modes of the same refresh */
	fbmodes_parse_spec("1024x768-8", &s);
	m = fbmodes_match_spec(&db, &s);
	ASSERT_STR_EQ(m ? m->name : NULL, "1024x768-75");
	fbmodes_parse_spec("800x600", &s);
	ASSERT_NULL(fbmodes_match_spec(&db, &s));
	fbmodes_db_free(&db);
}

static void test_rgba(void)
{
	struct fb_var_screeninfo v = {};

	ASSERT_INT_EQ(fbmodes_parse_rgba("8,8,8,0", &v), 0);
	ASSERT_INT_EQ(v.red.length, 8);
	ASSERT_INT_EQ(v.blue.length, 8);
	ASSERT_INT_EQ(v.red.offset, 0);
	ASSERT_INT_EQ(fbmodes_parse_rgba("5/11,6/5,5", &v), 0);
	ASSERT_INT_EQ(v.red.offset, 11);
	ASSERT_INT_EQ(v.green.offset, 5);
	ASSERT_INT_EQ(v.blue.length, 5);
	ASSERT_INT_EQ(v.transp.length, 0);
	ASSERT_INT_EQ(fbmodes_parse_rgba("", &v), -EINVAL);
	ASSERT_INT_EQ(fbmodes_parse_rgba("8;8", &v), -EINVAL);
	ASSERT_INT_EQ(fbmodes_parse_rgba("8,8,8,8,8", &v), -EINVAL);
	ASSERT_INT_EQ(fbmodes_parse_rgba("33,0,0,0", &v), -EINVAL);
}

/* CVT against `cvt 1024 768 60` (xorg's): Modeline "1024x768_60.00" 63.50
 * 1024 1072 1176 1328 768 771 775 798 -hsync +vsync */
static void test_cvt(void)
{
	struct fb_var_screeninfo v;

	ASSERT_INT_EQ(fbmodes_cvt(1024, 768, 60, 16, &v), 0);
	ASSERT_INT_EQ(v.xres, 1024);
	ASSERT_INT_EQ(v.bits_per_pixel, 16);
	ASSERT_INT_EQ(v.pixclock, 15748); /* 63.50 MHz */
	ASSERT_INT_EQ(v.right_margin, 1072 - 1024);
	ASSERT_INT_EQ(v.hsync_len, 1176 - 1072);
	ASSERT_INT_EQ(v.left_margin, 1328 - 1176);
	ASSERT_INT_EQ(v.lower_margin, 771 - 768);
	ASSERT_INT_EQ(v.vsync_len, 775 - 771);
	ASSERT_INT_EQ(v.upper_margin, 798 - 775);
	ASSERT_INT_EQ(v.sync, FB_SYNC_VERT_HIGH_ACT);
	/* `cvt 1920 1080 60`: 173.00 1920 2048 2248 2576 1080 1083 1088 1120 */
	ASSERT_INT_EQ(fbmodes_cvt(1920, 1080, 60, 32, &v), 0);
	ASSERT_INT_EQ(v.right_margin, 2048 - 1920);
	ASSERT_INT_EQ(v.hsync_len, 2248 - 2048);
	ASSERT_INT_EQ(v.left_margin, 2576 - 2248);
	ASSERT_INT_EQ(v.vsync_len, 1088 - 1083);
	ASSERT_INT_EQ(v.upper_margin, 1120 - 1088);
	ASSERT_INT_EQ(fbmodes_cvt(0, 768, 60, 8, &v), -EINVAL);
	ASSERT_INT_EQ(fbmodes_cvt(1024, 768, 0, 8, &v), -EINVAL);
}

/* What info --modes prints (fbset -s's block) parses back to the var. */
static void test_print_round_trip(void)
{
	struct fb_var_screeninfo v;
	struct fbmodes_db db = {};
	char *text = NULL, err[256] = "";
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ASSERT_INT_EQ(fbmodes_cvt(800, 600, 75, 16, &v), 0);
	v.red = (struct fb_bitfield){ .offset = 11, .length = 5 };
	v.green = (struct fb_bitfield){ .offset = 5, .length = 6 };
	v.blue = (struct fb_bitfield){ .offset = 0, .length = 5 };
	v.sync |= FB_SYNC_HOR_HIGH_ACT;
	fb_print_fbset_mode(f, &v);
	fb_print_fbset_mode(f, &(struct fb_var_screeninfo){ .xres = 640,
							    .yres = 480,
							    .xres_virtual = 640,
							    .yres_virtual = 960,
							    .bits_per_pixel = 8,
							    .pixclock = 39722,
							    .left_margin = 48,
							    .right_margin = 16,
							    .upper_margin = 33,
							    .lower_margin = 10,
							    .hsync_len = 96,
							    .vsync_len = 2 });
	fclose(f);
	ASSERT_INT_EQ(fbmodes_parse(text, "printed", &db, err, sizeof(err)), 0);
	ASSERT_INT_EQ(db.n, 2);
	if (db.n == 2) {
		ASSERT_STR_EQ(db.modes[0].name, "800x600-75");
		ASSERT_TRUE(memcmp(&db.modes[0].var, &v, sizeof(v)) == 0);
		ASSERT_STR_EQ(db.modes[1].name, "640x480-60");
		ASSERT_INT_EQ(db.modes[1].var.yres_virtual, 960);
		/* fbset: no "accel" line is accel true */
		ASSERT_INT_EQ(db.modes[1].var.accel_flags, FB_ACCELF_TEXT);
	}
	fbmodes_db_free(&db);
	free(text);
}

int main(void)
{
	test_good();
	test_malformed();
	test_load();
	test_spec();
	test_rgba();
	test_cvt();
	test_print_round_trip();
	return test_finish("test-fbmodes");
}
