/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The KMS seam in the static build: Debian's libdrm.a would link, but a
 * static binary cannot dlopen() it and the boot-time coldplug, the static
 * build's users, never asks what is shown.  So it says it cannot tell.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kms-capture.h"
#include "kms.h"

const char fb_kms_backend_name[] = "none (static build)";

int kms_card_read(unsigned minor, struct kms_card *card, char *reason, size_t reason_len)
{
	memset(card, 0, sizeof(*card));
	card->minor = minor;
	snprintf(reason, reason_len, "not in the static build");
	return -EOPNOTSUPP;
}

int kms_connector_snap(const char *connector, struct kms_snap *snap, char *reason,
		       size_t reason_len)
{
	unsigned minor;

	memset(snap, 0, sizeof(*snap));
	if (!kms_connector_arg(connector, &minor)) {
		snprintf(reason, reason_len, "not a connector name (cardN-TYPE-I)");
		return -EINVAL;
	}
	snprintf(reason, reason_len, "cannot tell (not in the static build)");
	return -EOPNOTSUPP;
}

int kms_dumb_new(unsigned minor, unsigned width, unsigned height, unsigned bpp,
		 struct kms_dumb *dumb, char *reason, size_t reason_len)
{
	(void)minor;
	(void)width;
	(void)height;
	(void)bpp;
	memset(dumb, 0, sizeof(*dumb));
	dumb->fd = -1;
	snprintf(reason, reason_len, "not in the static build");
	return -EOPNOTSUPP;
}

void kms_dumb_free(struct kms_dumb *dumb)
{
	(void)dumb;
}
