/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * What each connector of a DRM card shows, joined from sysfs (display.h:
 * the connector's name, status and monitor) and KMS (kms.h: its CRTC,
 * mode, FB and that FB's owner).  list --connectors prints one row per
 * connector from it, info one scanout section per framebuffer.  Where KMS
 * cannot tell (libdrm missing, the static build, no /dev/dri node) the
 * sysfs half stands and the reason is kept.
 */

#include "jsonc-backend.h"
#include <stdbool.h>
#include <stdio.h>

#include "display.h"
#include "kms.h"
#include "view.h"

struct scanout_card {
	const struct drm_card *card; /* sysfs */
	const char *fbdev; /* its fbdev emulation's fb, "fb0"; NULL when none */
	struct kms_card kms; /* valid when have_kms */
	bool have_kms;
	char reason[256]; /* why not */
};

/* The name of the card's fbdev emulation among fbs (a drm-kind fb on the
 * same device), NULL when it has none. */
const char *scanout_fbdev_of(const struct drm_card *card,
			     const struct fb_device_list *fbs);
/* Read card's KMS state (card->devnum's minor), changing nothing on
 * screen; on failure have_kms is false and reason says why.  fbdev may be
 * NULL. */
void scanout_card_read(struct scanout_card *s, const struct drm_card *card,
		       const char *fbdev);
void scanout_card_free(struct scanout_card *s);
/* KMS's connector of that sysfs name ("card0-Virtual-1"), NULL when KMS
 * cannot tell or has none. */
const struct kms_connector *scanout_connector(const struct scanout_card *s,
					      const char *name);

/* The cells of list --connectors for connector kc (may be NULL: all
 * empty): CRTC, MODE, SCANOUT, OWNER; "" when there is nothing.  The
 * OWNER's comm is raw: the table escapes it. */
const char *scanout_crtc_cell(const struct scanout_card *s,
			      const struct kms_connector *kc, char *buf, size_t len);
const char *scanout_mode_cell(const struct scanout_card *s,
			      const struct kms_connector *kc, char *buf, size_t len);
const char *scanout_fb_cell(const struct scanout_card *s, const struct kms_connector *kc,
			    char *buf, size_t len);
const char *scanout_owner_cell(const struct scanout_card *s,
			       const struct kms_connector *kc, char *buf, size_t len);

/* Is framebuffer v on screen, from s, the read of its card (NULL when
 * none): no for vfb; unknown unless v is a DRM card's fbdev emulation
 * and s could read KMS; else kms_card_shown().  info's SHOWN, metrics'. */
enum kms_shown scanout_fb_shown(const struct fb_view *v, const struct scanout_card *s);

/* info's section for framebuffer v (after fb_view_join_display()): SHOWN,
 * and for the fbdev emulation of a DRM card, each of the card's
 * connectors and what it shows.  The card is read, and let go, here. */
struct json_object *scanout_json(const struct fb_view *v);
void scanout_print(FILE *out, const struct fb_view *v);
