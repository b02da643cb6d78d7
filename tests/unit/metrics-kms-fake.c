/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* metrics-kms.h: kms-fake.c's answers behind a header free of libdrm's. */
#include <string.h>

#include "kms-fake.h"
#include "metrics-kms.h"

static char dir[512];

int metrics_kms_load(const char *name)
{
	return kms_fake_load(name, dir, sizeof(dir));
}

void metrics_kms_link_bad(void)
{
	json_object_object_foreach(kms_fake.root, key, c)
	{
		json_object *conns = NULL;

		(void)key;
		json_object_object_get_ex(c, "connectors", &conns);
		for (size_t i = 0; conns && i < json_object_array_length(conns); i++) {
			json_object *props = NULL, *prop = NULL;

			json_object_object_get_ex(json_object_array_get_idx(conns, i),
						  "properties", &props);
			if (json_object_object_get_ex(props, "link-status", &prop))
				json_object_object_add(prop, "raw_value",
						       json_object_new_int64(1));
		}
	}
}

int metrics_kms_read(struct kms_card *card, bool no_debugfs, char *reason,
		     size_t reason_len)
{
	int r;

	memset(card, 0, sizeof(*card));
	r = kms_read_card(&kms_fake_ops, -1, card, reason, reason_len);
	if (r == 0)
		kms_owner_resolve(card, no_debugfs ? "/nonexistent" : dir);
	return r;
}
