/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The plan (src/nodes-plan.c): pure, devices + rules in, the /dev/fbN
 * nodes and links that should exist out; with the name checks it relies
 * on.  Applying a plan is src/nodes.h.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fbclass.h"

struct fb_rule;
struct fb_rules;

#define NODE_NAME_MAX 64 /* "fb31"; DEVNAME is a single component */
#define NODE_PATH_MAX 256 /* "fb/by-name/<id>", "display/main" */
#define NODE_USER_MAX 64
/* Entries being made are named so; no device may take such a name. */
#define NODE_TMP_PREFIX ".fbclassctl-"

struct node_owner {
	uid_t uid;
	gid_t gid;
	mode_t mode; /* permission bits only, 07777 at most */
	char user[NODE_USER_MAX]; /* for messages and --dry-run */
	char group[NODE_USER_MAX];
};

struct node_entry {
	char name[NODE_NAME_MAX]; /* relative to the dev dir: "fb0" */
	dev_t devnum;
	struct node_owner own;
	/* The rule that matched (its fbmode=, console=, rotate=); NULL: none.
	 * Points into the rules given to nodes_plan(), valid while they are. */
	const struct fb_rule *rule;
};

struct node_link {
	char path[NODE_PATH_MAX]; /* relative: "fb/by-path/pci-0000:00:02.0" */
	char node[NODE_NAME_MAX]; /* the node it points to: "fb0" */
	unsigned minor; /* of that node; lowest wins a collision */
	uint32_t hash; /* str_hash(path): looked up for every link added */
};

struct node_plan {
	struct node_entry *nodes;
	size_t n_nodes;
	struct node_link *links;
	size_t n_links, cap_links;
	/* Node names of ignored devices: neither created nor pruned. */
	char (*kept)[NODE_NAME_MAX];
	size_t n_kept;
	/* Extra link names from the rules that no device got this time:
	 * pruned when they are still our symlinks. */
	char (*stale)[NODE_PATH_MAX];
	size_t n_stale;
};

/* One device as plan sees it: the scan copy and its id (fix.id, else the
 * sysfs "name"; NULL when neither is known). */
struct node_input {
	const struct fb_device *dev;
	const char *id;
	/* The connected connectors of its DRM card ("card0-Virtual-1"), each
	 * with its monitor's name (a trusted EDID's, else NULL): the
	 * fb/by-connector links, and the rules' connector= and monitor=. */
	const char *const *connectors;
	const char *const *monitors;
	size_t n_connectors;
};

/*
 * Wanted state for devices.  defaults is used where no rule sets owner,
 * group or mode; rules may be NULL.  Devices whose DEVNAME is not one
 * safe path component are skipped with a warning.  Returns 0 or -ENOMEM.
 */
int nodes_plan(const struct node_input *in, size_t n, const struct fb_rules *rules,
	       const struct node_owner *defaults, struct node_plan *plan);
void nodes_plan_free(struct node_plan *plan);
/* The link of plan at path ("fb/by-path/x"), or NULL. */
const struct node_link *nodes_plan_find_link(const struct node_plan *plan,
					     const char *path);

/* What link l holds, relative to its directory: "../../fb0" for
 * "fb/by-path/pci-0000:00:02.0".  Made when it is needed, not kept in the
 * plan: a target for each link made the array half again as large, and
 * its pages are faults of their own. */
void node_link_target(const struct node_link *l, char *buf, size_t size);

/* root:video 0660, or root:root 0600 when there is no video group (said
 * once, at info level). */
void nodes_plan_owner_defaults(struct node_owner *own);

/* "Bochs DRM" -> "Bochs_DRM": keep [A-Za-z0-9#+-.:=@_], replace the rest
 * with '_'; "." and ".." become "_" and "__".  False when the result would
 * be empty. */
bool nodes_plan_link_name_sanitize(const char *in, char *out, size_t len);
/* A name usable as /dev/<name>: one component, not "." or "..", no '/',
 * no control characters, shorter than NODE_NAME_MAX. */
bool nodes_plan_name_is_safe(const char *name);
