/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The CPU as the fill and copy kernels see it (src/bench-cpu.c). */

#include <stdbool.h>
#include <stddef.h>

/* Instruction set extensions a kernel needs; false off x86. */
bool bench_kernel_cpu_has_avx2(void);
bool bench_kernel_cpu_has_sse41(void);
/* PREFETCHW, for the -pfw kernels. */
bool bench_kernel_cpu_has_prefetchw(void);
/* Fast rep movsb/stosb (ERMS): AUTO fills with rep stosq only then. */
bool bench_kernel_cpu_has_erms(void);

/* Size of the last-level cache in bytes from sysfs (cpu0), 8 MiB if unknown. */
size_t bench_kernel_llc_bytes(void);
/* How many CPUs share it (its shared_cpu_list), 1 if unknown. */
unsigned bench_kernel_llc_sharers(void);
/* How many CPUs a sysfs cpulist such as "0-3,8-11\n" names; 0 if malformed. */
unsigned bench_kernel_cpulist_count(const char *s);
/* Working sets at least this large go past the cache: non-temporal stores pay. */
size_t bench_kernel_nt_threshold(void);
void bench_kernel_set_nt_threshold(size_t bytes); /* 0 restores the default */
