/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * json-c through src/jsonc-backend.h: a json-c call works with no
 * fb_jsonc_open() before it; in the dlopen build nothing maps the library
 * until one is made (json_object_put(NULL) is none), and when it cannot be
 * loaded the call exits 1 saying why instead of calling through NULL.
 * This program does not link json-c: it gets it only as fbclassctl does.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jsonc-backend.h"
#include "test.h"

static bool jsonc_mapped(void)
{
	void *h = dlopen(FB_JSONC_SONAME, RTLD_NOW | RTLD_NOLOAD);

	if (h)
		dlclose(h);
	return h != NULL;
}

/* The child: one json-c call, with LD_LIBRARY_PATH naming a broken copy. */
static int call_without_open(void)
{
	struct json_object *o = json_object_new_object();

	printf("called: %p\n", (void *)o);
	return 0;
}

/* Run this program (self: argv[0], which is the test's own path under
 * valgrind too, unlike /proc/self/exe) again as call_without_open() with
 * an empty file for libjson-c.so.5 first in the search path: its exit
 * status, its stderr in err. */
static int run_with_broken_jsonc(const char *self, char *err, size_t size)
{
	char dir[] = "/tmp/test-jsonc.XXXXXX", lib[64], log[64];
	int status = -1, fd;
	ssize_t n;
	pid_t pid;

	if (!mkdtemp(dir))
		return -1;
	snprintf(lib, sizeof(lib), "%s/%s", dir, FB_JSONC_SONAME);
	snprintf(log, sizeof(log), "%s/err", dir);
	close(open(lib, O_WRONLY | O_CREAT | O_TRUNC, 0644));
	fd = open(log, O_RDWR | O_CREAT | O_TRUNC, 0644);
	pid = fork();
	if (pid == 0) {
		dup2(fd, STDERR_FILENO);
		setenv("LD_LIBRARY_PATH", dir, 1);
		execl(self, self, "--call-without-open", (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	n = pread(fd, err, size - 1, 0);
	err[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(lib);
	unlink(log);
	rmdir(dir);
	return status;
}

static void test_dlopen_backstop(const char *self)
{
	char err[1024];
	int status;

	ASSERT_TRUE(!jsonc_mapped());
	/* cleanup of a document -J never made loads nothing */
	ASSERT_INT_EQ(json_object_put(NULL), 0);
	ASSERT_TRUE(!jsonc_mapped());

	status = run_with_broken_jsonc(self, err, sizeof(err));
	ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 1,
		   "status %#x, stderr: %s", (unsigned)status, err);
	ASSERT_MSG(strstr(err, "cannot load libjson-c.so.5 (Debian package libjson-c5): "),
		   "stderr: %s", err);
}

/* After the first call, the pointers are json-c's own: no more detour. */
static void test_dlopen_took(void)
{
	void *h = dlopen(FB_JSONC_SONAME, RTLD_NOW | RTLD_NOLOAD);

	ASSERT_TRUE(h != NULL);
	if (!h)
		return;
	ASSERT_TRUE((void *)json_object_new_string == dlsym(h, "json_object_new_string"));
	ASSERT_TRUE((void *)json_object_put == dlsym(h, "json_object_put"));
	dlclose(h);
}

int main(int argc, char *argv[])
{
	bool dl = strncmp(fb_jsonc_backend_name, "dlopen ", 7) == 0;
	struct json_object *o;

	if (argc > 1 && strcmp(argv[1], "--call-without-open") == 0)
		return call_without_open();
	if (dl)
		test_dlopen_backstop(argv[0]);
	/* no fb_jsonc_open() yet: the first call loads json-c itself */
	o = json_object_new_object();
	json_object_object_add(o, "k", json_object_new_string("v"));
	ASSERT_STR_EQ(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
		      "{\"k\":\"v\"}");
	ASSERT_INT_EQ(json_object_put(o), 1);
	if (dl)
		test_dlopen_took();
	ASSERT_INT_EQ(fb_jsonc_open("test"), 0);
	return test_finish("test-jsonc");
}
