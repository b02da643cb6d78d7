/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bench's flip (src/bench-flip.c) on the framebuffer of fb-fake-ioctl.c:
 * pans counted, the room made, the skips and their reasons. */
#include <errno.h>
#include <string.h>

#include "bench.h"
#include "fb-fake-ioctl.h"
#include "test.h"

static void test_flip_with_room(void)
{
	struct fb_bench_flip f;

	fake_bochs();
	ASSERT_INT_EQ(fb_bench_flip(&fake_ops, -1, 0.05, false, &f), 0);
	ASSERT_TRUE(f.ran);
	ASSERT_INT_EQ(f.home_y, 0);
	ASSERT_INT_EQ(f.page_y, 768);
	ASSERT_TRUE(!f.resized);
	ASSERT_INT_EQ(fake.nows, 0); /* no mode set */
	ASSERT_TRUE(f.rate.runs >= 3);
	ASSERT_TRUE(f.rate.median > 0 && f.rate.min <= f.rate.median &&
		    f.rate.median <= f.rate.max);
	/* runs of 8 pans, then one there and back */
	ASSERT_INT_EQ(fake.pans, f.rate.runs * 8 + 2);
	ASSERT_INT_EQ(f.verified, 1);
	ASSERT_INT_EQ(fake.var.yoffset, 0);

	/* from a lower page: the top one, and back down */
	fake_bochs();
	fake.var.yoffset = 768;
	ASSERT_INT_EQ(fb_bench_flip(&fake_ops, -1, 0, true, &f), 0);
	ASSERT_INT_EQ(f.page_y, 0);
	ASSERT_INT_EQ(f.rate.runs, 1); /* quick */
	ASSERT_INT_EQ(fake.var.yoffset, 768);
}

static void test_flip_makes_room(void)
{
	struct fb_bench_flip f;

	fake_vfb();
	fake.fix.ypanstep = 3; /* the page starts at a step: 480 -> 480, 482 -> 483 */
	fake.var.yres = fake.var.yres_virtual = 482;
	ASSERT_INT_EQ(fb_bench_flip(&fake_ops, -1, 0, true, &f), 0);
	ASSERT_TRUE(f.ran);
	ASSERT_TRUE(f.resized);
	ASSERT_INT_EQ(fake.nows, 1);
	ASSERT_INT_EQ(f.page_y, 483);
	ASSERT_INT_EQ(f.yres_virtual, 483 + 482);
	ASSERT_INT_EQ(fake.var.yres_virtual, 483 + 482); /* bench's restore puts it back */
	ASSERT_INT_EQ(f.verified, 1);
}

static void test_flip_skipped(void)
{
	struct fb_bench_flip f;

	fake_vfb();
	fake.fix.ypanstep = 0;
	ASSERT_INT_EQ(fb_bench_flip(&fake_ops, -1, 0, true, &f), 0);
	ASSERT_TRUE(!f.ran);
	ASSERT_TRUE(strstr(f.skipped, "does not pan vertically") != NULL);
	ASSERT_INT_EQ(fake.pans, 0);

	/* too little memory: not even asked */
	fake_vfb();
	fake.fix.smem_len = 640 * 700;
	ASSERT_INT_EQ(fb_bench_flip(&fake_ops, -1, 0, true, &f), 0);
	ASSERT_TRUE(strstr(f.skipped, "no room for a second page") != NULL);
	ASSERT_INT_EQ(fake.nows, 0);

	/* the driver refuses the taller mode */
	fake_vfb();
	fake.max_yres_virtual = 480;
	ASSERT_INT_EQ(fb_bench_flip(&fake_ops, -1, 0, true, &f), 0);
	ASSERT_TRUE(strstr(f.skipped, "refuses a virtual height of 960") != NULL);
	ASSERT_INT_EQ(fake.pans, 0);

	/* a pan refused on the way */
	fake_bochs();
	fake.pan_error = -EBUSY;
	ASSERT_INT_EQ(fb_bench_flip(&fake_ops, -1, 0, true, &f), 0);
	ASSERT_TRUE(!f.ran);
	ASSERT_TRUE(strstr(f.skipped, "FBIOPAN_DISPLAY between y=0 and y=768") != NULL);

	/* gone: an error, not a skip */
	fake_bochs();
	fake.pan_error = -ENODEV;
	ASSERT_INT_EQ(fb_bench_flip(&fake_ops, -1, 0, true, &f), -ENODEV);

	/* a pan that moves nothing is caught */
	fake_bochs();
	fake.pan_stays = true;
	ASSERT_INT_EQ(fb_bench_flip(&fake_ops, -1, 0, true, &f), 0);
	ASSERT_INT_EQ(f.verified, 0);
}

int main(void)
{
	test_flip_with_room();
	test_flip_makes_room();
	test_flip_skipped();
	return test_finish("bench-flip");
}
