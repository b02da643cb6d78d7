/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The list table through libsmartcols: see table.h.  The library is
 * dlopen()ed by the first table, like libkmod, pixman and libpng: only list
 * prints one, and linked in, it is ~100 kB resident in every process,
 * the daemon and the boot-time coldplug and hotplug helpers among them.
 * Where it cannot be loaded (an initramfs packed by what ldd names), the
 * built-in printer prints the same text, and -v says so.
 */
#include <errno.h>
#include <libsmartcols.h>
#include <stdlib.h>

#include "dlopen.h"
#include "log.h"
#include "macro.h"
#include "table-builtin.h"
#include "table.h"

#define SCOLS_SONAME "libsmartcols.so.1"

const char fb_table_backend_name[] = "dlopen " SCOLS_SONAME ", else built-in";
FB_DLOPEN_NOTE(smartcols, "table",
	       "list's tables (the built-in printer prints the same without it)",
	       "suggested", SCOLS_SONAME);

#define SCOLS_SYMBOLS(X)                 \
	X(scols_new_table)               \
	X(scols_unref_table)             \
	X(scols_table_enable_export)     \
	X(scols_table_enable_raw)        \
	X(scols_table_enable_noheadings) \
	X(scols_table_set_termforce)     \
	X(scols_table_set_termwidth)     \
	X(scols_table_new_column)        \
	X(scols_table_new_line)          \
	X(scols_line_refer_data)         \
	X(scols_table_set_stream)        \
	X(scols_print_table)

static struct {
#define SCOLS_FIELD(f) typeof(f) *f;
	SCOLS_SYMBOLS(SCOLS_FIELD)
#undef SCOLS_FIELD
} sym;

/* 0, or -ELIBACC (said once: which library or symbol is missing). */
static int scols_open(void)
{
#define SCOLS_DLSYM(f) FB_DLSYM(f, sym.f),
	static const struct fb_dlsym syms[] = { SCOLS_SYMBOLS(SCOLS_DLSYM) };
#undef SCOLS_DLSYM
	static int state = FB_DL_UNTRIED;

	return fb_dlopen_many(&state, LOG_DEBUG, NULL, SCOLS_SONAME, "libsmartcols1",
			      syms, ARRAY_SIZE(syms));
}

struct fb_table {
	struct libscols_table *tb;
	struct libscols_line *last;
	struct fb_builtin_table *builtin; /* when libsmartcols cannot be loaded */
};

int fb_table_new(struct fb_table **ret, enum fb_table_mode mode, bool noheadings)
{
	struct fb_table *t;
	int r;

	*ret = NULL;
	log_locale_init(); /* widths are the locale's: coldplug defers it */
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	if (scols_open() < 0) {
		DBG("printing the table with the built-in printer");
		r = fb_builtin_table_new(&t->builtin, mode, noheadings);
		if (r < 0) {
			free(t);
			return r;
		}
		*ret = t;
		return 0;
	}
	t->tb = sym.scols_new_table();
	if (!t->tb) {
		free(t);
		return -ENOMEM;
	}
	sym.scols_table_enable_export(t->tb, mode == FB_TABLE_PAIRS);
	sym.scols_table_enable_raw(t->tb, mode == FB_TABLE_RAW);
	sym.scols_table_enable_noheadings(t->tb, noheadings);
	*ret = t;
	return 0;
}

void fb_table_free(struct fb_table *t)
{
	if (!t)
		return;
	if (t->builtin)
		fb_builtin_table_free(t->builtin);
	else
		sym.scols_unref_table(t->tb);
	free(t);
}

int fb_table_add_column(struct fb_table *t, const char *name, double whint, unsigned flags)
{
	if (t->builtin)
		return fb_builtin_table_add_column(t->builtin, name, whint, flags);
	return sym.scols_table_new_column(t->tb, name, whint,
					  (flags & FB_TABLE_RIGHT ? SCOLS_FL_RIGHT : 0) |
						  (flags & FB_TABLE_TRUNC ? SCOLS_FL_TRUNC
									  : 0))
		       ? 0
		       : -ENOMEM;
}

void fb_table_set_termwidth(struct fb_table *t, size_t width)
{
	if (t->builtin) {
		fb_builtin_table_set_termwidth(t->builtin, width);
		return;
	}
	sym.scols_table_set_termforce(t->tb, width ? SCOLS_TERMFORCE_ALWAYS
						   : SCOLS_TERMFORCE_NEVER);
	if (width)
		sym.scols_table_set_termwidth(t->tb, width);
}

int fb_table_add_line(struct fb_table *t)
{
	if (t->builtin)
		return fb_builtin_table_add_line(t->builtin);
	t->last = sym.scols_table_new_line(t->tb, NULL);
	return t->last ? 0 : -ENOMEM;
}

int fb_table_set_cell(struct fb_table *t, size_t col, char *data)
{
	int r;

	if (t->builtin)
		return fb_builtin_table_set_cell(t->builtin, col, data);
	r = t->last ? sym.scols_line_refer_data(t->last, col, data) : -EINVAL;

	if (r < 0)
		free(data);
	return r;
}

int fb_table_print(struct fb_table *t, FILE *out)
{
	if (t->builtin)
		return fb_builtin_table_print(t->builtin, out);
	sym.scols_table_set_stream(t->tb, out);
	return sym.scols_print_table(t->tb);
}
