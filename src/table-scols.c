/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The list table through libsmartcols: see table.h. */
#include "config.h"

#include <errno.h>
#include <libsmartcols.h>
#include <stdlib.h>

#include "table.h"

const char fb_table_backend_name[] = "libsmartcols";

struct fb_table {
	struct libscols_table *tb;
	struct libscols_line *last;
	bool json;
};

struct fb_table *fb_table_new(const char *name, enum fb_table_mode mode, bool noheadings)
{
	struct fb_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->tb = scols_new_table();
	if (!t->tb) {
		free(t);
		return NULL;
	}
	t->json = mode == FB_TABLE_JSON;
	scols_table_enable_json(t->tb, mode == FB_TABLE_JSON);
	scols_table_enable_export(t->tb, mode == FB_TABLE_PAIRS);
	scols_table_enable_raw(t->tb, mode == FB_TABLE_RAW);
	scols_table_enable_noheadings(t->tb, noheadings);
	scols_table_set_name(t->tb, name);
	return t;
}

void fb_table_free(struct fb_table *t)
{
	if (!t)
		return;
	scols_unref_table(t->tb);
	free(t);
}

int fb_table_add_column(struct fb_table *t, const char *name, double whint, bool right,
			bool number)
{
	struct libscols_column *cl =
		scols_table_new_column(t->tb, name, whint, right ? SCOLS_FL_RIGHT : 0);

	if (!cl)
		return -ENOMEM;
	if (t->json)
		scols_column_set_json_type(cl, number ? SCOLS_JSON_NUMBER : SCOLS_JSON_STRING);
	return 0;
}

int fb_table_add_line(struct fb_table *t)
{
	t->last = scols_table_new_line(t->tb, NULL);
	return t->last ? 0 : -ENOMEM;
}

int fb_table_set_cell(struct fb_table *t, size_t col, char *data)
{
	int r = t->last ? scols_line_refer_data(t->last, col, data) : -EINVAL;

	if (r < 0)
		free(data);
	return r;
}

int fb_table_print(struct fb_table *t, FILE *out)
{
	scols_table_set_stream(t->tb, out);
	return scols_print_table(t->tb);
}
