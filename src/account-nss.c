/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Users and groups through NSS: see account.h. */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>

#include "account.h"

bool fb_user_by_name(const char *name, uid_t *uid)
{
	struct passwd *pw = getpwnam(name);

	if (pw)
		*uid = pw->pw_uid;
	return pw;
}

bool fb_group_by_name(const char *name, gid_t *gid)
{
	struct group *gr = getgrnam(name);

	if (gr)
		*gid = gr->gr_gid;
	return gr;
}

bool fb_user_name(uid_t uid, char *buf, size_t len)
{
	struct passwd *pw = getpwuid(uid);

	if (pw)
		snprintf(buf, len, "%s", pw->pw_name);
	return pw;
}

bool fb_group_name(gid_t gid, char *buf, size_t len)
{
	struct group *gr = getgrgid(gid);

	if (gr)
		snprintf(buf, len, "%s", gr->gr_name);
	return gr;
}
