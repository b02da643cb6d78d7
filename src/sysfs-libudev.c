/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The sysfs seam (src/sysfs.h) through libudev: the default.
 *
 * libudev is dlopen()ed on first use, as libkmod is (src/dlopen.h): only
 * list, info, doctor and --full-scan read sysfs through it.  Linked, it was
 * loaded into every run, coldplug and the daemon included, which read
 * through the direct reader (src/sysfs-direct.c): in the VM under TCG its
 * loading was 10 ms of the default build's 46 ms start-up, against 123 ms
 * for all of busybox mdev -s (make bench-vm, docs/benchmarks.md).
 */
#include <errno.h>
#include <libudev.h>
#include <stdlib.h>
#include <string.h>

#include "dlopen.h"
#include "log.h"
#include "macro.h"
#include "strutil.h"
#include "sysfs-file.h"
#include "sysfs-reader.h"

#define LIBUDEV_SONAME "libudev.so.1"

const char fb_sysfs_backend_name[] = "dlopen " LIBUDEV_SONAME;
FB_DLOPEN_NOTE(udev, "udev", "read sysfs for list, info, doctor and coldplug --full-scan",
	       "required", LIBUDEV_SONAME);

#define LIBUDEV_SYMBOLS(X)                    \
	X(udev_new)                           \
	X(udev_unref)                         \
	X(udev_enumerate_new)                 \
	X(udev_enumerate_unref)               \
	X(udev_enumerate_add_match_subsystem) \
	X(udev_enumerate_scan_devices)        \
	X(udev_enumerate_get_list_entry)      \
	X(udev_list_entry_get_next)           \
	X(udev_list_entry_get_name)           \
	X(udev_device_new_from_syspath)       \
	X(udev_device_unref)                  \
	X(udev_device_get_parent)             \
	X(udev_device_get_subsystem)          \
	X(udev_device_get_sysname)            \
	X(udev_device_get_syspath)            \
	X(udev_device_get_driver)             \
	X(udev_device_get_property_value)     \
	X(udev_device_get_sysattr_value)      \
	X(udev_device_get_sysattr_list_entry)

static struct {
#define LIBUDEV_FIELD(f) typeof(f) *f;
	LIBUDEV_SYMBOLS(LIBUDEV_FIELD)
#undef LIBUDEV_FIELD
} sym;

/* libudev.h's udev_list_entry_foreach, through the loaded symbols */
#define list_foreach(entry, first) \
	for (entry = first; entry; entry = sym.udev_list_entry_get_next(entry))

static int libudev_open(void)
{
#define LIBUDEV_DLSYM(f) FB_DLSYM(f, sym.f),
	static const struct fb_dlsym syms[] = { LIBUDEV_SYMBOLS(LIBUDEV_DLSYM) };
#undef LIBUDEV_DLSYM
	static int state = FB_DL_UNTRIED;

	return fb_dlopen_many(&state, LOG_ERR, NULL, LIBUDEV_SONAME, "libudev1", syms,
			      ARRAY_SIZE(syms));
}

struct udev_sysfs {
	struct fb_sysfs base;
	struct udev *udev;
	char subsystem[32];
};

struct udev_sysfs_dev {
	struct fb_sysfs_dev base;
	struct udev_device *ud;
};

/* The file by its path: the strict parsers see what the kernel wrote. */
static int udev_sysfs_dev_read(struct fb_sysfs_dev *d, const char *name, char *buf,
			       size_t size)
{
	return sysfs_file_read_attr(d->syspath, name, buf, size);
}

static const struct fb_sysfs_ops udev_sysfs_ops;

static struct udev_sysfs *to_udev(struct fb_sysfs *s)
{
	return fb_sysfs_container_of(s, struct udev_sysfs, base);
}

static struct udev_device *to_ud(struct fb_sysfs_dev *d)
{
	return fb_sysfs_container_of(d, struct udev_sysfs_dev, base)->ud;
}

int fb_sysfs_library_new(struct fb_sysfs **out, const char *subsystem)
{
	struct udev_sysfs *s;
	int r;

	if (strlen(subsystem) >= sizeof(s->subsystem))
		return -EINVAL;
	r = libudev_open();
	if (r < 0)
		return r;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->base.ops = &udev_sysfs_ops;
	strcpy(s->subsystem, subsystem);
	s->udev = sym.udev_new();
	if (!s->udev) {
		free(s);
		return -ENOMEM;
	}
	*out = &s->base;
	return 0;
}

static void udev_sysfs_free(struct fb_sysfs *base)
{
	struct udev_sysfs *s = to_udev(base);

	sym.udev_unref(s->udev);
	free(s);
}

static int udev_sysfs_class_list(struct fb_sysfs *base, char ***syspaths, size_t *n)
{
	struct udev_sysfs *s = to_udev(base);
	struct udev_enumerate *e = sym.udev_enumerate_new(s->udev);
	struct udev_list_entry *entry;
	size_t cap = 0;
	int r;

	*syspaths = NULL;
	*n = 0;
	if (!e)
		return -ENOMEM;
	r = sym.udev_enumerate_add_match_subsystem(e, s->subsystem);
	if (r >= 0)
		r = sym.udev_enumerate_scan_devices(e);
	list_foreach(entry, r < 0 ? NULL : sym.udev_enumerate_get_list_entry(e))
	{
		r = strv_push(syspaths, n, &cap,
			      strdup(sym.udev_list_entry_get_name(entry)));
		if (r < 0)
			break;
	}
	sym.udev_enumerate_unref(e);
	if (r < 0) {
		strv_free(*syspaths, *n);
		*syspaths = NULL;
		*n = 0;
		return r;
	}
	return 0;
}

static int udev_sysfs_dev_open(struct fb_sysfs *base, const char *syspath,
			       struct fb_sysfs_dev **out)
{
	struct udev_sysfs *s = to_udev(base);
	struct udev_device *ud = sym.udev_device_new_from_syspath(s->udev, syspath);
	struct udev_sysfs_dev *d;

	if (!ud)
		return errno == ENOMEM ? -ENOMEM : -ENODEV;
	if (!streq_ptr(sym.udev_device_get_subsystem(ud), s->subsystem) ||
	    !sym.udev_device_get_sysname(ud)) {
		sym.udev_device_unref(ud);
		return -ENODEV;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		sym.udev_device_unref(ud);
		return -ENOMEM;
	}
	d->base.ops = &udev_sysfs_ops;
	d->base.syspath = sym.udev_device_get_syspath(ud);
	d->base.sysname = sym.udev_device_get_sysname(ud);
	d->ud = ud;
	*out = &d->base;
	return 0;
}

static void udev_sysfs_dev_close(struct fb_sysfs_dev *base)
{
	struct udev_sysfs_dev *d =
		fb_sysfs_container_of(base, struct udev_sysfs_dev, base);

	sym.udev_device_unref(d->ud);
	free(d);
}

static char *udev_sysfs_dev_attr(struct fb_sysfs_dev *d, const char *name)
{
	const char *v = sym.udev_device_get_sysattr_value(to_ud(d), name);

	if (!v) {
		errno = 0;
		return NULL;
	}
	return strdup(v);
}

static int udev_sysfs_dev_attr_names(struct fb_sysfs_dev *d, char ***names, size_t *n)
{
	struct udev_list_entry *e;
	size_t cap = 0;
	int r;

	*names = NULL;
	*n = 0;
	list_foreach(e, sym.udev_device_get_sysattr_list_entry(to_ud(d)))
	{
		r = strv_push(names, n, &cap, strdup(sym.udev_list_entry_get_name(e)));
		if (r < 0) {
			strv_free(*names, *n);
			*names = NULL;
			*n = 0;
			return r;
		}
	}
	return 0;
}

static int copy_parent(struct udev_device *p, struct fb_parent *fp)
{
	const char *modalias = sym.udev_device_get_property_value(p, "MODALIAS");

	if (!modalias)
		modalias = sym.udev_device_get_sysattr_value(p, "modalias");
	fp->syspath = strdup(sym.udev_device_get_syspath(p));
	fp->sysname = strdup(sym.udev_device_get_sysname(p));
	fp->subsystem = strdup_or_null(sym.udev_device_get_subsystem(p));
	fp->driver = strdup_or_null(sym.udev_device_get_driver(p));
	fp->modalias = modalias ? fb_strip_newlines_dup(modalias) : NULL;
	fp->module = NULL;
	return fp->syspath && fp->sysname ? 0 : -ENOMEM;
}

static int udev_sysfs_dev_parents(struct fb_sysfs_dev *d, struct fb_parent **parents,
				  size_t *n)
{
	struct udev_device *p;
	size_t count = 0;
	int r;

	for (p = sym.udev_device_get_parent(to_ud(d)); p;
	     p = sym.udev_device_get_parent(p))
		count++;
	if (!count)
		return 0;
	*parents = calloc(count, sizeof(**parents));
	if (!*parents)
		return -ENOMEM;
	for (p = sym.udev_device_get_parent(to_ud(d)); p;
	     p = sym.udev_device_get_parent(p)) {
		/* Counted even when a copy fails: the caller frees what is there. */
		r = copy_parent(p, &(*parents)[(*n)++]);
		if (r < 0)
			return r;
	}
	return 0;
}

static const struct fb_sysfs_ops udev_sysfs_ops = {
	.free = udev_sysfs_free,
	.class_list = udev_sysfs_class_list,
	.dev_open = udev_sysfs_dev_open,
	.dev_close = udev_sysfs_dev_close,
	.dev_attr = udev_sysfs_dev_attr,
	.dev_read = udev_sysfs_dev_read,
	.dev_attr_names = udev_sysfs_dev_attr_names,
	.dev_parents = udev_sysfs_dev_parents,
};

int fb_sysfs_for_each_unbound(const char *const *subsystems, size_t n,
			      fb_sysfs_unbound_fn fn, void *userdata)
{
	struct udev *udev;
	struct udev_enumerate *en = NULL;
	struct udev_list_entry *e;
	int ret = libudev_open();

	if (ret < 0)
		return ret;
	udev = sym.udev_new();
	if (!udev) {
		ERR("cannot start libudev");
		return -ENOMEM;
	}
	en = sym.udev_enumerate_new(udev);
	if (!en) {
		ret = -ENOMEM;
		goto finish;
	}
	for (size_t i = 0; i < n; i++)
		sym.udev_enumerate_add_match_subsystem(en, subsystems[i]);
	ret = sym.udev_enumerate_scan_devices(en);
	if (ret < 0) {
		ERR("cannot enumerate the bus devices: %s", strerror(-ret));
		goto finish;
	}
	list_foreach(e, sym.udev_enumerate_get_list_entry(en))
	{
		const char *syspath = sym.udev_list_entry_get_name(e);
		struct udev_device *d = sym.udev_device_new_from_syspath(udev, syspath);
		const char *alias;

		if (!d)
			continue; /* gone since the enumeration */
		alias = sym.udev_device_get_sysattr_value(d, "modalias");
		if (alias && *alias && !sym.udev_device_get_driver(d))
			fn(syspath, alias, userdata);
		sym.udev_device_unref(d);
	}
	ret = 0;
finish:
	sym.udev_enumerate_unref(en);
	sym.udev_unref(udev);
	return ret;
}

char *fb_sysfs_unbound_modalias(const char *syspath)
{
	struct udev *udev;
	struct udev_device *d;
	const char *alias;
	char *ret = NULL;

	if (libudev_open() < 0)
		return NULL;
	udev = sym.udev_new();
	if (!udev) {
		ERR("cannot start libudev");
		return NULL;
	}
	d = sym.udev_device_new_from_syspath(udev, syspath);
	if (!d) {
		DBG("%s: gone before its driver could be looked up", syspath);
		goto finish;
	}
	alias = sym.udev_device_get_sysattr_value(d, "modalias");
	if (alias && *alias && !sym.udev_device_get_driver(d))
		ret = strdup(alias);
finish:
	sym.udev_device_unref(d);
	sym.udev_unref(udev);
	return ret;
}
