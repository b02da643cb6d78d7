/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * A rule's fbmode=, console= and rotate= on the device it matched, after
 * its node is made (coldplug, hotplug add), through the code of the
 * commands: set --mode (modeset.c), console map and console rotate
 * (console.c).  Order: the mode, then the consoles onto the fb, then the
 * rotation, so that the console in front is on the fb when it is rotated.
 */

#include <stdbool.h>

#include "fbclass.h"
#include "rules.h"

/* Does rule ask for any of them? */
bool rules_apply_wanted(const struct fb_rule *rule);

/* Apply them to dev; dry_run prints each as the command that does it
 * ("set fb1 --mode 800x600-16", "console map 1-63 fb1", "console rotate
 * 90") and does nothing.  Each failure is logged, naming dev and the
 * cause, and the next part is still tried.  0, or the first -errno. */
int rules_apply_device(const struct fb_rule *rule, const struct fb_device *dev,
		       const char *devdir, const char *sysroot, bool dry_run);
