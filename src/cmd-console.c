/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl console: which virtual console fbcon draws where; move one. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "commands.h"
#include "console.h"
#include "fbclass.h"
#include "fbinfo_ioctl.h"
#include "jsonc-backend.h"
#include "jsonout.h"
#include "log.h"
#include "strutil.h"

/* fbcon's attributes are under SYSROOT/class/graphics/fbcon */
#define SYSROOT "/sys"

struct console_opts {
	const char *devdir;
	bool json, help, all;
};

static void console_usage(void)
{
	printf("Usage: fbclassctl console [options]\n"
	       "       fbclassctl console map CONSOLE DEVICE\n"
	       "       fbclassctl console blank DEVICE LEVEL\n"
	       "       fbclassctl console rotate [--all] [DEGREES]\n"
	       "       fbclassctl console cursor-blink [on|off]\n"
	       "\n"
	       "Without a command: each framebuffer with the virtual consoles fbcon draws\n"
	       "on it (FBIOGET_CON2FBMAP), the one in front marked.\n"
	       "\n"
	       "map CONSOLE DEVICE: draw CONSOLE (1 to 63, or tty1) on DEVICE (fb1, 1,\n"
	       "/dev/fb1) as con2fbmap does, read the map back, and when CONSOLE is the one\n"
	       "in front, have fbcon redraw it there (graphics mode and back).\n"
	       "blank DEVICE LEVEL: blank DEVICE (FBIOBLANK) at LEVEL: unblank, normal,\n"
	       "vsync, hsync or powerdown.\n"
	       "rotate [DEGREES]: fbcon's rotation of the console in front (0, 90, 180 or\n"
	       "270), set when DEGREES is given, then read back; with --all, of every\n"
	       "console.\n"
	       "cursor-blink [on|off]: whether fbcon's cursor blinks, set when given.\n"
	       "\n"
	       "Options:\n"
	       "  -J, --json      JSON output: {\"consoles\": [{\"console\": 1, \"fb\": 0,\n"
	       "                  \"front\": true}, ...]} (all 63)\n"
	       "  -a, --all       rotate: every console, not only the one in front\n"
	       "      --dev DIR   device nodes are under DIR (default /dev)\n"
	       "  -h, --help      show this help\n"
	       "\n"
	       "Exit status: 0 ok, 1 error (no fbcon, the kernel or driver refused), 2\n"
	       "usage (a console outside 1-63, an unknown level or angle), 4 no such\n"
	       "framebuffer.\n");
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
	print_line_escaped("tty%u: on %s%s", console, dev->name,
			   repainted ? ", repainted (in front)" : "");
	return 0;
}

static int console_parse(int argc, char *argv[], struct console_opts *o)
{
	static const struct option options[] = {
		FB_CMD_OPTION_JSON,
		FB_CMD_OPTION_DEV,
		FB_CMD_OPTION_HELP,
		{ "all", no_argument, NULL, 'a' },
		{},
	};
	const struct fb_cmd_common common = { &o->devdir, &o->json, &o->help };
	int c;

	while ((c = fb_cmd_getopt(argc, argv, "Jah", options, &common)) != -1) {
		if (c != 'a')
			return -EINVAL;
		o->all = true;
	}
	return 0;
}

/* The framebuffer a command works on: the first one (show), or the one
 * name names; an fd open on it, or -1 with *ret the exit status. */
static int console_open(const struct console_opts *o, struct fb_device_list *list,
			const char *name, const struct fb_device **dev, int *ret)
{
	const struct fb_device **sel = NULL;
	size_t nsel = 0;
	int fd;

	*dev = NULL;
	if (fb_cmd_scan(list, FB_SCAN_NODE, false) < 0) {
		*ret = FB_EXIT_ERROR;
		return -1;
	}
	if (list->n == 0) {
		ERR("console: no framebuffer: fbcon draws nowhere");
		*ret = FB_EXIT_ERROR;
		return -1;
	}
	*ret = FB_EXIT_OK;
	*dev = &list->devices[0];
	if (name) {
		*ret = fb_exit_code(fb_cmd_select(list, 1, (char *const *)&name, &sel,
						  &nsel),
				    FB_FROM_SELECT);
		*dev = nsel == 1 ? sel[0] : NULL;
		free(sel);
		if (!*dev)
			return -1;
	}
	fd = fb_hw_open(*dev, o->devdir, O_RDWR, true, NULL);
	if (fd < 0)
		*ret = fb_exit_code(log_errno(fd, "%s: cannot open %s/%s: %s",
					      (*dev)->name, o->devdir, (*dev)->devname,
					      strerror(-fd)),
				    FB_FROM_LIBRARY);
	return fd;
}

/* console blank DEVICE LEVEL */
static int console_blank(const struct fb_device *dev, int fd, const char *level_name)
{
	int level = fb_console_blank_level(level_name);
	int r = fb_console_blank(fd, level);

	if (r == -EINVAL)
		return log_errno(r, "%s: the driver does not blank (FBIOBLANK %s: %s)",
				 dev->name, level_name, strerror(-r));
	if (r < 0)
		return log_errno(r, "%s: cannot blank it (%s): %s", dev->name, level_name,
				 strerror(-r));
	print_line_escaped("%s: %s", dev->name,
			   level == FB_BLANK_UNBLANK ? "unblanked" : "blanked");
	return 0;
}

/* what fbcon's attribute attr said to what (rotate, cursor-blink) of
 * value (NULL: a read): no fbcon, no such attribute, a value it kept not */
static int fbcon_error(int r, const char *what, const char *attr, const char *value)
{
	struct stat st;

	if (r == -ENOENT && stat(SYSROOT "/class/graphics/fbcon", &st) < 0)
		return log_errno(r, "console %s: no fbcon (%s/class/graphics/fbcon)",
				 what, SYSROOT);
	if (r == -ENOENT)
		return log_errno(r, "console %s: fbcon has no %s", what, attr);
	if (r == -EIO)
		return log_errno(
			r,
			"console %s: fbcon's %s took %s, but %s reads back otherwise%s",
			what, attr, value, strcmp(what, "rotate") == 0 ? "rotate" : attr,
			strcmp(what, "rotate") == 0
				? " (a kernel without CONFIG_FRAMEBUFFER_CONSOLE_ROTATION keeps 0)"
				: "");
	return log_errno(r, "console %s%s%s: %s %s: %s", what, value ? " " : "",
			 value ? value : "", value ? "writing" : "reading", attr,
			 strerror(-r));
}

/* console rotate [--all] [DEGREES] */
static int console_rotate(const struct console_opts *o, const char *value)
{
	unsigned long long deg;
	int r;

	/* the operands were checked: 0, 90, 180 or 270; set, it was read
	 * back as deg, so only a read asks again */
	if (value && parse_decimal(value, 270, &deg) == 0) {
		r = fb_console_rotate_set(SYSROOT, (unsigned)deg, o->all);
		if (r < 0)
			return fbcon_error(r, "rotate", o->all ? "rotate_all" : "rotate",
					   value);
		r = (int)deg;
	} else {
		r = fb_console_rotate_get(SYSROOT);
		if (r < 0)
			return fbcon_error(r, "rotate", "rotate", NULL);
	}
	printf("rotate: %d (%s)\n", r,
	       value && o->all ? "every console" : "the console in front");
	return 0;
}

/* console cursor-blink [on|off] */
static int console_cursor_blink(const char *value)
{
	int r;

	if (value) { /* set and read back: it is value */
		r = fb_console_cursor_blink_set(SYSROOT, strcmp(value, "on") == 0);
		if (r < 0)
			return fbcon_error(r, "cursor-blink", "cursor_blink", value);
		r = strcmp(value, "on") == 0;
	} else {
		r = fb_console_cursor_blink_get(SYSROOT);
		if (r < 0)
			return fbcon_error(r, "cursor-blink", "cursor_blink", NULL);
	}
	printf("cursor-blink: %s\n", r ? "on" : "off");
	return 0;
}

/* The operands of each command, checked before anything is read: true,
 * or false with what is wrong with them in why ("console ..."). */
static bool console_operands(const struct console_opts *o, int argc, char *argv[],
			     char *why, size_t size)
{
	const char *cmd = argc > 0 ? argv[0] : "";
	unsigned long long v;

#define WHY(...) (snprintf(why, size, __VA_ARGS__), false)
	if (o->all && strcmp(cmd, "rotate") != 0)
		return WHY("console --all: only rotate takes it");
	if (!*cmd)
		return true;
	if (o->json)
		return WHY("console -J: only the map (no command) takes it");
	if (strcmp(cmd, "map") == 0) {
		if (argc != 3)
			return WHY("console map: give a console and a framebuffer");
		if (!parse_console(argv[1]))
			return WHY(
				"console map: \"%s\": not a console from 1 to %d (or tty1 to tty%d)",
				argv[1], FB_CONSOLE_MAX, FB_CONSOLE_MAX);
	} else if (strcmp(cmd, "blank") == 0) {
		if (argc != 3)
			return WHY("console blank: give a framebuffer and a level");
		if (fb_console_blank_level(argv[2]) < 0)
			return WHY(
				"console blank: \"%s\": a level is unblank, normal, vsync, hsync or powerdown",
				argv[2]);
	} else if (strcmp(cmd, "rotate") == 0) {
		if (argc > 2)
			return WHY("console rotate: at most one angle");
		if (argc == 2 && (parse_decimal(argv[1], 270, &v) < 0 || v % 90))
			return WHY("console rotate: \"%s\": an angle is 0, 90, 180 or 270",
				   argv[1]);
	} else if (strcmp(cmd, "cursor-blink") == 0) {
		if (argc > 2 || (argc == 2 && strcmp(argv[1], "on") != 0 &&
				 strcmp(argv[1], "off") != 0))
			return WHY("console cursor-blink: on or off");
	} else {
		return WHY(
			"console: unknown command \"%s\" (map, blank, rotate, cursor-blink, or none)",
			cmd);
	}
#undef WHY
	return true;
}

static int do_console(int argc, char *argv[])
{
	struct console_opts o = { .devdir = "/dev" };
	struct fb_device_list list = {};
	const struct fb_device *dev;
	char why[256];
	int fd, ret;

	if (console_parse(argc, argv, &o) < 0)
		return fb_usage_error("console");
	if (o.help) {
		console_usage();
		return FB_EXIT_OK;
	}
	if (o.json && fb_jsonc_open("console -J") < 0)
		return FB_EXIT_ERROR;
	argc -= optind;
	argv += optind;
	if (!console_operands(&o, argc, argv, why, sizeof(why))) {
		ERR("%s", why);
		return fb_usage_error("console");
	}
	if (argc > 0 && strcmp(argv[0], "rotate") == 0)
		return fb_exit_code(console_rotate(&o, argc > 1 ? argv[1] : NULL),
				    FB_FROM_LIBRARY);
	if (argc > 0 && strcmp(argv[0], "cursor-blink") == 0)
		return fb_exit_code(console_cursor_blink(argc > 1 ? argv[1] : NULL),
				    FB_FROM_LIBRARY);
	/* show: the first framebuffer; map CONSOLE DEVICE; blank DEVICE LEVEL */
	fd = console_open(&o, &list,
			  argc == 0			? NULL
			  : strcmp(argv[0], "map") == 0 ? argv[2]
							: argv[1],
			  &dev, &ret);
	if (fd >= 0) {
		if (argc == 0)
			ret = console_show(&o, &list, fd);
		else if (strcmp(argv[0], "map") == 0)
			ret = console_map(&o, dev, fd, parse_console(argv[1]));
		else
			ret = console_blank(dev, fd, argv[2]);
		ret = fb_exit_code(ret, FB_FROM_LIBRARY);
		close(fd);
	}
	fb_device_list_free(&list);
	return ret;
}

const struct fb_cmd fb_cmd_console = {
	.name = "console",
	.cmd = do_console,
	.help = "show which console fbcon draws on which framebuffer; move one",
};
