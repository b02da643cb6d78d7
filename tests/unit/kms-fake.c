/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libdrm's answers for src/kms-read.c out of a drm_info -j capture
 * (tests/unit/kms/NAME/drm_info.json): each getter builds what libdrm
 * would return from the JSON drm_info printed on a real kernel.  drm_info
 * has no connector type id, so a connector's is its rank among those of
 * its type, as the kernel numbers them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xf86drm.h>

#include "kms-fake.h"

struct kms_fake kms_fake;

int kms_fake_load(const char *name, char *dir, size_t dir_len)
{
	const char *top = getenv("top_srcdir");
	char path[600];

	snprintf(dir, dir_len, "%s/tests/unit/kms/%s", top ? top : ".", name);
	snprintf(path, sizeof(path), "%s/drm_info.json", dir);
	json_object_put(kms_fake.root);
	memset(&kms_fake, 0, sizeof(kms_fake));
	kms_fake.root = json_object_from_file(path);
	if (!kms_fake.root)
		fprintf(stderr, "%s: cannot read it\n", path);
	return kms_fake.root ? 0 : -1;
}

static json_object *card(void)
{
	json_object *c = NULL;

	json_object_object_foreach(kms_fake.root, key, val)
	{
		(void)key;
		c = val;
		break;
	}
	return c;
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static uint64_t num(json_object *o, const char *key)
{
	json_object *v = get(o, key);

	return v ? (uint64_t)json_object_get_int64(v) : 0;
}

/* The object of array `what` with this id, or NULL with errno ENOENT. */
static json_object *object(const char *what, uint32_t id)
{
	json_object *a = get(card(), what);

	for (size_t i = 0; a && i < json_object_array_length(a); i++) {
		json_object *o = json_object_array_get_idx(a, i);

		if (num(o, "id") == id && id != kms_fake.vanished)
			return o;
	}
	errno = ENOENT;
	return NULL;
}

static uint32_t *ids(const char *what, int *count)
{
	json_object *a = get(card(), what);
	size_t n = a ? json_object_array_length(a) : 0;
	uint32_t *v = calloc(n + 1, sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = (uint32_t)num(json_object_array_get_idx(a, i), "id");
	*count = (int)n;
	return v;
}

static drmModeResPtr get_resources(int fd)
{
	drmModeResPtr r = calloc(1, sizeof(*r));

	r->crtcs = ids("crtcs", &r->count_crtcs);
	r->connectors = ids("connectors", &r->count_connectors);
	r->encoders = ids("encoders", &r->count_encoders);
	return r;
}

static void free_resources(drmModeResPtr r)
{
	free(r->crtcs);
	free(r->connectors);
	free(r->encoders);
	free(r);
}

static drmModePlaneResPtr get_plane_resources(int fd)
{
	drmModePlaneResPtr r = calloc(1, sizeof(*r));
	int n;

	r->planes = ids("planes", &n);
	r->count_planes = (uint32_t)n;
	return r;
}

static void free_plane_resources(drmModePlaneResPtr r)
{
	free(r->planes);
	free(r);
}

static void mode_from(drmModeModeInfo *m, json_object *o)
{
	m->clock = (uint32_t)num(o, "clock");
	m->hdisplay = (uint16_t)num(o, "hdisplay");
	m->hsync_start = (uint16_t)num(o, "hsync_start");
	m->hsync_end = (uint16_t)num(o, "hsync_end");
	m->htotal = (uint16_t)num(o, "htotal");
	m->vdisplay = (uint16_t)num(o, "vdisplay");
	m->vsync_start = (uint16_t)num(o, "vsync_start");
	m->vsync_end = (uint16_t)num(o, "vsync_end");
	m->vtotal = (uint16_t)num(o, "vtotal");
	m->vrefresh = (uint32_t)num(o, "vrefresh");
	m->flags = (uint32_t)num(o, "flags");
	m->type = (uint32_t)num(o, "type");
	snprintf(m->name, sizeof(m->name), "%s", json_object_get_string(get(o, "name")));
}

static drmModeCrtcPtr get_crtc(int fd, uint32_t id)
{
	json_object *o = object("crtcs", id);
	drmModeCrtcPtr c;

	if (!o)
		return NULL;
	c = calloc(1, sizeof(*c));
	c->crtc_id = id;
	c->buffer_id = (uint32_t)num(o, "fb_id");
	c->mode_valid = num(get(o, "mode"), "clock") != 0;
	if (c->mode_valid)
		mode_from(&c->mode, get(o, "mode"));
	return c;
}

static drmModePlanePtr get_plane(int fd, uint32_t id)
{
	json_object *o = object("planes", id);
	drmModePlanePtr p;

	if (!o)
		return NULL;
	p = calloc(1, sizeof(*p));
	p->plane_id = id;
	p->crtc_id = (uint32_t)num(o, "crtc_id");
	p->fb_id = (uint32_t)num(o, "fb_id");
	p->possible_crtcs = (uint32_t)num(o, "possible_crtcs");
	return p;
}

static drmModeConnectorPtr get_connector(int fd, uint32_t id)
{
	json_object *o = object("connectors", id), *a = get(card(), "connectors");
	drmModeConnectorPtr c;

	if (!o)
		return NULL;
	c = calloc(1, sizeof(*c));
	c->connector_id = id;
	c->connector_type = (uint32_t)num(o, "type");
	c->connection = (drmModeConnection)num(o, "status");
	c->encoder_id = (uint32_t)num(o, "encoder_id");
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		json_object *other = json_object_array_get_idx(a, i);

		if (num(other, "type") == c->connector_type)
			c->connector_type_id++;
		if (other == o)
			break;
	}
	return c;
}

static drmModeEncoderPtr get_encoder(int fd, uint32_t id)
{
	json_object *o = object("encoders", id);
	drmModeEncoderPtr e;

	if (!o)
		return NULL;
	e = calloc(1, sizeof(*e));
	e->encoder_id = id;
	e->crtc_id = (uint32_t)num(o, "crtc_id");
	return e;
}

static drmModeFB2Ptr get_fb2(int fd, uint32_t id)
{
	json_object *a = get(card(), "planes");

	for (size_t i = 0; id != kms_fake.gone_fb && i < json_object_array_length(a);
	     i++) {
		json_object *fb = get(json_object_array_get_idx(a, i), "fb");
		drmModeFB2Ptr f;

		if (!fb || num(fb, "id") != id)
			continue;
		f = calloc(1, sizeof(*f));
		f->fb_id = id;
		f->width = (uint32_t)num(fb, "width");
		f->height = (uint32_t)num(fb, "height");
		f->pixel_format =
			kms_fake.fourcc ? kms_fake.fourcc : (uint32_t)num(fb, "format");
		f->pitches[0] =
			(uint32_t)num(json_object_array_get_idx(get(fb, "planes"), 0),
				      "pitch");
		f->offsets[0] =
			(uint32_t)num(json_object_array_get_idx(get(fb, "planes"), 0),
				      "offset");
		f->modifier = kms_fake.modifier ? kms_fake.modifier : num(fb, "modifier");
		f->flags = f->modifier ? DRM_MODE_FB_MODIFIERS : 0;
		f->handles[0] = kms_fake.handle;
		kms_fake.given_handles += kms_fake.handle != 0;
		return f;
	}
	errno = ENOENT;
	return NULL;
}

static const char *const object_arrays[] = { "crtcs", "planes", "connectors" };

static drmModeObjectPropertiesPtr get_properties(int fd, uint32_t id, uint32_t type)
{
	const char *what = type == DRM_MODE_OBJECT_CRTC	   ? "crtcs"
			   : type == DRM_MODE_OBJECT_PLANE ? "planes"
							   : "connectors";
	json_object *props = get(object(what, id), "properties");
	drmModeObjectPropertiesPtr p;
	uint32_t n = 0;

	if (!props)
		return NULL;
	p = calloc(1, sizeof(*p));
	p->count_props = (uint32_t)json_object_object_length(props);
	p->props = calloc(p->count_props + 1, sizeof(*p->props));
	p->prop_values = calloc(p->count_props + 1, sizeof(*p->prop_values));
	json_object_object_foreach(props, name, prop)
	{
		(void)name;
		p->props[n] = (uint32_t)num(prop, "id");
		p->prop_values[n++] = num(prop, "raw_value");
	}
	return p;
}

static void free_properties(drmModeObjectPropertiesPtr p)
{
	free(p->props);
	free(p->prop_values);
	free(p);
}

static drmModePropertyPtr get_property(int fd, uint32_t id)
{
	for (size_t k = 0; k < sizeof(object_arrays) / sizeof(object_arrays[0]); k++) {
		json_object *a = get(card(), object_arrays[k]);

		for (size_t i = 0; a && i < json_object_array_length(a); i++) {
			json_object_object_foreach(get(json_object_array_get_idx(a, i),
						       "properties"),
						   name, prop)
			{
				drmModePropertyPtr p;

				if (num(prop, "id") != id)
					continue;
				p = calloc(1, sizeof(*p));
				p->prop_id = id;
				snprintf(p->name, sizeof(p->name), "%s", name);
				return p;
			}
		}
	}
	errno = ENOENT;
	return NULL;
}

static int close_handle(int fd, uint32_t handle)
{
	kms_fake.closed_handles++;
	return 0;
}

const struct kms_drm_ops kms_fake_ops = {
	.get_resources = get_resources,
	.free_resources = free_resources,
	.get_plane_resources = get_plane_resources,
	.free_plane_resources = free_plane_resources,
	.get_crtc = get_crtc,
	.free_crtc = (void (*)(drmModeCrtcPtr))free,
	.get_plane = get_plane,
	.free_plane = (void (*)(drmModePlanePtr))free,
	.get_connector_current = get_connector,
	.free_connector = (void (*)(drmModeConnectorPtr))free,
	.get_encoder = get_encoder,
	.free_encoder = (void (*)(drmModeEncoderPtr))free,
	.get_fb2 = get_fb2,
	.free_fb2 = (void (*)(drmModeFB2Ptr))free,
	.get_properties = get_properties,
	.free_properties = free_properties,
	.get_property = get_property,
	.free_property = (void (*)(drmModePropertyPtr))free,
	.close_handle = close_handle,
};
