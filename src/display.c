/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The DRM side of each framebuffer, from /sys/class/drm: see display.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "display.h"
#include "kernel.h"
#include "log.h"
#include "macro.h"
#include "strutil.h"
#include "sysfs.h"

/* ---- names ---- */

/* "card3" exactly: what a card's sysname is, and its number. */
static bool parse_card_name(const char *name, unsigned *number)
{
	unsigned long long v;

	if (strncmp(name, "card", 4) != 0 || parse_decimal(name + 4, 65535, &v) < 0)
		return false;
	*number = (unsigned)v;
	return true;
}

/* "card3-HDMI-A-1": a connector of card3. */
static bool is_connector_of(const char *name, const char *card)
{
	size_t n = strlen(card);

	return strncmp(name, card, n) == 0 && name[n] == '-' && name[n + 1];
}

static bool is_render_name(const char *name)
{
	unsigned long long v;

	return strncmp(name, "renderD", 7) == 0 &&
	       parse_decimal(name + 7, 65535, &v) == 0;
}

const char *display_connector_short_name(const struct drm_connector *c)
{
	const char *dash = strchr(c->name, '-');

	return dash && dash[1] ? dash + 1 : c->name;
}

const char *display_status_name(enum drm_status status)
{
	switch (status) {
	case DRM_STATUS_CONNECTED:
		return "connected";
	case DRM_STATUS_DISCONNECTED:
		return "disconnected";
	case DRM_STATUS_UNKNOWN:
		return "unknown";
	case DRM_STATUS_UNREADABLE:
		break;
	}
	return "unreadable";
}

const char *display_kind_name(enum fb_kind kind)
{
	switch (kind) {
	case FB_KIND_DRM:
		return "drm";
	case FB_KIND_FIRMWARE:
		return "firmware";
	case FB_KIND_VIRTUAL:
		return "virtual";
	case FB_KIND_FBDEV:
		break;
	}
	return "fbdev";
}

/* ---- the pure join ---- */

static const char *nearest_driver(const struct fb_device *dev)
{
	for (size_t i = 0; i < dev->n_parents; i++)
		if (dev->parents[i].driver)
			return dev->parents[i].driver;
	return NULL;
}

static bool is_firmware(const char *driver, const char *id)
{
	static const char *const drivers[] = { "vesa-framebuffer", "efi-framebuffer",
					       "simple-framebuffer", "simpledrm",
					       "offb" };
	static const char *const ids[] = { "VESA VGA", "EFI VGA", "simple",
					   "simpledrmdrmfb" };

	for (size_t i = 0; driver && i < ARRAY_SIZE(drivers); i++)
		if (strcmp(driver, drivers[i]) == 0)
			return true;
	for (size_t i = 0; id && i < ARRAY_SIZE(ids); i++)
		if (strcmp(id, ids[i]) == 0)
			return true;
	return id && strncmp(id, "OFfb ", 5) == 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

enum fb_kind display_kind_of(const struct fb_device *dev, const char *id,
			     const struct drm_card *card)
{
	const char *driver = nearest_driver(dev);

	if (streq_ptr(driver, "vfb"))
		return FB_KIND_VIRTUAL;
	if (is_firmware(driver, id))
		return FB_KIND_FIRMWARE;
	if ((id && ends_with(id, "drmfb")) || card)
		return FB_KIND_DRM;
	return FB_KIND_FBDEV;
}

static const struct drm_card *card_driving(const struct drm_list *drm, const char *syspath)
{
	for (size_t i = 0; i < drm->n; i++) {
		const struct drm_card *c = &drm->cards[i];

		if (c->n_parents && strcmp(c->parents[0].syspath, syspath) == 0)
			return c;
	}
	return NULL;
}

const struct drm_card *display_card_of_fb(const struct drm_list *drm,
					  const struct fb_device *dev)
{
	const struct drm_card *c;

	if (!dev->n_parents)
		return NULL;
	c = card_driving(drm, dev->parents[0].syspath);
	if (c || !is_firmware(nearest_driver(dev), NULL))
		return c;
	for (size_t i = 1; i < dev->n_parents && !c; i++)
		c = card_driving(drm, dev->parents[i].syspath);
	return c;
}

bool display_card_has_fb(const struct drm_card *card, const struct fb_device_list *fbs)
{
	if (!card->n_parents)
		return false;
	for (size_t i = 0; i < fbs->n; i++) {
		const struct fb_device *d = &fbs->devices[i];

		if (d->n_parents &&
		    strcmp(d->parents[0].syspath, card->parents[0].syspath) == 0)
			return true;
	}
	return false;
}

const char *display_card_status(const struct drm_card *card)
{
	bool all_disconnected = true;

	if (!card->n_connectors)
		return NULL;
	for (size_t i = 0; i < card->n_connectors; i++) {
		if (card->connectors[i].status == DRM_STATUS_CONNECTED)
			return "connected";
		all_disconnected &= card->connectors[i].status == DRM_STATUS_DISCONNECTED;
	}
	return all_disconnected ? "disconnected" : "unknown";
}

const char *display_card_why_no_fb(const struct drm_card *card, char *buf, size_t len)
{
	_cleanup_free_ char *client = kernel_module_param("drm_client_lib", "active");

	if (kernel_fbdev_emulation() == 0) {
		snprintf(buf, len, "drm_kms_helper.fbdev_emulation=0");
		return buf;
	}
	if (client && strcmp(client, "fbdev") != 0) {
		_cleanup_free_ char *esc = str_escape(client, 32);

		snprintf(buf, len, "drm_client_lib.active=%s", esc ? esc : "?");
		return buf;
	}
	if (!card->n_connectors) {
		snprintf(buf, len, "no connectors (a render-only device?)");
		return buf;
	}
	return NULL;
}

const char *display_connector_monitor(const struct drm_connector *c, char *buf, size_t len)
{
	const struct edid_info *e = &c->edid_info;

	if (!c->edid_len)
		return "";
	if (e->problems)
		return NULL;
	if (e->name[0])
		snprintf(buf, len, "%s", e->name);
	else
		snprintf(buf, len, "%s 0x%04x", e->vendor, e->product);
	return buf;
}

/* ---- scan ---- */

static void connector_free(struct drm_connector *c)
{
	free(c->name);
	free(c->syspath);
	free(c->enabled);
	free(c->dpms);
	strv_free(c->modes, c->n_modes);
	free(c->edid);
	free(c->problem);
}

static void card_free(struct drm_card *c)
{
	free(c->name);
	free(c->syspath);
	fb_sysfs_parents_free(c->parents, c->n_parents);
	free(c->render);
	for (size_t i = 0; i < c->n_connectors; i++)
		connector_free(&c->connectors[i]);
	free(c->connectors);
}

void display_list_free(struct drm_list *list)
{
	for (size_t i = 0; i < list->n; i++)
		card_free(&list->cards[i]);
	free(list->cards);
	memset(list, 0, sizeof(*list));
}

/* Say what could not be read, after what was said before. */
static int note_problem(struct drm_connector *c, const char *what)
{
	char *s;

	if (asprintf(&s, "%s%s%s", c->problem ? c->problem : "", c->problem ? "; " : "",
		     what) < 0)
		return -ENOMEM;
	free(c->problem);
	c->problem = s;
	return 0;
}

/* An attribute without its trailing newline, or NULL; *problem says why
 * not ("missing", "unreadable").  -ENOMEM only. */
static int read_text(struct fb_sysfs_dev *sd, const char *name, char **out)
{
	_cleanup_free_ char *v = NULL;

	*out = NULL;
	errno = 0;
	v = fb_sysfs_dev_attr(sd, name);
	if (!v)
		return errno == ENOMEM ? -ENOMEM : 0;
	*out = fb_strip_newlines_dup(v);
	return *out ? 0 : -ENOMEM;
}

static enum drm_status parse_status(const char *s)
{
	if (!s)
		return DRM_STATUS_UNREADABLE;
	if (strcmp(s, "connected") == 0)
		return DRM_STATUS_CONNECTED;
	if (strcmp(s, "disconnected") == 0)
		return DRM_STATUS_DISCONNECTED;
	if (strcmp(s, "unknown") == 0)
		return DRM_STATUS_UNKNOWN;
	return DRM_STATUS_UNREADABLE;
}

/* A text attribute that must be one of a few words: kept when it is, else
 * NULL with the problem noted.  -ENOMEM only. */
static int read_word(struct fb_sysfs_dev *sd, struct drm_connector *c, const char *name,
		     const char *const *words, size_t n, char **out)
{
	_cleanup_free_ char *v = NULL, *esc = NULL, *what = NULL;
	int r = read_text(sd, name, &v);

	*out = NULL;
	if (r < 0)
		return r;
	for (size_t i = 0; v && i < n; i++)
		if (strcmp(v, words[i]) == 0) {
			*out = TAKE_PTR(v);
			return 0;
		}
	if (!v)
		r = asprintf(&what, "%s: missing", name);
	else if ((esc = str_escape(v, 32)))
		r = asprintf(&what, "%s: unexpected value \"%s\"", name, esc);
	else
		r = -1;
	return r < 0 ? -ENOMEM : note_problem(c, what);
}

static int read_status(struct fb_sysfs_dev *sd, struct drm_connector *c)
{
	static const char *const words[] = { "connected", "disconnected", "unknown" };
	_cleanup_free_ char *v = NULL;
	int r = read_word(sd, c, "status", words, ARRAY_SIZE(words), &v);

	c->status = parse_status(v);
	return r;
}

/* "modes": one mode a line, as the kernel lists them; each line must be a
 * short printable word ("1024x768", "1920x1080i"), else it is a problem. */
static int read_modes(struct fb_sysfs_dev *sd, struct drm_connector *c)
{
	_cleanup_free_ char *v = NULL;
	size_t cap = 0;
	int r = read_text(sd, "modes", &v);

	if (r < 0 || !v)
		return r < 0 ? r : note_problem(c, "modes: missing");
	for (char *save = NULL, *line = strtok_r(v, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		bool ok = strlen(line) < 32;

		for (const char *p = line; ok && *p; p++)
			ok = *p > ' ' && *p < 0x7f;
		if (!ok)
			return note_problem(c, "modes: a line is not a mode name");
		r = strv_push(&c->modes, &c->n_modes, &cap, strdup(line));
		if (r < 0)
			return r;
	}
	return 0;
}

/* The EDID as bytes: read directly (libudev and libsysfs hand attributes
 * out as strings, and an EDID holds NULs).  Absent or empty: no EDID.
 * Open, read, close.  -ENOMEM only; a failed read is a problem. */
static int read_edid(struct drm_connector *c)
{
	_cleanup_free_ char *path = NULL;
	_cleanup_close_ int fd = -1;
	_cleanup_free_ uint8_t *buf = NULL;
	size_t n = 0;

	if (asprintf(&path, "%s/edid", c->syspath) < 0)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return errno == ENOENT ? 0 : note_problem(c, "edid: unreadable");
	buf = malloc(DRM_EDID_MAX + 1);
	if (!buf)
		return -ENOMEM;
	/* One byte more than the most we take tells an oversized file. */
	while (n < DRM_EDID_MAX + 1) {
		ssize_t r = read(fd, buf + n, DRM_EDID_MAX + 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return note_problem(c, "edid: unreadable");
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > DRM_EDID_MAX)
		return note_problem(c, "edid: larger than 32768 bytes");
	edid_decode(buf, n, &c->edid_info);
	if (n) {
		c->edid = TAKE_PTR(buf);
		c->edid_len = n;
	}
	return 0;
}

static int connector_read(struct fb_sysfs_dev *sd, unsigned what, struct drm_connector *c)
{
	static const char *const enabled[] = { "enabled", "disabled" };
	static const char *const dpms[] = { "On", "Standby", "Suspend", "Off" };
	int r;

	c->name = strdup(fb_sysfs_dev_sysname(sd));
	c->syspath = strdup(fb_sysfs_dev_syspath(sd));
	if (!c->name || !c->syspath)
		return -ENOMEM;
	r = read_status(sd, c);
	if (r == 0 && (what & DRM_SCAN_PLAN))
		return what & DRM_SCAN_EDID ? read_edid(c) : 0;
	if (r == 0)
		r = read_word(sd, c, "enabled", enabled, ARRAY_SIZE(enabled), &c->enabled);
	if (r == 0)
		r = read_word(sd, c, "dpms", dpms, ARRAY_SIZE(dpms), &c->dpms);
	if (r == 0)
		r = read_modes(sd, c);
	if (r == 0)
		r = read_edid(c);
	return r;
}

static int card_read(struct fb_sysfs_dev *sd, unsigned what, struct drm_card *c)
{
	_cleanup_free_ char *dev = NULL;
	int r;

	c->name = strdup(fb_sysfs_dev_sysname(sd));
	c->syspath = strdup(fb_sysfs_dev_syspath(sd));
	if (!c->name || !c->syspath)
		return -ENOMEM;
	if (what & DRM_SCAN_PLAN)
		return fb_sysfs_dev_parents(sd, &c->parents, &c->n_parents);
	r = read_text(sd, "dev", &dev);
	if (r < 0)
		return r;
	if (!dev) {
		WRN("%s: no \"dev\" attribute: device number unknown", c->name);
	} else if (fb_parse_devnum(dev, &c->devnum) < 0) {
		_cleanup_free_ char *esc = str_escape(dev, 32);

		WRN("%s: malformed \"dev\" attribute \"%s\": device number unknown",
		    c->name, esc ? esc : "?");
		c->devnum = 0;
	}
	return fb_sysfs_parents_copy(sd, &c->parents, &c->n_parents);
}

static int card_cmp(const void *a, const void *b)
{
	unsigned x = 0, y = 0;

	parse_card_name(((const struct drm_card *)a)->name, &x);
	parse_card_name(((const struct drm_card *)b)->name, &y);
	return x < y ? -1 : x > y;
}

static int connector_cmp(const void *a, const void *b)
{
	return strcmp(((const struct drm_connector *)a)->name,
		      ((const struct drm_connector *)b)->name);
}

static struct drm_card *card_by_syspath(struct drm_list *list, const char *syspath,
					size_t len)
{
	for (size_t i = 0; i < list->n; i++)
		if (strlen(list->cards[i].syspath) == len &&
		    strncmp(list->cards[i].syspath, syspath, len) == 0)
			return &list->cards[i];
	return NULL;
}

/* One pass per kind of entry: cards first, then what hangs off them. */
enum entry_pass { PASS_CARDS, PASS_CONNECTORS, PASS_RENDER };

static int add_connector(struct drm_list *list, struct fb_sysfs_dev *sd, unsigned what)
{
	const char *syspath = fb_sysfs_dev_syspath(sd);
	const char *slash = strrchr(syspath, '/');
	struct drm_card *card =
		slash ? card_by_syspath(list, syspath, (size_t)(slash - syspath)) : NULL;
	struct drm_connector *v;

	/* A connector lives in its card's directory; one elsewhere is not one. */
	if (!card || !is_connector_of(fb_sysfs_dev_sysname(sd), card->name))
		return 0;
	v = realloc(card->connectors, (card->n_connectors + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	card->connectors = v;
	memset(&v[card->n_connectors], 0, sizeof(*v));
	return connector_read(sd, what, &card->connectors[card->n_connectors++]);
}

static int add_render(struct drm_list *list, struct fb_sysfs_dev *sd)
{
	struct fb_parent *parents = NULL;
	size_t n = 0;
	int r = fb_sysfs_dev_parents(sd, &parents, &n);

	for (size_t i = 0; r == 0 && n && i < list->n; i++) {
		struct drm_card *c = &list->cards[i];

		if (!c->render && c->n_parents &&
		    strcmp(c->parents[0].syspath, parents[0].syspath) == 0) {
			_cleanup_free_ char *dev = NULL;

			c->render = strdup(fb_sysfs_dev_sysname(sd));
			r = c->render ? read_text(sd, "dev", &dev) : -ENOMEM;
			if (r == 0 &&
			    (!dev || fb_parse_devnum(dev, &c->render_devnum) < 0))
				c->render_devnum = 0;
			break;
		}
	}
	fb_sysfs_parents_free(parents, n);
	return r;
}

static int add_card(struct drm_list *list, struct fb_sysfs_dev *sd, unsigned what)
{
	struct drm_card *v = realloc(list->cards, (list->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	list->cards = v;
	memset(&v[list->n], 0, sizeof(*v));
	return card_read(sd, what, &list->cards[list->n++]);
}

static int scan_pass(struct fb_sysfs *s, char **paths, size_t n, enum entry_pass pass,
		     unsigned what, struct drm_list *list)
{
	for (size_t i = 0; i < n; i++) {
		const char *base = strrchr(paths[i], '/');
		struct fb_sysfs_dev *sd;
		unsigned number;
		int r;

		base = base ? base + 1 : paths[i];
		if (pass == PASS_CARDS && !parse_card_name(base, &number))
			continue;
		if (pass == PASS_RENDER && !is_render_name(base))
			continue;
		if (pass == PASS_CONNECTORS &&
		    (parse_card_name(base, &number) || is_render_name(base)))
			continue;
		r = fb_sysfs_dev_open(s, paths[i], &sd);
		if (r == -ENOMEM)
			return r;
		if (r < 0) {
			WRN("%s: vanished during the scan of /sys/class/drm; skipped",
			    base);
			continue;
		}
		r = pass == PASS_CARDS	  ? add_card(list, sd, what)
		    : pass == PASS_RENDER ? add_render(list, sd)
					  : add_connector(list, sd, what);
		fb_sysfs_dev_close(sd);
		if (r < 0)
			return r;
	}
	return 0;
}

int display_scan(struct drm_list *list, unsigned what)
{
	static const enum entry_pass passes[] = { PASS_CARDS, PASS_CONNECTORS,
						  PASS_RENDER };
	bool plan = what & DRM_SCAN_PLAN;
	struct fb_sysfs *s = NULL;
	char **paths = NULL;
	size_t n = 0;
	int r;

	memset(list, 0, sizeof(*list));
	r = fb_sysfs_new(&s, "drm", plan ? FB_SYSFS_DIRECT : FB_SYSFS_LIBRARY);
	if (r < 0)
		return r;
	r = fb_sysfs_class_list(s, &paths, &n);
	/* Render nodes, the last pass, are of no use to a plan. */
	for (size_t i = 0; r == 0 && i < ARRAY_SIZE(passes) - (plan ? 1 : 0); i++)
		r = scan_pass(s, paths, n, passes[i], what, list);
	strv_free(paths, n);
	fb_sysfs_free(s);
	if (r < 0) {
		display_list_free(list);
		return r;
	}
	if (list->n)
		qsort(list->cards, list->n, sizeof(*list->cards), card_cmp);
	for (size_t i = 0; i < list->n; i++)
		if (list->cards[i].n_connectors)
			qsort(list->cards[i].connectors, list->cards[i].n_connectors,
			      sizeof(*list->cards[i].connectors), connector_cmp);
	return 0;
}
