/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Who holds a framebuffer: /proc/PID/fd, /proc/PID/maps, fbcon. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fbinfo_ioctl.h"
#include "holders.h"
#include "log.h"
#include "macro.h"
#include "strutil.h"
#include "sysfs-file.h"

/* ---- pure parsers ---- */

bool fb_proc_name_is_pid(const char *name, pid_t *pid)
{
	unsigned long v = 0;

	if (!name[0] || name[0] == '0')
		return false;
	for (const char *p = name; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > 0x7fffffff)
			return false;
	}
	if (pid)
		*pid = (pid_t)v;
	return true;
}

static int parse_hex(const char **pp, char stop, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;
	int n = 0;

	for (; *p && *p != stop; p++, n++) {
		unsigned d;

		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (*p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			return -EINVAL;
		if (n >= 16)
			return -EINVAL;
		v = v << 4 | d;
	}
	if (n == 0 || *p != stop)
		return -EINVAL;
	*out = v;
	*pp = p + 1;
	return 0;
}

int fb_maps_parse_line(char *line, struct fb_maps_entry *e)
{
	const char *p = line;
	uint64_t maj, min;
	size_t len = strlen(line);
	unsigned long long inode;
	const char *end;

	if (len && line[len - 1] == '\n')
		line[--len] = '\0';
	memset(e, 0, sizeof(*e));
	if (parse_hex(&p, '-', &e->start) < 0 || parse_hex(&p, ' ', &e->end) < 0 ||
	    e->end < e->start)
		return -EINVAL;
	if (strlen(p) < 5 || p[4] != ' ')
		return -EINVAL;
	for (int i = 0; i < 4; i++) {
		if (!strchr("rwxsp-", p[i]))
			return -EINVAL;
		e->perms[i] = p[i];
	}
	p += 5;
	if (parse_hex(&p, ' ', &e->offset) < 0 || parse_hex(&p, ':', &maj) < 0 ||
	    parse_hex(&p, ' ', &min) < 0 || maj > 0xfff || min > 0xfffff)
		return -EINVAL;
	e->dev_major = (unsigned)maj;
	e->dev_minor = (unsigned)min;
	if (parse_decimal_prefix(p, UINT64_MAX, &inode, &end) < 0 ||
	    (*end != ' ' && *end != '\0'))
		return -EINVAL;
	e->inode = inode;
	while (*end == ' ')
		end++;
	e->path = end;
	return 0;
}

bool fb_maps_path_deleted(const char *path)
{
	static const char suffix[] = " (deleted)";
	size_t n = strlen(path);

	return n >= sizeof(suffix) - 1 &&
	       strcmp(path + n - (sizeof(suffix) - 1), suffix) == 0;
}

bool fb_vtcon_name_is_fbcon(const char *name)
{
	return name && strstr(name, "frame buffer device") != NULL;
}

/* ---- targets ---- */

void fb_holder_target_chrdev(struct fb_holder_target *t, const char *name, dev_t rdev,
			     const char *node_path)
{
	struct stat st;

	memset(t, 0, sizeof(*t));
	t->name = name;
	t->rdev = rdev;
	if (lstat(node_path, &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == rdev) {
		t->has_node = true;
		t->node_dev = st.st_dev;
		t->node_ino = st.st_ino;
	}
}

void fb_holder_target_init(struct fb_holder_target *t, const struct fb_device *dev,
			   const char *devdir)
{
	struct fb_hw_node node;

	fb_hw_node_inspect(dev, devdir, &node);
	fb_holder_target_chrdev(t, dev->name, dev->devnum, node.path);
}

int drm_client_parse_line(const char *line, struct drm_client *c)
{
	char command[64], master, auth;
	unsigned long long pid, dev, uid, magic;
	int n = -1;

	memset(c, 0, sizeof(*c));
	/* "   Xorg   919   0   y    y     0          0" */
	if (sscanf(line, " %63s %llu %llu %c %c %llu %llu %n", command, &pid, &dev,
		   &master, &auth, &uid, &magic, &n) != 7 ||
	    n < 0 || line[n] || pid == 0 || pid > INT32_MAX || uid > UINT32_MAX ||
	    !strchr("yn", master) || !strchr("yn", auth))
		return -EINVAL;
	snprintf(c->command, sizeof(c->command), "%.*s", (int)sizeof(c->command) - 1,
		 command);
	c->pid = (pid_t)pid;
	c->master = master == 'y';
	c->authenticated = auth == 'y';
	c->uid = (unsigned)uid;
	return 0;
}

int drm_clients_read(const char *debugfs, unsigned minor, struct drm_client **v, size_t *n)
{
	_cleanup_free_ char *line = NULL;
	char path[512];
	size_t cap = 0, lcap = 0;
	FILE *f;

	*v = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "%s/dri/%u/clients", debugfs, minor);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (getline(&line, &lcap, f) > 0) {
		struct drm_client c;

		line[strcspn(line, "\n")] = '\0';
		if (drm_client_parse_line(line, &c) < 0)
			continue; /* the heading, or a layout of another kernel */
		if (*n == cap) {
			struct drm_client *nv;

			cap = cap ? cap * 2 : 8;
			nv = realloc(*v, cap * sizeof(*nv));
			if (!nv) {
				fclose(f);
				free(*v);
				*v = NULL;
				*n = 0;
				return -ENOMEM;
			}
			*v = nv;
		}
		(*v)[(*n)++] = c;
	}
	fclose(f);
	return 0;
}

/* ---- the scan ---- */

static struct fb_holder *holder_get(struct fb_holder_list *l, size_t *cap, pid_t pid,
				    size_t target, const char *comm)
{
	struct fb_holder *h;

	for (size_t i = 0; i < l->n; i++)
		if (l->holders[i].pid == pid && l->holders[i].target == target)
			return &l->holders[i];
	if (l->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		struct fb_holder *n = realloc(l->holders, ncap * sizeof(*n));

		if (!n)
			return NULL;
		l->holders = n;
		*cap = ncap;
	}
	h = &l->holders[l->n++];
	memset(h, 0, sizeof(*h));
	h->pid = pid;
	h->target = target;
	snprintf(h->comm, sizeof(h->comm), "%s", comm);
	return h;
}

static void read_comm(int piddir, char *buf, size_t len)
{
	_cleanup_close_ int fd = openat(piddir, "comm", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	snprintf(buf, len, "?");
	if (fd < 0)
		return;
	n = read(fd, buf, len - 1);
	if (n <= 0) {
		snprintf(buf, len, "?");
		return;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static ssize_t target_by_rdev(const struct fb_holder_target *t, size_t n, dev_t rdev)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].rdev == rdev)
			return (ssize_t)i;
	return -1;
}

struct scan_ctx {
	const struct fb_holder_target *targets;
	size_t n_targets;
	struct fb_holder_list *out;
	size_t cap;
};

static bool access_denied(int err)
{
	return err == EACCES || err == EPERM;
}

/* Count an open fd (fdnum >= 0) or a mapping of bytes on target t for
 * pid; t < 0 (not a target) counts nothing.  0, or -ENOMEM. */
static int holder_count(struct scan_ctx *c, pid_t pid, ssize_t t, const char *comm,
			int fdnum, uint64_t bytes)
{
	struct fb_holder *h;

	if (t < 0)
		return 0;
	h = holder_get(c->out, &c->cap, pid, (size_t)t, comm);
	if (!h)
		return -ENOMEM;
	if (fdnum < 0) {
		h->n_mappings++;
		h->mmap_bytes += bytes;
	} else if (h->n_fds < FB_HOLDER_MAX_FDS) {
		h->fds[h->n_fds++] = fdnum;
	} else {
		h->n_fds_more++;
	}
	return 0;
}

/* Open fds.  Returns 0, -EACCES (not inspectable) or another -errno. */
static int scan_fds(struct scan_ctx *c, int piddir, pid_t pid, const char *comm)
{
	int fdd = openat(piddir, "fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;
	struct dirent *de;
	int r = 0;

	if (fdd < 0)
		return access_denied(errno) ? -EACCES : -errno;
	d = fdopendir(fdd);
	if (!d) {
		int r_open = -errno;

		close(fdd);
		return r_open;
	}
	while ((de = readdir(d))) {
		struct stat st;
		pid_t fdnum;
		ssize_t t;

		if (strcmp(de->d_name, "0") == 0)
			fdnum = 0;
		else if (!fb_proc_name_is_pid(de->d_name, &fdnum))
			continue;
		/* stat follows the magic link to the open file: nothing opened. */
		if (fstatat(fdd, de->d_name, &st, 0) < 0) {
			if (access_denied(errno))
				r = -EACCES;
			continue;
		}
		if (!S_ISCHR(st.st_mode))
			continue;
		t = target_by_rdev(c->targets, c->n_targets, st.st_rdev);
		if (holder_count(c, pid, t, comm, (int)fdnum, 0) < 0) {
			r = -ENOMEM;
			break;
		}
	}
	closedir(d);
	return r;
}

/* Which target, if any, a mapping is of. */
static ssize_t mapping_target(struct scan_ctx *c, int mapfiles,
			      const struct fb_maps_entry *e)
{
	dev_t fsdev = makedev(e->dev_major, e->dev_minor);
	char name[64];
	struct stat st;

	if (e->inode == 0)
		return -1;
	/* The mapped inode is the node's own inode, on the filesystem that
	 * holds the node (tmpfs, devtmpfs): maps shows that st_dev, not
	 * st_rdev.  So first the node under --dev by its identity... */
	for (size_t i = 0; i < c->n_targets; i++)
		if (c->targets[i].has_node && c->targets[i].node_dev == fsdev &&
		    c->targets[i].node_ino == e->inode)
			return (ssize_t)i;
	/* ...then any other node (a private one, another directory) through
	 * map_files, which stat follows to the mapped file itself... */
	if (mapfiles >= 0) {
		snprintf(name, sizeof(name), "%" PRIx64 "-%" PRIx64, e->start, e->end);
		if (fstatat(mapfiles, name, &st, 0) == 0)
			return S_ISCHR(st.st_mode)
				       ? target_by_rdev(c->targets, c->n_targets,
							st.st_rdev)
				       : -1;
	}
	/* ...and without map_files (not root), the path when it still names
	 * that same inode. */
	if (e->path[0] != '/' || fb_maps_path_deleted(e->path))
		return -1;
	if (stat(e->path, &st) < 0 || !S_ISCHR(st.st_mode) || st.st_dev != fsdev ||
	    st.st_ino != e->inode)
		return -1;
	return target_by_rdev(c->targets, c->n_targets, st.st_rdev);
}

static int scan_maps(struct scan_ctx *c, int piddir, pid_t pid, const char *comm)
{
	int fd = openat(piddir, "maps", O_RDONLY | O_CLOEXEC);
	int mapfiles;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int r = 0;

	if (fd < 0)
		return access_denied(errno) ? -EACCES : -errno;
	f = fdopen(fd, "re");
	if (!f) {
		int r_open = -errno;

		close(fd);
		return r_open;
	}
	mapfiles = openat(piddir, "map_files", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	errno = 0;
	while (getline(&line, &cap, f) > 0) {
		struct fb_maps_entry e;
		ssize_t t;

		if (fb_maps_parse_line(line, &e) < 0) {
			DBG("pid %d: unparsable maps line \"%s\"", (int)pid, line);
			continue;
		}
		t = mapping_target(c, mapfiles, &e);
		if (holder_count(c, pid, t, comm, -1, e.end - e.start) < 0) {
			r = -ENOMEM;
			break;
		}
	}
	/* A read of maps fails with EACCES for a process we may not ptrace. */
	if (!r && ferror(f) && access_denied(errno))
		r = -EACCES;
	free(line);
	if (mapfiles >= 0)
		close(mapfiles);
	fclose(f);
	return r;
}

static int holder_cmp(const void *a, const void *b)
{
	const struct fb_holder *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->target < y->target ? -1 : x->target > y->target;
}

int fb_holders_scan(const char *procdir, const struct fb_holder_target *targets, size_t n,
		    struct fb_holder_list *out)
{
	struct scan_ctx c = { .targets = targets, .n_targets = n, .out = out };
	pid_t self = getpid();
	struct dirent *de;
	DIR *d;
	int r = 0;

	memset(out, 0, sizeof(*out));
	d = opendir(procdir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char comm[32];
		pid_t pid;
		int piddir, rf, rm;

		if (!fb_proc_name_is_pid(de->d_name, &pid) || pid == self)
			continue;
		piddir = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (piddir < 0)
			continue; /* exited */
		out->n_processes++;
		read_comm(piddir, comm, sizeof(comm));
		rf = scan_fds(&c, piddir, pid, comm);
		rm = scan_maps(&c, piddir, pid, comm);
		close(piddir);
		if (rf == -ENOMEM || rm == -ENOMEM) {
			r = -ENOMEM;
			break;
		}
		if (rf == -EACCES || rm == -EACCES) {
			if (!out->n_uninspectable)
				out->first_uninspectable = pid;
			out->n_uninspectable++;
			DBG("pid %d (%s): cannot inspect: %s", (int)pid, comm,
			    strerror(EACCES));
		}
	}
	closedir(d);
	if (r < 0) {
		fb_holder_list_free(out);
		return r;
	}
	if (out->n)
		qsort(out->holders, out->n, sizeof(*out->holders), holder_cmp);
	return 0;
}

void fb_holder_list_free(struct fb_holder_list *list)
{
	free(list->holders);
	list->holders = NULL;
	list->n = 0;
}

size_t fb_holders_count(const struct fb_holder_list *list, size_t t)
{
	size_t n = 0;

	for (size_t i = 0; i < list->n; i++)
		if (list->holders[i].target == t)
			n++;
	return n;
}

/* ---- fbcon ---- */

static int read_small(int dirfd_, const char *name, char *buf, size_t len)
{
	_cleanup_close_ int fd = openat(dirfd_, name, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int fb_fbcon_read(const char *sysroot, struct fb_fbcon_state *st)
{
	char path[4096];
	struct dirent *de;
	DIR *d;

	memset(st, 0, sizeof(*st));
	snprintf(path, sizeof(path), "%s/class/vtconsole", sysroot);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		char name[256], bind[16];
		_cleanup_close_ int vfd = -1;

		if (strncmp(de->d_name, "vtcon", 5) != 0)
			continue;
		vfd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (vfd < 0)
			continue;
		if (read_small(vfd, "name", name, sizeof(name)) < 0 ||
		    !fb_vtcon_name_is_fbcon(name))
			continue;
		st->present = true;
		snprintf(st->vtcon, sizeof(st->vtcon), "%s", de->d_name);
		st->bound = read_small(vfd, "bind", bind, sizeof(bind)) == 0 &&
			    strcmp(bind, "1") == 0;
		break;
	}
	closedir(d);
	return 0;
}

int fb_fbcon_consoles(const struct fb_device *dev, const char *devdir, unsigned *first,
		      unsigned *last)
{
	_cleanup_close_ int fd = fb_hw_open(dev, devdir, O_RDONLY, true, NULL);
	unsigned n = 0;

	*first = *last = 0;
	if (fd < 0)
		return fd;
	/* MAX_NR_CONSOLES is 63; consoles are 1-based. */
	for (unsigned con = 1; con <= 63; con++) {
		struct fb_con2fbmap m = { .console = con };

		if (ioctl(fd, FBIOGET_CON2FBMAP, &m) < 0)
			return n ? (int)n : -errno;
		if (m.framebuffer != minor(dev->devnum))
			continue;
		if (!n)
			*first = con;
		*last = con;
		n++;
	}
	return (int)n;
}

int fb_fbcon_set_bind(const char *sysroot, const struct fb_fbcon_state *st, bool bind)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/class/vtconsole/%s/bind", sysroot, st->vtcon);
	return sysfs_file_write(path, bind ? "1\n" : "0\n");
}

char *fb_holder_describe(const struct fb_holder *h, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
#define APPEND(...)                                                           \
	do {                                                                  \
		if (n < len)                                                  \
			n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__); \
	} while (0)
	for (size_t i = 0; i < h->n_fds; i++)
		APPEND("%s%d", i ? "," : "fd ", h->fds[i]);
	if (h->n_fds_more)
		APPEND(" (+%zu more)", h->n_fds_more);
	if (h->n_mappings) {
		APPEND("%smmap %" PRIu64 " bytes", h->n_fds ? ", " : "", h->mmap_bytes);
		if (h->n_mappings > 1)
			APPEND(" in %zu mappings", h->n_mappings);
	}
#undef APPEND
	return buf;
}
