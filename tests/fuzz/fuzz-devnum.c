/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The strict "dev" parser.  Oracle: whatever it accepts prints back as the
 * same text, less the one newline allowed at the end. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "fbclass.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), back[64];
	dev_t d;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (fb_parse_devnum(text, &d) == 0) {
		size_t len = strlen(text);

		if (len && text[len - 1] == '\n')
			text[--len] = '\0';
		snprintf(back, sizeof(back), "%u:%u", major(d), minor(d));
		if (strcmp(back, text) != 0 || major(d) > FB_DEVNUM_MAJOR_MAX ||
		    minor(d) > FB_DEVNUM_MINOR_MAX)
			__builtin_trap();
	}
	free(text);
	return 0;
}
