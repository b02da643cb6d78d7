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
	free(rule->user);
	free(rule->group);
	for (size_t i = 0; i < rule->n_links; i++)
		free(rule->links[i]);
	free(rule->links);
	memset(rule, 0, sizeof(*rule));
}

void fb_rules_free(struct fb_rules *r)
{
	for (size_t i = 0; i < r->n; i++)
		rule_free(&r->rules[i]);
	free(r->rules);
	for (size_t i = 0; i < r->n_errors; i++)
		free(r->errors[i]);
	free(r->errors);
	memset(r, 0, sizeof(*r));
}

static int add_error(struct fb_rules *r, const char *file, unsigned line, const char *what)
{
	char **v = realloc(r->errors, (r->n_errors + 1) * sizeof(*v));
	char *msg;

	if (!v)
		return -ENOMEM;
	r->errors = v;
	if (asprintf(&msg, "%s:%u: %s", file, line, what) < 0)
		return -ENOMEM;
	r->errors[r->n_errors++] = msg;
	return 0;
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
	size_t vlen = 0;

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
	if (*p == '"') {
		p++;
		for (;;) {
			if (!*p) {
				snprintf(why, whylen,
					 "unterminated quote in value of \"%s\"", *key);
				goto bad;
			}
			if (*p == '"')
				break;
			if (*p == '\\') {
				if (p[1] != '"' && p[1] != '\\') {
					snprintf(why, whylen,
						 "invalid escape \"\\%c\" in value of \"%s\" (only \\\" and \\\\)",
						 p[1] ? p[1] : ' ', *key);
					goto bad;
				}
				p++;
			}
			v[vlen++] = *p++;
		}
		p++; /* closing quote */
		if (*p && *p != ' ' && *p != '\t') {
			snprintf(why, whylen, "garbage after the quoted value of \"%s\"",
				 *key);
			goto bad;
		}
	} else {
		while (*p && *p != ' ' && *p != '\t') {
			if (*p == '"' || *p == '\\') {
				snprintf(why, whylen,
					 "unexpected '%c' in value of \"%s\" (quote the whole value)",
					 *p, *key);
				goto bad;
			}
			v[vlen++] = *p++;
		}
	}
	v[vlen] = '\0';
	*value = v;
	*pp = p;
	return 1;
bad:
	free(v);
	return -EINVAL;
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

static bool key_is_known(const char *key)
{
	static const char *const keys[] = { "name",  "driver", "path", "id",
					    "owner", "group",  "mode", "link" };

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (strcmp(key, keys[i]) == 0)
			return true;
	return false;
}

/* Parse one line into rule.  0: a rule; 1: blank or comment; -EINVAL: why. */
static int parse_line(const char *line, struct fb_rule *rule, char *why, size_t whylen)
{
	const char *p = line;
	bool any_word = false;
	int r;

	for (;;) {
		_cleanup_free_ char *key = NULL;
		char *value = NULL;

		r = next_word(&p, &key, &value, why, whylen);
		if (r <= 0)
			break;
		any_word = true;
		if (strcmp(key, "ignore") == 0) {
			if (value) {
				snprintf(why, whylen, "\"ignore\" takes no value");
				free(value);
				r = -EINVAL;
				break;
			}
			if (rule->ignore) {
				snprintf(why, whylen, "\"ignore\" given twice");
				r = -EINVAL;
				break;
			}
			rule->ignore = true;
			continue;
		}
		if (!key_is_known(key)) {
			snprintf(why, whylen, "unknown key \"%s\"", key);
			free(value);
			r = -EINVAL;
			break;
		}
		if (!*value) {
			snprintf(why, whylen, "empty value for \"%s\"", key);
			free(value);
			r = -EINVAL;
			break;
		}
		if (strcmp(key, "name") == 0) {
			r = set_string(&rule->match_name, key, value, why, whylen);
		} else if (strcmp(key, "driver") == 0) {
			r = set_string(&rule->match_driver, key, value, why, whylen);
		} else if (strcmp(key, "path") == 0) {
			r = set_string(&rule->match_path, key, value, why, whylen);
		} else if (strcmp(key, "id") == 0) {
			r = set_string(&rule->match_id, key, value, why, whylen);
		} else if (strcmp(key, "owner") == 0) {
			r = set_string(&rule->user, key, value, why, whylen);
			if (r == 0 && !resolve_user(value, &rule->uid)) {
				snprintf(why, whylen, "unknown user \"%s\"", value);
				r = -EINVAL;
			}
			rule->has_owner = true;
		} else if (strcmp(key, "group") == 0) {
			r = set_string(&rule->group, key, value, why, whylen);
			if (r == 0 && !resolve_group(value, &rule->gid)) {
				snprintf(why, whylen, "unknown group \"%s\"", value);
				r = -EINVAL;
			}
			rule->has_group = true;
		} else if (strcmp(key, "mode") == 0) {
			if (rule->has_mode) {
				snprintf(why, whylen, "\"mode\" given twice");
				r = -EINVAL;
			} else if (parse_mode(value, &rule->mode) < 0) {
				snprintf(why, whylen,
					 "invalid mode \"%s\": expected octal 0 to 0777",
					 value);
				r = -EINVAL;
			}
			rule->has_mode = true;
			free(value);
		} else if (strcmp(key, "link") == 0) {
			const char *problem = fb_rule_link_problem(value);
			char **v;

			if (problem) {
				snprintf(why, whylen, "invalid link \"%s\": %s", value,
					 problem);
				free(value);
				r = -EINVAL;
				break;
			}
			v = realloc(rule->links, (rule->n_links + 1) * sizeof(*v));
			if (!v) {
				free(value);
				r = -ENOMEM;
				break;
			}
			rule->links = v;
			rule->links[rule->n_links++] = value;
			r = 0;
		} else {
			snprintf(why, whylen, "unknown key \"%s\"", key);
			free(value);
			r = -EINVAL;
		}
		if (r < 0)
			break;
	}
	if (r < 0)
		return r;
	if (!any_word)
		return 1;
	if (!rule->match_name && !rule->match_driver && !rule->match_path &&
	    !rule->match_id) {
		snprintf(why, whylen, "rule has no match (name=, driver=, path= or id=)");
		return -EINVAL;
	}
	if (rule->ignore &&
	    (rule->has_owner || rule->has_group || rule->has_mode || rule->n_links)) {
		snprintf(why, whylen, "\"ignore\" cannot be combined with other actions");
		return -EINVAL;
	}
	if (!rule->ignore && !rule->has_owner && !rule->has_group && !rule->has_mode &&
	    !rule->n_links) {
		snprintf(why, whylen,
			 "rule has no action (owner=, group=, mode=, link= or ignore)");
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

const struct fb_rule *fb_rules_match(const struct fb_rules *r, const char *name,
				     const char *driver, const char *path_id,
				     const char *id)
{
	if (!r)
		return NULL;
	for (size_t i = 0; i < r->n; i++) {
		const struct fb_rule *rule = &r->rules[i];

		if (glob_matches(rule->match_name, name) &&
		    glob_matches(rule->match_driver, driver) &&
		    glob_matches(rule->match_path, path_id) &&
		    glob_matches(rule->match_id, id))
			return rule;
	}
	return NULL;
}
