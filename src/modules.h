/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* libkmod: load display drivers for devices that have none bound. */

#include <stdbool.h>

/* Is this module path ("/lib/modules/V/kernel/drivers/gpu/drm/tiny/bochs.ko")
 * a display driver: under kernel/drivers/gpu/drm/ or kernel/drivers/video/? */
bool fb_module_path_is_display(const char *path);

/*
 * For each pci, platform and usb device with a modalias and no bound
 * driver, resolve the modalias and insert the display modules among the
 * matches, honouring blacklists.  With dry_run, print "modprobe NAME"
 * lines instead.  *n_loaded counts modules inserted (or to insert).
 * Returns 0, or -errno when libkmod or libudev could not start; a module
 * that fails to load is reported and skipped.
 */
int fb_modules_load_display(bool dry_run, unsigned *n_loaded);

/* Wait until the graphics class (names and dev numbers) has not changed
 * for quiet_ms, or timeout_ms passed.  Returns 0, or -ETIMEDOUT. */
int fb_class_settle(unsigned timeout_ms, unsigned quiet_ms);

/*
 * The daemon's add event of a pci, platform or usb device: read it from
 * sysfs now and, when it has a modalias and no driver bound, load the
 * display modules the modalias resolves to.  libkmod is started only
 * then, and let go before returning.  *n_loaded counts modules inserted.
 * Returns 0 or -errno.
 */
int fb_modules_load_for_device(const char *syspath, unsigned *n_loaded);
