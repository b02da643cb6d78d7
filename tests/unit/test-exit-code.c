/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one mapping of a library result to an exit status, against the
 * statuses fbclassctl(8) documents. */
#include <errno.h>

#include "test.h"
#include "commands.h"

/* The numbers of EXIT STATUS in man/fbclassctl.8, written out here: a
 * renumbered enum must fail this test. */
static void test_documented_numbers(void)
{
	ASSERT_INT_EQ(FB_EXIT_OK, 0);
	ASSERT_INT_EQ(FB_EXIT_ERROR, 1);
	ASSERT_INT_EQ(FB_EXIT_USAGE, 2);
	ASSERT_INT_EQ(FB_EXIT_VALIDATION, 3);
	ASSERT_INT_EQ(FB_EXIT_NO_DEVICE, 4);
	ASSERT_INT_EQ(FB_EXIT_REFUSED, 5);
	ASSERT_INT_EQ(FB_EXIT_TIMEOUT, 6);
}

static void test_success(void)
{
	for (int from = FB_FROM_LIBRARY; from <= FB_FROM_WAIT; from++) {
		ASSERT_INT_EQ(fb_exit_code(0, from), 0);
		ASSERT_INT_EQ(fb_exit_code(1, from), 0);
	}
}

/* Each -errno means something only where it came from. */
static void test_by_origin(void)
{
	ASSERT_INT_EQ(fb_exit_code(-EINVAL, FB_FROM_LIBRARY), 1);
	ASSERT_INT_EQ(fb_exit_code(-ENODEV, FB_FROM_LIBRARY), 1);
	ASSERT_INT_EQ(fb_exit_code(-ETIMEDOUT, FB_FROM_LIBRARY), 1);

	ASSERT_INT_EQ(fb_exit_code(-EINVAL, FB_FROM_INPUT), 2);
	ASSERT_INT_EQ(fb_exit_code(-ENOMEM, FB_FROM_INPUT), 1);
	ASSERT_INT_EQ(fb_exit_code(-ENODEV, FB_FROM_INPUT), 1);

	ASSERT_INT_EQ(fb_exit_code(-ENODEV, FB_FROM_SELECT), 4);
	ASSERT_INT_EQ(fb_exit_code(-ENOMEM, FB_FROM_SELECT), 1);
	ASSERT_INT_EQ(fb_exit_code(-EINVAL, FB_FROM_SELECT), 1);

	ASSERT_INT_EQ(fb_exit_code(-EINVAL, FB_FROM_MODESET), 5);
	ASSERT_INT_EQ(fb_exit_code(-ERANGE, FB_FROM_MODESET), 2);
	ASSERT_INT_EQ(fb_exit_code(-EDOM, FB_FROM_MODESET), 2);
	ASSERT_INT_EQ(fb_exit_code(-EIO, FB_FROM_MODESET), 1);
	ASSERT_INT_EQ(fb_exit_code(-ENODEV, FB_FROM_MODESET), 1);

	ASSERT_INT_EQ(fb_exit_code(-ETIMEDOUT, FB_FROM_WAIT), 6);
	ASSERT_INT_EQ(fb_exit_code(-EINVAL, FB_FROM_WAIT), 1);
}

int main(void)
{
	test_documented_numbers();
	test_success();
	test_by_origin();
	return test_finish("exit-code");
}
