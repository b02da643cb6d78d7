/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* unload: the decision table, link matching, node and link removal. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "test.h"
#include "unload.h"

static void test_decide(void)
{
	struct fb_unload_facts vfb = { .has_parent = true,
				       .has_driver = true,
				       .has_module = true,
				       .refcnt = 0,
				       .bound_devices = 1,
				       .on_platform_bus = true };
	struct fb_unload_facts f;
	const char *why = NULL;

	ASSERT_INT_EQ(fb_unload_decide(&vfb, &why), FB_UNLOAD_REMOVE_MODULE);
	ASSERT_TRUE(why && *why);
	f = vfb;
	f.refcnt = 2;
	ASSERT_INT_EQ(fb_unload_decide(&f, NULL), FB_UNLOAD_UNBIND);
	f = vfb;
	f.refcnt = -ENOENT;
	ASSERT_INT_EQ(fb_unload_decide(&f, NULL), FB_UNLOAD_UNBIND);
	f = vfb;
	f.bound_devices = 2;
	ASSERT_INT_EQ(fb_unload_decide(&f, NULL), FB_UNLOAD_UNBIND);
	f = vfb;
	f.holders_present = true; /* --force with holders: keep the module's code */
	ASSERT_INT_EQ(fb_unload_decide(&f, NULL), FB_UNLOAD_UNBIND);
	f = vfb;
	f.on_platform_bus = false; /* bochs-drm on PCI */
	ASSERT_INT_EQ(fb_unload_decide(&f, NULL), FB_UNLOAD_UNBIND);
	f = vfb;
	f.has_module = false;
	ASSERT_INT_EQ(fb_unload_decide(&f, NULL), FB_UNLOAD_UNBIND);
	f = vfb;
	f.has_driver = false;
	ASSERT_INT_EQ(fb_unload_decide(&f, NULL), FB_UNLOAD_NONE);
	f = vfb;
	f.has_parent = false;
	ASSERT_INT_EQ(fb_unload_decide(&f, NULL), FB_UNLOAD_NONE);
}

static void test_link_points_to(void)
{
	ASSERT_TRUE(fb_link_points_to("/dev", "fb/by-path", "../../fb1", "fb1"));
	ASSERT_TRUE(fb_link_points_to("/dev", "fb/by-name", "./../../fb1", "fb1"));
	ASSERT_TRUE(fb_link_points_to("/dev", "fb/by-path", "/dev/fb1", "fb1"));
	ASSERT_TRUE(fb_link_points_to("/dev/", "fb/by-path", "/dev//fb1", "fb1"));
	ASSERT_TRUE(
		fb_link_points_to("/tmp/x/dev", "fb/by-path", "/tmp/x/dev/fb1", "fb1"));
	ASSERT_TRUE(!fb_link_points_to("/dev", "fb/by-path", "../../fb10", "fb1"));
	ASSERT_TRUE(!fb_link_points_to("/dev", "fb/by-path", "../../fb0", "fb1"));
	ASSERT_TRUE(!fb_link_points_to("/dev", "fb/by-path", "../fb1", "fb1"));
	ASSERT_TRUE(!fb_link_points_to("/dev", "fb/by-path", "../../../fb1", "fb1"));
	ASSERT_TRUE(!fb_link_points_to("/dev", "fb/by-path", "../../../dev/fb1", "fb1"));
	ASSERT_TRUE(!fb_link_points_to("/dev", "fb/by-path", "/other/fb1", "fb1"));
	ASSERT_TRUE(!fb_link_points_to("/dev", "fb/by-path", "", "fb1"));
	ASSERT_TRUE(!fb_link_points_to("/dev", "fb/by-path", "fb1", "fb1"));
}

static char root[256];
static int n_reported;

static void report(const char *path)
{
	(void)path;
	n_reported++;
}

static bool exists(const char *rel)
{
	char p[512];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	return lstat(p, &st) == 0;
}

/* A shell command with $R the test root. */
static void sh(const char *cmd)
{
	setenv("R", root, 1);
	ASSERT_INT_EQ(system(cmd), 0);
}

static void test_remove_node(void)
{
	char p[512], outside[512];
	int r;

	snprintf(root, sizeof(root), "%s/fbclass-unload.XXXXXX",
		 getenv("TMPDIR") ?: "/tmp");
	ASSERT_TRUE(mkdtemp(root) != NULL);
	snprintf(outside, sizeof(outside), "%s/outside", root);
	sh("mkdir -p $R/dev/fb/by-path $R/dev/fb/by-name $R/outside/by-x && "
	   "ln -s ../../fb1 $R/dev/fb/by-path/platform-vfb.0 && "
	   "ln -s ../../fb1 $R/dev/fb/by-name/vfb && "
	   "ln -s ../../fb0 $R/dev/fb/by-name/other && "
	   "ln -s ../outside $R/dev/fb/by-trap && "
	   "ln -s ../../../dev/fb1 $R/outside/by-x/evil");
	snprintf(p, sizeof(p), "%s/dev/fb1", root);
	if (geteuid() == 0) {
		ASSERT_INT_EQ(mknod(p, S_IFCHR | 0600, makedev(29, 1)), 0);
		snprintf(p, sizeof(p), "%s/dev/fb0", root);
		ASSERT_INT_EQ(mknod(p, S_IFCHR | 0600, makedev(29, 0)), 0);
		/* the wrong device number: neither it nor its links removed */
		r = fb_unload_remove_node(strcat(strcpy(p, root), "/dev"), "fb0",
					  makedev(29, 9), report);
		ASSERT_INT_EQ(r, 0);
		ASSERT_TRUE(exists("dev/fb0"));
		ASSERT_TRUE(exists("dev/fb/by-name/other"));
		n_reported = 0;
		r = fb_unload_remove_node(p, "fb1", makedev(29, 1), report);
		ASSERT_INT_EQ(r, 3);
		ASSERT_INT_EQ(n_reported, 3);
		ASSERT_TRUE(!exists("dev/fb1"));
		ASSERT_TRUE(!exists("dev/fb/by-path/platform-vfb.0"));
		ASSERT_TRUE(!exists("dev/fb/by-name/vfb"));
		ASSERT_TRUE(exists("dev/fb0"));
		ASSERT_TRUE(exists("dev/fb/by-name/other"));
		/* the symlinked directory was not followed */
		ASSERT_TRUE(exists("dev/fb/by-trap"));
		ASSERT_TRUE(exists("outside/by-x/evil"));
	} else {
		printf("# not root: the character device half is not tested\n");
	}
	/* a regular file at the node's name: nothing removed */
	sh("rm -f $R/dev/fb1 && touch $R/dev/fb1 && ln -sf ../../fb1 "
	   "$R/dev/fb/by-name/vfb");
	r = fb_unload_remove_node(strcat(strcpy(p, root), "/dev"), "fb1", makedev(29, 1),
				  NULL);
	ASSERT_INT_EQ(r, 0);
	ASSERT_TRUE(exists("dev/fb1"));
	ASSERT_TRUE(exists("dev/fb/by-name/vfb"));
	/* the name free (the daemon removed the node): the links still go */
	sh("rm -f $R/dev/fb1");
	r = fb_unload_remove_node(strcat(strcpy(p, root), "/dev"), "fb1", makedev(29, 1),
				  NULL);
	ASSERT_INT_EQ(r, 1);
	ASSERT_TRUE(!exists("dev/fb/by-name/vfb"));
	/* the device directory itself a symlink: refused */
	sh("ln -s dev $R/devlink");
	r = fb_unload_remove_node(strcat(strcpy(p, root), "/devlink"), "fb1",
				  makedev(29, 1), NULL);
	ASSERT_TRUE(r == -ELOOP || r == -ENOTDIR);
	ASSERT_INT_EQ(fb_unload_remove_node(strcat(strcpy(p, root), "/dev"), "x/fb1",
					    makedev(29, 1), NULL),
		      -EINVAL);
	sh("rm -rf \"$R\"");
}

static void test_wait_gone(void)
{
	ASSERT_INT_EQ(fb_wait_gone("/nonexistent/fbclass", 0), 0);
	ASSERT_INT_EQ(fb_wait_gone("/", 60), -ETIMEDOUT);
}

int main(void)
{
	test_decide();
	test_link_points_to();
	test_remove_node();
	test_wait_gone();
	return test_finish("test-unload");
}
