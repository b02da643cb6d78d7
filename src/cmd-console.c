/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl console: which virtual console fbcon draws where; move one. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "commands.h"
#include "console.h"
#include "fbclass.h"
#include "fbinfo_ioctl.h"
#include "jsonout.h"
#include "log.h"
#include "strutil.h"

struct console_opts {
	const char *devdir;
	bool json, help;
};

static void console_usage(void)
{
	printf("Usage: fbclassctl console [options]\n"
	       "       fbclassctl console map CONSOLE DEVICE\n"
	       "\n"
	       "Without a command: each framebuffer with the virtual consoles fbcon draws\n"
	       "on it (FBIOGET_CON2FBMAP), the one in front marked.\n"
	       "\n"
	       "map CONSOLE DEVICE: draw CONSOLE (1 to 63, or tty1) on DEVICE (fb1, 1,\n"
	       "/dev/fb1) as con2fbmap does, read the map back, and when CONSOLE is the one\n"
	       "in front, have fbcon redraw it there (graphics mode and back).\n"
	       "\n"
	       "Options:\n"
	       "  -J, --json      JSON output: {\"consoles\": [{\"console\": 1, \"fb\": 0,\n"
	       "                  \"front\": true}, ...]} (all 63)\n"
	       "      --dev DIR   device nodes are under DIR (default /dev)\n"
	       "  -h, --help      show this help\n"
	       "\n"
	       "Exit status: 0 ok, 1 error (no fbcon, the kernel refused), 2 usage (a\n"
	       "console outside 1-63), 4 no such framebuffer.\n");
}

/* "3" or "tty3": the console number, 0 when it is neither */
static unsigned parse_console(const char *s)
{
	unsigned long v;
	char *end;

	if (strncmp(s, "tty", 3) == 0)
		s += 3;
	if (*s < '0' || *s > '9')
		return 0;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < 1 || v > FB_CONSOLE_MAX)
		return 0;
	return (unsigned)v;
}

/* "tty1-tty3, tty5": the consoles of map on fb */
static void print_ranges(const int map[FB_CONSOLE_MAX], int fb, int front)
{
	const char *sep = "";

	for (unsigned i = 0; i < FB_CONSOLE_MAX; i++) {
		unsigned j = i;

		if (map[i] != fb)
			continue;
		while (j + 1 < FB_CONSOLE_MAX && map[j + 1] == fb)
			j++;
		if (j == i)
			printf("%stty%u", sep, i + 1);
		else
			printf("%stty%u-tty%u", sep, i + 1, j + 1);
		sep = ", ";
		i = j;
	}
	if (front > 0 && map[front - 1] == fb)
		printf(" (tty%d in front)", front);
	printf("\n");
}

static int console_show(const struct console_opts *o, const struct fb_device_list *list,
			int fd)
{
	int map[FB_CONSOLE_MAX], front, r;

	r = fb_console_map_read(fd, map);
	if (r < 0)
		return log_errno(
			r, "%s: cannot read fbcon's console map (is fbcon there?): %s",
			list->devices[0].name, strerror(-r));
	front = fb_console_front(o->devdir);
	if (o->json) {
		json_object *doc = json_object_new_object(), *a = json_object_new_array();

		for (unsigned i = 0; i < FB_CONSOLE_MAX; i++) {
			json_object *c = json_object_new_object();

			jsonout_add_uint(c, "console", i + 1);
			jsonout_add_uint(c, "fb", (unsigned)map[i]);
			jsonout_add_bool(c, "front", front == (int)i + 1);
			json_object_array_add(a, c);
		}
		json_object_object_add(doc, "consoles", a);
		r = jsonout_print(doc);
		json_object_put(doc);
		return r;
	}
	for (size_t k = 0; k < list->n; k++) {
		int idx = (int)minor(list->devices[k].devnum);
		bool any = false;

		for (unsigned i = 0; i < FB_CONSOLE_MAX; i++)
			any = any || map[i] == idx;
		fputs_escaped(list->devices[k].name, stdout);
		/* the name in a column of 7, as list's NAME */
		printf("%*s",
		       strlen(list->devices[k].name) < 6
			       ? (int)(7 - strlen(list->devices[k].name))
			       : 1,
		       "");
		if (any)
			print_ranges(map, idx, front);
		else
			printf("no console\n");
	}
	return 0;
}

static int console_map(const struct console_opts *o, const struct fb_device *dev, int fd,
		       unsigned console)
{
	unsigned idx = minor(dev->devnum);
	bool repainted;
	int r = fb_console_map_set(fd, o->devdir, console, idx, &repainted);

	if (r == -EIO)
		return log_errno(
			r,
			"tty%u: fbcon did not move it to %s (it cannot hold a console?)",
			console, dev->name);
	if (r < 0)
		return log_errno(r, "tty%u: cannot move it to %s: %s", console, dev->name,
				 strerror(-r));
	printf("tty%u: on %s%s\n", console, dev->name,
	       repainted ? ", repainted (in front)" : "");
	return 0;
}

static int console_parse(int argc, char *argv[], struct console_opts *o)
{
	static const struct option options[] = {
		FB_CMD_OPTION_JSON,
		FB_CMD_OPTION_DEV,
		FB_CMD_OPTION_HELP,
		{},
	};
	const struct fb_cmd_common common = { &o->devdir, &o->json, &o->help };
	int c;

	/* it has no option of its own: anything but the end is getopt's '?' */
	c = fb_cmd_getopt(argc, argv, "Jh", options, &common);
	return c == -1 ? 0 : -EINVAL;
}

static int do_console(int argc, char *argv[])
{
	struct console_opts o = { .devdir = "/dev" };
	struct fb_device_list list = {};
	const struct fb_device **sel = NULL;
	const struct fb_device *dev;
	unsigned console = 0;
	size_t nsel = 0;
	int fd, ret;

	if (console_parse(argc, argv, &o) < 0)
		return fb_usage_error("console");
	if (o.help) {
		console_usage();
		return FB_EXIT_OK;
	}
	argc -= optind;
	argv += optind;
	if (argc > 0 && strcmp(argv[0], "map") != 0) {
		ERR("console: unknown command \"%s\" (map, or none)", argv[0]);
		return fb_usage_error("console");
	}
	if (argc > 0 && argc != 3) {
		ERR("console map: give a console and a framebuffer");
		return fb_usage_error("console");
	}
	if (argc > 0 && !(console = parse_console(argv[1]))) {
		ERR("console map: \"%s\": not a console from 1 to %d (or tty1 to tty%d)",
		    argv[1], FB_CONSOLE_MAX, FB_CONSOLE_MAX);
		return fb_usage_error("console");
	}
	if (argc > 0 && o.json) {
		ERR("console map: -J is for the map, not a move");
		return fb_usage_error("console");
	}
	if (fb_cmd_scan(&list, FB_SCAN_NODE, false) < 0)
		return FB_EXIT_ERROR;
	if (list.n == 0) {
		ERR("console: no framebuffer: fbcon draws nowhere");
		fb_device_list_free(&list);
		return FB_EXIT_ERROR;
	}
	ret = FB_EXIT_OK;
	dev = &list.devices[0];
	if (argc > 0) {
		ret = fb_exit_code(fb_cmd_select(&list, 1, argv + 2, &sel, &nsel),
				   FB_FROM_SELECT);
		dev = nsel == 1 ? sel[0] : NULL;
	}
	if (dev) {
		fd = fb_hw_open(dev, o.devdir, O_RDWR, true, NULL);
		if (fd < 0)
			ret = fb_exit_code(log_errno(fd, "%s: cannot open %s/%s: %s",
						     dev->name, o.devdir, dev->devname,
						     strerror(-fd)),
					   FB_FROM_LIBRARY);
		else {
			ret = fb_exit_code(console ? console_map(&o, dev, fd, console)
						   : console_show(&o, &list, fd),
					   FB_FROM_LIBRARY);
			close(fd);
		}
	}
	free(sel);
	fb_device_list_free(&list);
	return ret;
}

const struct fb_cmd fb_cmd_console = {
	.name = "console",
	.cmd = do_console,
	.help = "show which console fbcon draws on which framebuffer; move one",
};
