/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The seam between list's table and the library that prints it:
 * libsmartcols, dlopen()ed, falling back to the built-in printer
 * (src/table-scols.c, the default), or the built-in printer alone
 * (src/table-builtin-only.c, ./configure --enable-static-binary: Debian has no
 * libsmartcols.a).  Both print the same text for what list uses:
 * aligned, raw, KEY="value" pairs and JSON, with or without headings.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* "dlopen libsmartcols.so.1, else built-in" or "built-in", for --version. */
extern const char fb_table_backend_name[];

enum fb_table_mode { FB_TABLE_ALIGNED, FB_TABLE_RAW, FB_TABLE_PAIRS, FB_TABLE_JSON };

struct fb_table;

/* name is the JSON array's key.  0 or -ENOMEM. */
int fb_table_new(struct fb_table **ret, const char *name, enum fb_table_mode mode,
		 bool noheadings);
void fb_table_free(struct fb_table *t);
/* right: right-aligned; number: a JSON number.  0 or -ENOMEM. */
int fb_table_add_column(struct fb_table *t, const char *name, double whint, bool right,
			bool number);
/* A new last line, its cells empty.  0 or -ENOMEM. */
int fb_table_add_line(struct fb_table *t);
/* Cell col of the last line takes data (malloc'd; freed by the table,
 * also on error).  0 or -errno. */
int fb_table_set_cell(struct fb_table *t, size_t col, char *data);
/* 0 or -errno. */
int fb_table_print(struct fb_table *t, FILE *out);
