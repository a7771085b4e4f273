/*
 * ci_run.c - running the CI gate's cases: in turn, or in a pool of worker
 * processes (ci.h, "Parallelism").
 *
 * Sections:
 *   results over pipes  the encoding of a ci_result between processes
 *   the worker pool     forking workers, handing out cases, collecting
 *                       results, a lost worker's case as an error
 *   ci_run              the entry point
 */
#define _POSIX_C_SOURCE 200809L

#include "ci_int.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ir/fdio.h"
#include "ir/strbuf.h"

/* ---- results over pipes ----------------------------------------------- */

/* A result travels as: u32 payload length, then u32 fields, the time as
 * raw double bytes (same machine, same process image), and strings as u32
 * length (UINT32_MAX for NULL) plus bytes. */

static void put_u32(strbuf *sb, uint32_t x)
{
	sb_add(sb, (const char *)&x, sizeof x);
}

static void put_str(strbuf *sb, const char *s)
{
	if (!s) {
		put_u32(sb, UINT32_MAX);
		return;
	}
	uint32_t n = (uint32_t)strlen(s);
	put_u32(sb, n);
	sb_add(sb, s, n);
}

static void encode_result(const ci_result *r, strbuf *sb)
{
	put_u32(sb, 0); /* length, patched below */
	put_u32(sb, (uint32_t)r->got);
	put_u32(sb, (uint32_t)r->expected);
	put_u32(sb, (uint32_t)r->status);
	put_u32(sb, (uint32_t)r->cache);
	put_u32(sb, r->solver_calls);
	put_u32(sb, (uint32_t)r->loc_line);
	sb_add(sb, (const char *)&r->ms, sizeof r->ms);
	put_str(sb, r->message);
	put_str(sb, r->what);
	put_str(sb, r->cex);
	put_str(sb, r->json);
	put_str(sb, r->loc_file);
	put_str(sb, r->warning);
	if (!sb->oom) {
		uint32_t n = (uint32_t)(sb->len - sizeof n);
		memcpy(sb->buf, &n, sizeof n);
	}
}

typedef struct decoder {
	const char *p, *end;
	bool bad;
} decoder;

static uint32_t get_u32(decoder *d)
{
	uint32_t x = 0;
	if ((size_t)(d->end - d->p) < sizeof x) {
		d->bad = true;
		return 0;
	}
	memcpy(&x, d->p, sizeof x);
	d->p += sizeof x;
	return x;
}

static char *get_str(decoder *d)
{
	uint32_t n = get_u32(d);
	if (d->bad || n == UINT32_MAX)
		return NULL;
	if ((size_t)(d->end - d->p) < n) {
		d->bad = true;
		return NULL;
	}
	char *s = malloc((size_t)n + 1);
	if (!s) {
		d->bad = true;
		return NULL;
	}
	memcpy(s, d->p, n);
	s[n] = '\0';
	d->p += n;
	return s;
}

static bool decode_result(const char *buf, size_t len, ci_result *r)
{
	decoder d = {buf, buf + len, false};
	memset(r, 0, sizeof *r);
	r->got = (ci_verdict)get_u32(&d);
	r->expected = (ci_verdict)get_u32(&d);
	r->status = (ci_status)get_u32(&d);
	r->cache = (ci_cache_use)get_u32(&d);
	r->solver_calls = get_u32(&d);
	r->loc_line = (int)get_u32(&d);
	if ((size_t)(d.end - d.p) < sizeof r->ms)
		d.bad = true;
	else
		memcpy(&r->ms, d.p, sizeof r->ms);
	d.p += d.bad ? 0 : sizeof r->ms;
	r->message = get_str(&d);
	r->what = get_str(&d);
	r->cex = get_str(&d);
	r->json = get_str(&d);
	r->loc_file = get_str(&d);
	r->warning = get_str(&d);
	if (d.bad || d.p != d.end) {
		ci_result_free(r);
		return false;
	}
	return true;
}

/* ---- the worker pool -------------------------------------------------- */

typedef struct pool_worker {
	pid_t pid;
	int task_fd;	 /* parent writes case indices */
	int result_fd;	 /* parent reads results */
	int32_t busy_on; /* the case being checked, or -1 */
} pool_worker;

/* The worker's loop: read a case index, check it, send the result; leave
 * at end of file.  Runs in the child; never returns. */
static void worker_main(int task_fd, int result_fd, const ci_caselist *l,
			const ci_config *cfg)
{
	uint32_t idx;
	int code = 0;
	while (fd_read_all(task_fd, &idx, sizeof idx)) {
		ci_result r;
		if (idx >= l->n) {
			code = 3;
			break;
		}
		ci_check_case(&l->v[idx], cfg, &r);
		strbuf sb;
		sb_init(&sb);
		encode_result(&r, &sb);
		ci_result_free(&r);
		bool ok = !sb.oom && fd_write_all(result_fd, sb.buf, sb.len);
		sb_release(&sb);
		if (!ok) {
			code = 4;
			break;
		}
	}
	_exit(code);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static jp_status start_workers(pool_worker *ws, unsigned n,
			       const ci_caselist *l, const ci_config *cfg,
			       jp_err *err)
{
	for (unsigned i = 0; i < n; i++) {
		int task[2], res[2];
		if (pipe(task))
			return jp_fail(err, JP_EINTERNAL, "pipe: %s",
				       strerror(errno));
		if (pipe(res)) {
			close(task[0]);
			close(task[1]);
			return jp_fail(err, JP_EINTERNAL, "pipe: %s",
				       strerror(errno));
		}
		fflush(NULL);
		pid_t pid = fork();
		if (pid < 0) {
			close(task[0]);
			close(task[1]);
			close(res[0]);
			close(res[1]);
			return jp_fail(err, JP_EINTERNAL, "fork: %s",
				       strerror(errno));
		}
		if (pid == 0) {
			/* The child keeps only its own two ends. */
			for (unsigned j = 0; j < i; j++) {
				close_fd(&ws[j].task_fd);
				close_fd(&ws[j].result_fd);
			}
			close(task[1]);
			close(res[0]);
			worker_main(task[0], res[1], l, cfg);
		}
		close(task[0]);
		close(res[1]);
		ws[i].pid = pid;
		ws[i].task_fd = task[1];
		ws[i].result_fd = res[0];
		ws[i].busy_on = -1;
	}
	return JP_OK;
}

/* Gives worker W the next case, or tells it to leave. */
static void assign(pool_worker *w, uint32_t *next, uint32_t n)
{
	if (*next >= n) {
		close_fd(&w->task_fd);
		return;
	}
	uint32_t idx = (*next)++;
	if (fd_write_all(w->task_fd, &idx, sizeof idx))
		w->busy_on = (int32_t)idx;
	else
		close_fd(&w->task_fd);
}

/* A worker died while checking a case: the case becomes an error. */
static void worker_lost(pool_worker *w, ci_result *out, bool *done)
{
	int status = 0;
	if (w->pid > 0 && waitpid(w->pid, &status, 0) == w->pid)
		w->pid = -1;
	if (w->busy_on >= 0) {
		ci_result *r = &out[w->busy_on];
		memset(r, 0, sizeof *r);
		char buf[200];
		if (WIFSIGNALED(status))
			snprintf(buf, sizeof buf,
				 "error: the worker checking this case was "
				 "killed by signal %d",
				 WTERMSIG(status));
		else
			snprintf(buf, sizeof buf,
				 "error: the worker checking this case exited "
				 "with status %d",
				 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		r->got = CI_ERROR;
		r->expected = CI_PROVED;
		r->status = CI_ST_ERROR;
		r->message = ci_dup_str(buf);
		done[w->busy_on] = true;
		w->busy_on = -1;
	}
	close_fd(&w->result_fd);
	close_fd(&w->task_fd);
}

/* Reads one result from W into OUT and hands W its next case. */
static void collect(pool_worker *w, ci_result *out, bool *done, uint32_t *next,
		    uint32_t n)
{
	uint32_t len;
	if (!fd_read_all(w->result_fd, &len, sizeof len) || w->busy_on < 0) {
		worker_lost(w, out, done);
		return;
	}
	char *buf = malloc(len ? len : 1);
	bool ok = buf && fd_read_all(w->result_fd, buf, len) &&
		  decode_result(buf, len, &out[w->busy_on]);
	free(buf);
	if (!ok) {
		worker_lost(w, out, done);
		return;
	}
	done[w->busy_on] = true;
	w->busy_on = -1;
	assign(w, next, n);
}

static jp_status run_pool(const ci_caselist *l, const ci_config *cfg,
			  ci_result *out, jp_err *err)
{
	unsigned n = cfg->jobs < l->n ? cfg->jobs : l->n;
	pool_worker *ws = calloc(n, sizeof *ws);
	bool *done = calloc(l->n, sizeof *done);
	struct pollfd *pf = calloc(n, sizeof *pf);
	if (!ws || !done || !pf) {
		free(ws);
		free(done);
		free(pf);
		return jp_fail(err, JP_ENOMEM, "out of memory");
	}
	for (unsigned i = 0; i < n; i++) {
		ws[i].pid = -1;
		ws[i].task_fd = ws[i].result_fd = -1;
	}
	/* A worker that dies must not kill the parent with SIGPIPE. */
	struct sigaction ign = {0}, old;
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old);
	jp_status st = start_workers(ws, n, l, cfg, err);
	uint32_t next = 0;
	for (unsigned i = 0; i < n && !st; i++)
		assign(&ws[i], &next, l->n);
	for (;;) {
		unsigned np = 0;
		for (unsigned i = 0; i < n; i++)
			if (ws[i].result_fd >= 0 && ws[i].busy_on >= 0) {
				pf[np].fd = ws[i].result_fd;
				pf[np].events = POLLIN;
				pf[np].revents = 0;
				np++;
			}
		if (np == 0)
			break;
		if (poll(pf, np, -1) < 0) {
			if (errno == EINTR)
				continue;
			st = jp_fail(err, JP_EINTERNAL, "poll: %s",
				     strerror(errno));
			break;
		}
		for (unsigned k = 0; k < np; k++) {
			if (!pf[k].revents)
				continue;
			for (unsigned i = 0; i < n; i++)
				if (ws[i].result_fd == pf[k].fd)
					collect(&ws[i], out, done, &next, l->n);
		}
	}
	for (unsigned i = 0; i < n; i++) {
		close_fd(&ws[i].task_fd);
		close_fd(&ws[i].result_fd);
		if (ws[i].pid > 0)
			waitpid(ws[i].pid, NULL, 0);
	}
	sigaction(SIGPIPE, &old, NULL);
	/* Cases no worker got to (the pool could not start) are errors. */
	for (uint32_t i = 0; i < l->n; i++)
		if (!done[i]) {
			memset(&out[i], 0, sizeof out[i]);
			out[i].got = CI_ERROR;
			out[i].status = CI_ST_ERROR;
			out[i].message =
			    ci_dup_str("error: no worker process checked this "
				       "case");
		}
	free(ws);
	free(done);
	free(pf);
	return st;
}

/* ---- ci_run ----------------------------------------------------------- */

jp_status ci_run(const ci_caselist *l, const ci_config *cfg, ci_result *out,
		 jp_err *err)
{
	if (l->n == 0)
		return JP_OK;
	if (cfg->jobs > 1 && l->n > 1)
		return run_pool(l, cfg, out, err);
	for (uint32_t i = 0; i < l->n; i++)
		ci_check_case(&l->v[i], cfg, &out[i]);
	return JP_OK;
}
