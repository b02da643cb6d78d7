/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* A libdrm of captured answers for src/kms-read.c: see kms-fake.c. */

#include <json-c/json.h>
#include <stdint.h>

#include "kms-read.h"

struct kms_fake {
	json_object *root; /* drm_info -j's document */
	uint32_t gone_fb; /* GETFB2 of this id: ENOENT, as for an FB freed meanwhile */
	uint32_t vanished; /* this CRTC, plane or connector: ENOENT */
	uint64_t modifier; /* every FB's modifier instead of the capture's, if set */
	uint32_t fourcc; /* every FB's format instead of the capture's, if set */
	uint32_t handle; /* the GEM handle GETFB2 gives (a privileged caller's) */
	unsigned given_handles; /* GETFB2 answers with a handle */
	unsigned closed_handles;
};

extern struct kms_fake kms_fake;

/* Answer from tests/unit/kms/NAME/drm_info.json ($top_srcdir, else .),
 * every fault cleared; dir is set to that directory.  0 or -1 (said). */
int kms_fake_load(const char *name, char *dir, size_t dir_len);
extern const struct kms_drm_ops kms_fake_ops;
