/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Display driver loading with libkmod, and settling of the graphics class. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kmod.h"
#include "log.h"
#include "macro.h"
#include "modules.h"
#include "sysfs.h"

bool fb_module_path_is_display(const char *path)
{
	if (!path)
		return false;
	return strstr(path, "/kernel/drivers/gpu/drm/") ||
	       strstr(path, "/kernel/drivers/video/");
}

struct alias_ctx {
	const char *syspath, *alias;
	bool dry_run;
	unsigned n;
};

static void load_match(struct fb_kmod *k, const char *name, const char *path,
		       void *userdata)
{
	struct alias_ctx *a = userdata;
	int r;

	if (!fb_module_path_is_display(path)) {
		DBG("%s: %s is not a display driver (%s); skipped", a->syspath, name,
		    path ? path : "built in");
		return;
	}
	if (a->dry_run) {
		printf("modprobe %s\n", name);
		a->n++;
		return;
	}
	r = fb_kmod_insert(k, name);
	if (r == 0) {
		INF("%s: loaded %s for %s", a->syspath, name, a->alias);
		a->n++;
	} else if (r > 0) {
		INF("%s: %s is blacklisted; not loaded", a->syspath, name);
	} else {
		ERR("%s: cannot load module %s: %s", a->syspath, name, strerror(-r));
	}
}

/* Load the display modules a modalias resolves to.  Returns how many. */
static unsigned load_for_alias(struct fb_kmod *k, const char *syspath, const char *alias,
			       bool dry_run)
{
	struct alias_ctx a = { .syspath = syspath, .alias = alias, .dry_run = dry_run };
	int r = fb_kmod_lookup(k, alias, load_match, &a);

	if (r < 0)
		WRN("%s: cannot look up modalias %s: %s", syspath, alias, strerror(-r));
	return a.n;
}

struct load_ctx {
	struct fb_kmod *kmod;
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
	ret = fb_kmod_new(&c.kmod);
	if (ret < 0) {
		if (ret == -ENOMEM)
			ERR("cannot start module loading (%s)", fb_kmod_backend_name);
		return ret;
	}
	ret = fb_sysfs_for_each_unbound(buses, ARRAY_SIZE(buses), load_unbound, &c);
	*n_loaded = c.n;
	fb_kmod_free(c.kmod);
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
	struct fb_kmod *k;
	int ret;

	*n_loaded = 0;
	alias = fb_sysfs_unbound_modalias(syspath);
	if (!alias)
		return 0;
	ret = fb_kmod_new(&k);
	if (ret < 0) {
		if (ret == -ENOMEM)
			ERR("%s: cannot start module loading (%s)", syspath,
			    fb_kmod_backend_name);
		return ret;
	}
	*n_loaded = load_for_alias(k, syspath, alias, false);
	fb_kmod_free(k);
	return 0;
}
