/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * A driver handoff: fbN removed and registered again by another driver
 * (vesafb giving way to bochs-drm).  It is the moment that has oopsed
 * kernels: a process that still holds the old framebuffer holds freed
 * memory's owner.  The node manager tells it two ways, and says it in one
 * line naming both sides and the card, then names the processes that
 * still hold the node:
 * - the daemon remembers the driver each name last had (struct
 *   handoff_memory), across the remove and the add events;
 * - a coldplug, which remembers nothing, sees the links the last run made
 *   for the old framebuffer (fb/by-name/VESA_VGA -> ../../fb0) before it
 *   moves them.
 */

#include <stddef.h>

#include "fbclass.h"
#include "nodes.h"

#define HANDOFF_MEMORY_MAX 32

/* The driver each framebuffer name last had: bounded, no fd. */
struct handoff_memory {
	struct {
		char name[NODE_NAME_MAX];
		char driver[64];
	} e[HANDOFF_MEMORY_MAX];
	size_t n;
};

/* Compare list with what mem remembers, report each handoff, then
 * remember list's drivers (a name that left keeps its last driver, so
 * that its add event still compares). */
void handoff_check_memory(struct handoff_memory *mem, const struct fb_device_list *list,
			  const char *devdir);

/* Report each device of plan whose node has a by-name link (in devdir,
 * through dfd) of another id than plan gives it: what an earlier run
 * linked there was another framebuffer. */
void handoff_check_links(int dfd, const char *devdir, const struct fb_device_list *list,
			 const struct node_plan *plan);
