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
#include "kms-capture.h"
#include "kms.h"
#include "log.h"
#include "macro.h"
#include "nodes.h"
#include "png-backend.h"
#include "snap.h"
#include "stop-signals.h"
#include "strutil.h"

static void snap_usage(void)
{
	printf("Usage: fbclassctl snap [options] DEVICE [FILE.png]\n"
	       "       fbclassctl snap [options] CONNECTOR [FILE.png]\n"
	       "       fbclassctl snap [options] --all [DIR]\n"
	       "\n"
	       "Write the visible area of a framebuffer as an 8-bit RGB PNG.\n"
	       "CONNECTOR, as /sys/class/drm names it (card0-Virtual-1): what it really\n"
	       "shows, through KMS: its primary plane's FB (linear XR24, AR24, XB24,\n"
	       "AB24, RG16, RG24 and BG24 only; needs root and libdrm).\n"
	       "FILE defaults to NAME-YYYYmmdd-HHMMSS.png; '-' is standard output.\n"
	       "\n"
	       "Options:\n"
	       "  -a, --all         one PNG per framebuffer, in DIR (default .)\n"
	       "      --dev DIR     device directory (default /dev)\n"
	       "  -h, --help        show this help\n"
	       "\n"
	       "Exit status: 0 ok, 1 error (also: not root, a format or modifier snap\n"
	       "cannot read, libdrm not found), 2 usage, 4 no such device or connector,\n"
	       "128+N stopped by signal N (SIGHUP 129, SIGINT 130, SIGTERM 143, ...),\n"
	       "with no file left half-written.\n");
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

/* snap CONNECTOR [FILE]: what the connector shows, through KMS. */
static int snap_connector(const char *connector, const char *path)
{
	struct kms_snap s;
	char reason[512], name[4096], fourcc[5];
	unsigned minor;
	const char *conn = kms_connector_arg(connector, &minor);
	int r;

	r = kms_connector_snap(connector, &s, reason, sizeof(reason));
	if (r < 0) {
		_cleanup_free_ char *esc = str_escape_text(connector);

		ERR("%s: %s", esc ? esc : "?", reason);
		return fb_exit_code(r, FB_FROM_SELECT); /* -ENODEV: no such connector */
	}
	if (!path) {
		default_name(name, sizeof(name), NULL, conn);
		path = name;
	}
	r = write_file(path, s.rgb, s.width, s.height);
	if (r < 0 && r != -EINTR)
		log_errno(r, "%s: cannot write %s: %m", conn,
			  strcmp(path, "-") ? path : "stdout");
	else if (r == 0 && strcmp(path, "-") != 0)
		print_line_escaped("%s: %ux%u %s (FB %u) -> %s", conn, s.width, s.height,
				   kms_fourcc_str(s.fourcc, fourcc), s.fb_id, path);
	kms_snap_free(&s);
	return fb_exit_code(r, FB_FROM_LIBRARY);
}

/* The stop signals put back: ret, or 128 + N when signal N stopped it. */
static int stop_signals_end(int ret)
{
	char name[32];

	fb_stop_signals_restore();
	if (!fb_stop_signal)
		return ret;
	ERR("interrupted by %s; no file left half-written",
	    fb_signal_name(fb_stop_signal, name, sizeof(name)));
	return 128 + fb_stop_signal;
}

static int do_snap(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "all", no_argument, NULL, 'a' },
		FB_CMD_OPTION_DEV,
		FB_CMD_OPTION_HELP,
		{},
	};
	const char *devdir = "/dev";
	bool all = false, help = false;
	const struct fb_cmd_common common = { .devdir = &devdir, .help = &help };
	struct fb_device_list list = {};
	const struct fb_device **sel = NULL;
	size_t nsel = 0;
	int c, r, ret = FB_EXIT_OK, nargs;
	unsigned minor;

	while ((c = fb_cmd_getopt(argc, argv, "ah", options, &common)) != -1) {
		if (c != 'a')
			return fb_usage_error("snap");
		all = true;
	}
	if (help) {
		snap_usage();
		return FB_EXIT_OK;
	}
	nargs = argc - optind;
	if ((all && nargs > 1) || (!all && (nargs < 1 || nargs > 2))) {
		ERR("%s", all ? "--all takes at most a directory"
			      : "expected DEVICE or CONNECTOR and an optional FILE.png");
		return fb_usage_error("snap");
	}
	/* Before the device is read: no PNG without libpng (it is dlopen()ed). */
	if (fb_libpng_open("snap") < 0)
		return FB_EXIT_ERROR;
	/* A stop signal ends it with no half-written file, 128 + N. */
	if (!all && kms_connector_arg(argv[optind], &minor)) {
		fb_stop_signals_catch();
		return stop_signals_end(
			snap_connector(argv[optind],
				       nargs == 2 ? argv[optind + 1] : NULL));
	}
	if (fb_cmd_scan(&list, FB_SCAN_NODE, all) < 0)
		return FB_EXIT_ERROR;
	/* --all: every device into DIR; else the one DEVICE, into FILE.png. */
	r = fb_cmd_select(&list, all ? 0 : 1, argv + optind, &sel, &nsel);
	ret = fb_exit_code(r, FB_FROM_SELECT);
	fb_stop_signals_catch();
	for (size_t i = 0; i < nsel && !fb_stop_signal; i++) {
		const char *file = !all && nargs == 2 ? argv[optind + 1] : NULL;
		const char *dir = all && nargs ? argv[optind] : NULL;

		if (snap_one(sel[i], devdir, file, dir) < 0)
			ret = FB_EXIT_ERROR;
	}
	ret = stop_signals_end(ret);
	free(sel);
	fb_device_list_free(&list);
	return ret;
}

const struct fb_cmd fb_cmd_snap = {
	.name = "snap",
	.cmd = do_snap,
	.help = "write the visible area of a framebuffer, or what a connector shows, as a PNG",
};
