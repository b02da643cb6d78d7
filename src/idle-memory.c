/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Memory given back after start-up: see idle-memory.h. */
#include <fcntl.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "idle-memory.h"
#include "log.h"
#include "macro.h"

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

/* "start-end perms offset dev inode path": a mapping's first line. */
static bool mapping_start(const char *line, struct mapping *m)
{
	unsigned long long inode;
	char perms[8];
	int path = 0;

	if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s %*s %*s %llu %n", &m->start,
		   &m->end, perms, &inode, &path) < 4)
		return false;
	m->file_ro = inode != 0 && perms[1] != 'w' && perms[3] == 'p';
	m->stack = path && strncmp(line + path, "[stack]", 7) == 0;
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

static void smaps_line(const char *line, uintptr_t sp, struct mapping *m, bool *have,
		       struct maps_total *t)
{
	if (!*have) {
		*have = mapping_start(line, m);
	} else if (strncmp(line, "Anonymous:", 10) == 0) {
		sscanf(line + 10, "%lu", &m->anon_kb);
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
