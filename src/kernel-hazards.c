/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The known kernel bugs, compiled in from src/kernel-hazards.tab: see
 * kernel-hazards.h. */
#include <string.h>

#include "kernel-hazards.h"
#include "kernel.h"
#include "log.h"
#include "macro.h"
#include "strutil.h"

const struct kernel_hazard kernel_hazards[] = {
#include "kernel-hazards-table.h"
};
const size_t n_kernel_hazards = ARRAY_SIZE(kernel_hazards);

/* The next number of a dotted version, 0 past its end or on junk. */
static unsigned long long next_part(const char **p)
{
	unsigned long long v = 0;
	const char *end;

	if (parse_decimal_prefix(*p, 1u << 20, &v, &end) < 0)
		v = 0, end = *p + strcspn(*p, ".");
	*p = *end == '.' ? end + 1 : end;
	return v;
}

int kernel_version_cmp(const char *a, const char *b)
{
	for (int i = 0; i < 3; i++) {
		unsigned long long x = next_part(&a), y = next_part(&b);

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

static bool in_list(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");

		if (len == n && strncmp(p, word, n) == 0)
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

bool kernel_hazard_applies(const struct kernel_hazard *h, const char *version,
			   const char *driver, const char *trigger)
{
	if (!version || !*version || !driver)
		return false;
	if (trigger && strcmp(h->trigger, trigger) != 0)
		return false;
	return in_list(h->drivers, driver) && kernel_version_cmp(version, h->kmin) >= 0 &&
	       kernel_version_cmp(version, h->kmax) <= 0;
}

const struct kernel_hazard *kernel_hazard_next(const char *version, const char *driver,
					       const char *trigger, size_t *i)
{
	while (*i < n_kernel_hazards) {
		const struct kernel_hazard *h = &kernel_hazards[(*i)++];

		if (kernel_hazard_applies(h, version, driver, trigger))
			return h;
	}
	return NULL;
}

unsigned kernel_hazards_warn(const struct fb_device *dev)
{
	const struct fb_parent *p = fb_device_parent(dev);
	const struct kernel_hazard *h;
	char version[32];
	unsigned n = 0;
	size_t i = 0;

	if (!p || !p->driver)
		return 0;
	kernel_upstream_version(version, sizeof(version));
	while ((h = kernel_hazard_next(version, p->driver, NULL, &i))) {
		WRN("%s: a known kernel bug of %s on %s (%s): %s; do not unbind or unload %s meanwhile",
		    dev->name, p->driver, version, h->id, h->description, p->driver);
		n++;
	}
	return n;
}
