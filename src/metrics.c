/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The display health as Prometheus metrics: see metrics.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "display.h"
#include "doctor.h"
#include "fbclass.h"
#include "log.h"
#include "macro.h"
#include "metrics.h"
#include "scanout.h"
#include "strutil.h"
#include "view.h"

/* Text that is already safe: only its backslashes and quotes need the
 * format's escape. */
static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"' || *s == '\n')
			fputc('\\', f);
		fputc(*s == '\n' ? 'n' : *s, f);
	}
}

void metrics_put_label_value(FILE *f, const char *s)
{
	/* the one escaper (controls, C1 and bytes that are not UTF-8 as \xNN),
	 * then the format's own escapes: backslash, quote and newline */
	_cleanup_free_ char *e =
		str_escape_flags(s, METRICS_LABEL_MAX, STR_ESCAPE_KEEP_NL);

	put_escaped(f, e ? e : "?");
}

/* name{label="value",...} value: label names and values in pairs, ended
 * by LABELS_END (a pointer: a bare NULL may be an int in varargs); a NULL
 * value is "" (the same as no label). */
#define LABELS_END ((const char *)NULL)
static void sample(FILE *f, const char *name, long long value, ...)
{
	const char *label;
	va_list ap;
	bool first = true;

	fputs(name, f);
	va_start(ap, value);
	while ((label = va_arg(ap, const char *))) {
		const char *v = va_arg(ap, const char *);

		fprintf(f, "%s%s=\"", first ? "{" : ",", label);
		metrics_put_label_value(f, v ? v : "");
		fputc('"', f);
		first = false;
	}
	va_end(ap);
	fprintf(f, "%s %lld\n", first ? "" : "}", value);
}

/* ---- what is read once for every family ---- */

struct metrics_data {
	int fb_error, drm_error, doctor_error; /* 0 or -errno */
	struct fb_device_list fbs;
	struct drm_list drm;
	struct fb_view *views; /* one per fbs.devices[] */
	struct scanout_card *kms; /* one per drm.cards[] (NULL when out of memory) */
	struct doctor_report rep;
};

/* Each card's KMS state, through the join list --connectors uses. */
static void collect_kms(struct metrics_data *m, const struct metrics_opts *o)
{
	m->kms = calloc(m->drm.n + 1, sizeof(*m->kms));
	for (size_t i = 0; m->kms && i < m->drm.n; i++) {
		const struct drm_card *card = &m->drm.cards[i];

		(o->read_card ? o->read_card
			      : scanout_card_read)(&m->kms[i], card,
						   scanout_fbdev_of(card, &m->fbs));
	}
}

/* The read of v's card, NULL when v has none (or no memory). */
static const struct scanout_card *fb_card(const struct metrics_data *m,
					  const struct fb_view *v)
{
	for (size_t i = 0; m->kms && v->card && i < m->drm.n; i++)
		if (&m->drm.cards[i] == v->card)
			return &m->kms[i];
	return NULL;
}

static void collect(struct metrics_data *m, const struct metrics_opts *o)
{
	struct doctor_opts d = { .devdir = o->devdir,
				 .proc_dir = o->proc_dir,
				 .boot_dir = o->boot_dir };

	m->fb_error = fb_device_scan(&m->fbs, FB_SCAN_ATTRS);
	if (m->fb_error < 0) {
		log_warn_errno(m->fb_error, "cannot scan /sys/class/graphics: %m");
		m->fbs = (struct fb_device_list){};
	}
	m->drm_error = display_scan(&m->drm, DRM_SCAN_ALL);
	if (m->drm_error < 0) {
		log_warn_errno(m->drm_error, "cannot scan /sys/class/drm: %m");
		m->drm = (struct drm_list){};
	}
	m->views = calloc(m->fbs.n + 1, sizeof(*m->views));
	if (!m->views) {
		m->fb_error = -ENOMEM;
		fb_device_list_free(&m->fbs);
	}
	for (size_t i = 0; i < m->fbs.n; i++) {
		/* No private temporary node: reading metrics makes no node. */
		fb_view_load(&m->views[i], &m->fbs.devices[i], o->devdir, false, NULL);
		fb_view_join_display(&m->views[i], &m->drm);
	}
	collect_kms(m, o);
	m->doctor_error = doctor_run(&d, &m->fbs, &m->drm, &m->rep);
}

static void data_free(struct metrics_data *m)
{
	doctor_report_free(&m->rep);
	for (size_t i = 0; m->kms && i < m->drm.n; i++)
		scanout_card_free(&m->kms[i]);
	free(m->kms);
	free(m->views);
	display_list_free(&m->drm);
	fb_device_list_free(&m->fbs);
}

/* ---- the families, in the order they are printed ---- */

static void print_build(FILE *f, const struct metrics_data *m, const char *name)
{
	(void)m;
	sample(f, name, 1, "version", PACKAGE_VERSION, LABELS_END);
}

static void print_scan(FILE *f, const struct metrics_data *m, const char *name)
{
	sample(f, name, m->fb_error == 0, "source", "graphics", LABELS_END);
	sample(f, name, m->drm_error == 0, "source", "drm", LABELS_END);
	sample(f, name, m->doctor_error == 0, "source", "doctor", LABELS_END);
}

static void print_fbs(FILE *f, const struct metrics_data *m, const char *name)
{
	sample(f, name, (long long)m->fbs.n, LABELS_END);
}

static void print_fb_info(FILE *f, const struct metrics_data *m, const char *name)
{
	for (size_t i = 0; i < m->fbs.n; i++) {
		const struct fb_view *v = &m->views[i];
		const struct fb_parent *p = fb_device_parent(v->dev);
		char id[64], mode[32] = "";

		if (v->hw.valid)
			snprintf(mode, sizeof(mode), "%ux%u", v->hw.var.xres,
				 v->hw.var.yres);
		else if (v->has_sys_mode)
			snprintf(mode, sizeof(mode), "%ux%u", v->sys_mode.xres,
				 v->sys_mode.yres);
		sample(f, name, 1, "fb", v->dev->name, "id",
		       fb_view_id(v, id, sizeof(id)), "kind", display_kind_name(v->kind),
		       "driver", p ? p->driver : NULL, "format",
		       v->hw.valid ? v->fmt.name : NULL, "mode", mode, LABELS_END);
	}
}

static void print_fb_node(FILE *f, const struct metrics_data *m, const char *name)
{
	for (size_t i = 0; i < m->fbs.n; i++) {
		const struct fb_view *v = &m->views[i];

		sample(f, name, v->node.state == FB_HW_NODE_OK, "fb", v->dev->name,
		       "node", v->node.path, LABELS_END);
	}
}

/* Why whether v is on screen cannot be told ("" when it can). */
static const char *shown_reason(const struct fb_view *v, const struct scanout_card *s,
				enum kms_shown shown)
{
	if (shown != KMS_SHOWN_UNKNOWN)
		return "";
	if (v->kind != FB_KIND_DRM)
		return "not a DRM card's fbdev emulation: KMS does not say what it shows";
	if (!s)
		return "its DRM card is not found";
	if (!s->have_kms)
		return s->reason;
	for (size_t i = 0; i < s->kms.n_fbs; i++) {
		if (s->kms.fbs[i].gone)
			return "an FB shown was freed while it was read";
		if (s->kms.fbs[i].owner.kind == KMS_OWNER_UNKNOWN)
			return s->kms.fbs[i].owner.reason;
	}
	return "who made the FB shown is unknown";
}

/* 1 or 0; no sample where it cannot be told (fbclassctl_fb_shown_known
 * says why), so that an alert on 0 never fires on "cannot tell". */
static void print_fb_shown(FILE *f, const struct metrics_data *m, const char *name)
{
	for (size_t i = 0; i < m->fbs.n; i++) {
		const struct fb_view *v = &m->views[i];
		enum kms_shown shown = scanout_fb_shown(v, fb_card(m, v));

		if (shown != KMS_SHOWN_UNKNOWN)
			sample(f, name, shown == KMS_SHOWN_YES, "fb", v->dev->name,
			       LABELS_END);
	}
}

static void print_fb_shown_known(FILE *f, const struct metrics_data *m, const char *name)
{
	for (size_t i = 0; i < m->fbs.n; i++) {
		const struct fb_view *v = &m->views[i];
		const struct scanout_card *s = fb_card(m, v);
		enum kms_shown shown = scanout_fb_shown(v, s);

		sample(f, name, shown != KMS_SHOWN_UNKNOWN, "fb", v->dev->name, "reason",
		       shown_reason(v, s, shown), LABELS_END);
	}
}

/* Per card: could its KMS state be read (libdrm, the node, root). */
static void print_kms_scan(FILE *f, const struct metrics_data *m, const char *name)
{
	for (size_t i = 0; i < m->drm.n; i++) {
		const struct scanout_card *s = m->kms ? &m->kms[i] : NULL;

		sample(f, name, s && s->have_kms, "card", m->drm.cards[i].name, "reason",
		       !s	     ? "out of memory"
		       : s->have_kms ? ""
				     : s->reason,
		       LABELS_END);
	}
}

#define CONNECTOR_LABELS(card, c) \
	"card", (card)->name, "connector", display_connector_short_name(c)

static void print_status(FILE *f, const char *name, const struct drm_card *card,
			 const struct drm_connector *c)
{
	static const char *const states[] = { "connected", "disconnected", "unknown",
					      "unreadable" };

	for (size_t i = 0; i < ARRAY_SIZE(states); i++)
		sample(f, name, strcmp(display_status_name(c->status), states[i]) == 0,
		       CONNECTOR_LABELS(card, c), "status", states[i], LABELS_END);
}

static void print_enabled(FILE *f, const char *name, const struct drm_card *card,
			  const struct drm_connector *c)
{
	if (c->enabled)
		sample(f, name, strcmp(c->enabled, "enabled") == 0,
		       CONNECTOR_LABELS(card, c), LABELS_END);
}

/* A state set: one sample per state the kernel names (drm_get_dpms_name;
 * display.c takes no other word). */
static void print_dpms(FILE *f, const char *name, const struct drm_card *card,
		       const struct drm_connector *c)
{
	static const char *const states[] = { "On", "Standby", "Suspend", "Off" };

	for (size_t i = 0; c->dpms && i < ARRAY_SIZE(states); i++)
		sample(f, name, strcmp(c->dpms, states[i]) == 0,
		       CONNECTOR_LABELS(card, c), "dpms", states[i], LABELS_END);
}

static void print_modes(FILE *f, const char *name, const struct drm_card *card,
			const struct drm_connector *c)
{
	sample(f, name, (long long)c->n_modes, CONNECTOR_LABELS(card, c), LABELS_END);
}

static void print_edid_valid(FILE *f, const char *name, const struct drm_card *card,
			     const struct drm_connector *c)
{
	if (c->edid_len)
		sample(f, name, c->edid_info.problems == 0, CONNECTOR_LABELS(card, c),
		       LABELS_END);
}

static void print_monitor(FILE *f, const char *name, const struct drm_card *card,
			  const struct drm_connector *c)
{
	const struct edid_info *e = &c->edid_info;
	char product[8], serial[16];

	if (!c->edid_len || !e->decoded)
		return;
	snprintf(product, sizeof(product), "0x%04x", e->product);
	if (e->serial_text[0])
		snprintf(serial, sizeof(serial), "%s", e->serial_text);
	else if (e->serial_number)
		snprintf(serial, sizeof(serial), "%u", (unsigned)e->serial_number);
	else
		serial[0] = '\0';
	sample(f, name, 1, CONNECTOR_LABELS(card, c), "vendor", e->vendor, "product",
	       product, "serial", serial, "name", e->name, LABELS_END);
}

/* The connector's link-status as KMS has it, a state set as status is;
 * unknown when KMS cannot be read or the driver has no such property. */
static void print_link_status(FILE *f, const char *name, const struct scanout_card *s,
			      const struct drm_connector *c)
{
	static const char *const states[] = { "good", "bad", "unknown" };
	const struct kms_connector *kc = scanout_connector(s, c->name);
	const char *now = kc ? kms_link_status_name(kc->link_status) : NULL;

	for (size_t i = 0; i < ARRAY_SIZE(states); i++)
		sample(f, name, strcmp(now ? now : "unknown", states[i]) == 0,
		       CONNECTOR_LABELS(s->card, c), "link_status", states[i],
		       LABELS_END);
}

/* The CRTC's object id (list --connectors' CRTC), 0 when none; no sample
 * when KMS cannot tell. */
static void print_crtc(FILE *f, const char *name, const struct scanout_card *s,
		       const struct drm_connector *c)
{
	const struct kms_connector *kc = scanout_connector(s, c->name);
	char buf[16];

	if (kc)
		sample(f, name,
		       *scanout_crtc_cell(s, kc, buf, sizeof(buf)) ? kc->crtc_id : 0,
		       CONNECTOR_LABELS(s->card, c), LABELS_END);
}

/* The mode of an active CRTC (list --connectors' MODE) and its parts; no
 * sample when the connector drives none or KMS cannot tell. */
static void print_mode(FILE *f, const char *name, const struct scanout_card *s,
		       const struct drm_connector *c)
{
	const struct kms_connector *kc = scanout_connector(s, c->name);
	const struct kms_crtc *crtc = kc ? kms_card_crtc(&s->kms, kc->crtc_id) : NULL;
	char mode[64], width[8], height[8];
	const char *at;

	if (!crtc || !*scanout_mode_cell(s, kc, mode, sizeof(mode)))
		return;
	at = strchr(mode, '@');
	snprintf(width, sizeof(width), "%u", crtc->mode.hdisplay);
	snprintf(height, sizeof(height), "%u", crtc->mode.vdisplay);
	sample(f, name, 1, CONNECTOR_LABELS(s->card, c), "mode", mode, "width", width,
	       "height", height, "refresh", at ? at + 1 : "", LABELS_END);
}

/* Problems per check, every check that ran (0: it found none). */
static void print_doctor(FILE *f, const struct metrics_data *m, const char *name)
{
	const struct doctor_report *rep = &m->rep;

	for (size_t i = 0; i < rep->n; i++) {
		const char *check = rep->findings[i].check;
		long long n = 0;
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(rep->findings[j].check, check) == 0;
		if (seen)
			continue;
		for (size_t j = i; j < rep->n; j++)
			n += strcmp(rep->findings[j].check, check) == 0 &&
			     rep->findings[j].verdict == DOCTOR_PROBLEM;
		sample(f, name, n, "check", check, LABELS_END);
	}
}

struct family {
	const char *name;
	const char *help;
	/* the samples of the whole family, or of one connector */
	void (*print)(FILE *f, const struct metrics_data *m, const char *name);
	void (*print_connector)(
		FILE *f, const char *name, const struct drm_card *card,
		const struct drm_connector
			*c); /* ... of one connector, from its card's KMS state */
	void (*print_kms)(FILE *f, const char *name, const struct scanout_card *s,
			  const struct drm_connector *c);
};

/* clang-format off */
static const struct family families[] = {
	{ "fbclassctl_build_info", "fbclassctl's version.", print_build },
	{ "fbclassctl_scan_success", "Whether the source could be read (graphics, drm: the sysfs classes; doctor: the checks).", print_scan },
	{ "fbclassctl_framebuffers", "Framebuffer devices in /sys/class/graphics.", print_fbs },
	{ "fbclassctl_fb_info", "A framebuffer: id, kind (drm, firmware, fbdev, virtual), driver, pixel format and visible mode (format empty when the node could not be opened).", print_fb_info },
	{ "fbclassctl_fb_node_correct", "Whether the framebuffer's device node exists and is its character device.", print_fb_node },
	{ "fbclassctl_fb_shown", "Whether the framebuffer is on screen: 1 when KMS scans out the FB of this fbdev emulation (fbcon's), 0 when another program's or none; vfb is 0. No sample where it cannot be told: see fbclassctl_fb_shown_known.", print_fb_shown },
	{ "fbclassctl_fb_shown_known", "Whether fbclassctl_fb_shown could be told for the framebuffer; reason says why not (e.g. libdrm not found, not root, a firmware fb).", print_fb_shown_known },
	{ "fbclassctl_kms_scan_success", "Whether the DRM card's KMS state could be read (CRTCs, planes, connectors); reason says why not (libdrm not found, no node, not root).", print_kms_scan },
	{ "fbclassctl_connector_status", "The DRM connector's status, one sample per state (1: the current one).", .print_connector = print_status },
	{ "fbclassctl_connector_enabled", "Whether the DRM connector is enabled (driving a CRTC).", .print_connector = print_enabled },
	{ "fbclassctl_connector_dpms", "The DRM connector's DPMS state, one sample per state (1: the current one).", .print_connector = print_dpms },
	{ "fbclassctl_connector_link_status", "The DRM connector's link-status as KMS has it, one sample per state (1: the current one); unknown when KMS cannot be read or the driver has none.", .print_kms = print_link_status },
	{ "fbclassctl_connector_crtc", "The object id of the CRTC the DRM connector uses, 0 when none (only where KMS can be read).", .print_kms = print_crtc },
	{ "fbclassctl_connector_mode_info", "The mode of the active CRTC the DRM connector drives: mode as list --connectors prints it, width and height in pixels, refresh in Hz (only while one is set).", .print_kms = print_mode },
	{ "fbclassctl_connector_modes", "Modes the DRM connector lists.", .print_connector = print_modes },
	{ "fbclassctl_connector_edid_valid", "Whether the connector's EDID has no problem (only connectors with an EDID).", .print_connector = print_edid_valid },
	{ "fbclassctl_connector_monitor_info", "The monitor on the connector, from its EDID: vendor, product code, serial, name.", .print_connector = print_monitor },
	{ "fbclassctl_doctor_problems", "Problems fbclassctl doctor finds, per check.", print_doctor },
};
/* clang-format on */

/* One family's samples for each connector of card; s is its KMS read
 * (NULL when out of memory: KMS cannot tell). */
static void print_card(FILE *f, const struct family *fam, const struct drm_card *card,
		       const struct scanout_card *s)
{
	struct scanout_card none = { .card = card, .reason = "out of memory" };

	for (size_t k = 0; k < card->n_connectors; k++) {
		if (fam->print_kms)
			fam->print_kms(f, fam->name, s ? s : &none, &card->connectors[k]);
		else
			fam->print_connector(f, fam->name, card, &card->connectors[k]);
	}
}

int metrics_print(FILE *f, const struct metrics_opts *o)
{
	struct metrics_data m = {};
	int saved = log_max_priority;

	/* What is wrong goes into the metrics; a timer or the daemon would
	 * otherwise log the same warnings on every run.  -vv still shows
	 * them. */
	if (log_max_priority < LOG_DEBUG)
		log_max_priority = MIN(log_max_priority, LOG_ERR);
	collect(&m, o);
	log_max_priority = saved;
	for (size_t i = 0; i < ARRAY_SIZE(families); i++) {
		fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", families[i].name,
			families[i].help, families[i].name);
		if (families[i].print) {
			families[i].print(f, &m, families[i].name);
			continue;
		}
		for (size_t j = 0; j < m.drm.n; j++)
			print_card(f, &families[i], &m.drm.cards[j],
				   m.kms ? &m.kms[j] : NULL);
	}
	data_free(&m);
	return ferror(f) ? -EIO : 0;
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

int metrics_file_replace(const char *path, const char *data, size_t len)
{
	const char *slash = strrchr(path, '/');
	_cleanup_free_ char *tmp = NULL;
	_cleanup_close_ int fd = -1;
	int r;

	if (!*path || (slash && !slash[1]))
		return log_errno(-EISDIR, "%s: not a file name", path);
	if (asprintf(&tmp, "%.*s.%s.XXXXXX", slash ? (int)(slash - path + 1) : 0, path,
		     slash ? slash + 1 : path) < 0) {
		tmp = NULL;
		return log_errno(-ENOMEM, "%s: %m", path);
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return log_errno(-errno,
				 "%s: cannot create a temporary file beside it: %m",
				 path);
	r = fchmod(fd, 0644) < 0 ? -errno : 0;
	if (r == 0)
		r = write_all(fd, data, len);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (r == 0 && close(fd) < 0)
		r = -errno;
	fd = -1;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		return log_errno(r,
				 "%s: cannot write %zu bytes: %m (the old file is kept)",
				 path, len);
	}
	return 0;
}

int metrics_write_file(const char *path, const struct metrics_opts *o)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int r;

	if (!f)
		return log_errno(-errno, "%s: cannot gather the metrics: %m", path);
	r = metrics_print(f, o);
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	if (r < 0)
		return log_errno(r, "%s: cannot gather the metrics: %m", path);
	return metrics_file_replace(path, buf, len);
}
