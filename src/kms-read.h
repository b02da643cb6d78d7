/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * Inside the KMS seam: the libdrm calls src/kms-read.c makes, as a table,
 * so that src/kms-libdrm.c hands it libdrm's own (dlopen()ed) and
 * tests/unit/test-kms.c hands it answers captured with drm_info -j.
 * Every getter returns what libdrm's does (NULL with errno set on failure)
 * and its answer is given back to the matching free.
 */

#include <stddef.h>
#include <xf86drmMode.h>

#include "kms.h"

struct kms_drm_ops {
	drmModeResPtr (*get_resources)(int fd);
	void (*free_resources)(drmModeResPtr p);
	drmModePlaneResPtr (*get_plane_resources)(int fd);
	void (*free_plane_resources)(drmModePlaneResPtr p);
	drmModeCrtcPtr (*get_crtc)(int fd, uint32_t id);
	void (*free_crtc)(drmModeCrtcPtr p);
	drmModePlanePtr (*get_plane)(int fd, uint32_t id);
	void (*free_plane)(drmModePlanePtr p);
	drmModeConnectorPtr (*get_connector_current)(int fd, uint32_t id);
	void (*free_connector)(drmModeConnectorPtr p);
	drmModeEncoderPtr (*get_encoder)(int fd, uint32_t id);
	void (*free_encoder)(drmModeEncoderPtr p);
	drmModeFB2Ptr (*get_fb2)(int fd, uint32_t id);
	void (*free_fb2)(drmModeFB2Ptr p);
	drmModeObjectPropertiesPtr (*get_properties)(int fd, uint32_t id, uint32_t type);
	void (*free_properties)(drmModeObjectPropertiesPtr p);
	drmModePropertyPtr (*get_property)(int fd, uint32_t id);
	void (*free_property)(drmModePropertyPtr p);
	/* GEM handles GETFB2 gave a privileged caller: closed at once, so
	 * nothing is held (may be NULL). */
	int (*close_handle)(int fd, uint32_t handle);
};

/*
 * Fill card (minor set by the caller) from fd through ops: CRTCs,
 * planes, connectors, and each FB a plane or CRTC shows.  An FB gone by
 * the time it is read is kept with gone set; a connector or plane gone
 * mid-read is left out.  0, or -errno with reason filled.
 */
int kms_read_card(const struct kms_drm_ops *ops, int fd, struct kms_card *card,
		  char *reason, size_t reason_len);

/*
 * Name each FB's owner (src/kms-owner.c) from dri_dir, debugfs' dri/N
 * (its framebuffer and clients files).  Never fails: an owner that
 * cannot be told is KMS_OWNER_UNKNOWN with its reason.
 */
void kms_owner_resolve(struct kms_card *card, const char *dri_dir);

struct kms_snap;

/* What snap CONNECTOR adds to the reader's calls (src/kms-capture.c). */
struct kms_capture_ops {
	const struct kms_drm_ops *drm; /* its close_handle is required here */
	/* len bytes of GEM handle's buffer mapped read-only, or NULL with
	 * errno set */
	void *(*map)(int fd, uint32_t handle, size_t len);
	void (*unmap)(void *map, size_t len);
};

/*
 * kms_connector_snap() on card fd (cardN, N = minor): read the card, find
 * connector, GETFB2 the FB its primary plane shows, map, copy, convert.
 * Every handle GETFB2 gave is closed and the mapping undone before it
 * returns.  0, or -errno with reason filled (see kms-capture.h).
 */
int kms_capture_card(const struct kms_capture_ops *ops, int fd, unsigned minor,
		     const char *connector, struct kms_snap *snap, char *reason,
		     size_t reason_len);
