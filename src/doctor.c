/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The checks of fbclassctl doctor: see doctor.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "account.h"
#include "doctor.h"
#include "holders.h"
#include "kernel-hazards.h"
#include "kernel.h"
#include "kmod.h"
#include "kms.h"
#include "log.h"
#include "macro.h"
#include "modalias-files.h"
#include "modules.h"
#include "strutil.h"
#include "sysfs.h"
#include "view.h"

/* ---- the report ---- */

const char *doctor_verdict_name(enum doctor_verdict v)
{
	switch (v) {
	case DOCTOR_OK:
		return "ok";
	case DOCTOR_INFO:
		return "info";
	case DOCTOR_UNKNOWN:
		return "unknown";
	case DOCTOR_PROBLEM:
		break;
	}
	return "PROBLEM";
}

void doctor_report_free(struct doctor_report *rep)
{
	for (size_t i = 0; i < rep->n; i++) {
		free(rep->findings[i].summary);
		strv_free(rep->findings[i].evidence, rep->findings[i].n_evidence);
		strv_free(rep->findings[i].fixes, rep->findings[i].n_fixes);
	}
	free(rep->findings);
	memset(rep, 0, sizeof(*rep));
}

bool doctor_report_has_problem(const struct doctor_report *rep)
{
	for (size_t i = 0; i < rep->n; i++)
		if (rep->findings[i].verdict == DOCTOR_PROBLEM)
			return true;
	return false;
}

/* What a check is writing: a finding, and its evidence as it grows. */
struct doctor_ctx {
	const struct doctor_opts *o;
	const struct fb_device_list *fbs;
	const struct drm_list *drm;
	struct doctor_report *rep;
	int error; /* -ENOMEM once anything failed */
	char *cmdline;
	struct kernel_config config;
	struct fb_kmod *kmod;
	bool kmod_tried;
};

static bool wanted(const struct doctor_ctx *c, const char *subject)
{
	return !c->o->only || strcmp(c->o->only, subject) == 0;
}

static char *vformat(const char *fmt, va_list ap)
{
	char *s;

	return vasprintf(&s, fmt, ap) < 0 ? NULL : s;
}

static struct doctor_finding *add(struct doctor_ctx *c, enum doctor_verdict v,
				  const char *check, const char *subject, const char *fmt,
				  ...) _printf_format_(5, 6);
static struct doctor_finding *add(struct doctor_ctx *c, enum doctor_verdict v,
				  const char *check, const char *subject, const char *fmt,
				  ...)
{
	struct doctor_report *rep = c->rep;
	struct doctor_finding *f, *nv;
	va_list ap;

	nv = realloc(rep->findings, (rep->n + 1) * sizeof(*nv));
	if (!nv) {
		c->error = -ENOMEM;
		return NULL;
	}
	rep->findings = nv;
	f = &rep->findings[rep->n];
	memset(f, 0, sizeof(*f));
	f->verdict = v;
	snprintf(f->check, sizeof(f->check), "%s", check);
	snprintf(f->subject, sizeof(f->subject), "%s", subject);
	va_start(ap, fmt);
	f->summary = vformat(fmt, ap);
	va_end(ap);
	if (!f->summary) {
		c->error = -ENOMEM;
		return NULL;
	}
	rep->n++;
	return f;
}

/* One more line of evidence or fix. */
static void append(struct doctor_ctx *c, char ***v, size_t *n, const char *fmt, ...)
	_printf_format_(4, 5);
static void append(struct doctor_ctx *c, char ***v, size_t *n, const char *fmt, ...)
{
	size_t cap = *n; /* grows by one: strv_push doubles from there */
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vformat(fmt, ap);
	va_end(ap);
	if (strv_push(v, n, &cap, s) < 0)
		c->error = -ENOMEM;
}

#define EVIDENCE(c, f, ...)                                                       \
	do {                                                                      \
		if (f)                                                            \
			append(c, &(f)->evidence, &(f)->n_evidence, __VA_ARGS__); \
	} while (0)
#define FIX(c, f, ...)                                                      \
	do {                                                                \
		if (f)                                                      \
			append(c, &(f)->fixes, &(f)->n_fixes, __VA_ARGS__); \
	} while (0)

/* ---- why there is no framebuffer ---- */

/* Every cause of an empty graphics class that can be read, as evidence
 * and fix.  True when one was found. */
/* The first card whose device has a driver bound, or NULL. */
static const struct drm_card *first_bound_card(const struct drm_list *drm)
{
	for (size_t i = 0; i < drm->n; i++)
		if (drm->cards[i].n_parents && drm->cards[i].parents[0].driver)
			return &drm->cards[i];
	return NULL;
}

static bool causes_of_no_fb(struct doctor_ctx *c, struct doctor_finding *f)
{
	static const struct {
		const char *option, *why;
	} options[] = {
		{ "FB", "the kernel has no framebuffer support" },
		{ "FB_DEVICE", "the kernel makes no /dev/fbN nodes" },
		{ "DRM_FBDEV_EMULATION", "DRM drivers provide no framebuffer" },
	};
	_cleanup_free_ char *client = kernel_module_param("drm_client_lib", "active");
	char value[256];
	bool found = false;

	for (size_t i = 0; i < ARRAY_SIZE(options); i++) {
		if (kernel_config_value(&c->config, options[i].option) != 'n')
			continue;
		EVIDENCE(c, f, "CONFIG_%s is not set in %s: %s", options[i].option,
			 c->config.source, options[i].why);
		FIX(c, f, "a kernel built with CONFIG_%s=y", options[i].option);
		found = true;
	}
	bool emulation_off = kernel_fbdev_emulation() == 0;

	if (emulation_off)
		EVIDENCE(c, f,
			 "/sys/module/drm_kms_helper/parameters/fbdev_emulation is off");
	/* drm_kms_helper may not be loaded (no sysfs parameter): the command
	 * line says it all the same */
	if (c->cmdline &&
	    kernel_cmdline_value(c->cmdline, "drm_kms_helper.fbdev_emulation", value,
				 sizeof(value)) &&
	    (strcmp(value, "0") == 0 || strcasecmp(value, "n") == 0)) {
		EVIDENCE(c, f,
			 "drm_kms_helper.fbdev_emulation=%s on the kernel command line: DRM drivers provide no framebuffer",
			 value);
		emulation_off = true;
	}
	if (emulation_off) {
		FIX(c, f, "boot without drm_kms_helper.fbdev_emulation=0");
		found = true;
	}
	if (client && strcmp(client, "fbdev") != 0) {
		EVIDENCE(c, f, "drm_client_lib.active is \"%s\", not fbdev", client);
		FIX(c, f, "boot with drm_client_lib.active=fbdev");
		found = true;
	}
	if (c->cmdline &&
	    kernel_cmdline_value(c->cmdline, "nomodeset", value, sizeof(value))) {
		const struct drm_card *bound = first_bound_card(c->drm);

		/* the evidence agrees with what was read: a card with a driver
		 * is one nomodeset did not stop */
		if (bound) {
			EVIDENCE(c, f,
				 "nomodeset on the kernel command line, but %s is driven by %s: not the cause",
				 bound->name, bound->parents[0].driver);
		} else {
			EVIDENCE(c, f,
				 "nomodeset on the kernel command line: DRM drivers do not bind");
			FIX(c, f, "boot without nomodeset");
			found = true;
		}
	}
	if (c->cmdline &&
	    kernel_cmdline_value(c->cmdline, "video", value, sizeof(value))) {
		EVIDENCE(c, f, "video=%s on the kernel command line", value);
		found = true;
	}
	return found;
}

/* The causes, or that none could be read. */
static void explain_no_fb(struct doctor_ctx *c, struct doctor_finding *f)
{
	if (f && !causes_of_no_fb(c, f))
		EVIDENCE(c, f, "no cause could be read (kernel configuration: %s)",
			 c->config.text ? c->config.source : "not found");
}

static void check_class(struct doctor_ctx *c)
{
	struct doctor_finding *f;

	if (c->o->only)
		return;
	if (c->fbs->n) {
		add(c, DOCTOR_OK, "class", "system",
		    "%zu framebuffer%s in /sys/class/graphics", c->fbs->n,
		    c->fbs->n == 1 ? "" : "s");
		return;
	}
	if (c->drm->n)
		f = add(c, DOCTOR_PROBLEM, "class-empty", "system",
			"no framebuffer, although %zu DRM card%s exist%s (%s%s)",
			c->drm->n, c->drm->n == 1 ? "" : "s", c->drm->n == 1 ? "s" : "",
			c->drm->cards[0].name, c->drm->n > 1 ? ", ..." : "");
	else
		f = add(c, DOCTOR_PROBLEM, "class-empty", "system",
			"no framebuffer and no DRM card: no display driver is bound");
	explain_no_fb(c, f);
}

/* ---- the native driver of a firmware framebuffer ---- */

static const struct fb_device *firmware_fb(const struct doctor_ctx *c)
{
	for (size_t i = 0; i < c->fbs->n; i++) {
		const struct fb_device *d = &c->fbs->devices[i];
		const char *name = fb_device_attr(d, "name");

		if (display_kind_of(d, name, display_card_of_fb(c->drm, d)) ==
		    FB_KIND_FIRMWARE)
			return d;
	}
	return NULL;
}

/* /sys/module/NAME/initstate: a loadable module that is loaded. */
static bool module_loaded(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/module/%s/initstate", name);
	for (char *p = path + strlen("/sys/module/"); *p && *p != '/'; p++)
		if (*p == '-')
			*p = '_';
	return access(path, F_OK) == 0;
}

struct native_ctx {
	struct doctor_ctx *c;
	const char *syspath, *alias, *subject;
	const struct fb_device *firmware;
	unsigned n_display; /* display modules the alias resolved to */
};

static void native_match(struct fb_kmod *k, const char *name, const char *path,
			 void *userdata)
{
	struct native_ctx *n = userdata;
	struct doctor_ctx *c = n->c;
	struct doctor_finding *f;
	char value[64];
	bool nomodeset;
	int black;

	if (!fb_module_path_is_display(path))
		return;
	n->n_display++;
	/* DRM drivers refuse to load at all under nomodeset (ENODEV), so it
	 * is the cause both of "not loaded" and of "loaded, not bound". */
	nomodeset = c->cmdline &&
		    kernel_cmdline_value(c->cmdline, "nomodeset", value, sizeof(value));
	black = fb_kmod_blacklisted(k, name);
	if (black > 0) {
		f = add(c, DOCTOR_PROBLEM, "native-driver", n->subject,
			"%s, the display driver for %s, is blacklisted", name,
			n->syspath);
		FIX(c, f, "remove \"blacklist %s\" from the modprobe configuration", name);
	} else if (!module_loaded(name)) {
		f = add(c, DOCTOR_PROBLEM, "native-driver", n->subject,
			"%s, the display driver for %s, is not loaded", name, n->syspath);
		if (!nomodeset)
			FIX(c, f, "fbclassctl coldplug --load-modules (or modprobe %s)",
			    name);
	} else {
		f = add(c, DOCTOR_PROBLEM, "native-driver", n->subject,
			"%s is loaded but has not bound %s", name, n->syspath);
	}
	if (nomodeset && black <= 0) {
		EVIDENCE(c, f,
			 "nomodeset on the kernel command line: DRM drivers neither load nor bind");
		FIX(c, f, "boot without nomodeset");
	}
	EVIDENCE(c, f, "%s has no driver; its modalias %s resolves to %s (%s)",
		 n->syspath, n->alias, name, path ? path : "built in");
	if (n->firmware)
		EVIDENCE(c, f, "%s (%s) is still the firmware's framebuffer",
			 n->firmware->name, fb_device_attr(n->firmware, "name"));
}

/* A display controller: PCI class 03, or the device of a framebuffer. */
static bool is_display_device(const struct native_ctx *n, const char *syspath,
			      const char *alias)
{
	size_t len = strlen(syspath);

	if (strncmp(alias, "pci:", 4) == 0 && strstr(alias, "bc03"))
		return true;
	for (size_t i = 0; i < n->c->fbs->n; i++) {
		const char *fb = n->c->fbs->devices[i].syspath;

		if (fb && strncmp(fb, syspath, len) == 0 && fb[len] == '/')
			return true;
	}
	return false;
}

/* A display device without a driver, and no display module found for it:
 * say why the lookup could not answer, or that it found none. */
static void native_not_found(struct native_ctx *n, int r)
{
	struct doctor_ctx *c = n->c;
	struct doctor_finding *f;
	char dir[4096];
	struct stat st;

	if (fb_module_dir(dir, sizeof(dir)) == 0 && stat(dir, &st) < 0) {
		f = add(c, DOCTOR_UNKNOWN, "native-driver", n->subject,
			"%s has no driver, and its module cannot be looked up: %s: %s",
			n->syspath, dir, strerror(errno));
		FIX(c, f, "install the modules of the running kernel in %s", dir);
	} else if (r < 0) {
		f = add(c, DOCTOR_UNKNOWN, "native-driver", n->subject,
			"%s has no driver, and its module cannot be looked up: %s",
			n->syspath, strerror(-r));
	} else {
		f = add(c, DOCTOR_INFO, "native-driver", n->subject,
			"%s has no driver, and no display module of this kernel claims it",
			n->syspath);
	}
	EVIDENCE(c, f, "its modalias is %s (module lookup: %s)", n->alias,
		 fb_kmod_backend_name);
	if (n->firmware)
		EVIDENCE(c, f, "%s (%s) is still the firmware's framebuffer",
			 n->firmware->name, fb_device_attr(n->firmware, "name"));
}

static void native_unbound(const char *syspath, const char *alias, void *userdata)
{
	struct native_ctx *n = userdata;
	const char *base = strrchr(syspath, '/');
	int r;

	n->syspath = syspath;
	n->alias = alias;
	n->subject = n->firmware ? n->firmware->name : base ? base + 1 : syspath;
	if (!wanted(n->c, n->subject))
		return;
	n->n_display = 0;
	r = fb_kmod_lookup(n->c->kmod, alias, native_match, n);
	if (!n->n_display && is_display_device(n, syspath, alias))
		native_not_found(n, r);
}

static void check_native_drivers(struct doctor_ctx *c)
{
	static const char *const buses[] = { "pci", "platform", "usb" };
	struct native_ctx n = { .c = c, .firmware = firmware_fb(c) };
	int r;

	if (!c->kmod_tried) {
		c->kmod_tried = true;
		if (fb_kmod_new(&c->kmod) < 0)
			c->kmod = NULL;
	}
	if (!c->kmod) {
		add(c, DOCTOR_INFO, "native-driver", "system",
		    "cannot tell which display drivers exist: module lookup (%s) did not start",
		    fb_kmod_backend_name);
		return;
	}
	r = fb_sysfs_for_each_unbound(buses, ARRAY_SIZE(buses), native_unbound, &n);
	if (r < 0)
		add(c, DOCTOR_INFO, "native-driver", "system",
		    "cannot list the devices without a driver: %s", strerror(-r));
}

/* ---- one framebuffer ---- */

static void check_kind(struct doctor_ctx *c, const struct fb_view *v)
{
	const struct fb_parent *p = fb_device_parent(v->dev);
	const char *driver = p && p->driver ? p->driver : "no driver";
	char buf[32];
	const char *id = fb_view_id(v, buf, sizeof(buf));

	if (!id)
		id = "no id";
	switch (v->kind) {
	case FB_KIND_DRM:
		add(c, DOCTOR_INFO, "kind", v->dev->name,
		    "drm: %s, the fbdev emulation of %s%s%s", id, driver,
		    v->card ? " on " : "", v->card ? v->card->name : "");
		break;
	case FB_KIND_FIRMWARE:
		add(c, DOCTOR_INFO, "kind", v->dev->name,
		    "firmware: %s (%s), set up before the kernel; a native driver replaces it",
		    id, driver);
		break;
	case FB_KIND_VIRTUAL:
		add(c, DOCTOR_INFO, "kind", v->dev->name,
		    "virtual: %s (%s), memory only, no display", id, driver);
		break;
	case FB_KIND_FBDEV:
		if (p && p->driver)
			add(c, DOCTOR_INFO, "kind", v->dev->name,
			    "fbdev: %s, native driver %s", id, p->driver);
		else
			add(c, DOCTOR_INFO, "kind", v->dev->name,
			    "fbdev: %s, its device has no driver bound", id);
		break;
	}
}

static void owner_text(const struct fb_hw_node *node, char *buf, size_t len)
{
	char user[64], group[64];

	if (!fb_user_name(node->uid, user, sizeof(user)))
		snprintf(user, sizeof(user), "%u", (unsigned)node->uid);
	if (!fb_group_name(node->gid, group, sizeof(group)))
		snprintf(group, sizeof(group), "%u", (unsigned)node->gid);
	snprintf(buf, len, "%s:%s %04o", user, group, (unsigned)(node->mode & 07777));
}

static void check_node(struct doctor_ctx *c, const struct fb_view *v)
{
	const struct fb_device *d = v->dev;
	struct doctor_finding *f;
	char own[160];

	switch (v->node.state) {
	case FB_HW_NODE_OK:
		owner_text(&v->node, own, sizeof(own));
		add(c, DOCTOR_OK, "node", d->name, "%s is character device %u:%u, %s",
		    v->node.path, major(d->devnum), minor(d->devnum), own);
		return;
	case FB_HW_NODE_MISSING:
		f = add(c, DOCTOR_PROBLEM, "node", d->name, "%s is missing", v->node.path);
		break;
	case FB_HW_NODE_WRONG:
	default:
		f = add(c, DOCTOR_PROBLEM, "node", d->name,
			"%s is not character device %u:%u", v->node.path,
			major(d->devnum), minor(d->devnum));
		break;
	}
	FIX(c, f, "fbclassctl coldplug%s%s",
	    strcmp(c->o->devdir, "/dev") ? " --dev " : "",
	    strcmp(c->o->devdir, "/dev") ? c->o->devdir : "");
}

static bool in_group(gid_t gid)
{
	gid_t groups[256];
	int n = getgroups(ARRAY_SIZE(groups), groups);

	if (getegid() == gid)
		return true;
	for (int i = 0; i < n; i++)
		if (groups[i] == gid)
			return true;
	return false;
}

/* Can the caller open the node read-write, by its mode alone? */
static void check_access(struct doctor_ctx *c, const struct fb_view *v)
{
	const struct fb_hw_node *node = &v->node;
	mode_t m = node->mode;
	uid_t uid = geteuid();
	char group[64], own[160];
	struct doctor_finding *f;
	bool ok;

	if (node->state != FB_HW_NODE_OK)
		return;
	if (uid == 0) {
		add(c, DOCTOR_OK, "access", v->dev->name, "root can open %s", node->path);
		return;
	}
	if (uid == node->uid)
		ok = (m & 0600) == 0600;
	else if (in_group(node->gid))
		ok = (m & 0060) == 0060;
	else
		ok = (m & 0006) == 0006;
	if (ok) {
		add(c, DOCTOR_OK, "access", v->dev->name, "you (uid %u) can open %s",
		    (unsigned)uid, node->path);
		return;
	}
	if (!fb_group_name(node->gid, group, sizeof(group)))
		snprintf(group, sizeof(group), "%u", (unsigned)node->gid);
	owner_text(node, own, sizeof(own));
	if (!in_group(node->gid) && (m & 0060) == 0060) {
		f = add(c, DOCTOR_PROBLEM, "access", v->dev->name,
			"you (uid %u) cannot open %s: you are not in group %s",
			(unsigned)uid, node->path, group);
		FIX(c, f, "usermod -aG %s YOUR-USER, then log in again", group);
	} else {
		f = add(c, DOCTOR_PROBLEM, "access", v->dev->name,
			"you (uid %u) cannot open %s: its mode lets nobody but its owner in",
			(unsigned)uid, node->path);
		FIX(c, f, "a rule group= and mode= in fbclassctl.conf(5)");
	}
	EVIDENCE(c, f, "%s is %s", node->path, own);
}

/* No vtconsole is fbcon's: the usual cause of a dark console, so a
 * problem on a framebuffer that has a display, with the cause read from
 * the kernel's configuration where there is one. */
static void check_no_fbcon(struct doctor_ctx *c, const struct fb_view *v)
{
	char opt = kernel_config_value(&c->config, "FRAMEBUFFER_CONSOLE");
	struct doctor_finding *f;

	f = add(c, v->kind == FB_KIND_VIRTUAL ? DOCTOR_INFO : DOCTOR_PROBLEM, "fbcon",
		v->dev->name,
		"no fbcon: the kernel console does not use framebuffers, so no console shows on %s",
		v->dev->name);
	EVIDENCE(c, f, "no /sys/class/vtconsole/vtconN is a frame buffer device");
	if (opt == 'n') {
		EVIDENCE(c, f, "CONFIG_FRAMEBUFFER_CONSOLE is not set in %s",
			 c->config.source);
		FIX(c, f, "a kernel built with CONFIG_FRAMEBUFFER_CONSOLE=y");
	} else if (opt == 'm') {
		EVIDENCE(c, f, "CONFIG_FRAMEBUFFER_CONSOLE=m in %s: fbcon is a module",
			 c->config.source);
		FIX(c, f, "modprobe fbcon");
	} else {
		EVIDENCE(c, f,
			 "the kernel configuration does not say whether it has fbcon (%s)",
			 c->config.text ? c->config.source : "not found");
		FIX(c, f,
		    "a kernel built with CONFIG_FRAMEBUFFER_CONSOLE=y (or modprobe fbcon where it is a module)");
	}
}

static void check_fbcon(struct doctor_ctx *c, const struct fb_view *v,
			const struct fb_fbcon_state *st)
{
	struct doctor_finding *f;
	unsigned first = 0, last = 0;
	int r;

	if (!st->present) {
		check_no_fbcon(c, v);
		return;
	}
	if (!st->bound) {
		f = add(c, DOCTOR_INFO, "fbcon", v->dev->name,
			"fbcon is not bound (%s): no console on it", st->vtcon);
		FIX(c, f, "echo 1 > /sys/class/vtconsole/%s/bind", st->vtcon);
		return;
	}
	r = fb_fbcon_consoles(v->dev, c->o->devdir, &first, &last);
	if (r > 0)
		add(c, DOCTOR_INFO, "fbcon", v->dev->name,
		    "fbcon is bound (%s) and shows consoles %u-%u here", st->vtcon, first,
		    last);
	else if (r == 0)
		add(c, DOCTOR_INFO, "fbcon", v->dev->name,
		    "fbcon is bound (%s) but shows no console here", st->vtcon);
	else
		add(c, DOCTOR_INFO, "fbcon", v->dev->name,
		    "fbcon is bound (%s); its consoles here are unknown: %s", st->vtcon,
		    strerror(-r));
}

static void check_connector(struct doctor_ctx *c, const char *subject,
			    const struct drm_connector *k)
{
	struct doctor_finding *f;
	char mon[64];
	const char *m;

	if (k->problem) {
		f = add(c, DOCTOR_INFO, "connector", subject, "%s: not all could be read",
			k->name);
		EVIDENCE(c, f, "%s", k->problem);
	}
	if (k->status != DRM_STATUS_CONNECTED || !k->edid_len)
		return;
	m = display_connector_monitor(k, mon, sizeof(mon));
	if (m) {
		add(c, DOCTOR_OK, "monitor", subject, "%s: %s", k->name,
		    *m ? m : "no name");
		return;
	}
	f = add(c, DOCTOR_PROBLEM, "monitor", subject,
		"%s: the monitor's EDID cannot be trusted", k->name);
	for (unsigned bit = 0; bit < EDID_PROBLEM_COUNT; bit++)
		if (k->edid_info.problems & (1u << bit))
			EVIDENCE(c, f, "%s", edid_problem_describe(1u << bit));
	FIX(c, f,
	    "another cable or monitor; the kernel then falls back to standard modes");
}

static void check_connectors(struct doctor_ctx *c, const char *subject,
			     const struct drm_card *card)
{
	struct doctor_finding *f;
	size_t connected = 0;

	for (size_t i = 0; i < card->n_connectors; i++) {
		connected += card->connectors[i].status == DRM_STATUS_CONNECTED;
		check_connector(c, subject, &card->connectors[i]);
	}
	if (!card->n_connectors)
		return;
	if (connected) {
		add(c, DOCTOR_OK, "connectors", subject,
		    "%s: %zu of %zu connector%s connected", card->name, connected,
		    card->n_connectors, card->n_connectors == 1 ? "" : "s");
		return;
	}
	if (strcmp(display_card_status(card), "disconnected") != 0) {
		/* "unknown": no DRM client has probed the connectors yet */
		f = add(c, DOCTOR_INFO, "connectors", subject,
			"%s: no connector is known to be connected: nothing has probed them",
			card->name);
		FIX(c, f, "echo detect > /sys/class/drm/%s/status",
		    card->connectors[0].name);
		return;
	}
	f = add(c, DOCTOR_PROBLEM, "connectors", subject, "%s: no connector is connected",
		card->name);
	for (size_t i = 0; i < card->n_connectors; i++)
		EVIDENCE(c, f, "%s: %s", card->connectors[i].name,
			 display_status_name(card->connectors[i].status));
	FIX(c, f,
	    "check the cable and the monitor's power; echo detect > /sys/class/drm/%s/status",
	    card->connectors[0].name);
}

static void check_holders(struct doctor_ctx *c, const struct fb_view *v)
{
	struct fb_holder_target t;
	struct fb_holder_list hl = {};
	struct doctor_finding *f;
	char how[256];
	int r;

	fb_holder_target_init(&t, v->dev, c->o->devdir);
	r = fb_holders_scan(c->o->proc_dir, &t, 1, &hl);
	if (r < 0) {
		add(c, DOCTOR_INFO, "holders", v->dev->name,
		    "%s: cannot scan processes: %s", c->o->proc_dir, strerror(-r));
		return;
	}
	if (!hl.n && hl.n_uninspectable) {
		/* not "ok": one of those it could not look into may hold it */
		f = add(c, DOCTOR_UNKNOWN, "holders", v->dev->name,
			"cannot tell: %zu of %zu processes could not be inspected",
			hl.n_uninspectable, hl.n_processes);
		EVIDENCE(c, f, "none of the %zu inspected holds it",
			 hl.n_processes - hl.n_uninspectable);
		EVIDENCE(c, f, "%s/%d/fd: permission denied (the first)", c->o->proc_dir,
			 (int)hl.first_uninspectable);
		FIX(c, f, "run fbclassctl doctor as root");
	} else if (!hl.n) {
		add(c, DOCTOR_OK, "holders", v->dev->name, "no process holds it");
	} else {
		f = add(c, DOCTOR_INFO, "holders", v->dev->name,
			"%zu process%s hold%s it", hl.n, hl.n == 1 ? "" : "es",
			hl.n == 1 ? "s" : "");
		for (size_t i = 0; i < hl.n; i++)
			EVIDENCE(c, f, "pid %d (%s): %s", (int)hl.holders[i].pid,
				 hl.holders[i].comm,
				 fb_holder_describe(&hl.holders[i], how, sizeof(how)));
		if (hl.n_uninspectable)
			EVIDENCE(c, f,
				 "%zu of %zu processes could not be inspected: there may be more",
				 hl.n_uninspectable, hl.n_processes);
	}
	fb_holder_list_free(&hl);
}

/* The known kernel bugs (kernel-hazards.tab, listed in the man page's
 * KERNEL HAZARDS) of this driver on the running kernel. */
static void check_hazards(struct doctor_ctx *c, const struct fb_view *v)
{
	const struct fb_parent *p = fb_device_parent(v->dev);
	const struct kernel_hazard *h;
	struct doctor_finding *f;
	char version[32];
	size_t i = 0;
	bool any = false;

	if (!p || !p->driver)
		return;
	kernel_upstream_version(version, sizeof(version));
	while ((h = kernel_hazard_next(version, p->driver, NULL, &i))) {
		f = add(c, DOCTOR_INFO, "hazards", v->dev->name,
			"%s (%s) on %s: a known kernel bug applies: %s", v->dev->name,
			p->driver, version, h->id);
		EVIDENCE(c, f, "%s", h->description);
		EVIDENCE(c, f, "the kernel's %s when it happens: /%s/ (seen on %s)",
			 h->effect, h->regex, h->seen);
		FIX(c, f,
		    "while a process holds %s, neither unbind nor unload %s; fbclassctl unload refuses to",
		    v->dev->name, p->driver);
		any = true;
	}
	if (!any)
		add(c, DOCTOR_OK, "hazards", v->dev->name,
		    "no known kernel bug of %s on %s (fbclassctl(8), KERNEL HAZARDS)",
		    p->driver, *version ? version : "this kernel");
}

/* ---- what is on the screen (src/kms.h) ---- */

/* KMS's view of each connector: a connected one with no mode set, a link
 * that failed.  Read without probing (drmModeGetConnectorCurrent). */
static void check_kms_connectors(struct doctor_ctx *c, const char *subject,
				 const struct kms_card *card)
{
	enum doctor_verdict bad = c->o->only ? DOCTOR_PROBLEM : DOCTOR_INFO;
	struct doctor_finding *f;
	size_t n_bad = 0;

	for (size_t i = 0; i < card->n_connectors; i++) {
		const struct kms_connector *k = &card->connectors[i];

		if (kms_connector_dark(card, k)) {
			n_bad++;
			f = add(c, bad, "kms-no-crtc", subject,
				"%s is connected, but no CRTC drives it: no mode is set, the monitor is dark",
				k->name);
			EVIDENCE(c, f, "%s: connected, CRTC %s", k->name,
				 k->crtc_id ? "inactive" : "none");
			FIX(c, f,
			    "on the console: echo detect > /sys/class/drm/%s/status makes the fbdev emulation set a mode on it",
			    k->name);
			FIX(c, f, "under a KMS program: have it enable that output");
		}
		if (k->link_status == 1) {
			n_bad++;
			f = add(c, DOCTOR_PROBLEM, "kms-link", subject,
				"%s: link-status is bad: the link failed and shows nothing until a new modeset",
				k->name);
			EVIDENCE(c, f, "%s: link-status Bad (read without probing)",
				 k->name);
			FIX(c, f,
			    "re-modeset: the program that owns the screen sets its mode again (a compositor does it on the kernel's hotplug uevent), at a lower mode if it fails again");
			FIX(c, f,
			    "on the console: chvt to another VT and back makes fbcon set its mode again");
		}
	}
	if (!n_bad && card->n_connectors)
		add(c, DOCTOR_OK, "kms-connectors", subject,
		    "card%u: every connected connector has a mode set and a good link",
		    card->minor);
}

static void check_shown(struct doctor_ctx *c, const struct fb_view *v)
{
	const char *name = v->dev->name;
	struct doctor_finding *f;
	struct kms_card card;
	char reason[256], line[512];
	enum kms_shown s;

	if (v->kind != FB_KIND_DRM || !v->card || !v->card->devnum)
		return;
	if (kms_card_read(minor(v->card->devnum), &card, reason, sizeof(reason)) < 0) {
		add(c, DOCTOR_INFO, "shown", name,
		    "whether %s is on screen: cannot tell (%s)", name, reason);
		return;
	}
	s = kms_card_shown(&card);
	if (s == KMS_SHOWN_YES) {
		f = add(c, DOCTOR_OK, "shown", name, "%s is on screen", name);
	} else if (s == KMS_SHOWN_NO) {
		/* a problem when asked about this fb: what it shows nobody sees */
		f = add(c, c->o->only ? DOCTOR_PROBLEM : DOCTOR_INFO, "shown", name,
			"%s is not on screen: KMS shows another program's framebuffer",
			name);
		FIX(c, f, "draw through KMS on /dev/dri/%s, not through /dev/%s",
		    v->card->name, name);
		FIX(c, f,
		    "stop the program that owns the screen (named above) to get the "
		    "console back");
	} else {
		f = add(c, DOCTOR_INFO, "shown", name,
			"whether %s is on screen: cannot tell (who made the FB shown is unknown)",
			name);
	}
	for (size_t i = 0; i < card.n_connectors; i++)
		if (kms_connector_scanout(&card, &card.connectors[i], line, sizeof(line)))
			EVIDENCE(c, f, "%s", line);
	check_kms_connectors(c, name, &card);
	kms_card_free(&card);
}

static void check_fb(struct doctor_ctx *c, const struct fb_device *d,
		     const struct fb_fbcon_state *st)
{
	struct fb_view v;

	if (!wanted(c, d->name))
		return;
	/* sysfs and a stat of the node: what a check needs of the fb */
	fb_view_load_sysfs(&v, d, c->o->devdir);
	fb_view_join_display(&v, c->drm);
	check_kind(c, &v);
	check_node(c, &v);
	check_access(c, &v);
	check_fbcon(c, &v, st);
	check_shown(c, &v);
	if (v.card)
		check_connectors(c, d->name, v.card);
	check_holders(c, &v);
	check_hazards(c, &v);
}

static void check_card_without_fb(struct doctor_ctx *c, const struct drm_card *card)
{
	struct doctor_finding *f;
	char why[128];
	const char *reason;

	if (display_card_has_fb(card, c->fbs) || !wanted(c, card->name))
		return;
	reason = display_card_why_no_fb(card, why, sizeof(why));
	/* With no framebuffer at all, class-empty is the problem and names
	 * its causes; asked about the card alone, this line is that problem. */
	f = add(c, !c->fbs->n && c->o->only ? DOCTOR_PROBLEM : DOCTOR_INFO, "no-fb",
		card->name, "%s drives %s without a framebuffer%s", card->name,
		card->n_parents ? card->parents[0].sysname : "a device",
		!c->fbs->n && !c->o->only ? " (the problem class-empty above)" : "");
	if (reason)
		EVIDENCE(c, f, "%s", reason);
	if (!c->fbs->n && c->o->only)
		explain_no_fb(c, f);
	check_connectors(c, card->name, card);
}

int doctor_run(const struct doctor_opts *o, const struct fb_device_list *fbs,
	       const struct drm_list *drm, struct doctor_report *rep)
{
	struct doctor_ctx c = { .o = o, .fbs = fbs, .drm = drm, .rep = rep };
	struct fb_fbcon_state st = {};

	memset(rep, 0, sizeof(*rep));
	c.cmdline = kernel_cmdline(o->proc_dir);
	if (kernel_config_read(&c.config, o->boot_dir, o->proc_dir) == -ENOMEM)
		c.error = -ENOMEM;
	if (fb_fbcon_read("/sys", &st) < 0)
		memset(&st, 0, sizeof(st));
	check_class(&c);
	check_native_drivers(&c);
	for (size_t i = 0; i < fbs->n && !c.error; i++)
		check_fb(&c, &fbs->devices[i], &st);
	for (size_t i = 0; i < drm->n && !c.error; i++)
		check_card_without_fb(&c, &drm->cards[i]);
	fb_kmod_free(c.kmod);
	kernel_config_free(&c.config);
	free(c.cmdline);
	if (c.error)
		doctor_report_free(rep);
	return c.error;
}
