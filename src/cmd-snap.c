/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl snap: the visible area of a framebuffer as a PNG. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "log.h"
#include "nodes.h"
#include "png-backend.h"
#include "snap.h"
#include "stop-signals.h"
#include "strutil.h"

static void snap_usage(void)
{
	printf("Usage: fbclassctl snap [options] DEVICE [FILE.png]\n"
	       "       fbclassctl snap [options] --all [DIR]\n"
	       "\n"
	       "Write the visible area of a framebuffer as an 8-bit RGB PNG.\n"
	       "FILE defaults to fbN-YYYYmmdd-HHMMSS.png; '-' is standard output.\n"
	       "\n"
	       "Options:\n"
	       "  -a, --all         one PNG per framebuffer, in DIR (default .)\n"
	       "      --dev DIR     device directory (default /dev)\n"
	       "  -h, --help        show this help\n"
	       "\n"
	       "Exit status: 0 ok, 1 error, 2 usage, 4 no such device, 128+N stopped by\n"
	       "signal N (SIGHUP 129, SIGINT 130, SIGTERM 143, ...), with no file left\n"
	       "half-written.\n");
}

static void default_name(char *buf, size_t len, const char *dir, const char *fbname)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, len, "%s%s%s-%s.png", dir ? dir : "", dir ? "/" : "", fbname, stamp);
}

/* Through a temporary file renamed into place (fb_snap_save_at), so that
 * a device lost midway leaves no half-written PNG. */
static int write_file(const char *path, const uint8_t *rgb, unsigned w, unsigned h)
{
	if (strcmp(path, "-") == 0)
		return fb_snap_write_png(stdout, rgb, w, h);
	return fb_snap_save_at(AT_FDCWD, path, rgb, w, h);
}

static int snap_one(const struct fb_device *dev, const char *devdir, const char *path,
		    const char *dir)
{
	uint8_t *rgb = NULL;
	unsigned w = 0, h = 0;
	char fmt[64] = "", name[4096];
	int r;

	r = fb_snap_read(dev, devdir, &rgb, &w, &h, fmt, sizeof(fmt));
	if (r < 0) {
		if (r == -ENODEV)
			ERR("%s: the device went away while it was read (%s)", dev->name,
			    strerror(-r));
		else if (r == -ENOENT)
			ERR("%s: no node %s/%s; 'fbclassctl coldplug' creates it",
			    dev->name, devdir, dev->devname);
		else if (r != -EOPNOTSUPP && r != -ERANGE && r != -ENODATA)
			ERR("%s: cannot read the framebuffer: %s", dev->name,
			    strerror(-r));
		return r;
	}
	if (!path) {
		default_name(name, sizeof(name), dir, dev->name);
		path = name;
	}
	r = write_file(path, rgb, w, h);
	free(rgb);
	if (r == -EINTR)
		return r;
	if (r < 0)
		return log_errno(r, "%s: cannot write %s: %m", dev->name,
				 strcmp(path, "-") ? path : "stdout");
	if (strcmp(path, "-") != 0)
		print_line_escaped("%s: %ux%u %s -> %s", dev->name, w, h, fmt, path);
	return 0;
}

static int do_snap(int argc, char *argv[])
{
	enum { OPT_DEV = 0x100 };
	static const struct option options[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "dev", required_argument, NULL, OPT_DEV },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	const char *devdir = "/dev";
	bool all = false;
	struct fb_device_list list = {};
	const struct fb_device **sel = NULL;
	size_t nsel = 0;
	int c, r, ret = FB_EXIT_OK, nargs;

	while ((c = getopt_long(argc, argv, "ah", options, NULL)) != -1) {
		switch (c) {
		case 'a':
			all = true;
			break;
		case OPT_DEV:
			devdir = optarg;
			if (node_devdir_check(optarg) < 0)
				return fb_usage_error("snap");
			break;
		case 'h':
			snap_usage();
			return FB_EXIT_OK;
		default:
			return fb_usage_error("snap");
		}
	}
	nargs = argc - optind;
	if ((all && nargs > 1) || (!all && (nargs < 1 || nargs > 2))) {
		ERR("%s", all ? "--all takes at most a directory"
			      : "expected DEVICE and an optional FILE.png");
		return fb_usage_error("snap");
	}
	/* Before the device is read: no PNG without libpng (it is dlopen()ed). */
	if (fb_libpng_open("snap") < 0)
		return FB_EXIT_ERROR;
	if (fb_cmd_scan(&list, FB_SCAN_NODE, all) < 0)
		return FB_EXIT_ERROR;
	/* --all: every device into DIR; else the one DEVICE, into FILE.png. */
	r = fb_cmd_select(&list, all ? 0 : 1, argv + optind, &sel, &nsel);
	ret = fb_select_exit_code(r);
	/* A stop signal ends it with no half-written file, 128 + N. */
	fb_stop_signals_catch();
	for (size_t i = 0; i < nsel && !fb_stop_signal; i++) {
		const char *file = !all && nargs == 2 ? argv[optind + 1] : NULL;
		const char *dir = all && nargs ? argv[optind] : NULL;

		if (snap_one(sel[i], devdir, file, dir) < 0)
			ret = FB_EXIT_ERROR;
	}
	fb_stop_signals_restore();
	if (fb_stop_signal) {
		char name[32];

		ERR("interrupted by %s; no file left half-written",
		    fb_signal_name(fb_stop_signal, name, sizeof(name)));
		ret = 128 + fb_stop_signal;
	}
	free(sel);
	fb_device_list_free(&list);
	return ret;
}

const struct fb_cmd fb_cmd_snap = {
	.name = "snap",
	.cmd = do_snap,
	.help = "write the visible area of a framebuffer as a PNG",
};
