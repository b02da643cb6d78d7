/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The sysfs seam's direct reader (src/sysfs-direct.c), the node plan's
 * scan, on trees built here and bind-mounted over /sys in a private mount
 * namespace (so: as root).  What real trees give, both scans alike, is the
 * fixture tier's (tests/fixtures/run.sh compares coldplug's two scans on
 * every captured and hostile tree); here are the trees no kernel makes:
 * links that dangle, leave /sys or loop, entries that are files, the class
 * layout of 2004, a device of another class, an oversized attribute.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "display.h"
#include "fbclass.h"
#include "sysfs.h"
#include "test.h"

static char root[256];

static void path_of(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/%s", root, rel);
}

/* mkdir -p root/rel */
static void mkdirs(const char *rel)
{
	char p[1024];

	path_of(p, sizeof(p), rel);
	for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

static void put(const char *rel, const char *text)
{
	char p[1024];
	FILE *f;

	path_of(p, sizeof(p), rel);
	f = fopen(p, "w");
	ASSERT_MSG(f != NULL, "cannot write %s", p);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void link_to(const char *target, const char *rel)
{
	char p[1024];

	path_of(p, sizeof(p), rel);
	ASSERT_MSG(symlink(target, p) == 0, "cannot link %s", p);
}

/* A framebuffer device as the kernel lays it out: its directory under
 * parent, the class link, dev, uevent, name, subsystem. */
static void add_fb(const char *parent, const char *name, unsigned minor, const char *id)
{
	char rel[256], text[512], target[512];

	snprintf(rel, sizeof(rel), "devices/%s/graphics/%s", parent, name);
	mkdirs(rel);
	snprintf(text, sizeof(text), "%s/dev", rel);
	snprintf(target, sizeof(target), "29:%u\n", minor);
	put(text, target);
	snprintf(text, sizeof(text), "%s/uevent", rel);
	snprintf(target, sizeof(target), "MAJOR=29\nMINOR=%u\nDEVNAME=%s\n", minor, name);
	put(text, target);
	snprintf(text, sizeof(text), "%s/name", rel);
	put(text, id);
	snprintf(text, sizeof(text), "%s/subsystem", rel);
	/* as deep as rel is, back to /sys */
	snprintf(target, sizeof(target), "../../../../%sclass/graphics",
		 strchr(parent, '/') ? "../" : "");
	link_to(target, text);
	snprintf(text, sizeof(text), "class/graphics/%s", name);
	snprintf(target, sizeof(target), "../../devices/%s/graphics/%s", parent, name);
	link_to(target, text);
}

/* A platform device with a driver, its parent the platform root. */
static void add_platform(const char *name, const char *driver)
{
	char rel[256], target[512];

	snprintf(rel, sizeof(rel), "devices/platform/%s", name);
	mkdirs(rel);
	snprintf(target, sizeof(target), "%s/uevent", rel);
	put(target, "");
	snprintf(target, sizeof(target), "%s/subsystem", rel);
	link_to("../../../bus/platform", target);
	snprintf(target, sizeof(target), "%s/driver", rel);
	snprintf(rel, sizeof(rel), "../../../bus/platform/drivers/%s", driver);
	link_to(rel, target);
}

static void build_tree(void)
{
	char big[10001];

	mkdirs("class/graphics");
	mkdirs("class/drm");
	mkdirs("bus/platform/drivers/vfb");
	mkdirs("devices/platform");
	put("devices/platform/uevent", "");
	add_platform("vfb.0", "vfb");
	add_fb("platform/vfb.0", "fb0", 0, "Virtual FB\n");
	/* two framebuffers of one device share its ancestors */
	add_fb("platform/vfb.0", "fb1", 1, "Virtual FB\n");
	/* a name longer than a page, read whole */
	memset(big, 'N', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	add_platform("big.0", "vfb");
	add_fb("platform/big.0", "fb2", 2, big);

	/* the class layout of 2004: a directory in the class, a device link */
	mkdirs("class/graphics/fb3");
	put("class/graphics/fb3/dev", "29:3\n");
	put("class/graphics/fb3/uevent", "");
	link_to("../../../devices/platform/vfb.0", "class/graphics/fb3/device");

	/* entries that are no device */
	link_to("../../devices/platform/gone/graphics/fb4", "class/graphics/fb4");
	link_to("/etc", "class/graphics/fb5");
	link_to("../../../../../../etc", "class/graphics/fb6");
	link_to("fb7", "class/graphics/fb7"); /* a loop */
	put("class/graphics/fb8", "29:8\n"); /* a file */
	/* a device of another class, linked into this one */
	mkdirs("devices/virtual/misc/fb9");
	put("devices/virtual/misc/fb9/dev", "29:9\n");
	put("devices/virtual/misc/fb9/uevent", "");
	mkdirs("class/misc");
	link_to("../../../../class/misc", "devices/virtual/misc/fb9/subsystem");
	link_to("../../devices/virtual/misc/fb9", "class/graphics/fb9");

	/* a DRM card with a connector, a stray "connector" of another
	 * directory, and a render node */
	mkdirs("devices/platform/vfb.0/drm/card0/card0-Virtual-1");
	put("devices/platform/vfb.0/drm/card0/uevent", "");
	put("devices/platform/vfb.0/drm/card0/dev", "226:0\n");
	link_to("../../../../../class/drm", "devices/platform/vfb.0/drm/card0/subsystem");
	put("devices/platform/vfb.0/drm/card0/card0-Virtual-1/status", "connected\n");
	put("devices/platform/vfb.0/drm/card0/card0-Virtual-1/uevent", "");
	link_to("../../../../../../class/drm",
		"devices/platform/vfb.0/drm/card0/card0-Virtual-1/subsystem");
	link_to("../../devices/platform/vfb.0/drm/card0", "class/drm/card0");
	link_to("../../devices/platform/vfb.0/drm/card0/card0-Virtual-1",
		"class/drm/card0-Virtual-1");
	mkdirs("devices/platform/big.0/drm/card0-HDMI-A-1");
	put("devices/platform/big.0/drm/card0-HDMI-A-1/status", "connected\n");
	link_to("../../../../../class/drm",
		"devices/platform/big.0/drm/card0-HDMI-A-1/subsystem");
	link_to("../../devices/platform/big.0/drm/card0-HDMI-A-1",
		"class/drm/card0-HDMI-A-1");
	mkdirs("devices/platform/vfb.0/drm/renderD128");
	put("devices/platform/vfb.0/drm/renderD128/dev", "226:128\n");
	link_to("../../../../../class/drm",
		"devices/platform/vfb.0/drm/renderD128/subsystem");
	link_to("../../devices/platform/vfb.0/drm/renderD128", "class/drm/renderD128");
}

static void check_vfb_parents(const struct fb_device *d)
{
	ASSERT_INT_EQ(d->n_parents, 2);
	if (d->n_parents != 2)
		return;
	ASSERT_STR_EQ(d->parents[0].syspath, "/sys/devices/platform/vfb.0");
	ASSERT_STR_EQ(d->parents[0].sysname, "vfb.0");
	ASSERT_STR_EQ(d->parents[0].subsystem, "platform");
	ASSERT_STR_EQ(d->parents[0].driver, "vfb");
	ASSERT_NULL(d->parents[0].modalias);
	ASSERT_NULL(d->parents[0].module);
	ASSERT_STR_EQ(d->parents[1].syspath, "/sys/devices/platform");
	ASSERT_NULL(d->parents[1].subsystem);
	ASSERT_NULL(d->parents[1].driver);
}

static void test_scan(void)
{
	struct fb_device_list list;
	const struct fb_device *d;

	ASSERT_INT_EQ(fb_device_scan(&list, FB_SCAN_PLAN), 0);
	/* fb0 to fb3; nothing of the rest */
	ASSERT_INT_EQ(list.n, 4);
	for (size_t i = 0; i < list.n && i < 4; i++)
		ASSERT_INT_EQ(minor(list.devices[i].devnum), i);

	d = fb_device_list_find(&list, "fb0");
	ASSERT_TRUE(d != NULL);
	if (d) {
		ASSERT_STR_EQ(d->syspath, "/sys/devices/platform/vfb.0/graphics/fb0");
		ASSERT_STR_EQ(d->devname, "fb0");
		ASSERT_STR_EQ(fb_device_attr(d, "name"), "Virtual FB");
		ASSERT_STR_EQ(d->path_id, "platform-vfb.0");
		check_vfb_parents(d);
	}
	d = fb_device_list_find(&list, "fb1");
	ASSERT_TRUE(d != NULL);
	if (d)
		check_vfb_parents(d);
	d = fb_device_list_find(&list, "fb2");
	ASSERT_TRUE(d != NULL);
	if (d) {
		const char *name = fb_device_attr(d, "name");

		ASSERT_INT_EQ(name ? strlen(name) : 0, 10000);
		ASSERT_STR_EQ(d->path_id, "platform-big.0");
	}
	/* 2004: the parents start where the device link leads */
	d = fb_device_list_find(&list, "fb3");
	ASSERT_TRUE(d != NULL);
	if (d) {
		ASSERT_STR_EQ(d->syspath, "/sys/class/graphics/fb3");
		ASSERT_NULL(fb_device_attr(d, "name"));
		check_vfb_parents(d);
	}
	fb_device_list_free(&list);
}

static void test_scan_one(void)
{
	static const char *const same[] = {
		"/sys/class/graphics/fb0",
		"/sys/devices/platform/vfb.0/graphics/fb0",
		"/sys/devices/../devices/platform/./vfb.0/graphics/fb0/",
		"/sys/class/misc/../graphics/fb0",
	};
	struct fb_device d;

	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		ASSERT_MSG(fb_device_scan_one(same[i], FB_SCAN_PLAN, &d) == 0, "%s",
			   same[i]);
		ASSERT_STR_EQ(d.syspath, "/sys/devices/platform/vfb.0/graphics/fb0");
		fb_device_free(&d);
	}
	ASSERT_INT_EQ(fb_device_scan_one("/sys/class/graphics/fb4", FB_SCAN_PLAN, &d),
		      -ENODEV);
	ASSERT_INT_EQ(fb_device_scan_one("/sys/class/graphics/fb5", FB_SCAN_PLAN, &d),
		      -ENODEV);
	ASSERT_INT_EQ(fb_device_scan_one("/sys/class/graphics/fb7", FB_SCAN_PLAN, &d),
		      -ENODEV);
	ASSERT_INT_EQ(fb_device_scan_one("/sys/class/graphics/fb9", FB_SCAN_PLAN, &d),
		      -ENODEV);
	ASSERT_INT_EQ(fb_device_scan_one("/sys/../etc", FB_SCAN_PLAN, &d), -ENODEV);
	ASSERT_INT_EQ(fb_device_scan_one("/etc/passwd", FB_SCAN_PLAN, &d), -ENODEV);
}

/* One device at a time: a second open is refused, a closed one reopens. */
static void test_one_open(void)
{
	struct fb_sysfs_dev *a = NULL, *b = NULL;
	struct fb_sysfs *s;
	char buf[64];

	ASSERT_INT_EQ(fb_sysfs_new(&s, "graphics", FB_SYSFS_DIRECT), 0);
	ASSERT_INT_EQ(fb_sysfs_dev_open(s, "/sys/class/graphics/fb0", &a), 0);
	ASSERT_INT_EQ(fb_sysfs_dev_open(s, "/sys/class/graphics/fb1", &b), -EBUSY);
	ASSERT_INT_EQ(fb_sysfs_dev_read(a, "dev", buf, sizeof(buf)), 5);
	ASSERT_STR_EQ(buf, "29:0\n");
	ASSERT_INT_EQ(fb_sysfs_dev_read(a, "nonexistent", buf, sizeof(buf)), -ENOENT);
	/* cut, never overrun */
	ASSERT_INT_EQ(fb_sysfs_dev_read(a, "dev", buf, 3), 2);
	ASSERT_STR_EQ(buf, "29");
	fb_sysfs_dev_close(a);
	ASSERT_INT_EQ(fb_sysfs_dev_open(s, "/sys/class/graphics/fb1", &b), 0);
	ASSERT_STR_EQ(fb_sysfs_dev_sysname(b), "fb1");
	fb_sysfs_dev_close(b);
	fb_sysfs_free(s);
}

static void test_drm_plan(void)
{
	struct drm_list drm;

	ASSERT_INT_EQ(display_scan(&drm, DRM_SCAN_PLAN), 0);
	ASSERT_INT_EQ(drm.n, 1);
	if (drm.n == 1) {
		const struct drm_card *c = &drm.cards[0];

		ASSERT_STR_EQ(c->name, "card0");
		ASSERT_INT_EQ(c->n_parents, 2);
		if (c->n_parents)
			ASSERT_STR_EQ(c->parents[0].syspath,
				      "/sys/devices/platform/vfb.0");
		/* what a plan does not read */
		ASSERT_INT_EQ(c->devnum, 0);
		ASSERT_NULL(c->render);
		/* the stray connector lives in another directory: not card0's */
		ASSERT_INT_EQ(c->n_connectors, 1);
		if (c->n_connectors) {
			ASSERT_STR_EQ(c->connectors[0].name, "card0-Virtual-1");
			ASSERT_INT_EQ(c->connectors[0].status, DRM_STATUS_CONNECTED);
			ASSERT_NULL(c->connectors[0].dpms);
			ASSERT_INT_EQ(c->connectors[0].n_modes, 0);
		}
	}
	display_list_free(&drm);
}

int main(void)
{
	char cmd[512];

	if (geteuid() != 0)
		return test_skip("needs root: a tree is bind-mounted over /sys");
	snprintf(root, sizeof(root), "%s/fbclass-direct.XXXXXX",
		 getenv("TMPDIR") ?: "/tmp");
	if (!mkdtemp(root))
		return test_skip("cannot make a temporary directory: %s", strerror(errno));
	if (unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return test_skip("no private mount namespace: %s", strerror(errno));
	build_tree();
	ASSERT_INT_EQ(mount(root, "/sys", NULL, MS_BIND, NULL), 0);

	test_scan();
	test_scan_one();
	test_one_open();
	test_drm_plan();

	umount("/sys");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ASSERT_INT_EQ(system(cmd), 0);
	return test_finish("test-sysfs-direct");
}
