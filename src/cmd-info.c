/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl info: everything known about a framebuffer. */
#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "commands.h"
#include "account.h"
#include "json-util.h"
#include "log.h"
#include "view.h"
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
	if (*value)
		printf("    %-*s %s\n", KEYW, key, value);
	else
		printf("    %s\n", key);
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

static void info_human(const struct fb_view *v)
{
	const struct fb_device *d = v->dev;
	const struct fb_var_screeninfo *var = &v->hw.var;
	const struct fb_fix_screeninfo *fix = &v->hw.fix;
	char buf[256];

	printf("%s\n", d->name);
	printf("  device:\n");
	kv("name", "%s", d->name);
	kv("devnum", "%u:%u", major(d->devnum), minor(d->devnum));
	kv("devname", "%s", d->devname);
	kv("syspath", "%s", d->syspath);
	kv("path_id", "%s", d->path_id ? d->path_id : "");

	printf("  sysfs:\n");
	for (size_t i = 0; i < d->n_attrs; i++)
		kv_text(d->attrs[i].name, d->attrs[i].value);

	printf("  parents:\n");
	for (size_t i = 0; i < d->n_parents; i++) {
		const struct fb_parent *p = &d->parents[i];

		printf("    [%zu] %s\n", i, p->sysname);
		kv("  syspath", "%s", p->syspath);
		kv("  subsystem", "%s", p->subsystem ? p->subsystem : "");
		kv("  driver", "%s", p->driver ? p->driver : "");
		kv("  module", "%s", p->module ? p->module : "");
		kv("  modalias", "%s", p->modalias ? p->modalias : "");
	}

	if (v->hw.valid) {
		printf("  var (fb_var_screeninfo):\n");
		kv("xres", "%u", var->xres);
		kv("yres", "%u", var->yres);
		kv("xres_virtual", "%u", var->xres_virtual);
		kv("yres_virtual", "%u", var->yres_virtual);
		kv("xoffset", "%u", var->xoffset);
		kv("yoffset", "%u", var->yoffset);
		kv("bits_per_pixel", "%u", var->bits_per_pixel);
		kv("grayscale", "%u", var->grayscale);
		print_bitfield("red", &var->red);
		print_bitfield("green", &var->green);
		print_bitfield("blue", &var->blue);
		print_bitfield("transp", &var->transp);
		kv("nonstd", "%u", var->nonstd);
		kv("activate", "%u", var->activate);
		kv("height", "%u", var->height);
		kv("width", "%u", var->width);
		kv("accel_flags", "%u", var->accel_flags);
		kv("pixclock", "%u", var->pixclock);
		kv("left_margin", "%u", var->left_margin);
		kv("right_margin", "%u", var->right_margin);
		kv("upper_margin", "%u", var->upper_margin);
		kv("lower_margin", "%u", var->lower_margin);
		kv("hsync_len", "%u", var->hsync_len);
		kv("vsync_len", "%u", var->vsync_len);
		kv("sync", "%u", var->sync);
		kv("vmode", "%u", var->vmode);
		kv("rotate", "%u", var->rotate);
		kv("colorspace", "%u", var->colorspace);

		printf("  fix (fb_fix_screeninfo):\n");
		_cleanup_free_ char *id = str_escape(fb_view_id(v, buf, sizeof(buf)), 64);
		kv("id", "%s", id ? id : "");
		kv("smem_start", "0x%lx", fix->smem_start);
		kv("smem_len", "%u", fix->smem_len);
		kv("type", "%u", fix->type);
		kv("type_aux", "%u", fix->type_aux);
		kv("visual", "%u", fix->visual);
		kv("xpanstep", "%u", fix->xpanstep);
		kv("ypanstep", "%u", fix->ypanstep);
		kv("ywrapstep", "%u", fix->ywrapstep);
		kv("line_length", "%u", fix->line_length);
		kv("mmio_start", "0x%lx", fix->mmio_start);
		kv("mmio_len", "%u", fix->mmio_len);
		kv("accel", "%u", fix->accel);
		kv("capabilities", "%u", fix->capabilities);

		printf("  decoded:\n");
		kv("type", "%s",
		   or_unknown(fb_type_name(fix->type), fix->type, buf, sizeof(buf)));
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
			kv("refresh", "%" PRIu64 ".%03" PRIu64 " Hz", mhz / 1000,
			   mhz % 1000);
		else
			kv("refresh", "unknown (pixclock %u)", var->pixclock);
		print_mode_name(buf, sizeof(buf), var);
		kv("mode", "%s", buf);
		if (v->hw.cmap.len)
			kv("cmap", "%u entries from %u%s", v->hw.cmap.len,
			   v->hw.cmap.start,
			   v->hw.cmap.has_transp ? ", with transp" : "");
	} else {
		printf("  hardware:\n");
		kv("ioctl", "unavailable (%s)", strerror(-v->hw.error));
	}

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

static struct json_object *json_bitfield(const struct fb_bitfield *b)
{
	struct json_object *o = json_object_new_object();

	json_add_uint(o, "offset", b->offset);
	json_add_uint(o, "length", b->length);
	json_add_uint(o, "msb_right", b->msb_right);
	return o;
}

static struct json_object *json_var(const struct fb_var_screeninfo *var)
{
	struct json_object *o = json_object_new_object();

	json_add_uint(o, "xres", var->xres);
	json_add_uint(o, "yres", var->yres);
	json_add_uint(o, "xres_virtual", var->xres_virtual);
	json_add_uint(o, "yres_virtual", var->yres_virtual);
	json_add_uint(o, "xoffset", var->xoffset);
	json_add_uint(o, "yoffset", var->yoffset);
	json_add_uint(o, "bits_per_pixel", var->bits_per_pixel);
	json_add_uint(o, "grayscale", var->grayscale);
	json_object_object_add(o, "red", json_bitfield(&var->red));
	json_object_object_add(o, "green", json_bitfield(&var->green));
	json_object_object_add(o, "blue", json_bitfield(&var->blue));
	json_object_object_add(o, "transp", json_bitfield(&var->transp));
	json_add_uint(o, "nonstd", var->nonstd);
	json_add_uint(o, "activate", var->activate);
	json_add_uint(o, "height", var->height);
	json_add_uint(o, "width", var->width);
	json_add_uint(o, "accel_flags", var->accel_flags);
	json_add_uint(o, "pixclock", var->pixclock);
	json_add_uint(o, "left_margin", var->left_margin);
	json_add_uint(o, "right_margin", var->right_margin);
	json_add_uint(o, "upper_margin", var->upper_margin);
	json_add_uint(o, "lower_margin", var->lower_margin);
	json_add_uint(o, "hsync_len", var->hsync_len);
	json_add_uint(o, "vsync_len", var->vsync_len);
	json_add_uint(o, "sync", var->sync);
	json_add_uint(o, "vmode", var->vmode);
	json_add_uint(o, "rotate", var->rotate);
	json_add_uint(o, "colorspace", var->colorspace);
	return o;
}

static struct json_object *json_fix(const struct fb_view *v)
{
	const struct fb_fix_screeninfo *fix = &v->hw.fix;
	struct json_object *o = json_object_new_object();
	char id[sizeof(fix->id) + 1];

	json_add_string(o, "id", fb_view_id(v, id, sizeof(id)));
	json_add_uint(o, "smem_start", fix->smem_start);
	json_add_uint(o, "smem_len", fix->smem_len);
	json_add_uint(o, "type", fix->type);
	json_add_uint(o, "type_aux", fix->type_aux);
	json_add_uint(o, "visual", fix->visual);
	json_add_uint(o, "xpanstep", fix->xpanstep);
	json_add_uint(o, "ypanstep", fix->ypanstep);
	json_add_uint(o, "ywrapstep", fix->ywrapstep);
	json_add_uint(o, "line_length", fix->line_length);
	json_add_uint(o, "mmio_start", fix->mmio_start);
	json_add_uint(o, "mmio_len", fix->mmio_len);
	json_add_uint(o, "accel", fix->accel);
	json_add_uint(o, "capabilities", fix->capabilities);
	return o;
}

static struct json_object *json_decoded(const struct fb_view *v)
{
	const struct fb_var_screeninfo *var = &v->hw.var;
	const struct fb_fix_screeninfo *fix = &v->hw.fix;
	struct json_object *o = json_object_new_object();
	char buf[256];
	uint64_t mhz = fb_refresh_mhz(var);

	json_add_string(o, "type",
			or_unknown(fb_type_name(fix->type), fix->type, buf, sizeof(buf)));
	json_add_string(o, "type_aux", fb_type_aux_name(fix->type, fix->type_aux));
	json_add_string(o, "visual",
			or_unknown(fb_visual_name(fix->visual), fix->visual, buf,
				   sizeof(buf)));
	json_add_string(o, "accel",
			or_unknown(fb_accel_name(fix->accel), fix->accel, buf,
				   sizeof(buf)));
	json_add_string(o, "sync", fb_sync_names(var->sync, buf, sizeof(buf)));
	json_add_string(o, "vmode", fb_vmode_names(var->vmode, buf, sizeof(buf)));
	json_add_string(o, "activate", fb_activate_names(var->activate, buf, sizeof(buf)));
	json_add_string(o, "format", v->fmt.name);
	if (mhz)
		json_object_object_add(o, "refresh_hz",
				       json_object_new_double(mhz / 1000.0));
	else
		json_object_object_add(o, "refresh_hz", NULL);
	print_mode_name(buf, sizeof(buf), var);
	json_add_string(o, "mode", buf);
	return o;
}

static struct json_object *json_node(const struct fb_view *v)
{
	struct json_object *o = json_object_new_object();
	bool exists = v->node.state != FB_HW_NODE_MISSING;
	char mode[8];

	json_add_string(o, "path", v->node.path);
	json_add_bool(o, "exists", exists);
	json_add_bool(o, "correct", v->node.state == FB_HW_NODE_OK);
	if (exists) {
		char user[256], group[256];
		bool have_user = fb_user_name(v->node.uid, user, sizeof(user));
		bool have_group = fb_group_name(v->node.gid, group, sizeof(group));

		snprintf(mode, sizeof(mode), "%04o", (unsigned)(v->node.mode & 07777));
		json_add_string(o, "owner", have_user ? user : NULL);
		json_add_uint(o, "uid", v->node.uid);
		json_add_string(o, "group", have_group ? group : NULL);
		json_add_uint(o, "gid", v->node.gid);
		json_add_string(o, "mode", mode);
	}
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
	json_add_string(o, "name", d->name);
	json_add_string(o, "maj:min", devnum);
	json_add_string(o, "devname", d->devname);
	json_add_string(o, "syspath", d->syspath);
	json_add_string(o, "path_id", d->path_id);
	for (size_t i = 0; i < d->n_attrs; i++)
		json_add_string(sysfs, d->attrs[i].name, d->attrs[i].value);
	json_object_object_add(o, "sysfs", sysfs);
	for (size_t i = 0; i < d->n_parents; i++) {
		const struct fb_parent *p = &d->parents[i];
		struct json_object *po = json_object_new_object();

		json_add_string(po, "sysname", p->sysname);
		json_add_string(po, "syspath", p->syspath);
		json_add_string(po, "subsystem", p->subsystem);
		json_add_string(po, "driver", p->driver);
		json_add_string(po, "module", p->module);
		json_add_string(po, "modalias", p->modalias);
		json_object_array_add(parents, po);
	}
	json_object_object_add(o, "parents", parents);
	if (v->hw.valid) {
		json_object_object_add(o, "var", json_var(&v->hw.var));
		json_object_object_add(o, "fix", json_fix(v));
		json_object_object_add(o, "decoded", json_decoded(v));
	} else {
		json_object_object_add(o, "var", NULL);
		json_object_object_add(o, "fix", NULL);
		json_object_object_add(o, "decoded", NULL);
	}
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
	       "      --dev DIR        device directory (default /dev)\n"
	       "      --no-temp-node   never query through a private temporary node\n"
	       "  -h, --help           show this help\n"
	       "\n"
	       "See fbclassctl(8).\n");
}

enum { OPT_FBSET = 256, OPT_DEV, OPT_NO_TEMP_NODE };

static int do_info(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "fbset", no_argument, NULL, OPT_FBSET },
		{ "dev", required_argument, NULL, OPT_DEV },
		{ "no-temp-node", no_argument, NULL, OPT_NO_TEMP_NODE },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	const char *devdir = "/dev";
	bool json = false, fbset = false, allow_private = true;
	struct fb_device_list list = {};
	const struct fb_device **sel = NULL;
	struct json_object *doc = NULL, *arr = NULL;
	size_t nsel = 0;
	int c, r, ret = FB_EXIT_OK;

	while ((c = getopt_long(argc, argv, "Jh", options, NULL)) != -1) {
		switch (c) {
		case 'J':
			json = true;
			break;
		case OPT_FBSET:
			fbset = true;
			break;
		case OPT_DEV:
			devdir = optarg;
			break;
		case OPT_NO_TEMP_NODE:
			allow_private = false;
			break;
		case 'h':
			info_usage();
			return FB_EXIT_OK;
		default:
			return fb_usage_error("info");
		}
	}
	if (json && fbset) {
		ERR("--json and --fbset are mutually exclusive");
		return fb_usage_error("info");
	}
	if (fb_cmd_scan(&list, FB_SCAN_ATTRS, !json && optind == argc) < 0)
		return FB_EXIT_ERROR;
	r = fb_cmd_select(&list, argc - optind, argv + optind, &sel, &nsel);
	if (r == -ENOMEM)
		goto finish;
	ret = fb_exit_code(r);
	if (json) {
		doc = json_object_new_object();
		arr = json_object_new_array();
		json_object_object_add(doc, "framebuffers", arr);
	}
	for (size_t i = 0; i < nsel; i++) {
		struct fb_view v;

		fb_view_load(&v, sel[i], devdir, allow_private);
		if (json) {
			json_object_array_add(arr, info_json(&v));
		} else if (fbset) {
			if (!v.hw.valid) {
				ERR("%s: no mode to print: the hardware could not be queried",
				    sel[i]->name);
				ret = FB_EXIT_ERROR;
				continue;
			}
			fb_print_fbset_mode(stdout, &v.hw.var);
		} else {
			if (i)
				putchar('\n');
			info_human(&v);
		}
	}
	if (json && json_print(doc) < 0)
		ret = FB_EXIT_ERROR;
finish:
	json_object_put(doc);
	free(sel);
	fb_device_list_free(&list);
	return ret;
}

const struct fb_cmd fb_cmd_info = {
	.name = "info",
	.cmd = do_info,
	.help = "show everything known about framebuffers",
};
