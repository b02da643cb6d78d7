/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libdrm's answers into struct kms_card: see kms-read.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xf86drm.h>

#include "kms-read.h"
#include "macro.h"

/* The kernel's drm_connector_enum_list: what sysfs puts in cardN-TYPE-I. */
static const char *const connector_type_names[] = {
	"Unknown", "VGA",	"DVI-I", "DVI-D", "DVI-A",     "Composite", "SVIDEO",
	"LVDS",	   "Component", "DIN",	 "DP",	  "HDMI-A",    "HDMI-B",    "TV",
	"eDP",	   "Virtual",	"DSI",	 "DPI",	  "Writeback", "SPI",	    "USB",
};

const char *kms_fourcc_str(uint32_t fourcc, char buf[static 5])
{
	for (int i = 0; i < 4; i++) {
		char c = (char)((fourcc >> (8 * i)) & 0xff);

		buf[i] = c >= 0x20 && c < 0x7f ? c : '?';
	}
	buf[4] = '\0';
	return buf;
}

uint32_t kms_mode_refresh_mhz(const struct kms_mode *m)
{
	uint64_t num = (uint64_t)m->clock_khz * 1000 * 1000, den;

	den = (uint64_t)m->htotal * m->vtotal;
	if (m->flags & DRM_MODE_FLAG_INTERLACE)
		num *= 2;
	if (m->flags & DRM_MODE_FLAG_DBLSCAN)
		den *= 2;
	return den ? (uint32_t)((num + den / 2) / den) : 0;
}

static void mode_copy(struct kms_mode *to, const drmModeModeInfo *m)
{
	snprintf(to->name, sizeof(to->name), "%.*s", (int)sizeof(m->name), m->name);
	to->clock_khz = m->clock;
	to->hdisplay = m->hdisplay;
	to->hsync_start = m->hsync_start;
	to->hsync_end = m->hsync_end;
	to->htotal = m->htotal;
	to->vdisplay = m->vdisplay;
	to->vsync_start = m->vsync_start;
	to->vsync_end = m->vsync_end;
	to->vtotal = m->vtotal;
	to->flags = m->flags;
	to->vrefresh = m->vrefresh;
	to->refresh_mhz = kms_mode_refresh_mhz(to);
}

/* The values of an object's properties that fbclassctl reads, by name. */
struct kms_props {
	const char *const *names;
	size_t n;
	uint64_t *values;
	bool *have;
};

static void props_read(const struct kms_drm_ops *ops, int fd, uint32_t id, uint32_t type,
		       struct kms_props *p)
{
	drmModeObjectPropertiesPtr props = ops->get_properties(fd, id, type);

	for (size_t k = 0; k < p->n; k++)
		p->have[k] = false;
	if (!props)
		return;
	for (uint32_t i = 0; i < props->count_props; i++) {
		drmModePropertyPtr prop = ops->get_property(fd, props->props[i]);

		if (!prop)
			continue;
		for (size_t k = 0; k < p->n; k++) {
			if (strcmp(prop->name, p->names[k]) == 0) {
				p->values[k] = props->prop_values[i];
				p->have[k] = true;
			}
		}
		ops->free_property(prop);
	}
	ops->free_properties(props);
}

#define KMS_PROPS(var, ...)                                                          \
	static const char *const var##_names[] = { __VA_ARGS__ };                    \
	uint64_t var##_values[ARRAY_SIZE(var##_names)] = { 0 };                      \
	bool var##_have[ARRAY_SIZE(var##_names)];                                    \
	struct kms_props var = { var##_names, ARRAY_SIZE(var##_names), var##_values, \
				 var##_have }

static int read_crtc(const struct kms_drm_ops *ops, int fd, uint32_t id,
		     struct kms_crtc *c)
{
	drmModeCrtcPtr crtc = ops->get_crtc(fd, id);
	KMS_PROPS(p, "ACTIVE");

	if (!crtc)
		return -errno;
	c->id = id;
	c->mode_valid = crtc->mode_valid;
	if (crtc->mode_valid)
		mode_copy(&c->mode, &crtc->mode);
	c->fb_id = crtc->buffer_id;
	ops->free_crtc(crtc);
	props_read(ops, fd, id, DRM_MODE_OBJECT_CRTC, &p);
	c->active = p.have[0] ? p.values[0] != 0 : c->mode_valid;
	return 0;
}

static int read_plane(const struct kms_drm_ops *ops, int fd, uint32_t id,
		      struct kms_plane *pl)
{
	drmModePlanePtr plane = ops->get_plane(fd, id);
	KMS_PROPS(p, "type", "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H", "SRC_X", "SRC_Y",
		  "SRC_W", "SRC_H");

	if (!plane)
		return -errno;
	pl->id = id;
	pl->crtc_id = plane->crtc_id;
	pl->fb_id = plane->fb_id;
	ops->free_plane(plane);
	props_read(ops, fd, id, DRM_MODE_OBJECT_PLANE, &p);
	if (p.have[0]) {
		/* DRM_PLANE_TYPE_OVERLAY 0, PRIMARY 1, CURSOR 2 */
		pl->type = p.values[0] <= 2 ? (enum kms_plane_type)(p.values[0] + 1)
					    : KMS_PLANE_UNKNOWN;
	}
	pl->have_position = p.have[1] && p.have[2] && p.have[3] && p.have[4];
	if (pl->have_position) {
		pl->crtc_x = (int32_t)p.values[1];
		pl->crtc_y = (int32_t)p.values[2];
		pl->crtc_w = (uint32_t)p.values[3];
		pl->crtc_h = (uint32_t)p.values[4];
	}
	pl->have_src = p.have[5] && p.have[6] && p.have[7] && p.have[8];
	if (pl->have_src) {
		pl->src_x = (uint32_t)p.values[5];
		pl->src_y = (uint32_t)p.values[6];
		pl->src_w = (uint32_t)p.values[7];
		pl->src_h = (uint32_t)p.values[8];
	}
	return 0;
}

static uint32_t encoder_crtc(const struct kms_drm_ops *ops, int fd, uint32_t encoder_id)
{
	drmModeEncoderPtr enc;
	uint32_t crtc = 0;

	if (!encoder_id || !ops->get_encoder)
		return 0;
	enc = ops->get_encoder(fd, encoder_id);
	if (enc) {
		crtc = enc->crtc_id;
		ops->free_encoder(enc);
	}
	return crtc;
}

static int read_connector(const struct kms_drm_ops *ops, int fd, unsigned minor,
			  uint32_t id, struct kms_connector *c)
{
	drmModeConnectorPtr conn = ops->get_connector_current(fd, id);
	KMS_PROPS(p, "CRTC_ID", "link-status", "DPMS");
	uint32_t encoder_id;

	if (!conn)
		return -errno;
	c->id = id;
	snprintf(c->name, sizeof(c->name), "card%u-%s-%u", minor,
		 conn->connector_type < ARRAY_SIZE(connector_type_names)
			 ? connector_type_names[conn->connector_type]
			 : "Unknown",
		 conn->connector_type_id);
	c->connection = (enum kms_connection)conn->connection;
	encoder_id = conn->encoder_id;
	ops->free_connector(conn);
	props_read(ops, fd, id, DRM_MODE_OBJECT_CONNECTOR, &p);
	c->crtc_id =
		p.have[0] ? (uint32_t)p.values[0] : encoder_crtc(ops, fd, encoder_id);
	c->link_status = p.have[1] ? (int)p.values[1] : -1;
	c->dpms = p.have[2] ? (int)p.values[2] : -1;
	return 0;
}

static void read_fb(const struct kms_drm_ops *ops, int fd, struct kms_fb *f)
{
	drmModeFB2Ptr fb = ops->get_fb2(fd, f->id);

	if (!fb) {
		int e = errno;

		f->gone = e == ENOENT;
		f->owner.kind = KMS_OWNER_UNKNOWN;
		snprintf(f->owner.reason, sizeof(f->owner.reason), "%s",
			 f->gone ? "the FB was freed before it could be read"
				 : "GETFB2 failed");
		if (!f->gone)
			snprintf(f->owner.reason, sizeof(f->owner.reason),
				 "GETFB2 failed: %s", strerror(e));
		return;
	}
	f->width = fb->width;
	f->height = fb->height;
	f->fourcc = fb->pixel_format;
	f->have_modifier = fb->flags & DRM_MODE_FB_MODIFIERS;
	f->modifier = f->have_modifier ? fb->modifier : 0;
	/* a privileged caller is given GEM handles: give them back now */
	for (int i = 0; i < 4 && ops->close_handle; i++) {
		bool seen = false;

		for (int j = 0; j < i; j++)
			seen |= fb->handles[j] == fb->handles[i];
		if (fb->handles[i] && !seen)
			ops->close_handle(fd, fb->handles[i]);
	}
	ops->free_fb2(fb);
}

static int fb_add(struct kms_card *card, uint32_t id)
{
	struct kms_fb *n;

	if (!id || kms_card_fb(card, id))
		return 0;
	n = realloc(card->fbs, (card->n_fbs + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	card->fbs = n;
	memset(&n[card->n_fbs], 0, sizeof(*n));
	n[card->n_fbs++].id = id;
	return 0;
}

static int read_fbs(const struct kms_drm_ops *ops, int fd, struct kms_card *card)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < card->n_planes; i++)
		r = fb_add(card, card->planes[i].fb_id);
	for (size_t i = 0; r == 0 && i < card->n_crtcs; i++)
		r = fb_add(card, card->crtcs[i].fb_id);
	for (size_t i = 0; r == 0 && i < card->n_fbs; i++)
		read_fb(ops, fd, &card->fbs[i]);
	return r;
}

/* Objects gone mid-read (ENOENT) are left out; other errors end the read. */
static int read_crtcs_connectors(const struct kms_drm_ops *ops, int fd,
				 struct kms_card *card)
{
	drmModeResPtr res = ops->get_resources(fd);
	int r = 0;

	if (!res)
		return errno ? -errno : -EIO;
	card->crtcs =
		calloc(res->count_crtcs ? res->count_crtcs : 1, sizeof(*card->crtcs));
	card->connectors = calloc(res->count_connectors ? res->count_connectors : 1,
				  sizeof(*card->connectors));
	if (!card->crtcs || !card->connectors)
		r = -ENOMEM;
	for (int i = 0; r == 0 && i < res->count_crtcs; i++) {
		r = read_crtc(ops, fd, res->crtcs[i], &card->crtcs[card->n_crtcs]);
		if (r == 0)
			card->n_crtcs++;
		else if (r == -ENOENT)
			r = 0;
	}
	for (int i = 0; r == 0 && i < res->count_connectors; i++) {
		struct kms_connector *c = &card->connectors[card->n_connectors];

		r = read_connector(ops, fd, card->minor, res->connectors[i], c);
		if (r == 0)
			card->n_connectors++;
		else if (r == -ENOENT)
			r = 0;
	}
	ops->free_resources(res);
	return r;
}

static int read_planes(const struct kms_drm_ops *ops, int fd, struct kms_card *card)
{
	drmModePlaneResPtr res = ops->get_plane_resources(fd);
	int r = 0;

	if (!res)
		return errno ? -errno : -EIO;
	card->planes =
		calloc(res->count_planes ? res->count_planes : 1, sizeof(*card->planes));
	if (!card->planes)
		r = -ENOMEM;
	for (uint32_t i = 0; r == 0 && i < res->count_planes; i++) {
		r = read_plane(ops, fd, res->planes[i], &card->planes[card->n_planes]);
		if (r == 0)
			card->n_planes++;
		else if (r == -ENOENT)
			r = 0;
	}
	ops->free_plane_resources(res);
	return r;
}

int kms_read_card(const struct kms_drm_ops *ops, int fd, struct kms_card *card,
		  char *reason, size_t reason_len)
{
	int r = read_crtcs_connectors(ops, fd, card);
	const char *what = "the card's CRTCs and connectors";

	if (r == 0) {
		what = "the card's planes";
		r = read_planes(ops, fd, card);
	}
	if (r == 0) {
		what = "the FBs shown";
		r = read_fbs(ops, fd, card);
	}
	if (r < 0) {
		snprintf(reason, reason_len, "card%u: cannot read %s: %s", card->minor,
			 what, strerror(-r));
		kms_card_free(card);
	}
	return r;
}

void kms_card_free(struct kms_card *card)
{
	unsigned minor = card->minor;

	free(card->crtcs);
	free(card->planes);
	free(card->connectors);
	free(card->fbs);
	memset(card, 0, sizeof(*card));
	card->minor = minor;
}

const struct kms_crtc *kms_card_crtc(const struct kms_card *card, uint32_t id)
{
	for (size_t i = 0; id && i < card->n_crtcs; i++)
		if (card->crtcs[i].id == id)
			return &card->crtcs[i];
	return NULL;
}

const struct kms_fb *kms_card_fb(const struct kms_card *card, uint32_t id)
{
	for (size_t i = 0; id && i < card->n_fbs; i++)
		if (card->fbs[i].id == id)
			return &card->fbs[i];
	return NULL;
}

const struct kms_plane *kms_card_primary(const struct kms_card *card, uint32_t crtc_id)
{
	for (size_t i = 0; crtc_id && i < card->n_planes; i++)
		if (card->planes[i].crtc_id == crtc_id &&
		    card->planes[i].type == KMS_PLANE_PRIMARY)
			return &card->planes[i];
	return NULL;
}
