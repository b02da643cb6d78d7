/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The rules file parser, and matching with what it parsed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fb_rules rules = {};
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (fb_rules_parse_string(text, "fuzz.conf", &rules) == 0) {
		static const char *const conns[] = { "card0-Virtual-1", "card0-DP-1" };
		static const char *const mons[] = { "QEMU Monitor", NULL };
		struct fb_rule_subject full = { "fb0",
						"bochs-drm",
						"pci-0000:00:02.0",
						"bochsdrmfb",
						conns,
						2,
						mons,
						2 };
		struct fb_rule_subject bare = { .name = "fb1" };

		(void)fb_rules_match(&rules, &full);
		(void)fb_rules_match(&rules, &bare);
	}
	fb_rules_free(&rules);
	free(text);
	return 0;
}
