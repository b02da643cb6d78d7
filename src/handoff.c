/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A driver handoff, told and reported: see handoff.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "display.h"
#include "handoff.h"
#include "holders.h"
#include "log.h"
#include "macro.h"

static const char *nearest_driver(const struct fb_device *dev)
{
	for (size_t i = 0; i < dev->n_parents; i++)
		if (dev->parents[i].driver)
			return dev->parents[i].driver;
	return NULL;
}

static const char *node_of(const struct fb_device *dev)
{
	return dev->devname ? dev->devname : dev->name;
}

/* One line for the handoff, then one for each process still holding the
 * node: it opened or mapped the framebuffer that is gone. */
static void report(const struct fb_device *dev, const char *was, const char *devdir)
{
	const char *driver = nearest_driver(dev);
	struct drm_list drm = {};
	const struct drm_card *card = NULL;
	struct fb_holder_target t;
	struct fb_holder_list hl = {};
	char how[256];

	if (display_scan(&drm, DRM_SCAN_PLAN) == 0)
		card = display_card_of_fb(&drm, dev);
	INF("%s: handoff: %s gave way to %s%s%s; its node and links now lead there",
	    dev->name, was, driver ? driver : "a device without a driver",
	    card ? " on " : "", card ? card->name : "");
	display_list_free(&drm);
	fb_holder_target_init(&t, dev, devdir);
	if (fb_holders_scan("/proc", &t, 1, &hl) < 0)
		return;
	for (size_t i = 0; i < hl.n; i++)
		WRN("%s: pid %d (%s) still holds the framebuffer from before the handoff (%s): close it; the kernel has oopsed on such a close",
		    dev->name, (int)hl.holders[i].pid, hl.holders[i].comm,
		    fb_holder_describe(&hl.holders[i], how, sizeof(how)));
	fb_holder_list_free(&hl);
}

static size_t memory_find(const struct handoff_memory *mem, const char *name)
{
	size_t i = 0;

	while (i < mem->n && strcmp(mem->e[i].name, name) != 0)
		i++;
	return i;
}

void handoff_check_memory(struct handoff_memory *mem, const struct fb_device_list *list,
			  const char *devdir)
{
	for (size_t i = 0; i < list->n; i++) {
		const struct fb_device *dev = &list->devices[i];
		const char *driver = nearest_driver(dev);
		size_t k = memory_find(mem, dev->name);
		char was[96];

		if (!driver)
			continue;
		if (k < mem->n && strcmp(mem->e[k].driver, driver) != 0) {
			snprintf(was, sizeof(was), "%s", mem->e[k].driver);
			report(dev, was, devdir);
		}
		if (k == mem->n) {
			if (mem->n == HANDOFF_MEMORY_MAX) /* the oldest goes */
				memmove(&mem->e[0], &mem->e[1],
					--mem->n * sizeof(mem->e[0]));
			k = mem->n++;
		}
		snprintf(mem->e[k].name, sizeof(mem->e[k].name), "%s", dev->name);
		snprintf(mem->e[k].driver, sizeof(mem->e[k].driver), "%s", driver);
	}
}

static const struct fb_device *device_of_node(const struct fb_device_list *list,
					      const char *node)
{
	for (size_t i = 0; i < list->n; i++)
		if (strcmp(node_of(&list->devices[i]), node) == 0)
			return &list->devices[i];
	return NULL;
}

/* The by-name link the plan makes for node, or NULL. */
static const struct node_link *planned_name(const struct node_plan *plan, const char *node)
{
	for (size_t i = 0; i < plan->n_links; i++)
		if (strncmp(plan->links[i].path, "fb/by-name/", 11) == 0 &&
		    strcmp(plan->links[i].node, node) == 0)
			return &plan->links[i];
	return NULL;
}

void handoff_check_links(int dfd, const char *devdir, const struct fb_device_list *list,
			 const struct node_plan *plan)
{
	_cleanup_close_ int fd = openat(dfd, "fb/by-name",
					O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct dirent *de;
	DIR *d;

	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d)
		return;
	fd = -1; /* d's now */
	while ((de = readdir(d))) {
		char target[NODE_PATH_MAX], was[NODE_PATH_MAX + 32];
		const struct node_link *want;
		const struct fb_device *dev;
		ssize_t n = readlinkat(dirfd(d), de->d_name, target, sizeof(target) - 1);

		if (n <= 6)
			continue;
		target[n] = '\0';
		/* only links in the form we make: ../../NODE */
		if (strncmp(target, "../../", 6) != 0 || strchr(target + 6, '/'))
			continue;
		dev = device_of_node(list, target + 6);
		want = dev ? planned_name(plan, target + 6) : NULL;
		if (!want || strcmp(want->path + 11, de->d_name) == 0)
			continue;
		snprintf(was, sizeof(was), "the framebuffer named %s", de->d_name);
		report(dev, was, devdir);
	}
	closedir(d);
}
