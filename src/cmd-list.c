/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl list: one line per framebuffer, lsblk style. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "commands.h"
#include "jsonc-backend.h"
#include "jsonout.h"
#include "kms.h"
#include "log.h"
#include "nodes.h"
#include "scanout.h"
#include "view.h"
#include "strutil.h"
#include "table.h"

enum {
	COL_NAME,
	COL_MAJMIN,
	COL_ID,
	COL_DRIVER,
	COL_MODULE,
	COL_SUBSYSTEM,
	COL_PATH,
	COL_RES,
	COL_VIRT,
	COL_BPP,
	COL_STRIDE,
	COL_SIZE,
	COL_FORMAT,
	COL_VISUAL,
	COL_NODE,
	COL_STATE,
	COL_KIND,
	COL_CARD,
	COL_CONNECTOR,
	COL_STATUS,
	COL_MONITOR,
	COL_SHOWN,
	COL_REASON,
};

struct colinfo {
	const char *name;
	double whint;
	bool right;
	bool number;
	bool trunc; /* long: cut to fit a terminal, never wrapped onto a line of its own */
	const char *help;
};

static const struct colinfo infos[] = {
	[COL_NAME] = { "NAME", 1, false, false, false, "kernel name (sysfs)" },
	[COL_MAJMIN] = { "MAJ:MIN", 6, false, false, false, "major:minor device number" },
	[COL_ID] = { "ID", 0.1, false, false, true,
		     "identification: fix.id, else sysfs name" },
	[COL_DRIVER] = { "DRIVER", 1, false, false, false, "driver of the parent device" },
	[COL_MODULE] = { "MODULE", 1, false, false, false,
			 "kernel module of that driver" },
	[COL_SUBSYSTEM] = { "SUBSYSTEM", 1, false, false, false,
			    "bus of the parent device (pci, platform, usb)" },
	[COL_PATH] = { "PATH", 0.1, false, false, true,
		       "path id, as in /dev/fb/by-path (udev ID_PATH)" },
	[COL_RES] = { "RES", 9, true, false, false, "visible resolution WxH" },
	[COL_VIRT] = { "VIRT", 9, true, false, false, "virtual resolution WxH" },
	[COL_BPP] = { "BPP", 3, true, true, false, "bits per pixel" },
	[COL_STRIDE] = { "STRIDE", 6, true, true, false, "bytes per line (line_length)" },
	[COL_SIZE] = { "SIZE", 5, true, true, false, "framebuffer memory (smem_len)" },
	[COL_FORMAT] = { "FORMAT", 8, false, false, false,
			 "pixel format, DRM fourcc style (XRGB8888, RGB565, C8)" },
	[COL_VISUAL] = { "VISUAL", 1, false, false, false,
			 "visual (TRUECOLOR, PSEUDOCOLOR, ...)" },
	[COL_NODE] = { "NODE", 0.1, false, false, true,
		       "device node, when it exists and is correct" },
	[COL_STATE] = { "STATE", 1, false, false, false,
			"power state (running, suspended)" },
	[COL_KIND] = { "KIND", 8, false, false, false, "firmware, drm, fbdev or virtual" },
	[COL_CARD] = { "CARD", 5, false, false, false,
		       "DRM card that drives the same device" },
	[COL_CONNECTOR] = { "CONNECTOR", 0.1, false, false, true,
			    "connected connectors of that card" },
	[COL_STATUS] = { "STATUS", 1, false, false, false,
			 "connected, disconnected or unknown (the card's connectors)" },
	[COL_MONITOR] = { "MONITOR", 0.1, false, false, true,
			  "monitor on those connectors, from their EDID" },
	[COL_SHOWN] = { "SHOWN", 1, false, false, false,
			"yes, no or unknown: is this buffer what a CRTC scans out now" },
	[COL_REASON] = { "REASON", 0.1, false, false, true,
			 "why a DRM card has no framebuffer (--drm)" },
};

static const int default_columns[] = { COL_NAME, COL_MAJMIN, COL_ID,
				       COL_KIND, COL_DRIVER, COL_RES,
				       COL_BPP,	 COL_FORMAT, COL_NODE };

/* --connectors: one line per connector */
enum {
	CCOL_CONNECTOR,
	CCOL_CARD,
	CCOL_STATUS,
	CCOL_MONITOR,
	CCOL_CRTC,
	CCOL_MODE,
	CCOL_SCANOUT,
	CCOL_OWNER,
};

static const struct colinfo conn_infos[] = {
	[CCOL_CONNECTOR] = { "CONNECTOR", 1, false, false, false,
			     "connector, as sysfs names it (card0-Virtual-1)" },
	[CCOL_CARD] = { "CARD", 5, false, false, false, "its DRM card" },
	[CCOL_STATUS] = { "STATUS", 1, false, false, false,
			  "connected, disconnected or unknown" },
	[CCOL_MONITOR] = { "MONITOR", 0.1, false, false, true,
			   "the monitor, from its EDID" },
	[CCOL_CRTC] = { "CRTC", 4, true, true, false,
			"the CRTC that drives it (KMS object id)" },
	[CCOL_MODE] = { "MODE", 1, false, false, false,
			"the active mode WxH@Hz; empty when it is off" },
	[CCOL_SCANOUT] = { "SCANOUT", 0.1, false, false, true,
			   "what it shows: fbN (the fbdev emulation) or FB ID WxH FOURCC" },
	[CCOL_OWNER] = { "OWNER", 0.1, false, false, true,
			 "who made that FB: comm[pid], [fbcon] or unknown" },
};

static const int conn_default_columns[] = { CCOL_CONNECTOR, CCOL_CARD, CCOL_STATUS,
					    CCOL_MONITOR,   CCOL_CRTC, CCOL_MODE,
					    CCOL_SCANOUT,   CCOL_OWNER };

/* What list lists: its columns and the JSON array's name. */
struct list_kind {
	const char *json_name;
	const struct colinfo *infos;
	size_t n_infos;
	const int *defaults;
	size_t n_defaults;
};

static const struct list_kind fb_kind = { "framebuffers", infos, ARRAY_SIZE(infos),
					  default_columns, ARRAY_SIZE(default_columns) };
static const struct list_kind conn_kind = { "connectors", conn_infos,
					    ARRAY_SIZE(conn_infos), conn_default_columns,
					    ARRAY_SIZE(conn_default_columns) };

struct list_ctl {
	const struct list_kind *kind; /* framebuffers, or --connectors */
	int columns[ARRAY_SIZE(infos) * 2];
	size_t ncolumns;
	bool json, pairs, raw, noheadings, bytes, drm, columns_given, shell, help,
		list_columns, connectors;
	/* -o and -O (arg NULL) in their order, -x: applied once the kind is known */
	const char *outputs[16];
	size_t n_outputs;
	const char *sort_name;
	int sort; /* -x: the column the lines are sorted by; -1: scan order */
	const char *devdir;
	bool allow_private;
};

/* A line of the table: a framebuffer (v), or with --drm a card that has
 * none (v NULL), or with --connectors a connector (conn, of sc). */
struct list_row {
	const struct fb_view *v;
	const struct drm_card *card;
	const struct drm_connector *conn;
	const struct scanout_card *sc;
};

static int column_by_name(const struct list_kind *kind, const char *name, size_t len)
{
	for (size_t i = 0; i < kind->n_infos; i++)
		if (strlen(kind->infos[i].name) == len &&
		    strncasecmp(kind->infos[i].name, name, len) == 0)
			return (int)i;
	return -1;
}

/* "-o NAME,ID" or "-o +PATH" (appended to the defaults). */
static int parse_columns(struct list_ctl *ctl, const char *arg)
{
	const char *p = arg;

	if (*p == '+')
		p++;
	else
		ctl->ncolumns = 0;
	if (!*p) {
		ERR("--output: no column named");
		return -EINVAL;
	}
	while (*p) {
		size_t len = strcspn(p, ",");
		int col = column_by_name(ctl->kind, p, len);

		if (col < 0) {
			ERR("unknown column \"%.*s\"", (int)len, p);
			return -EINVAL;
		}
		if (ctl->ncolumns >= ARRAY_SIZE(ctl->columns)) {
			ERR("too many columns");
			return -E2BIG;
		}
		ctl->columns[ctl->ncolumns++] = col;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

static void set_dims(char *buf, size_t len, bool have, unsigned x, unsigned y)
{
	if (have)
		snprintf(buf, len, "%ux%u", x, y);
	else
		buf[0] = '\0';
}

/* What the card's connected connectors have: their names, or their
 * monitors, comma-separated. */
static const char *connected_list(const struct drm_card *card, bool monitors, char *buf,
				  size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; card && i < card->n_connectors; i++) {
		const struct drm_connector *c = &card->connectors[i];
		char mon[64];
		const char *s = c->name;

		if (c->status != DRM_STATUS_CONNECTED)
			continue;
		if (monitors) {
			s = display_connector_monitor(c, mon, sizeof(mon));
			if (!s)
				s = "bad EDID";
			if (!*s)
				continue;
		}
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s",
				      n ? "," : "", s);
	}
	return buf;
}

/* The cells a card has, on its own line or on its framebuffer's. */
static const char *card_cell(const struct drm_card *card, bool own_line, int col,
			     char *buf, size_t len)
{
	const struct fb_parent *p = card && card->n_parents ? &card->parents[0] : NULL;

	if (!card)
		return NULL;
	switch (col) {
	case COL_CARD:
		return card->name;
	case COL_CONNECTOR:
		return connected_list(card, false, buf, len);
	case COL_STATUS:
		return display_card_status(card);
	case COL_MONITOR:
		return connected_list(card, true, buf, len);
	}
	if (!own_line)
		return NULL;
	switch (col) {
	case COL_NAME:
		return card->name;
	case COL_MAJMIN:
		if (card->devnum)
			snprintf(buf, len, "%u:%u", major(card->devnum),
				 minor(card->devnum));
		return buf;
	case COL_KIND:
		return display_kind_name(FB_KIND_DRM);
	case COL_DRIVER:
		return p ? p->driver : NULL;
	case COL_MODULE:
		return p ? p->module : NULL;
	case COL_SUBSYSTEM:
		return p ? p->subsystem : NULL;
	case COL_REASON: {
		/* said, not left blank: an empty cell reads as "no reason" */
		const char *why = display_card_why_no_fb(card, buf, len);

		return why ? why : "unknown";
	}
	}
	return NULL;
}

/* Only a DRM card's fbdev emulation can be told apart from what KMS
 * shows; vfb shows nothing; a firmware fb is what the firmware shows. */
static enum kms_shown fb_shown(const struct fb_view *v)
{
	if (v->kind == FB_KIND_VIRTUAL)
		return KMS_SHOWN_NO;
	if (v->kind != FB_KIND_DRM || !v->card || !v->card->devnum)
		return KMS_SHOWN_UNKNOWN;
	return kms_shown_of_card(minor(v->card->devnum));
}

/* A framebuffer's cell. */
static const char *fb_cell(const struct list_ctl *ctl, const struct fb_view *v, int col,
			   char *buf, size_t len)
{
	const struct fb_device *d = v->dev;
	const struct fb_parent *p = fb_device_parent(d);
	const struct fb_var_screeninfo *var = &v->hw.var;
	const char *s;

	buf[0] = '\0';
	switch (col) {
	case COL_NAME:
		return d->name;
	case COL_MAJMIN:
		snprintf(buf, len, "%u:%u", major(d->devnum), minor(d->devnum));
		return buf;
	case COL_ID:
		return fb_view_id(v, buf, len);
	case COL_DRIVER:
		return p ? p->driver : NULL;
	case COL_MODULE:
		return p ? p->module : NULL;
	case COL_SUBSYSTEM:
		return p ? p->subsystem : NULL;
	case COL_PATH:
		return d->path_id;
	case COL_RES:
		if (v->hw.valid)
			set_dims(buf, len, true, var->xres, var->yres);
		else
			set_dims(buf, len, v->has_sys_mode, v->sys_mode.xres,
				 v->sys_mode.yres);
		return buf;
	case COL_VIRT:
		if (v->hw.valid)
			set_dims(buf, len, true, var->xres_virtual, var->yres_virtual);
		else
			set_dims(buf, len, v->has_sys_virt, v->sys_vx, v->sys_vy);
		return buf;
	case COL_BPP:
		if (v->hw.valid || v->has_sys_bpp)
			snprintf(buf, len, "%u",
				 v->hw.valid ? var->bits_per_pixel : v->sys_bpp);
		return buf;
	case COL_STRIDE:
		if (v->hw.valid || v->has_sys_stride)
			snprintf(buf, len, "%u",
				 v->hw.valid ? v->hw.fix.line_length : v->sys_stride);
		return buf;
	case COL_SIZE:
		if (!v->hw.valid)
			return NULL;
		if (ctl->bytes)
			snprintf(buf, len, "%u", v->hw.fix.smem_len);
		else
			size_to_human(v->hw.fix.smem_len, buf, len);
		return buf;
	case COL_FORMAT:
		return v->hw.valid ? v->fmt.name : NULL;
	case COL_VISUAL:
		if (!v->hw.valid)
			return NULL;
		s = fb_visual_name(v->hw.fix.visual);
		if (!s)
			snprintf(buf, len, "unknown(%u)", v->hw.fix.visual);
		return s ? s : buf;
	case COL_NODE:
		return v->node.state == FB_HW_NODE_OK ? v->node.path : NULL;
	case COL_STATE:
		s = fb_device_attr(d, "state");
		if (!s)
			return NULL;
		return strcmp(s, "0") == 0   ? "running"
		       : strcmp(s, "1") == 0 ? "suspended"
					     : s;
	case COL_KIND:
		return display_kind_name(v->kind);
	case COL_SHOWN:
		return kms_shown_name(fb_shown(v));
	case COL_CARD:
	case COL_CONNECTOR:
	case COL_STATUS:
	case COL_MONITOR:
		return card_cell(v->card, false, col, buf, len);
	}
	return NULL;
}

/* A connector's cell (--connectors). */
static const char *conn_cell(const struct list_row *row, int col, char *buf, size_t len)
{
	const struct drm_connector *c = row->conn;
	const struct kms_connector *kc = scanout_connector(row->sc, c->name);
	const char *s;

	buf[0] = '\0';
	switch (col) {
	case CCOL_CONNECTOR:
		return c->name;
	case CCOL_CARD:
		return row->card->name;
	case CCOL_STATUS:
		return c->status == DRM_STATUS_UNREADABLE
			       ? NULL
			       : display_status_name(c->status);
	case CCOL_MONITOR:
		s = display_connector_monitor(c, buf, len);
		return s ? s : "bad EDID";
	case CCOL_CRTC:
		return scanout_crtc_cell(row->sc, kc, buf, len);
	case CCOL_MODE:
		return scanout_mode_cell(row->sc, kc, buf, len);
	case CCOL_SCANOUT:
		return scanout_fb_cell(row->sc, kc, buf, len);
	case CCOL_OWNER:
		return scanout_owner_cell(row->sc, kc, buf, len);
	}
	return NULL;
}

/* The text of one cell; NULL or "" for an empty one. */
static const char *cell(const struct list_ctl *ctl, const struct list_row *row, int col,
			char *buf, size_t len)
{
	const struct fb_view *v = row->v;

	if (row->conn)
		return conn_cell(row, col, buf, len);
	if (!v)
		return card_cell(row->card, true, col, buf, len);
	return fb_cell(ctl, v, col, buf, len);
}

/* One line of the table, its cells worked out before anything is printed
 * so that -x can sort them: the shown columns, then the sort key. */
struct list_line {
	char **cells; /* ctl->ncolumns + 1, NULL for an empty cell */
	bool card; /* --drm: a DRM card without a framebuffer */
};

static void line_free(struct list_line *l, size_t ncells)
{
	for (size_t i = 0; l->cells && i < ncells; i++)
		free(l->cells[i]);
	free(l->cells);
}

static char *cell_copy(const struct list_ctl *ctl, const struct list_row *row, int col)
{
	char buf[256];
	const char *s = cell(ctl, row, col, buf, sizeof(buf));

	if (!s || !*s)
		return NULL;
	/* sysfs text may hold anything.  Both table printers escape what
	 * cannot be printed in a table, but write JSON strings byte for
	 * byte: make those valid UTF-8. */
	return ctl->json ? str_utf8_sanitize(s) : strdup(s);
}

static int line_fill(const struct list_ctl *ctl, const struct list_row *row,
		     struct list_line *l)
{
	l->cells = calloc(ctl->ncolumns + 1, sizeof(*l->cells));
	if (!l->cells)
		return -ENOMEM;
	for (size_t c = 0; c <= ctl->ncolumns; c++) {
		int col = c < ctl->ncolumns ? ctl->columns[c] : ctl->sort;

		if (col < 0)
			continue;
		errno = 0;
		l->cells[c] = cell_copy(ctl, row, col);
		if (!l->cells[c] && errno == ENOMEM)
			return -ENOMEM;
	}
	return 0;
}

/* qsort has no context: the key's index, for the comparison. */
static size_t sort_key;

/* Natural order ("fb2" before "fb10", "29:2" before "29:10"); empty cells
 * last. */
static int line_cmp(const void *a, const void *b)
{
	const char *x = ((const struct list_line *)a)->cells[sort_key];
	const char *y = ((const struct list_line *)b)->cells[sort_key];

	if (!x || !y)
		return !x - !y;
	return strverscmp(x, y);
}

/* The lines: each framebuffer, then with --drm each card without one. */
static int lines_build(struct list_ctl *ctl, const struct fb_device **sel, size_t nsel,
		       const struct fb_device_list *list, const struct drm_list *drm,
		       struct list_line **lines, size_t *n)
{
	struct fb_view_denied denied = {};
	size_t cap = nsel + drm->n;
	int r = 0;

	*lines = calloc(cap + 1, sizeof(**lines));
	if (!*lines)
		return -ENOMEM;
	for (size_t i = 0; i < nsel && r == 0; i++) {
		struct fb_view v;

		fb_view_load(&v, sel[i], ctl->devdir, ctl->allow_private, &denied);
		fb_view_join_display(&v, drm);
		r = line_fill(ctl, &(struct list_row){ .v = &v, .card = v.card },
			      &(*lines)[(*n)++]);
	}
	fb_view_denied_say(&denied);
	for (size_t i = 0; ctl->drm && i < drm->n && r == 0; i++)
		if (!display_card_has_fb(&drm->cards[i], list)) {
			(*lines)[*n].card = true;
			r = line_fill(ctl, &(struct list_row){ .card = &drm->cards[i] },
				      &(*lines)[(*n)++]);
		}
	if (r == 0 && ctl->sort >= 0) {
		sort_key = ctl->ncolumns;
		qsort(*lines, *n, sizeof(**lines), line_cmp);
	}
	return r;
}

/* Is the connector named by the arguments (its name or its card's), or
 * are there none?  matched counts the arguments that named something. */
static bool conn_named(const struct drm_card *card, const struct drm_connector *c,
		       int argc, char *argv[], bool *matched)
{
	bool any = argc == 0;

	for (int i = 0; i < argc; i++)
		if (strcmp(argv[i], card->name) == 0 || strcmp(argv[i], c->name) == 0) {
			matched[i] = true;
			any = true;
		}
	return any;
}

/* --connectors: a line per connector of each card (or of those named);
 * each card's KMS state read once.  -ENODEV when an argument names
 * nothing (said). */
static int conn_lines_build(struct list_ctl *ctl, const struct drm_list *drm,
			    const struct scanout_card *cards, int argc, char *argv[],
			    struct list_line **lines, size_t *n)
{
	size_t cap = 0;
	bool matched[64] = { false };
	int r = 0;

	for (size_t i = 0; i < drm->n; i++)
		cap += drm->cards[i].n_connectors;
	*lines = calloc(cap + 1, sizeof(**lines));
	if (!*lines)
		return -ENOMEM;
	for (size_t i = 0; i < drm->n && r == 0; i++)
		for (size_t j = 0; j < drm->cards[i].n_connectors && r == 0; j++) {
			const struct drm_connector *c = &drm->cards[i].connectors[j];

			if (!conn_named(&drm->cards[i], c, argc, argv, matched))
				continue;
			r = line_fill(ctl,
				      &(struct list_row){ .card = &drm->cards[i],
							  .conn = c,
							  .sc = &cards[i] },
				      &(*lines)[(*n)++]);
		}
	for (int i = 0; i < argc && r == 0; i++)
		if (!matched[i]) {
			ERR("%s: no such DRM card or connector", argv[i]);
			r = -ENODEV;
		}
	if (r == 0 && ctl->sort >= 0) {
		sort_key = ctl->ncolumns;
		qsort(*lines, *n, sizeof(**lines), line_cmp);
	}
	return r;
}

/* -y: a name a shell variable can have: MAJ:MIN becomes MAJ_MIN. */
static void shell_name(const char *name, char *buf, size_t len)
{
	size_t i = 0;

	for (; name[i] && i + 1 < len; i++)
		buf[i] = isalnum((unsigned char)name[i]) ? name[i] : '_';
	buf[i] = '\0';
}

/* A column shown as a JSON number: SIZE only in bytes (-b), as in lsblk. */
static bool column_is_number(const struct list_ctl *ctl, size_t i)
{
	const struct colinfo *ci = &ctl->kind->infos[ctl->columns[i]];

	return ci->number &&
	       (ctl->connectors || ctl->columns[i] != COL_SIZE || ctl->bytes);
}

/* The JSON key of column i: its name (-y: a shell's) in lower case. */
static void column_key(const struct list_ctl *ctl, size_t i, char *buf, size_t len)
{
	const char *name = ctl->kind->infos[ctl->columns[i]].name;

	if (ctl->shell)
		shell_name(name, buf, len);
	else
		snprintf(buf, len, "%s", name);
	for (char *p = buf; *p; p++)
		*p = (char)tolower((unsigned char)*p);
}

static struct json_object *json_cell(const struct list_ctl *ctl, size_t i, const char *v)
{
	unsigned long long num;

	if (!v || !*v)
		return NULL; /* an empty cell, as the page says */
	if (column_is_number(ctl, i) && parse_decimal(v, ULLONG_MAX, &num) == 0)
		return json_object_new_uint64(num);
	return jsonout_string_safe(v);
}

/* -J: {"framebuffers": [...]} (with --drm, the cards without one beside
 * it in "cards"), or {"connectors": [...]}; printed as every -J is. */
static int json_print(const struct list_ctl *ctl, const struct list_line *lines, size_t n)
{
	struct json_object *doc = json_object_new_object();
	struct json_object *rows = json_object_new_array(), *cards = NULL;
	int r;

	json_object_object_add(doc, ctl->kind->json_name, rows);
	if (ctl->drm && !ctl->connectors) {
		cards = json_object_new_array();
		json_object_object_add(doc, "cards", cards);
	}
	for (size_t l = 0; l < n; l++) {
		struct json_object *o = json_object_new_object();

		for (size_t c = 0; c < ctl->ncolumns; c++) {
			char key[32];

			column_key(ctl, c, key, sizeof(key));
			json_object_object_add(o, key,
					       json_cell(ctl, c, lines[l].cells[c]));
		}
		json_object_array_add(lines[l].card ? cards : rows, o);
	}
	r = jsonout_print(doc);
	json_object_put(doc);
	return r;
}

static int table_print(const struct list_ctl *ctl, struct list_line *lines, size_t n)
{
	enum fb_table_mode mode = ctl->pairs ? FB_TABLE_PAIRS
				  : ctl->raw ? FB_TABLE_RAW
					     : FB_TABLE_ALIGNED;
	struct fb_table *tb;
	int r;

	if (ctl->json)
		return json_print(ctl, lines, n);
	r = fb_table_new(&tb, mode, ctl->noheadings);
	if (r < 0)
		return r;
	for (size_t i = 0; i < ctl->ncolumns && r == 0; i++) {
		const struct colinfo *ci = &ctl->kind->infos[ctl->columns[i]];
		char name[32];

		shell_name(ci->name, name, sizeof(name));
		r = fb_table_add_column(tb, ctl->shell ? name : ci->name, ci->whint,
					(ci->right ? FB_TABLE_RIGHT : 0) |
						(ci->trunc ? FB_TABLE_TRUNC : 0));
	}
	for (size_t l = 0; l < n && r == 0; l++) {
		r = fb_table_add_line(tb);
		for (size_t c = 0; c < ctl->ncolumns && r == 0; c++)
			if (lines[l].cells[c])
				r = fb_table_set_cell(tb, c, TAKE_PTR(lines[l].cells[c]));
	}
	if (r == 0)
		r = fb_table_print(tb, stdout);
	fb_table_free(tb);
	return r;
}

/* Does any column need /sys/class/drm? */
static bool needs_drm(const struct list_ctl *ctl)
{
	if (ctl->connectors)
		return true;
	for (size_t i = 0; i < ctl->ncolumns; i++)
		if (ctl->columns[i] >= COL_KIND)
			return true;
	return ctl->drm || ctl->sort >= COL_KIND;
}

/* No framebuffer: where to look next, the cards when there are some. */
static void say_empty(const struct drm_list *drm)
{
	if (!drm->n) {
		INF("no framebuffer devices found in /sys/class/graphics");
		return;
	}
	INF("no framebuffer devices found in /sys/class/graphics, but %zu DRM card%s (%s%s): 'fbclassctl list --drm' lists %s, 'fbclassctl doctor' says why",
	    drm->n, drm->n == 1 ? "" : "s", drm->cards[0].name, drm->n > 1 ? ", ..." : "",
	    drm->n == 1 ? "it" : "them");
}

static int list_print(struct list_ctl *ctl, const struct fb_device **sel, size_t nsel,
		      const struct fb_device_list *list, const struct drm_list *drm)
{
	struct list_line *lines = NULL;
	size_t n = 0;
	int r = lines_build(ctl, sel, nsel, list, drm, &lines, &n);

	if (r == 0)
		r = table_print(ctl, lines, n);
	for (size_t i = 0; i < n; i++)
		line_free(&lines[i], ctl->ncolumns + 1);
	free(lines);
	return r;
}

/* --connectors: every card's KMS state read, the lines printed, let go. */
static int conn_print(struct list_ctl *ctl, const struct fb_device_list *list,
		      const struct drm_list *drm, int argc, char *argv[])
{
	struct scanout_card *cards = calloc(drm->n + 1, sizeof(*cards));
	struct list_line *lines = NULL;
	size_t n = 0;
	int r;

	if (!cards)
		return -ENOMEM;
	for (size_t i = 0; i < drm->n; i++) {
		scanout_card_read(&cards[i], &drm->cards[i],
				  scanout_fbdev_of(&drm->cards[i], list));
		if (!cards[i].have_kms && drm->cards[i].n_connectors)
			WRN("%s: what its connectors show: cannot tell (%s)",
			    drm->cards[i].name, cards[i].reason);
	}
	r = conn_lines_build(ctl, drm, cards, argc, argv, &lines, &n);
	if (r == 0)
		r = table_print(ctl, lines, n);
	for (size_t i = 0; i < n; i++)
		line_free(&lines[i], ctl->ncolumns + 1);
	free(lines);
	for (size_t i = 0; i < drm->n; i++)
		scanout_card_free(&cards[i]);
	free(cards);
	return r;
}

static void list_usage(void)
{
	printf("Usage: fbclassctl list [options] [DEVICE...]\n"
	       "       fbclassctl list --connectors [options] [CARD|CONNECTOR...]\n"
	       "\n"
	       "List framebuffer devices (the graphics class), one per line; DEVICE\n"
	       "(fb0, 0, /dev/fb0, /sys/class/graphics/fb0) restricts the list.\n"
	       "\n"
	       "Options:\n"
	       "  -o, --output LIST    columns to show; +LIST appends to the defaults\n"
	       "  -O, --output-all     show every column\n"
	       "  -x, --sort COLUMN    sort the lines by COLUMN (natural order)\n"
	       "  -H, --list-columns   list the columns and exit\n"
	       "  -y, --shell          column names a shell variable can have (MAJ_MIN)\n"
	       "  -J, --json           JSON output: {\"framebuffers\": [...]}\n"
	       "  -P, --pairs          KEY=\"value\" pairs\n"
	       "  -r, --raw            raw output, no alignment\n"
	       "  -n, --noheadings     no column headings\n"
	       "  -b, --bytes          SIZE in bytes, not human-readable (also in JSON)\n"
	       "      --drm            also list the DRM cards that have no framebuffer,\n"
	       "                       with the REASON when sysfs tells it\n"
	       "                       (-J: {\"framebuffers\": [...], \"cards\": [...]})\n"
	       "      --connectors     one line per DRM connector: what it shows, and whose\n"
	       "                       (-J: {\"connectors\": [...]}); its own columns\n"
	       "      --dev DIR        device directory (default /dev)\n"
	       "      --no-temp-node   never query through a private temporary node\n"
	       "  -h, --help           show this help\n"
	       "\n"
	       "Columns (default NAME,MAJ:MIN,ID,KIND,DRIVER,RES,BPP,FORMAT,NODE; --drm adds REASON):\n");
	for (size_t i = 0; i < ARRAY_SIZE(infos); i++)
		printf("  %10s  %s\n", infos[i].name, infos[i].help);
	printf("Columns of --connectors (default all):\n");
	for (size_t i = 0; i < ARRAY_SIZE(conn_infos); i++)
		printf("  %10s  %s\n", conn_infos[i].name, conn_infos[i].help);
	printf("\nValues come from the ioctls when the node can be opened, else from sysfs;\n"
	       "CRTC, MODE, SCANOUT and OWNER from KMS, read without changing the screen.\n"
	       "See fbclassctl(8).\n");
}

static void list_columns(const struct list_kind *kind)
{
	for (size_t i = 0; i < kind->n_infos; i++)
		printf("%-10s %s\n", kind->infos[i].name, kind->infos[i].help);
}

/* -o, -O and -x, once --connectors has chosen the columns they name. */
static int list_apply_columns(struct list_ctl *ctl)
{
	const struct list_kind *kind = ctl->kind;

	memcpy(ctl->columns, kind->defaults, kind->n_defaults * sizeof(int));
	ctl->ncolumns = kind->n_defaults;
	for (size_t i = 0; i < ctl->n_outputs; i++) {
		if (ctl->outputs[i]) {
			if (parse_columns(ctl, ctl->outputs[i]) < 0)
				return -EINVAL;
			continue;
		}
		for (size_t c = 0; c < kind->n_infos; c++)
			ctl->columns[c] = (int)c;
		ctl->ncolumns = kind->n_infos;
	}
	if (ctl->sort_name) {
		ctl->sort = column_by_name(kind, ctl->sort_name, strlen(ctl->sort_name));
		if (ctl->sort < 0) {
			ERR("--sort: unknown column \"%s\"", ctl->sort_name);
			return -EINVAL;
		}
	}
	return 0;
}

/* 0, or -EINVAL for a usage error (said). */
static int list_parse_args(int argc, char *argv[], struct list_ctl *ctl)
{
	enum { OPT_DEV = 256, OPT_NO_TEMP_NODE, OPT_DRM, OPT_CONNECTORS };
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "output-all", no_argument, NULL, 'O' },
		{ "json", no_argument, NULL, 'J' },
		{ "pairs", no_argument, NULL, 'P' },
		{ "raw", no_argument, NULL, 'r' },
		{ "noheadings", no_argument, NULL, 'n' },
		{ "bytes", no_argument, NULL, 'b' },
		{ "shell", no_argument, NULL, 'y' },
		{ "sort", required_argument, NULL, 'x' },
		{ "list-columns", no_argument, NULL, 'H' },
		{ "dev", required_argument, NULL, OPT_DEV },
		{ "no-temp-node", no_argument, NULL, OPT_NO_TEMP_NODE },
		{ "drm", no_argument, NULL, OPT_DRM },
		{ "connectors", no_argument, NULL, OPT_CONNECTORS },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	int c, modes = 0;

	while ((c = getopt_long(argc, argv, "o:OJPrnbyx:Hh", options, NULL)) != -1) {
		switch (c) {
		case 'o':
		case 'O':
			if (ctl->n_outputs >= ARRAY_SIZE(ctl->outputs)) {
				ERR("too many --output options");
				return -EINVAL;
			}
			ctl->outputs[ctl->n_outputs++] = c == 'o' ? optarg : NULL;
			ctl->columns_given = true;
			break;
		case 'J':
			ctl->json = true;
			modes++;
			break;
		case 'P':
			ctl->pairs = true;
			modes++;
			break;
		case 'r':
			ctl->raw = true;
			modes++;
			break;
		case 'n':
			ctl->noheadings = true;
			break;
		case 'b':
			ctl->bytes = true;
			break;
		case 'y':
			ctl->shell = true;
			break;
		case 'x':
			ctl->sort_name = optarg;
			break;
		case 'H':
			ctl->list_columns = true;
			break;
		case OPT_DEV:
			ctl->devdir = optarg;
			break;
		case OPT_NO_TEMP_NODE:
			ctl->allow_private = false;
			break;
		case OPT_DRM:
			ctl->drm = true;
			break;
		case OPT_CONNECTORS:
			ctl->connectors = true;
			break;
		case 'h':
			ctl->help = true;
			return 0;
		default:
			return -EINVAL;
		}
	}
	if (modes > 1) {
		ERR("--json, --pairs and --raw are mutually exclusive");
		return -EINVAL;
	}
	if (ctl->connectors && (ctl->drm || ctl->bytes)) {
		ERR("--connectors lists connectors: --%s has no meaning there",
		    ctl->drm ? "drm" : "bytes");
		return -EINVAL;
	}
	ctl->kind = ctl->connectors ? &conn_kind : &fb_kind;
	if (list_apply_columns(ctl) < 0)
		return -EINVAL;
	if (node_devdir_check(ctl->devdir) < 0)
		return -EINVAL;
	if (ctl->drm && !ctl->columns_given)
		ctl->columns[ctl->ncolumns++] = COL_REASON;
	return 0;
}

static int list_connectors(struct list_ctl *ctl, int argc, char *argv[])
{
	struct fb_device_list list = {};
	struct drm_list drm = {};
	int r, ret = FB_EXIT_OK;

	/* the framebuffers only name what fbcon shows: none is no error */
	if (fb_cmd_scan(&list, FB_SCAN_ATTRS, false) < 0)
		return FB_EXIT_ERROR;
	if (fb_cmd_scan_drm(&drm, DRM_SCAN_ALL) < 0) {
		ret = FB_EXIT_ERROR;
		goto finish;
	}
	if (argc > 64) {
		ERR("--connectors: at most 64 cards or connectors can be named");
		ret = FB_EXIT_USAGE;
		goto finish;
	}
	r = conn_print(ctl, &list, &drm, argc, argv);
	if (r < 0 && r != -ENODEV)
		log_errno(r, "cannot print the table: %m");
	ret = fb_exit_code(r, FB_FROM_SELECT);
finish:
	display_list_free(&drm);
	fb_device_list_free(&list);
	return ret;
}

static int do_list(int argc, char *argv[])
{
	struct list_ctl ctl = { .devdir = "/dev", .allow_private = true, .sort = -1 };
	struct fb_device_list list = {};
	const struct fb_device **sel = NULL;
	struct drm_list drm = {};
	size_t nsel = 0;
	int r, ret;

	if (list_parse_args(argc, argv, &ctl) < 0)
		return fb_usage_error("list");
	if (ctl.help || ctl.list_columns) {
		if (ctl.help)
			list_usage();
		else
			list_columns(ctl.kind);
		return FB_EXIT_OK;
	}
	if (ctl.json && fb_jsonc_open("list -J") < 0)
		return FB_EXIT_ERROR;
	if (ctl.connectors)
		return list_connectors(&ctl, argc - optind, argv + optind);
	if (fb_cmd_scan(&list, FB_SCAN_ATTRS, false) < 0)
		return FB_EXIT_ERROR;
	r = fb_cmd_select(&list, argc - optind, argv + optind, &sel, &nsel);
	ret = fb_exit_code(r, FB_FROM_SELECT);
	if (r == -ENOMEM)
		goto finish;
	r = needs_drm(&ctl) || !list.n ? fb_cmd_scan_drm(&drm, DRM_SCAN_ALL) : 0;
	if (r < 0) {
		ret = FB_EXIT_ERROR;
		goto finish;
	}
	if (!list.n && !ctl.json && !ctl.drm && optind == argc)
		say_empty(&drm);
	/* DEVICE arguments restrict the framebuffers; --drm's cards follow
	 * only without them. */
	ctl.drm &= optind == argc;
	r = list_print(&ctl, sel, nsel, &list, &drm);
	if (r < 0) {
		log_errno(r, "cannot print the table: %m");
		ret = FB_EXIT_ERROR;
	}
finish:
	display_list_free(&drm);
	free(sel);
	fb_device_list_free(&list);
	return ret;
}

const struct fb_cmd fb_cmd_list = {
	.name = "list",
	.cmd = do_list,
	.help = "list framebuffer devices",
};
