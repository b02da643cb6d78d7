/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "log.h"
#include "macro.h"
#include "strutil.h"

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when it is not
 * one: overlong forms, surrogates and code points past U+10FFFF are not. */
size_t utf8_seq_len(const unsigned char *s)
{
	unsigned c = s[0], cp, len;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07;
	else
		return 0;
	for (unsigned i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* A C1 control (U+0080..U+009F) as UTF-8: 0xc2 0x80..0x9f.  A terminal
 * may take U+009B as CSI, as it takes the byte 0x9b. */
static bool is_c1_utf8(const unsigned char *s, size_t len)
{
	return len == 2 && s[0] == 0xc2 && s[1] <= 0x9f;
}

/* The one escaper.  Returns the end of what it wrote into o (room for
 * 4 bytes per input byte). */
static char *escape_into(char *o, const char *s, size_t n, unsigned flags)
{
	for (size_t i = 0; i < n; i++) {
		const unsigned char *p = (const unsigned char *)s + i;
		size_t len = *p < 0x80 ? 1 : utf8_seq_len(p);

		if (len > 1 && i + len <= n && !is_c1_utf8(p, len)) {
			memcpy(o, p, len);
			o += len;
			i += len - 1;
		} else if (*p < 0x20 && (flags & STR_ESCAPE_KEEP_C0)) {
			*o++ = (char)*p;
		} else if (*p == '\n' && (flags & STR_ESCAPE_KEEP_NL)) {
			*o++ = (char)*p;
		} else if (*p == '\n' || *p == '\t') {
			*o++ = '\\';
			*o++ = *p == '\n' ? 'n' : 't';
		} else if ((*p == '\\' || *p == '"') && (flags & STR_ESCAPE_QUOTES)) {
			*o++ = '\\';
			*o++ = (char)*p;
		} else if (*p < 0x20 || *p >= 0x7f) {
			o += sprintf(o, "\\x%02x", *p);
		} else {
			*o++ = (char)*p;
		}
	}
	return o;
}

char *str_escape_flags(const char *s, size_t max, unsigned flags)
{
	size_t n = strnlen(s, max == SIZE_MAX ? max : max + 1);
	bool cut = n > max;
	char *out, *o;

	if (cut)
		n = max;
	out = malloc(n * 4 + 4);
	if (!out)
		return NULL;
	o = escape_into(out, s, n, flags);
	if (cut)
		o = stpcpy(o, "...");
	*o = '\0';
	return out;
}

char *str_utf8_sanitize(const char *s)
{
	return str_escape_flags(s, SIZE_MAX, STR_ESCAPE_KEEP_C0);
}

char *str_escape_text(const char *s)
{
	return str_escape_flags(s, SIZE_MAX, 0);
}

int fputs_escaped(const char *s, FILE *f)
{
	char *esc = str_escape_text(s);
	int r;

	if (!esc)
		return -ENOMEM;
	r = fputs(esc, f) == EOF ? -EIO : 0;
	free(esc);
	return r;
}

/* Columns that UTF-8 text takes: a column a character (escaped text has
 * no control, and the tool's text no wide character). */
static size_t utf8_columns(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

/* Where the line from p ends: at the last space that lets it fit in
 * avail columns, else (one long word) at the first space, else the end. */
static const char *wrap_at(const char *p, size_t avail)
{
	const char *brk = NULL;

	for (const char *q = strchr(p, ' '); q; q = strchr(q + 1, ' ')) {
		if (utf8_columns(p, (size_t)(q - p)) > avail)
			return brk ? brk : q;
		brk = q;
	}
	if (brk && utf8_columns(p, strlen(p)) > avail)
		return brk; /* the last word does not fit */
	return p + strlen(p); /* the rest fits, or is one word */
}

int fputs_escaped_wrapped(const char *s, size_t start, size_t indent, size_t width,
			  FILE *f)
{
	char *esc = str_escape_text(s);
	const char *p = esc;
	size_t at = start;

	if (!esc)
		return -ENOMEM;
	while (width >= indent + 20 && width > at &&
	       utf8_columns(p, strlen(p)) > width - at) {
		const char *brk = wrap_at(p, width - at);

		if (!*brk)
			break;
		fprintf(f, "%.*s\n%*s", (int)(brk - p), p, (int)indent, "");
		p = brk + strspn(brk, " ");
		at = indent;
	}
	fputs(p, f);
	free(esc);
	return ferror(f) ? -EIO : 0;
}

size_t terminal_width(int fd)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	long n;

	if (fd < 0 || !isatty(fd))
		return 0;
	if (env && (n = strtol(env, NULL, 10)) > 0)
		return (size_t)n;
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

int fprint_line_escaped(FILE *f, const char *fmt, ...)
{
	char *raw;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&raw, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	r = fputs_escaped(raw, f);
	free(raw);
	if (r == 0 && fputc('\n', f) == EOF)
		r = -EIO;
	return r;
}

char *str_escape(const char *s, size_t max)
{
	return str_escape_flags(s, max, STR_ESCAPE_QUOTES);
}

size_t str_concat(char *buf, size_t size, const char *s, ...)
{
	size_t total = 0;
	va_list ap;

	va_start(ap, s);
	for (; s; s = va_arg(ap, const char *)) {
		size_t len = strlen(s);

		if (total < size - 1) {
			size_t room = size - 1 - total;

			memcpy(buf + total, s, len < room ? len : room);
		}
		total += len;
	}
	va_end(ap);
	buf[total < size - 1 ? total : size - 1] = '\0';
	return total;
}

char *str_concat_dup(const char *s, ...)
{
	size_t total = 0;
	char *buf, *p;
	va_list ap;

	va_start(ap, s);
	for (const char *t = s; t; t = va_arg(ap, const char *))
		total += strlen(t);
	va_end(ap);
	buf = malloc(total + 1);
	if (!buf)
		return NULL;
	p = buf;
	va_start(ap, s);
	for (const char *t = s; t; t = va_arg(ap, const char *)) {
		size_t len = strlen(t);

		memcpy(p, t, len);
		p += len;
	}
	va_end(ap);
	*p = '\0';
	return buf;
}

uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

char *strdup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

char *readlink_basename(const char *path)
{
	char buf[PATH_MAX];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	const char *base;

	if (n < 0)
		return NULL;
	buf[n] = '\0';
	base = strrchr(buf, '/');
	return strdup(base ? base + 1 : buf);
}

int parse_decimal_prefix(const char *s, unsigned long long max, unsigned long long *out,
			 const char **end)
{
	unsigned long long v = 0;
	const char *p = s;

	if (!s || *p < '0' || *p > '9')
		return -EINVAL;
	if (p[0] == '0' && p[1] >= '0' && p[1] <= '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned digit = (unsigned)(*p - '0');

		if (max < digit || v > (max - digit) / 10)
			return -ERANGE;
		v = v * 10 + digit;
	}
	*out = v;
	if (end)
		*end = p;
	return 0;
}

int parse_decimal(const char *s, unsigned long long max, unsigned long long *out)
{
	unsigned long long v;
	const char *end;
	int r = parse_decimal_prefix(s, max, &v, &end);

	if (r < 0)
		return r;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_seconds(const char *s, bool zero_ok, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < 0 || v > 3600 ||
	    (!zero_ok && !(v > 0)))
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_seconds_option(const char *opt, const char *s, bool zero_ok, double *out)
{
	if (parse_seconds(s, zero_ok, out) == 0)
		return 0;
	ERR("%s: \"%s\" is not a number of seconds %s", opt, s,
	    zero_ok ? "from 0 to 3600" : "above 0, at most 3600");
	return -EINVAL;
}

char *size_to_human(uint64_t bytes, char *buf, size_t len)
{
	static const char suffix[] = "BKMGTPE";
	uint64_t whole = bytes, rem = 0;
	size_t i = 0;

	while (whole >= 1024 && i + 1 < sizeof(suffix) - 1) {
		rem = whole % 1024;
		whole /= 1024;
		i++;
	}
	if (i == 0) {
		snprintf(buf, len, "%" PRIu64 "B", bytes);
		return buf;
	}
	/* One decimal, rounded, dropped when it is zero ("4M", "3.9M"). */
	uint64_t dec = (rem * 10 + 512) / 1024;
	if (dec == 10) {
		whole++;
		dec = 0;
	}
	if (dec)
		snprintf(buf, len, "%" PRIu64 ".%" PRIu64 "%c", whole, dec, suffix[i]);
	else
		snprintf(buf, len, "%" PRIu64 "%c", whole, suffix[i]);
	return buf;
}

int strv_push(char ***v, size_t *n, size_t *cap, char *owned)
{
	if (!owned)
		return -ENOMEM;
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		char **nv = realloc(*v, ncap * sizeof(*nv));

		if (!nv) {
			free(owned);
			return -ENOMEM;
		}
		*v = nv;
		*cap = ncap;
	}
	(*v)[(*n)++] = owned;
	return 0;
}

void strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

bool strv_contains(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

char *fb_strip_newlines_dup(const char *v)
{
	size_t n = strlen(v);

	while (n && (v[n - 1] == '\n' || v[n - 1] == '\r'))
		n--;
	return strndup(v, n);
}

int parse_fd(const char *s, int *fd)
{
	unsigned long long v;

	if (parse_decimal(s, INT_MAX, &v) < 0)
		return -EINVAL;
	*fd = (int)v;
	return 0;
}

char *file_read_text(const char *path, size_t max)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	_cleanup_free_ char *buf = NULL;
	size_t n = 0, cap = 0;

	if (fd < 0)
		return NULL;
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			char *nb;

			cap = cap ? cap * 2 : 4096;
			if (cap > max + 1) {
				errno = EFBIG;
				return NULL;
			}
			nb = realloc(buf, cap);
			if (!nb)
				return NULL;
			buf = nb;
		}
		r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return NULL;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		errno = EINVAL;
		return NULL;
	}
	return TAKE_PTR(buf);
}
