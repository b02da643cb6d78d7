/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The path id builder, fed an arbitrary parent chain written as a sysfs
 * path: "/devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1.2:1.0", where the
 * first byte of each component (mod 5) picks its subsystem. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fbclass.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const subsystems[] = { NULL, "pci", "platform", "usb", "acpi" };
	struct fb_path_elem chain[64];
	char *text = malloc(size + 1), *save = NULL, *tok;
	size_t n = 0;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (tok = strtok_r(text, "/", &save); tok && n < 64;
	     tok = strtok_r(NULL, "/", &save)) {
		chain[n].subsystem = subsystems[(unsigned char)tok[0] % 5];
		chain[n].sysname = tok + 1;
		n++;
	}
	char *id = fb_path_id_build(chain, n);
	if (id) {
		/* A path id is one non-empty file name under /dev/fb/by-path. */
		if (!*id || strcmp(id, ".") == 0 || strcmp(id, "..") == 0)
			__builtin_trap();
		if (strncmp(id, "pci-", 4) && strncmp(id, "platform-", 9) &&
		    strncmp(id, "usb-0:", 6) && strncmp(id, "acpi-", 5))
			__builtin_trap();
	}
	free(id);
	free(text);
	return 0;
}
