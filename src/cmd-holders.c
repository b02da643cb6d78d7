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
#include "display.h"
#include "holders.h"
#include "jsonc-backend.h"
#include "jsonout.h"
#include "log.h"
#include "nodes.h"
#include "macro.h"
#include "strutil.h"
#include "view.h"

static void holders_usage(void)
{
	printf("Usage: fbclassctl holders [options] [DEVICE...]\n"
	       "\n"
	       "List the processes that hold framebuffers open or mapped\n"
	       "(from /proc/PID/fd and /proc/PID/maps), and fbcon when it is bound.\n"
	       "DEVICE is fb0, 0, /dev/fb0 or /sys/class/graphics/fb0; default: all.\n"
	       "DEVICE cardN is a DRM card: its node, its render node, and the DRM master\n"
	       "(from debugfs, where it is mounted).\n"
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

/* On a terminal what a process holds wraps in place under its column. */
static void print_holders_of(const struct fb_holder_list *hl, size_t t)
{
	size_t width = terminal_width(STDOUT_FILENO);
	char how[512];

	for (size_t i = 0; i < hl->n; i++) {
		const struct fb_holder *h = &hl->holders[i];

		if (h->target != t)
			continue;
		/* any user names a process: comm is escaped */
		_cleanup_free_ char *comm = str_escape_text(h->comm);

		int at = printf("    pid %-7d %-16s ", (int)h->pid, comm ? comm : "?");

		fputs_escaped_wrapped(fb_holder_describe(h, how, sizeof(how)),
				      at > 0 ? (size_t)at : 0, 33, width, stdout);
		putchar('\n');
	}
}

static struct json_object *json_processes(const struct fb_holder_list *hl, size_t t)
{
	struct json_object *procs = json_object_new_array();
	char buf[512];

	for (size_t i = 0; i < hl->n; i++) {
		const struct fb_holder *h = &hl->holders[i];
		struct json_object *p, *fds;

		if (h->target != t)
			continue;
		p = json_object_new_object();
		fds = json_object_new_array();
		jsonout_add_uint(p, "pid", (uint64_t)h->pid);
		jsonout_add_string(p, "comm", h->comm);
		for (size_t j = 0; j < h->n_fds; j++)
			json_object_array_add(fds, json_object_new_int(h->fds[j]));
		json_object_object_add(p, "fds", fds);
		jsonout_add_uint(p, "mappings", h->n_mappings);
		jsonout_add_uint(p, "mmap_bytes", h->mmap_bytes);
		jsonout_add_string(p, "how", fb_holder_describe(h, buf, sizeof(buf)));
		json_object_array_add(procs, p);
	}
	return procs;
}

static void print_human(const struct fb_device *dev, size_t t,
			const struct fb_holder_list *hl, const struct kernel_user *k,
			const struct fb_fbcon_state *st)
{
	size_t n = fb_holders_count(hl, t);

	fputs_escaped(dev->name, stdout);
	printf(" (%u:%u): ", major(dev->devnum), minor(dev->devnum));
	if (!n && !k->fbcon) {
		printf("no holders\n");
		return;
	}
	printf("%zu process%s%s\n", n, n == 1 ? "" : "es", k->fbcon ? ", fbcon" : "");
	print_holders_of(hl, t);
	_cleanup_free_ char *vtcon = str_escape_text(st->vtcon);
	if (k->fbcon && !k->map_error)
		printf("    kernel      %-16s %s bound, consoles %u-%u\n", "fbcon",
		       vtcon ? vtcon : "?", k->first, k->last);
	else if (k->fbcon)
		printf("    kernel      %-16s %s bound, console map unknown (%s)\n",
		       "fbcon", vtcon ? vtcon : "?", strerror(-k->map_error));
}

static struct json_object *json_device(const struct fb_device *dev, size_t t,
				       const struct fb_holder_list *hl,
				       const struct kernel_user *k,
				       const struct fb_fbcon_state *st)
{
	struct json_object *o = json_object_new_object();
	struct json_object *kern = json_object_new_array();
	char buf[512];

	jsonout_add_string(o, "name", dev->name);
	snprintf(buf, sizeof(buf), "%u:%u", major(dev->devnum), minor(dev->devnum));
	jsonout_add_string(o, "maj:min", buf);
	json_object_object_add(o, "processes", json_processes(hl, t));
	if (k->fbcon) {
		struct json_object *u = json_object_new_object();

		jsonout_add_string(u, "user", "fbcon");
		jsonout_add_string(u, "vtconsole", st->vtcon);
		if (k->map_error) {
			json_object_object_add(u, "first_console", NULL);
			json_object_object_add(u, "last_console", NULL);
		} else {
			jsonout_add_uint(u, "first_console", k->first);
			jsonout_add_uint(u, "last_console", k->last);
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
	enum { OPT_PROC = FB_CMD_OPT_OWN };
	static const struct option options[] = {
		FB_CMD_OPTION_JSON,
		FB_CMD_OPTION_DEV,
		{ "proc", required_argument, NULL, OPT_PROC },
		FB_CMD_OPTION_HELP,
		{},
	};
	const struct fb_cmd_common common = { &o->devdir, &o->json, &o->help };
	int c;

	*o = (struct holders_opts){ .devdir = "/dev", .procdir = "/proc" };
	while ((c = fb_cmd_getopt(argc, argv, "Jh", options, &common)) != -1) {
		if (c != OPT_PROC)
			return -EINVAL;
		o->procdir = optarg;
	}
	return 0;
}

/* What was named: framebuffers, and DRM cards (cardN: its node and its
 * render node).  The holder targets are the framebuffers first, then two
 * per card. */
struct holders_sel {
	const struct fb_device **fbs;
	size_t n_fbs;
	const struct drm_card **cards;
	size_t n_cards;
};

static size_t card_target(const struct holders_sel *s, size_t card, bool render)
{
	return s->n_fbs + 2 * card + render;
}

/* The processes holding the chosen devices, and fbcon.  0 or -errno
 * (said). */
static int holders_scan(const struct holders_opts *o, const struct holders_sel *s,
			struct fb_holder_list *hl, struct fb_fbcon_state *st)
{
	size_t n = s->n_fbs + 2 * s->n_cards;
	_cleanup_free_ struct fb_holder_target *targets = calloc(n + 1, sizeof(*targets));
	int r;

	if (!targets)
		return log_errno(-ENOMEM, "holders: %m");
	for (size_t i = 0; i < s->n_fbs; i++)
		fb_holder_target_init(&targets[i], s->fbs[i], o->devdir);
	for (size_t i = 0; i < s->n_cards; i++) {
		const struct drm_card *c = s->cards[i];
		char path[4096];

		snprintf(path, sizeof(path), "%s/dri/%s", o->devdir, c->name);
		fb_holder_target_chrdev(&targets[card_target(s, i, false)], c->name,
					c->devnum, path);
		snprintf(path, sizeof(path), "%s/dri/%s", o->devdir,
			 c->render ? c->render : "-");
		/* no render node: a target no process can hold */
		fb_holder_target_chrdev(&targets[card_target(s, i, true)],
					c->render ? c->render : "-",
					c->render ? c->render_devnum : 0, path);
	}
	r = fb_holders_scan(o->procdir, targets, n, hl);
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

/* The DRM master of a card, from debugfs: 0 and *master (NULL: none), or
 * -errno when it cannot be told. */
static int card_master(const struct drm_card *c, struct drm_client *master)
{
	_cleanup_free_ struct drm_client *v = NULL;
	size_t n = 0;
	int r = drm_clients_read("/sys/kernel/debug", minor(c->devnum), &v, &n);

	memset(master, 0, sizeof(*master));
	for (size_t i = 0; r == 0 && i < n; i++)
		if (v[i].master)
			*master = v[i];
	return r;
}

/* Why the DRM master cannot be told, r < 0: the file and the cause. */
static void master_unknown(const struct drm_card *c, int r, char *buf, size_t len)
{
	snprintf(buf, len, "/sys/kernel/debug/dri/%u/clients: %s%s", minor(c->devnum),
		 strerror(-r), r == -ENOENT ? "; debugfs mounted, as root, tells" : "");
}

/* "cannot tell (why)" and a new line; on a terminal wrapped in place from
 * column start. */
static void print_cannot_tell(const char *why, size_t start)
{
	_cleanup_free_ char *line = NULL;

	if (asprintf(&line, "cannot tell (%s)", why) < 0) {
		printf("cannot tell (%s)\n", why);
		return;
	}
	fputs_escaped_wrapped(line, start, start, terminal_width(STDOUT_FILENO), stdout);
	putchar('\n');
}

static void print_card(const struct holders_sel *s, size_t i,
		       const struct fb_holder_list *hl)
{
	const struct drm_card *c = s->cards[i];
	struct drm_client master;
	int r = card_master(c, &master);

	for (int render = 0; render < 2; render++) {
		size_t t = card_target(s, i, render);
		size_t n = fb_holders_count(hl, t);
		dev_t rdev = render ? c->render_devnum : c->devnum;

		if (render && !c->render)
			break;
		fputs(render ? "  " : "", stdout);
		fputs_escaped(render ? c->render : c->name, stdout);
		printf(" (%u:%u): ", major(rdev), minor(rdev));
		if (n)
			printf("%zu process%s\n", n, n == 1 ? "" : "es");
		else
			printf("no holders\n");
		print_holders_of(hl, t);
	}
	if (r < 0) {
		char why[160];

		master_unknown(c, r, why, sizeof(why));
		fputs("  DRM master: ", stdout);
		print_cannot_tell(why, 14);
	} else if (master.pid) {
		printf("  DRM master: pid %d (", (int)master.pid);
		fputs_escaped(master.command, stdout);
		puts(")");
	} else
		printf("  DRM master: none\n");
}

static struct json_object *json_card(const struct holders_sel *s, size_t i,
				     const struct fb_holder_list *hl)
{
	const struct drm_card *c = s->cards[i];
	struct json_object *o = json_object_new_object();
	struct drm_client master;
	int r = card_master(c, &master);
	char buf[64];

	jsonout_add_string(o, "name", c->name);
	snprintf(buf, sizeof(buf), "%u:%u", major(c->devnum), minor(c->devnum));
	jsonout_add_string(o, "maj:min", buf);
	json_object_object_add(o, "processes",
			       json_processes(hl, card_target(s, i, false)));
	if (c->render) {
		struct json_object *ro = json_object_new_object();

		jsonout_add_string(ro, "name", c->render);
		snprintf(buf, sizeof(buf), "%u:%u", major(c->render_devnum),
			 minor(c->render_devnum));
		jsonout_add_string(ro, "maj:min", buf);
		json_object_object_add(ro, "processes",
				       json_processes(hl, card_target(s, i, true)));
		json_object_object_add(o, "render", ro);
	} else {
		json_object_object_add(o, "render", NULL);
	}
	if (r < 0) {
		struct json_object *m = json_object_new_object();
		char why[160], sentence[192];

		/* the sentence the text says, not errno's words alone */
		master_unknown(c, r, why, sizeof(why));
		snprintf(sentence, sizeof(sentence), "cannot tell the DRM master: %s",
			 why);
		jsonout_add_string(m, "error", sentence);
		json_object_object_add(o, "master", m);
	} else if (master.pid) {
		struct json_object *m = json_object_new_object();

		jsonout_add_uint(m, "pid", (uint64_t)master.pid);
		jsonout_add_string(m, "comm", master.command);
		json_object_object_add(o, "master", m);
	} else {
		json_object_object_add(o, "master", NULL);
	}
	return o;
}

/* One entry per device, as text or as JSON.  0 or -errno. */
static int holders_print(const struct holders_opts *o, const struct holders_sel *s,
			 const struct fb_holder_list *hl, const struct fb_fbcon_state *st)
{
	struct json_object *doc = NULL, *arr = NULL, *cards = NULL;
	int r = 0;

	if (o->json) {
		doc = json_object_new_object();
		arr = json_object_new_array();
		json_object_object_add(doc, "framebuffers", arr);
		jsonout_add_uint(doc, "processes_scanned", hl->n_processes);
		jsonout_add_uint(doc, "processes_uninspectable", hl->n_uninspectable);
		if (s->n_cards) {
			cards = json_object_new_array();
			json_object_object_add(doc, "cards", cards);
		}
	}
	for (size_t i = 0; i < s->n_fbs; i++) {
		struct kernel_user k;

		kernel_user_load(&k, st, s->fbs[i], o->devdir);
		if (o->json)
			json_object_array_add(arr, json_device(s->fbs[i], i, hl, &k, st));
		else
			print_human(s->fbs[i], i, hl, &k, st);
	}
	for (size_t i = 0; i < s->n_cards; i++) {
		if (o->json)
			json_object_array_add(cards, json_card(s, i, hl));
		else
			print_card(s, i, hl);
	}
	if (hl->n_uninspectable)
		WRN("%zu of %zu process%s could not be inspected (permission denied, first pid %d): their holds are unknown%s",
		    hl->n_uninspectable, hl->n_processes,
		    hl->n_processes == 1 ? "" : "es", (int)hl->first_uninspectable,
		    geteuid() == 0 ? "" : "; run as root to see them");
	if (o->json)
		r = jsonout_print(doc);
	json_object_put(doc);
	return r;
}

/* The cardN arguments go to the cards, the others to the framebuffers:
 * argv is reordered, framebuffers first.  0 or -errno (said). */
static int holders_select(int argc, char *argv[], const struct fb_device_list *list,
			  const struct drm_list *drm, struct holders_sel *s)
{
	int n_fb = 0, r = 0;

	s->cards = calloc((size_t)argc + 1, sizeof(*s->cards));
	if (!s->cards)
		return log_errno(-ENOMEM, "holders: %m");
	for (int i = 0; i < argc; i++) {
		const struct drm_card *c = NULL;

		for (size_t k = 0; k < drm->n && !c; k++)
			if (strcmp(drm->cards[k].name, argv[i]) == 0)
				c = &drm->cards[k];
		if (c)
			s->cards[s->n_cards++] = c;
		else
			argv[n_fb++] = argv[i];
	}
	/* only cards named: no framebuffer */
	if (n_fb || !s->n_cards)
		r = fb_cmd_select(list, n_fb, argv, &s->fbs, &s->n_fbs);
	return r;
}

static int do_holders(int argc, char *argv[])
{
	struct holders_opts o;
	struct fb_device_list list = {};
	struct drm_list drm = {};
	struct holders_sel sel = {};
	struct fb_holder_list hl = {};
	struct fb_fbcon_state st = {};
	int r, ret;

	if (holders_parse_args(argc, argv, &o) < 0)
		return fb_usage_error("holders");
	if (o.help) {
		holders_usage();
		return FB_EXIT_OK;
	}
	if (o.json && fb_jsonc_open("holders -J") < 0)
		return FB_EXIT_ERROR;
	if (fb_cmd_scan(&list, FB_SCAN_NODE, !o.json && optind == argc) < 0)
		return FB_EXIT_ERROR;
	/* cards only when one is named: their scan reads /sys/class/drm */
	r = 0;
	for (int i = optind; i < argc && r == 0; i++)
		if (strncmp(argv[i], "card", 4) == 0 && !drm.n)
			r = fb_cmd_scan_drm(&drm, DRM_SCAN_ALL);
	if (r == 0)
		r = holders_select(argc - optind, argv + optind, &list, &drm, &sel);
	ret = fb_exit_code(r, FB_FROM_SELECT);
	if (r != -ENOMEM && (holders_scan(&o, &sel, &hl, &st) < 0 ||
			     holders_print(&o, &sel, &hl, &st) < 0))
		ret = FB_EXIT_ERROR;
	fb_holder_list_free(&hl);
	free(sel.fbs);
	free(sel.cards);
	display_list_free(&drm);
	fb_device_list_free(&list);
	return ret;
}

const struct fb_cmd fb_cmd_holders = {
	.name = "holders",
	.cmd = do_holders,
	.help = "list processes and kernel users holding framebuffers",
};
