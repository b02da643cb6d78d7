/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the fill and copy kernels need to know of the CPU: its instruction
 * set extensions, its last-level cache, and from that the size past which
 * non-temporal stores pay.  See bench-cpu.h.
 */
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define BENCH_KERNEL_X86 1
#else
#define BENCH_KERNEL_X86 0
#endif

#include "bench-cpu.h"
#include "strutil.h"

/* ---- CPU features ---- */

/*
 * Asked of CPUID here, once, not with __builtin_cpu_supports(): that pulls
 * in libgcc's constructor, which runs CPUID a dozen times at every start,
 * a VM exit each under a hypervisor.  It cost 25 us of each coldplug
 * (about 1% of one of 32 fbs), for a question only bench asks.  Asked
 * once for all four: a 6 MB fill that paid a CPUID per call lost a
 * quarter of its speed.
 */
enum {
	CPU_AVX2 = 1 << 0, /* and the OS saves the YMM state (OSXSAVE, XCR0's
			    * SSE and AVX bits), as libgcc checks */
	CPU_SSE41 = 1 << 1,
	/* PREFETCHW (CPUID 0x80000001 ECX bit 8): every AMD64 CPU, Intel
	 * since Broadwell */
	CPU_PREFETCHW = 1 << 2,
	/* ERMS, fast rep movsb/stosb (CPUID 7 EBX bit 9).  glibc's memset
	 * takes rep stosb past 2 KiB only with it; without it (AMD Zen 1,
	 * for one) rep stosq filled 1 MiB at 18.6 GB/s where AVX2 stores
	 * reached 23.5. */
	CPU_ERMS = 1 << 3,
};

#if BENCH_KERNEL_X86
static unsigned long long xcr0(void)
{
	unsigned lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((unsigned long long)hi << 32) | lo;
}
#endif

static unsigned cpu_features(void)
{
#if BENCH_KERNEL_X86
	static int known = -1;
	unsigned a, b, c, d, f = 0;
	bool ymm = false;

	if (known >= 0)
		return (unsigned)known;
	if (__get_cpuid(1, &a, &b, &c, &d)) {
		if (c & bit_SSE4_1)
			f |= CPU_SSE41;
		ymm = (c & bit_OSXSAVE) && (c & bit_AVX) && (xcr0() & 6) == 6;
	}
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
		if (ymm && (b & bit_AVX2))
			f |= CPU_AVX2;
		if (b & (1u << 9))
			f |= CPU_ERMS;
	}
	if (__get_cpuid(0x80000001, &a, &b, &c, &d) && (c & bit_PRFCHW))
		f |= CPU_PREFETCHW;
	known = (int)f;
	return f;
#else
	return 0;
#endif
}

bool bench_kernel_cpu_has_avx2(void)
{
	return cpu_features() & CPU_AVX2;
}

bool bench_kernel_cpu_has_prefetchw(void)
{
	return cpu_features() & CPU_PREFETCHW;
}

bool bench_kernel_cpu_has_erms(void)
{
	return cpu_features() & CPU_ERMS;
}

bool bench_kernel_cpu_has_sse41(void)
{
	return cpu_features() & CPU_SSE41;
}

/* ---- cache size and the non-temporal threshold ---- */

static size_t llc_bytes;
static unsigned llc_sharers;
static size_t nt_threshold;

/* A CPU number at *s (digits only, below 65536), *s moved past it; -1 if none. */
static long cpu_number(const char **s)
{
	unsigned long long v;

	if (parse_decimal_prefix(*s, 65535, &v, s) < 0)
		return -1;
	return (long)v;
}

unsigned bench_kernel_cpulist_count(const char *s)
{
	unsigned n = 0;

	while (*s && *s != '\n') {
		long a = cpu_number(&s), b = a;

		if (a < 0)
			return 0;
		if (*s == '-') {
			s++;
			b = cpu_number(&s);
			if (b < a)
				return 0;
		}
		n += (unsigned)(b - a + 1);
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return 0;
	}
	return n;
}

static size_t read_cache_size(const char *dir)
{
	char path[256], buf[64];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/size", dir);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f)) {
		unsigned long long v;
		const char *end;

		if (parse_decimal_prefix(buf, SIZE_MAX >> 20, &v, &end) < 0)
			v = 0;
		if (*end == 'K')
			n = (size_t)v << 10;
		else if (*end == 'M')
			n = (size_t)v << 20;
		else
			n = (size_t)v;
	}
	fclose(f);
	return n;
}

size_t bench_kernel_llc_bytes(void)
{
	if (llc_bytes)
		return llc_bytes;
	/* The highest level that holds data is the last-level cache. */
	for (unsigned i = 0, best_level = 0; i < 16; i++) {
		char dir[128], path[160], buf[32];
		FILE *f;
		unsigned level = 0;

		snprintf(dir, sizeof(dir), "/sys/devices/system/cpu/cpu0/cache/index%u",
			 i);
		snprintf(path, sizeof(path), "%s/level", dir);
		f = fopen(path, "re");
		if (!f)
			break;
		if (fgets(buf, sizeof(buf), f)) {
			unsigned long long v;

			if (parse_decimal_prefix(buf, 16, &v, NULL) == 0)
				level = (unsigned)v;
		}
		fclose(f);
		snprintf(path, sizeof(path), "%s/type", dir);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
		if (strncmp(buf, "Instruction", 11) == 0 || level < best_level)
			continue;
		size_t n = read_cache_size(dir);
		if (n) {
			best_level = level;
			llc_bytes = n;
			snprintf(path, sizeof(path), "%s/shared_cpu_list", dir);
			llc_sharers = 0;
			f = fopen(path, "re");
			if (f) {
				if (fgets(buf, sizeof(buf), f))
					llc_sharers = bench_kernel_cpulist_count(buf);
				fclose(f);
			}
			if (!llc_sharers) /* no list, or a malformed one */
				llc_sharers = 1;
		}
	}
	if (!llc_bytes) {
		llc_bytes = 8u << 20;
		llc_sharers = 1;
	}
	return llc_bytes;
}

unsigned bench_kernel_llc_sharers(void)
{
	bench_kernel_llc_bytes();
	return llc_sharers;
}

size_t bench_kernel_nt_threshold(void)
{
	/*
	 * glibc's rule for memset and memcpy: 3/4 of the LLC's share per CPU
	 * that shares it.  Past that a frame does not stay in the cache from
	 * one fill to the next.  Measured here (8 MiB LLC, 2 CPUs: 3 MiB):
	 * AVX2 stores beat non-temporal ones up to 3 MiB (x1.1), and lost
	 * from 4 MiB on (x0.65, and x0.37 at 6 MiB).
	 */
	if (nt_threshold)
		return nt_threshold;
	return bench_kernel_llc_bytes() / 4 * 3 / bench_kernel_llc_sharers();
}

void bench_kernel_set_nt_threshold(size_t bytes)
{
	nt_threshold = bytes;
}
