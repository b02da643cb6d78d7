/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* /etc/fbclassctl.conf parser: see fbclassctl.conf(5). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "account.h"
#include "console.h"
#include "fbmodes.h"
#include "log.h"
#include "macro.h"
#include "nodes.h"
#include "rules.h"
#include "strutil.h"

/* A rules file larger than this is not a rules file. */
#define RULES_FILE_MAX (1024 * 1024)

static void rule_free(struct fb_rule *rule)
{
	free(rule->match_name);
	free(rule->match_driver);
	free(rule->match_path);
	free(rule->match_id);
	free(rule->match_connector);
	free(rule->match_monitor);
	free(rule->user);
	free(rule->group);
	strv_free(rule->links, rule->n_links);
	free(rule->fbmode);
	memset(rule, 0, sizeof(*rule));
}

void fb_rules_free(struct fb_rules *r)
{
	for (size_t i = 0; i < r->n; i++)
		rule_free(&r->rules[i]);
	free(r->rules);
	strv_free(r->errors, r->n_errors);
	memset(r, 0, sizeof(*r));
}

static int add_error(struct fb_rules *r, const char *file, unsigned line, const char *what)
{
	char *msg;

	if (asprintf(&msg, "%s:%u: %s", file, line, what) < 0)
		return -ENOMEM;
	return strv_push(&r->errors, &r->n_errors, &r->errors_cap, msg);
}

const char *fb_rule_link_problem(const char *link)
{
	const char *p;

	if (!*link)
		return "must not be empty";
	if (link[0] == '/')
		return "must be relative";
	if (strlen(link) >= NODE_PATH_MAX)
		return "is too long";
	for (p = link; *p; p++) {
		unsigned char c = *p;

		if (!isalnum(c) && !strchr("#+-.:=@_/", c))
			return "contains a character other than [A-Za-z0-9#+-.:=@_/]";
	}
	/* Walk the components: no "", ".", ".." anywhere. */
	for (p = link;;) {
		size_t len = strcspn(p, "/");

		if (len == 0)
			return "must not contain empty components";
		if (len == 2 && p[0] == '.' && p[1] == '.')
			return "must not contain \"..\"";
		if (len == 1 && p[0] == '.')
			return "must not contain \".\" components";
		if (!p[len])
			break;
		p += len + 1;
	}
	/* Names fbclassctl generates itself are not for rules to take. */
	if (strncmp(link, "fb/", 3) == 0 || strcmp(link, "fb") == 0)
		return "is reserved for fbclassctl (fb/...)";
	if (strncmp(link, "fb", 2) == 0 && link[2] &&
	    strspn(link + 2, "0123456789") == strlen(link + 2))
		return "is reserved for a framebuffer node";
	return NULL;
}

static int parse_mode(const char *s, mode_t *out)
{
	size_t len = strlen(s);
	unsigned long v;
	char *end;

	if (len < 1 || len > 4 || strspn(s, "01234567") != len)
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 8);
	if (errno || *end || v > 0777)
		return -EINVAL;
	*out = (mode_t)v;
	return 0;
}

/* A decimal id, strictly: "0", "44"; no sign, no leading zeros; never
 * (uid_t)-1, which chown(2) takes as "unchanged". */
static bool parse_numeric_id(const char *s, unsigned *out)
{
	unsigned long long v;

	if (parse_decimal(s, UINT_MAX - 1, &v) < 0)
		return false;
	*out = (unsigned)v;
	return true;
}

static bool resolve_user(const char *name, uid_t *uid)
{
	unsigned v;

	if (parse_numeric_id(name, &v)) {
		*uid = v;
		return true;
	}
	return fb_user_by_name(name, uid);
}

static bool resolve_group(const char *name, gid_t *gid)
{
	unsigned v;

	if (parse_numeric_id(name, &v)) {
		*gid = v;
		return true;
	}
	return fb_group_by_name(name, gid);
}

/* The value of key after '"' at p, unescaped into v (room for all of p).
 * Returns the end of the value (after the closing quote), or NULL with
 * why filled. */
static const char *read_quoted(const char *p, const char *key, char *v, char *why,
			       size_t whylen)
{
	size_t n = 0;

	for (;; p++) {
		if (!*p) {
			snprintf(why, whylen, "unterminated quote in value of \"%s\"",
				 key);
			return NULL;
		}
		if (*p == '"')
			break;
		if (*p == '\\') {
			if (p[1] != '"' && p[1] != '\\') {
				snprintf(why, whylen,
					 "invalid escape \"\\%c\" in value of \"%s\" (only \\\" and \\\\)",
					 p[1] ? p[1] : ' ', key);
				return NULL;
			}
			p++;
		}
		v[n++] = *p;
	}
	v[n] = '\0';
	p++; /* closing quote */
	if (*p && *p != ' ' && *p != '\t') {
		snprintf(why, whylen, "garbage after the quoted value of \"%s\"", key);
		return NULL;
	}
	return p;
}

/* An unquoted value of key at p into v (room for all of p).  Returns its
 * end, or NULL with why filled. */
static const char *read_plain(const char *p, const char *key, char *v, char *why,
			      size_t whylen)
{
	size_t n = 0;

	for (; *p && *p != ' ' && *p != '\t'; p++) {
		if (*p == '"' || *p == '\\') {
			snprintf(why, whylen,
				 "unexpected '%c' in value of \"%s\" (quote the whole value)",
				 *p, key);
			return NULL;
		}
		v[n++] = *p;
	}
	v[n] = '\0';
	return p;
}

/*
 * Read one word at *pp into key/value.  Returns 1 for a word, 0 at the end
 * of the line (or a comment), -EINVAL with why filled, -ENOMEM.
 */
static int next_word(const char **pp, char **key, char **value, char *why, size_t whylen)
{
	const char *p = *pp;
	const char *k;
	size_t klen;
	char *v;

	*key = *value = NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '#')
		return 0;
	k = p;
	while (*p && *p != '=' && *p != ' ' && *p != '\t')
		p++;
	klen = p - k;
	if (*p != '=') {
		if (klen == 6 && strncmp(k, "ignore", 6) == 0) {
			*key = strdup("ignore");
			*pp = p;
			return *key ? 1 : -ENOMEM;
		}
		snprintf(why, whylen, "expected KEY=VALUE or \"ignore\", got \"%.*s\"",
			 (int)(klen > 64 ? 64 : klen), k);
		return -EINVAL;
	}
	if (klen == 0) {
		snprintf(why, whylen, "missing key before \"=\"");
		return -EINVAL;
	}
	*key = strndup(k, klen);
	if (!*key)
		return -ENOMEM;
	p++; /* '=' */
	v = malloc(strlen(p) + 1);
	if (!v)
		return -ENOMEM;
	if (*p == '"')
		p = read_quoted(p + 1, *key, v, why, whylen);
	else
		p = read_plain(p, *key, v, why, whylen);
	if (!p) {
		free(v);
		return -EINVAL;
	}
	*value = v;
	*pp = p;
	return 1;
}

static int set_string(char **slot, const char *key, char *value, char *why, size_t whylen)
{
	if (*slot) {
		snprintf(why, whylen, "\"%s\" given twice", key);
		free(value);
		return -EINVAL;
	}
	*slot = value;
	return 0;
}

static int set_ignore(struct fb_rule *rule, char *value, char *why, size_t whylen)
{
	if (value) {
		snprintf(why, whylen, "\"ignore\" takes no value");
		free(value);
		return -EINVAL;
	}
	if (rule->ignore) {
		snprintf(why, whylen, "\"ignore\" given twice");
		return -EINVAL;
	}
	rule->ignore = true;
	return 0;
}

static int set_owner(struct fb_rule *rule, char *value, char *why, size_t whylen)
{
	int r = set_string(&rule->user, "owner", value, why, whylen);

	rule->has_owner = true;
	if (r == 0 && !resolve_user(value, &rule->uid)) {
		snprintf(why, whylen, "unknown user \"%s\"", value);
		r = -EINVAL;
	}
	return r;
}

static int set_group(struct fb_rule *rule, char *value, char *why, size_t whylen)
{
	int r = set_string(&rule->group, "group", value, why, whylen);

	rule->has_group = true;
	if (r == 0 && !resolve_group(value, &rule->gid)) {
		snprintf(why, whylen, "unknown group \"%s\"", value);
		r = -EINVAL;
	}
	return r;
}

static int set_mode(struct fb_rule *rule, char *value, char *why, size_t whylen)
{
	int r = 0;

	if (rule->has_mode) {
		snprintf(why, whylen, "\"mode\" given twice");
		r = -EINVAL;
	} else if (parse_mode(value, &rule->mode) < 0) {
		snprintf(why, whylen, "invalid mode \"%s\": expected octal 0 to 0777",
			 value);
		r = -EINVAL;
	}
	rule->has_mode = true;
	free(value);
	return r;
}

static int add_link(struct fb_rule *rule, char *value, char *why, size_t whylen)
{
	const char *problem = fb_rule_link_problem(value);

	if (problem) {
		snprintf(why, whylen, "invalid link \"%s\": %s", value, problem);
		free(value);
		return -EINVAL;
	}
	return strv_push(&rule->links, &rule->n_links, &rule->links_cap, value);
}

/* set --mode's value: a fb.modes name (looked up when applied), or
 * WxH[-DEPTH][@HZ], which starts with a digit. */
static int set_fbmode(struct fb_rule *rule, char *value, char *why, size_t whylen)
{
	struct fbmodes_spec spec;

	if (isdigit((unsigned char)value[0]) && fbmodes_parse_spec(value, &spec) < 0) {
		snprintf(why, whylen,
			 "invalid fbmode \"%s\": expected a fb.modes name or WxH[-DEPTH][@HZ]",
			 value);
		free(value);
		return -EINVAL;
	}
	return set_string(&rule->fbmode, "fbmode", value, why, whylen);
}

/* console=N or N-M: consoles 1 to FB_CONSOLE_MAX. */
static int set_console(struct fb_rule *rule, char *value, char *why, size_t whylen)
{
	_cleanup_free_ char *v = value;
	unsigned long long first, last = 0;
	const char *p;

	if (rule->console_first) {
		snprintf(why, whylen, "\"console\" given twice");
		return -EINVAL;
	}
	if (parse_decimal_prefix(v, FB_CONSOLE_MAX, &first, &p) < 0 || first == 0 ||
	    (*p && (*p != '-' || parse_decimal(p + 1, FB_CONSOLE_MAX, &last) < 0)) ||
	    (*p && last < first)) {
		snprintf(why, whylen,
			 "invalid console \"%s\": expected N or N-M, consoles 1 to %d", v,
			 FB_CONSOLE_MAX);
		return -EINVAL;
	}
	rule->console_first = (unsigned)first;
	rule->console_last = *p ? (unsigned)last : (unsigned)first;
	return 0;
}

static int set_rotate(struct fb_rule *rule, char *value, char *why, size_t whylen)
{
	unsigned long long deg = 0;
	int r = 0;

	if (rule->has_rotate) {
		snprintf(why, whylen, "\"rotate\" given twice");
		r = -EINVAL;
	} else if (parse_decimal(value, 270, &deg) < 0 || deg % 90) {
		snprintf(why, whylen, "invalid rotate \"%s\": expected 0, 90, 180 or 270",
			 value);
		r = -EINVAL;
	}
	rule->has_rotate = true;
	rule->rotate = r == 0 ? (unsigned)deg : 0;
	free(value);
	return r;
}

enum {
	KEY_NAME,
	KEY_DRIVER,
	KEY_PATH,
	KEY_ID,
	KEY_CONNECTOR,
	KEY_MONITOR,
	KEY_OWNER,
	KEY_GROUP,
	KEY_MODE,
	KEY_LINK,
	KEY_FBMODE,
	KEY_CONSOLE,
	KEY_ROTATE,
};
static const char *const rule_keys[] = {
	[KEY_NAME] = "name",	 [KEY_DRIVER] = "driver",	[KEY_PATH] = "path",
	[KEY_ID] = "id",	 [KEY_CONNECTOR] = "connector", [KEY_MONITOR] = "monitor",
	[KEY_OWNER] = "owner",	 [KEY_GROUP] = "group",		[KEY_MODE] = "mode",
	[KEY_LINK] = "link",	 [KEY_FBMODE] = "fbmode",	[KEY_CONSOLE] = "console",
	[KEY_ROTATE] = "rotate",
};

/* One word of a line into rule: "ignore", or KEY=VALUE (value is taken
 * over).  0, -EINVAL with why filled, or -ENOMEM. */
static int parse_word(struct fb_rule *rule, const char *key, char *value, char *why,
		      size_t whylen)
{
	size_t k = 0;

	if (strcmp(key, "ignore") == 0)
		return set_ignore(rule, value, why, whylen);
	while (k < ARRAY_SIZE(rule_keys) && strcmp(key, rule_keys[k]) != 0)
		k++;
	if (k == ARRAY_SIZE(rule_keys)) {
		snprintf(why, whylen, "unknown key \"%s\"", key);
		free(value);
		return -EINVAL;
	}
	if (!*value) {
		snprintf(why, whylen, "empty value for \"%s\"", key);
		free(value);
		return -EINVAL;
	}
	switch (k) {
	case KEY_NAME:
		return set_string(&rule->match_name, key, value, why, whylen);
	case KEY_DRIVER:
		return set_string(&rule->match_driver, key, value, why, whylen);
	case KEY_PATH:
		return set_string(&rule->match_path, key, value, why, whylen);
	case KEY_ID:
		return set_string(&rule->match_id, key, value, why, whylen);
	case KEY_CONNECTOR:
		return set_string(&rule->match_connector, key, value, why, whylen);
	case KEY_MONITOR:
		return set_string(&rule->match_monitor, key, value, why, whylen);
	case KEY_OWNER:
		return set_owner(rule, value, why, whylen);
	case KEY_GROUP:
		return set_group(rule, value, why, whylen);
	case KEY_MODE:
		return set_mode(rule, value, why, whylen);
	case KEY_FBMODE:
		return set_fbmode(rule, value, why, whylen);
	case KEY_CONSOLE:
		return set_console(rule, value, why, whylen);
	case KEY_ROTATE:
		return set_rotate(rule, value, why, whylen);
	default: /* KEY_LINK */
		return add_link(rule, value, why, whylen);
	}
}

/* What is wrong with a rule whose every word was right, or NULL. */
static const char *rule_problem(const struct fb_rule *rule)
{
	bool acts = rule->has_owner || rule->has_group || rule->has_mode ||
		    rule->n_links || rule->fbmode || rule->console_first ||
		    rule->has_rotate;

	if (!rule->match_name && !rule->match_driver && !rule->match_path &&
	    !rule->match_id && !rule->match_connector && !rule->match_monitor)
		return "rule has no match (name=, driver=, path=, id=, connector= or monitor=)";
	if (rule->ignore && acts)
		return "\"ignore\" cannot be combined with other actions";
	if (!rule->ignore && !acts)
		return "rule has no action (owner=, group=, mode=, link=, fbmode=, console=, rotate= or ignore)";
	return NULL;
}

/* Parse one line into rule.  0: a rule; 1: blank or comment; -EINVAL: why. */
static int parse_line(const char *line, struct fb_rule *rule, char *why, size_t whylen)
{
	const char *p = line, *problem;
	bool any_word = false;
	int r;

	for (;;) {
		_cleanup_free_ char *key = NULL;
		char *value = NULL;

		r = next_word(&p, &key, &value, why, whylen);
		if (r <= 0)
			break;
		any_word = true;
		r = parse_word(rule, key, value, why, whylen);
		if (r < 0)
			break;
	}
	if (r < 0)
		return r;
	if (!any_word)
		return 1;
	problem = rule_problem(rule);
	if (problem) {
		snprintf(why, whylen, "%s", problem);
		return -EINVAL;
	}
	return 0;
}

int fb_rules_parse_string(const char *text, const char *file, struct fb_rules *r)
{
	const char *p = text;
	unsigned lineno = 0;
	bool bad = false;
	int ret;

	memset(r, 0, sizeof(*r));
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[FB_RULES_LINE_MAX + 1];
		char why[512];
		struct fb_rule rule = {};

		lineno++;
		if (len > FB_RULES_LINE_MAX) {
			snprintf(why, sizeof(why), "line too long (more than %d bytes)",
				 FB_RULES_LINE_MAX);
			goto bad_line;
		}
		memcpy(line, p, len);
		line[len] = '\0';
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		for (size_t i = 0; i < len; i++) {
			unsigned char c = line[i];

			if (c < 0x20 && c != '\t') {
				snprintf(why, sizeof(why), "control character 0x%02x", c);
				goto bad_line;
			}
		}
		ret = parse_line(line, &rule, why, sizeof(why));
		if (ret == -ENOMEM) {
			rule_free(&rule);
			return -ENOMEM;
		}
		if (ret == 1)
			goto next;
		if (ret < 0)
			goto bad_line;
		{
			struct fb_rule *v = realloc(r->rules, (r->n + 1) * sizeof(*v));

			if (!v) {
				rule_free(&rule);
				return -ENOMEM;
			}
			r->rules = v;
			rule.line = lineno;
			r->rules[r->n++] = rule;
		}
		goto next;
bad_line:
		rule_free(&rule);
		bad = true;
		if (add_error(r, file, lineno, why) < 0)
			return -ENOMEM;
next:
		if (!eol)
			break;
		p = eol + 1;
	}
	return bad ? -EINVAL : 0;
}

int fb_rules_load(const char *path, bool missing_ok, struct fb_rules *r)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *buf = NULL;
	struct stat st;
	size_t len = 0;

	memset(r, 0, sizeof(*r));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		if (errno == ENOENT && missing_ok)
			return 0;
		return log_errno(-errno, "%s: cannot open rules file: %m", path);
	}
	if (fstat(fd, &st) < 0)
		return log_errno(-errno, "%s: cannot stat rules file: %m", path);
	if (!S_ISREG(st.st_mode)) {
		ERR("%s: rules file is not a regular file", path);
		return -EINVAL;
	}
	if (st.st_size > RULES_FILE_MAX) {
		ERR("%s: rules file is larger than %d bytes", path, RULES_FILE_MAX);
		return -EFBIG;
	}
	buf = malloc(RULES_FILE_MAX + 1);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n = read(fd, buf + len, RULES_FILE_MAX + 1 - len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return log_errno(-errno, "%s: cannot read rules file: %m", path);
		}
		if (n == 0)
			break;
		len += n;
		if (len > RULES_FILE_MAX) {
			ERR("%s: rules file is larger than %d bytes", path,
			    RULES_FILE_MAX);
			return -EFBIG;
		}
	}
	if (memchr(buf, '\0', len)) {
		ERR("%s: rules file contains a NUL byte", path);
		return -EINVAL;
	}
	buf[len] = '\0';
	return fb_rules_parse_string(buf, path, r);
}

static bool glob_matches(const char *pattern, const char *s)
{
	if (!pattern)
		return true;
	if (!s)
		return false;
	return fnmatch(pattern, s, 0) == 0;
}

/* A pattern of a list (connectors, monitors): one of them matches. */
static bool glob_matches_any(const char *pattern, const char *const *v, size_t n)
{
	if (!pattern)
		return true;
	for (size_t i = 0; i < n; i++)
		if (v[i] && fnmatch(pattern, v[i], 0) == 0)
			return true;
	return false;
}

bool fb_rules_match_monitors(const struct fb_rules *r)
{
	for (size_t i = 0; r && i < r->n; i++)
		if (r->rules[i].match_monitor)
			return true;
	return false;
}

const struct fb_rule *fb_rules_match(const struct fb_rules *r,
				     const struct fb_rule_subject *s)
{
	if (!r)
		return NULL;
	for (size_t i = 0; i < r->n; i++) {
		const struct fb_rule *rule = &r->rules[i];

		if (glob_matches(rule->match_name, s->name) &&
		    glob_matches(rule->match_driver, s->driver) &&
		    glob_matches(rule->match_path, s->path_id) &&
		    glob_matches(rule->match_id, s->id) &&
		    glob_matches_any(rule->match_connector, s->connectors,
				     s->n_connectors) &&
		    glob_matches_any(rule->match_monitor, s->monitors, s->n_monitors))
			return rule;
	}
	return NULL;
}
