/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * auto's choice: from what the kernel tells of a framebuffer, how to do each
 * operation on it.  Pure: facts in, a path and the reason out (see bench.h).
 *
 * DRM's fbdev emulation (fix.id "<driver>drmfb") gives user space a shadow
 * in RAM under deferred I/O: each flush write-protects the pages again, so
 * every store into the mapping after one faults once per page, while
 * write(2) copies into the same shadow without a fault.  The kernel then
 * also hides the memory's address (smem_start 0).  Everywhere else the
 * mapping is the memory itself, and stores into it are the fast path.
 * Measured in the VM tier (tests/vm/scenarios/bench.sh checks it).
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool is_rect(const char *op)
{
	return strncmp(op, "rect", 4) == 0;
}

/* A frame copied whole between RAM and the device: one copy through the
 * node as through the mapping (a fill has no source; a scroll would read
 * and write). */
static bool whole_frame_copy(const char *op)
{
	return strcmp(op, "upload") == 0 || strcmp(op, "readback") == 0;
}

const char *fb_bench_path_name(enum fb_bench_path path, const char *op)
{
	switch (path) {
	case FB_BENCH_PATH_RW:
		return strcmp(op, "readback") == 0 ? "read" : "write";
	case FB_BENCH_PATH_SHADOW:
		return "shadow";
	case FB_BENCH_PATH_MAP:
		break;
	}
	return "mapping";
}

/* Behind a shadow under deferred I/O: said by the id or the kind, or by
 * an smem_start the kernel leaves 0 (vfb's is its vmalloc address; a
 * device of no kind is RAM in the tests). */
static bool is_deferred(const struct fb_bench_facts *f, const char **how)
{
	if (f->id && ends_with(f->id, "drmfb")) {
		*how = "DRM's fbdev emulation";
		return true;
	}
	if (f->kind && strcmp(f->kind, "drm") == 0) {
		*how = "a DRM driver's fbdev emulation";
		return true;
	}
	if (f->kind && f->smem_start == 0 && strcmp(f->kind, "virtual") != 0) {
		*how = "memory the kernel does not expose (smem_start 0)";
		return true;
	}
	return false;
}

void fb_bench_choose(const struct fb_bench_facts *f, const char *op,
		     struct fb_bench_choice *c)
{
	bool reading = strcmp(op, "readback") == 0;
	bool rw_ok = reading ? f->can_read : f->can_write;
	const char *id = f->id && *f->id ? f->id : "the device";
	const char *rw = reading ? "read(2)" : "write(2)";
	const char *how = NULL;

	if (!f->mapped) {
		c->path = FB_BENCH_PATH_RW;
		snprintf(c->why, sizeof(c->why),
			 "%s cannot be mapped: whole frames through %s", id, rw);
	} else if (whole_frame_copy(op) && rw_ok && f->kind &&
		   strcmp(f->kind, "virtual") == 0) {
		/* RAM either way, one copy either way; in the VM the kernel's
		 * copy ran 1.5-8x a mapping's memmove */
		c->path = FB_BENCH_PATH_RW;
		snprintf(c->why, sizeof(c->why),
			 "%s (%s) is RAM the kernel copies whole frames %s as fast as a mapping: %s",
			 id, f->kind, reading ? "from" : "to", rw);
	} else if (!is_deferred(f, &how)) {
		c->path = FB_BENCH_PATH_MAP;
		snprintf(c->why, sizeof(c->why),
			 "%s (%s, smem_start 0x%lx) maps its memory itself: stores reach it with no fault and no copy",
			 id, f->kind ? f->kind : "RAM", f->smem_start);
	} else if (is_rect(op)) {
		/* write(2) takes whole frames; a RAM shadow uploads whole rows,
		 * which lost to stores of the rect alone (0.02-0.15x on bochs) */
		c->path = FB_BENCH_PATH_MAP;
		snprintf(c->why, sizeof(c->why),
			 "%s is %s: a rect dirties a few pages, stored in place, where write(2) or a shadow would send whole rows",
			 id, how);
	} else if (!rw_ok) {
		c->path = FB_BENCH_PATH_MAP;
		snprintf(c->why, sizeof(c->why),
			 "%s is %s, but it refuses %s: the mapping", id, how, rw);
	} else {
		c->path = FB_BENCH_PATH_RW;
		snprintf(c->why, sizeof(c->why),
			 "%s is %s: a shadow under deferred I/O whose pages fault again after each flush; %s copies without faulting",
			 id, how, rw);
	}
}
