/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * Users and groups: through NSS (src/account-nss.c, the default; a name
 * is taken from /etc/passwd or /etc/group without it where nsswitch.conf
 * names "files" first), or read from those files alone
 * (src/account-files.c, the static build: static glibc cannot load NSS
 * modules, and an initramfs has none).  src/account-etc.c reads them for
 * both.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* false when unknown. */
bool fb_user_by_name(const char *name, uid_t *uid);
bool fb_group_by_name(const char *name, gid_t *gid);
/* The name into buf (cut to len); false when unknown. */
bool fb_user_name(uid_t uid, char *buf, size_t len);
bool fb_group_name(gid_t gid, char *buf, size_t len);

/* ---- below the seam: shared by both sides ---- */

/* The first line of an /etc/passwd or /etc/group style file with this
 * name (or, name NULL, the id want: the third field in both): its id in
 * *id, its name in buf (cut to len; buf may be NULL).  false when there
 * is none, or the file cannot be read. */
bool account_etc_find(const char *file, const char *name, unsigned want, unsigned *id,
		      char *buf, size_t len);
/* Does nsswitch.conf text conf send database db ("group", "passwd") to
 * "files" first, with no action after it ([SUCCESS=continue] would let a
 * later service change the answer)?  Then a name found in the file is
 * the answer NSS gives.  false for anything else, and when db has no
 * line or more than one. */
bool account_files_first(const char *conf, const char *db);
/* The same for this system's /etc/nsswitch.conf; false when it cannot be
 * read or is over 64 KiB. */
bool account_files_first_here(const char *db);
