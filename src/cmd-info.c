/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl info: everything known about a framebuffer. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "commands.h"
#include "account.h"
#include "fbcaps.h"
#include "jsonc-backend.h"
#include "jsonout.h"
#include "log.h"
#include "modeset.h"
#include "nodes.h"
#include "view.h"
#include "scanout.h"
#include "strutil.h"

#define KEYW 18

static void kv(const char *key, const char *fmt, ...) _printf_format_(2, 3);
static void kv(const char *key, const char *fmt, ...)
{
	char value[4096 * 4 + 64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	/* keys name sysfs files, values quote sysfs, EDIDs and /proc */
	_cleanup_free_ char *ekey = str_escape_text(key),
			    *evalue = str_escape_text(value);
	if (!ekey || !evalue)
		return;
	if (*evalue)
		printf("    %-*s %s\n", KEYW, ekey, evalue);
	else
		printf("    %s\n", ekey);
}

/* A value that may hold several lines ("modes") or raw bytes. */
static void kv_text(const char *key, const char *value)
{
	const char *p = value;
	bool first = true;

	if (!*p) {
		kv(key, "%s", "");
		return;
	}
	while (*p) {
		size_t n = strcspn(p, "\n");
		_cleanup_free_ char *line = strndup(p, n);
		_cleanup_free_ char *esc = line ? str_escape(line, 4096) : NULL;

		kv(first ? key : "", "%s", esc ? esc : "");
		first = false;
		p += n;
		if (*p == '\n')
			p++;
	}
}

static void print_bitfield(const char *key, const struct fb_bitfield *b)
{
	kv(key, "offset %u length %u msb_right %u", b->offset, b->length, b->msb_right);
}

static const char *or_unknown(const char *s, uint32_t v, char *buf, size_t len)
{
	if (s)
		return s;
	snprintf(buf, len, "unknown(%u)", v);
	return buf;
}

static void print_mode_name(char *buf, size_t len, const struct fb_var_screeninfo *var)
{
	uint64_t mhz = fb_refresh_mhz(var);

	if (mhz)
		snprintf(buf, len, "%ux%u-%" PRIu64, var->xres, var->yres,
			 (mhz + 500) / 1000);
	else
		snprintf(buf, len, "%ux%u", var->xres, var->yres);
}

/*
 * Every field of fb_var_screeninfo and fb_fix_screeninfo that info shows,
 * in <linux/fb.h>'s order and with its names: the one list that the text
 * and the JSON output both walk.
 */
enum field_kind {
	FIELD_NUMBER,
	FIELD_ADDRESS, /* 0x... in text, a number in JSON */
	FIELD_BITFIELD,
};

/* size is the member's own (sizeof): __u16 and __u32 fields sit side by
 * side in fb_fix_screeninfo, and each is read at its width. */
struct screeninfo_field {
	const char *name;
	size_t offset, size;
	enum field_kind kind;
};

/* clang-format off */
#define VAR(f, k) { #f, offsetof(struct fb_var_screeninfo, f), \
		    sizeof(((struct fb_var_screeninfo *)0)->f), k }
#define FIX(f, k) { #f, offsetof(struct fb_fix_screeninfo, f), \
		    sizeof(((struct fb_fix_screeninfo *)0)->f), k }
/* clang-format on */

static const struct screeninfo_field var_fields[] = {
	VAR(xres, FIELD_NUMBER),	   VAR(yres, FIELD_NUMBER),
	VAR(xres_virtual, FIELD_NUMBER),   VAR(yres_virtual, FIELD_NUMBER),
	VAR(xoffset, FIELD_NUMBER),	   VAR(yoffset, FIELD_NUMBER),
	VAR(bits_per_pixel, FIELD_NUMBER), VAR(grayscale, FIELD_NUMBER),
	VAR(red, FIELD_BITFIELD),	   VAR(green, FIELD_BITFIELD),
	VAR(blue, FIELD_BITFIELD),	   VAR(transp, FIELD_BITFIELD),
	VAR(nonstd, FIELD_NUMBER),	   VAR(activate, FIELD_NUMBER),
	VAR(height, FIELD_NUMBER),	   VAR(width, FIELD_NUMBER),
	VAR(accel_flags, FIELD_NUMBER),	   VAR(pixclock, FIELD_NUMBER),
	VAR(left_margin, FIELD_NUMBER),	   VAR(right_margin, FIELD_NUMBER),
	VAR(upper_margin, FIELD_NUMBER),   VAR(lower_margin, FIELD_NUMBER),
	VAR(hsync_len, FIELD_NUMBER),	   VAR(vsync_len, FIELD_NUMBER),
	VAR(sync, FIELD_NUMBER),	   VAR(vmode, FIELD_NUMBER),
	VAR(rotate, FIELD_NUMBER),	   VAR(colorspace, FIELD_NUMBER),
};

/* After id, which is text and shown first. */
static const struct screeninfo_field fix_fields[] = {
	FIX(smem_start, FIELD_ADDRESS),	 FIX(smem_len, FIELD_NUMBER),
	FIX(type, FIELD_NUMBER),	 FIX(type_aux, FIELD_NUMBER),
	FIX(visual, FIELD_NUMBER),	 FIX(xpanstep, FIELD_NUMBER),
	FIX(ypanstep, FIELD_NUMBER),	 FIX(ywrapstep, FIELD_NUMBER),
	FIX(line_length, FIELD_NUMBER),	 FIX(mmio_start, FIELD_ADDRESS),
	FIX(mmio_len, FIELD_NUMBER),	 FIX(accel, FIELD_NUMBER),
	FIX(capabilities, FIELD_NUMBER),
};

#undef VAR
#undef FIX

/* A number field at its own width. */
static uint64_t field_number(const void *base, const struct screeninfo_field *f)
{
	const char *p = (const char *)base + f->offset;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (f->size) {
	case sizeof(u16):
		memcpy(&u16, p, sizeof(u16));
		return u16;
	case sizeof(u32):
		memcpy(&u32, p, sizeof(u32));
		return u32;
	default:
		memcpy(&u64, p, sizeof(u64));
		return u64;
	}
}

static const struct fb_bitfield *field_bitfield(const void *base,
						const struct screeninfo_field *f)
{
	return (const struct fb_bitfield *)(const void *)((const char *)base + f->offset);
}

static void print_fields(const void *base, const struct screeninfo_field *fields, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct screeninfo_field *f = &fields[i];

		switch (f->kind) {
		case FIELD_NUMBER:
			kv(f->name, "%" PRIu64, field_number(base, f));
			break;
		case FIELD_ADDRESS:
			kv(f->name, "0x%" PRIx64, field_number(base, f));
			break;
		case FIELD_BITFIELD:
			print_bitfield(f->name, field_bitfield(base, f));
			break;
		}
	}
}

static void info_human_device(const struct fb_device *d)
{
	fputs_escaped(d->name, stdout);
	printf("\n  device:\n");
	kv("name", "%s", d->name);
	kv("devnum", "%u:%u", major(d->devnum), minor(d->devnum));
	kv("devname", "%s", d->devname);
	kv("syspath", "%s", d->syspath);
	kv("path", "%s", d->path_id ? d->path_id : "");

	printf("  sysfs:\n");
	for (size_t i = 0; i < d->n_attrs; i++)
		kv_text(d->attrs[i].name, d->attrs[i].value);

	printf("  parents:\n");
	for (size_t i = 0; i < d->n_parents; i++) {
		const struct fb_parent *p = &d->parents[i];

		printf("    [%zu] ", i);
		fputs_escaped(p->sysname, stdout);
		putchar('\n');
		kv("  syspath", "%s", p->syspath);
		kv("  subsystem", "%s", p->subsystem ? p->subsystem : "");
		kv("  driver", "%s", p->driver ? p->driver : "");
		kv("  module", "%s", p->module ? p->module : "");
		kv("  modalias", "%s", p->modalias ? p->modalias : "");
	}
}

/* The names and values derived from var and fix. */
static void info_human_decoded(const struct fb_view *v)
{
	const struct fb_var_screeninfo *var = &v->hw.var;
	const struct fb_fix_screeninfo *fix = &v->hw.fix;
	char buf[256];

	printf("  decoded:\n");
	kv("type", "%s", or_unknown(fb_type_name(fix->type), fix->type, buf, sizeof(buf)));
	if (fb_type_aux_name(fix->type, fix->type_aux))
		kv("type_aux", "%s", fb_type_aux_name(fix->type, fix->type_aux));
	kv("visual", "%s",
	   or_unknown(fb_visual_name(fix->visual), fix->visual, buf, sizeof(buf)));
	kv("accel", "%s",
	   or_unknown(fb_accel_name(fix->accel), fix->accel, buf, sizeof(buf)));
	kv("sync", "%s", fb_sync_names(var->sync, buf, sizeof(buf)));
	kv("vmode", "%s", fb_vmode_names(var->vmode, buf, sizeof(buf)));
	kv("activate", "%s", fb_activate_names(var->activate, buf, sizeof(buf)));
	kv("format", "%s", v->fmt.name);
	uint64_t mhz = fb_refresh_mhz(var);
	if (mhz)
		kv("refresh", "%" PRIu64 ".%03" PRIu64 " Hz", mhz / 1000, mhz % 1000);
	else
		kv("refresh", "unknown (pixclock %u)", var->pixclock);
	print_mode_name(buf, sizeof(buf), var);
	kv("mode", "%s", buf);
	if (v->hw.cmap.len)
		kv("cmap", "%u entries from %u%s", v->hw.cmap.len, v->hw.cmap.start,
		   v->hw.cmap.has_transp ? ", with transp" : "");
}

static void info_human_hw(const struct fb_view *v)
{
	char buf[256];

	if (!v->hw.valid) {
		printf("  hardware:\n");
		kv("ioctl", "unavailable (%s)", strerror(-v->hw.error));
		return;
	}
	printf("  var (fb_var_screeninfo):\n");
	print_fields(&v->hw.var, var_fields, ARRAY_SIZE(var_fields));

	printf("  fix (fb_fix_screeninfo):\n");
	_cleanup_free_ char *id = str_escape(fb_view_id(v, buf, sizeof(buf)), 64);
	kv("id", "%s", id ? id : "");
	print_fields(&v->hw.fix, fix_fields, ARRAY_SIZE(fix_fields));
	info_human_decoded(v);
}

static void info_human_node(const struct fb_view *v)
{
	printf("  node:\n");
	kv("path", "%s", v->node.path);
	kv("state", "%s",
	   v->node.state == FB_HW_NODE_OK	 ? "ok"
	   : v->node.state == FB_HW_NODE_MISSING ? "missing"
						 : "wrong (not this character device)");
	if (v->node.state != FB_HW_NODE_MISSING) {
		char user[256], group[256];

		if (fb_user_name(v->node.uid, user, sizeof(user)))
			kv("owner", "%s", user);
		else
			kv("owner", "%u", (unsigned)v->node.uid);
		if (fb_group_name(v->node.gid, group, sizeof(group)))
			kv("group", "%s", group);
		else
			kv("group", "%u", (unsigned)v->node.gid);
		kv("mode", "%04o", (unsigned)(v->node.mode & 07777));
	}
	if (v->hw.via_private_node)
		kv("queried", "through a private temporary node");
}

static void info_human_edid(const struct drm_connector *c)
{
	const struct edid_info *e = &c->edid_info;

	if (!c->edid_len) {
		kv("    edid", "none");
		return;
	}
	kv("    edid", "%zu bytes, %s", c->edid_len,
	   e->problems ? "not trusted" : "checksum ok");
	for (unsigned bit = 0; bit < EDID_PROBLEM_COUNT; bit++)
		if (e->problems & (1u << bit))
			kv("      problem", "%s: %s", edid_problem_name(1u << bit),
			   edid_problem_describe(1u << bit));
	if (!e->decoded)
		return;
	kv("      monitor", "%s", e->name);
	kv("      vendor", "%s", e->vendor);
	kv("      product", "0x%04x", e->product);
	if (e->serial_text[0])
		kv("      serial", "%s", e->serial_text);
	else if (e->serial_number)
		kv("      serial", "%u", e->serial_number);
	if (e->width_cm)
		kv("      size", "%ux%u cm", e->width_cm, e->height_cm);
	if (e->has_preferred)
		kv("      preferred", "%ux%u%s %" PRIu64 ".%03" PRIu64 " Hz, %u kHz",
		   e->preferred.hactive, e->preferred.vactive,
		   e->preferred.interlaced ? "i" : "", e->preferred.refresh_mhz / 1000,
		   e->preferred.refresh_mhz % 1000, e->preferred.pixel_clock_khz);
}

static void info_human_connector(const struct drm_connector *c)
{
	kv("  connector", "%s", c->name);
	kv("    status", "%s", display_status_name(c->status));
	kv("    enabled", "%s", c->enabled ? c->enabled : "unreadable");
	kv("    dpms", "%s", c->dpms ? c->dpms : "unreadable");
	if (c->n_modes)
		kv("    modes", "%zu, first %s", c->n_modes, c->modes[0]);
	else
		kv("    modes", "none");
	info_human_edid(c);
	if (c->problem)
		kv("    unreadable", "%s", c->problem);
}

static void info_human_display(const struct fb_view *v)
{
	const struct drm_card *card = v->card;
	const struct fb_parent *p = card && card->n_parents ? &card->parents[0] : NULL;

	printf("  display:\n");
	kv("kind", "%s", display_kind_name(v->kind));
	if (!card) {
		kv("card", "none");
		return;
	}
	kv("card", "%s", card->name);
	kv("  syspath", "%s", card->syspath);
	if (card->devnum)
		kv("  devnum", "%u:%u", major(card->devnum), minor(card->devnum));
	kv("  driver", "%s", p && p->driver ? p->driver : "");
	kv("  module", "%s", p && p->module ? p->module : "");
	kv("  render", "%s", card->render ? card->render : "");
	for (size_t i = 0; i < card->n_connectors; i++)
		info_human_connector(&card->connectors[i]);
}

/* DRM's fbdev emulation takes its mode from the kernel's command line:
 * the video= argument of each size a connected connector offers.  NULL
 * (none) for any other kind of fb. */
static char **info_video_args(const struct fb_view *v, size_t *n)
{
	char **args = NULL;

	*n = 0;
	for (size_t i = 0; v->kind == FB_KIND_DRM && v->card && i < v->card->n_connectors;
	     i++)
		if (modeset_connector_video_args(&v->card->connectors[i], &args, n) < 0)
			log_errno(-ENOMEM, "%s: cannot list the video= arguments: %m",
				  v->dev->name);
	return args;
}

static void info_human_video(const struct fb_view *v)
{
	size_t n;
	char **args = info_video_args(v, &n);

	if (n)
		printf("  boot modes (DRM sets the mode: add one to the kernel command line):\n");
	for (size_t i = 0; i < n; i++)
		kv(args[i], "%s", "");
	strv_free(args, n);
}

static void info_human(const struct fb_view *v)
{
	info_human_device(v->dev);
	info_human_hw(v);
	info_human_display(v);
	info_human_video(v);
	scanout_print(stdout, v);
	info_human_node(v);
}

static struct json_object *json_bitfield(const struct fb_bitfield *b)
{
	struct json_object *o = json_object_new_object();

	jsonout_add_uint(o, "offset", b->offset);
	jsonout_add_uint(o, "length", b->length);
	jsonout_add_uint(o, "msb_right", b->msb_right);
	return o;
}

static struct json_object *json_fields(struct json_object *o, const void *base,
				       const struct screeninfo_field *fields, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct screeninfo_field *f = &fields[i];

		switch (f->kind) {
		case FIELD_NUMBER:
		case FIELD_ADDRESS:
			jsonout_add_uint(o, f->name, field_number(base, f));
			break;
		case FIELD_BITFIELD:
			json_object_object_add(o, f->name,
					       json_bitfield(field_bitfield(base, f)));
			break;
		}
	}
	return o;
}

static struct json_object *json_fix(const struct fb_view *v)
{
	struct json_object *o = json_object_new_object();
	char id[sizeof(v->hw.fix.id) + 1];

	jsonout_add_string(o, "id", fb_view_id(v, id, sizeof(id)));
	return json_fields(o, &v->hw.fix, fix_fields, ARRAY_SIZE(fix_fields));
}

static struct json_object *json_decoded(const struct fb_view *v)
{
	const struct fb_var_screeninfo *var = &v->hw.var;
	const struct fb_fix_screeninfo *fix = &v->hw.fix;
	struct json_object *o = json_object_new_object();
	char buf[256];
	uint64_t mhz = fb_refresh_mhz(var);

	jsonout_add_string(o, "type",
			   or_unknown(fb_type_name(fix->type), fix->type, buf,
				      sizeof(buf)));
	jsonout_add_string(o, "type_aux", fb_type_aux_name(fix->type, fix->type_aux));
	jsonout_add_string(o, "visual",
			   or_unknown(fb_visual_name(fix->visual), fix->visual, buf,
				      sizeof(buf)));
	jsonout_add_string(o, "accel",
			   or_unknown(fb_accel_name(fix->accel), fix->accel, buf,
				      sizeof(buf)));
	jsonout_add_string(o, "sync", fb_sync_names(var->sync, buf, sizeof(buf)));
	jsonout_add_string(o, "vmode", fb_vmode_names(var->vmode, buf, sizeof(buf)));
	jsonout_add_string(o, "activate",
			   fb_activate_names(var->activate, buf, sizeof(buf)));
	jsonout_add_string(o, "format", v->fmt.name);
	if (mhz)
		json_object_object_add(o, "refresh_hz",
				       json_object_new_double(mhz / 1000.0));
	else
		json_object_object_add(o, "refresh_hz", NULL);
	print_mode_name(buf, sizeof(buf), var);
	jsonout_add_string(o, "mode", buf);
	return o;
}

static struct json_object *json_node(const struct fb_view *v)
{
	struct json_object *o = json_object_new_object();
	bool exists = v->node.state != FB_HW_NODE_MISSING;
	char mode[8];

	jsonout_add_string(o, "path", v->node.path);
	jsonout_add_bool(o, "exists", exists);
	jsonout_add_bool(o, "correct", v->node.state == FB_HW_NODE_OK);
	if (exists) {
		char user[256], group[256];
		bool have_user = fb_user_name(v->node.uid, user, sizeof(user));
		bool have_group = fb_group_name(v->node.gid, group, sizeof(group));

		snprintf(mode, sizeof(mode), "%04o", (unsigned)(v->node.mode & 07777));
		jsonout_add_string(o, "owner", have_user ? user : NULL);
		jsonout_add_uint(o, "uid", v->node.uid);
		jsonout_add_string(o, "group", have_group ? group : NULL);
		jsonout_add_uint(o, "gid", v->node.gid);
		jsonout_add_string(o, "mode", mode);
	}
	return o;
}

static struct json_object *json_edid(const struct drm_connector *c)
{
	const struct edid_info *e = &c->edid_info;
	struct json_object *o, *problems;

	if (!c->edid_len)
		return NULL;
	o = json_object_new_object();
	problems = json_object_new_array();
	jsonout_add_uint(o, "bytes", c->edid_len);
	jsonout_add_bool(o, "trusted", e->problems == 0);
	for (unsigned bit = 0; bit < EDID_PROBLEM_COUNT; bit++)
		if (e->problems & (1u << bit))
			json_object_array_add(problems,
					      json_object_new_string(
						      edid_problem_name(1u << bit)));
	json_object_object_add(o, "problems", problems);
	if (!e->decoded)
		return o;
	jsonout_add_string(o, "monitor", e->name[0] ? e->name : NULL);
	jsonout_add_string(o, "vendor", e->vendor[0] ? e->vendor : NULL);
	jsonout_add_uint(o, "product", e->product);
	jsonout_add_uint(o, "serial_number", e->serial_number);
	jsonout_add_string(o, "serial", e->serial_text[0] ? e->serial_text : NULL);
	jsonout_add_uint(o, "width_cm", e->width_cm);
	jsonout_add_uint(o, "height_cm", e->height_cm);
	if (e->has_preferred) {
		struct json_object *t = json_object_new_object();

		jsonout_add_uint(t, "width", e->preferred.hactive);
		jsonout_add_uint(t, "height", e->preferred.vactive);
		jsonout_add_bool(t, "interlaced", e->preferred.interlaced);
		json_object_object_add(t, "refresh_hz",
				       json_object_new_double(e->preferred.refresh_mhz /
							      1000.0));
		jsonout_add_uint(t, "pixel_clock_khz", e->preferred.pixel_clock_khz);
		json_object_object_add(o, "preferred", t);
	} else {
		json_object_object_add(o, "preferred", NULL);
	}
	return o;
}

static struct json_object *json_connector(const struct drm_connector *c)
{
	struct json_object *o = json_object_new_object();
	struct json_object *modes = json_object_new_array();

	jsonout_add_string(o, "name", c->name);
	jsonout_add_string(o, "status", display_status_name(c->status));
	jsonout_add_string(o, "enabled", c->enabled);
	jsonout_add_string(o, "dpms", c->dpms);
	for (size_t i = 0; i < c->n_modes; i++)
		json_object_array_add(modes, json_object_new_string(c->modes[i]));
	json_object_object_add(o, "modes", modes);
	json_object_object_add(o, "edid", json_edid(c));
	if (c->problem) /* only when something could not be read */
		jsonout_add_string(o, "error", c->problem);
	return o;
}

static struct json_object *json_video(const struct fb_view *v)
{
	size_t n;
	char **args = info_video_args(v, &n);
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(args[i]));
	strv_free(args, n);
	return a;
}

static struct json_object *json_display(const struct fb_view *v)
{
	const struct drm_card *card = v->card;
	const struct fb_parent *p = card && card->n_parents ? &card->parents[0] : NULL;
	struct json_object *o = json_object_new_object(), *co, *conns;
	char devnum[32];

	jsonout_add_string(o, "kind", display_kind_name(v->kind));
	json_object_object_add(o, "video", json_video(v));
	if (!card) {
		json_object_object_add(o, "card", NULL);
		return o;
	}
	co = json_object_new_object();
	conns = json_object_new_array();
	jsonout_add_string(co, "name", card->name);
	jsonout_add_string(co, "syspath", card->syspath);
	snprintf(devnum, sizeof(devnum), "%u:%u", major(card->devnum),
		 minor(card->devnum));
	jsonout_add_string(co, "maj:min", card->devnum ? devnum : NULL);
	jsonout_add_string(co, "driver", p ? p->driver : NULL);
	jsonout_add_string(co, "module", p ? p->module : NULL);
	jsonout_add_string(co, "render", card->render);
	for (size_t i = 0; i < card->n_connectors; i++)
		json_object_array_add(conns, json_connector(&card->connectors[i]));
	json_object_object_add(co, "connectors", conns);
	json_object_object_add(o, "card", co);
	return o;
}

static struct json_object *info_json(const struct fb_view *v)
{
	const struct fb_device *d = v->dev;
	struct json_object *o = json_object_new_object();
	struct json_object *sysfs = json_object_new_object();
	struct json_object *parents = json_object_new_array();
	char devnum[32];

	snprintf(devnum, sizeof(devnum), "%u:%u", major(d->devnum), minor(d->devnum));
	jsonout_add_string(o, "name", d->name);
	jsonout_add_string(o, "maj:min", devnum);
	jsonout_add_string(o, "devname", d->devname);
	jsonout_add_string(o, "syspath", d->syspath);
	jsonout_add_string(o, "path", d->path_id);
	for (size_t i = 0; i < d->n_attrs; i++)
		jsonout_add_string(sysfs, d->attrs[i].name, d->attrs[i].value);
	json_object_object_add(o, "sysfs", sysfs);
	for (size_t i = 0; i < d->n_parents; i++) {
		const struct fb_parent *p = &d->parents[i];
		struct json_object *po = json_object_new_object();

		jsonout_add_string(po, "sysname", p->sysname);
		jsonout_add_string(po, "syspath", p->syspath);
		jsonout_add_string(po, "subsystem", p->subsystem);
		jsonout_add_string(po, "driver", p->driver);
		jsonout_add_string(po, "module", p->module);
		jsonout_add_string(po, "modalias", p->modalias);
		json_object_array_add(parents, po);
	}
	json_object_object_add(o, "parents", parents);
	if (v->hw.valid) {
		json_object_object_add(o, "var",
				       json_fields(json_object_new_object(), &v->hw.var,
						   var_fields, ARRAY_SIZE(var_fields)));
		json_object_object_add(o, "fix", json_fix(v));
		json_object_object_add(o, "decoded", json_decoded(v));
	} else {
		/* what could not be read says why, as everywhere in -J */
		char why[160];
		static const char *const parts[] = { "var", "fix", "decoded" };

		snprintf(why, sizeof(why), "cannot query the hardware: %s",
			 strerror(-v->hw.error));
		for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
			struct json_object *e = json_object_new_object();

			jsonout_add_string(e, "error", why);
			json_object_object_add(o, parts[i], e);
		}
	}
	json_object_object_add(o, "display", json_display(v));
	json_object_object_add(o, "scanout", scanout_json(v));
	json_object_object_add(o, "node", json_node(v));
	return o;
}

static void info_usage(void)
{
	printf("Usage: fbclassctl info [options] [DEVICE...]\n"
	       "\n"
	       "Show everything known about framebuffers: sysfs attributes, the parent\n"
	       "chain, every field of fb_var_screeninfo and fb_fix_screeninfo, decoded\n"
	       "names, pixel format, refresh, and the device node.\n"
	       "\n"
	       "DEVICE is fb0, 0, /dev/fb0, /sys/class/graphics/fb0 or a symlink to the\n"
	       "node.  Without DEVICE, every framebuffer is shown.\n"
	       "\n"
	       "Options:\n"
	       "  -J, --json           JSON output: {\"framebuffers\": [{...}]}\n"
	       "      --fbset          print the mode block of 'fbset -s', byte for byte\n"
	       "      --modes          print every mode (sysfs, the connectors) as fb.modes blocks\n"
	       "      --probe          try pan, FBIOPAN_DISPLAY, FBIO_WAITFORVSYNC and\n"
	       "                       FBIOBLANK on the device (it pans and unblanks it,\n"
	       "                       and puts the pan back): yes, no or untested, why\n"
	       "      --dev DIR        device directory (default /dev)\n"
	       "      --no-temp-node   never query through a private temporary node\n"
	       "  -h, --help           show this help\n"
	       "\n"
	       "See fbclassctl(8).\n");
}

struct info_opts {
	const char *devdir;
	bool json, fbset, modes, probe, allow_private, help;
};

/* 0, or -EINVAL for a usage error (said). */
static int info_parse_args(int argc, char *argv[], struct info_opts *o)
{
	enum { OPT_FBSET = FB_CMD_OPT_OWN, OPT_NO_TEMP_NODE, OPT_MODES, OPT_PROBE };
	static const struct option options[] = {
		FB_CMD_OPTION_JSON,
		{ "fbset", no_argument, NULL, OPT_FBSET },
		{ "modes", no_argument, NULL, OPT_MODES },
		FB_CMD_OPTION_DEV,
		{ "no-temp-node", no_argument, NULL, OPT_NO_TEMP_NODE },
		{ "probe", no_argument, NULL, OPT_PROBE },
		FB_CMD_OPTION_HELP,
		{},
	};
	const struct fb_cmd_common common = { &o->devdir, &o->json, &o->help };
	int c;

	*o = (struct info_opts){ .devdir = "/dev", .allow_private = true };
	while ((c = fb_cmd_getopt(argc, argv, "Jh", options, &common)) != -1) {
		if (c == OPT_FBSET)
			o->fbset = true;
		else if (c == OPT_MODES)
			o->modes = true;
		else if (c == OPT_NO_TEMP_NODE)
			o->allow_private = false;
		else if (c == OPT_PROBE)
			o->probe = true;
		else
			return -EINVAL;
	}
	if (o->help)
		return 0;
	if (o->json + o->fbset + o->modes > 1) {
		ERR("--json, --fbset and --modes are mutually exclusive");
		return -EINVAL;
	}
	if (o->probe && (o->fbset || o->modes)) {
		ERR("--probe and %s are mutually exclusive",
		    o->fbset ? "--fbset" : "--modes");
		return -EINVAL;
	}
	return 0;
}

/* One device in the chosen form.  0, or -ENODATA when --fbset has no mode
 * to print (said). */
static int info_one(const struct info_opts *o, const struct fb_device *dev,
		    const struct drm_list *drm, bool first, struct json_object *arr,
		    struct fb_view_denied *denied)
{
	struct fb_view_why why;
	struct fb_caps caps;
	struct fb_view v;

	if (o->fbset) {
		/* one message: the mode cannot be printed, and why */
		fb_view_load_sysfs(&v, dev, o->devdir);
		if (fb_view_query(&v, o->devdir, o->allow_private, &why) < 0 ||
		    !v.hw.valid) {
			ERR("%s: no mode to print: %s%s", dev->name,
			    why.what[0] ? why.what : "the hardware could not be queried",
			    why.hint);
			return -ENODATA;
		}
		fb_print_fbset_mode(stdout, &v.hw.var);
		return 0;
	}
	fb_view_load(&v, dev, o->devdir, o->allow_private, denied);
	fb_view_join_display(&v, drm);
	if (o->probe) /* it writes to the device: only when asked */
		fb_caps_probe(dev, o->devdir, o->allow_private, &caps);
	if (o->modes) {
		fb_view_print_modes(stdout, &v);
	} else if (o->json) {
		struct json_object *j = info_json(&v);

		if (o->probe)
			json_object_object_add(j, "capabilities", fb_caps_json(&caps));
		json_object_array_add(arr, j);
	} else {
		if (!first)
			putchar('\n');
		info_human(&v);
		if (o->probe)
			fb_caps_print(stdout, &caps);
	}
	return 0;
}

static int do_info(int argc, char *argv[])
{
	struct info_opts o;
	struct fb_device_list list = {};
	const struct fb_device **sel = NULL;
	struct json_object *doc = NULL, *arr = NULL;
	struct fb_view_denied denied = {};
	struct drm_list drm = {};
	size_t nsel = 0;
	int r, ret;

	if (info_parse_args(argc, argv, &o) < 0)
		return fb_usage_error("info");
	if (o.help) {
		info_usage();
		return FB_EXIT_OK;
	}
	if (o.json && fb_jsonc_open("info -J") < 0)
		return FB_EXIT_ERROR;
	if (fb_cmd_scan(&list, FB_SCAN_ATTRS, !o.json && optind == argc) < 0)
		return FB_EXIT_ERROR;
	r = fb_cmd_select(&list, argc - optind, argv + optind, &sel, &nsel);
	ret = fb_exit_code(r, FB_FROM_SELECT);
	if (r == -ENOMEM)
		goto finish;
	/* --fbset prints modes only; the others show the display too */
	r = o.fbset ? 0 : fb_cmd_scan_drm(&drm, DRM_SCAN_ALL);
	if (r < 0) {
		ret = FB_EXIT_ERROR;
		goto finish;
	}
	if (o.json) {
		doc = json_object_new_object();
		arr = json_object_new_array();
		json_object_object_add(doc, "framebuffers", arr);
	}
	for (size_t i = 0; i < nsel; i++)
		if (info_one(&o, sel[i], &drm, i == 0, arr, &denied) < 0)
			ret = FB_EXIT_ERROR;
	fb_view_denied_say(&denied);
	if (o.json && jsonout_print(doc) < 0)
		ret = FB_EXIT_ERROR;
finish:
	json_object_put(doc);
	display_list_free(&drm);
	free(sel);
	fb_device_list_free(&list);
	return ret;
}

const struct fb_cmd fb_cmd_info = {
	.name = "info",
	.cmd = do_info,
	.help = "show everything known about framebuffers",
};
