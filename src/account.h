/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * Users and groups: through NSS (src/account-nss.c, the default), or read
 * from /etc/passwd and /etc/group (src/account-files.c, the static build:
 * static glibc cannot load NSS modules, and an initramfs has none).
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
