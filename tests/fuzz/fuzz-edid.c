/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The EDID decoder on arbitrary bytes, as they come and with every whole
 * block's checksum made right (so that mutations get past the checksum
 * into the trusted paths).  Oracle: the contract of edid.h. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "edid.h"

static bool printable_text(const char *s, size_t size)
{
	const char *end = memchr(s, '\0', size);

	if (!end)
		return false;
	for (; s < end; s++)
		if (*s < 0x20 || *s > 0x7e)
			return false;
	return true;
}

static void check_contract(const uint8_t *data, size_t size)
{
	struct edid_info info, again;
	int r = edid_decode(data, size, &info);

	if (r != 0 && r != -ENODATA && r != -EBADMSG)
		__builtin_trap();
	/* trusted exactly when nothing is wrong; empty is its own answer */
	if ((r == 0) != (info.problems == 0) || (r == -ENODATA) != (size == 0))
		__builtin_trap();
	if (info.length != size || (info.problems & ~EDID_PROBLEM_ALL))
		__builtin_trap();
	for (unsigned bit = 0; bit < EDID_PROBLEM_COUNT; bit++)
		if ((info.problems & (1u << bit)) &&
		    (!edid_problem_name((enum edid_problem)(1u << bit)) ||
		     !edid_problem_describe((enum edid_problem)(1u << bit))))
			__builtin_trap();
	if (size < EDID_BLOCK_SIZE &&
	    info.problems != (size ? EDID_PROBLEM_SHORT : EDID_PROBLEM_EMPTY))
		__builtin_trap();
	if (info.decoded && (size < EDID_BLOCK_SIZE || info.version != 1))
		__builtin_trap();
	if (!info.decoded &&
	    (info.vendor[0] || info.name[0] || info.serial_text[0] || info.has_preferred))
		__builtin_trap();
	if (!printable_text(info.name, sizeof(info.name)) ||
	    !printable_text(info.serial_text, sizeof(info.serial_text)))
		__builtin_trap();
	if (info.vendor[0]) {
		for (int i = 0; i < 3; i++)
			if (info.vendor[i] < 'A' || info.vendor[i] > 'Z')
				__builtin_trap();
		if (info.vendor[3] != '\0')
			__builtin_trap();
	}
	if (info.has_preferred) {
		const struct edid_timing *t = &info.preferred;

		/* refresh can round to 0 (10 kHz over 8190 x 8190 pixels), but
		 * never exceed two fields per pixel clock */
		if (!t->hactive || !t->vactive || t->htotal < t->hactive ||
		    t->vtotal < t->vactive || !t->pixel_clock_khz ||
		    t->refresh_mhz > (uint64_t)t->pixel_clock_khz * 2000000)
			__builtin_trap();
	}
	if ((info.width_cm == 0) != (info.height_cm == 0) || info.week > 54)
		__builtin_trap();
	/* pure: the same bytes, the same answer */
	if (edid_decode(data, size, &again) != r ||
	    memcmp(&info, &again, sizeof(info)) != 0)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *fixed;

	check_contract(data, size);
	if (size < EDID_BLOCK_SIZE)
		return 0;
	fixed = malloc(size);
	if (!fixed)
		return 0;
	memcpy(fixed, data, size);
	for (size_t b = 0; b + EDID_BLOCK_SIZE <= size; b += EDID_BLOCK_SIZE) {
		uint8_t sum = 0;

		for (size_t i = 0; i < EDID_BLOCK_SIZE - 1; i++)
			sum += fixed[b + i];
		fixed[b + EDID_BLOCK_SIZE - 1] = (uint8_t)(0x100 - sum);
	}
	check_contract(fixed, size);
	free(fixed);
	return 0;
}
