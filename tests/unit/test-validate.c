/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* coldplug --validate: which devices are validated, and how many failed. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "fbclass.h"
#include "nodemgr.h"

static int results[3];
static int calls[3];

/* A fake validator: devices are fb0, fb1, fb2; the answer comes from results[]. */
static int fake_validate(const struct fb_device *dev, const char *devdir)
{
	int i = dev->name[2] - '0';

	(void)devdir;
	calls[i]++;
	return results[i];
}

static int run(const bool created[3], int r0, int r1, int r2)
{
	struct fb_device devs[3] = {};
	struct fb_device_list list = { .devices = devs, .n = 3 };
	struct nodemgr_opts o = { .devdir = "/dev",
				  .validate = true,
				  .validator = fake_validate };
	char names[3][4] = { "fb0", "fb1", "fb2" };

	for (int i = 0; i < 3; i++)
		devs[i].name = names[i];
	results[0] = r0;
	results[1] = r1;
	results[2] = r2;
	memset(calls, 0, sizeof(calls));
	return nodemgr_validate_created(&o, &list, created);
}

int main(void)
{
	const bool all[3] = { true, true, true };
	const bool only1[3] = { false, true, false };

	ASSERT_INT_EQ(run(all, 0, 0, 0), 0);
	ASSERT_INT_EQ(calls[0] + calls[1] + calls[2], 3);
	ASSERT_INT_EQ(run(all, 0, 1, 0), 1);
	/* every device is validated, also after a failure */
	ASSERT_INT_EQ(calls[2], 1);
	ASSERT_INT_EQ(run(all, 1, 0, 1), 2);
	/* a device that went away is no failure */
	ASSERT_INT_EQ(run(all, -ENODEV, 0, 0), 0);
	/* could not validate (e.g. cannot map) counts as failed */
	ASSERT_INT_EQ(run(all, 0, 0, -EIO), 1);
	/* only nodes this run created */
	ASSERT_INT_EQ(run(only1, 1, 0, 1), 0);
	ASSERT_INT_EQ(calls[0] + calls[2], 0);
	ASSERT_INT_EQ(calls[1], 1);
	return test_finish("test-validate");
}
