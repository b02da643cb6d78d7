/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Memory given back after start-up: see idle-memory.h. */
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "holders.h"
#include "idle-memory.h"
#include "log.h"
#include "macro.h"
#include "strutil.h"

/* Below the caller's frame, what its next calls may use is kept. */
#define STACK_KEEP (64u * 1024)

struct maps_total {
	unsigned long file_kb, stack_kb;
};

/* One mapping of /proc/self/smaps, from its first line to VmFlags. */
struct mapping {
	uintptr_t start, end;
	bool file_ro; /* private, not writable, of a file */
	bool stack;
	unsigned long anon_kb; /* its pages written since (COW copies) */
};

/* A mapping's first line ("start-end perms offset dev inode path"), parsed
 * as holders reads /proc/PID/maps. */
static bool mapping_start(char *line, struct mapping *m)
{
	struct fb_maps_entry e;

	if (fb_maps_parse_line(line, &e) < 0)
		return false;
	m->start = (uintptr_t)e.start;
	m->end = (uintptr_t)e.end;
	m->file_ro = e.inode != 0 && e.perms[1] != 'w' && e.perms[3] == 'p';
	m->stack = strcmp(e.path, "[stack]") == 0;
	m->anon_kb = 0;
	return true;
}

/* The mapping is whole: give back what can be. */
static void release_mapping(const struct mapping *m, uintptr_t sp, struct maps_total *t)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

	if (m->file_ro && m->anon_kb == 0) {
		/* Not one page differs from the file (none was written, as a
		 * relocated RELRO page is): what runs again faults back in. */
		if (madvise((void *)m->start, m->end - m->start, MADV_DONTNEED) == 0)
			t->file_kb += (m->end - m->start) / 1024;
	} else if (m->stack && sp < m->end && sp > m->start + STACK_KEEP) {
		/* (under valgrind the frame is elsewhere: nothing dropped) */
		uintptr_t top = (sp - STACK_KEEP) & ~(page - 1);

		if (top > m->start &&
		    madvise((void *)m->start, top - m->start, MADV_DONTNEED) == 0)
			t->stack_kb += (top - m->start) / 1024;
	}
}

static void smaps_line(char *line, uintptr_t sp, struct mapping *m, bool *have,
		       struct maps_total *t)
{
	if (!*have) {
		*have = mapping_start(line, m);
	} else if (strncmp(line, "Anonymous:", 10) == 0) {
		const char *p = line + 10;
		unsigned long long kb;

		while (*p == ' ')
			p++;
		/* unreadable: taken as written, so the mapping is kept */
		m->anon_kb = parse_decimal_prefix(p, ULONG_MAX, &kb, NULL) == 0 ? kb : 1;
	} else if (strncmp(line, "VmFlags:", 8) == 0) {
		release_mapping(m, sp, t);
		*have = false;
	}
}

void fb_idle_memory_release(void)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	_cleanup_close_ int fd = open("/proc/self/smaps", O_RDONLY | O_CLOEXEC);
	struct maps_total t = {};
	struct mapping m = {};
	bool have = false;
	char buf[4096];
	size_t len = 0;

	malloc_trim(0);
	if (fd < 0)
		return; /* no /proc: nothing to learn the mappings from */
	for (;;) {
		ssize_t n = read(fd, buf + len, sizeof(buf) - 1 - len);
		char *line = buf, *nl;

		if (n <= 0)
			break;
		len += (size_t)n;
		buf[len] = '\0';
		while ((nl = strchr(line, '\n'))) {
			*nl = '\0';
			smaps_line(line, sp, &m, &have, &t);
			line = nl + 1;
		}
		len = (size_t)(buf + len - line);
		memmove(buf, line, len);
		if (len == sizeof(buf) - 1)
			len = 0; /* a line longer than the buffer: skipped */
	}
	DBG("idle: unmapped %lu kB of read-only file mappings and %lu kB of stack; heap trimmed",
	    t.file_kb, t.stack_kb);
}
