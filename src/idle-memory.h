/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * What a long-lived process gives back once its start-up work is done.
 *
 * In an initramfs every page a process maps is RAM nobody else shares:
 * the code a coldplug ran once (option parsing, the scan, the plan,
 * module loading) would stay mapped for the daemon's whole life, in
 * 64 KiB windows (the kernel's fault-around), though its event loop runs
 * in a few of them.  fb_idle_memory_release() unmaps the pages of every
 * private read-only file mapping (code, read-only data) not one page of
 * which was written (a relocated RELRO page was: that mapping stays): the
 * file still has them all, and what runs again faults back in.  It
 * returns the heap's free memory to the kernel, and drops the stack pages
 * well below the caller's frame.
 * Single-threaded callers only, outside a signal handler.
 */

void fb_idle_memory_release(void);
