/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* info --modes: a framebuffer's modes as fb.modes blocks (see view.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbinfo_ioctl.h"
#include "fbmodes.h"
#include "strutil.h"
#include "view.h"

/* The modes printed so far, by size and rounded refresh: one block per
 * fb.modes name, which fbset's database wants unique. */
struct printed {
	uint32_t key[256][3];
	size_t n;
};

static bool printed_add(struct printed *p, const struct fb_var_screeninfo *var)
{
	uint32_t hz = (uint32_t)((fb_refresh_mhz(var) + 500) / 1000);

	for (size_t i = 0; i < p->n; i++)
		if (p->key[i][0] == var->xres && p->key[i][1] == var->yres &&
		    p->key[i][2] == hz)
			return false;
	if (p->n == sizeof(p->key) / sizeof(p->key[0]))
		return false;
	p->key[p->n][0] = var->xres;
	p->key[p->n][1] = var->yres;
	p->key[p->n++][2] = hz;
	return true;
}

/* A WxH at hz with CVT's timings, under a comment naming where it is from. */
static void print_cvt(FILE *out, struct printed *p, const char *from, uint32_t xres,
		      uint32_t yres, uint32_t hz, const struct fb_var_screeninfo *cur)
{
	struct fb_var_screeninfo var;
	uint32_t bpp = cur->bits_per_pixel ? cur->bits_per_pixel : 32;

	if (fbmodes_cvt(xres, yres, hz, bpp, &var) < 0) {
		fprint_line_escaped(out, "# %s: no timings for %" PRIu32 "x%" PRIu32,
				    from, xres, yres);
		return;
	}
	if (!printed_add(p, &var))
		return;
	/* the current pixel format: what the mode would be set in */
	var.red = cur->red, var.green = cur->green, var.blue = cur->blue;
	var.transp = cur->transp;
	fprint_line_escaped(out, "# %s (timings: VESA CVT at %" PRIu32 " Hz, computed)",
			    from, hz);
	fb_print_fbset_mode(out, &var);
}

/* The fb's "modes" attribute, a line each: "U:1024x768p-75". */
static void print_sysfs_modes(FILE *out, struct printed *p, const struct fb_view *v,
			      const struct fb_var_screeninfo *cur)
{
	const char *text = fb_device_attr(v->dev, "modes");

	while (text && *text) {
		size_t n = strcspn(text, "\n");
		char line[64], from[96];
		struct fb_sysfs_mode m;

		snprintf(line, sizeof(line), "%.*s", (int)(n < 63 ? n : 63), text);
		text += n + (text[n] == '\n');
		snprintf(from, sizeof(from), "%s modes: %s", v->dev->name, line);
		if (fb_parse_mode(line, &m) < 0 || m.scan != 'p')
			fprint_line_escaped(out, "# %s: not progressive, no timings",
					    from);
		else
			print_cvt(out, p, from, m.xres, m.yres,
				  m.refresh ? m.refresh : 60, cur);
	}
}

/* Each size a connected connector offers, at its EDID's preferred
 * refresh when it is that size, else 60 Hz. */
static void print_connector_modes(FILE *out, struct printed *p,
				  const struct drm_connector *c,
				  const struct fb_var_screeninfo *cur)
{
	const struct edid_timing *pref = &c->edid_info.preferred;

	if (c->status != DRM_STATUS_CONNECTED)
		return;
	for (size_t j = 0; j < c->n_modes; j++) {
		struct fbmodes_spec spec;
		char from[160];
		uint32_t hz = 60;

		if (strv_contains(c->modes, j, c->modes[j]) ||
		    fbmodes_parse_spec(c->modes[j], &spec) < 0 || spec.depth ||
		    spec.refresh)
			continue;
		if (c->edid_info.has_preferred && pref->hactive == spec.xres &&
		    pref->vactive == spec.yres && pref->refresh_mhz)
			hz = (uint32_t)((pref->refresh_mhz + 500) / 1000);
		snprintf(from, sizeof(from), "%s offers %s", c->name, c->modes[j]);
		print_cvt(out, p, from, spec.xres, spec.yres, hz, cur);
	}
}

void fb_view_print_modes(FILE *out, const struct fb_view *v)
{
	struct printed *p = calloc(1, sizeof(*p));
	/* the pixel format of the current mode; from sysfs, its depth alone */
	struct fb_var_screeninfo cur = { .bits_per_pixel =
						 v->has_sys_bpp ? v->sys_bpp : 0 };

	if (!p)
		return;
	if (v->hw.valid)
		cur = v->hw.var;
	fprint_line_escaped(out,
			    "# %s: fb.modes blocks (fb.modes(5), fbset -db FILE NAME)",
			    v->dev->name);
	if (v->hw.valid && printed_add(p, &v->hw.var)) {
		fprint_line_escaped(out, "# %s: the current mode (its own timings)",
				    v->dev->name);
		fb_print_fbset_mode(out, &v->hw.var);
	}
	print_sysfs_modes(out, p, v, &cur);
	for (size_t i = 0; v->card && v->kind == FB_KIND_DRM && i < v->card->n_connectors;
	     i++)
		print_connector_modes(out, p, &v->card->connectors[i], &cur);
	free(p);
}
