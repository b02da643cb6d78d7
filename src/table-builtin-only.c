/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The table seam in the static build: the built-in printer, always.  See
 * table.h. */
#include "log.h"
#include "table-builtin.h"

const char fb_table_backend_name[] = "built-in";

struct fb_table;

int fb_table_new(struct fb_table **ret, enum fb_table_mode mode, bool noheadings)
{
	log_locale_init(); /* widths are the locale's: coldplug defers it */
	return fb_builtin_table_new((struct fb_builtin_table **)ret, mode, noheadings);
}

void fb_table_free(struct fb_table *t)
{
	fb_builtin_table_free((struct fb_builtin_table *)t);
}

int fb_table_add_column(struct fb_table *t, const char *name, double whint, unsigned flags)
{
	return fb_builtin_table_add_column((struct fb_builtin_table *)t, name, whint,
					   flags);
}

void fb_table_set_termwidth(struct fb_table *t, size_t width)
{
	fb_builtin_table_set_termwidth((struct fb_builtin_table *)t, width);
}

int fb_table_add_line(struct fb_table *t)
{
	return fb_builtin_table_add_line((struct fb_builtin_table *)t);
}

int fb_table_set_cell(struct fb_table *t, size_t col, char *data)
{
	return fb_builtin_table_set_cell((struct fb_builtin_table *)t, col, data);
}

int fb_table_print(struct fb_table *t, FILE *out)
{
	return fb_builtin_table_print((struct fb_builtin_table *)t, out);
}
