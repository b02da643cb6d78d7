/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * Who holds a framebuffer: processes with an open fd on its node or a
 * mapping of it (/proc/PID/fd, /proc/PID/maps and map_files), and kernel
 * users (fbcon bound through a vtconsole).
 *
 * The scan holds no fd beyond one stat or one read: every value it returns
 * is a copy, and a process that exits mid-scan is simply not listed.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fbclass.h"

/* One framebuffer to look for. */
struct fb_holder_target {
	const char *name; /* "fb1" */
	dev_t rdev; /* 29:1 */
	/* Identity (st_dev, st_ino) of the node under --dev, to recognise a
	 * mapping in maps when map_files cannot be read; has_node false if
	 * there is no correct node. */
	bool has_node;
	dev_t node_dev;
	ino_t node_ino;
};

#define FB_HOLDER_MAX_FDS 16

/* One process holding one target. */
struct fb_holder {
	size_t target; /* index into the targets array */
	pid_t pid;
	char comm[32];
	int fds[FB_HOLDER_MAX_FDS]; /* open fds on the node, ascending */
	size_t n_fds;
	size_t n_fds_more; /* fds beyond FB_HOLDER_MAX_FDS */
	uint64_t mmap_bytes; /* sum of the mappings' sizes */
	size_t n_mappings;
};

struct fb_holder_list {
	struct fb_holder *holders; /* by pid, then target */
	size_t n;
	/* Processes whose fd table or maps could not be read (EACCES or
	 * EPERM, typically when not root), and the first such pid. */
	size_t n_uninspectable;
	pid_t first_uninspectable;
	size_t n_processes; /* processes looked at */
};

/* Scan procdir (normally "/proc") for processes holding any of targets.
 * Our own process is skipped.  Returns 0 or -errno when procdir itself
 * cannot be read. */
int fb_holders_scan(const char *procdir, const struct fb_holder_target *targets, size_t n,
		    struct fb_holder_list *out);
void fb_holder_list_free(struct fb_holder_list *list);
/* Number of holders of target index t. */
size_t fb_holders_count(const struct fb_holder_list *list, size_t t);

/* "fd 3,5, mmap 4096000 bytes" */
char *fb_holder_describe(const struct fb_holder *h, char *buf, size_t len);

/* Fill a target from a scanned device and the node under devdir. */
void fb_holder_target_init(struct fb_holder_target *t, const struct fb_device *dev,
			   const char *devdir);
/* The same for any character device: name, rdev, and its node's path
 * (used when that is the right node). */
void fb_holder_target_chrdev(struct fb_holder_target *t, const char *name, dev_t rdev,
			     const char *node_path);

/* ---- DRM master: /sys/kernel/debug/dri/MINOR/clients ---- */

/* One line of the clients file ("command tgid dev master a uid magic"). */
struct drm_client {
	char command[32];
	pid_t pid;
	bool master;
	bool authenticated;
	unsigned uid;
};
/* Pure.  One line; the heading is not a client.  0, or -EINVAL. */
int drm_client_parse_line(const char *line, struct drm_client *c);
/* The clients of DRM minor minor, under debugfs (normally
 * /sys/kernel/debug).  0, or -errno: -ENOENT when debugfs is not mounted
 * there or the card has no such file, -EACCES when it is not readable. */
int drm_clients_read(const char *debugfs, unsigned minor, struct drm_client **v,
		     size_t *n);

/* ---- kernel users ---- */

/* A vtconsole driven by fbcon ("frame buffer device"). */
struct fb_fbcon_state {
	bool present; /* a vtconsole with a frame buffer name exists */
	bool bound; /* its "bind" reads 1 */
	char vtcon[256]; /* "vtcon1" */
};

/* Read /sys/class/vtconsole (under sysroot, normally "/sys").  Returns 0
 * or -errno; a system without vtconsoles is present == false. */
int fb_fbcon_read(const char *sysroot, struct fb_fbcon_state *st);
/* Consoles (first..last, 1-based) fbcon maps to the framebuffer of dev,
 * asked through FBIOGET_CON2FBMAP on a briefly opened node.  Returns the
 * number of consoles (0 when none) or -errno. */
int fb_fbcon_consoles(const struct fb_device *dev, const char *devdir, unsigned *first,
		      unsigned *last);
/* Write 1 or 0 to the vtconsole's bind file.  Returns 0 or -errno. */
int fb_fbcon_set_bind(const char *sysroot, const struct fb_fbcon_state *st, bool bind);

/* ---- pure parsers (unit-tested with fake text) ---- */

struct fb_maps_entry {
	uint64_t start, end, offset;
	char perms[5];
	unsigned dev_major, dev_minor; /* hex in the text */
	uint64_t inode;
	const char *path; /* into the line, may be "" ; trailing newline removed */
};

/* One line of /proc/PID/maps: "start-end perms offset MAJ:MIN inode  path".
 * line is modified (the newline is cut).  Returns 0 or -EINVAL. */
int fb_maps_parse_line(char *line, struct fb_maps_entry *e);
/* True when a maps path ends in " (deleted)". */
bool fb_maps_path_deleted(const char *path);
/* The name of a vtconsole is fbcon when it says "frame buffer device". */
bool fb_vtcon_name_is_fbcon(const char *name);
/* A /proc entry name that is a pid: all digits, no leading zero. */
bool fb_proc_name_is_pid(const char *name, pid_t *pid);
