/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The sysfs seam's direct reader (src/sysfs.h), in every build: what a
 * node plan needs and nothing more.  One fd on /sys, and every path below
 * it read relative to that fd.  A scan reads each ancestor once, however
 * many devices sit below it, and has one device open at a time, so that
 * opening one allocates nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "macro.h"
#include "strutil.h"
#include "sysfs-file.h"
#include "sysfs-reader.h"

/* A directory above a device: whether it is a device, and its links. */
struct ancestor {
	char *rel; /* below /sys: "devices/pci0000:00/0000:00:02.0" */
	uint32_t hash; /* of rel: most lookups compare only this */
	bool device; /* it has a uevent file */
	char *subsystem, *driver; /* the links' last components; NULL: none */
};

struct direct_dev {
	struct fb_sysfs_dev base;
	char syspath[PATH_MAX + 5]; /* "/sys/" and rel */
	const char *rel;
	bool open;
};

struct direct {
	struct fb_sysfs base;
	char subsystem[32];
	int sysfd;
	struct ancestor *known;
	size_t n_known, cap_known;
	/* known by hash: open addressing, a power of two at least twice
	 * n_known; each slot 1 + an index into known, 0 for empty */
	uint32_t *index;
	size_t index_size;
	struct direct_dev dev;
};

static const struct fb_sysfs_ops direct_ops;

static struct direct *to_direct(struct fb_sysfs *s)
{
	return fb_sysfs_container_of(s, struct direct, base);
}

static struct direct *owner_of(struct fb_sysfs_dev *d)
{
	return fb_sysfs_container_of(d, struct direct, dev.base);
}

static const char *last_component(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Cut the last component: "a/b/c" is "a/b", "a" is "". */
static void cut_last(char *path)
{
	char *slash = strrchr(path, '/');

	if (slash)
		*slash = '\0';
	else
		*path = '\0';
}

/* "a/b" into buf.  -ENAMETOOLONG when it does not fit. */
static int join(char *buf, size_t size, const char *a, const char *b)
{
	return str_concat(buf, size, a, *a && *b ? "/" : "", b, (const char *)NULL) >=
			       size
		       ? -ENAMETOOLONG
		       : 0;
}

/*
 * Where a link in directory dir (below /sys) with this target leads,
 * below /sys, with "." and ".." applied to the text: sysfs's links are
 * relative and lead to canonical paths.  -EINVAL when it leads out of
 * /sys (or to /sys itself), -ENAMETOOLONG.
 */
static int resolve(const char *dir, const char *target, char *out, size_t size)
{
	const char *parts[2] = { dir, target };
	size_t n = 0;

	if (*target == '/') {
		if (strncmp(target, "/sys/", 5) != 0)
			return -EINVAL;
		parts[0] = "";
		parts[1] = target + 5;
	}
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		for (const char *p = parts[i]; *p;) {
			size_t len = strcspn(p, "/");

			if (len == 2 && p[0] == '.' && p[1] == '.') {
				char *slash;

				if (n == 0)
					return -EINVAL;
				out[n] = '\0';
				slash = strrchr(out, '/');
				n = slash ? (size_t)(slash - out) : 0;
			} else if (len > 1 || (len == 1 && p[0] != '.')) {
				if (n + 1 + len >= size)
					return -ENAMETOOLONG;
				if (n)
					out[n++] = '/';
				memcpy(out + n, p, len);
				n += len;
			}
			p += len;
			if (*p == '/')
				p++;
		}
	}
	out[n] = '\0';
	return n ? 0 : -EINVAL;
}

/* readlinkat(2), NUL-terminated: the length, or -errno (-EINVAL: no
 * symlink); a target that fills buf is -ENAMETOOLONG, never cut. */
static int link_at(int dirfd, const char *path, char *buf, size_t size)
{
	ssize_t n = readlinkat(dirfd, path, buf, size - 1);

	if (n < 0)
		return -errno;
	if ((size_t)n >= size - 1)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return (int)n;
}

/* The last component of link rel/name's target: *out malloc'd, NULL when
 * there is no such link.  0 or -ENOMEM. */
static int link_name(int sysfd, const char *rel, const char *name, char **out)
{
	char path[PATH_MAX], target[PATH_MAX];

	*out = NULL;
	if (join(path, sizeof(path), rel, name) < 0 ||
	    link_at(sysfd, path, target, sizeof(target)) < 0)
		return 0;
	*out = strdup(last_component(target));
	return *out ? 0 : -ENOMEM;
}

int fb_sysfs_direct_new(struct fb_sysfs **out, const char *subsystem)
{
	struct direct *s;

	if (strlen(subsystem) >= sizeof(s->subsystem))
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->sysfd = open("/sys", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->sysfd < 0) {
		int r = -errno;

		free(s);
		return r;
	}
	s->base.ops = &direct_ops;
	s->dev.base.ops = &direct_ops;
	strcpy(s->subsystem, subsystem);
	*out = &s->base;
	return 0;
}

static void direct_free(struct fb_sysfs *base)
{
	struct direct *s = to_direct(base);

	for (size_t i = 0; i < s->n_known; i++) {
		free(s->known[i].rel);
		free(s->known[i].subsystem);
		free(s->known[i].driver);
	}
	free(s->known);
	free(s->index);
	close(s->sysfd);
	free(s);
}

/* The syspath of one entry of the class directory: where its link leads,
 * or the entry itself when it is a directory (the class layout of 2004).
 * *path is NULL for what is neither.  0 or -ENOMEM. */
static int entry_syspath(int classfd, const char *classdir, const struct dirent64 *de,
			 char **path)
{
	char target[PATH_MAX], rel[PATH_MAX];
	unsigned char type = de->d_type;

	*path = NULL;
	if (type == DT_UNKNOWN) {
		struct stat st;

		if (fstatat(classfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return 0;
		type = S_ISLNK(st.st_mode)   ? DT_LNK
		       : S_ISDIR(st.st_mode) ? DT_DIR
					     : DT_REG;
	}
	if (type == DT_LNK) {
		if (link_at(classfd, de->d_name, target, sizeof(target)) < 0 ||
		    resolve(classdir, target, rel, sizeof(rel)) < 0)
			return 0; /* gone, or leading nowhere: no device */
	} else if (type == DT_DIR) {
		if (join(rel, sizeof(rel), classdir, de->d_name) < 0)
			return 0;
	} else {
		return 0;
	}
	*path = str_concat_dup("/sys/", rel, (const char *)NULL);
	return *path ? 0 : -ENOMEM;
}

static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int direct_class_list(struct fb_sysfs *base, char ***syspaths, size_t *n)
{
	struct direct *s = to_direct(base);
	_cleanup_close_ int fd = -1;
	char classdir[64], buf[8192] __attribute__((aligned(8)));
	size_t cap = 0;
	int r = 0;

	*syspaths = NULL;
	*n = 0;
	snprintf(classdir, sizeof(classdir), "class/%s", s->subsystem);
	fd = openat(s->sysfd, classdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno; /* no such class: no entries */
	for (;;) {
		ssize_t len = getdents64(fd, buf, sizeof(buf));

		if (len <= 0) {
			r = len < 0 ? -errno : 0;
			break;
		}
		for (ssize_t off = 0; r == 0 && off < len;) {
			const struct dirent64 *de = (const void *)(buf + off);
			char *path;

			off += de->d_reclen;
			if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
				continue;
			r = entry_syspath(fd, classdir, de, &path);
			if (r == 0 && path)
				r = strv_push(syspaths, n, &cap, path);
		}
		if (r < 0)
			break;
	}
	if (r < 0) {
		strv_free(*syspaths, *n);
		*syspaths = NULL;
		*n = 0;
	} else if (*n) {
		/* in the order libudev lists them, so warnings come alike */
		qsort(*syspaths, *n, sizeof(**syspaths), path_cmp);
	}
	return r;
}

/* Is rel a device of the class?  Its subsystem link says so; a class
 * directory of 2004 ("class/graphics/fb0") may have none. */
static bool of_class(struct direct *s, const char *rel)
{
	_cleanup_free_ char *subsystem = NULL;
	char classdir[64];
	struct stat st;
	size_t len;

	if (link_name(s->sysfd, rel, "subsystem", &subsystem) < 0)
		return false;
	if (subsystem)
		return strcmp(subsystem, s->subsystem) == 0;
	len = (size_t)snprintf(classdir, sizeof(classdir), "class/%s/", s->subsystem);
	return strncmp(rel, classdir, len) == 0 && !strchr(rel + len, '/') &&
	       fstatat(s->sysfd, rel, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISDIR(st.st_mode);
}

static int direct_dev_open(struct fb_sysfs *base, const char *syspath,
			   struct fb_sysfs_dev **out)
{
	struct direct *s = to_direct(base);
	struct direct_dev *d = &s->dev;
	char rel[PATH_MAX], target[PATH_MAX], dir[PATH_MAX];
	int r;

	if (d->open)
		return -EBUSY;
	if (strncmp(syspath, "/sys/", 5) != 0)
		return -ENODEV;
	r = resolve("", syspath + 5, rel, sizeof(rel));
	if (r < 0)
		return r == -ENAMETOOLONG
			       ? log_errno(r, "%s: cannot address it: %m", syspath)
			       : -ENODEV;
	/* A device's own directory is no link; "class/graphics/fb0" is. */
	if (strncmp(rel, "devices/", 8) != 0 &&
	    link_at(s->sysfd, rel, target, sizeof(target)) >= 0) {
		str_copy(dir, sizeof(dir), rel);
		cut_last(dir);
		if (resolve(dir, target, rel, sizeof(rel)) < 0)
			return -ENODEV;
	}
	if (!of_class(s, rel))
		return -ENODEV;
	str_concat(d->syspath, sizeof(d->syspath), "/sys/", rel, (const char *)NULL);
	d->rel = d->syspath + 5;
	d->base.syspath = d->syspath;
	d->base.sysname = last_component(d->syspath);
	d->open = true;
	*out = &d->base;
	return 0;
}

static void direct_dev_close(struct fb_sysfs_dev *base)
{
	owner_of(base)->dev.open = false;
}

static int direct_dev_read(struct fb_sysfs_dev *base, const char *name, char *buf,
			   size_t size)
{
	struct direct *s = owner_of(base);
	char path[PATH_MAX];

	if (join(path, sizeof(path), s->dev.rel, name) < 0)
		return -ENAMETOOLONG;
	return sysfs_file_read_at(s->sysfd, path, buf, size);
}

/* As the libraries hand it out: all of it, up to the first NUL; NULL with
 * errno 0 when absent or unreadable, ENOMEM.  Read on the stack and copied
 * at its size: a 4 KiB block malloc'd and freed for each device's "name"
 * left the heap a page longer every few devices (the small copies took
 * its room), and each new page is a fault of its own. */
static char *direct_dev_attr(struct fb_sysfs_dev *base, const char *name)
{
	struct direct *s = owner_of(base);
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *big = NULL;
	char path[PATH_MAX], small[4096];
	char *buf = small, *v;
	size_t size = sizeof(small) - 1, n = 0;

	if (join(path, sizeof(path), s->dev.rel, name) < 0)
		goto absent;
	fd = openat(s->sysfd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		goto absent;
	for (;;) {
		ssize_t r = read(fd, buf + n, size - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto absent;
		n += (size_t)r;
		if (n < size) /* a short read is the end */
			break;
		v = realloc(big, 2 * size + 1);
		if (!v)
			goto nomem;
		if (!big)
			memcpy(v, small, n);
		buf = big = v;
		size *= 2;
	}
	buf[n] = '\0';
	if (big)
		return TAKE_PTR(big);
	v = malloc(n + 1);
	if (!v)
		goto nomem;
	return memcpy(v, small, n + 1);
nomem:
	errno = ENOMEM;
	return NULL;
absent:
	errno = 0;
	return NULL;
}

static int direct_dev_attr_names(_unused_ struct fb_sysfs_dev *d, char ***names, size_t *n)
{
	/* A plan names what it reads; list and info use the library. */
	*names = NULL;
	*n = 0;
	return -EOPNOTSUPP;
}

static void index_put(uint32_t *index, size_t size, uint32_t hash, size_t i)
{
	size_t j = hash & (size - 1);

	while (index[j])
		j = (j + 1) & (size - 1);
	index[j] = (uint32_t)i + 1;
}

/* Put known[i] in the index, growing it first when it would be over
 * half full.  0 or -ENOMEM. */
static int index_add(struct direct *s, size_t i)
{
	if (2 * (i + 1) > s->index_size) {
		size_t size = s->index_size ? 2 * s->index_size : 64;
		uint32_t *v = calloc(size, sizeof(*v));

		if (!v)
			return -ENOMEM;
		for (size_t k = 0; k < i; k++)
			index_put(v, size, s->known[k].hash, k);
		free(s->index);
		s->index = v;
		s->index_size = size;
	}
	index_put(s->index, s->index_size, s->known[i].hash, i);
	return 0;
}

/* The ancestor at rel, read once per scan.  NULL on ENOMEM.  32 fbs have
 * about 100 ancestors, each looked up twice per fb: a pass over all of
 * them for each was 6% of coldplug's instructions (callgrind). */
static const struct ancestor *ancestor_get(struct direct *s, const char *rel)
{
	uint32_t hash = str_hash(rel);
	char path[PATH_MAX];
	struct ancestor *a;

	for (size_t j = hash & (s->index_size - 1); s->index_size && s->index[j];
	     j = (j + 1) & (s->index_size - 1)) {
		a = &s->known[s->index[j] - 1];
		if (a->hash == hash && strcmp(a->rel, rel) == 0)
			return a;
	}
	if (s->n_known == s->cap_known) {
		size_t cap = s->cap_known ? 2 * s->cap_known : 16;
		struct ancestor *v = realloc(s->known, cap * sizeof(*v));

		if (!v)
			return NULL;
		s->known = v;
		s->cap_known = cap;
	}
	a = &s->known[s->n_known];
	memset(a, 0, sizeof(*a));
	a->rel = strdup(rel);
	if (!a->rel)
		return NULL;
	a->hash = hash;
	a->device = join(path, sizeof(path), rel, "uevent") == 0 &&
		    faccessat(s->sysfd, path, F_OK, 0) == 0;
	if ((a->device && (link_name(s->sysfd, rel, "subsystem", &a->subsystem) < 0 ||
			   link_name(s->sysfd, rel, "driver", &a->driver) < 0)) ||
	    index_add(s, s->n_known) < 0) {
		free(a->rel);
		free(a->subsystem);
		free(a->driver);
		return NULL;
	}
	s->n_known++;
	return a;
}

/* Where the parents start: the directory above a device's own, or, for a
 * class directory of 2004, where its "device" link leads ("" for none). */
static void first_ancestor(struct direct *s, char *rel, size_t size)
{
	char path[PATH_MAX], target[PATH_MAX];

	str_copy(rel, size, s->dev.rel);
	if (strncmp(rel, "devices/", 8) == 0) {
		cut_last(rel);
		return;
	}
	if (join(path, sizeof(path), s->dev.rel, "device") < 0 ||
	    link_at(s->sysfd, path, target, sizeof(target)) < 0 ||
	    resolve(s->dev.rel, target, rel, size) < 0)
		*rel = '\0';
}

static int parent_copy(const struct ancestor *a, struct fb_parent *p)
{
	memset(p, 0, sizeof(*p));
	p->syspath = str_concat_dup("/sys/", a->rel, (const char *)NULL);
	if (!p->syspath)
		return -ENOMEM;
	p->sysname = strdup(last_component(a->rel));
	p->subsystem = strdup_or_null(a->subsystem);
	p->driver = strdup_or_null(a->driver);
	if (!p->sysname || (a->subsystem && !p->subsystem) || (a->driver && !p->driver))
		return -ENOMEM;
	return 0;
}

static int direct_dev_parents(struct fb_sysfs_dev *base, struct fb_parent **parents,
			      size_t *n)
{
	struct direct *s = owner_of(base);
	char rel[PATH_MAX];
	size_t max = 1;

	first_ancestor(s, rel, sizeof(rel));
	if (!*rel)
		return 0;
	/* At most one parent a component: one walk up, into an array that
	 * large (a walk to count them first was 2% of coldplug's
	 * instructions). */
	for (const char *p = rel; *p; p++)
		max += *p == '/';
	*parents = calloc(max, sizeof(**parents));
	if (!*parents)
		return -ENOMEM;
	for (; *rel; cut_last(rel)) {
		const struct ancestor *a = ancestor_get(s, rel);

		if (!a)
			return -ENOMEM;
		if (!a->device)
			continue;
		/* Counted even when a copy fails: the caller frees it. */
		if (parent_copy(a, &(*parents)[(*n)++]) < 0)
			return -ENOMEM;
	}
	if (!*n) {
		free(*parents);
		*parents = NULL;
	}
	return 0;
}

static const struct fb_sysfs_ops direct_ops = {
	.free = direct_free,
	.class_list = direct_class_list,
	.dev_open = direct_dev_open,
	.dev_close = direct_dev_close,
	.dev_attr = direct_dev_attr,
	.dev_read = direct_dev_read,
	.dev_attr_names = direct_dev_attr_names,
	.dev_parents = direct_dev_parents,
};
