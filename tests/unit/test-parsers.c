/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The other sysfs attribute parsers (numbers, virtual_size, mode, modes),
 * the strict number parsers every number goes through, log_errno and
 * str_concat, str_concat_dup and str_hash. */
#include <errno.h>
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>

#include "fbclass.h"
#include "log.h"
#include "strutil.h"
#include "test.h"

static void test_uint(void)
{
	unsigned v = 0;

	ASSERT_INT_EQ(fb_parse_uint("32\n", &v), 0);
	ASSERT_INT_EQ(v, 32);
	ASSERT_INT_EQ(fb_parse_uint("0", &v), 0);
	ASSERT_INT_EQ(v, 0);
	ASSERT_INT_EQ(fb_parse_uint("4294967295", &v), 0);
	ASSERT_INT_EQ(v, 4294967295u);
	ASSERT_INT_EQ(fb_parse_uint("4294967296", &v), -ERANGE);
	ASSERT_INT_EQ(fb_parse_uint("", &v), -EINVAL);
	ASSERT_INT_EQ(fb_parse_uint("-1", &v), -EINVAL);
	ASSERT_INT_EQ(fb_parse_uint("08", &v), -EINVAL);
	ASSERT_INT_EQ(fb_parse_uint("8 ", &v), -EINVAL);
	ASSERT_INT_EQ(fb_parse_uint(NULL, &v), -EINVAL);
}

static void test_pair(void)
{
	unsigned x = 0, y = 0;

	ASSERT_INT_EQ(fb_parse_pair("1024,768\n", &x, &y), 0);
	ASSERT_INT_EQ(x, 1024);
	ASSERT_INT_EQ(y, 768);
	ASSERT_INT_EQ(fb_parse_pair("1024,", &x, &y), -EINVAL);
	ASSERT_INT_EQ(fb_parse_pair(",768", &x, &y), -EINVAL);
	ASSERT_INT_EQ(fb_parse_pair("1024x768", &x, &y), -EINVAL);
	ASSERT_INT_EQ(fb_parse_pair("1024,768,1", &x, &y), -EINVAL);
	ASSERT_INT_EQ(fb_parse_pair("1024, 768", &x, &y), -EINVAL);
}

static void test_mode(void)
{
	struct fb_sysfs_mode m;
	size_t n = 0;

	ASSERT_INT_EQ(fb_parse_mode("U:1024x768p-75\n", &m), 0);
	ASSERT_INT_EQ(m.kind, 'U');
	ASSERT_INT_EQ(m.xres, 1024);
	ASSERT_INT_EQ(m.yres, 768);
	ASSERT_INT_EQ(m.scan, 'p');
	ASSERT_INT_EQ(m.refresh, 75);
	ASSERT_INT_EQ(fb_parse_mode("S:640x480i-0", &m), 0);
	ASSERT_INT_EQ(m.scan, 'i');
	ASSERT_INT_EQ(fb_parse_mode("V:800x600d-60", &m), 0);
	ASSERT_INT_EQ(m.kind, 'V');
	ASSERT_INT_EQ(fb_parse_mode("", &m), -EINVAL);
	ASSERT_INT_EQ(fb_parse_mode("\n", &m), -EINVAL);
	ASSERT_INT_EQ(fb_parse_mode("X:1024x768p-75", &m), -EINVAL);
	ASSERT_INT_EQ(fb_parse_mode("U1024x768p-75", &m), -EINVAL);
	ASSERT_INT_EQ(fb_parse_mode("U:1024x768-75", &m), -EINVAL);
	ASSERT_INT_EQ(fb_parse_mode("U:1024x768p75", &m), -EINVAL);
	ASSERT_INT_EQ(fb_parse_mode("U:1024x768p-", &m), -EINVAL);
	ASSERT_INT_EQ(fb_parse_mode("U:1024x768p-75\nU:800x600p-60", &m), -EINVAL);

	ASSERT_INT_EQ(fb_parse_modes("U:1024x768p-75\nS:800x600p-60\n", &n), 0);
	ASSERT_INT_EQ(n, 2);
	ASSERT_INT_EQ(fb_parse_modes("", &n), 0);
	ASSERT_INT_EQ(n, 0);
	ASSERT_INT_EQ(fb_parse_modes("U:1024x768p-75\ngarbage\n", &n), -EINVAL);
	ASSERT_INT_EQ(fb_parse_modes("U:1024x768p-75 \n", &n), -EINVAL);
}

static void test_escape(void)
{
	char *s;

	s = str_escape("29:x\n", 64);
	ASSERT_STR_EQ(s, "29:x\\n");
	free(s);
	s = str_escape("a\"b\\c\x01\xff", 64);
	ASSERT_STR_EQ(s, "a\\\"b\\\\c\\x01\\xff");
	free(s);
	s = str_escape("abcdef", 3);
	ASSERT_STR_EQ(s, "abc...");
	free(s);
}

/* What a hostile sysfs value, EDID or comm uses on a terminal: ESC [2J,
 * BEL, CR, DEL, the byte 0x9b and U+009B (both CSI), invalid UTF-8. */
static void test_escape_terminal(void)
{
	static const char evil[] = "\x1b[2J\a\r\x7f\x9b\xc2\x9b\xc2\xa0\xff\"\\";
	char *s;

	s = str_escape_text(evil);
	ASSERT_STR_EQ(s, "\\x1b[2J\\x07\\x0d\\x7f\\x9b\\xc2\\x9b\xc2\xa0\\xff\"\\");
	free(s);
	s = str_escape(evil, 64);
	ASSERT_STR_EQ(s, "\\x1b[2J\\x07\\x0d\\x7f\\x9b\\xc2\\x9b\xc2\xa0\\xff\\\"\\\\");
	free(s);
	/* JSON: C0 stays for the writer to escape; DEL and C1 it would not. */
	s = str_utf8_sanitize(evil);
	ASSERT_STR_EQ(s, "\x1b[2J\a\r\\x7f\\x9b\\xc2\\x9b\xc2\xa0\\xff\"\\");
	free(s);
	s = str_escape_flags("a\nb", SIZE_MAX, 0);
	ASSERT_STR_EQ(s, "a\\nb");
	free(s);
}

static void test_utf8(void)
{
	char *s;

	ASSERT_INT_EQ(utf8_seq_len((const unsigned char *)"a"), 1);
	ASSERT_INT_EQ(utf8_seq_len((const unsigned char *)"\xc3\xa9"), 2);
	ASSERT_INT_EQ(utf8_seq_len((const unsigned char *)"\xe2\x82\xac"), 3);
	ASSERT_INT_EQ(utf8_seq_len((const unsigned char *)"\xf0\x9f\x98\x80"), 4);
	ASSERT_INT_EQ(utf8_seq_len((const unsigned char *)"\xc0\xaf"),
		      0); /* overlong '/' */
	ASSERT_INT_EQ(utf8_seq_len((const unsigned char *)"\xe0\x80\xaf"), 0);
	ASSERT_INT_EQ(utf8_seq_len((const unsigned char *)"\xed\xa0\x80"),
		      0); /* surrogate */
	ASSERT_INT_EQ(utf8_seq_len((const unsigned char *)"\xf4\x90\x80\x80"), 0);
	ASSERT_INT_EQ(utf8_seq_len((const unsigned char *)"\xc3"), 0); /* cut short */
	ASSERT_INT_EQ(utf8_seq_len((const unsigned char *)"\xff"), 0);

	s = str_utf8_sanitize("caf\xc3\xa9 \xff\xfe\x01x");
	ASSERT_STR_EQ(s, "caf\xc3\xa9 \\xff\\xfe\x01x");
	free(s);
	s = str_utf8_sanitize("");
	ASSERT_STR_EQ(s, "");
	free(s);
	s = str_escape("caf\xc3\xa9\xc3", 64);
	ASSERT_STR_EQ(s, "caf\xc3\xa9\\xc3");
	free(s);
}

static void test_decimal(void)
{
	unsigned long long v = 7;
	const char *end = NULL;
	double d = 0;

	ASSERT_INT_EQ(parse_decimal("0", 10, &v), 0);
	ASSERT_INT_EQ(v, 0);
	ASSERT_INT_EQ(parse_decimal("18446744073709551615", UINT64_MAX, &v), 0);
	ASSERT_TRUE(v == UINT64_MAX);
	ASSERT_INT_EQ(parse_decimal("18446744073709551616", UINT64_MAX, &v), -ERANGE);
	ASSERT_INT_EQ(parse_decimal("11", 10, &v), -ERANGE);
	ASSERT_INT_EQ(parse_decimal("10", 10, &v), 0);
	ASSERT_INT_EQ(v, 10);
	ASSERT_INT_EQ(parse_decimal("5", 4, &v), -ERANGE);
	ASSERT_INT_EQ(parse_decimal("", 10, &v), -EINVAL);
	ASSERT_INT_EQ(parse_decimal(NULL, 10, &v), -EINVAL);
	ASSERT_INT_EQ(parse_decimal("+1", 10, &v), -EINVAL);
	ASSERT_INT_EQ(parse_decimal(" 1", 10, &v), -EINVAL);
	ASSERT_INT_EQ(parse_decimal("1 ", 10, &v), -EINVAL);
	ASSERT_INT_EQ(parse_decimal("01", 10, &v), -EINVAL);
	ASSERT_INT_EQ(parse_decimal("1\n", 10, &v), -EINVAL);
	ASSERT_INT_EQ(parse_decimal_prefix("32K\n", 100, &v, &end), 0);
	ASSERT_INT_EQ(v, 32);
	ASSERT_STR_EQ(end, "K\n");
	ASSERT_INT_EQ(parse_decimal_prefix("x", 100, &v, &end), -EINVAL);

	ASSERT_INT_EQ(parse_seconds("0", true, &d), 0);
	ASSERT_INT_EQ(parse_seconds("0", false, &d), -EINVAL);
	ASSERT_INT_EQ(parse_seconds("0.5", false, &d), 0);
	ASSERT_TRUE(d == 0.5);
	ASSERT_INT_EQ(parse_seconds("3600", false, &d), 0);
	ASSERT_INT_EQ(parse_seconds("3600.1", false, &d), -EINVAL);
	ASSERT_INT_EQ(parse_seconds("-1", true, &d), -EINVAL);
	ASSERT_INT_EQ(parse_seconds("nan", true, &d), -EINVAL);
	ASSERT_INT_EQ(parse_seconds("inf", true, &d), -EINVAL);
	ASSERT_INT_EQ(parse_seconds("1s", true, &d), -EINVAL);
	ASSERT_INT_EQ(parse_seconds("", true, &d), -EINVAL);
}

/* log_errno returns its argument, names its cause through %m, and leaves
 * errno as it found it. */
static const char *ctype_now(void)
{
	static char name[64];

	str_copy(name, sizeof(name), setlocale(LC_CTYPE, NULL));
	return name;
}

/* The locale waits for the first message printed, and comes before its
 * arguments are evaluated (log.h).  First of all tests: nothing may have
 * loaded it. */
static void test_locale_deferred(void)
{
	char buf[256] = "";
	FILE *saved = stderr, *mem = fmemopen(buf, sizeof(buf) - 1, "w");

	ASSERT_TRUE(mem != NULL);
	if (!mem)
		return;
	setenv("LC_ALL", "C.UTF-8", 1);
	ASSERT_STR_EQ(ctype_now(), "C");
	log_max_priority = LOG_ERR;
	INF("filtered out: %s", ctype_now());
	ASSERT_STR_EQ(ctype_now(), "C");
	log_max_priority = LOG_INFO;
	stderr = mem;
	/* loading it looks for files that are not there: errno stays */
	errno = EROFS;
	log_errno(-errno, "printed in %s: %m", ctype_now());
	fclose(mem);
	stderr = saved;
	ASSERT_STR_EQ(buf, "fbclassctl: printed in C.UTF-8: Read-only file system\n");
}

static void test_log_errno(void)
{
	char buf[256] = "";
	FILE *saved = stderr, *mem = fmemopen(buf, sizeof(buf) - 1, "w");

	ASSERT_TRUE(mem != NULL);
	if (!mem)
		return;
	stderr = mem;
	errno = EPERM;
	ASSERT_INT_EQ(log_errno(-ENOENT, "x: %m"), -ENOENT);
	ASSERT_INT_EQ(errno, EPERM);
	errno = EBUSY;
	ERR("y: %m");
	ASSERT_INT_EQ(errno, EBUSY);
	fclose(mem);
	stderr = saved;
	ASSERT_STR_EQ(buf, "fbclassctl: x: No such file or directory\n"
			   "fbclassctl: y: Device or resource busy\n");
}

/* str_concat: snprintf's result for the same strings, cut or not */
static void test_concat(void)
{
	char buf[8];

	ASSERT_INT_EQ(str_concat(buf, sizeof(buf), "ab", "/", "cd", (const char *)NULL),
		      5);
	ASSERT_STR_EQ(buf, "ab/cd");
	ASSERT_INT_EQ(str_concat(buf, sizeof(buf), "abcd", "/", "efgh",
				 (const char *)NULL),
		      9);
	ASSERT_STR_EQ(buf, "abcd/ef");
	ASSERT_INT_EQ(str_concat(buf, sizeof(buf), "abcdefgh", "ij", (const char *)NULL),
		      10);
	ASSERT_STR_EQ(buf, "abcdefg");
	ASSERT_INT_EQ(str_copy(buf, sizeof(buf), ""), 0);
	ASSERT_STR_EQ(buf, "");
	ASSERT_INT_EQ(str_copy(buf, 1, "x"), 1);
	ASSERT_STR_EQ(buf, "");
	ASSERT_INT_EQ(str_copy(buf, sizeof(buf), "1234567"), 7);
	ASSERT_STR_EQ(buf, "1234567");
}

static void test_concat_dup(void)
{
	char *s = str_concat_dup("/sys/", "devices", "", "/x", (const char *)NULL);

	ASSERT_STR_EQ(s, "/sys/devices/x");
	free(s);
	s = str_concat_dup("", (const char *)NULL);
	ASSERT_STR_EQ(s, "");
	free(s);
}

/* The FNV-1a test vectors of the hash's authors (32 bits). */
static void test_hash(void)
{
	ASSERT_INT_EQ(str_hash(""), 0x811c9dc5u);
	ASSERT_INT_EQ(str_hash("a"), 0xe40c292cu);
	ASSERT_INT_EQ(str_hash("foobar"), 0xbf9cf968u);
}

int main(void)
{
	test_locale_deferred();
	test_concat();
	test_concat_dup();
	test_hash();
	test_decimal();
	test_log_errno();
	test_uint();
	test_pair();
	test_mode();
	test_escape();
	test_escape_terminal();
	test_utf8();
	return test_finish("test-parsers");
}
