/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* metrics: label values escaped for the text format and made safe, and the
 * atomic replace of a .prom file raced by a reader. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"
#include "log.h"
#include "metrics.h"

static char *label(const char *s)
{
	static char out[4096];
	FILE *f = fmemopen(out, sizeof(out), "w");

	ASSERT_TRUE(f != NULL);
	out[0] = '\0';
	metrics_put_label_value(f, s);
	fclose(f);
	return out;
}

static void test_label_value(void)
{
	char longer[METRICS_LABEL_MAX + 10];

	ASSERT_STR_EQ(label("QEMU Monitor"), "QEMU Monitor");
	ASSERT_STR_EQ(label(""), "");
	/* the format's three escapes: a reader gets the byte back */
	ASSERT_STR_EQ(label("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
	/* valid UTF-8 stays */
	ASSERT_STR_EQ(label("caf\xc3\xa9"), "caf\xc3\xa9");
	/* a control byte, DEL, a byte that is not UTF-8, a tab: the text
	 * str_escape() shows, its backslash escaped for the format */
	ASSERT_STR_EQ(label("x\x1b[2Jy"), "x\\\\x1b[2Jy");
	ASSERT_STR_EQ(label("\x7f"), "\\\\x7f");
	ASSERT_STR_EQ(label("\xff\xfe"), "\\\\xff\\\\xfe");
	ASSERT_STR_EQ(label("a\tb"), "a\\\\tb");
	/* a UTF-8 sequence cut short, and a surrogate */
	ASSERT_STR_EQ(label("\xc3"), "\\\\xc3");
	ASSERT_STR_EQ(label("\xed\xa0\x80"), "\\\\xed\\\\xa0\\\\x80");
	/* U+009B, a C1 CSI in UTF-8: the one escaper takes it too */
	ASSERT_STR_EQ(label("a\xc2\x9b[2J"), "a\\\\xc2\\\\x9b[2J");
	/* at most METRICS_LABEL_MAX input bytes */
	memset(longer, 'N', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	ASSERT_INT_EQ(strlen(label(longer)), METRICS_LABEL_MAX + 3);
	ASSERT_TRUE(strcmp(label(longer) + METRICS_LABEL_MAX, "...") == 0);
	longer[METRICS_LABEL_MAX] = '\0';
	ASSERT_INT_EQ(strlen(label(longer)), METRICS_LABEL_MAX);
}

static char *slurp(const char *path, size_t *len)
{
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0) {
		free(buf);
		return NULL;
	}
	while ((r = read(fd, buf + n, cap - n)) > 0)
		n += (size_t)r;
	close(fd);
	*len = n;
	return buf;
}

/* The reader: reads the file again and again until told to stop; exits 0
 * when every read was one whole version, and it saw both.  The moment it
 * has seen both it says so on seen_fd, so that the writer's loop, not the
 * scheduler's luck, decides whether both versions were read. */
static int reader(const char *path, const char *a, size_t alen, const char *b,
		  size_t blen, int stop_fd, int seen_fd)
{
	unsigned reads = 0, seen_a = 0, seen_b = 0;
	bool told = false;

	for (;;) {
		char c;
		size_t len;
		char *got = slurp(path, &len);
		bool stop = read(stop_fd, &c, 1) == 0;

		if (!got)
			return 2;
		reads++;
		if (len == alen && memcmp(got, a, alen) == 0)
			seen_a++;
		else if (len == blen && memcmp(got, b, blen) == 0)
			seen_b++;
		else {
			fprintf(stderr, "read %u: %zu bytes, neither version\n", reads,
				len);
			free(got);
			return 1;
		}
		free(got);
		if (!told && seen_a && seen_b)
			told = write(seen_fd, "y", 1) == 1;
		if (stop)
			break;
	}
	fprintf(stderr, "# reader: %u reads, %u of the long version, %u of the short\n",
		reads, seen_a, seen_b);
	return seen_a && seen_b ? 0 : 3;
}

static void test_replace_race(void)
{
	/* tmpfs where there is one: 1000 fsyncs on a disk take seconds */
	char dir[64], path[96];
	size_t alen = 256 * 1024, blen = 1000;
	char *a = malloc(alen), *b = malloc(blen);
	int stop[2], seen[2], status, i;
	pid_t pid;
	char c;

	snprintf(dir, sizeof(dir), "%s/fbclassctl-metrics.XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	ASSERT_TRUE(a && b && mkdtemp(dir));
	memset(a, 'a', alen);
	memset(b, 'b', blen);
	a[alen - 1] = b[blen - 1] = '\n';
	snprintf(path, sizeof(path), "%s/fb.prom", dir);
	ASSERT_INT_EQ(metrics_file_replace(path, a, alen), 0);
	ASSERT_INT_EQ(pipe2(stop, O_CLOEXEC | O_NONBLOCK), 0);
	ASSERT_INT_EQ(pipe2(seen, O_CLOEXEC | O_NONBLOCK), 0);
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (pid == 0) {
		int rc;

		close(stop[1]);
		close(seen[0]);
		rc = reader(path, a, alen, b, blen, stop[0], seen[1]);
		free(a); /* valgrind looks at the child too */
		free(b);
		_exit(rc);
	}
	close(stop[0]);
	close(seen[1]);
	/* At least 1000 replacements, and on until the reader has seen both
	 * versions: on a loaded machine it may not run at all for a while.
	 * The bound only keeps a broken reader from hanging the test. */
	for (i = 0; i < 1000 || (i < 1000000 && read(seen[0], &c, 1) < 0); i++)
		ASSERT_INT_EQ(metrics_file_replace(path, i % 2 ? a : b,
						   i % 2 ? alen : blen),
			      0);
	fprintf(stderr, "# writer: %d replacements\n", i);
	close(stop[1]);
	close(seen[0]);
	ASSERT_INT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		   "the reader saw a partial file (status %d)", status);
	{
		struct stat st;

		ASSERT_INT_EQ(stat(path, &st), 0);
		ASSERT_INT_EQ(st.st_mode & 07777, 0644);
	}
	/* no temporary file is left */
	ASSERT_INT_EQ(unlink(path), 0);
	ASSERT_INT_EQ(rmdir(dir), 0);
	free(a);
	free(b);
}

/* A directory that is not there: an error, nothing written. */
static void test_replace_errors(void)
{
	log_max_priority = LOG_CRIT; /* the errors are expected */
	ASSERT_INT_EQ(metrics_file_replace("/nonexistent-fbclassctl/fb.prom", "x\n", 2),
		      -ENOENT);
	ASSERT_INT_EQ(metrics_file_replace("", "x\n", 2), -EISDIR);
	ASSERT_INT_EQ(metrics_file_replace("/tmp/", "x\n", 2), -EISDIR);
	log_max_priority = LOG_INFO;
}

int main(void)
{
	test_label_value();
	test_replace_race();
	test_replace_errors();
	return test_finish("test-metrics");
}
