/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The kernel's uevent message as it arrives on NETLINK_KOBJECT_UEVENT:
 * "ACTION@DEVPATH\0ACTION=add\0DEVPATH=...\0SUBSYSTEM=...\0...".  Pure: the
 * caller checks who sent it (nl_pid 0, uid 0) before it gets here.
 */

#include <stddef.h>

#include "uevent.h"

/*
 * Check the layout and point env into buf.  Accepted: a header
 * "action@/devpath", then KEY=VALUE fields with KEY of [A-Z0-9_], every
 * field NUL-terminated (a message cut short is rejected), no key twice,
 * ACTION and DEVPATH agreeing with the header.  libudev's own messages
 * ("libudev\0" magic) are not kernel messages and are rejected.
 * Returns 0, or -EINVAL with why filled.
 */
int uevent_message_parse(const char *buf, size_t len, struct fb_uevent_env *env,
			 char *why, size_t whylen);
