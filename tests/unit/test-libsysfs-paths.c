/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The libsysfs backend (--with-libsysfs only) and its 256-byte path
 * buffers: a path that would not fit is refused before libsysfs sees it,
 * an attribute whose path would not fit is skipped, the rest is read.  On
 * a plain directory tree: libsysfs opens class devices and attributes by
 * path without asking for a sysfs mount.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fbclass.h"
#include "test.h"

#define LIBSYSFS_PATH_MAX 256

static void put(const char *dir, const char *name, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ASSERT_TRUE(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* mkdir -p of base/rel, rel's components each under 64 bytes. */
static int mkdirs(const char *base, const char *rel)
{
	char path[1024];
	size_t n = strlen(base);

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	for (char *p = path + n + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return mkdir(path, 0755) < 0 && errno != EEXIST ? -errno : 0;
}

/* A relative path of exactly len bytes: components of at most 61, the
 * last "fb0". */
static void make_rel(char *rel, size_t len)
{
	size_t body = len - 4;

	for (size_t k = 0; k < body; k++)
		rel[k] = k % 61 == 60 ? '/' : 'p';
	rel[body - 1] = 'p';
	memcpy(rel + body, "/fb0", 5);
}

int main(void)
{
	char base[] = "/tmp/fbclassctl-libsysfs.XXXXXX", rel[300], dev[1024], link[1100];
	char longpath[400], *canon;
	struct fb_device d;
	size_t rellen;

	/* 1. Longer than the buffers: refused before anything is read. */
	memset(longpath, 'x', sizeof(longpath) - 1);
	longpath[sizeof(longpath) - 1] = '\0';
	memcpy(longpath, "/sys/devices/", 13);
	ASSERT_INT_EQ(fb_device_scan_one(longpath, FB_SCAN_ATTRS, &d), -ENAMETOOLONG);

	if (!mkdtemp(base) || !(canon = realpath(base, NULL))) {
		return test_skip("cannot make a temporary directory %s: %m", base);
	}
	/* 2. A component of 100 bytes after "class" (in the temporary
	 * directory's name) would overflow libsysfs's 64-byte class name. */
	memset(rel, 'c', 100);
	strcpy(rel + 100, "/fb0");
	ASSERT_INT_EQ(mkdirs(canon, rel), 0);
	snprintf(dev, sizeof(dev), "%s/%s", canon, rel);
	ASSERT_INT_EQ(fb_device_scan_one(dev, FB_SCAN_ATTRS, &d), -ENAMETOOLONG);

	/* 3. A class device whose own path fits (245 bytes), so "name" and
	 * "uevent" fit, but "bits_per_pixel" would make 260. */
	rellen = 245 - strlen(canon) - 1;
	if (rellen < 10 || rellen >= sizeof(rel)) {
		return test_skip("temporary directory %s too long for the test", canon);
	}
	make_rel(rel, rellen);
	ASSERT_INT_EQ(mkdirs(canon, rel), 0);
	snprintf(dev, sizeof(dev), "%s/%s", canon, rel);
	ASSERT_INT_EQ(strlen(dev), 245);
	put(dev, "dev", "29:0\n");
	put(dev, "uevent", "MAJOR=29\nMINOR=0\nDEVNAME=fb0\n");
	put(dev, "name", "testfb\n");
	put(dev, "bits_per_pixel", "32\n");
	snprintf(link, sizeof(link), "%s/subsystem", dev);
	ASSERT_INT_EQ(symlink("../../class/graphics", link), 0);
	ASSERT_INT_EQ(fb_device_scan_one(dev, FB_SCAN_ATTRS, &d), 0);
	ASSERT_STR_EQ(d.name, "fb0");
	ASSERT_STR_EQ(d.syspath, dev);
	ASSERT_STR_EQ(fb_device_attr(&d, "name"), "testfb");
	ASSERT_NULL(fb_device_attr(&d, "bits_per_pixel"));
	ASSERT_STR_EQ(fb_device_attr(&d, "uevent"), "MAJOR=29\nMINOR=0\nDEVNAME=fb0");
	ASSERT_INT_EQ(d.n_parents, 0);
	fb_device_free(&d);

	/* 4. The node manager's scan reads "name" only, and it fits. */
	ASSERT_INT_EQ(fb_device_scan_one(dev, FB_SCAN_NODE, &d), 0);
	ASSERT_STR_EQ(fb_device_attr(&d, "name"), "testfb");
	ASSERT_INT_EQ(d.n_attrs, 1);
	fb_device_free(&d);

	{
		char cmd[1200];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", canon);
		ASSERT_INT_EQ(system(cmd), 0);
	}
	free(canon);
	return test_finish("test-libsysfs-paths");
}
