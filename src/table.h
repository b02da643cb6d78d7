/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The seam between list's table and the library that prints it:
 * libsmartcols, dlopen()ed, falling back to the built-in printer
 * (src/table-scols.c, the default), or the built-in printer alone
 * (src/table-builtin-only.c, ./configure --enable-static-binary: Debian has no
 * libsmartcols.a).  Both print the same text for what list uses:
 * aligned, raw and KEY="value" pairs, with or without headings.  JSON is
 * not a table's: list writes it with jsonout.h, in the layout of every -J.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* "dlopen libsmartcols.so.1, else built-in" or "built-in", for --version. */
extern const char fb_table_backend_name[];

enum fb_table_mode { FB_TABLE_ALIGNED, FB_TABLE_RAW, FB_TABLE_PAIRS };

/* A column's flags: right-aligned; long, its cells cut to fit the
 * terminal (as lsblk cuts them) so that a line never wraps onto lines of
 * its own.  Nothing is cut but on a terminal. */
enum { FB_TABLE_RIGHT = 1 << 0, FB_TABLE_TRUNC = 1 << 1 };

struct fb_table;

/* 0 or -ENOMEM. */
int fb_table_new(struct fb_table **ret, enum fb_table_mode mode, bool noheadings);
void fb_table_free(struct fb_table *t);
/* flags: FB_TABLE_RIGHT, FB_TABLE_TRUNC.  0 or -ENOMEM. */
int fb_table_add_column(struct fb_table *t, const char *name, double whint,
			unsigned flags);
/* Print as on a terminal this many columns wide (0: as to a file, nothing
 * cut).  Unset, the output stream says: a terminal's width (COLUMNS, else
 * its size), else a file's. */
void fb_table_set_termwidth(struct fb_table *t, size_t width);
/* A new last line, its cells empty.  0 or -ENOMEM. */
int fb_table_add_line(struct fb_table *t);
/* Cell col of the last line takes data (malloc'd; freed by the table,
 * also on error).  0 or -errno. */
int fb_table_set_cell(struct fb_table *t, size_t col, char *data);
/* 0 or -errno. */
int fb_table_print(struct fb_table *t, FILE *out);
