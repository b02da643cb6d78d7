/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * snap CONNECTOR: what a connector shows, as 8-bit RGB.  The connector's
 * CRTC, that CRTC's primary plane, the plane's FB; GETFB2 gives the FB's
 * format, modifier, pitch and (to root only) a GEM handle, which is
 * mapped read-only (a dumb map, else a PRIME export) as ffmpeg's kmsgrab
 * does.  The plane's source rectangle is copied out and converted by
 * snap.c's own conversion, so the fbdev emulation's buffer gives what
 * snap fbN gives.  Overlays and the cursor are not composited.
 *
 * kms_connector_snap() is the entry: src/kms-libdrm.c, or src/kms-none.c
 * (the static build, which cannot tell).  src/kms-capture.c does the
 * work in every build, on the libdrm calls kms-read.h's tables name, so
 * that tests/unit/test-kms-capture.c feeds it captured answers.
 *
 * It holds nothing after it returns: the GEM handles are closed, the
 * mapping unmapped, the node closed; the node is opened as the reader
 * opens it, so neither the screen nor the DRM master moves.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fb_snap_format;

struct kms_snap {
	uint8_t *rgb; /* width * height * 3, malloc'd */
	unsigned width, height; /* the primary plane's source rectangle */
	uint32_t fb_id;
	uint32_t fourcc;
	uint64_t modifier;
};

/*
 * Capture what connector (as sysfs names it, "card0-Virtual-1") shows.
 * 0, or -errno with reason saying why, the connector not in it:
 * -ENODEV no such connector; -EACCES not root (GETFB2 gives no handle,
 * or the node cannot be opened); -EOPNOTSUPP a format or modifier snap
 * cannot read, or no KMS reader ("libdrm not found", the static build);
 * -ENOLINK the connector shows nothing; -ENOENT the FB went away.
 */
int kms_connector_snap(const char *connector, struct kms_snap *snap, char *reason,
		       size_t reason_len);
void kms_snap_free(struct kms_snap *snap);

/*
 * Is arg a connector ("card0-Virtual-1", or /sys/class/drm/ before it)?
 * Then the name without the directory, and *minor its card; else NULL.
 */
const char *kms_connector_arg(const char *arg, unsigned *minor);

/*
 * The snap format of a DRM fourcc and modifier: XR24, AR24, XB24, AB24,
 * RG16, RG24 and BG24, linear only (alpha dropped).  0, or -EOPNOTSUPP
 * with why naming the format or the modifier that cannot be read.
 */
int kms_snap_format(uint32_t fourcc, uint64_t modifier, struct fb_snap_format *fmt,
		    char *why, size_t why_len);
/* "LINEAR", "I915_X_TILED", else "VENDOR 0x..." (buf of 64 bytes is plenty). */
const char *kms_modifier_name(uint64_t modifier, char *buf, size_t len);
