/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * waitnode PATH [TIMEOUT_MS]: wait until PATH exists and print how long
 * that took in microseconds; exit 1 after TIMEOUT_MS (default 5000).
 * The VM bench's clock for "modprobe returned" to "node made".
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

int main(int argc, char *argv[])
{
	long long start = now_us(), limit;
	struct timespec step = { 0, 200000 };

	if (argc < 2) {
		fprintf(stderr, "usage: waitnode PATH [TIMEOUT_MS]\n");
		return 2;
	}
	limit = (argc > 2 ? atoll(argv[2]) : 5000) * 1000;
	while (access(argv[1], F_OK) != 0) {
		if (now_us() - start > limit) {
			fprintf(stderr, "waitnode: %s: not there after %lld ms\n",
				argv[1], limit / 1000);
			return 1;
		}
		nanosleep(&step, NULL);
	}
	printf("%lld\n", now_us() - start);
	return 0;
}
