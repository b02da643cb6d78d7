/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl set: a mode as fbset sets it, and what the driver made of it. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands.h"
#include "display.h"
#include "fbinfo_ioctl.h"
#include "fbmodes.h"
#include "log.h"
#include "macro.h"
#include "modeset.h"
#include "nodes.h"
#include "strutil.h"

static void set_usage(void)
{
	printf("Usage: fbclassctl set [options] DEVICE\n"
	       "\n"
	       "Set the mode of a framebuffer as fbset does (FBIOPUT_VSCREENINFO), read it\n"
	       "back, and report every field the driver changed.  Options may come before\n"
	       "or after DEVICE.\n"
	       "\n"
	       "Options:\n"
	       "  -g, --geometry XRES YRES VXRES VYRES DEPTH\n"
	       "                        resolution, virtual size and bits per pixel\n"
	       "  -t, --timings PIXCLOCK LEFT RIGHT UPPER LOWER HSLEN VSLEN\n"
	       "                        pixel clock (ps), margins and sync lengths\n"
	       "  -m, --mode NAME       a mode of the fb.modes file, else WxH[-DEPTH][@HZ]\n"
	       "                        (the timings of the file's mode of that size)\n"
	       "      --db FILE         the fb.modes file (default " MODESET_DEFAULT_DB
	       ")\n"
	       "      --rgba RGBA       colour lengths R,G,B,T, each LENGTH[/OFFSET]\n"
	       "      --nonstd N        a driver's non-standard pixel format\n"
	       "      --accel BOOL      hardware text acceleration: true or false\n"
	       "  -a, --all             change every console on the framebuffer (FB_ACTIVATE_ALL)\n"
	       "      --test            show what the driver would make of it; apply nothing\n"
	       "      --pan POS         show the virtual area from X,Y (FBIOPAN_DISPLAY)\n"
	       "      --dev DIR         device directory (default /dev)\n"
	       "  -h, --help            show this help\n"
	       "\n"
	       "On DRM's fbdev emulation a mode is set at boot: set refuses, and prints the\n"
	       "video= kernel argument for a size the connector offers.\n"
	       "\n"
	       "Exit status: 0 set (or, with --test, accepted), 1 error (device gone, no\n"
	       "node), 2 usage, unknown mode or malformed fb.modes (nothing set), 4 the driver\n"
	       "refuses the request, or the fb is DRM's fbdev emulation (the old mode stays).\n");
}

struct set_opts {
	struct modeset_request req;
	const char *mode, *db, *devdir;
	bool help;
};

/* n numbers: optarg and the n - 1 arguments after it. */
static int take_numbers(int argc, char *argv[], const char *opt, uint32_t *out[], size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *s = i == 0 ? optarg : (optind < argc ? argv[optind++] : NULL);
		unsigned long long v;

		if (!s) {
			ERR("%s takes %zu numbers", opt, n);
			return -EINVAL;
		}
		if (parse_decimal(s, UINT32_MAX, &v) < 0) {
			_cleanup_free_ char *esc = str_escape(s, 32);

			ERR("%s: '%s' is not a number (%zu numbers expected)", opt,
			    esc ? esc : "?", n);
			return -EINVAL;
		}
		*out[i] = (uint32_t)v;
	}
	return 0;
}

static int parse_pan(const char *s, struct modeset_request *req)
{
	unsigned long long x, y;
	const char *p;

	if (parse_decimal_prefix(s, UINT32_MAX, &x, &p) < 0 || *p != ',' ||
	    parse_decimal(p + 1, UINT32_MAX, &y) < 0) {
		ERR("--pan takes X,Y (two numbers)");
		return -EINVAL;
	}
	req->pan = true;
	req->pan_x = (uint32_t)x;
	req->pan_y = (uint32_t)y;
	return 0;
}

static int parse_bool(const char *s, int *out)
{
	if (!strcasecmp(s, "true") || !strcasecmp(s, "yes") || !strcasecmp(s, "on") ||
	    !strcmp(s, "1"))
		*out = 1;
	else if (!strcasecmp(s, "false") || !strcasecmp(s, "no") ||
		 !strcasecmp(s, "off") || !strcmp(s, "0"))
		*out = 0;
	else
		return -EINVAL;
	return 0;
}

static int opt_error(const char *msg)
{
	ERR("%s", msg);
	return -EINVAL;
}

static int parse_value_opt(int c, struct set_opts *o)
{
	struct modeset_request *q = &o->req;
	unsigned long long v;
	struct fb_var_screeninfo rgba = {};

	switch (c) {
	case 'R':
		if (fbmodes_parse_rgba(optarg, &rgba) < 0)
			return opt_error("--rgba takes R,G,B,T, each LENGTH[/OFFSET]");
		q->rgba = true;
		q->red = rgba.red;
		q->green = rgba.green;
		q->blue = rgba.blue;
		q->transp = rgba.transp;
		return 0;
	case 'N':
		if (parse_decimal(optarg, UINT32_MAX, &v) < 0)
			return opt_error("--nonstd takes a number");
		q->nonstd = true;
		q->nonstd_value = (uint32_t)v;
		return 0;
	case 'A':
		if (parse_bool(optarg, &q->accel) < 0)
			return opt_error("--accel takes true or false");
		return 0;
	case 'P':
		return parse_pan(optarg, q);
	case 'D':
		o->devdir = optarg;
		return node_devdir_check(optarg);
	}
	return -EINVAL;
}

static int parse_opts(int argc, char *argv[], struct set_opts *o)
{
	static const struct option options[] = {
		{ "geometry", required_argument, NULL, 'g' },
		{ "timings", required_argument, NULL, 't' },
		{ "mode", required_argument, NULL, 'm' },
		{ "db", required_argument, NULL, 'B' },
		{ "rgba", required_argument, NULL, 'R' },
		{ "nonstd", required_argument, NULL, 'N' },
		{ "accel", required_argument, NULL, 'A' },
		{ "all", no_argument, NULL, 'a' },
		{ "test", no_argument, NULL, 'T' },
		{ "pan", required_argument, NULL, 'P' },
		{ "dev", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct modeset_request *q = &o->req;
	uint32_t *geometry[] = { &q->xres, &q->yres, &q->xres_virtual, &q->yres_virtual,
				 &q->bits_per_pixel };
	uint32_t *timings[] = { &q->pixclock,	  &q->left_margin,  &q->right_margin,
				&q->upper_margin, &q->lower_margin, &q->hsync_len,
				&q->vsync_len };
	int c;

	while ((c = getopt_long(argc, argv, "g:t:m:ah", options, NULL)) != -1) {
		int r = 0;

		if (c == 'g')
			r = take_numbers(argc, argv, "--geometry", geometry, 5),
			q->geometry = true;
		else if (c == 't')
			r = take_numbers(argc, argv, "--timings", timings, 7),
			q->timings = true;
		else if (c == 'm')
			o->mode = optarg;
		else if (c == 'B')
			o->db = optarg;
		else if (c == 'a')
			q->all = true;
		else if (c == 'T')
			q->test = true;
		else if (c == 'h')
			o->help = true;
		else
			r = parse_value_opt(c, o);
		if (r < 0 || c == '?')
			return -EINVAL;
	}
	return 0;
}

static void print_changes(const struct fb_device *dev,
			  const struct fb_var_screeninfo *asked,
			  const struct fb_var_screeninfo *got, bool test)
{
	struct modeset_change c[MODESET_MAX_CHANGES];
	size_t n = modeset_diff(asked, got, c, ARRAY_SIZE(c));

	for (size_t i = 0; i < n; i++)
		print_line_escaped("%s: the driver %s %s %s -> %s", dev->name,
				   test ? "would change" : "changed", c[i].field,
				   c[i].asked, c[i].got);
}

static void print_mode(const char *what, const struct fb_device *dev,
		       const struct fb_var_screeninfo *v)
{
	uint64_t mhz = fb_refresh_mhz(v);
	char hz[48] = "";

	if (mhz)
		snprintf(hz, sizeof(hz), ", %" PRIu64 ".%03" PRIu64 " Hz", mhz / 1000,
			 mhz % 1000);
	print_line_escaped("%s: %s %" PRIu32 "x%" PRIu32 ", virtual %" PRIu32 "x%" PRIu32
			   ", %" PRIu32 " bpp%s",
			   dev->name, what, v->xres, v->yres, v->xres_virtual,
			   v->yres_virtual, v->bits_per_pixel, hz);
}

static void print_result(const struct fb_device *dev, const struct modeset_request *q,
			 const struct modeset_result *res)
{
	if (res->mode_put) {
		print_mode(q->test ? "the driver would take" : "set", dev, &res->got);
		print_changes(dev, &res->asked, q->test ? &res->got : &res->after,
			      q->test);
		if (q->test)
			print_mode("unchanged (--test):", dev, &res->after);
	}
	if (q->pan && q->test)
		print_line_escaped("%s: pan %" PRIu32 ",%" PRIu32
				   " is inside the virtual area (--test: not panned)",
				   dev->name, q->pan_x, q->pan_y);
	else if (res->panned)
		print_line_escaped("%s: panned to %" PRIu32 ",%" PRIu32, dev->name,
				   res->after.xoffset, res->after.yoffset);
}

static void print_offered(const struct drm_card *card)
{
	for (size_t i = 0; card && i < card->n_connectors; i++) {
		const struct drm_connector *c = &card->connectors[i];

		if (c->status != DRM_STATUS_CONNECTED)
			continue;
		fputs("  ", stderr);
		fputs_escaped(display_connector_short_name(c), stderr);
		fputs(" offers:", stderr);
		for (size_t j = 0; j < c->n_modes; j++) {
			_cleanup_free_ char *esc = NULL;

			/* one line per refresh in sysfs: each size once */
			if (strv_contains(c->modes, j, c->modes[j]))
				continue;
			esc = str_escape(c->modes[j], 32);

			fprintf(stderr, " %s", esc ? esc : "?");
		}
		fprintf(stderr, "\n");
	}
}

/* DRM's fbdev emulation keeps the mode of its DRM framebuffer: say so, and
 * give the kernel argument that works.  Returns the exit code. */
static int refuse_drm(const struct fb_device *dev, const struct fb_hwinfo *hw,
		      const struct drm_card *card, const struct modeset_request *q)
{
	struct fb_var_screeninfo asked;
	char **args = NULL;
	size_t n = 0;
	char id[FB_FIX_ID_MAX];
	_cleanup_free_ char *esc = NULL;

	fb_fix_id(&hw->fix, id, sizeof(id));
	esc = str_escape(id, 32);
	ERR("%s: %s is DRM's fbdev emulation: the DRM driver sets its mode and refuses or ignores FBIOPUT_VSCREENINFO; nothing set",
	    dev->name, esc ? esc : "?");
	modeset_build(&hw->var, q, &asked);
	if (modeset_video_args(card, asked.xres, asked.yres, &args, &n) < 0)
		return FB_EXIT_ERROR;
	if (n) {
		fprint_line_escaped(stderr,
				    "%s: to start in %" PRIu32 "x%" PRIu32
				    ", add to the kernel command line:",
				    dev->name, asked.xres, asked.yres);
		for (size_t i = 0; i < n; i++)
			fprint_line_escaped(stderr, "  %s", args[i]);
	} else {
		fprint_line_escaped(stderr,
				    "%s: no connected connector of %s offers %" PRIu32
				    "x%" PRIu32
				    "; video= takes only a mode the connector offers",
				    dev->name, card ? card->name : "its DRM card",
				    asked.xres, asked.yres);
		print_offered(card);
	}
	strv_free(args, n);
	return FB_EXIT_REFUSED;
}

/* Is dev DRM's fbdev emulation?  Then refuse (the exit code); else -1. */
static int check_drm(const struct fb_device *dev, const struct fb_hwinfo *hw,
		     const struct modeset_request *q)
{
	struct drm_list drm = {};
	const struct drm_card *card;
	char id[FB_FIX_ID_MAX];
	int ret = -1;

	if (!modeset_changes_mode(q) || fb_cmd_scan_drm(&drm, DRM_SCAN_ALL) < 0)
		return -1;
	fb_fix_id(&hw->fix, id, sizeof(id));
	card = display_card_of_fb(&drm, dev);
	if (display_kind_of(dev, id, card) == FB_KIND_DRM)
		ret = refuse_drm(dev, hw, card, q);
	display_list_free(&drm);
	return ret;
}

static int set_device(const struct set_opts *o, struct modeset_request *q,
		      const struct fb_var_screeninfo *mode, bool spec_only,
		      const struct fb_device *dev)
{
	struct fb_hwinfo hw;
	struct modeset_result res;
	int r;

	r = fb_hw_query(dev, o->devdir, true, &hw);
	if (r < 0) {
		log_errno(r, "%s: cannot read the mode: %m", dev->name);
		return FB_EXIT_ERROR;
	}
	if (spec_only)
		modeset_spec_to_geometry(mode, hw.var.bits_per_pixel, q);
	r = check_drm(dev, &hw, q);
	if (r >= 0)
		return r;
	r = modeset_apply(dev, o->devdir, true, q, &res);
	if (r == 0)
		print_result(dev, q, &res);
	return fb_exit_code(r, FB_FROM_MODESET);
}

static int do_set(int argc, char *argv[])
{
	struct set_opts o = { .devdir = "/dev", .req = { .accel = -1 } };
	struct fb_var_screeninfo mode;
	struct fb_device_list list = {};
	const struct fb_device **sel = NULL;
	size_t nsel = 0;
	bool spec_only = false;
	int ret;

	if (parse_opts(argc, argv, &o) < 0)
		return fb_usage_error("set");
	if (o.help) {
		set_usage();
		return FB_EXIT_OK;
	}
	if (argc - optind != 1) {
		ERR("expected one DEVICE");
		return fb_usage_error("set");
	}
	if (!modeset_changes_mode(&o.req) && !o.mode && !o.req.pan) {
		ERR("nothing to set: give -g, -t, --mode, --rgba, --nonstd, --accel or --pan");
		return fb_usage_error("set");
	}
	if (o.mode) {
		int r = modeset_resolve_mode(o.mode, o.db, &mode, &spec_only);

		if (r < 0)
			return fb_exit_code(r, FB_FROM_INPUT);
	}
	if (o.mode && !spec_only)
		o.req.mode = &mode;
	if (fb_cmd_scan(&list, FB_SCAN_NODE, false) < 0)
		return FB_EXIT_ERROR;
	ret = fb_exit_code(fb_cmd_select(&list, 1, argv + optind, &sel, &nsel),
			   FB_FROM_SELECT);
	if (nsel == 1)
		ret = set_device(&o, &o.req, &mode, spec_only, sel[0]);
	free(sel);
	fb_device_list_free(&list);
	return ret;
}

const struct fb_cmd fb_cmd_set = {
	.name = "set",
	.cmd = do_set,
	.help = "set a mode as fbset does, and report what the driver changed",
};
