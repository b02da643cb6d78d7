/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Users and groups through NSS: see account.h. */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>

#include "account.h"

/*
 * A name that /etc/passwd or /etc/group has is the answer NSS gives when
 * nsswitch.conf asks "files" first: found there without NSS's machinery
 * (nsswitch.conf parsed, nscd's socket tried twice, the module's code
 * paged in), which was 2% of a coldplug of 32 fbs for its one lookup of
 * "video".  Any other configuration, and any name the file lacks, goes
 * to NSS as before (LDAP, sssd, systemd's dynamic users).
 */
static bool by_name_in_file(const char *db, const char *file, const char *name,
			    unsigned *id)
{
	/* asked each time, as glibc rereads nsswitch.conf when it changes:
	 * the daemon runs for months */
	return account_files_first_here(db) &&
	       account_etc_find(file, name, 0, id, NULL, 0);
}

bool fb_user_by_name(const char *name, uid_t *uid)
{
	struct passwd *pw;
	unsigned id;

	if (by_name_in_file("passwd", "/etc/passwd", name, &id)) {
		*uid = id;
		return true;
	}
	pw = getpwnam(name);
	if (pw)
		*uid = pw->pw_uid;
	return pw;
}

bool fb_group_by_name(const char *name, gid_t *gid)
{
	struct group *gr;
	unsigned id;

	if (by_name_in_file("group", "/etc/group", name, &id)) {
		*gid = id;
		return true;
	}
	gr = getgrnam(name);
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
