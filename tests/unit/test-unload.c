/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* unload: the decision table, the wait, and the removal of a node and its
 * links, which unload does the node manager's way (node_remove). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "test.h"
#include "nodes.h"
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

static char root[256];

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

/* node_remove as unload and hotplug's remove call it (nodemgr_remove):
 * the plan of the devices still present, fb0 here, whose rules list
 * display/x for nobody present: a stale rule link. */
static int remove_fb1(const char *devdir, const char *name, dev_t devnum)
{
	static char stale[][NODE_PATH_MAX] = { "display/x", "display/abs" };
	struct node_entry fb0 = { .name = "fb0", .devnum = makedev(29, 0) };
	struct node_plan plan = {
		.nodes = &fb0, .n_nodes = 1, .stale = stale, .n_stale = 2
	};
	int dfd = open(devdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int r;

	ASSERT_TRUE(dfd >= 0);
	r = node_remove(dfd, devdir, name, devnum, &plan, 0);
	close(dfd);
	return r;
}

static void test_remove_node(void)
{
	char dev[300], p[512];

	snprintf(root, sizeof(root), "%s/fbclass-unload.XXXXXX",
		 getenv("TMPDIR") ?: "/tmp");
	ASSERT_TRUE(mkdtemp(root) != NULL);
	snprintf(dev, sizeof(dev), "%s/dev", root);
	/* Ours: fb1's fb/by-* links and the stale rule link display/x.  Not
	 * ours: an absolute link, links elsewhere, fb0's link. */
	sh("mkdir -p $R/dev/fb/by-path $R/dev/display $R/outside && "
	   "ln -s ../../fb1 $R/dev/fb/by-path/platform-vfb.0 && "
	   "ln -s ../../fb0 $R/dev/fb/by-path/pci-0000:00:02.0 && "
	   "ln -s ../fb1 $R/dev/display/x && "
	   "ln -s $R/dev/fb1 $R/dev/display/abs && "
	   "ln -s ../fb1 $R/dev/display/mine && "
	   "ln -s fb1 $R/dev/myfb && "
	   "ln -s ../../fb1 $R/outside/vfb");
	if (geteuid() == 0) {
		snprintf(p, sizeof(p), "%s/fb1", dev);
		ASSERT_INT_EQ(mknod(p, S_IFCHR | 0600, makedev(29, 1)), 0);
		/* the wrong device number: neither it nor its links removed */
		ASSERT_INT_EQ(remove_fb1(dev, "fb1", makedev(29, 9)), 0);
		ASSERT_TRUE(exists("dev/fb1"));
		ASSERT_TRUE(exists("dev/fb/by-path/platform-vfb.0"));
		ASSERT_TRUE(exists("dev/display/x"));
		ASSERT_INT_EQ(remove_fb1(dev, "fb1", makedev(29, 1)), 0);
		ASSERT_TRUE(!exists("dev/fb1"));
	} else {
		printf("# not root: the character device half is not tested\n");
		/* the name free (the daemon removed the node): the links still go */
		ASSERT_INT_EQ(remove_fb1(dev, "fb1", makedev(29, 1)), 0);
	}
	ASSERT_TRUE(!exists("dev/fb/by-path/platform-vfb.0"));
	ASSERT_TRUE(!exists("dev/display/x"));
	ASSERT_TRUE(exists("dev/fb/by-path/pci-0000:00:02.0"));
	ASSERT_TRUE(exists("dev/display/abs"));
	ASSERT_TRUE(exists("dev/display/mine"));
	ASSERT_TRUE(exists("dev/myfb"));
	/* a regular file at the node's name: nothing removed */
	sh("touch $R/dev/fb1 && ln -s ../fb1 $R/dev/display/x");
	ASSERT_INT_EQ(remove_fb1(dev, "fb1", makedev(29, 1)), 0);
	ASSERT_TRUE(exists("dev/fb1"));
	ASSERT_TRUE(exists("dev/display/x"));
	ASSERT_INT_EQ(remove_fb1(dev, "x/fb1", makedev(29, 1)), -EINVAL);
	/* a planted fb/by-name symlink is refused (an error), not followed;
	 * the other links still go */
	sh("rm $R/dev/fb1 && ln -s ../outside $R/dev/fb/by-name && "
	   "ln -s ../../fb1 $R/dev/fb/by-path/platform-vfb.0");
	ASSERT_INT_EQ(remove_fb1(dev, "fb1", makedev(29, 1)), -ENOTDIR);
	ASSERT_TRUE(exists("outside/vfb"));
	ASSERT_TRUE(!exists("dev/fb/by-path/platform-vfb.0"));
	ASSERT_TRUE(!exists("dev/display/x"));
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
	test_remove_node();
	test_wait_gone();
	return test_finish("test-unload");
}
