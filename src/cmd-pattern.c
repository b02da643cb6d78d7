/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl pattern: a test pattern for panel bring-up, then the screen back. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "log.h"
#include "nodes.h"
#include "pattern-show.h"
#include "stop-signals.h"
#include "strutil.h"

static void pattern_usage(void)
{
	printf("Usage: fbclassctl pattern [options] DEVICE [NAME]\n"
	       "\n"
	       "Draw a test pattern in the framebuffer's own pixel format, wait, and put\n"
	       "the screen, mode and colour map back as bench does.\n"
	       "\n"
	       "Patterns (NAME, default bars):\n"
	       "  bars              8 vertical bars: white yellow cyan green magenta red blue black\n"
	       "  ramp              red, green, blue and gray bands, 0 to full over the width\n"
	       "  grid              1-pixel lines every 8 (gray) and 64 pixels (white)\n"
	       "  checker           16-pixel black and white squares\n"
	       "  solid:COLOUR      red, green, blue, white, black or #RRGGBB\n"
	       "  text              name, driver, format, mode and stride, drawn\n"
	       "\n"
	       "Options:\n"
	       "  -d, --duration SECS  end after SECS seconds (default: a key when standard\n"
	       "                       input is the terminal it runs in the foreground of,\n"
	       "                       or a stop signal); --seconds is its old name\n"
	       "  -k, --keep           draw, leave the pattern there, and exit at once\n"
	       "      --dev DIR        device directory (default /dev)\n"
	       "  -h, --help           show this help\n"
	       "\n"
	       "Exit status: 0 ok, 1 error or device removed, 2 usage (an unknown pattern, a bad\n"
	       "#RRGGBB), 4 no such device, 128+N ended by signal N (SIGHUP 129, SIGINT 130,\n"
	       "SIGTERM 143, ...) with the screen put back.\n");
}

static void say_shown(void *arg, const char *name, const char *format, unsigned width,
		      unsigned height, unsigned stride)
{
	const char *until = arg;

	print_line_escaped("%s: %s, %ux%u, stride %u: %s", name, format, width, height,
			   stride, until);
	fflush(stdout);
}

/* What ends it, in words, for the line said once it shows. */
static void until_words(char *buf, size_t len, const struct fb_pattern_show_opts *o)
{
	char secs[48] = "";

	if (o->keep) {
		snprintf(buf, len, "kept");
		return;
	}
	if (o->seconds >= 0)
		snprintf(secs, sizeof(secs), "%g s, ", o->seconds);
	snprintf(buf, len, "shown until %s%sa stop signal", secs, o->key ? "a key, " : "");
}

/* 0, 1 when help was asked for (printed), or -EINVAL (reported). */
static int pattern_options(int argc, char *argv[], struct fb_pattern_show_opts *o,
			   const char **devdir)
{
	static const struct option options[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "seconds", required_argument, NULL, 'd' }, /* its old name */
		{ "keep", no_argument, NULL, 'k' },
		FB_CMD_OPTION_DEV,
		FB_CMD_OPTION_HELP,
		{},
	};
	bool help = false;
	const struct fb_cmd_common common = { .devdir = devdir, .help = &help };
	int c;

	while ((c = fb_cmd_getopt(argc, argv, "d:kh", options, &common)) != -1) {
		switch (c) {
		case 'd':
			if (parse_seconds_option("--duration", optarg, true,
						 &o->seconds) < 0)
				return -EINVAL;
			break;
		case 'k':
			o->keep = true;
			break;
		default:
			return -EINVAL;
		}
	}
	if (help) {
		pattern_usage();
		return 1;
	}
	if (o->keep && o->seconds >= 0) {
		ERR("--keep and --duration exclude each other: --keep does not wait");
		return -EINVAL;
	}
	return 0;
}

static int do_pattern(int argc, char *argv[])
{
	struct fb_pattern_show_opts o = { .seconds = -1, .shown = say_shown };
	const char *devdir = "/dev", *name;
	struct fb_device_list list = {};
	const struct fb_device **sel = NULL;
	size_t nsel = 0;
	struct fb_pattern p;
	char why[160], until[96];
	int r, ret, nargs;

	r = pattern_options(argc, argv, &o, &devdir);
	if (r != 0)
		return r > 0 ? FB_EXIT_OK : fb_usage_error("pattern");
	nargs = argc - optind;
	if (nargs < 1 || nargs > 2) {
		ERR("expected DEVICE and an optional pattern NAME");
		return fb_usage_error("pattern");
	}
	name = nargs == 2 ? argv[optind + 1] : "bars";
	if (fb_pattern_parse(name, &p, why, sizeof(why)) < 0) {
		_cleanup_free_ char *esc = str_escape(name, 64);

		ERR("pattern \"%s\": %s", esc ? esc : "?", why);
		return fb_usage_error("pattern");
	}
	/* In the background, the terminal's settings and input are the
	 * foreground's: touching them would stop us (SIGTTOU, SIGTTIN). */
	o.key = isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp();
	until_words(until, sizeof(until), &o);
	o.shown_arg = until;
	if (fb_cmd_scan(&list, FB_SCAN_NODE, false) < 0)
		return FB_EXIT_ERROR;
	r = fb_cmd_select(&list, 1, argv + optind, &sel, &nsel);
	ret = fb_exit_code(r, FB_FROM_SELECT);
	if (nsel == 1) {
		r = fb_pattern_show(sel[0], devdir, &p, &o);
		ret = r < 0 ? fb_exit_code(r, FB_FROM_LIBRARY) : ret;
	}
	if (fb_stop_signal) {
		char sig[32];

		ERR("%s: ended by %s%s", sel[0]->name,
		    fb_signal_name(fb_stop_signal, sig, sizeof(sig)),
		    r == -EINTR ? "; the screen, mode and colour map are put back" : "");
		ret = 128 + fb_stop_signal;
	}
	free(sel);
	fb_device_list_free(&list);
	return ret;
}

const struct fb_cmd fb_cmd_pattern = {
	.name = "pattern",
	.cmd = do_pattern,
	.help = "draw a test pattern in the framebuffer's format, then put the screen back",
};
