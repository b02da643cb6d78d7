/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Display driver loading with libkmod, and settling of the graphics class. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libkmod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kmod-dl.h"
#include "log.h"
#include "macro.h"
#include "modules.h"
#include "sysfs-backend.h"

bool fb_module_path_is_display(const char *path)
{
	if (!path)
		return false;
	return strstr(path, "/kernel/drivers/gpu/drm/") || strstr(path, "/kernel/drivers/video/");
}

/* Load the display modules a modalias resolves to.  Returns how many. */
static unsigned load_for_alias(struct kmod_ctx *ctx, const char *syspath, const char *alias,
			       bool dry_run)
{
	struct kmod_list *list = NULL, *it;
	unsigned n = 0;
	int r;

	r = kmod_module_new_from_lookup(ctx, alias, &list);
	if (r < 0) {
		WRN("%s: cannot look up modalias %s: %s", syspath, alias, strerror(-r));
		return 0;
	}
	kmod_list_foreach(it, list)
	{
		struct kmod_module *mod = kmod_module_get_module(it);
		const char *name = kmod_module_get_name(mod);
		const char *path = kmod_module_get_path(mod);

		if (!fb_module_path_is_display(path)) {
			DBG("%s: %s is not a display driver (%s); skipped", syspath, name,
			    path ? path : "built in");
			kmod_module_unref(mod);
			continue;
		}
		if (dry_run) {
			printf("modprobe %s\n", name);
			n++;
		} else {
			r = kmod_module_probe_insert_module(mod, KMOD_PROBE_APPLY_BLACKLIST, NULL,
							    NULL, NULL, NULL);
			if (r == 0) {
				INF("%s: loaded %s for %s", syspath, name, alias);
				n++;
			} else if (r > 0) {
				INF("%s: %s is blacklisted; not loaded", syspath, name);
			} else {
				ERR("%s: cannot load module %s: %s", syspath, name,
				    strerror(-r));
			}
		}
		kmod_module_unref(mod);
	}
	kmod_module_unref_list(list);
	return n;
}

struct load_ctx {
	struct kmod_ctx *kmod;
	bool dry_run;
	unsigned n;
};

static void load_unbound(const char *syspath, const char *alias, void *userdata)
{
	struct load_ctx *c = userdata;

	c->n += load_for_alias(c->kmod, syspath, alias, c->dry_run);
}

int fb_modules_load_display(bool dry_run, unsigned *n_loaded)
{
	static const char *const buses[] = { "pci", "platform", "usb" };
	struct load_ctx c = { .dry_run = dry_run };
	int ret;

	*n_loaded = 0;
	ret = fb_libkmod_open();
	if (ret < 0)
		return ret;
	c.kmod = kmod_new(NULL, NULL);
	if (!c.kmod) {
		ERR("cannot start libkmod");
		return -ENOMEM;
	}
	ret = fb_sysfs_for_each_unbound(buses, ARRAY_SIZE(buses), load_unbound, &c);
	*n_loaded = c.n;
	kmod_unref(c.kmod);
	return ret;
}

/* A signature of /sys/class/graphics: "fb0=29:0 fb1=29:1 ", into buf. */
static void class_signature(char *buf, size_t len)
{
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	buf[0] = '\0';
	d = opendir("/sys/class/graphics");
	if (!d)
		return;
	while ((de = readdir(d)) && n + 1 < len) {
		char path[512], dev[32] = "";
		_cleanup_close_ int fd = -1;
		ssize_t k;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/graphics/%s/dev", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			k = read(fd, dev, sizeof(dev) - 1);
			dev[k > 0 ? k : 0] = '\0';
		}
		n += (size_t)snprintf(buf + n, len - n, "%s=%s;", de->d_name, dev);
	}
	closedir(d);
}

static unsigned long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int fb_class_settle(unsigned timeout_ms, unsigned quiet_ms)
{
	unsigned long long start = now_ms(), stable_since = start;
	char last[4096], cur[4096];

	class_signature(last, sizeof(last));
	for (;;) {
		struct timespec step = { 0, 50 * 1000000L };
		unsigned long long t = now_ms();

		if (t - stable_since >= quiet_ms)
			return 0;
		if (t - start >= timeout_ms)
			return -ETIMEDOUT;
		nanosleep(&step, NULL);
		class_signature(cur, sizeof(cur));
		if (strcmp(cur, last) != 0) {
			DBG("graphics class changed: %s", cur);
			memcpy(last, cur, sizeof(last));
			stable_since = now_ms();
		}
	}
}

int fb_modules_load_for_device(const char *syspath, unsigned *n_loaded)
{
	_cleanup_free_ char *alias = NULL;
	struct kmod_ctx *ctx;
	int ret;

	*n_loaded = 0;
	alias = fb_sysfs_unbound_modalias(syspath);
	if (!alias)
		return 0;
	ret = fb_libkmod_open();
	if (ret < 0)
		return ret;
	ctx = kmod_new(NULL, NULL);
	if (!ctx) {
		ERR("%s: cannot start libkmod", syspath);
		return -ENOMEM;
	}
	*n_loaded = load_for_alias(ctx, syspath, alias, false);
	kmod_unref(ctx);
	return 0;
}
