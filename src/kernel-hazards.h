/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * Known kernel bugs around the framebuffer lifecycle: src/kernel-hazards.tab,
 * compiled in (a build step turns it into kernel-hazards-table.h), the one
 * table the VM tier, doctor, bench, snap, unload and the man page share.
 * See the table's head for what each field means.
 */

#include <stdbool.h>
#include <stddef.h>

#include "fbclass.h"

struct kernel_hazard {
	const char *id, *kmin, *kmax, *drivers, *trigger, *effect, *regex, *seen,
		*description;
};

extern const struct kernel_hazard kernel_hazards[];
extern const size_t n_kernel_hazards;

/* Pure.  Does the hazard apply to driver (one of its drivers) on kernel
 * version ("6.12.118": within [kmin, kmax]), for trigger (NULL: any)? */
bool kernel_hazard_applies(const struct kernel_hazard *h, const char *version,
			   const char *driver, const char *trigger);
/* The next hazard after *i that applies (start with *i = 0), or NULL. */
const struct kernel_hazard *kernel_hazard_next(const char *version, const char *driver,
					       const char *trigger, size_t *i);
/* Before a command maps the framebuffer of dev: one line for each known
 * kernel bug that applies to its driver on the running kernel, saying what
 * not to do meanwhile.  How many were said. */
unsigned kernel_hazards_warn(const struct fb_device *dev);

/* Pure.  Compare "6.1.176" and "6.1.192" numerically: <0, 0, >0. */
int kernel_version_cmp(const char *a, const char *b);
