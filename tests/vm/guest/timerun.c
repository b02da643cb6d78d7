/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * timerun OUT CMD [ARG...]: run CMD and append "WALL_US CPU_US STATUS" to
 * OUT: the time from fork to its reaping on CLOCK_MONOTONIC, the CPU time
 * the kernel charged to it and to the children it waited for (rusage's
 * utime + stime, which Linux scales to the scheduler's exact run time), and
 * its exit status (128 + N for signal N).  Exits with that status.  The VM
 * bench's clock for one coldplug run: no shell and no date(1) inside the
 * timed interval, and a microsecond resolution.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static long long tv_us(struct timeval tv)
{
	return tv.tv_sec * 1000000LL + tv.tv_usec;
}

int main(int argc, char *argv[])
{
	struct rusage ru;
	long long t0, t1;
	int status, code;
	FILE *out;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: timerun OUT CMD [ARG...]\n");
		return 2;
	}
	out = fopen(argv[1], "ae"); /* not inherited by CMD */
	if (!out) {
		fprintf(stderr, "timerun: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	t0 = now_us();
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "timerun: fork: %s\n", strerror(errno));
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "timerun: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "timerun: wait4: %s\n", strerror(errno));
			return 2;
		}
	}
	t1 = now_us();
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	fprintf(out, "%lld %lld %d\n", t1 - t0, tv_us(ru.ru_utime) + tv_us(ru.ru_stime),
		code);
	if (fclose(out) != 0) {
		fprintf(stderr, "timerun: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	return code;
}
