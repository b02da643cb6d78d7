/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Scan of /sys/class/graphics into plain copies: the backend-neutral half
 * (parsers, checks, sort, find, path id).  The library that reads sysfs,
 * libudev or libsysfs, sits behind src/sysfs.h.
 *
 * Everything the rest of the program knows about a framebuffer comes from
 * here, and every string is our own copy: the library's context is gone
 * before fb_device_scan() returns ("hold nothing").
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fbclass.h"
#include "log.h"
#include "macro.h"
#include "strutil.h"
#include "sysfs-file.h"
#include "sysfs.h"

/* ---- strict parsers ---- */

/* The strict decimal of strutil.h, into an unsigned. */
static int parse_uint_prefix(const char *s, unsigned max, unsigned *out, const char **end)
{
	unsigned long long v;
	int r = parse_decimal_prefix(s, max, &v, end);

	if (r == 0)
		*out = (unsigned)v;
	return r;
}

/* An optional single '\n' and then the end of the string. */
static bool at_end(const char *p)
{
	if (*p == '\n')
		p++;
	return *p == '\0';
}

int fb_parse_devnum(const char *text, dev_t *out)
{
	unsigned maj = 0, min = 0;
	const char *p;
	int r;

	if (!text)
		return -EINVAL;
	r = parse_uint_prefix(text, FB_DEVNUM_MAJOR_MAX, &maj, &p);
	if (r < 0)
		return r;
	if (*p++ != ':')
		return -EINVAL;
	r = parse_uint_prefix(p, FB_DEVNUM_MINOR_MAX, &min, &p);
	if (r < 0)
		return r;
	if (!at_end(p))
		return -EINVAL;
	*out = makedev(maj, min);
	return 0;
}

int fb_parse_uint(const char *text, unsigned *out)
{
	const char *p;
	int r;

	if (!text)
		return -EINVAL;
	r = parse_uint_prefix(text, UINT_MAX, out, &p);
	if (r < 0)
		return r;
	return at_end(p) ? 0 : -EINVAL;
}

int fb_parse_pair(const char *text, unsigned *x, unsigned *y)
{
	const char *p;
	int r;

	if (!text)
		return -EINVAL;
	r = parse_uint_prefix(text, UINT_MAX, x, &p);
	if (r < 0)
		return r;
	if (*p++ != ',')
		return -EINVAL;
	r = parse_uint_prefix(p, UINT_MAX, y, &p);
	if (r < 0)
		return r;
	return at_end(p) ? 0 : -EINVAL;
}

/* One "K:WxHS-R" mode as fbsysfs.c's mode_string() writes it; stops at the
 * end of the line. */
static int parse_one_mode(const char *text, struct fb_sysfs_mode *m, const char **end)
{
	const char *p = text;
	int r;

	if (!*p || !strchr("UDVS", *p) || p[1] != ':')
		return -EINVAL;
	m->kind = *p;
	p += 2;
	r = parse_uint_prefix(p, UINT_MAX, &m->xres, &p);
	if (r < 0)
		return r;
	if (*p++ != 'x')
		return -EINVAL;
	r = parse_uint_prefix(p, UINT_MAX, &m->yres, &p);
	if (r < 0)
		return r;
	if (!*p || !strchr("pid", *p))
		return -EINVAL;
	m->scan = *p++;
	if (*p++ != '-')
		return -EINVAL;
	r = parse_uint_prefix(p, UINT_MAX, &m->refresh, &p);
	if (r < 0)
		return r;
	*end = p;
	return 0;
}

int fb_parse_mode(const char *text, struct fb_sysfs_mode *out)
{
	const char *p;
	int r;

	if (!text)
		return -EINVAL;
	r = parse_one_mode(text, out, &p);
	if (r < 0)
		return r;
	return at_end(p) ? 0 : -EINVAL;
}

int fb_parse_modes(const char *text, size_t *count)
{
	struct fb_sysfs_mode m;
	const char *p = text;
	size_t n = 0;
	int r;

	if (!text)
		return -EINVAL;
	while (*p) {
		r = parse_one_mode(p, &m, &p);
		if (r < 0)
			return r;
		if (*p == '\n')
			p++;
		else if (*p)
			return -EINVAL;
		n++;
	}
	*count = n;
	return 0;
}

/* ---- path id, udev's ID_PATH scheme ---- */

static int path_prepend(char **path, const char *prefix, const char *name)
{
	char *s = str_concat_dup(prefix, name, *path ? "-" : "", *path ? *path : "",
				 (const char *)NULL);

	if (!s)
		return -ENOMEM;
	free(*path);
	*path = s;
	return 0;
}

/* The ancestors past i that are of the same subsystem as chain[i]: udev's
 * skip_subsystem() names only the nearest of a run (a GPU behind a PCI
 * bridge is "pci-0000:01:00.0", not the bridge too). */
static size_t skip_same_subsystem(const struct fb_path_elem *chain, size_t n, size_t i)
{
	while (i + 1 < n && streq_ptr(chain[i + 1].subsystem, chain[i].subsystem))
		i++;
	return i;
}

char *fb_path_id_build(const struct fb_path_elem *chain, size_t n)
{
	static const struct {
		const char *subsystem, *prefix;
	} named[] = {
		{ "pci", "pci-" },
		{ "platform", "platform-" },
		{ "acpi", "acpi-" },
		{ "xen", "xen-" },
	};
	char *path = NULL;
	bool supported = false;
	int r = 0;

	for (size_t i = 0; i < n && r == 0; i++) {
		const char *subsys = chain[i].subsystem;
		const char *name = chain[i].sysname;
		const char *dot;

		if (!subsys || !name || !*name)
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(named); k++)
			if (strcmp(subsys, named[k].subsystem) == 0) {
				r = path_prepend(&path, named[k].prefix, name);
				supported = true;
				i = skip_same_subsystem(chain, n, i);
				break;
			}
		if (strcmp(subsys, "virtio") == 0) {
			/* a transport: named by what it sits on */
			i = skip_same_subsystem(chain, n, i);
		} else if (strcmp(subsys, "usb") == 0) {
			/* "1-1.2:1.0" → "usb-0:1.2:1.0"; the hub chain above the
			 * first port-named device adds nothing, as in udev.  A
			 * root hub ("usb1") names no port. */
			const char *port = strchr(name, '-');

			if (!port || !port[1])
				continue;
			r = path_prepend(&path, "usb-0:", port + 1);
			supported = true;
			i = skip_same_subsystem(chain, n, i);
		} else if (strcmp(subsys, "spi") == 0 && (dot = strrchr(name, '.')) &&
			   dot[1]) {
			/* Beyond udev, which names every panel on one SPI
			 * controller alike: "spi0.1" adds its chip select. */
			r = path_prepend(&path, "cs-", dot + 1);
		}
	}
	if (r < 0 || !supported) {
		free(path);
		errno = r < 0 ? ENOMEM : 0;
		return NULL;
	}
	return path;
}

/* ---- scan ---- */

/* Entries of the class directory that are links or directories, not
 * attributes of the framebuffer. */
static bool attr_is_link(const char *name)
{
	static const char *const links[] = { "device",	      "subsystem", "driver",
					     "firmware_node", "of_node",   "module" };

	for (size_t i = 0; i < ARRAY_SIZE(links); i++)
		if (strcmp(name, links[i]) == 0)
			return true;
	return strchr(name, '/') != NULL;
}

static int attr_cmp(const void *a, const void *b)
{
	return strcmp(((const struct fb_attr *)a)->name,
		      ((const struct fb_attr *)b)->name);
}

/* The attributes a caller of the node manager needs (FB_SCAN_NODE): the
 * rules and the by-name link use "name".  dev and uevent are read raw. */
static const char *const node_attrs[] = { "name" };

static int copy_attrs(struct fb_sysfs_dev *sd, unsigned what, struct fb_device *d)
{
	char **names = NULL;
	size_t n = 0;
	int r = 0;

	if (what & FB_SCAN_ATTRS) {
		r = fb_sysfs_dev_attr_names(sd, &names, &n);
		if (r < 0)
			return r;
	}
	if (!names)
		n = ARRAY_SIZE(node_attrs);
	d->attrs = calloc(n ? n : 1, sizeof(*d->attrs));
	if (!d->attrs) {
		r = -ENOMEM;
		goto finish;
	}
	for (size_t i = 0; i < n; i++) {
		const char *name = names ? names[i] : node_attrs[i];
		_cleanup_free_ char *value = NULL;
		struct fb_attr *a = &d->attrs[d->n_attrs];

		if (attr_is_link(name))
			continue;
		errno = 0;
		value = fb_sysfs_dev_attr(sd, name);
		if (!value) { /* write-only, or gone: nothing to show */
			if (errno == ENOMEM) {
				r = -ENOMEM;
				goto finish;
			}
			continue;
		}
		a->name = strdup(name);
		a->value = fb_strip_newlines_dup(value);
		d->n_attrs++;
		if (!a->name || !a->value) {
			r = -ENOMEM;
			goto finish;
		}
	}
	if (d->n_attrs)
		qsort(d->attrs, d->n_attrs, sizeof(*d->attrs), attr_cmp);
finish:
	strv_free(names, names ? n : 0);
	return r;
}

static int build_path_id(struct fb_device *d)
{
	struct fb_path_elem *chain;

	if (!d->n_parents)
		return 0;
	chain = calloc(d->n_parents, sizeof(*chain));
	if (!chain)
		return -ENOMEM;
	for (size_t i = 0; i < d->n_parents; i++) {
		chain[i].subsystem = d->parents[i].subsystem;
		chain[i].sysname = d->parents[i].sysname;
	}
	d->path_id = fb_path_id_build(chain, d->n_parents);
	free(chain);
	return (!d->path_id && errno == ENOMEM) ? -ENOMEM : 0;
}

/* readlink(2) into buf, NUL-terminated; "-" when path is no symlink or
 * absent.  A target that fills buf is an error: no silent truncation. */
static int readlink_or_dash(const char *path, char *buf, size_t size)
{
	ssize_t n = readlink(path, buf, size - 1);

	if (n < 0 && (errno == ENOENT || errno == EINVAL)) {
		snprintf(buf, size, "-");
		return 0;
	}
	if (n < 0)
		return -errno;
	if ((size_t)n == size - 1)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return 0;
}

int fb_device_fingerprint(const char *name, char **out)
{
	/* dev is "MAJ:MIN", name the 16-byte fix.id: a longer value would be
	 * cut, never mistaken, since both sides are read the same way. */
	char path[PATH_MAX], link[PATH_MAX], driver[PATH_MAX];
	char dev[64], uevent[4096], fbname[256];
	int r;

	*out = NULL;
	if (!*name || strchr(name, '/') || strlen(name) > NAME_MAX)
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/class/graphics/%s", name);
	r = readlink_or_dash(path, link, sizeof(link));
	if (r == 0 && strcmp(link, "-") == 0)
		r = -ENODEV;
	if (r == 0)
		r = sysfs_file_read_attr(path, "dev", dev, sizeof(dev));
	if (r >= 0)
		r = sysfs_file_read_attr(path, "uevent", uevent, sizeof(uevent));
	if (r >= 0) {
		r = sysfs_file_read_attr(path, "name", fbname, sizeof(fbname));
		if (r == -ENOENT) /* "name" may be missing; "dev" and "uevent" not */
			r = snprintf(fbname, sizeof(fbname), "-");
	}
	if (r < 0)
		return r == -ENOENT ? -ENODEV : r;
	snprintf(path, sizeof(path), "/sys/class/graphics/%s/device/driver", name);
	r = readlink_or_dash(path, driver, sizeof(driver));
	if (r < 0)
		return r;
	if (asprintf(out, "%s\n--\n%s\n--\n%s\n--\n%s\n--\n%s", link, dev, uevent, fbname,
		     driver) < 0) {
		*out = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* The value of KEY= in uevent text, copied into val; false if absent. */
static bool uevent_value(const char *uevent, const char *key, char *val, size_t size)
{
	size_t klen = strlen(key);

	for (const char *p = uevent; *p;) {
		size_t len = strcspn(p, "\n");

		if (len > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
			size_t n = len - klen - 1 < size - 1 ? len - klen - 1 : size - 1;

			memcpy(val, p + klen + 1, n);
			val[n] = '\0';
			return true;
		}
		p += len;
		if (*p == '\n')
			p++;
	}
	return false;
}

/* uevent's MAJOR/MINOR, where present, must agree with "dev". */
static int check_uevent_devnum(const char *uevent, const char *name, dev_t devnum)
{
	char maj[32] = "", min[32] = "";
	bool has_maj, has_min;
	unsigned umaj, umin;

	has_maj = uevent_value(uevent, "MAJOR", maj, sizeof(maj));
	has_min = uevent_value(uevent, "MINOR", min, sizeof(min));
	if (!has_maj && !has_min)
		return 0;
	if (!has_maj || !has_min || fb_parse_uint(maj, &umaj) < 0 ||
	    fb_parse_uint(min, &umin) < 0) {
		_cleanup_free_ char *emaj = str_escape(maj, 31);
		_cleanup_free_ char *emin = str_escape(min, 31);

		WRN("%s: malformed MAJOR/MINOR in uevent: MAJOR=\"%s\" MINOR=\"%s\"",
		    name, emaj ? emaj : "", emin ? emin : "");
		return -EINVAL;
	}
	if (umaj != major(devnum) || umin != minor(devnum)) {
		WRN("%s: uevent MAJOR:MINOR %u:%u disagrees with dev attribute %u:%u",
		    name, umaj, umin, major(devnum), minor(devnum));
		return -EINVAL;
	}
	return 0;
}

/* DEVNAME as the kernel wrote it: relative to /dev, each component a plain
 * name. */
static bool devname_is_safe(const char *n)
{
	if (!*n || *n == '/')
		return false;
	for (const char *p = n; *p;) {
		size_t len = strcspn(p, "/");

		if (len == 0 || (len == 1 && p[0] == '.') ||
		    (len == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += len;
		if (*p == '/' && !*++p)
			return false;
	}
	return true;
}

/* Copy one class device.  -ENODEV: not a framebuffer (no "dev"), silently
 * skipped; -EINVAL: malformed, already warned; -ENOMEM. */
static int fb_device_from_sysfs(struct fb_sysfs_dev *sd, unsigned what,
				struct fb_device *d)
{
	const char *name = fb_sysfs_dev_sysname(sd);
	const char *syspath = fb_sysfs_dev_syspath(sd);
	char dev[256], uevent[4096], devname_buf[NAME_MAX + 1];
	const char *devname = NULL;
	int r;

	memset(d, 0, sizeof(*d));
	if (!name || !syspath)
		return -ENODEV;
	r = fb_sysfs_dev_read(sd, "dev", dev, sizeof(dev));
	if (r == -ENOENT)
		return -ENODEV; /* not a framebuffer: fbcon */
	if (r < 0 && r != -EINVAL) {
		DBG("%s: cannot read dev attribute: %s", name, strerror(-r));
		return -ENODEV; /* it left while we looked */
	}
	if (r < 0 || fb_parse_devnum(dev, &d->devnum) < 0) {
		/* every byte, the newlines too: "29:3\n" alone looks valid */
		_cleanup_free_ char *esc = str_escape(dev, 64);

		WRN("%s: malformed dev attribute \"%s\": not MAJOR:MINOR in decimal without leading zeros (major at most %u, minor at most %u) and one newline",
		    name, esc ? esc : "", FB_DEVNUM_MAJOR_MAX, FB_DEVNUM_MINOR_MAX);
		return -EINVAL;
	}
	r = fb_sysfs_dev_read(sd, "uevent", uevent, sizeof(uevent));
	if (r == -ENOENT) {
		uevent[0] = '\0';
	} else if (r < 0) {
		WRN("%s: cannot read uevent: %s", name, strerror(-r));
		return -EINVAL;
	}
	r = check_uevent_devnum(uevent, name, d->devnum);
	if (r < 0)
		return r;
	if (uevent_value(uevent, "DEVNAME", devname_buf, sizeof(devname_buf)))
		devname = devname_buf;

	d->name = strdup(name);
	d->syspath = strdup(syspath);
	if (devname && strncmp(devname, "/dev/", 5) == 0)
		devname += 5;
	if (devname && !devname_is_safe(devname)) {
		_cleanup_free_ char *esc = str_escape(devname, 64);

		WRN("%s: ignoring unsafe DEVNAME \"%s\" in uevent", name, esc ? esc : "");
		devname = NULL;
	}
	d->devname = strdup(devname ? devname : name);
	if (!d->name || !d->syspath || !d->devname)
		goto nomem;
	if (copy_attrs(sd, what, d) < 0)
		goto nomem;
	if (what & FB_SCAN_PLAN)
		r = fb_sysfs_dev_parents(sd, &d->parents, &d->n_parents);
	else
		r = fb_sysfs_parents_copy(sd, &d->parents, &d->n_parents);
	if (r < 0 || build_path_id(d) < 0)
		goto nomem;
	return 0;
nomem:
	fb_device_free(d);
	return -ENOMEM;
}

static enum fb_sysfs_reader scan_reader(unsigned what)
{
	return (what & FB_SCAN_PLAN) && !(what & FB_SCAN_ATTRS) ? FB_SYSFS_DIRECT
								: FB_SYSFS_LIBRARY;
}

static int fb_device_cmp(const void *a, const void *b)
{
	const struct fb_device *x = a, *y = b;

	if (major(x->devnum) != major(y->devnum))
		return major(x->devnum) < major(y->devnum) ? -1 : 1;
	if (minor(x->devnum) != minor(y->devnum))
		return minor(x->devnum) < minor(y->devnum) ? -1 : 1;
	return strcmp(x->name, y->name);
}

int fb_device_scan(struct fb_device_list *list, unsigned what)
{
	struct fb_sysfs *s = NULL;
	char **paths = NULL;
	size_t n_paths = 0, cap = 0;
	int r;

	memset(list, 0, sizeof(*list));
	r = fb_sysfs_new(&s, "graphics", scan_reader(what));
	if (r < 0)
		return r;
	r = fb_sysfs_class_list(s, &paths, &n_paths);
	if (r < 0)
		goto finish;

	for (size_t i = 0; i < n_paths; i++) {
		struct fb_sysfs_dev *sd;
		struct fb_device d;

		r = fb_sysfs_dev_open(s, paths[i], &sd);
		if (r == -ENOMEM)
			goto finish;
		if (r < 0) /* vanished between the listing and now, or unreachable */
			continue;
		r = fb_device_from_sysfs(sd, what, &d);
		fb_sysfs_dev_close(sd);
		if (r == -ENOMEM)
			goto finish;
		if (r < 0)
			continue;
		if (list->n == cap) {
			size_t ncap = cap ? cap * 2 : 8;
			struct fb_device *nd = realloc(list->devices, ncap * sizeof(*nd));

			if (!nd) {
				fb_device_free(&d);
				r = -ENOMEM;
				goto finish;
			}
			list->devices = nd;
			cap = ncap;
		}
		list->devices[list->n++] = d;
	}
	if (list->n)
		qsort(list->devices, list->n, sizeof(*list->devices), fb_device_cmp);
	r = 0;
finish:
	strv_free(paths, n_paths);
	fb_sysfs_free(s);
	if (r < 0)
		fb_device_list_free(list);
	return r;
}

int fb_device_scan_one(const char *syspath, unsigned what, struct fb_device *dev)
{
	struct fb_sysfs *s = NULL;
	struct fb_sysfs_dev *sd;
	int r;

	memset(dev, 0, sizeof(*dev));
	r = fb_sysfs_new(&s, "graphics", scan_reader(what));
	if (r < 0)
		return r;
	r = fb_sysfs_dev_open(s, syspath, &sd);
	if (r == 0) {
		r = fb_device_from_sysfs(sd, what, dev);
		fb_sysfs_dev_close(sd);
	} else if (r != -ENOMEM && r != -ENAMETOOLONG) {
		r = -ENODEV;
	}
	fb_sysfs_free(s);
	return r;
}

void fb_device_free(struct fb_device *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n_attrs; i++) {
		free(d->attrs[i].name);
		free(d->attrs[i].value);
	}
	fb_sysfs_parents_free(d->parents, d->n_parents);
	free(d->attrs);
	free(d->name);
	free(d->syspath);
	free(d->devname);
	free(d->path_id);
	memset(d, 0, sizeof(*d));
}

void fb_device_list_free(struct fb_device_list *list)
{
	for (size_t i = 0; i < list->n; i++)
		fb_device_free(&list->devices[i]);
	free(list->devices);
	list->devices = NULL;
	list->n = 0;
}

const char *fb_device_attr(const struct fb_device *d, const char *name)
{
	struct fb_attr key = { .name = (char *)name };
	const struct fb_attr *a;

	if (!d->n_attrs)
		return NULL;
	a = bsearch(&key, d->attrs, d->n_attrs, sizeof(*d->attrs), attr_cmp);
	return a ? a->value : NULL;
}

const struct fb_parent *fb_device_parent(const struct fb_device *d)
{
	return d->n_parents ? &d->parents[0] : NULL;
}

/* "fb0", "0", "/dev/fb0" (or any name or symlink resolving to a character
 * device), "/sys/class/graphics/fb0" or its /sys/devices path. */
const struct fb_device *fb_device_list_find(const struct fb_device_list *list,
					    const char *spec)
{
	const char *base = strrchr(spec, '/');
	struct stat st;
	unsigned num;

	if (fb_parse_uint(spec, &num) == 0) {
		for (size_t i = 0; i < list->n; i++) {
			unsigned n;

			if (strncmp(list->devices[i].name, "fb", 2) == 0 &&
			    fb_parse_uint(list->devices[i].name + 2, &n) == 0 && n == num)
				return &list->devices[i];
		}
		return NULL;
	}
	for (size_t i = 0; i < list->n; i++) {
		const struct fb_device *d = &list->devices[i];

		if (strcmp(spec, d->name) == 0 || strcmp(spec, d->syspath) == 0)
			return d;
		if (base && strcmp(base + 1, d->name) == 0 &&
		    strncmp(spec, "/sys/", 5) == 0)
			return d;
	}
	/* A node or a symlink to one: match by device number. */
	if (strchr(spec, '/') && stat(spec, &st) == 0 && S_ISCHR(st.st_mode)) {
		for (size_t i = 0; i < list->n; i++)
			if (list->devices[i].devnum == st.st_rdev)
				return &list->devices[i];
	}
	return NULL;
}
