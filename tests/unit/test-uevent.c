/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* uevent variable validation: accepted events, ignored ones, and every
 * rejection with its message. */
#include <errno.h>
#include <sys/sysmacros.h>

#include "test.h"
#include "uevent.h"

#define GOOD_PATH "/devices/pci0000:00/0000:00:02.0/graphics/fb0"

static struct fb_uevent_env good(void)
{
	return (struct fb_uevent_env){
		.action = "add",
		.devpath = GOOD_PATH,
		.subsystem = "graphics",
		.major = "29",
		.minor = "0",
		.devname = "fb0",
		.seqnum = "1234",
	};
}

static void test_accept(void)
{
	struct fb_uevent_env env = good();
	struct fb_uevent ev;
	char why[512] = "";

	ASSERT_INT_EQ(fb_uevent_parse(&env, &ev, why, sizeof(why)), 1);
	ASSERT_INT_EQ(ev.action, FB_UEVENT_ADD);
	ASSERT_STR_EQ(ev.devname, "fb0");
	ASSERT_STR_EQ(ev.devpath, GOOD_PATH);
	ASSERT_TRUE(ev.devnum == makedev(29, 0));
	ASSERT_TRUE(ev.has_seqnum && ev.seqnum == 1234);

	env.action = "remove";
	env.minor = "31";
	env.devname = "fb31";
	env.devpath = "/devices/platform/vfb.0/graphics/fb31";
	env.seqnum = NULL;
	ASSERT_INT_EQ(fb_uevent_parse(&env, &ev, why, sizeof(why)), 1);
	ASSERT_INT_EQ(ev.action, FB_UEVENT_REMOVE);
	ASSERT_TRUE(ev.devnum == makedev(29, 31));
	ASSERT_TRUE(!ev.has_seqnum);
	env.action = "change";
	ASSERT_INT_EQ(fb_uevent_parse(&env, &ev, why, sizeof(why)), 1);
	ASSERT_INT_EQ(ev.action, FB_UEVENT_CHANGE);

	/* a udev RUN rule's DEVNAME: the node's path under /dev */
	env.devname = "/dev/fb31";
	ASSERT_INT_EQ(fb_uevent_parse(&env, &ev, why, sizeof(why)), 1);
	ASSERT_STR_EQ(ev.devname, "fb31");
}

static void test_ignore(void)
{
	struct fb_uevent_env env = good();
	struct fb_uevent ev;
	char why[512];

	env.subsystem = "block";
	ASSERT_INT_EQ(fb_uevent_parse(&env, &ev, why, sizeof(why)), 0);
	ASSERT_STR_EQ(why, "not a graphics event");
	env.subsystem = NULL;
	ASSERT_INT_EQ(fb_uevent_parse(&env, &ev, why, sizeof(why)), 0);
	env = good();
	env.action = "bind";
	ASSERT_INT_EQ(fb_uevent_parse(&env, &ev, why, sizeof(why)), 0);
	ASSERT_STR_EQ(why, "ACTION=bind needs nothing done");
	env = (struct fb_uevent_env){ .action = "add",
				      .subsystem = "graphics",
				      .devpath = "/devices/virtual/graphics/fbcon" };
	ASSERT_INT_EQ(fb_uevent_parse(&env, &ev, why, sizeof(why)), 0);
	ASSERT_STR_EQ(why, "/devices/virtual/graphics/fbcon has no device node");
}

static const struct {
	const char *field, *value, *message;
} bad[] = {
	{ "action", NULL, "ACTION is missing" },
	{ "action", "explode", "unknown ACTION \"explode\"" },
	{ "devpath", NULL, "DEVPATH is missing" },
	{ "devpath", "/sys/devices/x/fb0",
	  "DEVPATH \"/sys/devices/x/fb0\" is not under /devices" },
	{ "devpath", "/class/graphics/fb0",
	  "DEVPATH \"/class/graphics/fb0\" is not under /devices" },
	{ "devpath", "devices/x/fb0", "DEVPATH \"devices/x/fb0\" is not under /devices" },
	{ "devpath", "/devices/../../tmp/fb0",
	  "DEVPATH \"/devices/../../tmp/fb0\" has a \".\" or \"..\" component" },
	{ "devpath", "/devices/./fb0",
	  "DEVPATH \"/devices/./fb0\" has a \".\" or \"..\" component" },
	{ "devpath", "/devices//fb0", "DEVPATH \"/devices//fb0\" has an empty component" },
	{ "devpath", "/devices/x/", "DEVPATH \"/devices/x/\" has an empty component" },
	{ "devpath", "/devices/a b/fb0",
	  "DEVPATH \"/devices/a b/fb0\" contains a space, control or non-ASCII character" },
	{ "major", NULL, "MAJOR is missing" },
	{ "minor", NULL, "MINOR is missing" },
	{ "devname", NULL, "DEVNAME is missing" },
	{ "major", "1", "MAJOR 1 is not the framebuffer major 29" },
	{ "major", "029", "invalid MAJOR \"029\"" },
	{ "major", "+29", "invalid MAJOR \"+29\"" },
	{ "major", "29 ", "invalid MAJOR \"29 \"" },
	{ "major", "", "invalid MAJOR \"\"" },
	{ "major", "4096", "invalid MAJOR \"4096\"" },
	{ "minor", "1048576", "invalid MINOR \"1048576\"" },
	{ "minor", "-1", "invalid MINOR \"-1\"" },
	{ "minor", "99999999999999999999999",
	  "invalid MINOR \"99999999999999999999999\"" },
	{ "devname", "../../tmp/pwn",
	  "DEVNAME \"../../tmp/pwn\" is not a plain name (no '/', no \"..\")" },
	{ "devname", "/etc/x",
	  "DEVNAME \"/etc/x\" is not a plain name (no '/', no \"..\")" },
	{ "devname", "fb0/../x",
	  "DEVNAME \"fb0/../x\" is not a plain name (no '/', no \"..\")" },
	{ "devname", "..", "DEVNAME \"..\" is not a plain name (no '/', no \"..\")" },
	{ "devname", "", "DEVNAME \"\" is not a plain name (no '/', no \"..\")" },
	{ "devname", "/dev/../fb0",
	  "DEVNAME \"/dev/../fb0\" is not a plain name (no '/', no \"..\")" },
	{ "devname", "/dev/x/fb0",
	  "DEVNAME \"/dev/x/fb0\" is not a plain name (no '/', no \"..\")" },
	{ "devname", "/dev/",
	  "DEVNAME \"/dev/\" is not a plain name (no '/', no \"..\")" },
	{ "devname", "/devfb0",
	  "DEVNAME \"/devfb0\" is not a plain name (no '/', no \"..\")" },
	{ "devname", "/dev/fb1", "DEVNAME \"/dev/fb1\" is not the device's name \"fb0\"" },
	{ "devname", "fb1", "DEVNAME \"fb1\" is not the device's name \"fb0\"" },
	{ "devname", "mem", "DEVNAME \"mem\" is not the device's name \"fb0\"" },
	{ "seqnum", "12x", "invalid SEQNUM \"12x\"" },
};

static void test_reject(void)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct fb_uevent_env env = good();
		struct fb_uevent ev;
		char why[512] = "";

		if (strcmp(bad[i].field, "action") == 0)
			env.action = bad[i].value;
		else if (strcmp(bad[i].field, "devpath") == 0)
			env.devpath = bad[i].value;
		else if (strcmp(bad[i].field, "major") == 0)
			env.major = bad[i].value;
		else if (strcmp(bad[i].field, "minor") == 0)
			env.minor = bad[i].value;
		else if (strcmp(bad[i].field, "devname") == 0)
			env.devname = bad[i].value;
		else if (strcmp(bad[i].field, "seqnum") == 0)
			env.seqnum = bad[i].value;
		ASSERT_INT_EQ(fb_uevent_parse(&env, &ev, why, sizeof(why)), -EINVAL);
		ASSERT_STR_EQ(why, bad[i].message);
	}
}

int main(void)
{
	test_accept();
	test_ignore();
	test_reject();
	return test_finish("test-uevent");
}
