/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * /etc/fbclassctl.conf: one rule a line, KEY=VALUE words, first match wins.
 * The format is described in fbclassctl.conf(5).
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define FB_RULES_DEFAULT_FILE "/etc/fbclassctl.conf"
#define FB_RULES_LINE_MAX     4096

struct fb_rule {
	unsigned line;
	/* fnmatch(3) globs; NULL matches anything. */
	char *match_name;
	char *match_driver;
	char *match_path;
	char *match_id;
	char *match_connector; /* one of the connected connectors: "card0-HDMI-A-1" */
	char *match_monitor; /* the name in one of their EDIDs (a trusted one) */
	bool ignore;
	bool has_owner, has_group, has_mode;
	uid_t uid;
	gid_t gid;
	mode_t mode;
	char *user, *group; /* as written */
	char **links; /* relative, validated: "display/main" */
	size_t n_links, links_cap;
	/* The device set up as the commands would (rules-apply.h): */
	char *fbmode; /* fbmode=: set --mode's value, NULL none */
	unsigned console_first, console_last; /* console=N[-M]: 0 none */
	bool has_rotate;
	unsigned rotate; /* rotate=: 0, 90, 180 or 270 */
};

struct fb_rules {
	struct fb_rule *rules;
	size_t n;
	/* "FILE:LINE: what is wrong", one per bad line, in file order. */
	char **errors;
	size_t n_errors, errors_cap;
};

/* Parse text as the contents of file (used in messages).  Every bad line
 * is recorded in r->errors.  Returns 0, -EINVAL when any line is bad, or
 * -ENOMEM. */
int fb_rules_parse_string(const char *text, const char *file, struct fb_rules *r);
/* Read and parse a file.  A missing file with missing_ok gives no rules.
 * Returns 0, -EINVAL (bad lines, in r->errors) or -errno (unreadable;
 * already reported). */
int fb_rules_load(const char *path, bool missing_ok, struct fb_rules *r);
void fb_rules_free(struct fb_rules *r);

/* What a rule matches against: one framebuffer, and the connected
 * connectors of its card with their monitors. */
struct fb_rule_subject {
	const char *name, *driver, *path_id, *id;
	const char *const *connectors;
	size_t n_connectors;
	const char *const *monitors; /* names of trusted EDIDs only */
	size_t n_monitors;
};

/* The first rule matching; NULL when none does.  Any of the strings may be
 * NULL: a rule that matches on a NULL field does not match, and a rule on
 * connectors or monitors matches when one of them does. */
const struct fb_rule *fb_rules_match(const struct fb_rules *r,
				     const struct fb_rule_subject *s);

/* Does a rule match on monitor=?  (Only then are EDIDs read for a plan.) */
bool fb_rules_match_monitors(const struct fb_rules *r);

/* Validate one rule link ("display/main").  NULL when fine, else a static
 * reason ("must be relative"). */
const char *fb_rule_link_problem(const char *link);
