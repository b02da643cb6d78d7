/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Apply, prune and remove: make the dev dir match a plan (src/nodes-plan.c).
 *
 * Everything under the dev dir is reached relative to one directory fd,
 * one path component at a time, with O_NOFOLLOW: a symlink planted in /dev
 * is an entry to replace or to refuse, never a way out.  New nodes are
 * made under a temporary name and renamed into place, so nobody sees a
 * node with the wrong owner or mode; so is a link that replaces another
 * entry, so that the name is never missing.  (A new link where there was
 * none is whole the moment it exists: it is made in place.)
 */
#include <signal.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "log.h"
#include "macro.h"
#include "nodes.h"
#include "strutil.h"

static const char *const generated_dirs[] = { "fb/by-path", "fb/by-name",
					      "fb/by-connector" };

/* ---- apply ---- */

struct listed_entry {
	char *name;
	uint32_t hash;
};

struct apply_ctx {
	int dirfd;
	const char *shown; /* the dev dir as the user named it */
	unsigned flags;
	char tmp_prefix[32]; /* NODE_TMP_PREFIX "PID-"; "" until the first */
	/* --dry-run: directories already announced with "mkdir". */
	char dry_dirs[8][NODE_PATH_MAX];
	size_t n_dry_dirs;
	/* Link directories opened so far ("fb/by-path"), each opened once. */
	struct {
		char rel[NODE_PATH_MAX];
		int fd;
		bool made; /* by this apply: it holds only what the apply put */
	} dirs[8];
	size_t n_dirs;
	/* node_sync(): the dev dir's entries that an apply or a prune looks
	 * at (fbN, temporary ones, planned names), read once before both. */
	struct listed_entry *listed;
	size_t n_listed;
	bool have_listing;
	/* create_born(): can the dev dir take a node born right?  -1 not
	 * asked yet, else 0 or 1; and while nodes are born (held), the fsgid
	 * they get and the fsgid and umask to go back to */
	signed char born;
	bool held;
	gid_t held_gid, gid_was;
	mode_t umask_was;
	uid_t euid;
};

static void born_release(struct apply_ctx *c);

static void ctx_release(struct apply_ctx *c)
{
	born_release(c);
	for (size_t i = 0; i < c->n_dirs; i++)
		close(c->dirs[i].fd);
	c->n_dirs = 0;
	for (size_t i = 0; i < c->n_listed; i++)
		free(c->listed[i].name);
	free(c->listed);
	c->listed = NULL;
	c->n_listed = 0;
	c->have_listing = false;
}

/* Was name in the dev dir when it was listed? */
static bool was_listed(const struct apply_ctx *c, const char *name)
{
	uint32_t hash = str_hash(name);

	for (size_t i = 0; i < c->n_listed; i++)
		if (c->listed[i].hash == hash && strcmp(c->listed[i].name, name) == 0)
			return true;
	return false;
}

static bool dry(const struct apply_ctx *c)
{
	return c->flags & NODE_DRY_RUN;
}

static const char *shown_path(const struct apply_ctx *c, const char *rel, char *buf,
			      size_t len)
{
	size_t n = strlen(c->shown);

	str_concat(buf, len, c->shown, n && c->shown[n - 1] == '/' ? "" : "/", rel,
		   (const char *)NULL);
	return buf;
}

static const char *kind_name(mode_t m)
{
	if (S_ISLNK(m))
		return "a symlink";
	if (S_ISREG(m))
		return "a regular file";
	if (S_ISCHR(m))
		return "a character device with another number";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISFIFO(m))
		return "a fifo";
	if (S_ISSOCK(m))
		return "a socket";
	return "an unknown entry";
}

static void tmp_name(struct apply_ctx *c, char *buf, size_t len, const char *base)
{
	if (!*c->tmp_prefix)
		snprintf(c->tmp_prefix, sizeof(c->tmp_prefix), NODE_TMP_PREFIX "%d-",
			 (int)getpid());
	str_concat(buf, len, c->tmp_prefix, base, (const char *)NULL);
}

/* One of our temporary entries, a running fbclassctl's or a dead one's. */
static bool is_tmp_name(const char *name)
{
	return strncmp(name, NODE_TMP_PREFIX, strlen(NODE_TMP_PREFIX)) == 0;
}

/* A temporary entry left by a process that died half-way: ours to remove.
 * One of a running fbclassctl is not. */
static bool tmp_is_stale(const char *name)
{
	const char *end;
	unsigned long long pid;

	if (!is_tmp_name(name))
		return false;
	if (parse_decimal_prefix(name + strlen(NODE_TMP_PREFIX), INT_MAX, &pid, &end) <
		    0 ||
	    *end != '-' || pid == 0)
		return true;
	return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

/*
 * Does the dev dir give a new node the creator's fsuid and fsgid and the
 * mode asked, and nothing else?  A tmpfs or ramfs (devtmpfs is one of
 * them) has no grpid mount option; not set-group-ID; no default ACL.
 * Asked once per apply: four system calls.
 */
static bool born_here(struct apply_ctx *c)
{
	struct statfs sf;
	struct stat st;

	if (c->born < 0) {
		c->euid = geteuid();
		c->born = fstatfs(c->dirfd, &sf) == 0 &&
			  (sf.f_type == TMPFS_MAGIC || sf.f_type == RAMFS_MAGIC) &&
			  fstat(c->dirfd, &st) == 0 && !(st.st_mode & S_ISGID) &&
			  fgetxattr(c->dirfd, "system.posix_acl_default", NULL, 0) < 0 &&
			  (errno == ENODATA || errno == EOPNOTSUPP);
	}
	return c->born > 0;
}

/* Back to our own fsgid and umask, after the nodes of an apply. */
static void born_release(struct apply_ctx *c)
{
	if (!c->held)
		return;
	umask(c->umask_was);
	setfsgid(c->gid_was);
	c->held = false;
}

/* Files made from now on get group gid and exactly the mode asked: false
 * where setfsgid() is refused (no CAP_SETGID), which it does without a
 * word, so the fsgid is asked back. */
static bool born_as(struct apply_ctx *c, gid_t gid)
{
	if (c->held && c->held_gid == gid)
		return true;
	if (!c->held) {
		c->umask_was = umask(0);
		c->gid_was = (gid_t)setfsgid(gid);
		c->held = true;
	} else {
		setfsgid(gid);
	}
	c->held_gid = gid;
	if ((gid_t)setfsgid((gid_t)-1) == gid)
		return true;
	born_release(c);
	c->born = 0;
	return false;
}

/*
 * A node born with its owner, group and mode, in one mknodat() under its
 * own name: the group through setfsgid(), the mode with the umask at 0.
 * Nobody ever sees it otherwise, which the temporary name below gives
 * too, at three system calls more a node (a fifth of a coldplug of 32 fbs
 * on a fresh tmpfs).  Only where the dev dir decides nothing else
 * (born_here()), for an owner that is our own euid and a mode without
 * set-ID or sticky bits, and where setfsgid() is allowed.  The fsgid and
 * umask stay set for the next node: apply_in() gives them back after the
 * nodes, before any directory or link is made (the temporary name sets
 * owner and mode itself, and fix_node() too).  0; -EAGAIN when the name
 * was taken meanwhile; else -ENOTSUP: the temporary name, which also
 * meets and reports what made mknodat() fail here.
 */
static int create_born(struct apply_ctx *c, const struct node_entry *e)
{
	if ((e->own.mode & 07000) || !born_here(c) || e->own.uid != c->euid ||
	    !born_as(c, e->own.gid))
		return -ENOTSUP;
	if (mknodat(c->dirfd, e->name, S_IFCHR | e->own.mode, e->devnum) == 0)
		return 0;
	return errno == EEXIST ? -EAGAIN : -ENOTSUP;
}

/* How a node is put in place: where nothing was seen, over what was
 * seen, or where nothing was when the dev dir was listed, which must
 * still be so (else -EAGAIN, and it is looked at as any entry found). */
enum create_how { CREATE_NEW, CREATE_REPLACE, CREATE_IF_ABSENT };

static int create_node(struct apply_ctx *c, const struct node_entry *e,
		       enum create_how how)
{
	char shown[PATH_MAX];
	char tmp[NODE_NAME_MAX + 32];
	int r;

	shown_path(c, e->name, shown, sizeof(shown));
	if (dry(c)) {
		if (how == CREATE_REPLACE)
			print_line_escaped("rm %s", shown);
		print_line_escaped("mknod %s c %u %u", shown, major(e->devnum),
				   minor(e->devnum));
		print_line_escaped("chown %s:%s %s", e->own.user, e->own.group, shown);
		print_line_escaped("chmod %04o %s", (unsigned)e->own.mode, shown);
		return 0;
	}
	r = how == CREATE_IF_ABSENT ? create_born(c, e) : -ENOTSUP;
	if (r != -ENOTSUP) {
		if (r == 0)
			DBG("%s: created c %u:%u %s:%s %04o", shown, major(e->devnum),
			    minor(e->devnum), e->own.user, e->own.group,
			    (unsigned)e->own.mode);
		return r;
	}
	tmp_name(c, tmp, sizeof(tmp), e->name);
	/* Mode 0 until owner and mode are right: nobody can open it early. */
	if (mknodat(c->dirfd, tmp, S_IFCHR, e->devnum) < 0)
		return log_errno(-errno, "%s: cannot create node: %m", shown);
	if (fchownat(c->dirfd, tmp, e->own.uid, e->own.gid, AT_SYMLINK_NOFOLLOW) < 0) {
		r = log_errno(-errno, "%s: cannot set owner %s:%s: %m", shown,
			      e->own.user, e->own.group);
		goto fail;
	}
	if (fchmodat(c->dirfd, tmp, e->own.mode, 0) < 0) {
		r = log_errno(-errno, "%s: cannot set mode %04o: %m", shown,
			      (unsigned)e->own.mode);
		goto fail;
	}
	if (how == CREATE_IF_ABSENT &&
	    renameat2(c->dirfd, tmp, c->dirfd, e->name, RENAME_NOREPLACE) < 0) {
		r = -errno;
		unlinkat(c->dirfd, tmp, 0);
		if (r == -EINVAL) /* a file system without it: look each time */
			c->have_listing = false;
		if (r == -EEXIST || r == -EINVAL)
			return -EAGAIN;
		return log_errno(r, "%s: cannot move new node into place: %m", shown);
	}
	if (how != CREATE_IF_ABSENT && renameat(c->dirfd, tmp, c->dirfd, e->name) < 0) {
		r = log_errno(-errno, "%s: cannot move new node into place: %m", shown);
		goto fail;
	}
	DBG("%s: created c %u:%u %s:%s %04o", shown, major(e->devnum), minor(e->devnum),
	    e->own.user, e->own.group, (unsigned)e->own.mode);
	return 0;
fail:
	unlinkat(c->dirfd, tmp, 0);
	return r;
}

/* A correct node with the wrong owner or mode: fix it in place, through an
 * O_PATH fd checked to be that very node. */
static int fix_node(struct apply_ctx *c, const struct node_entry *e, const struct stat *st)
{
	bool owner_ok = st->st_uid == e->own.uid && st->st_gid == e->own.gid;
	bool mode_ok = (st->st_mode & 07777) == e->own.mode;
	char shown[PATH_MAX];
	char proc[64];
	_cleanup_close_ int fd = -1;
	struct stat now;

	if (owner_ok && mode_ok)
		return 0;
	shown_path(c, e->name, shown, sizeof(shown));
	if (dry(c)) {
		if (!owner_ok)
			print_line_escaped("chown %s:%s %s", e->own.user, e->own.group,
					   shown);
		if (!mode_ok)
			print_line_escaped("chmod %04o %s", (unsigned)e->own.mode, shown);
		return 0;
	}
	fd = openat(c->dirfd, e->name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return log_errno(-errno, "%s: cannot open node to fix it: %m", shown);
	if (fstat(fd, &now) < 0)
		return log_errno(-errno, "%s: cannot stat node: %m", shown);
	if (!S_ISCHR(now.st_mode) || now.st_rdev != e->devnum) {
		ERR("%s: changed while being fixed; left alone", shown);
		return -EAGAIN;
	}
	if (!owner_ok && fchownat(fd, "", e->own.uid, e->own.gid, AT_EMPTY_PATH) < 0)
		return log_errno(-errno, "%s: cannot set owner %s:%s: %m", shown,
				 e->own.user, e->own.group);
	if (mode_ok && owner_ok)
		return 0;
	/* chown may clear bits; set the mode last.  An O_PATH fd takes no
	 * fchmod(), its /proc/self/fd link does. */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (chmod(proc, e->own.mode) < 0) {
		if (errno == ENOENT) /* no /proc: make a fresh node instead */
			return create_node(c, e, CREATE_REPLACE);
		return log_errno(-errno, "%s: cannot set mode %04o: %m", shown,
				 (unsigned)e->own.mode);
	}
	INF("%s: fixed owner and mode to %s:%s %04o", shown, e->own.user, e->own.group,
	    (unsigned)e->own.mode);
	return 0;
}

static int ensure_node(struct apply_ctx *c, const struct node_entry *e)
{
	char shown[PATH_MAX];
	struct stat st;

	shown_path(c, e->name, shown, sizeof(shown));
	/* 32 fstatat() that said ENOENT were a few per cent of a coldplug
	 * on a fresh /dev (bench/coldplug-vs-mdev.sh) */
	if (c->have_listing && !was_listed(c, e->name)) {
		int r = create_node(c, e, CREATE_IF_ABSENT);

		if (r != -EAGAIN)
			return r;
	}
	if (fstatat(c->dirfd, e->name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT)
			return log_errno(-errno, "%s: cannot look at node: %m", shown);
		return create_node(c, e, CREATE_NEW);
	}
	if (S_ISDIR(st.st_mode)) {
		ERR("%s: is a directory, not the character device %u:%u; left alone",
		    shown, major(e->devnum), minor(e->devnum));
		return -EISDIR;
	}
	if (S_ISCHR(st.st_mode) && st.st_rdev == e->devnum)
		return fix_node(c, e, &st);
	WRN("%s: replacing %s with the character device %u:%u", shown,
	    kind_name(st.st_mode), major(e->devnum), minor(e->devnum));
	return create_node(c, e, CREATE_REPLACE);
}

static bool dry_dir_announced(struct apply_ctx *c, const char *rel)
{
	for (size_t i = 0; i < c->n_dry_dirs; i++)
		if (strcmp(c->dry_dirs[i], rel) == 0)
			return true;
	if (c->n_dry_dirs < ARRAY_SIZE(c->dry_dirs))
		snprintf(c->dry_dirs[c->n_dry_dirs++], NODE_PATH_MAX, "%s", rel);
	return false;
}

/* --dry-run: the directories of rel from the one ending at offset on are
 * missing; say "mkdir" for each, once. */
static void announce_missing_dirs(struct apply_ctx *c, const char *rel, size_t offset)
{
	for (const char *p = rel + offset; (p = strchr(p, '/')); p++) {
		char dir[NODE_PATH_MAX], shown[PATH_MAX];

		snprintf(dir, sizeof(dir), "%.*s", (int)(p - rel), rel);
		if (!dry_dir_announced(c, dir))
			print_line_escaped("mkdir -m 0755 %s",
					   shown_path(c, dir, shown, sizeof(shown)));
	}
}

/*
 * Open the directory holding rel ("fb/by-path/x" -> "fb/by-path"), one
 * component at a time without following symlinks, creating missing ones
 * at 0755 when create is set.  *base points into rel at the last
 * component; *made_last (may be NULL) says whether the directory holding
 * it was made here.  Returns an fd, -ENOENT when a directory is missing (or,
 * under --dry-run, would be created), other -errno after a message.
 */
static int open_parent(struct apply_ctx *c, const char *rel, bool create,
		       const char **base, bool *made_last)
{
	char sofar[NODE_PATH_MAX] = "";
	char shown[PATH_MAX];
	const char *p = rel;
	int fd;

	fd = openat(c->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return log_errno(-errno, "%s: cannot open directory: %m", c->shown);
	for (;;) {
		size_t len = strcspn(p, "/");
		char comp[NODE_PATH_MAX];
		bool made = false;
		int next;

		if (!p[len])
			break;
		if (strlen(sofar) + len + 2 > sizeof(sofar)) {
			close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(comp, p, len);
		comp[len] = '\0';
		if (sofar[0])
			strcat(sofar, "/");
		strcat(sofar, comp);
		shown_path(c, sofar, shown, sizeof(shown));
		next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 && errno == ENOENT && create) {
			if (dry(c)) {
				announce_missing_dirs(c, rel, strlen(sofar));
				close(fd);
				return -ENOENT;
			}
			/* EEXIST: made meanwhile, by whoever made it */
			made = mkdirat(fd, comp, 0755) == 0;
			if (!made && errno != EEXIST) {
				close(fd);
				return log_errno(-errno,
						 "%s: cannot create directory: %m",
						 shown);
			}
			next = openat(fd, comp,
				      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (next < 0) {
			int r = -errno;

			if (r == -ELOOP || r == -ENOTDIR)
				ERR("%s: not a directory (a symlink?): nothing written there",
				    shown);
			else if (r != -ENOENT)
				ERR("%s: cannot open directory: %s", shown, strerror(-r));
			close(fd);
			return r == -ELOOP ? -ENOTDIR : r;
		}
		/* mkdirat obeys the umask; the tree is 0755 whatever it is. */
		if (made && fchmod(next, 0755) < 0)
			WRN("%s: cannot set mode 0755: %m", shown);
		close(fd);
		fd = next;
		p += len + 1;
		if (made_last)
			*made_last = made;
	}
	*base = p;
	return fd;
}

/*
 * open_parent(), once per directory of an apply: the fd stays the
 * context's (ctx_release closes it).  A directory replaced meanwhile is
 * not followed either: what is written goes into the one first opened.
 */
/* The directory the context has open at the first len bytes of rel, or
 * -1. */
static ssize_t ctx_dir(const struct apply_ctx *c, const char *rel, size_t len)
{
	for (size_t i = 0; i < c->n_dirs; i++)
		if (strlen(c->dirs[i].rel) == len &&
		    strncmp(c->dirs[i].rel, rel, len) == 0)
			return (ssize_t)i;
	return -1;
}

static int parent_dir(struct apply_ctx *c, const char *rel, bool create,
		      const char **base, bool *made)
{
	const char *slash = strrchr(rel, '/');
	size_t len = slash ? (size_t)(slash - rel) : 0;
	ssize_t i = ctx_dir(c, rel, len);
	bool made_last = false;
	int fd;

	if (i >= 0) {
		*base = slash ? slash + 1 : rel;
		*made = c->dirs[i].made;
		return c->dirs[i].fd;
	}
	fd = open_parent(c, rel, create, base, &made_last);
	if (fd < 0)
		return fd;
	if (c->n_dirs == ARRAY_SIZE(c->dirs)) /* rules with many directories */
		close(c->dirs[--c->n_dirs].fd);
	snprintf(c->dirs[c->n_dirs].rel, NODE_PATH_MAX, "%.*s", (int)len, rel);
	c->dirs[c->n_dirs].made = made_last;
	c->dirs[c->n_dirs++].fd = fd;
	*made = made_last;
	return fd;
}

static int make_link(struct apply_ctx *c, int pfd, const char *base, const char *target,
		     const char *shown, bool replace)
{
	char tmp[NODE_PATH_MAX + 32];
	int r;

	if (!replace) {
		if (symlinkat(target, pfd, base) == 0) {
			DBG("%s: -> %s", shown, target);
			return 0;
		}
		if (errno != EEXIST)
			return log_errno(-errno, "%s: cannot create link: %m", shown);
		/* made meanwhile: replaced as any other entry */
	}
	tmp_name(c, tmp, sizeof(tmp), base);
	if (symlinkat(target, pfd, tmp) < 0)
		return log_errno(-errno, "%s: cannot create link: %m", shown);
	if (renameat(pfd, tmp, pfd, base) < 0) {
		r = log_errno(-errno, "%s: cannot move new link into place: %m", shown);
		unlinkat(pfd, tmp, 0);
		return r;
	}
	DBG("%s: -> %s", shown, target);
	return 0;
}

static int ensure_link(struct apply_ctx *c, const struct node_link *l)
{
	char shown[PATH_MAX];
	char cur[NODE_PATH_MAX], target[NODE_PATH_MAX];
	const char *base;
	struct stat st;
	bool made;
	ssize_t n;
	int pfd;

	shown_path(c, l->path, shown, sizeof(shown));
	node_link_target(l, target, sizeof(target));
	pfd = parent_dir(c, l->path, true, &base, &made);
	if (pfd == -ENOENT && dry(c)) {
		print_line_escaped("ln -s %s %s", target, shown);
		return 0;
	}
	if (pfd < 0)
		return pfd;
	/* In a directory this apply made, nothing is there to look at: 34
	 * fstatat() that said ENOENT were about 2% of a coldplug of 32 fbs. */
	if (made)
		return make_link(c, pfd, base, target, shown, false);
	if (fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT)
			return log_errno(-errno, "%s: cannot look at link: %m", shown);
		if (dry(c)) {
			print_line_escaped("ln -s %s %s", target, shown);
			return 0;
		}
		return make_link(c, pfd, base, target, shown, false);
	}
	if (S_ISDIR(st.st_mode)) {
		ERR("%s: is a directory, not a link to %s; left alone", shown, target);
		return -EISDIR;
	}
	if (S_ISLNK(st.st_mode)) {
		n = readlinkat(pfd, base, cur, sizeof(cur) - 1);
		if (n >= 0) {
			cur[n] = '\0';
			if (strcmp(cur, target) == 0)
				return 0;
		}
		INF("%s: moving link from %s to %s", shown, n >= 0 ? cur : "?", target);
	} else {
		WRN("%s: replacing %s with a link to %s", shown, kind_name(st.st_mode),
		    target);
	}
	if (dry(c)) {
		print_line_escaped("rm %s", shown);
		print_line_escaped("ln -s %s %s", target, shown);
		return 0;
	}
	return make_link(c, pfd, base, target, shown, true);
}

static int apply_in(struct apply_ctx *c, const struct node_plan *plan, const char *only)
{
	bool *failed = calloc(plan->n_nodes ? plan->n_nodes : 1, sizeof(*failed));
	int ret = 0, r;

	if (!failed)
		return -ENOMEM;
	for (size_t i = 0; i < plan->n_nodes; i++) {
		if (only && strcmp(plan->nodes[i].name, only) != 0)
			continue;
		r = ensure_node(c, &plan->nodes[i]);
		failed[i] = r < 0;
		if (r < 0 && ret == 0)
			ret = r;
	}
	born_release(c);
	for (size_t i = 0; i < plan->n_links; i++) {
		bool skip = false;

		if (only && strcmp(plan->links[i].node, only) != 0)
			continue;
		/* No link to a node that could not be made. */
		for (size_t j = 0; j < plan->n_nodes && !skip; j++)
			skip = failed[j] &&
			       strcmp(plan->nodes[j].name, plan->links[i].node) == 0;
		if (skip)
			continue;
		r = ensure_link(c, &plan->links[i]);
		if (r < 0 && ret == 0)
			ret = r;
	}
	free(failed);
	return ret;
}

static int apply_filtered(int dirfd, const char *shown, const struct node_plan *plan,
			  const char *only, unsigned flags)
{
	struct apply_ctx c = { .dirfd = dirfd, .shown = shown, .flags = flags };
	int r = apply_in(&c, plan, only);

	ctx_release(&c);
	return r;
}

int node_apply_one(int dirfd, const char *devdir_shown, const struct node_plan *plan,
		   const char *node, unsigned flags)
{
	return apply_filtered(dirfd, devdir_shown, plan, node, flags);
}

/* ---- prune and remove ---- */

static bool is_fb_name(const char *name)
{
	return strncmp(name, "fb", 2) == 0 && name[2] &&
	       strspn(name + 2, "0123456789") == strlen(name + 2);
}

static bool plan_has_node(const struct node_plan *plan, const char *name)
{
	for (size_t i = 0; i < plan->n_nodes; i++)
		if (strcmp(plan->nodes[i].name, name) == 0)
			return true;
	for (size_t i = 0; i < plan->n_kept; i++)
		if (strcmp(plan->kept[i], name) == 0)
			return true;
	return false;
}

/* Does target look like a link we made: "../" depth times, then fbN (or
 * exactly node when node is given)? */
static bool is_our_target(const char *path, const char *target, const char *node)
{
	unsigned depth = 0;

	for (const char *p = path; *p; p++)
		depth += *p == '/';
	for (unsigned i = 0; i < depth; i++) {
		if (strncmp(target, "../", 3) != 0)
			return false;
		target += 3;
	}
	return node ? strcmp(target, node) == 0 : is_fb_name(target);
}

static int remove_entry(struct apply_ctx *c, int dfd, const char *name, const char *rel)
{
	char shown[PATH_MAX];

	shown_path(c, rel, shown, sizeof(shown));
	if (dry(c)) {
		print_line_escaped("rm %s", shown);
		return 0;
	}
	if (unlinkat(dfd, name, 0) < 0) {
		if (errno == ENOENT)
			return 0;
		return log_errno(-errno, "%s: cannot remove: %m", shown);
	}
	if (c->flags & NODE_SAY_REMOVED)
		print_line_escaped("removed %s", shown);
	else
		DBG("%s: removed", shown);
	return 0;
}

/* Walk the links of one generated directory; remove the ones that are not
 * in the plan (node == NULL) or that point to node. */
static int prune_links_in(struct apply_ctx *c, const char *dir,
			  const struct node_plan *plan, const char *node)
{
	ssize_t open_at = ctx_dir(c, dir, strlen(dir));
	char rel[NODE_PATH_MAX + 8];
	const char *base;
	struct dirent *de;
	DIR *d;
	int pfd, dfd, ret = 0;

	/* Made by the apply before, in this context: it holds only what
	 * the plan wants. */
	if (open_at >= 0 && c->dirs[open_at].made)
		return 0;
	snprintf(rel, sizeof(rel), "%s/x", dir);
	pfd = open_parent(c, rel, false, &base, NULL);
	if (pfd == -ENOENT)
		return 0;
	if (pfd < 0)
		return pfd;
	d = fdopendir(pfd);
	if (!d) {
		int r_open = -errno;

		close(pfd);
		return r_open;
	}
	dfd = dirfd(d);
	while ((de = readdir(d))) {
		char path[NODE_PATH_MAX + 8];
		char target[NODE_PATH_MAX];
		struct stat st;
		ssize_t n;
		int r;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		str_concat(path, sizeof(path), dir, "/", de->d_name, (const char *)NULL);
		/* What the plan wants stays, whatever it is (no stat for it). */
		if (!node && nodes_plan_find_link(plan, path))
			continue;
		if (de->d_type != DT_LNK &&
		    (de->d_type != DT_UNKNOWN ||
		     fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		     !S_ISLNK(st.st_mode)))
			continue; /* not ours */
		if (is_tmp_name(de->d_name)) {
			if (!tmp_is_stale(de->d_name))
				continue;
		} else if (node) {
			n = readlinkat(dfd, de->d_name, target, sizeof(target) - 1);
			if (n < 0)
				continue;
			target[n] = '\0';
			if (!is_our_target(path, target, node))
				continue;
		}
		r = remove_entry(c, dfd, de->d_name, path);
		if (r < 0 && ret == 0)
			ret = r;
	}
	closedir(d);
	return ret;
}

/* Rule links (plan->stale) that are still symlinks in our form. */
static int prune_stale(struct apply_ctx *c, const struct node_plan *plan, const char *node)
{
	int ret = 0;

	for (size_t i = 0; i < plan->n_stale; i++) {
		char target[NODE_PATH_MAX];
		const char *base;
		struct stat st;
		bool made;
		ssize_t n;
		int pfd, r;

		pfd = parent_dir(c, plan->stale[i], false, &base, &made);
		if (pfd < 0)
			continue;
		if (fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISLNK(st.st_mode))
			continue;
		n = readlinkat(pfd, base, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = '\0';
		if (!is_our_target(plan->stale[i], target, node))
			continue;
		r = remove_entry(c, pfd, base, plan->stale[i]);
		if (r < 0 && ret == 0)
			ret = r;
	}
	return ret;
}

/* One entry of the dev dir: a stale temporary one, or an fbN node of the
 * graphics major that the plan does not want, goes. */
static int prune_entry(struct apply_ctx *c, const struct node_plan *plan, const char *name)
{
	bool tmp = tmp_is_stale(name);
	struct stat st;

	if (!tmp && is_tmp_name(name))
		return 0;
	if (!tmp && (!is_fb_name(name) || plan_has_node(plan, name)))
		return 0;
	if (fstatat(c->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	/* Only nodes of the graphics major: never a file named fb9. */
	if (!S_ISCHR(st.st_mode) || major(st.st_rdev) != FB_GRAPHICS_MAJOR)
		return 0;
	return remove_entry(c, c->dirfd, name, name);
}

/* The dev dir's entries, read now or as node_sync() listed them. */
static int prune_devdir(struct apply_ctx *c, const struct node_plan *plan)
{
	struct dirent *de;
	int fd, ret = 0, r;
	DIR *d;

	if (c->have_listing) {
		for (size_t i = 0; i < c->n_listed; i++) {
			r = prune_entry(c, plan, c->listed[i].name);
			if (r < 0 && ret == 0)
				ret = r;
		}
		return ret;
	}
	fd = openat(c->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return log_errno(-errno, "%s: cannot open directory: %m", c->shown);
	d = fdopendir(fd);
	if (!d) {
		int r_open = -errno;

		close(fd);
		return r_open;
	}
	while ((de = readdir(d))) {
		r = prune_entry(c, plan, de->d_name);
		if (r < 0 && ret == 0)
			ret = r;
	}
	closedir(d);
	return ret;
}

static int prune_in(struct apply_ctx *c, const struct node_plan *plan)
{
	int ret = prune_devdir(c, plan), r;

	for (size_t i = 0; i < ARRAY_SIZE(generated_dirs); i++) {
		r = prune_links_in(c, generated_dirs[i], plan, NULL);
		if (r < 0 && ret == 0)
			ret = r;
	}
	r = prune_stale(c, plan, NULL);
	if (r < 0 && ret == 0)
		ret = r;
	return ret;
}

int node_prune(int dirfd, const char *devdir_shown, const struct node_plan *plan,
	       unsigned flags)
{
	struct apply_ctx c = { .dirfd = dirfd, .shown = devdir_shown, .flags = flags };
	int r = prune_in(&c, plan);

	ctx_release(&c);
	return r;
}

/* node_sync(): the dev dir's entries that its apply and prune look at,
 * read once for both.  Without it (an error, ENOMEM) each one is looked
 * at on its own, as node_apply_one() and node_prune() do. */
/* Keep name in the listing, if apply or prune will look for it: the
 * prune at fbN and temporary names, the apply at the planned names, which
 * are fbN but where a DEVNAME says otherwise (any_other: the plan has
 * such a name; a /dev of some 200 entries is not compared with every
 * node for nothing).  0 or -ENOMEM. */
static int list_keep(struct apply_ctx *c, const struct node_plan *plan, bool any_other,
		     const char *name, size_t *cap)
{
	struct listed_entry *v;

	if (!is_fb_name(name) && !is_tmp_name(name) &&
	    !(any_other && plan_has_node(plan, name)))
		return 0;
	if (c->n_listed == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		v = realloc(c->listed, *cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		c->listed = v;
	}
	v = &c->listed[c->n_listed];
	v->name = strdup(name);
	if (!v->name)
		return -ENOMEM;
	v->hash = str_hash(v->name);
	c->n_listed++;
	return 0;
}

/* node_sync(): the dev dir's entries that its apply and prune look at,
 * read once for both, with getdents64() into the stack rather than
 * readdir()'s 32 kB buffer.  Without it (an error, ENOMEM) each one is
 * looked at on its own, as node_apply_one() and node_prune() do. */
static void list_devdir(struct apply_ctx *c, const struct node_plan *plan)
{
	char buf[8192] __attribute__((aligned(8)));
	_cleanup_close_ int fd = -1;
	bool any_other = false;
	size_t cap = 0;
	ssize_t len;

	for (size_t i = 0; i < plan->n_nodes; i++)
		any_other |= !is_fb_name(plan->nodes[i].name);
	fd = openat(c->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	while ((len = getdents64(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t off = 0; off < len;) {
			const struct dirent64 *de = (const void *)(buf + off);

			off += de->d_reclen;
			if (list_keep(c, plan, any_other, de->d_name, &cap) < 0)
				return;
		}
	}
	c->have_listing = len == 0;
}

int node_sync(int dirfd, const char *devdir_shown, const struct node_plan *plan,
	      unsigned flags)
{
	struct apply_ctx c = {
		.dirfd = dirfd, .shown = devdir_shown, .flags = flags, .born = -1
	};
	int ret;

	list_devdir(&c, plan);
	ret = apply_in(&c, plan, NULL);
	int r = prune_in(&c, plan);

	ctx_release(&c);
	return ret < 0 ? ret : r;
}

int node_remove(int dirfd, const char *devdir_shown, const char *name, dev_t devnum,
		const struct node_plan *plan, unsigned flags)
{
	struct apply_ctx c = { .dirfd = dirfd, .shown = devdir_shown, .flags = flags };
	char shown[PATH_MAX];
	struct stat st;
	int ret = 0, r;

	shown_path(&c, name, shown, sizeof(shown));
	if (!nodes_plan_name_is_safe(name))
		return -EINVAL;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT)
			return log_errno(-errno, "%s: cannot look at node: %m", shown);
	} else if (S_ISCHR(st.st_mode) && st.st_rdev == devnum) {
		ret = remove_entry(&c, dirfd, name, name);
	} else {
		/* Someone else's entry, or a newer device: not ours to touch. */
		INF("%s: not the character device %u:%u; nothing removed", shown,
		    major(devnum), minor(devnum));
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(generated_dirs); i++) {
		r = prune_links_in(&c, generated_dirs[i], plan, name);
		if (r < 0 && ret == 0)
			ret = r;
	}
	if (plan) {
		r = prune_stale(&c, plan, name);
		if (r < 0 && ret == 0)
			ret = r;
	}
	ctx_release(&c);
	return ret;
}

int node_devdir_check(const char *dir)
{
	struct stat st;

	if (!*dir) {
		ERR("--dev: empty directory name");
		return -EINVAL;
	}
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		ERR("--dev %s: not a directory", dir);
		return -ENOTDIR;
	}
	return 0;
}

int node_dir_open(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}
