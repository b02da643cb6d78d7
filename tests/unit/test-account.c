/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Users and groups: the nsswitch.conf test that lets /etc/passwd and
 * /etc/group answer without NSS, the file reader on lines no tool writes,
 * and, for every name in this system's files, the same id as NSS itself
 * (getpwnam, getgrnam) gives.
 */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "account.h"
#include "test.h"

static void test_files_first(void)
{
	static const struct {
		const char *conf, *db;
		bool want;
	} cases[] = {
		{ "passwd: files\ngroup:          files systemd\n", "group", true },
		{ "group:files", "group", true },
		{ "  group:\tfiles\t# local only\n", "group", true },
		{ "group: files\n", "passwd", false }, /* no line for it */
		{ "group: systemd files\n", "group", false },
		{ "group: ldap\n", "group", false },
		{ "group: compat\n", "group", false },
		{ "group: filesystem\n", "group", false },
		{ "group: files [SUCCESS=merge] ldap\n", "group", false },
		{ "group: files[SUCCESS=continue] ldap\n", "group", false },
		{ "group: files\ngroup: ldap\n", "group", false }, /* two lines */
		{ "#group: files\n", "group", false },
		{ "gshadow: files\n", "group", false },
		{ "groups: files\n", "group", false },
		{ "group:\n", "group", false },
		{ "", "group", false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ASSERT_MSG(account_files_first(cases[i].conf, cases[i].db) ==
				   cases[i].want,
			   "%s in \"%s\": want %d", cases[i].db, cases[i].conf,
			   cases[i].want);
}

static void test_etc_find(void)
{
	char path[] = "/tmp/test-account.XXXXXX", name[16];
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	unsigned id = 0;

	ASSERT_TRUE(f != NULL);
	if (!f)
		return;
	fputs("+video:::\n" /* NIS compat: no entry */
	      "video:x:nope:\n" /* malformed id */
	      ":x:7:\n" /* no name */
	      "video:x:44:alice,bob\n" /* the first good one */
	      "video:x:45:\n" /* a second one: not seen */
	      "render:x:4294967295:\n", /* above UINT32_MAX - 1 */
	      f);
	fclose(f);
	ASSERT_TRUE(account_etc_find(path, "video", 0, &id, NULL, 0));
	ASSERT_INT_EQ(id, 44);
	ASSERT_TRUE(account_etc_find(path, NULL, 44, &id, name, sizeof(name)));
	ASSERT_STR_EQ(name, "video");
	ASSERT_TRUE(!account_etc_find(path, "render", 0, &id, NULL, 0));
	ASSERT_TRUE(!account_etc_find(path, "nobody-here", 0, &id, NULL, 0));
	ASSERT_TRUE(!account_etc_find("/nonexistent/group", "video", 0, &id, NULL, 0));
	unlink(path);
}

/* Every name in this system's files, by fb_*_by_name and by NSS. */
static void test_same_as_nss(void)
{
	unsigned n = 0;
	struct group *gr;
	struct passwd *pw;

	setgrent();
	while ((gr = getgrent())) {
		struct group *nss = getgrnam(gr->gr_name);
		gid_t gid = (gid_t)-1;

		ASSERT_MSG(nss && fb_group_by_name(gr->gr_name, &gid) &&
				   gid == nss->gr_gid,
			   "group %s: %u, NSS says %d", gr->gr_name, (unsigned)gid,
			   nss ? (int)nss->gr_gid : -1);
		n++;
	}
	endgrent();
	setpwent();
	while ((pw = getpwent())) {
		struct passwd *nss = getpwnam(pw->pw_name);
		uid_t uid = (uid_t)-1;

		ASSERT_MSG(nss && fb_user_by_name(pw->pw_name, &uid) && uid == nss->pw_uid,
			   "user %s: %u, NSS says %d", pw->pw_name, (unsigned)uid,
			   nss ? (int)nss->pw_uid : -1);
		n++;
	}
	endpwent();
	ASSERT_MSG(n >= 2, "only %u users and groups to compare", n);
	printf("%u users and groups: the same ids as NSS; this system's nsswitch.conf sends group to files first: %s\n",
	       n, account_files_first_here("group") ? "yes" : "no");
	{
		gid_t gid;
		uid_t uid;

		ASSERT_TRUE(!fb_group_by_name("fbclassctl-no-such-group", &gid));
		ASSERT_TRUE(!fb_user_by_name("fbclassctl-no-such-user", &uid));
	}
}

int main(void)
{
	test_files_first();
	test_etc_find();
	test_same_as_nss();
	return test_finish("test-account");
}
