/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * modules.alias and modules.dep read without libkmod, for the static
 * build's module loading: the same lookup libkmod does for a
 * modalias (fnmatch(3) on each "alias PATTERN NAME" line of modules.alias
 * and modules.builtin.alias), and each match's path from modules.dep, so
 * that fb_module_path_is_display() can judge it as it judges libkmod's.
 *
 * The module directory is /lib/modules/$(uname -r), or the environment
 * variable FBCLASSCTL_MODULE_DIR (for tests only; libkmod's backend reads it too).
 */

#include <stddef.h>

/* One match: name as modprobe takes it ("bochs"), path as modules.dep
 * gives it, made absolute ("/lib/modules/V/kernel/.../bochs.ko.xz"), or
 * NULL for a built-in module. */
typedef void (*fb_modalias_fn)(const char *name, const char *path, void *userdata);

/* The module directory into buf.  0, or -ENAMETOOLONG (reported). */
int fb_module_dir(char *buf, size_t len);

/* Call fn for each module whose pattern matches alias, each name once.
 * Returns the number of matches, or -errno (reported as FILE: cause);
 * a malformed line is reported as FILE:LINE and skipped. */
int fb_modalias_lookup(const char *moddir, const char *alias, fb_modalias_fn fn,
		       void *userdata);
