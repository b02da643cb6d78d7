/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Is fbcon's buffer on screen: see kms.h. */
#include <stdio.h>

#include "kms.h"
#include "log.h"
#include "macro.h"

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
