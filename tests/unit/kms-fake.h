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
	uint32_t handle; /* the GEM handle GETFB2 gives (a privileged caller's) */
	unsigned closed_handles;
};

extern struct kms_fake kms_fake;
extern const struct kms_drm_ops kms_fake_ops;
