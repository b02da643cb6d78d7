/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The sysfs seam (src/sysfs.h): each call to the reader of its handle. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "macro.h"
#include "sysfs-reader.h"

int fb_sysfs_new(struct fb_sysfs **s, const char *subsystem, enum fb_sysfs_reader reader)
{
	*s = NULL;
	if (reader == FB_SYSFS_DIRECT)
		return fb_sysfs_direct_new(s, subsystem);
	return fb_sysfs_library_new(s, subsystem);
}

void fb_sysfs_free(struct fb_sysfs *s)
{
	if (s)
		s->ops->free(s);
}

int fb_sysfs_class_list(struct fb_sysfs *s, char ***syspaths, size_t *n)
{
	return s->ops->class_list(s, syspaths, n);
}

int fb_sysfs_dev_open(struct fb_sysfs *s, const char *syspath, struct fb_sysfs_dev **d)
{
	*d = NULL;
	return s->ops->dev_open(s, syspath, d);
}

void fb_sysfs_dev_close(struct fb_sysfs_dev *d)
{
	if (d)
		d->ops->dev_close(d);
}

const char *fb_sysfs_dev_syspath(const struct fb_sysfs_dev *d)
{
	return d->syspath;
}

const char *fb_sysfs_dev_sysname(const struct fb_sysfs_dev *d)
{
	return d->sysname;
}

char *fb_sysfs_dev_attr(struct fb_sysfs_dev *d, const char *name)
{
	return d->ops->dev_attr(d, name);
}

int fb_sysfs_dev_read(struct fb_sysfs_dev *d, const char *name, char *buf, size_t size)
{
	return d->ops->dev_read(d, name, buf, size);
}

int fb_sysfs_dev_attr_names(struct fb_sysfs_dev *d, char ***names, size_t *n)
{
	return d->ops->dev_attr_names(d, names, n);
}

int fb_sysfs_dev_parents(struct fb_sysfs_dev *d, struct fb_parent **parents, size_t *n)
{
	*parents = NULL;
	*n = 0;
	return d->ops->dev_parents(d, parents, n);
}

int fb_read_file_at(int dirfd, const char *path, char *buf, size_t size)
{
	_cleanup_close_ int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	size_t n = 0;

	if (fd < 0)
		return -errno;
	while (n < size - 1) {
		size_t want = size - 1 - n;
		ssize_t r = read(fd, buf + n, want);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		n += (size_t)r;
		if ((size_t)r < want) /* the end: nothing more to ask for */
			break;
	}
	buf[n] = '\0';
	return memchr(buf, '\0', n) ? -EINVAL : (int)n;
}

int fb_sysfs_read_by_path(struct fb_sysfs_dev *d, const char *name, char *buf, size_t size)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", d->syspath, name) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	return fb_read_file_at(AT_FDCWD, path, buf, size);
}
