/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl.conf parser: good files, and every kind of bad line with its
 * exact message. */
#include <errno.h>

#include "test.h"
#include "rules.h"

/* fb_rules_match for a framebuffer without connectors. */
static const struct fb_rule *match(const struct fb_rules *r, const char *name,
				   const char *driver, const char *path_id,
				   const char *id)
{
	return fb_rules_match(r, &(struct fb_rule_subject){ .name = name,
							    .driver = driver,
							    .path_id = path_id,
							    .id = id });
}

/* connector= and monitor=: one of the connected connectors, one of their
 * monitors. */
static void test_display_keys(void)
{
	static const char *const conns[] = { "card0-DP-1", "card0-HDMI-A-1" };
	static const char *const mons[] = { NULL, "DELL U2720Q" };
	struct fb_rule_subject s = { .name = "fb0",
				     .connectors = conns,
				     .n_connectors = 2,
				     .monitors = mons,
				     .n_monitors = 2 };
	struct fb_rules r = {};

	ASSERT_INT_EQ(fb_rules_parse_string("monitor=\"DELL U2720Q\" link=display/main\n"
					    "connector=card0-DP-* link=display/dp\n"
					    "connector=card1-* monitor=* mode=0600\n",
					    "d.conf", &r),
		      0);
	ASSERT_INT_EQ(r.n, 3);
	ASSERT_STR_EQ(r.rules[0].match_monitor, "DELL U2720Q");
	ASSERT_STR_EQ(r.rules[1].match_connector, "card0-DP-*");
	ASSERT_TRUE(fb_rules_match(&r, &s) == &r.rules[0]);
	s.n_monitors = 1; /* the DELL is on HDMI: without it, DP's rule */
	ASSERT_TRUE(fb_rules_match(&r, &s) == &r.rules[1]);
	s.n_connectors = 0;
	s.n_monitors = 0;
	ASSERT_NULL(fb_rules_match(&r, &s));
	fb_rules_free(&r);
	/* a rule on an unknown monitor (NULL: an EDID not trusted) never matches */
	ASSERT_INT_EQ(fb_rules_parse_string("monitor=* mode=0600\n", "n.conf", &r), 0);
	s.n_connectors = 1;
	s.n_monitors = 1;
	ASSERT_NULL(fb_rules_match(&r, &s));
	fb_rules_free(&r);
	ASSERT_INT_EQ(fb_rules_parse_string("connector= mode=0600\n", "e.conf", &r),
		      -EINVAL);
	ASSERT_STR_EQ(r.errors[0], "e.conf:1: empty value for \"connector\"");
	fb_rules_free(&r);
}

static void test_good(void)
{
	static const char text[] =
		"# comment line\n"
		"\n"
		"   \t\n"
		"name=fb0 owner=root group=video mode=0640 link=display/main # trailing\n"
		"driver=bochs-drm path=pci-* link=display/bochs link=a/b/c\n"
		"id=\"VESA VGA\" ignore\n"
		"id=\"say \\\"hi\\\" \\\\ there\" mode=600\n"
		"name=fb* group=44 owner=0\r\n"
		"name=fb9";
	struct fb_rules r;
	const struct fb_rule *m;

	/* The last line has no action: that is the one error. */
	ASSERT_INT_EQ(fb_rules_parse_string(text, "good.conf", &r), -EINVAL);
	ASSERT_INT_EQ(r.n_errors, 1);
	if (r.n_errors)
		ASSERT_STR_EQ(
			r.errors[0],
			"good.conf:9: rule has no action (owner=, group=, mode=, link=, fbmode=, console=, rotate= or ignore)");
	ASSERT_INT_EQ(r.n, 5);
	if (r.n < 5) {
		fb_rules_free(&r);
		return;
	}
	ASSERT_INT_EQ(r.rules[0].line, 4);
	ASSERT_STR_EQ(r.rules[0].match_name, "fb0");
	ASSERT_TRUE(r.rules[0].has_owner && r.rules[0].uid == 0);
	ASSERT_TRUE(r.rules[0].has_group && r.rules[0].gid == 44);
	ASSERT_TRUE(r.rules[0].has_mode && r.rules[0].mode == 0640);
	ASSERT_INT_EQ(r.rules[0].n_links, 1);
	ASSERT_STR_EQ(r.rules[0].links[0], "display/main");
	ASSERT_STR_EQ(r.rules[1].match_driver, "bochs-drm");
	ASSERT_STR_EQ(r.rules[1].match_path, "pci-*");
	ASSERT_INT_EQ(r.rules[1].n_links, 2);
	ASSERT_STR_EQ(r.rules[2].match_id, "VESA VGA");
	ASSERT_TRUE(r.rules[2].ignore);
	ASSERT_STR_EQ(r.rules[3].match_id, "say \"hi\" \\ there");
	ASSERT_TRUE(r.rules[3].mode == 0600);
	ASSERT_TRUE(r.rules[4].gid == 44 && r.rules[4].uid == 0);

	/* First match wins; a NULL field never matches a rule on it. */
	m = match(&r, "fb0", "bochs-drm", "pci-0000:00:02.0", "x");
	ASSERT_TRUE(m == &r.rules[0]);
	m = match(&r, "fb1", "bochs-drm", "pci-0000:00:02.0", "x");
	ASSERT_TRUE(m == &r.rules[1]);
	m = match(&r, "fb1", NULL, "pci-0000:00:02.0", "VESA VGA");
	ASSERT_TRUE(m == &r.rules[2]);
	m = match(&r, "fb2", NULL, NULL, NULL);
	ASSERT_TRUE(m == &r.rules[4]);
	m = match(&r, "gfx", NULL, NULL, NULL);
	ASSERT_TRUE(m == NULL);
	fb_rules_free(&r);

	ASSERT_INT_EQ(fb_rules_parse_string("", "empty.conf", &r), 0);
	ASSERT_INT_EQ(r.n, 0);
	fb_rules_free(&r);
}

static const struct {
	const char *line;
	const char *message;
} bad[] = {
	{ "frobnicate", "expected KEY=VALUE or \"ignore\", got \"frobnicate\"" },
	{ "=fb0 mode=0600", "missing key before \"=\"" },
	{ "colour=blue mode=0600", "unknown key \"colour\"" },
	{ "name= mode=0600", "empty value for \"name\"" },
	{ "name=fb0 name=fb1 mode=0600", "\"name\" given twice" },
	{ "name=fb0 mode=0600 mode=0644", "\"mode\" given twice" },
	{ "name=fb0 owner=root owner=root", "\"owner\" given twice" },
	{ "name=fb0 ignore ignore", "\"ignore\" given twice" },
	/* Found by fuzz-rules: the value was leaked. */
	{ "name=fb0 ignore=yes", "\"ignore\" takes no value" },
	{ "id=\"VESA VGA mode=0600", "unterminated quote in value of \"id\"" },
	{ "id=\"a\\nb\" mode=0600",
	  "invalid escape \"\\n\" in value of \"id\" (only \\\" and \\\\)" },
	{ "id=\"a\"b mode=0600", "garbage after the quoted value of \"id\"" },
	{ "id=a\"b\" mode=0600",
	  "unexpected '\"' in value of \"id\" (quote the whole value)" },
	{ "name=fb0 mode=999", "invalid mode \"999\": expected octal 0 to 0777" },
	{ "name=fb0 mode=04755", "invalid mode \"04755\": expected octal 0 to 0777" },
	{ "name=fb0 mode=rw", "invalid mode \"rw\": expected octal 0 to 0777" },
	{ "name=fb0 mode=00660", "invalid mode \"00660\": expected octal 0 to 0777" },
	{ "name=fb0 owner=nosuchuser-fbclassctl",
	  "unknown user \"nosuchuser-fbclassctl\"" },
	{ "name=fb0 group=nosuchgroup-fbclassctl",
	  "unknown group \"nosuchgroup-fbclassctl\"" },
	{ "name=fb0 owner=-1", "unknown user \"-1\"" },
	{ "name=fb0 group=044", "unknown group \"044\"" },
	{ "name=fb0 link=/etc/x", "invalid link \"/etc/x\": must be relative" },
	{ "name=fb0 link=../x", "invalid link \"../x\": must not contain \"..\"" },
	{ "name=fb0 link=display/../../x",
	  "invalid link \"display/../../x\": must not contain \"..\"" },
	{ "name=fb0 link=a//b",
	  "invalid link \"a//b\": must not contain empty components" },
	{ "name=fb0 link=a/", "invalid link \"a/\": must not contain empty components" },
	{ "name=fb0 link=./a", "invalid link \"./a\": must not contain \".\" components" },
	{ "name=fb0 link=\"my display\"",
	  "invalid link \"my display\": contains a character other than [A-Za-z0-9#+-.:=@_/]" },
	{ "name=fb0 link=fb/by-path/x",
	  "invalid link \"fb/by-path/x\": is reserved for fbclassctl (fb/...)" },
	{ "name=fb0 link=fb", "invalid link \"fb\": is reserved for fbclassctl (fb/...)" },
	{ "name=fb0 link=fb3",
	  "invalid link \"fb3\": is reserved for a framebuffer node" },
	{ "mode=0600",
	  "rule has no match (name=, driver=, path=, id=, connector= or monitor=)" },
	{ "ignore",
	  "rule has no match (name=, driver=, path=, id=, connector= or monitor=)" },
	{ "name=fb0",
	  "rule has no action (owner=, group=, mode=, link=, fbmode=, console=, rotate= or ignore)" },
	{ "name=fb0 fbmode=800x",
	  "invalid fbmode \"800x\": expected a fb.modes name or WxH[-DEPTH][@HZ]" },
	{ "name=fb0 fbmode=800x600-",
	  "invalid fbmode \"800x600-\": expected a fb.modes name or WxH[-DEPTH][@HZ]" },
	{ "name=fb0 fbmode=640x480 fbmode=800x600", "\"fbmode\" given twice" },
	{ "name=fb0 console=0",
	  "invalid console \"0\": expected N or N-M, consoles 1 to 63" },
	{ "name=fb0 console=64",
	  "invalid console \"64\": expected N or N-M, consoles 1 to 63" },
	{ "name=fb0 console=5-2",
	  "invalid console \"5-2\": expected N or N-M, consoles 1 to 63" },
	{ "name=fb0 console=1-",
	  "invalid console \"1-\": expected N or N-M, consoles 1 to 63" },
	{ "name=fb0 console=tty1",
	  "invalid console \"tty1\": expected N or N-M, consoles 1 to 63" },
	{ "name=fb0 console=1 console=2", "\"console\" given twice" },
	{ "name=fb0 rotate=45", "invalid rotate \"45\": expected 0, 90, 180 or 270" },
	{ "name=fb0 rotate=360", "invalid rotate \"360\": expected 0, 90, 180 or 270" },
	{ "name=fb0 rotate=left", "invalid rotate \"left\": expected 0, 90, 180 or 270" },
	{ "name=fb0 rotate=90 rotate=90", "\"rotate\" given twice" },
	{ "name=fb0 ignore console=1",
	  "\"ignore\" cannot be combined with other actions" },
	{ "name=fb0 ignore mode=0600",
	  "\"ignore\" cannot be combined with other actions" },
	{ "name=fb0 ignore link=x", "\"ignore\" cannot be combined with other actions" },
	{ "name=fb0\tmode=0600\001", "control character 0x01" },
};

static void test_bad_lines(void)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[256], want[512];
		struct fb_rules r;

		/* A good line before and after: the line number must be 2 and
		 * the good lines still parse. */
		snprintf(text, sizeof(text),
			 "name=fb7 mode=0600\n%s\nname=fb8 mode=0600\n", bad[i].line);
		snprintf(want, sizeof(want), "bad.conf:2: %s", bad[i].message);
		ASSERT_INT_EQ(fb_rules_parse_string(text, "bad.conf", &r), -EINVAL);
		ASSERT_INT_EQ(r.n_errors, 1);
		if (r.n_errors)
			ASSERT_STR_EQ(r.errors[0], want);
		ASSERT_INT_EQ(r.n, 2);
		fb_rules_free(&r);
	}
}

static void test_long_line(void)
{
	char *text = malloc(FB_RULES_LINE_MAX + 64);
	struct fb_rules r;

	memset(text, 'a', FB_RULES_LINE_MAX + 10);
	memcpy(text, "name=", 5);
	strcpy(text + FB_RULES_LINE_MAX + 10, " mode=0600\nname=x mode=0600");
	ASSERT_INT_EQ(fb_rules_parse_string(text, "long.conf", &r), -EINVAL);
	ASSERT_INT_EQ(r.n_errors, 1);
	if (r.n_errors)
		ASSERT_STR_EQ(r.errors[0],
			      "long.conf:1: line too long (more than 4096 bytes)");
	ASSERT_INT_EQ(r.n, 1);
	fb_rules_free(&r);
	free(text);
}

static void test_many_errors(void)
{
	struct fb_rules r;

	ASSERT_INT_EQ(fb_rules_parse_string("x\n\ny\n# ok\nname=fb0\n", "m.conf", &r),
		      -EINVAL);
	ASSERT_INT_EQ(r.n_errors, 3);
	if (r.n_errors == 3) {
		ASSERT_STR_EQ(r.errors[0],
			      "m.conf:1: expected KEY=VALUE or \"ignore\", got \"x\"");
		ASSERT_STR_EQ(r.errors[1],
			      "m.conf:3: expected KEY=VALUE or \"ignore\", got \"y\"");
		ASSERT_STR_EQ(
			r.errors[2],
			"m.conf:5: rule has no action (owner=, group=, mode=, link=, fbmode=, console=, rotate= or ignore)");
	}
	fb_rules_free(&r);
}

/* fbmode=, console= and rotate=: the device set up as the commands would. */
static void test_setup_keys(void)
{
	struct fb_rules r = {};

	ASSERT_INT_EQ(fb_rules_parse_string(
			      "name=fb1 fbmode=800x600-16@60 console=1-63 rotate=90\n"
			      "name=fb2 fbmode=\"my mode\" console=7\n"
			      "name=fb3 rotate=0\n",
			      "s.conf", &r),
		      0);
	ASSERT_INT_EQ(r.n, 3);
	if (r.n != 3)
		goto finish;
	ASSERT_STR_EQ(r.rules[0].fbmode, "800x600-16@60");
	ASSERT_INT_EQ(r.rules[0].console_first, 1);
	ASSERT_INT_EQ(r.rules[0].console_last, 63);
	ASSERT_TRUE(r.rules[0].has_rotate);
	ASSERT_INT_EQ(r.rules[0].rotate, 90);
	ASSERT_STR_EQ(r.rules[1].fbmode, "my mode");
	ASSERT_INT_EQ(r.rules[1].console_first, 7);
	ASSERT_INT_EQ(r.rules[1].console_last, 7);
	ASSERT_TRUE(!r.rules[1].has_rotate);
	ASSERT_NULL(r.rules[2].fbmode);
	ASSERT_INT_EQ(r.rules[2].console_first, 0);
	ASSERT_TRUE(r.rules[2].has_rotate);
	ASSERT_INT_EQ(r.rules[2].rotate, 0);
finish:
	fb_rules_free(&r);
}

static void test_link_problem(void)
{
	ASSERT_TRUE(fb_rule_link_problem("display/main") == NULL);
	ASSERT_TRUE(fb_rule_link_problem("fbx") == NULL);
	ASSERT_TRUE(fb_rule_link_problem("a.b/c..d") == NULL);
	ASSERT_TRUE(fb_rule_link_problem("..") != NULL);
	ASSERT_TRUE(fb_rule_link_problem("") != NULL);
	ASSERT_TRUE(fb_rule_link_problem("a/.") != NULL);
}

int main(void)
{
	test_display_keys();
	test_good();
	test_bad_lines();
	test_long_line();
	test_many_errors();
	test_setup_keys();
	test_link_problem();
	return test_finish("test-rules");
}
