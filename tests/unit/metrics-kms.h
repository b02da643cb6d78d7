/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The captured answers of kms-fake.c for metrics-kms.c, which cannot
 * include libdrm's headers beside display.h (both name a struct drm_list). */

#include <stdbool.h>
#include <stddef.h>

#include "kms.h"

/* tests/unit/kms/NAME's answers.  0 or -1 (said). */
int metrics_kms_load(const char *name);
/* Every connector's link-status property Bad. */
void metrics_kms_link_bad(void);
/* The card read from them and each FB's owner named (from no debugfs:
 * unknown).  0 or -errno with reason filled. */
int metrics_kms_read(struct kms_card *card, bool no_debugfs, char *reason,
		     size_t reason_len);
