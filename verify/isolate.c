/*
 * isolate.c - one piece of work in a forked child (verify/isolate.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "verify/isolate.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "ir/fdio.h"
#include "util/clock.h"

/* The caller's signal handlers are not the child's: a campaign worker's
 * crash handler, inherited, reported a child that Z3 aborted (an uncaught
 * out_of_memory_error past the ceiling) as a crash of the worker, that is
 * as a finding of the optimizer.  The child dies of its signal instead,
 * which iso_run reports as ISO_DIED. */
static void default_handlers(void)
{
	for (int sig = 1; sig < 65; sig++) {
		struct sigaction old;
		if (sig == SIGKILL || sig == SIGSTOP ||
		    sigaction(sig, NULL, &old) != 0)
			continue;
		bool handled = (old.sa_flags & SA_SIGINFO)
				   ? old.sa_sigaction != NULL
				   : old.sa_handler != SIG_DFL &&
					 old.sa_handler != SIG_IGN;
		if (handled)
			signal(sig, SIG_DFL);
	}
}

#if defined(__SANITIZE_ADDRESS__)
#define ISO_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ISO_SANITIZED 1
#endif
#endif

/* The child prints nothing of its own (FN must not print), but a solver
 * that aborts in it does: Z3 4.8.12 past its memory ceiling ends with
 * "terminate called after throwing an instance of 'out_of_memory_error'",
 * which landed in the middle of `jitprove log`'s table although the
 * caller reports that death itself, as an unknown with its signal.  So
 * the child's stderr goes to /dev/null.  Builds with sanitizers keep it:
 * there a report from the child is the point of the run. */
static void quiet_stderr(void)
{
#ifndef ISO_SANITIZED
	int fd = open("/dev/null", O_WRONLY);
	if (fd < 0)
		return;
	dup2(fd, STDERR_FILENO);
	close(fd);
#endif
}

/* The child dies with its parent.  It inherits every descriptor the
 * parent holds: in a fuzz campaign's worker, the pipe the campaign reads
 * until the worker closes it.  A worker killed at the deadline left a
 * child that held the pipe until its query ended, and the campaign
 * waited for it (a 15 s campaign took 17.2 s, past --seconds N's N + 2
 * s).  On Linux the kernel kills the child when the parent dies; PARENT
 * is checked after, for a parent that died before the request. */
static void die_with(pid_t parent)
{
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
#else
	(void)parent;
#endif
}

/* The child: the length first, then the bytes.  Exit status 0 only when
 * all of it was written. */
static void child(iso_fn fn, void *arg, void *out, size_t cap, int fd,
		  pid_t parent)
{
	die_with(parent);
	default_handlers();
	quiet_stderr();
	size_t n = fn(arg, out, cap);
	if (n > cap)
		n = cap;
	uint64_t len = n;
	bool ok =
	    fd_write_all(fd, &len, sizeof len) && fd_write_all(fd, out, n);
	_exit(ok ? 0 : 1);
}

/* Reads exactly N bytes from FD before the deadline END (ms on the
 * monotonic clock; 0 = none).  1: read, 0: end of file or error, -1: the
 * deadline passed. */
static int read_until(int fd, void *buf, size_t n, double end)
{
	char *p = buf;
	while (n) {
		int wait = -1;
		if (end > 0) {
			double left = end - clk_now_ms();
			if (left <= 0)
				return -1;
			/* At most a minute per wait: the loop looks again,
			 * and a long deadline does not overflow an int. */
			wait = left > 60000 ? 60000 : (int)left + 1;
		}
		struct pollfd pf = {.fd = fd, .events = POLLIN};
		int r = poll(&pf, 1, wait);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return 0;
		if (r == 0)
			continue; /* the loop looks at the deadline */
		ssize_t k = read(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return 0;
		p += k;
		n -= (size_t)k;
	}
	return 1;
}

/* Reaps PID, retrying when a signal interrupts the wait. */
static int reap(pid_t pid)
{
	int status = 0;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

iso_outcome iso_run(iso_fn fn, void *arg, void *out, size_t cap, size_t *len,
		    unsigned deadline_ms, int *signo)
{
	*signo = 0;
	*len = 0;
	int fds[2];
	if (pipe(fds))
		return ISO_UNAVAILABLE;
	/* Whatever the caller has buffered would otherwise be written
	 * twice, once by each process. */
	fflush(NULL);
	double end = deadline_ms ? clk_now_ms() + deadline_ms : 0;
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return ISO_UNAVAILABLE;
	}
	if (pid == 0) {
		close(fds[0]);
		child(fn, arg, out, cap, fds[1], parent);
	}
	close(fds[1]);
	uint64_t n = 0;
	int r = read_until(fds[0], &n, sizeof n, end);
	if (r == 1 && n <= cap)
		r = read_until(fds[0], out, (size_t)n, end);
	else if (r == 1)
		r = 0; /* a length the child cannot have written */
	close(fds[0]);
	if (r < 0)
		kill(pid, SIGKILL);
	int status = reap(pid);
	if (r < 0)
		return ISO_TIMEOUT;
	/* A complete result is the child's answer whatever its exit status
	 * says: a tool such as valgrind may change the status of a child
	 * that ends without freeing its memory. */
	if (r == 1) {
		*len = (size_t)n;
		return ISO_DONE;
	}
	if (status >= 0 && WIFSIGNALED(status))
		*signo = WTERMSIG(status);
	return ISO_DIED;
}
