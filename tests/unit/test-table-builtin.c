/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The built-in table printer (src/table-builtin.c) against text written by
 * hand from what libsmartcols prints, and, where the build has it, against
 * libsmartcols itself printing the same table. */
#include <errno.h>
#include <locale.h>

#include "macro.h"
#include "table-builtin.h"
#include "test.h"

/* The two printers behind one set of calls: the built-in one, and the
 * table seam (libsmartcols in the default build) as the oracle. */
struct printer {
	int (*new_table)(void **t, enum fb_table_mode mode, bool noheadings);
	void (*free_table)(void *t);
	int (*add_column)(void *t, const char *name, double whint, unsigned flags);
	void (*set_termwidth)(void *t, size_t width);
	int (*add_line)(void *t);
	int (*set_cell)(void *t, size_t col, char *data);
	int (*print)(void *t, FILE *out);
};

static int b_new(void **t, enum fb_table_mode mode, bool noheadings)
{
	return fb_builtin_table_new((struct fb_builtin_table **)t, mode, noheadings);
}
static void b_free(void *t)
{
	fb_builtin_table_free(t);
}
static int b_col(void *t, const char *name, double whint, unsigned flags)
{
	return fb_builtin_table_add_column(t, name, whint, flags);
}
static void b_term(void *t, size_t width)
{
	fb_builtin_table_set_termwidth(t, width);
}
static int b_line(void *t)
{
	return fb_builtin_table_add_line(t);
}
static int b_cell(void *t, size_t col, char *data)
{
	return fb_builtin_table_set_cell(t, col, data);
}
static int b_print(void *t, FILE *out)
{
	return fb_builtin_table_print(t, out);
}
static const struct printer builtin = { b_new,	b_free, b_col,	b_term,
					b_line, b_cell, b_print };

static int s_new(void **t, enum fb_table_mode mode, bool noheadings)
{
	return fb_table_new((struct fb_table **)t, mode, noheadings);
}
static void s_free(void *t)
{
	fb_table_free(t);
}
static int s_col(void *t, const char *name, double whint, unsigned flags)
{
	return fb_table_add_column(t, name, whint, flags);
}
static void s_term(void *t, size_t width)
{
	fb_table_set_termwidth(t, width);
}
static int s_line(void *t)
{
	return fb_table_add_line(t);
}
static int s_cell(void *t, size_t col, char *data)
{
	return fb_table_set_cell(t, col, data);
}
static int s_print(void *t, FILE *out)
{
	return fb_table_print(t, out);
}
static const struct printer seam = {
	s_new, s_free, s_col, s_term, s_line, s_cell, s_print
};

static char *render_with(const struct printer *p, enum fb_table_mode mode,
			 bool noheadings, bool empty)
{
	static const struct {
		const char *name;
		double whint;
		unsigned flags;
		const char *v[2];
	} cols[] = {
		{ "NAME", 0.1, 0, { "fb0", "fb1" } },
		{ "ID", 0.1, 0, { "caf\xc3\xa9 \xff\x01x", "a\"b\\c`$x" } },
		{ "VIRT", 9, FB_TABLE_RIGHT, { "1280x800", NULL } },
		{ "RES", 9, FB_TABLE_RIGHT, { NULL, NULL } },
		{ "BPP", 3, FB_TABLE_RIGHT, { "32", NULL } },
		{ "NODE", 0.1, 0, { NULL, NULL } },
	};
	void *t = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ASSERT_INT_EQ(p->new_table(&t, mode, noheadings), 0);
	ASSERT_TRUE(t && out);
	if (!t || !out) {
		if (out)
			fclose(out);
		free(buf);
		if (t)
			p->free_table(t);
		return NULL;
	}
	for (size_t c = 0; c < ARRAY_SIZE(cols); c++)
		ASSERT_INT_EQ(p->add_column(t, cols[c].name, cols[c].whint, cols[c].flags),
			      0);
	for (size_t l = 0; !empty && l < 2; l++) {
		ASSERT_INT_EQ(p->add_line(t), 0);
		for (size_t c = 0; c < ARRAY_SIZE(cols); c++)
			if (cols[c].v[l])
				ASSERT_INT_EQ(p->set_cell(t, c, strdup(cols[c].v[l])), 0);
	}
	ASSERT_TRUE(p->set_cell(t, 99, strdup("x")) < 0);
	ASSERT_INT_EQ(p->print(t, out), 0);
	fclose(out);
	p->free_table(t);
	return buf;
}

static char *render(enum fb_table_mode mode, bool noheadings, bool empty)
{
	return render_with(&builtin, mode, noheadings, empty);
}

/* Where the seam prints through libsmartcols, the built-in printer must
 * print the very same bytes in every mode. */
static void compare_with_libsmartcols(void)
{
	static const enum fb_table_mode modes[] = { FB_TABLE_ALIGNED, FB_TABLE_RAW,
						    FB_TABLE_PAIRS };

	if (!strstr(fb_table_backend_name, "libsmartcols")) {
		printf("test-table-builtin: no libsmartcols in this build (%s): not compared\n",
		       fb_table_backend_name);
		return;
	}
	for (size_t m = 0; m < ARRAY_SIZE(modes); m++)
		for (int h = 0; h < 2; h++)
			for (int e = 0; e < 2; e++) {
				char *want = render_with(&seam, modes[m], h, e);
				char *got = render_with(&builtin, modes[m], h, e);

				ASSERT_MSG(
					want && got && strcmp(want, got) == 0,
					"mode %d noheadings %d empty %d: libsmartcols printed \"%s\", the built-in printer \"%s\"",
					(int)modes[m], h, e, want ? want : "?",
					got ? got : "?");
				free(want);
				free(got);
			}
}

/* A table with long columns (FB_TABLE_TRUNC) as on a terminal termwidth
 * wide (0: a file). */
static char *render_term(const struct printer *p, size_t termwidth)
{
	static const struct {
		const char *name;
		unsigned flags;
		const char *v[2];
	} cols[] = {
		{ "NAME", 0, { "fb0", "fb1" } },
		{ "ID",
		  FB_TABLE_TRUNC,
		  { "bochs-drmdrmfb", "a very long id of a framebuffer" } },
		{ "KIND", 0, { "drm", "virtual" } },
		{ "DRIVER", 0, { "bochs-drm", "vfb" } },
		{ "BPP", FB_TABLE_RIGHT, { "32", "8" } },
		{ "PATH", FB_TABLE_TRUNC, { "pci-0000:00:02.0", "platform-vfb.0" } },
		{ "MONITOR", FB_TABLE_TRUNC, { "QEMU Monitor", NULL } },
	};
	void *t = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ASSERT_TRUE(out && p->new_table(&t, FB_TABLE_ALIGNED, false) == 0);
	if (!out || !t) {
		if (out)
			fclose(out);
		free(buf);
		return NULL;
	}
	p->set_termwidth(t, termwidth);
	for (size_t c = 0; c < ARRAY_SIZE(cols); c++)
		ASSERT_INT_EQ(p->add_column(t, cols[c].name, 1, cols[c].flags), 0);
	for (size_t l = 0; l < 2; l++) {
		ASSERT_INT_EQ(p->add_line(t), 0);
		for (size_t c = 0; c < ARRAY_SIZE(cols); c++)
			if (cols[c].v[l])
				ASSERT_INT_EQ(p->set_cell(t, c, strdup(cols[c].v[l])), 0);
	}
	ASSERT_INT_EQ(p->print(t, out), 0);
	fclose(out);
	p->free_table(t);
	return buf;
}

/* On a terminal: three lines whatever its width, each led by its NAME
 * and with its short cells whole; no wider than the terminal where the
 * long columns, cut to their headings, let it fit (NAME ID KIND DRIVER
 * BPP PATH MONITOR: 42 columns); nothing cut for a file. */
static void check_terminal(const struct printer *p, const char *who)
{
	static const size_t widths[] = { 0, 200, 80, 50, 42, 41, 20 };
	char *file = render_term(p, 0);

	for (size_t i = 0; file && i < ARRAY_SIZE(widths); i++) {
		char *got = render_term(p, widths[i]);
		size_t n = 0;

		for (char *line = got, *end; line && *line; line = end + 1, n++) {
			size_t w;

			end = strchr(line, '\n');
			if (!end)
				break;
			while (end > line && end[-1] == ' ')
				end--; /* libsmartcols pads the last column */
			w = (size_t)(end - line);
			end = strchr(line, '\n');
			ASSERT_MSG(widths[i] < 42 || widths[i] == 0 || w <= widths[i],
				   "%s at %zu columns: a line %zu wide: \"%s\"", who,
				   widths[i], w, got);
			ASSERT_MSG(
				n == 0 || strncmp(line, n == 1 ? "fb0 " : "fb1 ", 4) == 0,
				"%s at %zu columns: line %zu is not led by its NAME: \"%s\"",
				who, widths[i], n, got);
		}
		ASSERT_MSG(n == 3, "%s at %zu columns: %zu lines, not 3: \"%s\"", who,
			   widths[i], n, got ? got : "?");
		ASSERT_MSG(got && strstr(got, "bochs-drm ") && strstr(got, "virtual "),
			   "%s at %zu columns: a short cell was cut: \"%s\"", who,
			   widths[i], got ? got : "?");
		if (widths[i] == 0 || widths[i] == 200)
			ASSERT_MSG(got && strcmp(got, file) == 0,
				   "%s at %zu columns: cut what fits: \"%s\"", who,
				   widths[i], got ? got : "?");
		free(got);
	}
	free(file);
}

static void check(enum fb_table_mode mode, bool noheadings, bool empty, const char *want)
{
	char *got = render(mode, noheadings, empty);

	ASSERT_STR_EQ(got, want);
	free(got);
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	check(FB_TABLE_ALIGNED, false, false,
	      "NAME ID                  VIRT RES BPP NODE\n"
	      "fb0  caf\xc3\xa9 \\xff\\x01x  1280x800      32 \n"
	      "fb1  a\"b\\c`$x                         \n");
	/* without headings, the columns are as wide as with them */
	check(FB_TABLE_ALIGNED, true, false,
	      "fb0  caf\xc3\xa9 \\xff\\x01x  1280x800      32 \n"
	      "fb1  a\"b\\c`$x                         \n");
	check(FB_TABLE_RAW, false, false,
	      "NAME ID VIRT RES BPP NODE\n"
	      "fb0 caf\\xc3\\xa9\\x20\\xff\\x01x 1280x800  32 \n"
	      "fb1 a\"b\\x5cc`$x    \n");
	check(FB_TABLE_PAIRS, false, false,
	      "NAME=\"fb0\" ID=\"caf\\xc3\\xa9 \\xff\\x01x\" VIRT=\"1280x800\" RES=\"\" BPP=\"32\" "
	      "NODE=\"\"\n"
	      "NAME=\"fb1\" ID=\"a\\x22b\\x5cc\\x60\\x24x\" VIRT=\"\" RES=\"\" BPP=\"\" NODE=\"\"\n");
	/* libsmartcols prints nothing at all for a table without lines */
	check(FB_TABLE_ALIGNED, false, true, "");
	check(FB_TABLE_RAW, false, true, "");
	check(FB_TABLE_PAIRS, false, true, "");
	compare_with_libsmartcols();
	check_terminal(&builtin, "the built-in printer");
	if (strstr(fb_table_backend_name, "libsmartcols"))
		check_terminal(&seam, "libsmartcols");
	{
		/* the built-in printer's cut, exactly: the widest long column first */
		char *got = render_term(&builtin, 50);

		ASSERT_STR_EQ(got, "NAME ID   KIND    DRIVER    BPP PATH    MONITOR\n"
				   "fb0  boch drm     bochs-drm  32 pci-000 QEMU Monit\n"
				   "fb1  a ve virtual vfb         8 platfor \n");
		free(got);
	}
	return test_finish("test-table-builtin");
}
