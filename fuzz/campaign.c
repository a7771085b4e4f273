/*
 * campaign.c - fuzzing campaigns (campaign.h): the options, and the
 * parent process, which starts the workers (campworker.c), collects their
 * messages, keeps the state file (campstate.c) and the coverage-feedback
 * corpus of every stream (fuzz/corpus.h), and sums up.
 *
 * Sections: small helpers; state; the parent (slots, state, events,
 * crashes, messages, workers, directories, camp_run).
 */
#define _POSIX_C_SOURCE 200809L
#include "campaign.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <z3.h>

#include "fuzz/camp_int.h"
#include "fuzz/campstate.h"
#include "fuzz/reduce.h"
#include "ir/strbuf.h"
#include "util/clock.h"
#include "util/rng.h"
#include "verify/check.h"

/* ---- small helpers ---- */

camp_opts camp_default_opts(void)
{
	camp_opts o;
	memset(&o, 0, sizeof o);
	o.jobs = 1;
	o.seconds = 20;
	o.gen = gen_default_opts();
	o.gen.heap = true;
	o.cfg = opt_default_config();
	o.timeout_ms = 1000;
	o.outdir = "jp-out";
	o.status_every = 1;
	return o;
}

uint64_t camp_trace_seed(uint64_t seed, uint32_t stream, uint64_t index)
{
	return rng_derive(seed, stream, index);
}

bool camp_verifier_has_heap(ver_ctx *vc)
{
	/* [p0]  p1 = new(descr=T)  escape_n(p1)  finish(p0), against
	 * itself: an unsupported-op error is the verifier saying no. */
	ir_trace *t = ir_trace_new(64);
	if (!t)
		return false;
	ir_vid p0 = ir_add_input(t, 'r', NULL);
	uint32_t T = ir_cstr(t, "T");
	uint32_t a = ir_emit(t, IR_NEW, 0, NULL, T, NULL);
	bool ok = p0 != IR_NOVAL && T != UINT32_MAX && a != UINT32_MAX;
	if (ok) {
		ir_vid p1 = t->ops[a].result;
		ok = ir_emit(t, IR_ESCAPE_N, 1, &p1, 0, NULL) != UINT32_MAX &&
		     ir_emit(t, IR_FINISH, 1, &p0, 0, NULL) != UINT32_MAX;
	}
	bool heap = false;
	if (ok) {
		ver_opts vo = ver_default_opts();
		vo.timeout_ms = 1000;
		ver_result res;
		memset(&res, 0, sizeof res);
		jp_status st = ver_check(vc, t, t, &vo, &res, NULL);
		heap = st != JP_EUNSUPPORTED;
		ver_result_free(&res);
	}
	ir_trace_free(t);
	return heap;
}

void camp_z3_version(char *buf, size_t size)
{
	unsigned a, b, c, d;
	Z3_get_version(&a, &b, &c, &d);
	snprintf(buf, size, "%u.%u.%u", a, b, c);
}

static void counts_add(camp_counts *a, const camp_counts *b)
{
	a->traces += b->traces;
	a->proved += b->proved;
	a->refuted += b->refuted;
	a->unknown += b->unknown;
	a->errors += b->errors;
	a->findings_new += b->findings_new;
	a->findings_dup += b->findings_dup;
	a->ops += b->ops;
	a->ms_gen += b->ms_gen;
	a->ms_opt += b->ms_opt;
	a->ms_ver += b->ms_ver;
	a->ms_reduce += b->ms_reduce;
	a->ms_blame += b->ms_blame;
	a->reducing += b->reducing;
	a->red_ops_from += b->red_ops_from;
	a->red_ops += b->red_ops;
	a->red_evals += b->red_evals;
	a->audit_traces += b->audit_traces;
	a->audited += b->audited;
	a->audit_agreed += b->audit_agreed;
	a->audit_disagreed += b->audit_disagreed;
	a->audit_unknown += b->audit_unknown;
	a->cov_traces += b->cov_traces;
	for (int r = 0; r < OPT_RULE_COUNT; r++)
		a->rule_hits[r] += b->rule_hits[r];
	for (int k = 0; k < OPT_BR_COUNT; k++)
		a->branch_hits[k] += b->branch_hits[k];
	/* Features are per stream (not a union): the most of any. */
	if (b->cov_features > a->cov_features)
		a->cov_features = b->cov_features;
	a->cov_mutants += b->cov_mutants;
}

/* How long a worker may run past the campaign's deadline: the trace at
 * hand and the last step of a reduction (--seconds N ends within N + 2 s,
 * docs/fuzzing.md). */
#define CAMP_OVERRUN_MS 1000.0
/* Then SIGTERM, and SIGKILL this long after. */
#define CAMP_KILL_LATE_MS 300.0

/* ---- state (fuzz/campstate.c) ---- */

jp_status camp_resume_opts(camp_opts *o, jp_err *err)
{
	camp_state s;
	jp_status st = cst_read(o->outdir, &s, err);
	if (st)
		return st;
	cst_free(&s); /* the corpora are read again by the parent */
	o->seed = s.seed;
	o->gen = s.gen;
	o->cov_pct = s.cov_pct;
	o->cfg.passes = s.cfg.passes;
	o->cfg.bugs = s.cfg.bugs;
	if (s.timeout_ms)
		o->timeout_ms = s.timeout_ms;
	if (o->limits_given)
		return JP_OK;
	if (s.budget_count) {
		if (s.all.traces >= s.budget_count)
			return jp_fail(err, JP_EINPUT,
				       "--resume: the campaign in '%s' has "
				       "judged its %llu traces (--count); give "
				       "--count N or --seconds N to go on",
				       o->outdir,
				       (unsigned long long)s.budget_count);
		o->count = s.budget_count - s.all.traces;
		o->seconds = 0;
	} else if (s.budget_s > 0) {
		double left = s.budget_s - s.elapsed;
		if (left < 0.5)
			return jp_fail(err, JP_EINPUT,
				       "--resume: the campaign in '%s' has "
				       "used its budget (%.0f s, %.1f s run); "
				       "give --seconds N or --count N to go on",
				       o->outdir, s.budget_s, s.elapsed);
		o->seconds = left;
		o->count = 0;
	}
	return JP_OK;
}

/* ---- the parent ---- */

typedef struct wslot {
	pid_t pid;
	int fd;
	bool alive; /* the pipe is open */
	bool done;  /* the worker finished normally */
	int restarts;
	uint64_t next;	  /* next index of the stream */
	uint64_t share;	  /* traces left for this stream; 0 = unlimited */
	camp_counts base; /* counts of earlier processes of this slot */
	camp_counts cur;  /* the current process's latest counts */
	/* The stream's coverage-feedback corpus as of trace NEXT (NULL =
	 * no feedback): the worker reports every entry it adds. */
	cov_corpus *cov;
	char buf[sizeof(wmsg)];
	size_t nbuf;
} wslot;

typedef struct camp {
	camp_opts o; /* effective options */
	camp_state prev;
	wslot *slots;
	int nslots;
	camp_summary *sum;
	double t0, deadline;
	bool stopping;
	bool late; /* stopping because the deadline passed */
	double stop_at;
	gen_ctx *g; /* to regenerate crashing traces */
	jp_err *err;
} camp;

static camp_counts session_counts(const camp *c)
{
	camp_counts t;
	memset(&t, 0, sizeof t);
	for (int i = 0; i < c->nslots; i++) {
		counts_add(&t, &c->slots[i].base);
		counts_add(&t, &c->slots[i].cur);
	}
	return t;
}

static void write_state(camp *c)
{
	camp_state s = c->prev;
	s.seed = c->o.seed;
	s.gen = c->o.gen;
	s.cfg = c->o.cfg;
	s.timeout_ms = c->o.timeout_ms;
	/* The budget over all sessions: what ran before plus this one's. */
	s.budget_s = c->o.seconds > 0 ? c->prev.elapsed + c->o.seconds : 0;
	s.budget_count = c->o.count ? c->prev.all.traces + c->o.count : 0;
	if ((uint32_t)c->nslots > s.nstreams)
		s.nstreams = (uint32_t)c->nslots;
	for (int i = 0; i < c->nslots; i++) {
		s.next[i] = c->slots[i].next;
		s.cov[i] = c->slots[i].cov;
	}
	s.cov_pct = c->o.cov_pct;
	camp_counts sc = session_counts(c);
	counts_add(&s.all, &sc);
	s.elapsed += (clk_now_ms() - c->t0) / 1e3;
	strbuf sb;
	sb_init(&sb);
	cst_format(&s, &sb);
	char path[4096];
	snprintf(path, sizeof path, "%s/state", c->o.outdir);
	camp_write_atomic(path, &sb);
	sb_release(&sb);
}

static void emit_event(camp *c, camp_event_kind k, const camp_finding *f,
		       const char *note)
{
	if (!c->o.on_event)
		return;
	camp_counts s = session_counts(c);
	camp_event ev = {k, &s, (clk_now_ms() - c->t0) / 1e3, f, note};
	c->o.on_event(c->o.ud, &ev);
}

static camp_finding *find_sig(camp_summary *s, const char *sig)
{
	for (uint32_t i = 0; i < s->nfindings; i++)
		if (!strcmp(s->findings[i].sig, sig))
			return &s->findings[i];
	return NULL;
}

static camp_finding *add_finding(camp *c, const camp_finding *f, bool known)
{
	camp_summary *s = c->sum;
	camp_finding *x = find_sig(s, f->sig);
	if (x) {
		x->hits++;
		return x;
	}
	void *p =
	    realloc(s->findings, (s->nfindings + 1) * sizeof *s->findings);
	if (!p)
		return NULL;
	s->findings = p;
	x = &s->findings[s->nfindings++];
	*x = *f;
	x->at_s = (clk_now_ms() - c->t0) / 1e3;
	x->hits = 1;
	x->known = known;
	return x;
}

/* A worker died on a signal while judging a trace: save the trace (the
 * parent regenerates it from its seed) as a finding of kind "crash". */
static void record_crash(camp *c, wslot *sl, const wmsg *m)
{
	camp_finding f;
	memset(&f, 0, sizeof f);
	strbuf sig;
	sb_init(&sig);
	if (c->o.cfg.bugs)
		camp_put_mask(&sig, c->o.cfg.bugs, OPT_BUG_COUNT,
			      camp_bug_name_i);
	else
		sb_puts(&sig, "nobug");
	sb_printf(&sig, ".crash.signal-%d", (int)m->signo);
	snprintf(f.sig, sizeof f.sig, "%s", sig.buf);
	for (char *q = f.sig; *q; q++)
		if (*q == ',')
			*q = '+';
	sb_release(&sig);
	snprintf(f.kind, sizeof f.kind, "crash");
	snprintf(f.what, sizeof f.what, "worker killed by signal %d",
		 (int)m->signo);
	f.trace_seed = m->f.trace_seed;
	snprintf(f.trace_id, sizeof f.trace_id, "%s", m->f.trace_id);
	f.stream = m->stream;
	f.index = m->next_index;
	ir_trace *t = NULL;
	gen_example ex;
	int r = -1;
	gen_id id;
	if (c->g && gen_parse_id(f.trace_id, &id, NULL) == JP_OK &&
	    gen_trace_id(c->g, &id, &c->o.gen, &t, &ex, NULL) == JP_OK) {
		f.ops_orig = f.ops_reduced = ir_count_ops(t);
		red_outcome none;
		memset(&none, 0, sizeof none);
		snprintf(none.what, sizeof none.what, "%s", f.what);
		camp_bundle b = {t, &ex, &none, t, &none, NULL};
		r = camp_save_finding(&c->o, ".tmp-parent", &f, &b);
		ir_trace_free(t);
	}
	/* The crashed trace counts as judged, with an error. */
	sl->base.traces++;
	sl->base.errors++;
	if (r == 1)
		sl->base.findings_new++;
	else
		sl->base.findings_dup++;
	sl->next = m->next_index + 1;
	camp_finding *x = add_finding(c, &f, r == 0);
	if (x)
		emit_event(c, r == 1 ? CAMP_EV_FINDING : CAMP_EV_DUPLICATE, x,
			   NULL);
}

static void handle_msg(camp *c, wslot *sl, const wmsg *m)
{
	if (m->heap_off && c->o.gen.heap) {
		/* Every worker probes the same verifier: switch heap ops off
		 * for the record (state, summary, crash replays) and say so
		 * once. */
		c->o.gen.heap = false;
		emit_event(c, CAMP_EV_NOTE, NULL,
			   "the verifier does not model the heap: generating "
			   "integer traces only (heap ops off)");
	}
	if (m->type == MSG_CRASH) {
		/* The counts in a crash message are those before the
		 * crashing trace. */
		sl->cur = m->c;
		record_crash(c, sl, m);
		return;
	}
	sl->cur = m->c;
	sl->next = m->next_index;
	switch (m->type) {
	case MSG_FINDING:
	case MSG_DUP: {
		/* Progress right away: a resumed campaign must not find the
		 * same thing again first. */
		write_state(c);
		bool known_before =
		    m->type == MSG_DUP && !find_sig(c->sum, m->f.sig);
		camp_finding *x = add_finding(c, &m->f, known_before);
		if (x)
			emit_event(c,
				   m->type == MSG_FINDING ? CAMP_EV_FINDING
							  : CAMP_EV_DUPLICATE,
				   x, NULL);
		break;
	}
	case MSG_DONE: sl->done = true; break;
	case MSG_CORPUS:
		if (sl->cov)
			cov_add(sl->cov, &m->cov);
		break;
	default: break;
	}
}

static jp_status spawn(camp *c, int i)
{
	wslot *sl = &c->slots[i];
	int p[2];
	if (pipe(p) != 0)
		return jp_fail(c->err, JP_EINTERNAL, "pipe: %s",
			       strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return jp_fail(c->err, JP_EINTERNAL, "fork: %s",
			       strerror(errno));
	}
	if (pid == 0) {
		close(p[0]);
		for (int k = 0; k < c->nslots; k++)
			if (k != i && c->slots[k].alive)
				close(c->slots[k].fd);
		gen_ctx_free(c->g);
		/* A restarted slot always has traces left (see drain), so
		 * this share is never 0, which would mean "unlimited". */
		uint64_t share = sl->share ? sl->share - sl->base.traces : 0;
		uint32_t mu = c->o.max_unknown ? c->o.max_unknown : 200;
		/* The corpus goes with the fork: a restarted worker goes on
		 * with every entry its predecessor reported. */
		camp_worker_run(&c->o, (uint32_t)i, sl->next, share,
				c->deadline, p[1], mu / (uint32_t)c->nslots + 1,
				sl->cov);
	}
	close(p[1]);
	sl->pid = pid;
	sl->fd = p[0];
	sl->alive = true;
	sl->done = false;
	sl->nbuf = 0;
	memset(&sl->cur, 0, sizeof sl->cur);
	return JP_OK;
}

/* Reads what worker I sent; on end of file reaps it and, when it died
 * early, restarts it after the trace it was working on. */
static void drain(camp *c, int i)
{
	wslot *sl = &c->slots[i];
	ssize_t k = read(sl->fd, sl->buf + sl->nbuf, sizeof sl->buf - sl->nbuf);
	if (k < 0 && errno == EINTR)
		return;
	if (k > 0) {
		sl->nbuf += (size_t)k;
		if (sl->nbuf == sizeof sl->buf) {
			wmsg m;
			memcpy(&m, sl->buf, sizeof m);
			sl->nbuf = 0;
			handle_msg(c, sl, &m);
		}
		return;
	}
	close(sl->fd);
	sl->alive = false;
	int status = 0;
	waitpid(sl->pid, &status, 0);
	if (sl->done)
		return;
	/* Died early: fold its counts into the base and start again.  A
	 * reduction it was running is over. */
	counts_add(&sl->base, &sl->cur);
	memset(&sl->cur, 0, sizeof sl->cur);
	sl->base.reducing = sl->base.red_ops_from = sl->base.red_ops = 0;
	sl->base.red_evals = 0;
	bool more = !sl->share || sl->base.traces < sl->share;
	if (!c->stopping && more && sl->restarts < 20) {
		sl->restarts++;
		char note[160];
		snprintf(
		    note, sizeof note,
		    "worker %d exited unexpectedly (status %d); restarting "
		    "it at trace %llu",
		    i, status, (unsigned long long)sl->next);
		emit_event(c, CAMP_EV_NOTE, NULL, note);
		spawn(c, i);
	}
}

static void signal_workers(camp *c, int sig)
{
	for (int i = 0; i < c->nslots; i++)
		if (c->slots[i].alive)
			kill(c->slots[i].pid, sig);
}

static jp_status prepare_dirs(const camp_opts *o, jp_err *err)
{
	char path[4096];
	if (!camp_make_dir(o->outdir))
		return jp_fail(err, JP_EIO, "cannot create directory '%s': %s",
			       o->outdir, strerror(errno));
	snprintf(path, sizeof path, "%s/findings", o->outdir);
	if (!camp_make_dir(path))
		return jp_fail(err, JP_EIO, "cannot create '%s': %s", path,
			       strerror(errno));
	/* Temporary bundles of a killed campaign are incomplete: drop them. */
	DIR *d = opendir(path);
	if (d) {
		struct dirent *e;
		char sub[4400];
		while ((e = readdir(d))) {
			if (strncmp(e->d_name, ".tmp-", 5) != 0)
				continue;
			snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
			camp_remove_dir(sub);
		}
		closedir(d);
	}
	snprintf(path, sizeof path, "%s/unknown", o->outdir);
	if (!camp_make_dir(path))
		return jp_fail(err, JP_EIO, "cannot create '%s': %s", path,
			       strerror(errno));
	return JP_OK;
}

static uint32_t count_bundles(const char *outdir)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/findings", outdir);
	DIR *d = opendir(path);
	uint32_t n = 0;
	if (!d)
		return 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static jp_status load_state(camp *c, jp_err *err)
{
	jp_status st = camp_resume_opts(&c->o, err);
	return st ? st : cst_read(c->o.outdir, &c->prev, err);
}

/* A new campaign never replaces the state of another one silently. */
static jp_status check_no_state(const camp_opts *o, jp_err *err)
{
	char path[4096];
	struct stat stt;
	snprintf(path, sizeof path, "%s/state", o->outdir);
	if (o->resume || o->force || stat(path, &stt) != 0)
		return JP_OK;
	camp_state s;
	char what[160] = "a campaign";
	if (cst_read(o->outdir, &s, NULL) == JP_OK) {
		snprintf(what, sizeof what,
			 "a campaign (seed %llu, %llu traces judged)",
			 (unsigned long long)s.seed,
			 (unsigned long long)s.all.traces);
		cst_free(&s);
	}
	return jp_fail(err, JP_EINPUT,
		       "'%s' exists: %s ran in '%s'; continue it with "
		       "--resume, start a new campaign there with --force (its "
		       "findings stay and count as known), or choose another "
		       "--out",
		       path, what, o->outdir);
}

static void fill_summary(camp *c)
{
	camp_summary *s = c->sum;
	s->session = session_counts(c);
	s->all = c->prev.all;
	counts_add(&s->all, &s->session);
	s->elapsed = (clk_now_ms() - c->t0) / 1e3;
	s->seed = c->o.seed;
	s->gen = c->o.gen;
	s->cfg = c->o.cfg;
	s->timeout_ms = c->o.timeout_ms;
	s->jobs = c->nslots;
	s->cov_pct = c->o.cov_pct;
}

/* Gives every slot its stream's corpus: the one the state kept (moved out
 * of PREV), or a new empty one.  None without feedback, or with an
 * external optimizer (it reports no coverage). */
static bool setup_corpora(camp *c)
{
	if (c->o.optimizer)
		c->o.cov_pct = 0;
	for (int i = 0; i < c->nslots; i++) {
		wslot *sl = &c->slots[i];
		sl->cov = c->prev.cov[i];
		c->prev.cov[i] = NULL;
		if (c->o.cov_pct == 0) {
			free(sl->cov);
			sl->cov = NULL;
			continue;
		}
		if (!sl->cov) {
			sl->cov = malloc(sizeof *sl->cov);
			if (!sl->cov)
				return false;
			cov_init(sl->cov);
		}
	}
	return true;
}

static void free_camp(camp *c)
{
	for (int i = 0; c->slots && i < c->nslots; i++)
		free(c->slots[i].cov);
	free(c->slots);
	gen_ctx_free(c->g);
	cst_free(&c->prev);
}

jp_status camp_run(const camp_opts *opts, camp_summary *sum, jp_err *err)
{
	memset(sum, 0, sizeof *sum);
	camp c;
	memset(&c, 0, sizeof c);
	c.o = *opts;
	c.sum = sum;
	c.err = err;
	if (c.o.jobs < 1 || c.o.jobs > 256)
		return jp_fail(err, JP_EINPUT,
			       "expected 1 to 256 jobs, found %d", c.o.jobs);
	jp_status st;
	if ((st = check_no_state(&c.o, err)))
		return st;
	if (c.o.resume && (st = load_state(&c, err)))
		return st;
	if ((st = gen_check_opts(&c.o.gen, err)) ||
	    (st = prepare_dirs(&c.o, err))) {
		free_camp(&c);
		return st;
	}
	sum->resumed = c.o.resume;
	sum->known_before = count_bundles(c.o.outdir);
	c.nslots = c.o.jobs;
	c.slots = calloc((size_t)c.nslots, sizeof *c.slots);
	c.g = gen_ctx_new();
	if (!c.slots || !c.g || !setup_corpora(&c)) {
		free_camp(&c);
		return jp_fail(err, JP_ENOMEM, "out of memory");
	}
	c.t0 = clk_now_ms();
	c.deadline = c.o.seconds > 0 ? c.t0 + c.o.seconds * 1e3 : 0;
	for (int i = 0; i < c.nslots; i++) {
		wslot *sl = &c.slots[i];
		sl->next = (uint32_t)i < c.prev.nstreams ? c.prev.next[i] : 0;
		if (c.o.count) {
			uint64_t n = (uint64_t)c.nslots;
			sl->share =
			    c.o.count / n + ((uint64_t)i < c.o.count % n);
		}
	}
	write_state(&c);
	for (int i = 0; i < c.nslots; i++) {
		if (c.o.count && c.slots[i].share == 0)
			continue; /* more jobs than traces */
		if ((st = spawn(&c, i))) {
			signal_workers(&c, SIGTERM);
			break;
		}
	}
	double every = c.o.status_every > 0 ? c.o.status_every * 1e3 : 1e3;
	double last_status = c.t0, last_state = c.t0;
	/* Workers stop themselves at the deadline or after their share;
	 * on STOP they get SIGTERM, and SIGKILL if they linger (a solver
	 * query can take up to the timeout, a reduction a little more). */
	double grace = 5e3 + 3.0 * c.o.timeout_ms;
	for (;;) {
		struct pollfd pfd[256];
		int idx[256], n = 0;
		for (int i = 0; i < c.nslots; i++)
			if (c.slots[i].alive) {
				pfd[n].fd = c.slots[i].fd;
				pfd[n].events = POLLIN;
				idx[n++] = i;
			}
		if (n == 0)
			break;
		int r = poll(pfd, (nfds_t)n, 100);
		if (r > 0)
			for (int k = 0; k < n; k++)
				if (pfd[k].revents &
				    (POLLIN | POLLHUP | POLLERR))
					drain(&c, idx[k]);
		double now = clk_now_ms();
		/* At the deadline the workers stop by themselves after the
		 * trace at hand; a reduction may overrun a little.  Past
		 * that they are told to stop, and past the grace killed;
		 * a second Ctrl-C (STOP >= 2) kills them at once. */
		bool late =
		    c.deadline > 0 && now > c.deadline + CAMP_OVERRUN_MS;
		if (c.o.stop && *c.o.stop >= 2)
			signal_workers(&c, SIGKILL);
		bool enough =
		    c.o.max_findings && sum->nfindings >= c.o.max_findings;
		if (!c.stopping &&
		    ((c.o.stop && *c.o.stop) || late || enough)) {
			c.stopping = true;
			c.late = late;
			c.stop_at = now;
			sum->interrupted = c.o.stop && *c.o.stop;
			/* Enough findings: the workers finish what they are
			 * reducing.  Interrupted or far too late: they cut
			 * reductions short. */
			signal_workers(&c, enough && !sum->interrupted && !late
					       ? SIGUSR1
					       : SIGTERM);
		}
		if (c.stopping && !sum->interrupted && c.o.stop && *c.o.stop) {
			sum->interrupted = true; /* Ctrl-C after a soft stop */
			signal_workers(&c, SIGTERM);
		}
		/* Past the deadline a worker still busy is in one solver
		 * call (a trace at hand whose queries all time out can take
		 * many seconds): --seconds N ends within N + 2 s, so it goes.
		 * Nothing is lost: the stream resumes at that trace, and a
		 * bundle is complete or absent. */
		if (c.stopping &&
		    now - c.stop_at > (c.late ? CAMP_KILL_LATE_MS : grace))
			signal_workers(&c, SIGKILL);
		if (now - last_status >= every) {
			emit_event(&c, CAMP_EV_STATUS, NULL, NULL);
			last_status = now;
		}
		if (now - last_state >= 1e3) {
			write_state(&c);
			last_state = now;
		}
	}
	if (c.o.stop && *c.o.stop)
		sum->interrupted = true;
	write_state(&c);
	fill_summary(&c);
	free_camp(&c);
	return st;
}

void camp_summary_free(camp_summary *s)
{
	free(s->findings);
	s->findings = NULL;
	s->nfindings = 0;
}
