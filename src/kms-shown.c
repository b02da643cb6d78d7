/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Is fbcon's buffer on screen: see kms.h. */
#include <stdio.h>
#include <stdlib.h>

#include "kms.h"
#include "log.h"
#include "macro.h"
#include "strutil.h"

enum kms_shown kms_card_shown(const struct kms_card *card)
{
	bool unknown = false;

	for (size_t i = 0; i < card->n_crtcs; i++) {
		const struct kms_plane *pl;
		const struct kms_fb *fb;

		if (!card->crtcs[i].active)
			continue;
		pl = kms_card_primary(card, card->crtcs[i].id);
		fb = pl ? kms_card_fb(card, pl->fb_id) : NULL;
		if (!fb || fb->gone)
			unknown |= pl && pl->fb_id;
		else if (fb->owner.kind == KMS_OWNER_FBCON)
			return KMS_SHOWN_YES;
		else
			unknown |= fb->owner.kind == KMS_OWNER_UNKNOWN;
	}
	return unknown ? KMS_SHOWN_UNKNOWN : KMS_SHOWN_NO;
}

const char *kms_shown_name(enum kms_shown s)
{
	return s == KMS_SHOWN_YES ? "yes" : s == KMS_SHOWN_NO ? "no" : "unknown";
}

enum kms_shown kms_shown_of_card(unsigned minor)
{
	/* cards 0..63: what a machine has, read at most once each */
	static signed char known[64];
	struct kms_card card;
	char reason[256];

	if (minor >= ARRAY_SIZE(known))
		return KMS_SHOWN_UNKNOWN;
	if (known[minor])
		return (enum kms_shown)(known[minor] - 1);
	if (kms_card_read(minor, &card, reason, sizeof(reason)) < 0) {
		DBG("card%u: what is shown: cannot tell (%s)", minor, reason);
		known[minor] = KMS_SHOWN_UNKNOWN + 1;
		return KMS_SHOWN_UNKNOWN;
	}
	known[minor] = (signed char)(kms_card_shown(&card) + 1);
	kms_card_free(&card);
	return (enum kms_shown)(known[minor] - 1);
}

static void owner_text(const struct kms_fb *fb, char *buf, size_t len)
{
	char *comm;

	switch (fb->owner.kind) {
	case KMS_OWNER_FBCON:
		snprintf(buf, len, "[fbcon]");
		return;
	case KMS_OWNER_PROCESS:
		comm = str_escape(fb->owner.comm, sizeof(fb->owner.comm));
		snprintf(buf, len, "%s[%d]%s", comm ? comm : "?", (int)fb->owner.pid,
			 fb->owner.master ? ", DRM master" : "");
		free(comm);
		return;
	case KMS_OWNER_UNKNOWN:
		break;
	}
	snprintf(buf, len, "an unknown owner (%s)", fb->owner.reason);
}

bool kms_connector_scanout(const struct kms_card *card, const struct kms_connector *c,
			   char *buf, size_t len)
{
	const struct kms_crtc *crtc = kms_card_crtc(card, c->crtc_id);
	const struct kms_plane *pl;
	const struct kms_fb *fb;
	char fourcc[5], owner[KMS_REASON_MAX + 64];

	buf[0] = '\0';
	if (!crtc || !crtc->active)
		return false;
	pl = kms_card_primary(card, crtc->id);
	fb = pl ? kms_card_fb(card, pl->fb_id) : NULL;
	if (!fb) {
		snprintf(buf, len, "%s shows no FB on CRTC %u", c->name, crtc->id);
		return true;
	}
	if (fb->gone) {
		snprintf(buf, len, "%s shows FB %u, freed before it could be read",
			 c->name, fb->id);
		return true;
	}
	owner_text(fb, owner, sizeof(owner));
	snprintf(buf, len, "%s shows FB %u %ux%u %s of %s", c->name, fb->id, fb->width,
		 fb->height, kms_fourcc_str(fb->fourcc, fourcc), owner);
	return true;
}

const struct kms_fb *kms_connector_fb(const struct kms_card *card,
				      const struct kms_connector *c)
{
	const struct kms_crtc *crtc = kms_card_crtc(card, c->crtc_id);
	const struct kms_plane *pl;

	if (!crtc || !crtc->active)
		return NULL;
	pl = kms_card_primary(card, crtc->id);
	return pl ? kms_card_fb(card, pl->fb_id) : NULL;
}

const char *kms_connector_mode(const struct kms_card *card, const struct kms_connector *c,
			       char *buf, size_t len)
{
	const struct kms_crtc *crtc = kms_card_crtc(card, c->crtc_id);
	const struct kms_mode *m;
	uint32_t mhz;

	buf[0] = '\0';
	if (!crtc || !crtc->active || !crtc->mode_valid)
		return buf;
	m = &crtc->mode;
	mhz = m->refresh_mhz ? m->refresh_mhz : m->vrefresh * 1000;
	/* to the hundredth, as modetest prints it */
	mhz = (mhz + 5) / 10;
	if (mhz % 100 == 0)
		snprintf(buf, len, "%ux%u@%u", m->hdisplay, m->vdisplay, mhz / 100);
	else
		snprintf(buf, len, "%ux%u@%u.%02u", m->hdisplay, m->vdisplay, mhz / 100,
			 mhz % 100);
	return buf;
}

const char *kms_fb_text(const struct kms_fb *fb, const char *fbdev, char *buf, size_t len)
{
	char fourcc[5];

	if (fbdev && !fb->gone && fb->owner.kind == KMS_OWNER_FBCON)
		snprintf(buf, len, "%s", fbdev);
	else if (fb->gone)
		snprintf(buf, len, "FB %u (freed)", fb->id);
	else
		snprintf(buf, len, "FB %u %ux%u %s", fb->id, fb->width, fb->height,
			 kms_fourcc_str(fb->fourcc, fourcc));
	return buf;
}

const char *kms_owner_text(const struct kms_owner *o, char *buf, size_t len)
{
	if (o->kind == KMS_OWNER_FBCON)
		snprintf(buf, len, "[fbcon]");
	else if (o->kind == KMS_OWNER_PROCESS)
		snprintf(buf, len, "%s[%d]", o->comm, (int)o->pid);
	else
		snprintf(buf, len, "unknown");
	return buf;
}

bool kms_connector_dark(const struct kms_card *card, const struct kms_connector *c)
{
	const struct kms_crtc *crtc = kms_card_crtc(card, c->crtc_id);

	return c->connection == KMS_CONNECTED && (!crtc || !crtc->active);
}

const char *kms_link_status_name(int link_status)
{
	return link_status == 0 ? "good" : link_status == 1 ? "bad" : NULL;
}

const char *kms_dpms_name(int dpms)
{
	static const char *const names[] = { "on", "standby", "suspend", "off" };

	return dpms >= 0 && (size_t)dpms < ARRAY_SIZE(names) ? names[dpms] : NULL;
}
