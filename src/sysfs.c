/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The sysfs seam (src/sysfs.h): each call to the reader of its handle, and
 * the parents with their modules. */
#include <stdio.h>
#include <stdlib.h>

#include "strutil.h"
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

int fb_sysfs_parents_copy(struct fb_sysfs_dev *sd, struct fb_parent **parents, size_t *n)
{
	char *link;
	int r;

	r = fb_sysfs_dev_parents(sd, parents, n);
	if (r < 0)
		return r;
	/* The module link is read alike for both backends. */
	for (size_t i = 0; i < *n; i++) {
		struct fb_parent *p = &(*parents)[i];

		if (!p->driver || asprintf(&link, "%s/driver/module", p->syspath) < 0)
			continue;
		p->module = readlink_basename(link);
		free(link);
	}
	return 0;
}

void fb_sysfs_parents_free(struct fb_parent *parents, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct fb_parent *p = &parents[i];

		free(p->syspath);
		free(p->sysname);
		free(p->subsystem);
		free(p->driver);
		free(p->module);
		free(p->modalias);
	}
	free(parents);
}
