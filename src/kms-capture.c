/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* snap CONNECTOR: the FB a connector shows, mapped and converted: see kms-capture.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>
#include <drm_fourcc.h>

#include "kms-capture.h"
#include "kms-read.h"
#include "macro.h"
#include "snap.h"

/* The formats snap reads: where red, green and blue are in a pixel. */
static const struct {
	uint32_t fourcc;
	unsigned bpp;
	uint8_t red[2], green[2], blue[2]; /* offset, length */
} snap_formats[] = {
	{ DRM_FORMAT_XRGB8888, 32, { 16, 8 }, { 8, 8 }, { 0, 8 } },
	{ DRM_FORMAT_ARGB8888, 32, { 16, 8 }, { 8, 8 }, { 0, 8 } },
	{ DRM_FORMAT_XBGR8888, 32, { 0, 8 }, { 8, 8 }, { 16, 8 } },
	{ DRM_FORMAT_ABGR8888, 32, { 0, 8 }, { 8, 8 }, { 16, 8 } },
	{ DRM_FORMAT_RGB565, 16, { 11, 5 }, { 5, 6 }, { 0, 5 } },
	{ DRM_FORMAT_RGB888, 24, { 16, 8 }, { 8, 8 }, { 0, 8 } },
	{ DRM_FORMAT_BGR888, 24, { 0, 8 }, { 8, 8 }, { 16, 8 } },
};

static const char *const modifier_vendors[] = {
	"NONE",	   "INTEL",    "AMD", "NVIDIA",	   "SAMSUNG", "QCOM",
	"VIVANTE", "BROADCOM", "ARM", "ALLWINNER", "AMLOGIC",
};

const char *kms_modifier_name(uint64_t modifier, char *buf, size_t len)
{
	static const struct {
		uint64_t mod;
		const char *name;
	} known[] = {
		{ DRM_FORMAT_MOD_LINEAR, "LINEAR" },
		{ DRM_FORMAT_MOD_INVALID, "INVALID" },
		{ I915_FORMAT_MOD_X_TILED, "I915_X_TILED" },
		{ I915_FORMAT_MOD_Y_TILED, "I915_Y_TILED" },
		{ I915_FORMAT_MOD_Yf_TILED, "I915_Yf_TILED" },
		{ I915_FORMAT_MOD_4_TILED, "I915_4_TILED" },
		{ DRM_FORMAT_MOD_BROADCOM_VC4_T_TILED, "BROADCOM_VC4_T_TILED" },
		{ DRM_FORMAT_MOD_SAMSUNG_64_32_TILE, "SAMSUNG_64_32_TILE" },
		{ DRM_FORMAT_MOD_QCOM_COMPRESSED, "QCOM_COMPRESSED" },
		{ DRM_FORMAT_MOD_VIVANTE_TILED, "VIVANTE_TILED" },
		{ DRM_FORMAT_MOD_VIVANTE_SUPER_TILED, "VIVANTE_SUPER_TILED" },
		{ DRM_FORMAT_MOD_ALLWINNER_TILED, "ALLWINNER_TILED" },
	};
	unsigned vendor = (unsigned)(modifier >> 56);

	for (size_t i = 0; i < ARRAY_SIZE(known); i++) {
		if (known[i].mod == modifier) {
			snprintf(buf, len, "%s", known[i].name);
			return buf;
		}
	}
	if (vendor < ARRAY_SIZE(modifier_vendors))
		snprintf(buf, len, "%s 0x%016" PRIx64, modifier_vendors[vendor], modifier);
	else
		snprintf(buf, len, "vendor 0x%02x 0x%016" PRIx64, vendor, modifier);
	return buf;
}

int kms_snap_format(uint32_t fourcc, uint64_t modifier, struct fb_snap_format *fmt,
		    char *why, size_t why_len)
{
	char name[5], mod[64];

	memset(fmt, 0, sizeof(*fmt));
	if (modifier != DRM_FORMAT_MOD_LINEAR) {
		snprintf(why, why_len,
			 "the FB has modifier %s: only a linear FB (modifier LINEAR) can be read",
			 kms_modifier_name(modifier, mod, sizeof(mod)));
		return -EOPNOTSUPP;
	}
	for (size_t i = 0; i < ARRAY_SIZE(snap_formats); i++) {
		if (snap_formats[i].fourcc != fourcc)
			continue;
		fmt->kind = FB_PIXEL_RGB;
		fmt->bpp = snap_formats[i].bpp;
		fmt->visual = FB_VISUAL_TRUECOLOR;
		fmt->red.offset = snap_formats[i].red[0];
		fmt->red.length = snap_formats[i].red[1];
		fmt->green.offset = snap_formats[i].green[0];
		fmt->green.length = snap_formats[i].green[1];
		fmt->blue.offset = snap_formats[i].blue[0];
		fmt->blue.length = snap_formats[i].blue[1];
		return 0;
	}
	snprintf(why, why_len,
		 "the FB's format is %s (0x%08" PRIx32 "): snap reads XR24, AR24, XB24, "
		 "AB24, RG16, RG24 and BG24",
		 kms_fourcc_str(fourcc, name), fourcc);
	return -EOPNOTSUPP;
}

const char *kms_connector_arg(const char *arg, unsigned *minor)
{
	static const char dir[] = "/sys/class/drm/";
	const char *name = arg;
	char *end;
	unsigned long n;

	if (strncmp(name, dir, sizeof(dir) - 1) == 0)
		name += sizeof(dir) - 1;
	if (strncmp(name, "card", 4) != 0 || name[4] < '0' || name[4] > '9')
		return NULL;
	errno = 0;
	n = strtoul(name + 4, &end, 10);
	if (errno || n > 255 || *end != '-' || !end[1] || strchr(end, '/'))
		return NULL;
	*minor = (unsigned)n;
	return name;
}

void kms_snap_free(struct kms_snap *snap)
{
	free(snap->rgb);
	memset(snap, 0, sizeof(*snap));
}

/* What the plane shows of the FB: its source rectangle (16.16), else the
 * FB's top left, as large as the mode. */
static int plane_area(const struct kms_plane *pl, const struct kms_crtc *crtc,
		      const drmModeFB2 *fb, struct fb_snap_area *a)
{
	if (pl->have_src) {
		a->xoffset = pl->src_x >> 16;
		a->yoffset = pl->src_y >> 16;
		a->width = pl->src_w >> 16;
		a->height = pl->src_h >> 16;
	} else {
		a->xoffset = a->yoffset = 0;
		a->width = MIN(fb->width, (uint32_t)crtc->mode.hdisplay);
		a->height = MIN(fb->height, (uint32_t)crtc->mode.vdisplay);
	}
	a->line_length = fb->pitches[0];
	if (!a->width || !a->height || (uint64_t)a->xoffset + a->width > fb->width ||
	    (uint64_t)a->yoffset + a->height > fb->height)
		return -ERANGE;
	return 0;
}

/* Map the FB's first plane, copy the lines the area needs, convert them. */
static int copy_convert(const struct kms_capture_ops *ops, int fd, const drmModeFB2 *fb,
			const struct fb_snap_format *fmt, const struct fb_snap_area *a,
			struct kms_snap *snap, char *reason, size_t reason_len)
{
	uint64_t row = ((uint64_t)a->xoffset + a->width) * fmt->bpp / 8;
	uint64_t need = (uint64_t)a->line_length * (a->yoffset + a->height - 1) + row;
	long page = sysconf(_SC_PAGESIZE);
	size_t map_len;
	uint8_t *map, *buf;
	int r;

	if (row > a->line_length || need + fb->offsets[0] > SIZE_MAX / 2) {
		snprintf(reason, reason_len, "FB %u: pitch %u is too small for %ux%u",
			 fb->fb_id, a->line_length, a->width, a->height);
		return -ERANGE;
	}
	map_len = (size_t)(need + fb->offsets[0] + (uint64_t)page - 1) &
		  ~(size_t)(page - 1);
	map = ops->map(fd, fb->handles[0], map_len);
	if (!map) {
		r = -errno;
		snprintf(reason, reason_len,
			 "FB %u: cannot map its buffer (%zu bytes): %s", fb->fb_id,
			 map_len, strerror(-r));
		return r;
	}
	buf = calloc(1, (size_t)a->line_length * (a->yoffset + a->height));
	snap->rgb = malloc((size_t)a->width * a->height * 3);
	r = buf && snap->rgb ? fb_snap_copy_guarded(buf, map, fb->offsets[0], need)
			     : -ENOMEM;
	ops->unmap(map, map_len);
	if (r == -ENODEV) {
		snprintf(reason, reason_len,
			 "FB %u: its buffer went away while it was read", fb->fb_id);
		r = -EIO;
	} else if (r == 0) {
		r = fb_snap_convert(buf,
				    (size_t)a->line_length * (a->yoffset + a->height), a,
				    fmt, snap->rgb);
		if (r < 0)
			snprintf(reason, reason_len, "FB %u: cannot convert it: %s",
				 fb->fb_id, strerror(-r));
	} else {
		snprintf(reason, reason_len, "%s", strerror(-r));
	}
	free(buf);
	return r;
}

static int snap_fb(const struct kms_capture_ops *ops, int fd, const drmModeFB2 *fb,
		   const struct kms_plane *pl, const struct kms_crtc *crtc,
		   struct kms_snap *snap, char *reason, size_t reason_len)
{
	struct fb_snap_format fmt;
	struct fb_snap_area a;
	char why[160];
	int r;

	snap->fb_id = fb->fb_id;
	snap->fourcc = fb->pixel_format;
	snap->modifier =
		fb->flags & DRM_MODE_FB_MODIFIERS ? fb->modifier : DRM_FORMAT_MOD_LINEAR;
	r = kms_snap_format(snap->fourcc, snap->modifier, &fmt, why, sizeof(why));
	if (r < 0) {
		snprintf(reason, reason_len, "FB %u cannot be read: %s", fb->fb_id, why);
		return r;
	}
	if (!fb->handles[0]) {
		snprintf(reason, reason_len,
			 "GETFB2 gave no handle to FB %u's buffer: reading it needs root "
			 "(CAP_SYS_ADMIN)",
			 fb->fb_id);
		return -EACCES;
	}
	if (plane_area(pl, crtc, fb, &a) < 0) {
		snprintf(reason, reason_len,
			 "plane %u shows %ux%u+%u+%u of FB %u, which is only %ux%u",
			 pl->id, pl->src_w >> 16, pl->src_h >> 16, pl->src_x >> 16,
			 pl->src_y >> 16, fb->fb_id, fb->width, fb->height);
		return -ERANGE;
	}
	r = copy_convert(ops, fd, fb, &fmt, &a, snap, reason, reason_len);
	if (r < 0) {
		kms_snap_free(snap);
		return r;
	}
	snap->width = a.width;
	snap->height = a.height;
	return 0;
}

/* GETFB2 the FB the plane shows, snap it, close every handle it gave. */
static int snap_plane(const struct kms_capture_ops *ops, int fd,
		      const struct kms_plane *pl, const struct kms_crtc *crtc,
		      struct kms_snap *snap, char *reason, size_t reason_len)
{
	drmModeFB2Ptr fb = ops->drm->get_fb2(fd, pl->fb_id);
	int r;

	if (!fb) {
		r = errno ? -errno : -EIO;
		if (r == -ENOENT)
			snprintf(reason, reason_len,
				 "FB %u was freed before it could be read (the screen changed)",
				 pl->fb_id);
		else
			snprintf(reason, reason_len, "GETFB2 of FB %u: %s", pl->fb_id,
				 strerror(-r));
		return r;
	}
	r = snap_fb(ops, fd, fb, pl, crtc, snap, reason, reason_len);
	for (int i = 0; i < 4; i++) {
		bool seen = false;

		for (int j = 0; j < i; j++)
			seen |= fb->handles[j] == fb->handles[i];
		if (fb->handles[i] && !seen)
			ops->drm->close_handle(fd, fb->handles[i]);
	}
	ops->drm->free_fb2(fb);
	return r;
}

static const struct kms_connector *find_connector(const struct kms_card *card,
						  const char *name)
{
	for (size_t i = 0; i < card->n_connectors; i++)
		if (strcmp(card->connectors[i].name, name) == 0)
			return &card->connectors[i];
	return NULL;
}

int kms_capture_card(const struct kms_capture_ops *ops, int fd, unsigned minor,
		     const char *connector, struct kms_snap *snap, char *reason,
		     size_t reason_len)
{
	struct kms_card card = { .minor = minor };
	const struct kms_connector *c;
	const struct kms_crtc *crtc;
	const struct kms_plane *pl;
	int r;

	memset(snap, 0, sizeof(*snap));
	r = kms_read_card(ops->drm, fd, &card, reason, reason_len);
	if (r < 0)
		return r;
	c = find_connector(&card, connector);
	crtc = c ? kms_card_crtc(&card, c->crtc_id) : NULL;
	pl = crtc ? kms_card_primary(&card, crtc->id) : NULL;
	if (!c) {
		snprintf(reason, reason_len, "no such connector on card%u", minor);
		r = -ENODEV;
	} else if (!crtc || !crtc->active) {
		snprintf(reason, reason_len, "it shows nothing: no active CRTC drives it");
		r = -ENOLINK;
	} else if (!pl || !pl->fb_id) {
		snprintf(reason, reason_len,
			 "it shows nothing: CRTC %u has no primary FB", crtc->id);
		r = -ENOLINK;
	} else {
		r = snap_plane(ops, fd, pl, crtc, snap, reason, reason_len);
	}
	kms_card_free(&card);
	return r;
}
