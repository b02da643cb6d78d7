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
	unsigned long code_kb, stack_kb;
};

/* One line of /proc/self/maps: "start-end perms offset dev inode path". */
static void release_mapping(const char *line, uintptr_t sp, struct maps_total *t)
{
	uintptr_t start, end, page = (uintptr_t)sysconf(_SC_PAGESIZE);
	unsigned long long inode;
	char perms[8];
	int path = 0;

	if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s %*s %*s %llu %n", &start, &end,
		   perms, &inode, &path) < 4)
		return;
	if (strcmp(perms, "r-xp") == 0 && inode != 0) {
		/* Private, executable, never written: the file has it all. */
		if (madvise((void *)start, end - start, MADV_DONTNEED) == 0)
			t->code_kb += (end - start) / 1024;
	} else if (path && strncmp(line + path, "[stack]", 7) == 0 && sp < end &&
		   sp > start + STACK_KEEP) {
		/* (under valgrind the frame is elsewhere: nothing dropped) */
		uintptr_t top = (sp - STACK_KEEP) & ~(page - 1);

		if (top > start && madvise((void *)start, top - start, MADV_DONTNEED) == 0)
			t->stack_kb += (top - start) / 1024;
	}
}

void fb_idle_memory_release(void)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	_cleanup_close_ int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	struct maps_total t = {};
	char buf[4096];
	size_t have = 0;

	malloc_trim(0);
	if (fd < 0)
		return; /* no /proc: nothing to learn the mappings from */
	for (;;) {
		ssize_t n = read(fd, buf + have, sizeof(buf) - 1 - have);
		char *line = buf, *nl;

		if (n <= 0)
			break;
		have += (size_t)n;
		buf[have] = '\0';
		while ((nl = strchr(line, '\n'))) {
			*nl = '\0';
			release_mapping(line, sp, &t);
			line = nl + 1;
		}
		have = (size_t)(buf + have - line);
		memmove(buf, line, have);
		if (have == sizeof(buf) - 1)
			have = 0; /* a line longer than the buffer: skipped */
	}
	DBG("idle: unmapped %lu kB of code mappings and %lu kB of stack; heap trimmed",
	    t.code_kb, t.stack_kb);
}
