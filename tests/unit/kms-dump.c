/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* kms-dump [N]: what the KMS reader (src/kms.h) makes of /dev/dri/cardN,
 * as JSON, for the VM tier to hold against drm_info -j
 * (tests/vm/scenarios/kms.sh).  Exit 0, or 1 with "cannot tell (REASON)"
 * on stderr. */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>

#include "kms.h"

static const char *const plane_types[] = { "unknown", "overlay", "primary", "cursor" };
static const char *const owner_kinds[] = { "unknown", "fbcon", "process" };

static json_object *mode_json(const struct kms_crtc *c)
{
	json_object *m;

	if (!c->mode_valid)
		return NULL;
	m = json_object_new_object();
	json_object_object_add(m, "name", json_object_new_string(c->mode.name));
	json_object_object_add(m, "clock", json_object_new_int64(c->mode.clock_khz));
	json_object_object_add(m, "hdisplay", json_object_new_int(c->mode.hdisplay));
	json_object_object_add(m, "hsync_start", json_object_new_int(c->mode.hsync_start));
	json_object_object_add(m, "hsync_end", json_object_new_int(c->mode.hsync_end));
	json_object_object_add(m, "htotal", json_object_new_int(c->mode.htotal));
	json_object_object_add(m, "vdisplay", json_object_new_int(c->mode.vdisplay));
	json_object_object_add(m, "vsync_start", json_object_new_int(c->mode.vsync_start));
	json_object_object_add(m, "vsync_end", json_object_new_int(c->mode.vsync_end));
	json_object_object_add(m, "vtotal", json_object_new_int(c->mode.vtotal));
	json_object_object_add(m, "flags", json_object_new_int64(c->mode.flags));
	json_object_object_add(m, "vrefresh", json_object_new_int64(c->mode.vrefresh));
	json_object_object_add(m, "refresh_mhz",
			       json_object_new_int64(c->mode.refresh_mhz));
	return m;
}

static void add_crtcs(json_object *root, const struct kms_card *card)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < card->n_crtcs; i++) {
		const struct kms_crtc *c = &card->crtcs[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "id", json_object_new_int64(c->id));
		json_object_object_add(o, "active", json_object_new_boolean(c->active));
		json_object_object_add(o, "fb_id", json_object_new_int64(c->fb_id));
		json_object_object_add(o, "mode", mode_json(c));
		json_object_array_add(a, o);
	}
	json_object_object_add(root, "crtcs", a);
}

static void add_planes(json_object *root, const struct kms_card *card)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < card->n_planes; i++) {
		const struct kms_plane *p = &card->planes[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "id", json_object_new_int64(p->id));
		json_object_object_add(o, "type",
				       json_object_new_string(plane_types[p->type]));
		json_object_object_add(o, "crtc_id", json_object_new_int64(p->crtc_id));
		json_object_object_add(o, "fb_id", json_object_new_int64(p->fb_id));
		if (p->have_position) {
			json_object_object_add(o, "crtc_x",
					       json_object_new_int(p->crtc_x));
			json_object_object_add(o, "crtc_y",
					       json_object_new_int(p->crtc_y));
			json_object_object_add(o, "crtc_w",
					       json_object_new_int64(p->crtc_w));
			json_object_object_add(o, "crtc_h",
					       json_object_new_int64(p->crtc_h));
		}
		json_object_array_add(a, o);
	}
	json_object_object_add(root, "planes", a);
}

static void add_connectors(json_object *root, const struct kms_card *card)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < card->n_connectors; i++) {
		const struct kms_connector *c = &card->connectors[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "id", json_object_new_int64(c->id));
		json_object_object_add(o, "name", json_object_new_string(c->name));
		json_object_object_add(o, "status", json_object_new_int(c->connection));
		json_object_object_add(o, "crtc_id", json_object_new_int64(c->crtc_id));
		json_object_object_add(o, "link_status",
				       json_object_new_int(c->link_status));
		json_object_object_add(o, "dpms", json_object_new_int(c->dpms));
		json_object_array_add(a, o);
	}
	json_object_object_add(root, "connectors", a);
}

static json_object *owner_json(const struct kms_owner *ow)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "kind", json_object_new_string(owner_kinds[ow->kind]));
	json_object_object_add(o, "comm", json_object_new_string(ow->comm));
	json_object_object_add(o, "pid", json_object_new_int(ow->pid));
	json_object_object_add(o, "master", json_object_new_boolean(ow->master));
	json_object_object_add(o, "reason", json_object_new_string(ow->reason));
	return o;
}

static void add_fbs(json_object *root, const struct kms_card *card)
{
	json_object *a = json_object_new_array();
	char fourcc[5];

	for (size_t i = 0; i < card->n_fbs; i++) {
		const struct kms_fb *f = &card->fbs[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "id", json_object_new_int64(f->id));
		json_object_object_add(o, "gone", json_object_new_boolean(f->gone));
		json_object_object_add(o, "width", json_object_new_int64(f->width));
		json_object_object_add(o, "height", json_object_new_int64(f->height));
		json_object_object_add(o, "format", json_object_new_int64(f->fourcc));
		json_object_object_add(o, "fourcc",
				       json_object_new_string(
					       kms_fourcc_str(f->fourcc, fourcc)));
		json_object_object_add(o, "modifier", json_object_new_uint64(f->modifier));
		json_object_object_add(o, "owner", owner_json(&f->owner));
		json_object_array_add(a, o);
	}
	json_object_object_add(root, "fbs", a);
}

int main(int argc, char **argv)
{
	struct kms_card card;
	char reason[256];
	unsigned minor = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 0;
	json_object *root;

	if (kms_card_read(minor, &card, reason, sizeof(reason)) < 0) {
		fprintf(stderr, "kms-dump: card%u: cannot tell (%s)\n", minor, reason);
		return 1;
	}
	root = json_object_new_object();
	json_object_object_add(root, "card", json_object_new_int64(card.minor));
	json_object_object_add(root, "driver", json_object_new_string(card.driver));
	add_crtcs(root, &card);
	add_planes(root, &card);
	add_connectors(root, &card);
	add_fbs(root, &card);
	puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY));
	json_object_put(root);
	kms_card_free(&card);
	return 0;
}
