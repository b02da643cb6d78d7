/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The built-in table printer: see table-builtin.h.  It prints what
 * libsmartcols prints for list's columns, byte for byte. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>

#include "strutil.h"
#include "table-builtin.h"

struct plain_column {
	char *name;
	double whint;
	bool right, trunc;
	size_t width;
};

struct fb_builtin_table {
	enum fb_table_mode mode;
	bool noheadings;
	long termwidth; /* < 0: the output stream's; 0: not a terminal */
	struct plain_column *cols;
	size_t ncols;
	char **cells; /* nlines * ncols, NULL for an empty cell */
	size_t nlines;
};

int fb_builtin_table_new(struct fb_builtin_table **ret, enum fb_table_mode mode,
			 bool noheadings)
{
	struct fb_builtin_table *t = calloc(1, sizeof(*t));

	*ret = NULL;
	if (!t)
		return -ENOMEM;
	t->mode = mode;
	t->noheadings = noheadings;
	t->termwidth = -1;
	*ret = t;
	return 0;
}

void fb_builtin_table_free(struct fb_builtin_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nlines * t->ncols; i++)
		free(t->cells[i]);
	for (size_t i = 0; i < t->ncols; i++)
		free(t->cols[i].name);
	free(t->cells);
	free(t->cols);
	free(t);
}

int fb_builtin_table_add_column(struct fb_builtin_table *t, const char *name,
				double whint, unsigned flags)
{
	struct plain_column *c;

	if (t->nlines)
		return -EINVAL;
	c = realloc(t->cols, (t->ncols + 1) * sizeof(*c));
	if (!c)
		return -ENOMEM;
	t->cols = c;
	c += t->ncols;
	*c = (struct plain_column){ .name = strdup(name),
				    .whint = whint,
				    .right = flags & FB_TABLE_RIGHT,
				    .trunc = flags & FB_TABLE_TRUNC };
	if (!c->name)
		return -ENOMEM;
	t->ncols++;
	return 0;
}

void fb_builtin_table_set_termwidth(struct fb_builtin_table *t, size_t width)
{
	t->termwidth = width > LONG_MAX ? LONG_MAX : (long)width;
}

int fb_builtin_table_add_line(struct fb_builtin_table *t)
{
	char **cells = realloc(t->cells, (t->nlines + 1) * t->ncols * sizeof(*cells) + 1);

	if (!cells)
		return -ENOMEM;
	t->cells = cells;
	memset(cells + t->nlines * t->ncols, 0, t->ncols * sizeof(*cells));
	t->nlines++;
	return 0;
}

int fb_builtin_table_set_cell(struct fb_builtin_table *t, size_t col, char *data)
{
	char **cell;

	if (!t->nlines || col >= t->ncols) {
		free(data);
		return -EINVAL;
	}
	cell = &t->cells[(t->nlines - 1) * t->ncols + col];
	free(*cell);
	*cell = data;
	return 0;
}

/* Write s as an aligned table shows it: printable UTF-8 as it is, any
 * other byte as \xHH; no more than max columns of it, a character or an
 * \xHH whole or not at all.  Returns the width written; out may be NULL. */
static size_t put_aligned_max(const char *s, size_t max, FILE *out)
{
	mbstate_t st = { 0 };
	size_t width = 0, len = strlen(s);

	while (len) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s, len, &st);
		int w = n > 0 && n <= len ? wcwidth(wc) : -1;

		if (w < 0 || (n == 1 && iscntrl((unsigned char)*s))) {
			if (width + 4 > max)
				break;
			if (out)
				fprintf(out, "\\x%02x", (unsigned char)*s);
			width += 4;
			memset(&st, 0, sizeof(st));
			n = 1;
		} else {
			if (width + (size_t)w > max)
				break;
			if (out)
				fwrite(s, 1, n, out);
			width += (size_t)w;
		}
		s += n;
		len -= n;
	}
	return width;
}

static size_t put_aligned(const char *s, FILE *out)
{
	return put_aligned_max(s, SIZE_MAX, out);
}

/* Raw: only ASCII graphic characters but '\\' as they are. */
static void put_raw(const char *s, FILE *out)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p > ' ' && *p < 0x7f && *p != '\\')
			fputc(*p, out);
		else
			fprintf(out, "\\x%02x", *p);
	}
}

/* Pairs: inside double quotes, as a shell reads them. */
static void put_pair_value(const char *s, FILE *out)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		/* as libsmartcols: what a shell would expand, in hex too */
		if (*p >= ' ' && *p < 0x7f && !strchr("\"\\`$", *p))
			fputc(*p, out);
		else
			fprintf(out, "\\x%02x", *p);
	}
}

static void print_pairs(const struct fb_builtin_table *t, FILE *out)
{
	for (size_t l = 0; l < t->nlines; l++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const char *v = t->cells[l * t->ncols + c];

			fprintf(out, "%s%s=\"", c ? " " : "", t->cols[c].name);
			put_pair_value(v ? v : "", out);
			fputc('"', out);
		}
		fputc('\n', out);
	}
}

static void put_aligned_cell(const struct plain_column *col, const char *s, bool last,
			     FILE *out)
{
	size_t w = put_aligned_max(s, col->width, NULL);

	if (col->right)
		for (size_t i = w; i < col->width; i++)
			fputc(' ', out);
	put_aligned_max(s, col->width, out);
	if (!col->right && !last)
		for (size_t i = w; i < col->width; i++)
			fputc(' ', out);
}

static void put_raw_cell(const struct plain_column *col, const char *s, bool last,
			 FILE *out)
{
	put_raw(s, out);
}

/* The headings (unless noheadings) and the lines, a space between cells. */
static void print_lines(const struct fb_builtin_table *t, FILE *out,
			void (*put_cell)(const struct plain_column *, const char *, bool,
					 FILE *))
{
	for (size_t l = t->noheadings ? 1 : 0; l <= t->nlines; l++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const char *v =
				l ? t->cells[(l - 1) * t->ncols + c] : t->cols[c].name;

			if (c)
				fputc(' ', out);
			put_cell(&t->cols[c], v ? v : "", c + 1 == t->ncols, out);
		}
		fputc('\n', out);
	}
}

/* The width to fit: the one set, else the terminal's that out is, else 0:
 * not a terminal, nothing cut. */
static size_t fit_width(const struct fb_builtin_table *t, FILE *out)
{
	return t->termwidth >= 0 ? (size_t)t->termwidth : terminal_width(fileno(out));
}

/* On a terminal, a line wider than it wraps onto lines of their own under
 * the first: cut the long columns (FB_TABLE_TRUNC), the widest first, to
 * no less than their heading, until the line fits or none is left to cut. */
static void fit_terminal(struct fb_builtin_table *t, size_t termwidth)
{
	size_t total = t->ncols ? t->ncols - 1 : 0;

	if (!termwidth)
		return;
	for (size_t c = 0; c < t->ncols; c++)
		total += t->cols[c].width;
	while (total > termwidth) {
		struct plain_column *widest = NULL;
		size_t spare = 0;

		for (size_t c = 0; c < t->ncols; c++) {
			struct plain_column *col = &t->cols[c];
			size_t min = put_aligned(col->name, NULL);

			if (col->trunc && col->width > min && col->width - min > spare) {
				spare = col->width - min;
				widest = col;
			}
		}
		if (!widest)
			return;
		widest->width--;
		total--;
	}
}

/* As libsmartcols does when it does not write to a terminal: a column is
 * as wide as its widest cell or heading, and at least its width hint
 * (when >= 1) once a cell has data; the last one is not padded. */
static void print_aligned(struct fb_builtin_table *t, FILE *out)
{
	for (size_t c = 0; c < t->ncols; c++) {
		struct plain_column *col = &t->cols[c];
		bool data = false;

		col->width = put_aligned(col->name, NULL); /* headings or not */
		for (size_t l = 0; l < t->nlines; l++) {
			const char *v = t->cells[l * t->ncols + c];
			size_t w = v ? put_aligned(v, NULL) : 0;

			data |= w > 0;
			if (w > col->width)
				col->width = w;
		}
		if (data && col->whint >= 1 && col->width < (size_t)col->whint)
			col->width = (size_t)col->whint;
	}
	fit_terminal(t, fit_width(t, out));
	print_lines(t, out, put_aligned_cell);
}

int fb_builtin_table_print(struct fb_builtin_table *t, FILE *out)
{
	/* libsmartcols prints nothing for a table without lines */
	if (!t->nlines)
		return 0;
	switch (t->mode) {
	case FB_TABLE_PAIRS:
		print_pairs(t, out);
		break;
	case FB_TABLE_RAW:
		print_lines(t, out, put_raw_cell);
		break;
	case FB_TABLE_ALIGNED:
		print_aligned(t, out);
		break;
	}
	return fflush(out) == 0 ? 0 : -errno;
}
