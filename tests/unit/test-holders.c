/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* holders: the maps parser, and a scan of a fake /proc tree. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "holders.h"
#include "test.h"

static void test_maps_parser(void)
{
	struct fb_maps_entry e;
	char l1[] =
		"7f3a1c000000-7f3a1c3e8000 rw-s 00000000 00:05 17                         "
		"/dev/fb0\n";
	char l2[] =
		"55d0c0a00000-55d0c0a21000 rw-p 00000000 00:00 0                          "
		"[heap]";
	char l3[] =
		"7ffd1000-7ffd2000 r--p 00001000 fe:01 1234567 /usr/lib/x.so (deleted)";
	char l4[] = "00400000-00401000 r-xp 00000000 1d:01 9";
	char bad1[] = "7f3a1c000000 rw-s 00000000 00:05 17 /dev/fb0";
	char bad2[] = "2000-1000 rw-s 00000000 00:05 17 /dev/fb0";
	char bad3[] = "1000-2000 rwzs 00000000 00:05 17 /dev/fb0";
	char bad4[] = "1000-2000 rw-s 00000000 00:05 x17 /dev/fb0";
	char bad5[] = "1000-2000 rw-s 00000000 0005 17 /dev/fb0";
	char bad6[] = "1000-2000 rw-s 00000000 00:05 17x /dev/fb0";
	char bad7[] = "";
	char bad8[] = "11112222333344445-11112222333344446 rw-s 0 00:05 1 /x";

	ASSERT_INT_EQ(fb_maps_parse_line(l1, &e), 0);
	ASSERT_INT_EQ(e.start, 0x7f3a1c000000ull);
	ASSERT_INT_EQ(e.end - e.start, 4096000);
	ASSERT_STR_EQ(e.perms, "rw-s");
	ASSERT_INT_EQ(e.offset, 0);
	ASSERT_INT_EQ(e.dev_major, 0);
	ASSERT_INT_EQ(e.dev_minor, 5);
	ASSERT_INT_EQ(e.inode, 17);
	ASSERT_STR_EQ(e.path, "/dev/fb0");

	ASSERT_INT_EQ(fb_maps_parse_line(l2, &e), 0);
	ASSERT_INT_EQ(e.inode, 0);
	ASSERT_STR_EQ(e.path, "[heap]");

	ASSERT_INT_EQ(fb_maps_parse_line(l3, &e), 0);
	ASSERT_INT_EQ(e.offset, 0x1000);
	ASSERT_INT_EQ(e.dev_major, 0xfe);
	ASSERT_INT_EQ(e.dev_minor, 1);
	ASSERT_INT_EQ(e.inode, 1234567);
	ASSERT_TRUE(fb_maps_path_deleted(e.path));

	ASSERT_INT_EQ(fb_maps_parse_line(l4, &e), 0);
	ASSERT_INT_EQ(e.dev_major, 0x1d);
	ASSERT_STR_EQ(e.path, "");
	ASSERT_TRUE(!fb_maps_path_deleted(e.path));

	ASSERT_INT_EQ(fb_maps_parse_line(bad1, &e), -EINVAL);
	ASSERT_INT_EQ(fb_maps_parse_line(bad2, &e), -EINVAL);
	ASSERT_INT_EQ(fb_maps_parse_line(bad3, &e), -EINVAL);
	ASSERT_INT_EQ(fb_maps_parse_line(bad4, &e), -EINVAL);
	ASSERT_INT_EQ(fb_maps_parse_line(bad5, &e), -EINVAL);
	ASSERT_INT_EQ(fb_maps_parse_line(bad6, &e), -EINVAL);
	ASSERT_INT_EQ(fb_maps_parse_line(bad7, &e), -EINVAL);
	ASSERT_INT_EQ(fb_maps_parse_line(bad8, &e), -EINVAL);
}

static void test_small_parsers(void)
{
	pid_t pid = 0;

	ASSERT_TRUE(fb_proc_name_is_pid("1", &pid));
	ASSERT_INT_EQ(pid, 1);
	ASSERT_TRUE(fb_proc_name_is_pid("4194304", &pid));
	ASSERT_INT_EQ(pid, 4194304);
	ASSERT_TRUE(!fb_proc_name_is_pid("self", NULL));
	ASSERT_TRUE(!fb_proc_name_is_pid("0", NULL));
	ASSERT_TRUE(!fb_proc_name_is_pid("012", NULL));
	ASSERT_TRUE(!fb_proc_name_is_pid("", NULL));
	ASSERT_TRUE(!fb_proc_name_is_pid("12a", NULL));
	ASSERT_TRUE(!fb_proc_name_is_pid("99999999999", NULL));

	ASSERT_TRUE(fb_vtcon_name_is_fbcon("(M) frame buffer device"));
	ASSERT_TRUE(fb_vtcon_name_is_fbcon("(S) frame buffer device"));
	ASSERT_TRUE(!fb_vtcon_name_is_fbcon("(S) VGA+"));
	ASSERT_TRUE(!fb_vtcon_name_is_fbcon("dummy device"));
	ASSERT_TRUE(!fb_vtcon_name_is_fbcon(NULL));
}

static void test_describe(void)
{
	struct fb_holder h = { .pid = 1, .fds = { 3, 7 }, .n_fds = 2 };
	char buf[128];

	ASSERT_STR_EQ(fb_holder_describe(&h, buf, sizeof(buf)), "fd 3,7");
	h.n_mappings = 1;
	h.mmap_bytes = 4096000;
	ASSERT_STR_EQ(fb_holder_describe(&h, buf, sizeof(buf)),
		      "fd 3,7, mmap 4096000 bytes");
	h.n_fds = 0;
	h.n_mappings = 2;
	ASSERT_STR_EQ(fb_holder_describe(&h, buf, sizeof(buf)),
		      "mmap 4096000 bytes in 2 mappings");
}

/* ---- a fake /proc ---- */

static char root[256];

static void put(const char *rel, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	ASSERT_TRUE(f != NULL);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

static void dir(const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	ASSERT_INT_EQ(mkdir(p, 0755), 0);
}

static void link_to(const char *target, const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	ASSERT_INT_EQ(symlink(target, p), 0);
}

static void build_tree(const struct stat *idnode, const struct stat *devnull)
{
	char maps[512];

	/* pid 100: fd 3 is the target (a char device 1:3), fd 4 a file,
	 * fd 0 another char device. */
	dir("100");
	dir("100/fd");
	put("100/comm", "holder\n");
	put("100/maps", "");
	link_to("/dev/null", "100/fd/3");
	link_to("/bin/sh", "100/fd/4");
	link_to("/dev/zero", "100/fd/0");

	/* pid 200: a mapping only, recognised through map_files; the dev
	 * and inode columns match nothing we know. */
	dir("200");
	dir("200/fd");
	dir("200/map_files");
	put("200/comm", "mapper\n");
	put("200/maps",
	    "55d0c0a00000-55d0c0a21000 rw-p 00000000 00:00 0 [heap]\n"
	    "7f3a1c000000-7f3a1c3e8000 rw-s 00000000 00:2a 99 /tmp/private/fb0 "
	    "(deleted)\n"
	    "7f3a1d000000-7f3a1d001000 r--p 00000000 fe:01 55 /usr/lib/x.so\n");
	link_to("/dev/null", "200/map_files/7f3a1c000000-7f3a1c3e8000");
	link_to("/bin/sh", "200/map_files/7f3a1d000000-7f3a1d001000");

	/* pid 400: a mapping matched by the node's identity (dev:inode). */
	dir("400");
	dir("400/fd");
	put("400/comm", "byinode\n");
	snprintf(maps, sizeof(maps),
		 "7f0000000000-7f0000002000 rw-s 00000000 %02x:%02x %lu /dev/fb7\n",
		 major(idnode->st_dev), minor(idnode->st_dev),
		 (unsigned long)idnode->st_ino);
	put("400/maps", maps);

	/* pid 500: no map_files; the path still names the mapped inode.  A
	 * second line names it with the wrong inode: not a hit. */
	dir("500");
	dir("500/fd");
	put("500/comm", "bypath\n");
	snprintf(maps, sizeof(maps),
		 "1000-2000 rw-s 00000000 %02x:%02x %lu /dev/null\n"
		 "3000-5000 rw-s 00000000 %02x:%02x %lu /dev/null\n",
		 major(devnull->st_dev), minor(devnull->st_dev),
		 (unsigned long)devnull->st_ino, major(devnull->st_dev),
		 minor(devnull->st_dev), (unsigned long)devnull->st_ino + 1);
	put("500/maps", maps);

	/* pid 600: holds nothing of ours. */
	dir("600");
	dir("600/fd");
	put("600/comm", "bystander\n");
	link_to("/dev/zero", "600/fd/5");
	put("600/maps", "00400000-00401000 r-xp 00000000 fe:01 9 /bin/true\n");

	/* pid 300: its fd table is closed to us. */
	dir("300");
	dir("300/fd");
	put("300/comm", "secret\n");
	put("300/maps", "");

	/* not pids */
	dir("self");
	put("cmdline", "x\n");
}

static const struct fb_holder *find(const struct fb_holder_list *l, pid_t pid)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->holders[i].pid == pid)
			return &l->holders[i];
	return NULL;
}

static void check_scan(const struct stat *idnode, bool expect_denied)
{
	struct fb_holder_target t[2] = {
		{ .name = "null", .rdev = makedev(1, 3) },
		{ .name = "fb7",
		  .rdev = makedev(29, 7),
		  .has_node = true,
		  .node_dev = idnode->st_dev,
		  .node_ino = idnode->st_ino },
	};
	struct fb_holder_list l;
	const struct fb_holder *h;

	ASSERT_INT_EQ(fb_holders_scan(root, t, 2, &l), 0);
	ASSERT_INT_EQ(l.n, 4);
	ASSERT_INT_EQ(l.n_processes, 6);
	ASSERT_INT_EQ(fb_holders_count(&l, 0), 3);
	ASSERT_INT_EQ(fb_holders_count(&l, 1), 1);

	h = find(&l, 100);
	ASSERT_TRUE(h != NULL);
	if (h) {
		ASSERT_STR_EQ(h->comm, "holder");
		ASSERT_INT_EQ(h->target, 0);
		ASSERT_INT_EQ(h->n_fds, 1);
		ASSERT_INT_EQ(h->fds[0], 3);
		ASSERT_INT_EQ(h->n_mappings, 0);
	}
	h = find(&l, 200);
	ASSERT_TRUE(h != NULL);
	if (h) {
		ASSERT_STR_EQ(h->comm, "mapper");
		ASSERT_INT_EQ(h->n_fds, 0);
		ASSERT_INT_EQ(h->n_mappings, 1);
		ASSERT_INT_EQ(h->mmap_bytes, 4096000);
	}
	h = find(&l, 400);
	ASSERT_TRUE(h != NULL);
	if (h) {
		ASSERT_INT_EQ(h->target, 1);
		ASSERT_INT_EQ(h->mmap_bytes, 8192);
	}
	h = find(&l, 500);
	ASSERT_TRUE(h != NULL);
	if (h) {
		ASSERT_INT_EQ(h->target, 0);
		ASSERT_INT_EQ(h->n_mappings, 1);
		ASSERT_INT_EQ(h->mmap_bytes, 4096);
	}
	ASSERT_NULL(find(&l, 600));
	ASSERT_NULL(find(&l, 300));
	ASSERT_INT_EQ(l.n_uninspectable, expect_denied ? 1 : 0);
	if (expect_denied)
		ASSERT_INT_EQ(l.first_uninspectable, 300);
	/* sorted by pid */
	for (size_t i = 1; i < l.n; i++)
		ASSERT_TRUE(l.holders[i - 1].pid < l.holders[i].pid);
	fb_holder_list_free(&l);

	ASSERT_INT_EQ(fb_holders_scan("/nonexistent/proc", t, 2, &l), -ENOENT);
}

static void test_fake_proc(void)
{
	struct stat idnode, devnull;
	char p[512];
	int status;
	pid_t child;

	snprintf(root, sizeof(root), "%s/fbclass-holders.XXXXXX",
		 getenv("TMPDIR") ?: "/tmp");
	ASSERT_TRUE(mkdtemp(root) != NULL);
	chmod(root, 0755);
	snprintf(p, sizeof(p), "%s/300/fd", root);
	ASSERT_INT_EQ(stat("/bin/sh", &idnode), 0);
	ASSERT_INT_EQ(stat("/dev/null", &devnull), 0);
	build_tree(&idnode, &devnull);
	ASSERT_INT_EQ(chmod(p, 0), 0);

	if (geteuid() != 0) {
		check_scan(&idnode, true);
	} else {
		/* Root reads everything: check that, then as nobody the closed
		 * fd table of pid 300 must be counted. */
		check_scan(&idnode, false);
		fflush(NULL);
		child = fork();
		ASSERT_TRUE(child >= 0);
		if (child == 0) {
			if (setgid(65534) < 0 || setuid(65534) < 0)
				_exit(99);
			test_failures = 0;
			check_scan(&idnode, true);
			_exit(test_failures ? 1 : 0);
		}
		ASSERT_INT_EQ(waitpid(child, &status, 0), child);
		ASSERT_TRUE(WIFEXITED(status));
		ASSERT_INT_EQ(WEXITSTATUS(status), 0);
	}
	chmod(p, 0755);
	snprintf(p, sizeof(p), "rm -rf '%s'", root);
	ASSERT_INT_EQ(system(p), 0);
}

/* /sys/kernel/debug/dri/N/clients, as 6.1 and 6.12 print it. */
static void test_drm_clients(void)
{
	struct drm_client c;

	ASSERT_INT_EQ(drm_client_parse_line(
			      "             command  tgid dev master a   uid      magic",
			      &c),
		      -EINVAL);
	ASSERT_INT_EQ(drm_client_parse_line(
			      "                Xorg   919   0   y    y     0          0",
			      &c),
		      0);
	ASSERT_STR_EQ(c.command, "Xorg");
	ASSERT_INT_EQ(c.pid, 919);
	ASSERT_TRUE(c.master && c.authenticated);
	ASSERT_INT_EQ(c.uid, 0);
	ASSERT_INT_EQ(drm_client_parse_line(
			      "        weston  1200 128   n    n  1000          0", &c),
		      0);
	ASSERT_TRUE(!c.master && !c.authenticated);
	ASSERT_INT_EQ(c.uid, 1000);
	/* a name longer than the field is cut, not overflowed */
	ASSERT_INT_EQ(
		drm_client_parse_line(
			"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 5 0 y y 0 0",
			&c),
		0);
	ASSERT_INT_EQ(strlen(c.command), sizeof(c.command) - 1);
	/* not a client: a bad flag, a pid of 0, junk after the fields */
	ASSERT_INT_EQ(drm_client_parse_line("Xorg 919 0 x y 0 0", &c), -EINVAL);
	ASSERT_INT_EQ(drm_client_parse_line("Xorg 0 0 y y 0 0", &c), -EINVAL);
	ASSERT_INT_EQ(drm_client_parse_line("Xorg 919 0 y y 0 0 extra", &c), -EINVAL);
	ASSERT_INT_EQ(drm_client_parse_line("Xorg 919 0 y y", &c), -EINVAL);
	ASSERT_INT_EQ(drm_client_parse_line("", &c), -EINVAL);
}

int main(void)
{
	test_drm_clients();
	test_maps_parser();
	test_small_parsers();
	test_describe();
	test_fake_proc();
	return test_finish("test-holders");
}
