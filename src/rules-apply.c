/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A rule's fbmode=, console= and rotate=: see rules-apply.h. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "console.h"
#include "display.h"
#include "fbinfo_ioctl.h"
#include "log.h"
#include "macro.h"
#include "modeset.h"
#include "rules-apply.h"
#include "strutil.h"

bool rules_apply_wanted(const struct fb_rule *rule)
{
	return rule && (rule->fbmode || rule->console_first || rule->has_rotate);
}

/* DRM's fbdev emulation keeps its DRM driver's mode, as set says. */
static bool is_drm_emulation(const struct fb_device *dev, const struct fb_hwinfo *hw)
{
	char id[FB_FIX_ID_MAX];

	if (display_kind_of(dev, fb_fix_id(&hw->fix, id, sizeof(id)), NULL) != FB_KIND_DRM)
		return false;
	ERR("%s: fbmode= not set: DRM's fbdev emulation takes its mode from the kernel's video= argument ('fbclassctl info %s' lists them)",
	    dev->name, dev->name);
	return true;
}

/* set --mode VALUE, as cmd-set.c does it. */
static int apply_fbmode(const struct fb_rule *rule, const struct fb_device *dev,
			const char *devdir)
{
	struct modeset_request q = { .accel = -1 };
	struct fb_var_screeninfo mode;
	struct modeset_result res = {};
	struct fb_hwinfo hw;
	bool spec_only;
	int r = modeset_resolve_mode(rule->fbmode, NULL, &mode, &spec_only);

	if (r == 0) {
		r = fb_hw_query(dev, devdir, true, &hw);
		if (r < 0)
			log_errno(r, "%s: cannot read the mode: %m", dev->name);
		else if (is_drm_emulation(dev, &hw))
			return -EOPNOTSUPP;
	}
	if (r == 0 && spec_only)
		modeset_spec_to_geometry(&mode, hw.var.bits_per_pixel, &q);
	else if (r == 0)
		q.mode = &mode;
	if (r == 0)
		r = modeset_apply(dev, devdir, true, &q, &res);
	if (r < 0) {
		_cleanup_free_ char *esc = str_escape(rule->fbmode, 64);
		const char *why = r == -EINVAL ? res.refused : "";

		ERR("%s: fbmode=%s (rule at line %u) not set%s%s", dev->name,
		    esc ? esc : "?", rule->line, why[0] ? ": " : "", why);
		return r;
	}
	INF("%s: fbmode: set %" PRIu32 "x%" PRIu32 ", %" PRIu32 " bpp", dev->name,
	    res.after.xres, res.after.yres, res.after.bits_per_pixel);
	return 0;
}

/* console map N fbX for each console of the range, as cmd-console.c. */
static int apply_console(const struct fb_rule *rule, const struct fb_device *dev,
			 const char *devdir)
{
	_cleanup_close_ int fd = fb_hw_open(dev, devdir, O_RDWR, true, NULL);
	int r = 0;

	if (fd < 0)
		return log_errno(fd, "%s: console=: cannot open %s/%s: %m", dev->name,
				 devdir, dev->devname ? dev->devname : dev->name);
	for (unsigned c = rule->console_first; c <= rule->console_last; c++) {
		bool repainted;

		r = fb_console_map_set(fd, devdir, c, minor(dev->devnum), &repainted);
		if (r == -EIO)
			return log_errno(
				r,
				"%s: console=: fbcon did not move tty%u to it (it cannot hold a console?)",
				dev->name, c);
		if (r < 0)
			return log_errno(r, "%s: console=: cannot move tty%u to it: %m",
					 dev->name, c);
	}
	if (rule->console_first == rule->console_last)
		INF("%s: console: tty%u on it", dev->name, rule->console_first);
	else
		INF("%s: console: tty%u-%u on it", dev->name, rule->console_first,
		    rule->console_last);
	return 0;
}

/* The console in front is on dev?  1, 0, or -errno (logged). */
static int front_is_on(const struct fb_device *dev, const char *devdir)
{
	int map[FB_CONSOLE_MAX];
	int front = fb_console_front(devdir);
	_cleanup_close_ int fd = -1;
	int r;

	if (front < 0)
		return log_errno(front,
				 "%s: rotate=: cannot tell the console in front: %m",
				 dev->name);
	fd = fb_hw_open(dev, devdir, O_RDWR, true, NULL);
	r = fd < 0 ? fd : fb_console_map_read(fd, map);
	if (r < 0)
		return log_errno(r, "%s: rotate=: cannot read fbcon's map: %m", dev->name);
	return front >= 1 && front <= FB_CONSOLE_MAX &&
	       map[front - 1] == (int)minor(dev->devnum);
}

/* console rotate DEG: fbcon rotates the fb of the console in front, so
 * only when that is dev (console= puts it there). */
static int apply_rotate(const struct fb_rule *rule, const struct fb_device *dev,
			const char *devdir, const char *sysroot)
{
	int r = front_is_on(dev, devdir);

	if (r < 0)
		return r;
	if (r == 0) {
		ERR("%s: rotate=%u: the console in front is on another framebuffer (console= moves it here)",
		    dev->name, rule->rotate);
		return -EXDEV;
	}
	r = fb_console_rotate_set(sysroot, rule->rotate, false);
	if (r < 0)
		return log_errno(r, "%s: rotate=%u: cannot rotate its console: %m",
				 dev->name, rule->rotate);
	INF("%s: rotate: %u", dev->name, rule->rotate);
	return 0;
}

static void print_dry_run(const struct fb_rule *rule, const struct fb_device *dev)
{
	if (rule->fbmode)
		print_line_escaped("set %s --mode %s", dev->name, rule->fbmode);
	if (rule->console_first == rule->console_last && rule->console_first)
		print_line_escaped("console map %u %s", rule->console_first, dev->name);
	else if (rule->console_first)
		print_line_escaped("console map %u-%u %s", rule->console_first,
				   rule->console_last, dev->name);
	if (rule->has_rotate)
		print_line_escaped("console rotate %u", rule->rotate);
}

int rules_apply_device(const struct fb_rule *rule, const struct fb_device *dev,
		       const char *devdir, const char *sysroot, bool dry_run)
{
	int ret = 0, r;

	if (!rules_apply_wanted(rule))
		return 0;
	if (dry_run) {
		print_dry_run(rule, dev);
		return 0;
	}
	if (rule->fbmode && (r = apply_fbmode(rule, dev, devdir)) < 0)
		ret = r;
	if (rule->console_first && (r = apply_console(rule, dev, devdir)) < 0 && ret == 0)
		ret = r;
	if (rule->has_rotate && (r = apply_rotate(rule, dev, devdir, sysroot)) < 0 &&
	    ret == 0)
		ret = r;
	return ret;
}
