/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Everything one command shows about one framebuffer: see view.h. */
#include <errno.h>
#include <inttypes.h>
#include <sys/sysmacros.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "account.h"
#include "log.h"
#include "strutil.h"
#include "view.h"

static void denied_add(struct fb_view_denied *d, const struct fb_hw_node *node)
{
	size_t len = strlen(d->nodes);

	if (!d->n++)
		d->first = *node;
	if (len + strlen(node->path) + 6 < sizeof(d->nodes))
		snprintf(d->nodes + len, sizeof(d->nodes) - len, "%s%s", len ? ", " : "",
			 node->path);
	else if (!strstr(d->nodes, ", ..."))
		snprintf(d->nodes + len, sizeof(d->nodes) - len, ", ...");
}

void fb_view_denied_say(const struct fb_view_denied *d)
{
	char user[64], group[64];

	if (!d->n)
		return;
	if (!fb_user_name(d->first.uid, user, sizeof(user)))
		snprintf(user, sizeof(user), "%u", (unsigned)d->first.uid);
	if (!fb_group_name(d->first.gid, group, sizeof(group)))
		snprintf(group, sizeof(group), "%u", (unsigned)d->first.gid);
	if (d->first.gid == 0)
		WRN("cannot open %s (%s:%s %04o): permission denied; showing sysfs values only (run as root)",
		    d->nodes, user, group, (unsigned)(d->first.mode & 07777));
	else
		WRN("cannot open %s (%s:%s %04o): permission denied; showing sysfs values only (run as root, or join the group %s)",
		    d->nodes, user, group, (unsigned)(d->first.mode & 07777), group);
}

void fb_view_load_sysfs(struct fb_view *v, const struct fb_device *dev, const char *devdir)
{
	memset(v, 0, sizeof(*v));
	v->dev = dev;
	v->has_sys_bpp =
		fb_parse_uint(fb_device_attr(dev, "bits_per_pixel"), &v->sys_bpp) == 0;
	v->has_sys_stride =
		fb_parse_uint(fb_device_attr(dev, "stride"), &v->sys_stride) == 0;
	v->has_sys_virt = fb_parse_pair(fb_device_attr(dev, "virtual_size"), &v->sys_vx,
					&v->sys_vy) == 0;
	v->has_sys_mode = fb_parse_mode(fb_device_attr(dev, "mode"), &v->sys_mode) == 0;
	/* "mode" stays empty until someone writes it; a "modes" of one line
	 * (DRM's emulation, vfb) is the mode the device runs */
	if (!v->has_sys_mode)
		v->has_sys_mode =
			fb_parse_mode(fb_device_attr(dev, "modes"), &v->sys_mode) == 0;

	fb_hw_node_inspect(dev, devdir, &v->node);
}

int fb_view_query(struct fb_view *v, const char *devdir, bool allow_private,
		  struct fb_view_why *why)
{
	const struct fb_device *dev = v->dev;
	int r = fb_hw_query(dev, devdir, allow_private, &v->hw);

	why->what[0] = why->hint[0] = '\0';
	if (r == 0) {
		fb_pixel_format_decode(&v->hw.var, v->hw.fix.visual, &v->fmt);
		return 0;
	}
	if (r == -ENOENT) {
		snprintf(why->what, sizeof(why->what), "%s is missing", v->node.path);
		snprintf(why->hint, sizeof(why->hint),
			 " ('fbclassctl coldplug' creates it)");
	} else if (r == -ESTALE) {
		snprintf(why->what, sizeof(why->what), "%s is not character device %u:%u",
			 v->node.path, major(dev->devnum), minor(dev->devnum));
		snprintf(why->hint, sizeof(why->hint),
			 " ('fbclassctl coldplug' replaces it)");
	} else {
		snprintf(why->what, sizeof(why->what), "cannot query the hardware: %s",
			 strerror(-r));
	}
	return r;
}

void fb_view_load(struct fb_view *v, const struct fb_device *dev, const char *devdir,
		  bool allow_private, struct fb_view_denied *denied)
{
	struct fb_view_why why;
	int r;

	fb_view_load_sysfs(v, dev, devdir);
	r = fb_view_query(v, devdir, allow_private, &why);
	if (r == 0)
		return;
	if (r == -EACCES && denied && v->node.state == FB_HW_NODE_OK)
		denied_add(denied, &v->node);
	else
		WRN("%s: %s; showing sysfs values only%s", dev->name, why.what, why.hint);
}

void fb_view_join_display(struct fb_view *v, const struct drm_list *drm)
{
	char id[sizeof(v->hw.fix.id) + 1];

	v->card = drm ? display_card_of_fb(drm, v->dev) : NULL;
	v->kind = display_kind_of(v->dev, fb_view_id(v, id, sizeof(id)), v->card);
}

const char *fb_view_id(const struct fb_view *v, char *buf, size_t len)
{
	if (v->hw.valid)
		return fb_fix_id(&v->hw.fix, buf, len);
	return fb_device_attr(v->dev, "name");
}
