/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * A small table printer of our own, the same text as
 * libsmartcols for what list uses: what the static build prints with
 * (Debian has no libsmartcols.a), and what the default build falls back
 * to when libsmartcols cannot be loaded (an initramfs whose hook copied
 * only what ldd names).  The calls are table.h's; see there.
 */

#include "table.h"

struct fb_builtin_table;

int fb_builtin_table_new(struct fb_builtin_table **ret, enum fb_table_mode mode,
			 bool noheadings);
void fb_builtin_table_free(struct fb_builtin_table *t);
int fb_builtin_table_add_column(struct fb_builtin_table *t, const char *name,
				double whint, unsigned flags);
void fb_builtin_table_set_termwidth(struct fb_builtin_table *t, size_t width);
int fb_builtin_table_add_line(struct fb_builtin_table *t);
int fb_builtin_table_set_cell(struct fb_builtin_table *t, size_t col, char *data);
int fb_builtin_table_print(struct fb_builtin_table *t, FILE *out);
