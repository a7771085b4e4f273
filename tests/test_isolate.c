/* verify/isolate: results come back, the caller's memory is untouched by
 * the child, and a stuck or crashing child ends as a timeout or a death
 * instead of taking the caller with it. */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "util/clock.h"
#include "verify/isolate.h"

static int shared_value = 7;

/* Doubles the number in *ARG into OUT, and changes a global that only the
 * child's copy of memory should see. */
static size_t double_it(void *arg, void *out, size_t cap)
{
	int v = *(int *)arg * 2;
	shared_value = 1000;
	memcpy(out, &v, sizeof v);
	return cap < sizeof v ? cap : sizeof v;
}

static void test_result_comes_back(void)
{
	int in = 21, out = 0;
	size_t len = 99;
	int sig = -1;
	iso_outcome how =
	    iso_run(double_it, &in, &out, sizeof out, &len, 5000, &sig);
	CHECK(how == ISO_DONE);
	CHECK(len == sizeof out);
	CHECK(out == 42);
	CHECK(sig == 0);
	CHECK(shared_value == 7); /* the child's write stayed in the child */
}

/* A large result goes through the pipe in several pieces. */
static size_t fill_big(void *arg, void *out, size_t cap)
{
	(void)arg;
	unsigned char *p = out;
	for (size_t i = 0; i < cap; i++)
		p[i] = (unsigned char)(i * 31 + 7);
	return cap;
}

static void test_big_result(void)
{
	size_t cap = 1u << 20;
	unsigned char *buf = calloc(1, cap);
	size_t len = 0;
	int sig;
	CHECK(iso_run(fill_big, NULL, buf, cap, &len, 0, &sig) == ISO_DONE);
	CHECK(len == cap);
	size_t bad = 0;
	for (size_t i = 0; i < cap; i++)
		bad += buf[i] != (unsigned char)(i * 31 + 7);
	CHECK(bad == 0);
	free(buf);
}

static size_t hang(void *arg, void *out, size_t cap)
{
	(void)arg;
	(void)out;
	(void)cap;
	for (;;)
		pause();
	return 0;
}

static void test_deadline_kills(void)
{
	int out;
	size_t len = 5;
	int sig;
	double t0 = clk_now_ms();
	iso_outcome how =
	    iso_run(hang, NULL, &out, sizeof out, &len, 200, &sig);
	double took = clk_now_ms() - t0;
	CHECK(how == ISO_TIMEOUT);
	CHECK(len == 0);
	CHECK(took >= 190 && took < 3000);
}

static size_t nap_then_answer(void *arg, void *out, size_t cap)
{
	(void)arg;
	struct timespec t = {0, 300 * 1000 * 1000};
	nanosleep(&t, NULL);
	memset(out, 0x5a, cap);
	return cap;
}

/* The largest deadline must mean "long", not wrap into a short wait. */
static void test_huge_deadline(void)
{
	unsigned char out = 0;
	size_t len;
	int sig;
	CHECK(iso_run(nap_then_answer, NULL, &out, 1, &len, 4294967295u,
		      &sig) == ISO_DONE);
	CHECK(len == 1 && out == 0x5a);
}

static size_t crash(void *arg, void *out, size_t cap)
{
	(void)arg;
	(void)out;
	(void)cap;
	raise(SIGABRT);
	return 0;
}

static void test_crash_is_a_death(void)
{
	int out;
	size_t len;
	int sig = 0;
	iso_outcome how =
	    iso_run(crash, NULL, &out, sizeof out, &len, 5000, &sig);
	CHECK(how == ISO_DIED);
	CHECK(sig == SIGABRT);
}

/* A crash handler of the caller (a campaign worker has one) must not run
 * in the child: it would report the child's abort as the caller's crash. */
static int handler_fd = -1;

static void caller_handler(int sig)
{
	char c = 'x';
	ssize_t k = write(handler_fd, &c, 1);
	(void)k;
	signal(sig, SIG_DFL);
	raise(sig);
}

static void test_crash_skips_caller_handlers(void)
{
	int fds[2];
	CHECK(pipe(fds) == 0);
	handler_fd = fds[1];
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = caller_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGABRT, &sa, &old);
	int out;
	size_t len;
	int sig = 0;
	iso_outcome how =
	    iso_run(crash, NULL, &out, sizeof out, &len, 5000, &sig);
	sigaction(SIGABRT, &old, NULL);
	CHECK(how == ISO_DIED);
	CHECK(sig == SIGABRT);
	close(fds[1]);
	char c;
	CHECK(read(fds[0], &c, 1) == 0); /* the handler never wrote */
	close(fds[0]);
}

/* Writes to stderr, then aborts, as Z3 does past its memory ceiling. */
static size_t shout_and_crash(void *arg, void *out, size_t cap)
{
	(void)arg;
	(void)out;
	(void)cap;
	fputs("terminate called after throwing\n", stderr);
	fflush(stderr);
	abort();
}

/* The child's last words stay out of the caller's stderr (outside
 * sanitizer builds, which keep them on purpose). */
static void test_child_stderr_silent(void)
{
	int fds[2];
	CHECK(pipe(fds) == 0);
	fflush(stderr);
	int saved = dup(STDERR_FILENO);
	dup2(fds[1], STDERR_FILENO);
	close(fds[1]);
	int out;
	size_t len;
	int sig = 0;
	iso_outcome how =
	    iso_run(shout_and_crash, NULL, &out, sizeof out, &len, 5000, &sig);
	dup2(saved, STDERR_FILENO);
	close(saved);
	CHECK(how == ISO_DIED);
	char buf[64];
	ssize_t k = read(fds[0], buf, sizeof buf);
	close(fds[0]);
#if defined(__SANITIZE_ADDRESS__)
	CHECK(k > 0);
#else
	CHECK(k == 0);
#endif
}

/* The child touches 96 MB; the caller's own peak must not move, and
 * RUSAGE_CHILDREN must see the child's. */
static size_t balloon(void *arg, void *out, size_t cap)
{
	(void)arg;
	size_t n = (size_t)96 << 20;
	char *p = malloc(n);
	if (!p)
		return 0;
	memset(p, 1, n);
	long sum = 0;
	for (size_t i = 0; i < n; i += 4096)
		sum += p[i];
	memcpy(out, &sum, sizeof sum);
	return cap;
}

static void test_memory_stays_in_child(void)
{
	struct rusage before, after;
	getrusage(RUSAGE_SELF, &before);
	long sum = 0;
	size_t len;
	int sig;
	CHECK(iso_run(balloon, NULL, &sum, sizeof sum, &len, 0, &sig) ==
	      ISO_DONE);
	CHECK(sum == (long)((96 << 20) / 4096));
	struct rusage child;
	getrusage(RUSAGE_SELF, &after);
	getrusage(RUSAGE_CHILDREN, &child);
	printf("isolate: caller peak %ld -> %ld kB, child peak %ld kB\n",
	       before.ru_maxrss, after.ru_maxrss, child.ru_maxrss);
	CHECK(after.ru_maxrss - before.ru_maxrss < 16 * 1024);
	CHECK(child.ru_maxrss >= 96 * 1024);
}

/* A child outlives no parent (Linux): a fuzz campaign reads its worker's
 * pipe until every holder closes it, and a worker killed at the
 * deadline left its child holding it until the child's query ended.
 * Here a worker holds the write end of a pipe and waits on a child that
 * never ends; once the worker is killed, the read end sees the end of
 * the file at once. */
static void test_child_dies_with_parent(void)
{
#ifdef __linux__
	int fds[2];
	CHECK(pipe(fds) == 0);
	pid_t w = fork();
	if (w == 0) {
		close(fds[0]);
		int out;
		size_t len;
		int sig;
		iso_run(hang, NULL, &out, sizeof out, &len, 0, &sig);
		_exit(0);
	}
	close(fds[1]);
	struct timespec t = {0, 200 * 1000 * 1000};
	nanosleep(&t, NULL); /* the worker's child is running */
	kill(w, SIGKILL);
	waitpid(w, NULL, 0);
	struct pollfd p = {fds[0], POLLIN, 0};
	int r = poll(&p, 1, 3000);
	char c;
	CHECK(r == 1 && read(fds[0], &c, 1) == 0); /* end of file */
	close(fds[0]);
#endif
}

int main(void)
{
	test_result_comes_back();
	test_big_result();
	test_deadline_kills();
	test_huge_deadline();
	test_crash_is_a_death();
	test_crash_skips_caller_handlers();
	test_child_stderr_silent();
	test_memory_stays_in_child();
	test_child_dies_with_parent();
	return check_summary("test_isolate");
}
