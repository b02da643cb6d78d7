/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Safe unload: the decision, the unbind, and the wait. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "macro.h"
#include "nodes.h"
#include "unload.h"

enum fb_unload_method fb_unload_decide(const struct fb_unload_facts *f, const char **why)
{
	const char *dummy;

	if (!why)
		why = &dummy;
	if (!f->has_parent) {
		*why = "it has no parent device";
		return FB_UNLOAD_NONE;
	}
	if (!f->has_driver) {
		*why = "its parent device has no driver bound";
		return FB_UNLOAD_NONE;
	}
	if (!f->has_module) {
		*why = "the driver is built in";
		return FB_UNLOAD_UNBIND;
	}
	if (f->holders_present) {
		*why = "processes hold the device (--force): its module must stay loaded";
		return FB_UNLOAD_UNBIND;
	}
	if (f->refcnt < 0) {
		*why = "the module's refcount is unknown";
		return FB_UNLOAD_UNBIND;
	}
	if (f->refcnt > 0) {
		*why = "the module is in use (refcount above 0)";
		return FB_UNLOAD_UNBIND;
	}
	if (f->bound_devices != 1) {
		*why = "the driver runs other devices too";
		return FB_UNLOAD_UNBIND;
	}
	if (!f->on_platform_bus) {
		*why = "a device on a hardware bus is unbound, not its module removed";
		return FB_UNLOAD_UNBIND;
	}
	*why = "the module's refcount is 0 and it drives this device alone";
	return FB_UNLOAD_REMOVE_MODULE;
}

unsigned fb_unload_count_bound(const char *parent_syspath)
{
	char path[4096];
	struct dirent *de;
	unsigned n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/driver", parent_syspath);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (de->d_type == DT_LNK && strcmp(de->d_name, "module") != 0)
			n++;
	closedir(d);
	return n;
}

int fb_unload_unbind(const char *parent_syspath, const char *sysname)
{
	char path[4096];
	_cleanup_close_ int fd = -1;
	size_t len = strlen(sysname);
	ssize_t n;

	snprintf(path, sizeof(path), "%s/driver/unbind", parent_syspath);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, sysname, len);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

int fb_wait_gone(const char *path, unsigned timeout_ms)
{
	struct timespec step = { .tv_sec = 0, .tv_nsec = 20 * 1000 * 1000 };
	unsigned waited = 0;
	struct stat st;

	for (;;) {
		if (lstat(path, &st) < 0 && errno == ENOENT)
			return 0;
		if (waited >= timeout_ms)
			return -ETIMEDOUT;
		nanosleep(&step, NULL);
		waited += 20;
	}
}

static int open_dir(const char *devdir)
{
	int fd = open(devdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int fb_unload_node_aside(const char *devdir, const char *name, dev_t devnum, char *aside,
			 size_t len)
{
	_cleanup_close_ int dfd = open_dir(devdir);
	struct stat st;

	aside[0] = '\0';
	if (dfd < 0)
		return dfd;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISCHR(st.st_mode) || st.st_rdev != devnum)
		return 0; /* not ours to move: the node manager leaves it too */
	if ((size_t)snprintf(aside, len, NODE_TMP_PREFIX "%d-%s", (int)getpid(), name) >=
	    len) {
		aside[0] = '\0';
		return -ENAMETOOLONG;
	}
	if (renameat(dfd, name, dfd, aside) < 0) {
		aside[0] = '\0';
		return -errno;
	}
	return 0;
}

int fb_unload_node_back(const char *devdir, const char *name, const char *aside)
{
	_cleanup_close_ int dfd = -1;

	if (!*aside)
		return 0;
	dfd = open_dir(devdir);
	if (dfd < 0)
		return dfd;
	/* RENAME_NOREPLACE: a node made meanwhile (a coldplug) is kept */
	if (renameat2(dfd, aside, dfd, name, RENAME_NOREPLACE) < 0) {
		if (errno != EEXIST)
			return -errno; /* left aside: a coldplug puts a node back */
		unlinkat(dfd, aside, 0);
	}
	return 0;
}

int fb_unload_node_drop(const char *devdir, const char *aside)
{
	_cleanup_close_ int dfd = -1;

	if (!*aside)
		return 0;
	dfd = open_dir(devdir);
	if (dfd < 0)
		return dfd;
	return unlinkat(dfd, aside, 0) < 0 && errno != ENOENT ? -errno : 0;
}
