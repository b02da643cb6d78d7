/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The built-in table printer (src/table-builtin.c) against text written by
 * hand from what libsmartcols prints (tests/fixtures/golden). */
#include <errno.h>
#include <locale.h>

#include "macro.h"
#include "table.h"
#include "test.h"

static char *render(enum fb_table_mode mode, bool noheadings, bool empty)
{
	static const struct {
		const char *name;
		double whint;
		bool right, number;
		const char *v[2];
	} cols[] = {
		{ "NAME", 0.1, false, false, { "fb0", "fb1" } },
		{ "ID", 0.1, false, false, { "caf\xc3\xa9 \xff\x01x", "a\"b\\c" } },
		{ "VIRT", 9, true, false, { "1280x800", NULL } },
		{ "RES", 9, true, false, { NULL, NULL } },
		{ "BPP", 3, true, true, { "32", NULL } },
		{ "NODE", 0.1, false, false, { NULL, NULL } },
	};
	struct fb_table *t = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ASSERT_INT_EQ(fb_table_new(&t, "framebuffers", mode, noheadings), 0);
	ASSERT_TRUE(t && out);
	if (!t || !out) {
		if (out)
			fclose(out);
		free(buf);
		fb_table_free(t);
		return NULL;
	}
	for (size_t c = 0; c < ARRAY_SIZE(cols); c++)
		ASSERT_INT_EQ(fb_table_add_column(t, cols[c].name, cols[c].whint,
						  cols[c].right, cols[c].number),
			      0);
	for (size_t l = 0; !empty && l < 2; l++) {
		ASSERT_INT_EQ(fb_table_add_line(t), 0);
		for (size_t c = 0; c < ARRAY_SIZE(cols); c++)
			if (cols[c].v[l])
				ASSERT_INT_EQ(fb_table_set_cell(t, c,
								strdup(cols[c].v[l])),
					      0);
	}
	ASSERT_INT_EQ(fb_table_set_cell(t, 99, strdup("x")), -EINVAL);
	ASSERT_INT_EQ(fb_table_print(t, out), 0);
	fclose(out);
	fb_table_free(t);
	return buf;
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
	      "fb1  a\"b\\c                            \n");
	/* without headings, the columns are as wide as with them */
	check(FB_TABLE_ALIGNED, true, false,
	      "fb0  caf\xc3\xa9 \\xff\\x01x  1280x800      32 \n"
	      "fb1  a\"b\\c                            \n");
	check(FB_TABLE_RAW, false, false,
	      "NAME ID VIRT RES BPP NODE\n"
	      "fb0 caf\\xc3\\xa9\\x20\\xff\\x01x 1280x800  32 \n"
	      "fb1 a\"b\\x5cc    \n");
	check(FB_TABLE_PAIRS, false, false,
	      "NAME=\"fb0\" ID=\"caf\\xc3\\xa9 \\xff\\x01x\" VIRT=\"1280x800\" RES=\"\" BPP=\"32\" "
	      "NODE=\"\"\n"
	      "NAME=\"fb1\" ID=\"a\\\"b\\\\c\" VIRT=\"\" RES=\"\" BPP=\"\" NODE=\"\"\n");
	check(FB_TABLE_JSON, false, false,
	      "{\n"
	      "   \"framebuffers\": [\n"
	      "      {\n"
	      "         \"name\": \"fb0\",\n"
	      "         \"id\": \"caf\xc3\xa9 \xff\\u0001x\",\n"
	      "         \"virt\": \"1280x800\",\n"
	      "         \"res\": null,\n"
	      "         \"bpp\": 32,\n"
	      "         \"node\": null\n"
	      "      },{\n"
	      "         \"name\": \"fb1\",\n"
	      "         \"id\": \"a\\\"b\\\\c\",\n"
	      "         \"virt\": null,\n"
	      "         \"res\": null,\n"
	      "         \"bpp\": null,\n"
	      "         \"node\": null\n"
	      "      }\n"
	      "   ]\n"
	      "}\n");
	check(FB_TABLE_JSON, false, true, "{\n   \"framebuffers\": [\n\n   ]\n}\n");
	check(FB_TABLE_ALIGNED, false, true, "NAME ID VIRT RES BPP NODE\n");
	return test_finish("test-table-builtin");
}
