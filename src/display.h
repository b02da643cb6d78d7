/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The display behind each framebuffer: the DRM side, read from
 * /sys/class/drm only.  No /dev/dri node is opened, so nothing becomes DRM
 * master and nothing is held: like the graphics scan, display_scan() returns
 * copies.  A card and a framebuffer belong together when they drive the
 * same parent device (bochs-drm's card0 and fb0 both sit on 0000:00:02.0).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "edid.h"
#include "fbclass.h"

/* A connector's "status" attribute. */
enum drm_status {
	DRM_STATUS_UNREADABLE, /* missing, unreadable, or a word we do not know */
	DRM_STATUS_CONNECTED,
	DRM_STATUS_DISCONNECTED,
	DRM_STATUS_UNKNOWN, /* the kernel itself says "unknown" */
};

/* The size of an EDID we read at most: 256 blocks, what the kernel serves. */
#define DRM_EDID_MAX (256 * EDID_BLOCK_SIZE)

struct drm_connector {
	char *name; /* "card0-Virtual-1" */
	char *syspath; /* /sys/devices/.../drm/card0/card0-Virtual-1 */
	enum drm_status status;
	char *enabled; /* "enabled" or "disabled"; NULL when unreadable */
	char *dpms; /* "On", "Off", ...; NULL when unreadable */
	char **modes; /* the "modes" lines, preferred first */
	size_t n_modes;
	uint8_t *edid; /* as read; NULL when the attribute is absent or empty */
	size_t edid_len;
	struct edid_info edid_info; /* edid_decode() of it (length 0: none) */
	/* What could not be read, e.g. "status: missing"; NULL when all was. */
	char *problem;
};

struct drm_card {
	char *name; /* "card0" */
	char *syspath; /* /sys/devices/pci0000:00/0000:00:02.0/drm/card0 */
	dev_t devnum; /* 226:N; 0 when "dev" is unreadable */
	struct fb_parent *parents; /* parents[0]: the device it drives */
	size_t n_parents;
	char *render; /* "renderD128" on the same device; NULL when none */
	dev_t render_devnum; /* 226:128; 0 when unknown */
	struct drm_connector *connectors; /* sorted by name */
	size_t n_connectors;
};

struct drm_list {
	struct drm_card *cards; /* sorted by number */
	size_t n;
};

/* What display_scan() reads. */
enum drm_scan_what {
	DRM_SCAN_ALL = 0,
	/* What a node plan needs: each card's parents and its connectors'
	 * status, through the sysfs seam's direct reader.  No device
	 * numbers, enabled, dpms, modes or render nodes. */
	DRM_SCAN_PLAN = 1 << 0,
	/* With DRM_SCAN_PLAN: the EDIDs too (rules on monitor=). */
	DRM_SCAN_EDID = 1 << 1,
};

/* Read /sys/class/drm: every card with its connectors and render node.  No
 * class (no DRM driver loaded) is an empty list.  A card that vanishes
 * during the scan is left out with a warning; an unreadable attribute is
 * recorded in the connector's problem.  0 or -errno (the class could not
 * be read, or no memory). */
int display_scan(struct drm_list *list, unsigned what);
void display_list_free(struct drm_list *list);

/* What a framebuffer is.  See display_kind_of(). */
enum fb_kind {
	FB_KIND_FBDEV, /* a native fbdev driver */
	FB_KIND_DRM, /* the fbdev emulation of a DRM driver */
	FB_KIND_FIRMWARE, /* what the firmware set up: vesafb, efifb, simplefb, ... */
	FB_KIND_VIRTUAL, /* vfb: memory only, no display */
};
const char *display_kind_name(enum fb_kind kind);

/*
 * Pure.  id is fix.id (or the sysfs "name"), card the DRM card of the
 * framebuffer (display_card_of_fb) or NULL.  In this order:
 * - virtual: the driver is vfb;
 * - firmware: the driver is vesa-framebuffer (vesafb), efi-framebuffer
 *   (efifb), simple-framebuffer (simplefb), simpledrm or offb, or the id
 *   is one those drivers set ("VESA VGA", "EFI VGA", "simple",
 *   "simpledrmdrmfb", "OFfb ...");
 * - drm: the id ends in "drmfb" (what DRM's fbdev emulation names it), or
 *   a DRM card drives the same device;
 * - fbdev: anything else.
 */
enum fb_kind display_kind_of(const struct fb_device *dev, const char *id,
			     const struct drm_card *card);

/* Pure.  The card that drives the framebuffer's parent device; for a
 * firmware framebuffer whose device sits on another (6.12 puts
 * vesa-framebuffer.0 under the PCI VGA device), the card of that one: the
 * native driver that takes over.  NULL when none. */
const struct drm_card *display_card_of_fb(const struct drm_list *drm,
					  const struct fb_device *dev);
/* Pure.  Is a framebuffer driving this card?  (list --drm shows the ones
 * that have none.) */
bool display_card_has_fb(const struct drm_card *card, const struct fb_device_list *fbs);

const char *display_status_name(enum drm_status status);
/* Pure.  The card's status for a table: "connected" when a connector is,
 * "disconnected" when all are, "unknown" otherwise; NULL without
 * connectors. */
const char *display_card_status(const struct drm_card *card);
/* Why a card has no framebuffer, from what sysfs tells (module parameters;
 * doctor reads more): "drm_kms_helper.fbdev_emulation=0", ...; NULL when
 * sysfs does not say. */
const char *display_card_why_no_fb(const struct drm_card *card, char *buf, size_t len);
/* Pure.  The connector's monitor for a table: the EDID's name descriptor,
 * else "VENDOR PRODUCT" ("DEL 0xa0b1"); "" without an EDID; NULL ("bad
 * EDID") when the EDID has problems.  Writes into buf. */
const char *display_connector_monitor(const struct drm_connector *c, char *buf,
				      size_t len);
/* The connector's name without its card: "Virtual-1" for card0-Virtual-1. */
const char *display_connector_short_name(const struct drm_connector *c);
