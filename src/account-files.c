/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Users and groups from /etc/passwd and /etc/group, never NSS (the static
 * build): see account.h. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "account.h"
#include "macro.h"
#include "strutil.h"

/*
 * The first line of an /etc/passwd or /etc/group style file with this
 * name (or, name NULL, the id want: the third field in both): its id in
 * *id, its name in buf.  Read with
 * getline, not fgetpwent/fgetgrent, which seek twice a line.
 */
static bool entry_find(const char *file, const char *name, unsigned want, unsigned *id,
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

bool fb_user_by_name(const char *name, uid_t *uid)
{
	unsigned id;

	if (!entry_find("/etc/passwd", name, 0, &id, NULL, 0))
		return false;
	*uid = id;
	return true;
}

bool fb_group_by_name(const char *name, gid_t *gid)
{
	unsigned id;

	if (!entry_find("/etc/group", name, 0, &id, NULL, 0))
		return false;
	*gid = id;
	return true;
}

bool fb_user_name(uid_t uid, char *buf, size_t len)
{
	unsigned id;

	return entry_find("/etc/passwd", NULL, uid, &id, buf, len);
}

bool fb_group_name(gid_t gid, char *buf, size_t len)
{
	unsigned id;

	return entry_find("/etc/group", NULL, gid, &id, buf, len);
}
