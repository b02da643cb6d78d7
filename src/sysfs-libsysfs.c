/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The sysfs seam (src/sysfs.h) through libsysfs (sysfsutils), for
 * systems without libudev: ./configure --with-libsysfs.
 *
 * libsysfs copies every path into a fixed SYSFS_PATH_MAX (256) byte
 * buffer and silently cuts what does not fit, which would make it read
 * another file than the one asked for.  So every path is measured here
 * before libsysfs sees it, and one that would not fit is refused with an
 * error naming it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sysfs/libsysfs.h>

#include "log.h"
#include "macro.h"
#include "strutil.h"
#include "sysfs-file.h"
#include "sysfs-reader.h"

const char fb_sysfs_backend_name[] = "libsysfs";

struct libsysfs_sysfs {
	struct fb_sysfs base;
	struct sysfs_class *cls;
	char subsystem[32];
};

struct libsysfs_dev {
	struct fb_sysfs_dev base;
	struct sysfs_class_device *cdev;
	char *syspath;
};

/* The file by its path: the strict parsers see what the kernel wrote. */
static int libsysfs_dev_read(struct fb_sysfs_dev *d, const char *name, char *buf,
			     size_t size)
{
	return sysfs_file_read_attr(d->syspath, name, buf, size);
}

static const struct fb_sysfs_ops libsysfs_ops;

static struct libsysfs_sysfs *to_lib(struct fb_sysfs *s)
{
	return fb_sysfs_container_of(s, struct libsysfs_sysfs, base);
}

static struct libsysfs_dev *to_dev(struct fb_sysfs_dev *d)
{
	return fb_sysfs_container_of(d, struct libsysfs_dev, base);
}

/* 0 when path + "/" + name fits libsysfs's buffers, else -ENAMETOOLONG
 * (reported, naming the path). */
static int path_fits(const char *path, const char *name)
{
	size_t len = strlen(path) + (name ? 1 + strlen(name) : 0);

	if (len < SYSFS_PATH_MAX && (!name || strlen(name) < SYSFS_NAME_LEN))
		return 0;
	ERR("%s%s%s: path of %zu bytes does not fit libsysfs's %d-byte buffers; skipped",
	    path, name ? "/" : "", name ? name : "", len, SYSFS_PATH_MAX);
	return -ENAMETOOLONG;
}

/* libsysfs also copies the component after a "class" in a path into a
 * SYSFS_NAME_LEN (64) byte buffer without measuring it (glibc's fortify
 * aborts the process there): every component must fit that too. */
static int components_fit(const char *path)
{
	for (const char *p = path; *p;) {
		size_t len = strcspn(p, "/");

		if (len >= SYSFS_NAME_LEN) {
			ERR("%s: a path component of %zu bytes does not fit libsysfs's %d-byte names; skipped",
			    path, len, SYSFS_NAME_LEN);
			return -ENAMETOOLONG;
		}
		p += len;
		if (*p == '/')
			p++;
	}
	return 0;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* Does path/name exist (not followed)? */
static bool entry_exists(const char *path, const char *name)
{
	_cleanup_free_ char *p = NULL;
	struct stat st;

	return asprintf(&p, "%s/%s", path, name) >= 0 && lstat(p, &st) == 0;
}

int fb_sysfs_library_new(struct fb_sysfs **out, const char *subsystem)
{
	struct libsysfs_sysfs *s;

	if (strlen(subsystem) >= sizeof(s->subsystem))
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->base.ops = &libsysfs_ops;
	strcpy(s->subsystem, subsystem);
	*out = &s->base;
	return 0;
}

static void libsysfs_free(struct fb_sysfs *base)
{
	struct libsysfs_sysfs *s = to_lib(base);

	if (s->cls)
		sysfs_close_class(s->cls);
	free(s);
}

/* The canonical path of class entry name when it fits libsysfs, else NULL
 * (reported when too long). */
static char *class_entry_path(const char *classpath, const char *name)
{
	_cleanup_free_ char *link = NULL;
	char *canon;

	if (asprintf(&link, "%s/%s", classpath, name) < 0)
		return NULL;
	canon = realpath(link, NULL);
	if (!canon)
		return NULL;
	if (path_fits(canon, NULL) < 0 || components_fit(canon) < 0) {
		free(canon);
		return NULL;
	}
	return canon;
}

static int libsysfs_class_list(struct fb_sysfs *base, char ***syspaths, size_t *n)
{
	struct libsysfs_sysfs *s = to_lib(base);
	struct sysfs_class_device *cdev;
	struct dlist *devs;
	size_t cap = 0;
	int r = 0;

	*syspaths = NULL;
	*n = 0;
	errno = 0;
	s->cls = sysfs_open_class(s->subsystem);
	if (!s->cls) {
		char mnt[SYSFS_PATH_MAX];

		if (sysfs_get_mnt_path(mnt, sizeof(mnt)) != 0) {
			ERR("libsysfs: no sysfs mount found in /proc/mounts");
			return -ENODEV;
		}
		return 0; /* no such class: no entries */
	}
	devs = sysfs_get_class_devices(s->cls);
	if (!devs)
		return 0;
	dlist_for_each_data(devs, cdev, struct sysfs_class_device)
	{
		/* libsysfs resolved the class link into a 256-byte buffer: take
		 * the entry only when our own resolution, measured first,
		 * agrees. */
		char *canon = class_entry_path(s->cls->path, cdev->name);

		if (!canon)
			continue;
		if (strcmp(canon, cdev->path) != 0) {
			WRN("%s/%s: libsysfs resolved it to %s, not %s; skipped",
			    s->cls->path, cdev->name, cdev->path, canon);
			free(canon);
			continue;
		}
		r = strv_push(syspaths, n, &cap, canon);
		if (r < 0)
			break;
	}
	if (r < 0) {
		strv_free(*syspaths, *n);
		*syspaths = NULL;
		*n = 0;
	}
	return r;
}

static int libsysfs_dev_open(struct fb_sysfs *base, const char *syspath,
			     struct fb_sysfs_dev **out)
{
	_cleanup_free_ char *canon = NULL, *link = NULL, *subsystem = NULL;
	struct libsysfs_sysfs *s = to_lib(base);
	struct libsysfs_dev *d;
	int r;

	r = path_fits(syspath, NULL);
	if (r < 0)
		return r;
	canon = realpath(syspath, NULL);
	if (!canon)
		return errno == ENOMEM ? -ENOMEM : -ENODEV;
	r = path_fits(canon, NULL);
	if (r == 0)
		r = components_fit(canon);
	if (r < 0)
		return r;
	if (asprintf(&link, "%s/subsystem", canon) < 0)
		return -ENOMEM;
	subsystem = readlink_basename(link);
	if (!streq_ptr(subsystem, s->subsystem))
		return -ENODEV;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->cdev = sysfs_open_class_device_path(canon);
	if (!d->cdev) {
		free(d);
		return errno == ENOMEM ? -ENOMEM : -ENODEV;
	}
	d->base.ops = &libsysfs_ops;
	d->syspath = TAKE_PTR(canon);
	d->base.syspath = d->syspath;
	d->base.sysname = base_name(d->syspath);
	*out = &d->base;
	return 0;
}

static void libsysfs_dev_close(struct fb_sysfs_dev *base)
{
	struct libsysfs_dev *d = to_dev(base);

	sysfs_close_class_device(d->cdev);
	free(d->syspath);
	free(d);
}

static char *libsysfs_dev_attr(struct fb_sysfs_dev *base, const char *name)
{
	struct libsysfs_dev *d = to_dev(base);
	struct sysfs_attribute *a;

	if (path_fits(d->syspath, name) < 0) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	a = sysfs_get_classdev_attr(d->cdev, name);
	errno = 0;
	if (!a || !a->value) /* absent, or write-only */
		return NULL;
	return strdup(a->value);
}

static int libsysfs_dev_attr_names(struct fb_sysfs_dev *base, char ***names, size_t *n)
{
	struct libsysfs_dev *d = to_dev(base);
	struct dirent *de;
	size_t cap = 0;
	int r = 0;
	DIR *dir;

	*names = NULL;
	*n = 0;
	dir = opendir(d->syspath);
	if (!dir)
		return errno == ENOMEM ? -ENOMEM : 0; /* gone: no attributes */
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.' &&
		    (!de->d_name[1] || strcmp(de->d_name, "..") == 0))
			continue;
		if (de->d_type != DT_REG && de->d_type != DT_UNKNOWN)
			continue;
		if (de->d_type == DT_UNKNOWN) {
			struct stat st;

			if (fstatat(dirfd(dir), de->d_name, &st, AT_SYMLINK_NOFOLLOW) <
				    0 ||
			    !S_ISREG(st.st_mode))
				continue;
		}
		r = strv_push(names, n, &cap, strdup(de->d_name));
		if (r < 0)
			break;
	}
	closedir(dir);
	if (r < 0) {
		strv_free(*names, *n);
		*names = NULL;
		*n = 0;
	}
	return r;
}

/* A device attribute's value, without trailing newlines; NULL if none. */
static char *device_attr(struct sysfs_device *p, const char *name)
{
	struct sysfs_attribute *a;

	if (path_fits(p->path, name) < 0)
		return NULL;
	a = sysfs_get_device_attr(p, name);
	return a && a->value ? fb_strip_newlines_dup(a->value) : NULL;
}

/* libsysfs says "unknown" both for no link and for a link named so. */
static char *link_name(struct sysfs_device *p, const char *field, const char *link)
{
	if (strcmp(field, SYSFS_UNKNOWN) == 0 && !entry_exists(p->path, link))
		return NULL;
	return strdup(field);
}

static int copy_parent(struct sysfs_device *p, struct fb_parent *fp)
{
	_cleanup_free_ char *uevent = device_attr(p, "uevent");

	fp->syspath = strdup(p->path);
	fp->sysname = strdup(base_name(p->path));
	fp->subsystem = link_name(p, p->subsystem, "subsystem");
	fp->driver = link_name(p, p->driver_name, "driver");
	/* As libudev: MODALIAS from uevent, else the modalias attribute. */
	fp->modalias = uevent ? sysfs_file_uevent_value(uevent, "MODALIAS") : NULL;
	if (!fp->modalias)
		fp->modalias = device_attr(p, "modalias");
	fp->module = NULL;
	return fp->syspath && fp->sysname ? 0 : -ENOMEM;
}

static int libsysfs_dev_parents(struct fb_sysfs_dev *base, struct fb_parent **parents,
				size_t *n)
{
	struct libsysfs_dev *d = to_dev(base);
	struct sysfs_device *first, *p;
	size_t count = 0;
	int r;

	if (path_fits(d->syspath, "device") < 0)
		return 0;
	first = sysfs_get_classdev_device(d->cdev);
	/* As libudev: only ancestors that are devices, with a uevent file. */
	for (p = first; p; p = sysfs_get_device_parent(p))
		if (entry_exists(p->path, "uevent"))
			count++;
	if (!count)
		return 0;
	*parents = calloc(count, sizeof(**parents));
	if (!*parents)
		return -ENOMEM;
	for (p = first; p && *n < count; p = sysfs_get_device_parent(p)) {
		if (!entry_exists(p->path, "uevent"))
			continue;
		r = copy_parent(p, &(*parents)[(*n)++]);
		if (r < 0)
			return r;
	}
	return 0;
}

static const struct fb_sysfs_ops libsysfs_ops = {
	.free = libsysfs_free,
	.class_list = libsysfs_class_list,
	.dev_open = libsysfs_dev_open,
	.dev_close = libsysfs_dev_close,
	.dev_attr = libsysfs_dev_attr,
	.dev_read = libsysfs_dev_read,
	.dev_attr_names = libsysfs_dev_attr_names,
	.dev_parents = libsysfs_dev_parents,
};

int fb_sysfs_for_each_unbound(const char *const *subsystems, size_t n,
			      fb_sysfs_unbound_fn fn, void *userdata)
{
	for (size_t i = 0; i < n; i++) {
		struct sysfs_bus *bus = sysfs_open_bus(subsystems[i]);
		struct sysfs_device *dev;
		struct dlist *devs;

		if (!bus)
			continue; /* no such bus here */
		devs = sysfs_get_bus_devices(bus);
		if (devs) {
			dlist_for_each_data(devs, dev, struct sysfs_device)
			{
				_cleanup_free_ char *alias = NULL;

				if (entry_exists(dev->path, "driver"))
					continue;
				alias = device_attr(dev, "modalias");
				if (alias && *alias)
					fn(dev->path, alias, userdata);
			}
		}
		sysfs_close_bus(bus);
	}
	return 0;
}

char *fb_sysfs_unbound_modalias(const char *syspath)
{
	struct sysfs_device *dev;
	char *alias = NULL;

	if (path_fits(syspath, "modalias") < 0)
		return NULL;
	dev = sysfs_open_device_path(syspath);
	if (!dev) {
		DBG("%s: gone before its driver could be looked up", syspath);
		return NULL;
	}
	if (!entry_exists(dev->path, "driver"))
		alias = device_attr(dev, "modalias");
	sysfs_close_device(dev);
	if (alias && !*alias) {
		free(alias);
		alias = NULL;
	}
	return alias;
}
