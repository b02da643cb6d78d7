/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fb.modes (fbset's mode database) and "WxH[-depth][@refresh]". */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "fbinfo_ioctl.h"
#include "fbmodes.h"
#include "macro.h"
#include "strutil.h"

/* An fb.modes file larger than this is not one. */
#define FBMODES_MAX_SIZE (4u << 20)

enum tok_kind { TOK_END, TOK_WORD, TOK_NUMBER, TOK_COLORS, TOK_STRING };

struct lexer {
	const char *p;
	const char *file;
	unsigned line;
	char *err;
	size_t errlen;
	/* the current token */
	enum tok_kind kind;
	const char *start;
	size_t len;
	unsigned tok_line;
	uint32_t number;
};

_printf_format_(2, 3) static int lex_error(struct lexer *lx, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(lx->err, lx->errlen, "%s:%u: %s", lx->file, lx->tok_line, msg);
	return -EINVAL;
}

/* The current token, escaped, for a message (into buf). */
static const char *tok_text(const struct lexer *lx, char *buf, size_t len)
{
	char raw[64];
	_cleanup_free_ char *esc = NULL;

	if (lx->kind == TOK_END)
		return "end of file";
	snprintf(raw, sizeof(raw), "%.*s", (int)MIN(lx->len, sizeof(raw) - 1), lx->start);
	esc = str_escape(raw, 48);
	snprintf(buf, len, "'%s'", esc ? esc : "?");
	return buf;
}

static void skip_blank(struct lexer *lx)
{
	for (;;) {
		if (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\r') {
			lx->p++;
		} else if (*lx->p == '\n') {
			lx->line++;
			lx->p++;
		} else if (*lx->p == '#') {
			while (*lx->p && *lx->p != '\n')
				lx->p++;
		} else {
			return;
		}
	}
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int lex_number(struct lexer *lx)
{
	unsigned long long v;
	char buf[32];

	if (lx->len >= sizeof(buf))
		return lex_error(lx, "number %.20s... out of range", lx->start);
	memcpy(buf, lx->start, lx->len);
	buf[lx->len] = '\0';
	/* fbset reads "010" as octal 8; say so rather than guess. */
	if (parse_decimal(buf, UINT32_MAX, &v) < 0)
		return lex_error(lx, "number '%s' is not a decimal below 2^32", buf);
	lx->number = (uint32_t)v;
	return 0;
}

/* The next token (fbset's modes.l: keyword, number, colors, "string"). */
static int lex_next(struct lexer *lx)
{
	const char *q;
	char buf[80];

	skip_blank(lx);
	lx->start = lx->p;
	lx->tok_line = lx->line;
	q = lx->p;
	if (!*q) {
		lx->kind = TOK_END;
		lx->len = 0;
		return 0;
	}
	if (is_alpha(*q)) {
		while (is_alpha(*q) || is_digit(*q))
			q++;
		lx->kind = TOK_WORD;
	} else if (is_digit(*q) || *q == '/' || *q == ',') {
		bool colors = false;

		while (is_digit(*q) || *q == '/' || *q == ',')
			colors |= !is_digit(*q++);
		lx->kind = colors ? TOK_COLORS : TOK_NUMBER;
	} else if (*q == '"') {
		q++;
		while (*q && *q != '"' && *q != '\n')
			q++;
		if (*q != '"')
			return lex_error(lx, "unterminated mode name");
		q++;
		lx->kind = TOK_STRING;
	} else {
		lx->len = 1;
		lx->kind = TOK_WORD;
		return lex_error(lx, "invalid character %s",
				 tok_text(lx, buf, sizeof(buf)));
	}
	lx->len = (size_t)(q - lx->start);
	lx->p = q;
	return lx->kind == TOK_NUMBER ? lex_number(lx) : 0;
}

static bool tok_is(const struct lexer *lx, const char *word)
{
	return lx->kind == TOK_WORD && strlen(word) == lx->len &&
	       strncasecmp(lx->start, word, lx->len) == 0;
}

/* n numbers after keyword into out[]. */
static int parse_numbers(struct lexer *lx, const char *keyword, uint32_t *out[], size_t n)
{
	char buf[80];

	for (size_t i = 0; i < n; i++) {
		int r = lex_next(lx);

		if (r < 0)
			return r;
		if (lx->kind != TOK_NUMBER)
			return lex_error(lx,
					 "%s takes %zu numbers, found %s as number %zu",
					 keyword, n, tok_text(lx, buf, sizeof(buf)),
					 i + 1);
		*out[i] = lx->number;
	}
	return 0;
}

static int parse_geometry(struct lexer *lx, struct fb_var_screeninfo *v)
{
	uint32_t *f[] = { &v->xres, &v->yres, &v->xres_virtual, &v->yres_virtual,
			  &v->bits_per_pixel };

	return parse_numbers(lx, "geometry", f, ARRAY_SIZE(f));
}

static int parse_timings(struct lexer *lx, struct fb_var_screeninfo *v)
{
	uint32_t *f[] = { &v->pixclock,	    &v->left_margin,  &v->right_margin,
			  &v->upper_margin, &v->lower_margin, &v->hsync_len,
			  &v->vsync_len };

	return parse_numbers(lx, "timings", f, ARRAY_SIZE(f));
}

/* The flags that take high|low (polarity) or true|false (boolean). */
static const struct mode_flag {
	const char *keyword;
	bool polarity;
	uint32_t sync; /* a var.sync bit, or 0 */
} mode_flags[] = {
	{ "hsync", true, FB_SYNC_HOR_HIGH_ACT },
	{ "vsync", true, FB_SYNC_VERT_HIGH_ACT },
	{ "csync", true, FB_SYNC_COMP_HIGH_ACT },
	{ "gsync", true, FB_SYNC_ON_GREEN },
	{ "extsync", false, FB_SYNC_EXT },
	{ "bcast", false, FB_SYNC_BROADCAST },
	{ "laced", false, 0 },
	{ "double", false, 0 },
	{ "accel", false, 0 },
	{ "grayscale", false, 0 },
};

static void apply_flag(const struct mode_flag *f, bool on, struct fb_var_screeninfo *v)
{
	if (f->sync) {
		v->sync = on ? v->sync | f->sync : v->sync & ~f->sync;
	} else if (strcmp(f->keyword, "laced") == 0 || strcmp(f->keyword, "double") == 0) {
		uint32_t scan =
			f->keyword[0] == 'l' ? FB_VMODE_INTERLACED : FB_VMODE_DOUBLE;

		/* fbset: laced wins over double */
		if (on && (v->vmode & FB_VMODE_MASK) != FB_VMODE_INTERLACED)
			v->vmode = scan;
		else if (!on && (v->vmode & FB_VMODE_MASK) == scan)
			v->vmode = FB_VMODE_NONINTERLACED;
	} else if (strcmp(f->keyword, "accel") == 0) {
		v->accel_flags = on ? FB_ACCELF_TEXT : 0;
	} else {
		v->grayscale = on;
	}
}

static int parse_flag(struct lexer *lx, const struct mode_flag *f,
		      struct fb_var_screeninfo *v)
{
	char buf[80];
	int r = lex_next(lx);

	if (r < 0)
		return r;
	if (f->polarity && (tok_is(lx, "high") || tok_is(lx, "low"))) {
		apply_flag(f, tok_is(lx, "high"), v);
		return 0;
	}
	if (!f->polarity && (tok_is(lx, "true") || tok_is(lx, "false"))) {
		apply_flag(f, tok_is(lx, "true"), v);
		return 0;
	}
	return lex_error(lx, "%s takes %s, not %s", f->keyword,
			 f->polarity ? "high or low" : "true or false",
			 tok_text(lx, buf, sizeof(buf)));
}

/* One option line inside a mode, its keyword the current token. */
static int parse_option(struct lexer *lx, struct fb_var_screeninfo *v)
{
	char buf[80], colors[128];
	int r;

	for (size_t i = 0; i < ARRAY_SIZE(mode_flags); i++)
		if (tok_is(lx, mode_flags[i].keyword))
			return parse_flag(lx, &mode_flags[i], v);
	if (tok_is(lx, "nonstd")) {
		uint32_t *f[] = { &v->nonstd };

		return parse_numbers(lx, "nonstd", f, 1);
	}
	if (!tok_is(lx, "rgba"))
		return lex_error(lx, "unknown keyword %s in a mode",
				 tok_text(lx, buf, sizeof(buf)));
	r = lex_next(lx);
	if (r < 0)
		return r;
	if ((lx->kind != TOK_COLORS && lx->kind != TOK_NUMBER) ||
	    lx->len >= sizeof(colors))
		return lex_error(lx, "rgba takes R/O,G/O,B/O,T/O, not %s",
				 tok_text(lx, buf, sizeof(buf)));
	snprintf(colors, sizeof(colors), "%.*s", (int)lx->len, lx->start);
	if (fbmodes_parse_rgba(colors, v) < 0)
		return lex_error(lx, "bad rgba '%s' (R/O,G/O,B/O,T/O or R,G,B,T)", colors);
	return 0;
}

static int expect_word(struct lexer *lx, const char *word, const char *what)
{
	char buf[80];
	int r = lex_next(lx);

	if (r < 0)
		return r;
	if (!tok_is(lx, word))
		return lex_error(lx, "expected %s, found %s", what,
				 tok_text(lx, buf, sizeof(buf)));
	return 0;
}

static int mode_check(struct lexer *lx, const struct fbmodes_db *db, const char *name,
		      const struct fb_var_screeninfo *v)
{
	uint64_t htotal =
		(uint64_t)v->left_margin + v->xres + v->right_margin + v->hsync_len;
	uint64_t vtotal =
		(uint64_t)v->upper_margin + v->yres + v->lower_margin + v->vsync_len;
	_cleanup_free_ char *esc = str_escape(name, 64);

	if (fbmodes_find(db, name))
		return lex_error(lx, "duplicate mode name \"%s\"", esc ? esc : "?");
	if (!htotal || !vtotal)
		return lex_error(lx, "bad mode \"%s\": its %s total is 0",
				 esc ? esc : "?", htotal ? "vertical" : "horizontal");
	return 0;
}

static int db_add(struct fbmodes_db *db, const char *name, size_t len, unsigned line,
		  const struct fb_var_screeninfo *v)
{
	struct fbmodes_mode *m = realloc(db->modes, (db->n + 1) * sizeof(*m));

	if (!m)
		return -ENOMEM;
	db->modes = m;
	m[db->n].name = strndup(name, len);
	if (!m[db->n].name)
		return -ENOMEM;
	m[db->n].line = line;
	m[db->n].var = *v;
	db->n++;
	return 0;
}

/* mode "NAME" geometry ... timings ... options endmode; "mode" read. */
static int parse_mode(struct lexer *lx, struct fbmodes_db *db)
{
	struct fb_var_screeninfo v = { .accel_flags = FB_ACCELF_TEXT };
	unsigned line = lx->tok_line;
	char buf[80], name[256];
	int r;

	r = lex_next(lx);
	if (r < 0)
		return r;
	if (lx->kind != TOK_STRING || lx->len - 2 >= sizeof(name))
		return lex_error(lx, "expected a mode name in double quotes, found %s",
				 tok_text(lx, buf, sizeof(buf)));
	snprintf(name, sizeof(name), "%.*s", (int)(lx->len - 2), lx->start + 1);
	if ((r = expect_word(lx, "geometry", "geometry after the mode name")) < 0 ||
	    (r = parse_geometry(lx, &v)) < 0 ||
	    (r = expect_word(lx, "timings", "timings after geometry")) < 0 ||
	    (r = parse_timings(lx, &v)) < 0)
		return r;
	for (;;) {
		r = lex_next(lx);
		if (r < 0)
			return r;
		if (tok_is(lx, "endmode"))
			break;
		if (lx->kind == TOK_END)
			return lex_error(lx, "mode \"%s\" of line %u has no endmode",
					 name, line);
		r = parse_option(lx, &v);
		if (r < 0)
			return r;
	}
	r = mode_check(lx, db, name, &v);
	return r < 0 ? r : db_add(db, name, strlen(name), line, &v);
}

int fbmodes_parse(const char *text, const char *file, struct fbmodes_db *db, char *err,
		  size_t errlen)
{
	struct lexer lx = {
		.p = text, .file = file, .line = 1, .err = err, .errlen = errlen
	};
	char buf[80];
	int r;

	*db = (struct fbmodes_db){};
	if (errlen)
		err[0] = '\0';
	for (;;) {
		r = lex_next(&lx);
		if (r < 0 || lx.kind == TOK_END)
			break;
		if (!tok_is(&lx, "mode")) {
			r = lex_error(&lx, "expected mode, found %s",
				      tok_text(&lx, buf, sizeof(buf)));
			break;
		}
		r = parse_mode(&lx, db);
		if (r < 0)
			break;
	}
	if (r < 0) {
		if (r == -ENOMEM)
			snprintf(err, errlen, "%s: out of memory", file);
		fbmodes_db_free(db);
	}
	return r;
}

int fbmodes_load(const char *path, struct fbmodes_db *db, char *err, size_t errlen)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	ssize_t n;
	int fd, r = 0;

	*db = (struct fbmodes_db){};
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	text = malloc(FBMODES_MAX_SIZE + 1);
	if (!text)
		r = -ENOMEM;
	while (r == 0 && (n = read(fd, text + len, FBMODES_MAX_SIZE + 1 - len)) != 0) {
		if (n < 0)
			r = errno == EINTR ? 0 : -errno;
		else
			len += (size_t)n;
		if (len > FBMODES_MAX_SIZE)
			r = -EFBIG;
	}
	close(fd);
	if (r < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	text[len] = '\0';
	if (strlen(text) != len) {
		snprintf(err, errlen, "%s: a NUL byte: not a text file", path);
		return -EINVAL;
	}
	return fbmodes_parse(text, path, db, err, errlen);
}

void fbmodes_db_free(struct fbmodes_db *db)
{
	for (size_t i = 0; i < db->n; i++)
		free(db->modes[i].name);
	free(db->modes);
	*db = (struct fbmodes_db){};
}

const struct fbmodes_mode *fbmodes_find(const struct fbmodes_db *db, const char *name)
{
	for (size_t i = 0; i < db->n; i++)
		if (strcmp(db->modes[i].name, name) == 0)
			return &db->modes[i];
	return NULL;
}

static int spec_number(const char **p, uint32_t max, uint32_t *out)
{
	unsigned long long v;
	int r = parse_decimal_prefix(*p, max, &v, p);

	if (r < 0)
		return r;
	*out = (uint32_t)v;
	return 0;
}

int fbmodes_parse_spec(const char *s, struct fbmodes_spec *spec)
{
	const char *p = s;

	*spec = (struct fbmodes_spec){};
	if (spec_number(&p, 65535, &spec->xres) < 0 || *p++ != 'x' ||
	    spec_number(&p, 65535, &spec->yres) < 0)
		return -EINVAL;
	if (*p == '-' && (p++, spec_number(&p, 32, &spec->depth) < 0))
		return -EINVAL;
	if (*p == '@' && (p++, spec_number(&p, 1000, &spec->refresh) < 0))
		return -EINVAL;
	if (*p || !spec->xres || !spec->yres || (spec->depth == 0 && strchr(s, '-')) ||
	    (spec->refresh == 0 && strchr(s, '@')))
		return -EINVAL;
	return 0;
}

const struct fbmodes_mode *fbmodes_match_spec(const struct fbmodes_db *db,
					      const struct fbmodes_spec *spec)
{
	const struct fbmodes_mode *best = NULL;
	uint64_t best_score = UINT64_MAX;

	for (size_t i = 0; i < db->n; i++) {
		const struct fb_var_screeninfo *v = &db->modes[i].var;
		uint64_t mhz = fb_refresh_mhz(v), want = (uint64_t)spec->refresh * 1000;
		uint64_t score = 0;

		if (v->xres != spec->xres || v->yres != spec->yres)
			continue;
		/* the refresh counts first, then a mode of the depth asked */
		if (spec->refresh)
			score = (mhz > want ? mhz - want : want - mhz) * 2;
		if (spec->depth && v->bits_per_pixel != spec->depth)
			score++;
		if (score < best_score) {
			best = &db->modes[i];
			best_score = score;
		}
	}
	return best;
}

/* One colour of rgba: LENGTH[/OFFSET], then ',' or the end. */
static int rgba_one(const char **p, struct fb_bitfield *f)
{
	uint32_t len = 0, off = 0;

	if (!**p) /* fbset: missing trailing colours are 0 */
		goto done;
	if (spec_number(p, 32, &len) < 0)
		return -EINVAL;
	if (**p == '/' && ((*p)++, spec_number(p, 31, &off) < 0))
		return -EINVAL;
	if (**p == ',')
		(*p)++;
	else if (**p)
		return -EINVAL;
done:
	f->length = len;
	f->offset = off;
	f->msb_right = 0;
	return 0;
}

int fbmodes_parse_rgba(const char *s, struct fb_var_screeninfo *var)
{
	struct fb_bitfield f[4];
	const char *p = s;

	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		if (rgba_one(&p, &f[i]) < 0)
			return -EINVAL;
	if (*p || !*s)
		return -EINVAL;
	var->red = f[0];
	var->green = f[1];
	var->blue = f[2];
	var->transp = f[3];
	return 0;
}

/* The vertical sync width CVT gives each aspect ratio. */
static uint32_t cvt_vsync(uint32_t w, uint32_t h)
{
	if (w * 3 == h * 4)
		return 4;
	if (w * 9 == h * 16)
		return 5;
	if (w * 10 == h * 16)
		return 6;
	if (w * 4 == h * 5 || w * 9 == h * 15)
		return 7;
	return 10;
}

int fbmodes_cvt(uint32_t xres, uint32_t yres, uint32_t hz, uint32_t bpp,
		struct fb_var_screeninfo *var)
{
	/* CVT 1.1: C' = 30 %, M' = 300 %/kHz, 550 us of sync and back porch,
	 * a front porch of 3 lines, a cell of 8 pixels, 8 % of hsync */
	const double min_vsync_bp = 550.0, cell = 8;
	uint32_t w = xres / 8 * 8, vsync = cvt_vsync(xres, yres), vsync_bp, hblank, total,
		 hsync;
	double hperiod, duty, clock_mhz;

	if (!w || !yres || !hz || xres > 16384 || yres > 16384 || hz > 1000)
		return -EINVAL;
	hperiod = (1e6 / hz - min_vsync_bp) / (yres + 3);
	if (hperiod <= 0)
		return -EINVAL;
	vsync_bp = (uint32_t)(min_vsync_bp / hperiod) + 1;
	if (vsync_bp < vsync + 6)
		vsync_bp = vsync + 6;
	duty = 30 - 300 * hperiod / 1000;
	if (duty < 20)
		duty = 20;
	hblank = (uint32_t)(w * duty / (100 - duty) / (2 * cell)) * 2 * (uint32_t)cell;
	total = w + hblank;
	clock_mhz = 0.25 * (uint32_t)(total / hperiod / 0.25);
	hsync = (uint32_t)(0.08 * total / cell) * (uint32_t)cell;
	*var = (struct fb_var_screeninfo){
		.xres = w,
		.yres = yres,
		.xres_virtual = w,
		.yres_virtual = yres,
		.bits_per_pixel = bpp,
		.pixclock = (uint32_t)(1e6 / clock_mhz + 0.5),
		.left_margin = hblank / 2,
		.right_margin = hblank - hblank / 2 - hsync,
		.upper_margin = vsync_bp - vsync,
		.lower_margin = 3,
		.hsync_len = hsync,
		.vsync_len = vsync,
		.sync = FB_SYNC_VERT_HIGH_ACT, /* -hsync +vsync */
		.accel_flags = FB_ACCELF_TEXT,
	};
	return 0;
}
