/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The pixel-format decoder and every decoder of var/fix values, fed
 * arbitrary fb_var_screeninfo structs and visuals. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "macro.h"

#include "fbinfo_ioctl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fb_var_screeninfo var = {};
	struct fb_pixel_format fmt;
	uint32_t visual = 0;
	char small[8], big[256];

	if (size < sizeof(visual))
		return 0;
	memcpy(&visual, data, sizeof(visual));
	memcpy(&var, data + sizeof(visual), MIN(size - sizeof(visual), sizeof(var)));

	fb_pixel_format_decode(&var, visual, &fmt);
	if (!fmt.name[0] || !memchr(fmt.name, '\0', sizeof(fmt.name)))
		__builtin_trap();
	if (fmt.kind == FB_PIXEL_RGB && (fmt.bpp == 0 || fmt.bpp > 32))
		__builtin_trap();
	(void)fb_refresh_mhz(&var);
	(void)fb_visual_name(visual);
	(void)fb_type_name(visual);
	(void)fb_type_aux_name(var.nonstd, var.accel_flags);
	(void)fb_accel_name(var.pixclock);
	fb_sync_names(var.sync, small, sizeof(small));
	fb_vmode_names(var.vmode, small, sizeof(small));
	fb_activate_names(var.activate, small, sizeof(small));
	fb_sync_names(var.sync, big, sizeof(big));
	fb_vmode_names(var.vmode, big, sizeof(big));
	fb_activate_names(var.activate, big, sizeof(big));

	FILE *f = fopen("/dev/null", "w");
	if (f) {
		fb_print_fbset_mode(f, &var);
		fclose(f);
	}
	return 0;
}
