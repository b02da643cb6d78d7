/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl holders: processes and kernel users holding framebuffers. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "commands.h"
#include "holders.h"
#include "json-util.h"
#include "log.h"
#include "macro.h"
#include "view.h"

static void holders_usage(void)
{
	printf("Usage: fbclassctl holders [options] [DEVICE...]\n"
	       "\n"
	       "List the processes that hold framebuffers open or mapped\n"
	       "(from /proc/PID/fd and /proc/PID/maps), and fbcon when it is bound.\n"
	       "DEVICE is fb0, 0, /dev/fb0 or /sys/class/graphics/fb0; default: all.\n"
	       "\n"
	       "Options:\n"
	       "  -J, --json        JSON output\n"
	       "      --dev DIR     device directory (default /dev)\n"
	       "      --proc DIR    process directory (default /proc; for tests)\n"
	       "  -h, --help        show this help\n");
}

struct kernel_user {
	bool fbcon;
	unsigned first, last; /* consoles, 0 when unknown */
	int map_error; /* -errno when the map could not be read */
};

static void kernel_user_load(struct kernel_user *k, const struct fb_fbcon_state *st,
			     const struct fb_device *dev, const char *devdir)
{
	int r;

	memset(k, 0, sizeof(*k));
	if (!st->bound)
		return;
	r = fb_fbcon_consoles(dev, devdir, &k->first, &k->last);
	if (r > 0) {
		k->fbcon = true;
	} else if (r < 0) {
		/* fbcon is bound but we cannot tell to which framebuffer. */
		k->fbcon = true;
		k->map_error = r;
	}
}

static void print_human(const struct fb_device *dev, size_t t,
			const struct fb_holder_list *hl, const struct kernel_user *k,
			const struct fb_fbcon_state *st)
{
	size_t n = fb_holders_count(hl, t);
	char how[512];

	printf("%s (%u:%u): ", dev->name, major(dev->devnum), minor(dev->devnum));
	if (!n && !k->fbcon) {
		printf("no holders\n");
		return;
	}
	printf("%zu process%s%s\n", n, n == 1 ? "" : "es", k->fbcon ? ", fbcon" : "");
	for (size_t i = 0; i < hl->n; i++) {
		const struct fb_holder *h = &hl->holders[i];

		if (h->target != t)
			continue;
		printf("    pid %-7d %-16s %s\n", (int)h->pid, h->comm,
		       fb_holder_describe(h, how, sizeof(how)));
	}
	if (k->fbcon && !k->map_error)
		printf("    kernel      %-16s %s bound, consoles %u-%u\n", "fbcon",
		       st->vtcon, k->first, k->last);
	else if (k->fbcon)
		printf("    kernel      %-16s %s bound, console map unknown (%s)\n",
		       "fbcon", st->vtcon, strerror(-k->map_error));
}

static struct json_object *json_device(const struct fb_device *dev, size_t t,
				       const struct fb_holder_list *hl,
				       const struct kernel_user *k,
				       const struct fb_fbcon_state *st)
{
	struct json_object *o = json_object_new_object(),
			   *procs = json_object_new_array();
	struct json_object *kern = json_object_new_array();
	char buf[512];

	json_add_string(o, "name", dev->name);
	snprintf(buf, sizeof(buf), "%u:%u", major(dev->devnum), minor(dev->devnum));
	json_add_string(o, "maj:min", buf);
	for (size_t i = 0; i < hl->n; i++) {
		const struct fb_holder *h = &hl->holders[i];
		struct json_object *p, *fds;

		if (h->target != t)
			continue;
		p = json_object_new_object();
		fds = json_object_new_array();
		json_add_uint(p, "pid", (uint64_t)h->pid);
		json_add_string(p, "comm", h->comm);
		for (size_t j = 0; j < h->n_fds; j++)
			json_object_array_add(fds, json_object_new_int(h->fds[j]));
		json_object_object_add(p, "fds", fds);
		json_add_uint(p, "mappings", h->n_mappings);
		json_add_uint(p, "mmap_bytes", h->mmap_bytes);
		json_add_string(p, "how", fb_holder_describe(h, buf, sizeof(buf)));
		json_object_array_add(procs, p);
	}
	json_object_object_add(o, "processes", procs);
	if (k->fbcon) {
		struct json_object *u = json_object_new_object();

		json_add_string(u, "user", "fbcon");
		json_add_string(u, "vtconsole", st->vtcon);
		if (k->map_error) {
			json_object_object_add(u, "first_console", NULL);
			json_object_object_add(u, "last_console", NULL);
		} else {
			json_add_uint(u, "first_console", k->first);
			json_add_uint(u, "last_console", k->last);
		}
		json_object_array_add(kern, u);
	}
	json_object_object_add(o, "kernel", kern);
	return o;
}

struct holders_opts {
	const char *devdir, *procdir;
	bool json, help;
};

/* 0, or -EINVAL for a usage error. */
static int holders_parse_args(int argc, char *argv[], struct holders_opts *o)
{
	enum { OPT_DEV = 0x100, OPT_PROC };
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "dev", required_argument, NULL, OPT_DEV },
		{ "proc", required_argument, NULL, OPT_PROC },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	int c;

	*o = (struct holders_opts){ .devdir = "/dev", .procdir = "/proc" };
	while ((c = getopt_long(argc, argv, "Jh", options, NULL)) != -1) {
		switch (c) {
		case 'J':
			o->json = true;
			break;
		case OPT_DEV:
			o->devdir = optarg;
			break;
		case OPT_PROC:
			o->procdir = optarg;
			break;
		case 'h':
			o->help = true;
			return 0;
		default:
			return -EINVAL;
		}
	}
	return 0;
}

/* The processes holding the chosen devices, and fbcon.  0 or -errno
 * (said). */
static int holders_scan(const struct holders_opts *o, const struct fb_device **sel,
			size_t nsel, struct fb_holder_list *hl, struct fb_fbcon_state *st)
{
	_cleanup_free_ struct fb_holder_target *targets =
		calloc(nsel + 1, sizeof(*targets));
	int r;

	if (!targets)
		return log_errno(-ENOMEM, "holders: %m");
	for (size_t i = 0; i < nsel; i++)
		fb_holder_target_init(&targets[i], sel[i], o->devdir);
	r = fb_holders_scan(o->procdir, targets, nsel, hl);
	if (r < 0)
		return log_errno(r, "%s: cannot scan processes: %m", o->procdir);
	r = fb_fbcon_read("/sys", st);
	if (r < 0) {
		log_warn_errno(r,
			       "/sys/class/vtconsole: cannot read: %m; fbcon not checked");
		memset(st, 0, sizeof(*st));
	}
	return 0;
}

/* One entry per device, as text or as JSON.  0 or -errno. */
static int holders_print(const struct holders_opts *o, const struct fb_device **sel,
			 size_t nsel, const struct fb_holder_list *hl,
			 const struct fb_fbcon_state *st)
{
	struct json_object *doc = NULL, *arr = NULL;
	int r = 0;

	if (o->json) {
		doc = json_object_new_object();
		arr = json_object_new_array();
		json_object_object_add(doc, "framebuffers", arr);
		json_add_uint(doc, "processes_scanned", hl->n_processes);
		json_add_uint(doc, "processes_uninspectable", hl->n_uninspectable);
	}
	for (size_t i = 0; i < nsel; i++) {
		struct kernel_user k;

		kernel_user_load(&k, st, sel[i], o->devdir);
		if (o->json)
			json_object_array_add(arr, json_device(sel[i], i, hl, &k, st));
		else
			print_human(sel[i], i, hl, &k, st);
	}
	if (hl->n_uninspectable)
		WRN("%zu of %zu processes could not be inspected (permission denied, first pid %d): their holds are unknown%s",
		    hl->n_uninspectable, hl->n_processes, (int)hl->first_uninspectable,
		    geteuid() == 0 ? "" : "; run as root to see them");
	if (o->json)
		r = json_print(doc);
	json_object_put(doc);
	return r;
}

static int do_holders(int argc, char *argv[])
{
	struct holders_opts o;
	struct fb_device_list list = {};
	const struct fb_device **sel = NULL;
	struct fb_holder_list hl = {};
	struct fb_fbcon_state st = {};
	size_t nsel = 0;
	int r, ret;

	if (holders_parse_args(argc, argv, &o) < 0)
		return fb_usage_error("holders");
	if (o.help) {
		holders_usage();
		return FB_EXIT_OK;
	}
	if (fb_cmd_scan(&list, FB_SCAN_NODE, !o.json && optind == argc) < 0)
		return FB_EXIT_ERROR;
	r = fb_cmd_select(&list, argc - optind, argv + optind, &sel, &nsel);
	ret = fb_exit_code(r);
	if (r != -ENOMEM && (holders_scan(&o, sel, nsel, &hl, &st) < 0 ||
			     holders_print(&o, sel, nsel, &hl, &st) < 0))
		ret = FB_EXIT_ERROR;
	fb_holder_list_free(&hl);
	free(sel);
	fb_device_list_free(&list);
	return ret;
}

const struct fb_cmd fb_cmd_holders = {
	.name = "holders",
	.cmd = do_holders,
	.help = "list processes and kernel users holding framebuffers",
};
