/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Who made each FB: debugfs dri/N/framebuffer says "allocated by = COMM"
 * per FB (the task's comm when it was made; "[fbcon]" for the fbdev
 * emulation's on 6.1 and 6.12), and dri/N/clients lists each open file of
 * the card with its process (tgid), and whether it is the master.  The
 * two are joined by comm.  fdinfo's drm-client-id would join them
 * exactly, but neither bochs on 6.1 nor on 6.12 prints it, and clients
 * names no client id, so a comm two clients share is said, not guessed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kms-read.h"
#include "macro.h"

#define FBCON_COMM "[fbcon]"

struct client {
	char comm[KMS_COMM_MAX];
	pid_t pid;
	bool master;
};

/* Whole small file into a string, or NULL with errno. */
static char *read_text(const char *dir, const char *name)
{
	char path[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	if (getdelim(&buf, &len, '\0', f) < 0) {
		free(buf);
		buf = strdup("");
	}
	fclose(f);
	return buf;
}

/* "allocated by = COMM" of framebuffer[id], copied to comm; false if the
 * FB is not in the list. */
static bool fb_comm(const char *text, uint32_t id, char comm[KMS_COMM_MAX])
{
	char head[40];
	const char *p, *by, *eol, *next;

	snprintf(head, sizeof(head), "framebuffer[%u]:\n", id);
	for (p = strstr(text, head); p; p = strstr(p + 1, head))
		if (p == text || p[-1] == '\n')
			break;
	if (!p)
		return false;
	p += strlen(head);
	by = strstr(p, "allocated by = ");
	eol = by ? strchr(by, '\n') : NULL;
	next = strstr(p, "framebuffer[");
	if (!by || !eol || (next && next < by)) {
		snprintf(comm, KMS_COMM_MAX, "%s", "");
		return true;
	}
	by += strlen("allocated by = ");
	snprintf(comm, KMS_COMM_MAX, "%.*s", (int)(eol - by), by);
	return true;
}

/*
 * One line of clients: "%20s %5d %3d   %c    %c %5d %10u" (command, tgid,
 * dev, master, authenticated, uid, magic; 6.1 and 6.12).  The comm is
 * right-aligned and may hold blanks, so the fields are taken from the
 * right: the header says how many follow the command.
 */
static bool client_parse(char *line, size_t n_after, struct client *c)
{
	char *tok[16];
	size_t n = 0;

	for (char *s = strtok(line, " \t"); s && n < ARRAY_SIZE(tok);
	     s = strtok(NULL, " \t"))
		tok[n++] = s;
	if (n_after < 6 || n < n_after + 1)
		return false;
	c->comm[0] = '\0';
	for (size_t i = 0; i < n - n_after; i++) {
		size_t l = strlen(c->comm);

		snprintf(c->comm + l, sizeof(c->comm) - l, "%s%s", i ? " " : "", tok[i]);
	}
	c->pid = (pid_t)strtol(tok[n - n_after], NULL, 10);
	c->master = strcmp(tok[n - n_after + 2], "y") == 0;
	return c->pid > 0;
}

static size_t clients_parse(char *text, struct client *out, size_t max)
{
	char *save = NULL, *line = strtok_r(text, "\n", &save);
	size_t n_after = 0, n = 0;

	if (!line)
		return 0;
	/* the header: command tgid dev master a uid magic [more] */
	for (char *s = line; *s;) {
		s += strspn(s, " ");
		if (*s)
			n_after++;
		s += strcspn(s, " ");
	}
	n_after = n_after ? n_after - 1 : 0;
	while (n < max && (line = strtok_r(NULL, "\n", &save)))
		if (client_parse(line, n_after, &out[n]))
			n++;
	return n;
}

static _printf_format_(2, 3) void owner_unknown(struct kms_owner *o, const char *fmt, ...)
{
	va_list ap;

	o->kind = KMS_OWNER_UNKNOWN;
	va_start(ap, fmt);
	vsnprintf(o->reason, sizeof(o->reason), fmt, ap);
	va_end(ap);
}

static void owner_by_comm(struct kms_owner *o, const struct client *cl, size_t n_cl,
			  const char *clients_err)
{
	size_t hits = 0, hit = 0;

	if (strcmp(o->comm, FBCON_COMM) == 0) {
		o->kind = KMS_OWNER_FBCON;
		return;
	}
	if (clients_err) {
		owner_unknown(o, "made by %s, but debugfs' clients: %s", o->comm,
			      clients_err);
		return;
	}
	for (size_t i = 0; i < n_cl; i++) {
		if (strcmp(cl[i].comm, o->comm) == 0 &&
		    (hits == 0 || cl[i].pid != cl[hit].pid)) {
			hits++;
			hit = i;
		}
	}
	if (hits == 0) {
		owner_unknown(o, "no process named %s has the card open (it closed it?)",
			      o->comm);
		return;
	}
	if (hits > 1) {
		owner_unknown(o, "%zu processes named %s have the card open", hits,
			      o->comm);
		return;
	}
	o->kind = KMS_OWNER_PROCESS;
	o->pid = cl[hit].pid;
	o->master = cl[hit].master;
}

void kms_owner_resolve(struct kms_card *card, const char *dri_dir)
{
	char *fbs = read_text(dri_dir, "framebuffer");
	int fbs_err = errno;
	char *clients = read_text(dri_dir, "clients");
	int clients_err = errno;
	struct client cl[64];
	size_t n_cl = clients ? clients_parse(clients, cl, ARRAY_SIZE(cl)) : 0;

	for (size_t i = 0; i < card->n_fbs; i++) {
		struct kms_owner *o = &card->fbs[i].owner;

		if (card->fbs[i].gone)
			continue;
		if (!fbs) {
			owner_unknown(o, "cannot read %s/framebuffer: %s", dri_dir,
				      fbs_err == ENOENT
					      ? "No such file (debugfs not mounted?)"
					      : strerror(fbs_err));
			continue;
		}
		if (!fb_comm(fbs, card->fbs[i].id, o->comm)) {
			owner_unknown(o, "debugfs lists no FB %u (freed since?)",
				      card->fbs[i].id);
			continue;
		}
		owner_by_comm(o, cl, n_cl, clients ? NULL : strerror(clients_err));
	}
	free(fbs);
	free(clients);
}
