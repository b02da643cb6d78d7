/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Every accept and reject case of the strict "dev" parser. */
#include <errno.h>
#include <sys/sysmacros.h>

#include "fbclass.h"
#include "test.h"

static void accept(const char *text, unsigned maj, unsigned min)
{
	dev_t d = 0;
	int r = fb_parse_devnum(text, &d);

	ASSERT_INT_EQ(r, 0);
	ASSERT_INT_EQ(major(d), maj);
	ASSERT_INT_EQ(minor(d), min);
	if (r != 0)
		fprintf(stderr, "  rejected: \"%s\"\n", text);
}

static void reject(const char *text, int err)
{
	dev_t d = makedev(7, 7);
	int r = fb_parse_devnum(text, &d);

	ASSERT_INT_EQ(r, err);
	/* A rejected text leaves the output alone. */
	ASSERT_INT_EQ(major(d), 7);
	if (r != err)
		fprintf(stderr, "  accepted or wrong error: \"%s\"\n", text);
}

int main(void)
{
	accept("29:0", 29, 0);
	accept("29:0\n", 29, 0);
	accept("29:31\n", 29, 31);
	accept("0:0", 0, 0);
	accept("4095:1048575", 4095, 1048575);
	accept("4095:1048575\n", 4095, 1048575);
	accept("1:10", 1, 10);

	reject("", -EINVAL);
	reject("\n", -EINVAL);
	reject("29", -EINVAL);
	reject("29:", -EINVAL);
	reject(":0", -EINVAL);
	reject("29:x", -EINVAL);
	reject("x:0", -EINVAL);
	reject("+29:0", -EINVAL);
	reject("-29:0", -EINVAL);
	reject("29:-0", -EINVAL);
	reject("29:+0", -EINVAL);
	reject(" 29:0", -EINVAL);
	reject("29 :0", -EINVAL);
	reject("29: 0", -EINVAL);
	reject("29:0 ", -EINVAL);
	reject("29:0\n\n", -EINVAL);
	reject("29:0\r\n", -EINVAL);
	reject("29:0\t", -EINVAL);
	reject("029:0", -EINVAL);
	reject("29:00", -EINVAL);
	reject("29:01", -EINVAL);
	reject("00:0", -EINVAL);
	reject("0x1d:0", -EINVAL);
	reject("29:0:0", -EINVAL);
	reject("29::0", -EINVAL);
	reject("29.0", -EINVAL);
	reject("4096:0", -ERANGE);
	reject("29:1048576", -ERANGE);
	reject("99999999999999999999:0", -ERANGE);
	reject("29:18446744073709551617", -ERANGE);
	reject("29:0\nx", -EINVAL);
	ASSERT_INT_EQ(fb_parse_devnum(NULL, &(dev_t){ 0 }), -EINVAL);
	{
		/* An embedded NUL ends the text: what follows is not seen. */
		const char buf[] = { '2', '9', ':', '0', '\0', 'x', '\0' };
		dev_t d;

		ASSERT_INT_EQ(fb_parse_devnum(buf, &d), 0);
	}
	return test_finish("test-devnum");
}
