/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Safe unload: the decision, the wait, and the node removal. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "macro.h"
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

/* Lexically resolve rel against base (both relative, '/'-separated) into
 * out; false if it climbs above the root. */
static bool resolve_lexically(const char *base, const char *rel, char *out, size_t len)
{
	char buf[4096];
	char *parts[256];
	size_t n = 0;
	char *save = NULL, *tok;

	if ((size_t)snprintf(buf, sizeof(buf), "%s/%s", base, rel) >= sizeof(buf))
		return false;
	for (tok = strtok_r(buf, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (strcmp(tok, ".") == 0)
			continue;
		if (strcmp(tok, "..") == 0) {
			if (n == 0)
				return false;
			n--;
			continue;
		}
		if (n == ARRAY_SIZE(parts))
			return false;
		parts[n++] = tok;
	}
	out[0] = '\0';
	for (size_t i = 0, o = 0; i < n; i++) {
		int w = snprintf(out + o, len - o, "%s%s", i ? "/" : "", parts[i]);

		if (w < 0 || (size_t)w >= len - o)
			return false;
		o += (size_t)w;
	}
	return true;
}

bool fb_link_points_to(const char *devdir, const char *linkdir, const char *target,
		       const char *devname)
{
	char resolved[4096], want[4096];

	if (!*target)
		return false;
	if (target[0] == '/') {
		if (!resolve_lexically("", target + 1, resolved, sizeof(resolved)) ||
		    !resolve_lexically("", devdir[0] == '/' ? devdir + 1 : devdir, want,
				       sizeof(want)))
			return false;
		if (strlen(want) + 1 + strlen(devname) + 1 > sizeof(want))
			return false;
		strcat(want, want[0] ? "/" : "");
		strcat(want, devname);
		return strcmp(resolved, want) == 0;
	}
	if (!resolve_lexically(linkdir, target, resolved, sizeof(resolved)))
		return false;
	return strcmp(resolved, devname) == 0;
}

static int remove_links_in(int fbfd, const char *devdir, const char *sub,
			   const char *devname, void (*report)(const char *path))
{
	_cleanup_close_ int dfd =
		openat(fbfd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	char linkdir[512], target[4096], path[4096];
	struct dirent *de;
	int removed = 0;
	DIR *d;

	if (dfd < 0)
		return errno == ENOENT || errno == ELOOP || errno == ENOTDIR ? 0 : -errno;
	d = fdopendir(dfd);
	if (!d)
		return -errno;
	dfd = -1; /* owned by d now */
	snprintf(linkdir, sizeof(linkdir), "fb/%s", sub);
	while ((de = readdir(d))) {
		struct stat st;
		ssize_t n;

		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISLNK(st.st_mode))
			continue;
		n = readlinkat(dirfd(d), de->d_name, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = '\0';
		if (!fb_link_points_to(devdir, linkdir, target, devname))
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s", devdir, linkdir, de->d_name);
		if (unlinkat(dirfd(d), de->d_name, 0) < 0) {
			if (errno != ENOENT)
				WRN("%s: cannot remove: %m", path);
			continue;
		}
		if (report)
			report(path);
		removed++;
	}
	closedir(d);
	return removed;
}

int fb_unload_remove_node(const char *devdir, const char *devname, dev_t devnum,
			  void (*report)(const char *path))
{
	_cleanup_close_ int dfd =
		open(devdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	_cleanup_close_ int fbfd = -1;
	char path[4096];
	struct stat st;
	struct dirent *de;
	DIR *d;
	int removed = 0, r;

	if (dfd < 0)
		return -errno;
	if (strchr(devname, '/'))
		return -EINVAL; /* DEVNAME "fb1"; a nested one is not ours to remove */
	snprintf(path, sizeof(path), "%s/%s", devdir, devname);
	if (fstatat(dfd, devname, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISCHR(st.st_mode) && st.st_rdev == devnum) {
			if (unlinkat(dfd, devname, 0) == 0) {
				if (report)
					report(path);
				removed++;
			} else if (errno != ENOENT) {
				return -errno;
			}
		} else {
			/* Something else (a new device of the same name?): leave it
			 * and the links that name it. */
			WRN("%s: not removed, nor its links: it is not the character device %u:%u",
			    path, major(devnum), minor(devnum));
			return 0;
		}
	}
	fbfd = openat(dfd, "fb", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fbfd < 0)
		return errno == ENOENT || errno == ELOOP || errno == ENOTDIR ? removed
									     : -errno;
	{
		int walk = dup(fbfd);

		if (walk < 0)
			return -errno;
		d = fdopendir(walk);
		if (!d) {
			close(walk);
			return -errno;
		}
	}
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "by-", 3) != 0)
			continue;
		r = remove_links_in(fbfd, devdir, de->d_name, devname, report);
		if (r > 0)
			removed += r;
	}
	closedir(d);
	return removed;
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
