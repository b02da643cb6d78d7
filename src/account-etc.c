/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* /etc/passwd and /etc/group read directly, and when nsswitch.conf lets
 * them answer first: see account.h. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "account.h"
#include "macro.h"
#include "strutil.h"

/*
 * Read with getline, not fgetpwent/fgetgrent, which seek twice a line.
 * NIS compat entries ("+", "-") and malformed lines are no entries.
 */
bool account_etc_find(const char *file, const char *name, unsigned want, unsigned *id,
		      char *buf, size_t len)
{
	FILE *f = fopen(file, "re");
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;
	bool found = false;

	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0) {
		char *fields[3], *p = line;
		unsigned long long v;

		line[strcspn(line, "\n")] = '\0';
		for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
			fields[i] = strsep(&p, ":");
		if (!fields[2] || !p || !*fields[0] || strchr("+-", fields[0][0]) ||
		    parse_decimal(fields[2], UINT32_MAX - 1, &v) < 0)
			continue; /* malformed, or NIS compat: not an entry */
		if (name ? strcmp(fields[0], name) == 0 : v == want) {
			*id = (unsigned)v;
			if (buf)
				snprintf(buf, len, "%s", fields[0]);
			found = true;
		}
	}
	fclose(f);
	return found;
}

bool account_files_first(const char *conf, const char *db)
{
	size_t dblen = strlen(db);
	int lines = 0;
	bool first = false;

	for (const char *p = conf; *p;) {
		size_t len = strcspn(p, "\n");
		const char *q = p + strspn(p, " \t");

		if ((size_t)(q - p) < len && strncmp(q, db, dblen) == 0 &&
		    q[dblen] == ':') {
			const char *end = p + len;

			lines++;
			q += dblen + 1;
			q += strspn(q, " \t");
			/* "files", then the end, a comment or the next service:
			 * an action ("[SUCCESS=continue]") could change what a
			 * name found in the file answers */
			first = end - q >= 5 && strncmp(q, "files", 5) == 0 &&
				(q + 5 == end || strchr(" \t#", q[5]));
			if (first) {
				q += 5 + strspn(q + 5, " \t");
				first = q == end || *q != '[';
			}
		}
		p += len;
		if (*p == '\n')
			p++;
	}
	return lines == 1 && first;
}

bool account_files_first_here(const char *db)
{
	_cleanup_free_ char *conf = file_read_text("/etc/nsswitch.conf", 64 * 1024);

	return conf && account_files_first(conf, db);
}
