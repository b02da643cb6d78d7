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
		(void)fb_rules_match(&rules, "fb0", "bochs-drm", "pci-0000:00:02.0",
				     "bochsdrmfb");
		(void)fb_rules_match(&rules, "fb1", NULL, NULL, NULL);
	}
	fb_rules_free(&rules);
	free(text);
	return 0;
}
