/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The plan: devices and rules in, the nodes and links that should exist
 * out.  Pure, so that it is unit-tested with plain data and --dry-run can
 * print it; nodes_plan_owner_defaults() alone looks up a group.  Applying a plan
 * is src/nodes.c.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "account.h"
#include "log.h"
#include "macro.h"
#include "nodes-plan.h"
#include "rules.h"
#include "strutil.h"

bool nodes_plan_name_is_safe(const char *name)
{
	size_t len;

	if (!name)
		return false;
	len = strlen(name);
	if (len == 0 || len >= NODE_NAME_MAX)
		return false;
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return false;
	if (strncmp(name, NODE_TMP_PREFIX, strlen(NODE_TMP_PREFIX)) == 0)
		return false;
	for (const char *p = name; *p; p++) {
		unsigned char c = *p;

		if (c == '/' || c < 0x20 || c == 0x7f)
			return false;
	}
	return true;
}

bool nodes_plan_link_name_sanitize(const char *in, char *out, size_t len)
{
	size_t n = 0;

	if (!in || len < 3)
		return false;
	for (const char *p = in; *p && n + 1 < len; p++) {
		unsigned char c = *p;

		out[n++] = (isalnum(c) || strchr("#+-.:=@_", c)) ? (char)c : '_';
	}
	out[n] = '\0';
	if (n == 0)
		return false;
	if (strcmp(out, ".") == 0)
		strcpy(out, "_");
	else if (strcmp(out, "..") == 0)
		strcpy(out, "__");
	return true;
}

void nodes_plan_owner_defaults(struct node_owner *own)
{
	static bool said;
	gid_t video;
	bool have_video = fb_group_by_name("video", &video);

	memset(own, 0, sizeof(*own));
	strcpy(own->user, "root");
	if (have_video) {
		own->gid = video;
		own->mode = 0660;
		strcpy(own->group, "video");
		return;
	}
	own->mode = 0600;
	strcpy(own->group, "root");
	if (!said)
		WRN("no \"video\" group: framebuffer nodes are root:root 0600");
	said = true;
}

static const char *nearest_driver(const struct fb_device *dev)
{
	for (size_t i = 0; i < dev->n_parents; i++)
		if (dev->parents[i].driver)
			return dev->parents[i].driver;
	return NULL;
}

/* Every link added is looked up among those planned: 32 fbs give 66 that
 * share long prefixes ("fb/by-path/platform-"), where each strcmp() runs
 * far before it differs.  A hash first. */
static struct node_link *find_link_hashed(const struct node_plan *plan, const char *path,
					  uint32_t hash)
{
	for (size_t i = 0; i < plan->n_links; i++)
		if (plan->links[i].hash == hash && strcmp(plan->links[i].path, path) == 0)
			return &plan->links[i];
	return NULL;
}

static struct node_link *find_link(const struct node_plan *plan, const char *path)
{
	return find_link_hashed(plan, path, str_hash(path));
}

const struct node_link *nodes_plan_find_link(const struct node_plan *plan,
					     const char *path)
{
	return find_link(plan, path);
}

/* Add a link; on a collision the lowest minor keeps it.  Two devices
 * with one path id are worth a warning: only one gets its by-path link. */
static int plan_add_link(struct node_plan *plan, const char *path, const char *node,
			 unsigned minor)
{
	uint32_t hash = str_hash(path);
	struct node_link *l = find_link_hashed(plan, path, hash);

	if (l && strncmp(path, "fb/by-path/", 11) == 0 && strcmp(l->node, node) != 0)
		WRN("%s and %s share the path id %s: only %s gets %s", l->node, node,
		    path + 11, l->minor <= minor ? l->node : node, path);
	if (l && l->minor <= minor)
		return 0;
	if (!l && plan->n_links == plan->cap_links) {
		size_t cap = plan->cap_links ? 2 * plan->cap_links : 16;
		struct node_link *v = realloc(plan->links, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		plan->links = v;
		plan->cap_links = cap;
	}
	if (!l)
		l = &plan->links[plan->n_links++];
	memset(l, 0, sizeof(*l));
	str_copy(l->path, sizeof(l->path), path);
	l->hash = hash;
	str_copy(l->node, sizeof(l->node), node);
	l->minor = minor;
	return 0;
}

void node_link_target(const struct node_link *l, char *buf, size_t size)
{
	size_t n = 0;

	for (const char *p = l->path; *p && n + 4 < size; p++)
		if (*p == '/')
			n += str_copy(buf + n, size - n, "../");
	str_copy(buf + n, size - n, l->node);
}

static int plan_add_generated(struct node_plan *plan, const char *dir, const char *raw,
			      const char *node, unsigned minor)
{
	char name[NODE_PATH_MAX - 16];
	char path[NODE_PATH_MAX];

	if (!raw || !nodes_plan_link_name_sanitize(raw, name, sizeof(name)))
		return 0;
	str_concat(path, sizeof(path), dir, "/", name, (const char *)NULL);
	return plan_add_link(plan, path, node, minor);
}

static void owner_from_rule(struct node_owner *own, const struct node_owner *defaults,
			    const struct fb_rule *rule)
{
	*own = *defaults;
	if (!rule)
		return;
	if (rule->has_owner) {
		own->uid = rule->uid;
		snprintf(own->user, sizeof(own->user), "%s", rule->user);
	}
	if (rule->has_group) {
		own->gid = rule->gid;
		snprintf(own->group, sizeof(own->group), "%s", rule->group);
	}
	if (rule->has_mode)
		own->mode = rule->mode;
}

/* One device: its node (or, ignored by a rule, its name kept), its
 * generated links and its rule's links.  0 or -ENOMEM. */
static int plan_device(const struct node_input *in, const struct fb_rules *rules,
		       const struct node_owner *defaults, struct node_plan *plan)
{
	const struct fb_device *dev = in->dev;
	const char *name = dev->devname ? dev->devname : dev->name;
	unsigned minor = minor(dev->devnum);
	const struct fb_rule *rule;
	struct node_entry *e;
	int r;

	if (!nodes_plan_name_is_safe(name)) {
		WRN("%s: unsafe device name \"%s\": no node made", dev->name, name);
		return 0;
	}
	rule = fb_rules_match(rules, &(struct fb_rule_subject){
					     .name = dev->name,
					     .driver = nearest_driver(dev),
					     .path_id = dev->path_id,
					     .id = in->id,
					     .connectors = in->connectors,
					     .n_connectors = in->n_connectors,
					     .monitors = in->monitors,
					     .n_monitors = in->n_connectors,
				     });
	if (rule && rule->ignore) {
		str_copy(plan->kept[plan->n_kept++], NODE_NAME_MAX, name);
		return 0;
	}
	e = &plan->nodes[plan->n_nodes++];
	str_copy(e->name, sizeof(e->name), name);
	e->devnum = dev->devnum;
	owner_from_rule(&e->own, defaults, rule);
	e->rule = rule;
	r = plan_add_generated(plan, "fb/by-path", dev->path_id, name, minor);
	if (r < 0)
		return r;
	r = plan_add_generated(plan, "fb/by-name", in->id, name, minor);
	/* DRM's fbdev emulation shows on every connected connector */
	for (size_t j = 0; r == 0 && j < in->n_connectors; j++)
		r = plan_add_generated(plan, "fb/by-connector", in->connectors[j], name,
				       minor);
	for (size_t j = 0; r == 0 && rule && j < rule->n_links; j++)
		r = plan_add_link(plan, rule->links[j], name, minor);
	return r;
}

/* Rule links nobody got: candidates for pruning.  0 or -ENOMEM. */
static int plan_stale_links(const struct fb_rules *rules, struct node_plan *plan)
{
	for (size_t i = 0; rules && i < rules->n; i++) {
		const struct fb_rule *rule = &rules->rules[i];

		for (size_t j = 0; j < rule->n_links; j++) {
			const char *link = rule->links[j];
			bool dup = false;
			char(*v)[NODE_PATH_MAX];

			if (find_link(plan, link))
				continue;
			for (size_t k = 0; k < plan->n_stale && !dup; k++)
				dup = strcmp(plan->stale[k], link) == 0;
			if (dup)
				continue;
			v = realloc(plan->stale, (plan->n_stale + 1) * sizeof(*v));
			if (!v)
				return -ENOMEM;
			plan->stale = v;
			snprintf(plan->stale[plan->n_stale++], NODE_PATH_MAX, "%s", link);
		}
	}
	return 0;
}

int nodes_plan(const struct node_input *in, size_t n, const struct fb_rules *rules,
	       const struct node_owner *defaults, struct node_plan *plan)
{
	int r = 0;

	memset(plan, 0, sizeof(*plan));
	plan->nodes = calloc(n ? n : 1, sizeof(*plan->nodes));
	plan->kept = calloc(n ? n : 1, sizeof(*plan->kept));
	/* room for each one's by-path and by-name link, made once: growing
	 * by doubling copies, and touches pages that copy then leaves */
	plan->cap_links = 2 * n;
	plan->links = malloc((n ? plan->cap_links : 1) * sizeof(*plan->links));
	if (!plan->nodes || !plan->kept || !plan->links)
		r = -ENOMEM;
	for (size_t i = 0; r == 0 && i < n; i++)
		r = plan_device(&in[i], rules, defaults, plan);
	if (r == 0)
		r = plan_stale_links(rules, plan);
	if (r < 0)
		nodes_plan_free(plan);
	return r;
}

void nodes_plan_free(struct node_plan *plan)
{
	free(plan->nodes);
	free(plan->links);
	free(plan->kept);
	free(plan->stale);
	memset(plan, 0, sizeof(*plan));
}
