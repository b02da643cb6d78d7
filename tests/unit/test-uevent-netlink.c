/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The netlink uevent layout: what the kernel sends is accepted, every kind
 * of malformed or forged-looking message is rejected with a reason. */
#include <errno.h>

#include "test.h"
#include "uevent-message.h"

#define MSG(s) s, sizeof(s) /* keeps the final NUL, as the kernel sends it */

static void accept(const char *buf, size_t len)
{
	struct fb_uevent_env env;
	char why[128] = "";

	ASSERT_INT_EQ(uevent_message_parse(buf, len, &env, why, sizeof(why)), 0);
	if (*why)
		fprintf(stderr, "  rejected: %s\n", why);
}

static void reject(const char *buf, size_t len, const char *reason)
{
	struct fb_uevent_env env;
	char why[128] = "";

	ASSERT_INT_EQ(uevent_message_parse(buf, len, &env, why, sizeof(why)), -EINVAL);
	ASSERT_STR_EQ(why, reason);
}

int main(void)
{
	struct fb_uevent_env env;
	char why[128];
	static const char bochs[] =
		"add@/devices/pci0000:00/0000:00:02.0/graphics/fb0\0"
		"ACTION=add\0DEVPATH=/devices/pci0000:00/0000:00:02.0/graphics/fb0\0"
		"SUBSYSTEM=graphics\0MAJOR=29\0MINOR=0\0DEVNAME=fb0\0SEQNUM=1234";

	ASSERT_INT_EQ(uevent_message_parse(MSG(bochs), &env, why, sizeof(why)), 0);
	ASSERT_STR_EQ(env.action, "add");
	ASSERT_STR_EQ(env.devpath, "/devices/pci0000:00/0000:00:02.0/graphics/fb0");
	ASSERT_STR_EQ(env.subsystem, "graphics");
	ASSERT_STR_EQ(env.major, "29");
	ASSERT_STR_EQ(env.minor, "0");
	ASSERT_STR_EQ(env.devname, "fb0");
	ASSERT_STR_EQ(env.seqnum, "1234");

	accept(MSG(
		"change@/devices/virtual/graphics/fbcon\0ACTION=change\0"
		"DEVPATH=/devices/virtual/graphics/fbcon\0SUBSYSTEM=graphics\0SEQNUM=9"));
	/* Other keys are carried along. */
	accept(MSG(
		"bind@/devices/pci0000:00/0000:00:02.0\0ACTION=bind\0"
		"DEVPATH=/devices/pci0000:00/0000:00:02.0\0SUBSYSTEM=pci\0DRIVER=bochs-drm"));

	reject("", 0, "empty message");
	reject("add@/devices/x\0ACTION=add\0DEVPATH=/devices/x", 31,
	       "message cut short (last field not terminated)");
	reject(MSG("libudev\0\xfe\xed\xca\xfe"), "a libudev message, not the kernel's");
	reject(MSG("add/devices/x\0ACTION=add\0DEVPATH=/devices/x"),
	       "header is not \"action@/devpath\"");
	reject(MSG("@/devices/x\0ACTION=add\0DEVPATH=/devices/x"),
	       "header is not \"action@/devpath\"");
	reject(MSG("add@devices/x\0ACTION=add\0DEVPATH=devices/x"),
	       "header is not \"action@/devpath\"");
	reject(MSG("add@/devices/x\0\0ACTION=add\0DEVPATH=/devices/x"), "empty field");
	reject(MSG("add@/devices/x\0ACTION\0DEVPATH=/devices/x"),
	       "field is not KEY=VALUE");
	reject(MSG("add@/devices/x\0action=add\0DEVPATH=/devices/x"),
	       "field is not KEY=VALUE");
	reject(MSG("add@/devices/x\0=add\0DEVPATH=/devices/x"), "field is not KEY=VALUE");
	reject(MSG("add@/devices/x\0ACTION=add\0ACTION=remove\0DEVPATH=/devices/x"),
	       "ACTION given twice");
	reject(MSG("add@/devices/x\0ACTION=add\0DEVPATH=/devices/x\0FOO=1\0FOO=2"),
	       "FOO given twice");
	reject(MSG("add@/devices/x\0DEVPATH=/devices/x"), "ACTION or DEVPATH missing");
	reject(MSG("add@/devices/x\0ACTION=add"), "ACTION or DEVPATH missing");
	reject(MSG("add@/devices/x\0ACTION=remove\0DEVPATH=/devices/x"),
	       "header disagrees with ACTION or DEVPATH");
	reject(MSG("add@/devices/x\0ACTION=add\0DEVPATH=/devices/y"),
	       "header disagrees with ACTION or DEVPATH");
	reject(MSG("add@/devices/x\0ACTION=addx\0DEVPATH=/devices/x"),
	       "header disagrees with ACTION or DEVPATH");
	return test_finish("test-uevent-netlink");
}
