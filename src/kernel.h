/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * What the running kernel says about framebuffers, beyond the devices:
 * the module parameters that switch DRM's fbdev emulation off, the kernel
 * command line, and the build configuration.  Each read is open, read,
 * close; the results are copies.  The paths can be moved for tests
 * (doctor's --proc and --boot); /sys is where umockdev puts it.
 */

#include <stdbool.h>
#include <stddef.h>

/* A module parameter as text without its newline ("0", "Y", "fbdev"),
 * from /sys/module/MODULE/parameters/NAME.  NULL when the module or the
 * parameter is not there (or on ENOMEM: errno tells). */
char *kernel_module_param(const char *module, const char *name);

/* drm_kms_helper.fbdev_emulation: 1 on, 0 off, -1 unknown (not loaded, no
 * such parameter, or a value that is neither a boolean nor a number). */
int kernel_fbdev_emulation(void);

/* The kernel command line, /proc/cmdline under proc_dir, without its
 * newline: malloc'd, or NULL (unreadable; errno tells). */
char *kernel_cmdline(const char *proc_dir);
/* Pure.  The value of the last "key=value" word of cmdline for key
 * ("video" gives "1024x768" of "video=1024x768"), "" for a bare "key", NULL
 * when absent.  Writes into buf (truncated at len - 1). */
const char *kernel_cmdline_value(const char *cmdline, const char *key, char *buf,
				 size_t len);

/* The build configuration of the running kernel: boot_dir/config-RELEASE
 * (Debian installs it), else proc_dir/config.gz (CONFIG_IKCONFIG_PROC;
 * read through libz, dlopen()ed). */
struct kernel_config {
	char *text; /* the whole file; NULL when none could be read */
	char source[256]; /* which file it came from */
};
/* 0, or -ENOENT when neither file can be read (c->text NULL), -ENOMEM. */
int kernel_config_read(struct kernel_config *c, const char *boot_dir,
		       const char *proc_dir);
/* Pure.  One option, name without "CONFIG_" ("FB_DEVICE"): 'y', 'm', 'n'
 * (set to n, or "# CONFIG_X is not set"), or 0 when the text does not
 * name it (or there is none). */
char kernel_config_value(const struct kernel_config *c, const char *name);
void kernel_config_free(struct kernel_config *c);

/* uname -r, into buf.  "" when unknown. */
const char *kernel_release(char *buf, size_t len);
/* Pure.  The upstream version MAJOR.MINOR.PATCH of a kernel from uname's
 * release and version strings: Debian's "Debian 6.1.192-3" in the version
 * (its release says only 6.1.0-57-amd64), else the release's leading
 * numbers ("6.12.118+deb13-amd64" gives 6.12.118).  "" when neither says. */
const char *kernel_upstream_from_uname(const char *release, const char *version,
				       char *buf, size_t len);
/* The same for the running kernel. */
const char *kernel_upstream_version(char *buf, size_t len);
