/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the commands share: the usage error, the scan, the devices named. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "display.h"
#include "fbclass.h"
#include "log.h"

int fb_usage_error(const char *cmd)
{
	if (cmd)
		fprintf(stderr, "Try 'fbclassctl %s --help' for more information.\n", cmd);
	else
		fprintf(stderr, "Try 'fbclassctl --help' for more information.\n");
	return FB_EXIT_USAGE;
}

int fb_cmd_scan(struct fb_device_list *list, unsigned what, bool say_empty)
{
	int r = fb_device_scan(list, what);

	if (r < 0)
		return log_errno(r, "cannot scan /sys/class/graphics: %m");
	if (!list->n && say_empty)
		INF("no framebuffer devices found in /sys/class/graphics");
	return 0;
}

int fb_cmd_scan_drm(struct drm_list *drm, unsigned what)
{
	int r = drm_scan(drm, what);

	if (r < 0)
		return log_errno(r, "cannot scan /sys/class/drm: %m");
	return 0;
}

int fb_cmd_select(const struct fb_device_list *list, int argc, char *const argv[],
		  const struct fb_device ***sel, size_t *n)
{
	const struct fb_device **v;
	int ret = 0;

	*sel = NULL;
	*n = 0;
	v = calloc((argc ? (size_t)argc : list->n) + 1, sizeof(*v));
	if (!v)
		return log_errno(-ENOMEM, "cannot choose devices: %m");
	if (argc == 0) {
		for (size_t i = 0; i < list->n; i++)
			v[(*n)++] = &list->devices[i];
	}
	for (int i = 0; i < argc; i++) {
		const struct fb_device *d = fb_device_list_find(list, argv[i]);

		if (!d) {
			ERR("%s: no such framebuffer", argv[i]);
			ret = -ENODEV;
			continue;
		}
		v[(*n)++] = d;
	}
	*sel = v;
	return ret;
}

int fb_exit_code(int r)
{
	return r < 0 ? FB_EXIT_ERROR : FB_EXIT_OK;
}

int fb_select_exit_code(int r)
{
	return r == -ENODEV ? FB_EXIT_NO_DEVICE : fb_exit_code(r);
}

int fb_cmd_check_devdir(const char *dir)
{
	struct stat st;

	if (!*dir) {
		ERR("--dev: empty directory name");
		return -EINVAL;
	}
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		ERR("--dev %s: not a directory", dir);
		return -ENOTDIR;
	}
	return 0;
}
