/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Users and groups from /etc/passwd and /etc/group, never NSS (the static
 * build): see account.h. */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>

#include "account.h"

/* The first entry of /etc/passwd with this name (or, name NULL, uid). */
static bool passwd_find(const char *name, uid_t *uid, char *buf, size_t len)
{
	FILE *f = fopen("/etc/passwd", "re");
	struct passwd *pw;
	bool found = false;

	if (!f)
		return false;
	while (!found && (pw = fgetpwent(f))) {
		if (name ? strcmp(pw->pw_name, name) == 0 : pw->pw_uid == *uid) {
			*uid = pw->pw_uid;
			if (buf)
				snprintf(buf, len, "%s", pw->pw_name);
			found = true;
		}
	}
	fclose(f);
	return found;
}

static bool group_find(const char *name, gid_t *gid, char *buf, size_t len)
{
	FILE *f = fopen("/etc/group", "re");
	struct group *gr;
	bool found = false;

	if (!f)
		return false;
	while (!found && (gr = fgetgrent(f))) {
		if (name ? strcmp(gr->gr_name, name) == 0 : gr->gr_gid == *gid) {
			*gid = gr->gr_gid;
			if (buf)
				snprintf(buf, len, "%s", gr->gr_name);
			found = true;
		}
	}
	fclose(f);
	return found;
}

bool fb_user_by_name(const char *name, uid_t *uid)
{
	return passwd_find(name, uid, NULL, 0);
}

bool fb_group_by_name(const char *name, gid_t *gid)
{
	return group_find(name, gid, NULL, 0);
}

bool fb_user_name(uid_t uid, char *buf, size_t len)
{
	return passwd_find(NULL, &uid, buf, len);
}

bool fb_group_name(gid_t gid, char *buf, size_t len)
{
	return group_find(NULL, &gid, buf, len);
}
