/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Users and groups from /etc/passwd and /etc/group, never NSS (the static
 * build): see account.h. */
#include "account.h"

bool fb_user_by_name(const char *name, uid_t *uid)
{
	unsigned id;

	if (!account_etc_find("/etc/passwd", name, 0, &id, NULL, 0))
		return false;
	*uid = id;
	return true;
}

bool fb_group_by_name(const char *name, gid_t *gid)
{
	unsigned id;

	if (!account_etc_find("/etc/group", name, 0, &id, NULL, 0))
		return false;
	*gid = id;
	return true;
}

bool fb_user_name(uid_t uid, char *buf, size_t len)
{
	unsigned id;

	return account_etc_find("/etc/passwd", NULL, uid, &id, buf, len);
}

bool fb_group_name(gid_t gid, char *buf, size_t len)
{
	unsigned id;

	return account_etc_find("/etc/group", NULL, gid, &id, buf, len);
}
