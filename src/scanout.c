/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What each connector shows, sysfs and KMS joined: see scanout.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "jsonout.h"
#include "log.h"
#include "macro.h"
#include "scanout.h"
#include "strutil.h"

const char *scanout_fbdev_of(const struct drm_card *card, const struct fb_device_list *fbs)
{
	for (size_t i = 0; fbs && i < fbs->n; i++) {
		const struct fb_device *d = &fbs->devices[i];
		const char *id = fb_device_attr(d, "name");
		const struct fb_parent *p = fb_device_parent(d);

		/* the emulation sits on the card's own device, not on the
		 * device a firmware fb sits under */
		if (!p || !card->n_parents || !p->syspath || !card->parents[0].syspath ||
		    strcmp(p->syspath, card->parents[0].syspath) != 0)
			continue;
		if (display_kind_of(d, id ? id : "", card) == FB_KIND_DRM)
			return d->name;
	}
	return NULL;
}

void scanout_card_read(struct scanout_card *s, const struct drm_card *card,
		       const char *fbdev)
{
	memset(s, 0, sizeof(*s));
	s->card = card;
	s->fbdev = fbdev;
	if (!card->devnum) {
		snprintf(s->reason, sizeof(s->reason), "%s: its dev is unreadable",
			 card->name);
		return;
	}
	s->have_kms = kms_card_read(minor(card->devnum), &s->kms, s->reason,
				    sizeof(s->reason)) == 0;
	if (!s->have_kms)
		DBG("%s: what is shown: cannot tell (%s)", card->name, s->reason);
}

void scanout_card_free(struct scanout_card *s)
{
	if (s->have_kms)
		kms_card_free(&s->kms);
	s->have_kms = false;
}

const struct kms_connector *scanout_connector(const struct scanout_card *s,
					      const char *name)
{
	for (size_t i = 0; s->have_kms && name && i < s->kms.n_connectors; i++)
		if (strcmp(s->kms.connectors[i].name, name) == 0)
			return &s->kms.connectors[i];
	return NULL;
}

const char *scanout_crtc_cell(const struct scanout_card *s,
			      const struct kms_connector *kc, char *buf, size_t len)
{
	buf[0] = '\0';
	if (kc && kc->crtc_id && kms_card_crtc(&s->kms, kc->crtc_id))
		snprintf(buf, len, "%u", kc->crtc_id);
	return buf;
}

const char *scanout_mode_cell(const struct scanout_card *s,
			      const struct kms_connector *kc, char *buf, size_t len)
{
	buf[0] = '\0';
	return kc ? kms_connector_mode(&s->kms, kc, buf, len) : buf;
}

const char *scanout_fb_cell(const struct scanout_card *s, const struct kms_connector *kc,
			    char *buf, size_t len)
{
	const struct kms_fb *fb = kc ? kms_connector_fb(&s->kms, kc) : NULL;

	buf[0] = '\0';
	return fb ? kms_fb_text(fb, s->fbdev, buf, len) : buf;
}

const char *scanout_owner_cell(const struct scanout_card *s,
			       const struct kms_connector *kc, char *buf, size_t len)
{
	const struct kms_fb *fb = kc ? kms_connector_fb(&s->kms, kc) : NULL;

	buf[0] = '\0';
	return fb ? kms_owner_text(&fb->owner, buf, len) : buf;
}

enum kms_shown scanout_fb_shown(const struct fb_view *v, const struct scanout_card *s)
{
	if (v->kind == FB_KIND_VIRTUAL)
		return KMS_SHOWN_NO;
	if (v->kind != FB_KIND_DRM || !s || !s->have_kms)
		return KMS_SHOWN_UNKNOWN;
	return kms_card_shown(&s->kms);
}

static struct json_object *json_fb(const struct kms_fb *fb)
{
	struct json_object *o = json_object_new_object();
	char fourcc[5], modifier[24];

	jsonout_add_uint(o, "id", fb->id);
	jsonout_add_bool(o, "gone", fb->gone);
	if (fb->gone)
		return o;
	jsonout_add_uint(o, "width", fb->width);
	jsonout_add_uint(o, "height", fb->height);
	jsonout_add_string(o, "fourcc", kms_fourcc_str(fb->fourcc, fourcc));
	snprintf(modifier, sizeof(modifier), "0x%llx", (unsigned long long)fb->modifier);
	jsonout_add_string(o, "modifier", fb->have_modifier ? modifier : NULL);
	return o;
}

static struct json_object *json_owner(const struct kms_fb *fb)
{
	struct json_object *o = json_object_new_object();
	char text[KMS_COMM_MAX + 16];

	jsonout_add_string(o, "name", kms_owner_text(&fb->owner, text, sizeof(text)));
	if (fb->owner.kind == KMS_OWNER_PROCESS) {
		jsonout_add_string(o, "comm", fb->owner.comm);
		jsonout_add_uint(o, "pid", (uint64_t)fb->owner.pid);
	} else {
		json_object_object_add(o, "comm", NULL);
		json_object_object_add(o, "pid", NULL);
	}
	jsonout_add_bool(o, "master", fb->owner.master);
	jsonout_add_string(o, "reason",
			   fb->owner.kind == KMS_OWNER_UNKNOWN ? fb->owner.reason : NULL);
	return o;
}

static struct json_object *json_connector(const struct scanout_card *s,
					  const struct kms_connector *kc)
{
	struct json_object *o = json_object_new_object();
	const struct kms_fb *fb = kms_connector_fb(&s->kms, kc);
	char buf[128];

	jsonout_add_string(o, "connector", kc->name);
	if (*scanout_crtc_cell(s, kc, buf, sizeof(buf)))
		jsonout_add_uint(o, "crtc", kc->crtc_id);
	else
		json_object_object_add(o, "crtc", NULL);
	scanout_mode_cell(s, kc, buf, sizeof(buf));
	jsonout_add_string(o, "mode", *buf ? buf : NULL);
	scanout_fb_cell(s, kc, buf, sizeof(buf));
	jsonout_add_string(o, "scanout", *buf ? buf : NULL);
	json_object_object_add(o, "fb", fb ? json_fb(fb) : NULL);
	json_object_object_add(o, "owner", fb ? json_owner(fb) : NULL);
	jsonout_add_string(o, "link_status", kms_link_status_name(kc->link_status));
	jsonout_add_string(o, "dpms", kms_dpms_name(kc->dpms));
	return o;
}

/* The card of v read, or NULL when v is not a DRM card's fbdev emulation. */
static struct scanout_card *fb_card_read(const struct fb_view *v, struct scanout_card *s)
{
	if (v->kind != FB_KIND_DRM || !v->card)
		return NULL;
	scanout_card_read(s, v->card, v->dev->name);
	return s;
}

static struct json_object *card_json(const struct fb_view *v, const struct scanout_card *s)
{
	struct json_object *o = json_object_new_object();
	struct json_object *conns = json_object_new_array();

	jsonout_add_string(o, "card", s ? s->card->name : NULL);
	jsonout_add_string(o, "shown", kms_shown_name(scanout_fb_shown(v, s)));
	if (s && !s->have_kms) /* only when KMS cannot tell: never a bare null */
		jsonout_add_string(o, "error", s->reason);
	for (size_t i = 0; s && s->have_kms && i < s->kms.n_connectors; i++)
		json_object_array_add(conns, json_connector(s, &s->kms.connectors[i]));
	json_object_object_add(o, "connectors", conns);
	return o;
}

/* "    KEY                VALUE", as the rest of info, the value escaped */
static void print_kv(FILE *out, const char *key, const char *value)
{
	_cleanup_free_ char *e = str_escape_text(value);

	fprintf(out, "    %-18s %s\n", key, e ? e : "?");
}

static void print_connector(FILE *out, const struct scanout_card *s,
			    const struct kms_connector *kc)
{
	const struct kms_fb *fb = kms_connector_fb(&s->kms, kc);
	const char *word;
	char buf[KMS_REASON_MAX + 64];

	print_kv(out, "  connector", kc->name);
	print_kv(out, "    crtc",
		 *scanout_crtc_cell(s, kc, buf, sizeof(buf)) ? buf : "none");
	print_kv(out, "    mode",
		 *scanout_mode_cell(s, kc, buf, sizeof(buf)) ? buf : "off");
	if (fb) {
		print_kv(out, "    fb", scanout_fb_cell(s, kc, buf, sizeof(buf)));
		kms_owner_text(&fb->owner, buf, sizeof(buf));
		if (fb->owner.master)
			strncat(buf, ", DRM master", sizeof(buf) - strlen(buf) - 1);
		if (fb->owner.kind == KMS_OWNER_UNKNOWN)
			snprintf(buf, sizeof(buf), "unknown (%s)", fb->owner.reason);
		print_kv(out, "    owner", buf);
	}
	word = kms_link_status_name(kc->link_status);
	print_kv(out, "    link-status", word ? word : "not told");
	word = kms_dpms_name(kc->dpms);
	print_kv(out, "    dpms", word ? word : "not told");
}

static void card_print(FILE *out, const struct fb_view *v, const struct scanout_card *s)
{
	fprintf(out, "  scanout:\n");
	print_kv(out, "shown", kms_shown_name(scanout_fb_shown(v, s)));
	if (!s)
		return;
	if (!s->have_kms) {
		char why[300];

		snprintf(why, sizeof(why), "cannot tell (%s)", s->reason);
		print_kv(out, "card", why);
		return;
	}
	print_kv(out, "card", s->card->name);
	for (size_t i = 0; i < s->kms.n_connectors; i++)
		print_connector(out, s, &s->kms.connectors[i]);
}

struct json_object *scanout_json(const struct fb_view *v)
{
	struct scanout_card sc;
	struct scanout_card *s = fb_card_read(v, &sc);
	struct json_object *o = card_json(v, s);

	if (s)
		scanout_card_free(s);
	return o;
}

void scanout_print(FILE *out, const struct fb_view *v)
{
	struct scanout_card sc;
	struct scanout_card *s = fb_card_read(v, &sc);

	card_print(out, v, s);
	if (s)
		scanout_card_free(s);
}
