/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The /dev/fbN nodes and their links: what should exist, and making it so.
 *
 * src/nodes-plan.h: nodes_plan() is pure, devices + rules in, wanted nodes
 * and links out; with the name checks it relies on.
 * src/nodes.c: node_sync(), node_prune() and node_remove() make a
 * directory (--dev DIR) match a plan, relative to one directory fd, never
 * following a symlink found there.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "nodes-plan.h"

enum {
	NODE_DRY_RUN = 1 << 0, /* print mknod/chown/chmod/ln/rm lines, change nothing */
	NODE_SAY_REMOVED = 1 << 1, /* print "removed PATH" for each entry removed */
};

/*
 * Make devdir (shown as devdir_shown in messages) hold plan's nodes and
 * links, then prune it as node_prune() does.  Every entry is tried;
 * returns 0 or the first -errno, each failure already reported.  A
 * directory at a wanted name is an error, left alone.  The link
 * directories made on the way hold only what was put there, and are not
 * read again to be pruned.
 */
int node_sync(int dirfd, const char *devdir_shown, const struct node_plan *plan,
	      unsigned flags);
/* Only the entries of one node (by name) and the links pointing to it;
 * nothing pruned. */
int node_apply_one(int dirfd, const char *devdir_shown, const struct node_plan *plan,
		   const char *node, unsigned flags);
/*
 * Remove what fbclassctl owns and the plan no longer wants: character
 * devices of the graphics major named fbN, symlinks under fb/by-*, and
 * stale rule links that are still our symlinks.  Returns 0 or -errno.
 */
int node_prune(int dirfd, const char *devdir_shown, const struct node_plan *plan,
	       unsigned flags);
/*
 * A device that left (hotplug's remove, unload): delete node name only
 * when it is a character device with devnum (when the name is free, the
 * links still go; when something else took it, nothing is touched), then
 * the links under fb/by-* and the rule links in plan->stale that point to
 * it as fbclassctl makes them ("../../fb1").  Returns 0 or -errno.
 */
int node_remove(int dirfd, const char *devdir_shown, const char *name, dev_t devnum,
		const struct node_plan *plan, unsigned flags);

/* --dev DIR: a usage error when DIR is empty, or exists and is not a
 * directory (said).  A DIR that does not exist is no error: its nodes are
 * missing, which the commands report.  0, -EINVAL or -ENOTDIR. */
int node_devdir_check(const char *dir);
/* Open dir for the *at() calls (O_RDONLY, O_DIRECTORY, O_CLOEXEC): the fd,
 * or -errno with errno kept for the caller's message. */
int node_dir_open(const char *dir);
