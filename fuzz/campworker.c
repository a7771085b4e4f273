/*
 * campworker.c - one worker process of a campaign (campaign.h): it draws
 * the traces of its seed stream -- fresh, or with coverage feedback
 * mutations of its corpus entries (fuzz/corpus.h) -- judges each one,
 * blames and reduces failures, saves findings and unknowns, and reports
 * to the parent over a pipe (camp_int.h).
 *
 * Sections: the worker; signals; messages; known findings; unknowns;
 * failures (blame, reduction, aliases); audits; one trace; the loop.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "fuzz/blame.h"
#include "fuzz/camp_int.h"
#include "ir/fdio.h"
#include "ir/print.h"
#include "util/clock.h"
#include "util/rng.h"
#include "verify/check.h"

/* ---- workers ---- */

typedef struct worker {
	const camp_opts *o; /* points to OWN */
	camp_opts own;	    /* the campaign's options, heap ops possibly off */
	bool heap_off; /* heap ops were asked for, the verifier lacks them */
	uint32_t stream;
	uint64_t next;
	uint64_t share; /* traces to judge; 0 = until told to stop */
	double deadline;
	int fd;
	pid_t parent;
	gen_ctx *g;
	ver_ctx *vc;
	red_env env;
	xo *xo;		    /* the external optimizer, or NULL */
	red_optimizer xopt; /* its interface, for ENV */
	camp_counts c;
	char (*known)[CAMP_SIG_MAX];
	uint32_t nknown, capknown;
	uint32_t unknown_saved, max_unknown;
	uint32_t tmpseq;
	double last_msg;
	double t0;
	/* Coverage: the stream's corpus (this process's copy); FEEDBACK:
	 * traces are drawn from it (else it only counts features). */
	cov_corpus *cov;
	bool feedback;
	/* The trace at hand: its identity, as text too. */
	gen_id cur;
	char cur_id[GEN_ID_TEXT];
} worker;

/* SIGUSR1 asks a worker to stop after the trace at hand, letting a
 * reduction in progress finish (the parent's "soft" stop: enough
 * findings); SIGTERM/SIGINT set the campaign's STOP flag, which also cuts
 * reductions short. */
static volatile sig_atomic_t soft_stop;

static void on_soft_stop(int sig)
{
	(void)sig;
	soft_stop = 1;
}

/* The crash handler writes a message prepared before each trace. */
static int crash_fd = -1;
static wmsg crash_msg;

static void on_crash(int sig)
{
	crash_msg.signo = sig;
	if (crash_fd >= 0) {
		ssize_t k = write(crash_fd, &crash_msg, sizeof crash_msg);
		(void)k;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_crash_handlers(void)
{
	static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_crash;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
}

/* Sends a message of TYPE with F (MSG_FINDING, MSG_DUP) or E (MSG_CORPUS),
 * either may be NULL. */
static void send_full(worker *w, uint32_t type, const camp_finding *f,
		      const cov_entry *e)
{
	wmsg m;
	memset(&m, 0, sizeof m);
	m.type = type;
	m.stream = w->stream;
	m.next_index = w->next;
	m.c = w->c;
	m.heap_off = w->heap_off;
	if (f)
		m.f = *f;
	if (e)
		m.cov = *e;
	/* A failed write means the parent is gone: nobody is listening. */
	if (!fd_write_all(w->fd, &m, sizeof m))
		_exit(3);
	w->last_msg = clk_now_ms();
}

static void send_msg(worker *w, uint32_t type, const camp_finding *f)
{
	send_full(w, type, f, NULL);
}

static bool is_known(const worker *w, const char *sig)
{
	for (uint32_t i = 0; i < w->nknown; i++)
		if (!strcmp(w->known[i], sig))
			return true;
	return false;
}

static void add_known(worker *w, const char *sig)
{
	if (w->nknown == w->capknown) {
		uint32_t cap = w->capknown ? w->capknown * 2 : 16;
		void *p = realloc(w->known, cap * sizeof *w->known);
		if (!p)
			return;
		w->known = p;
		w->capknown = cap;
	}
	snprintf(w->known[w->nknown++], CAMP_SIG_MAX, "%.*s", CAMP_SIG_MAX - 1,
		 sig);
}

/* Learns the signatures already saved in OUTDIR/findings. */
static void load_known(worker *w)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/findings", w->o->outdir);
	DIR *d = opendir(path);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			add_known(w, e->d_name);
	closedir(d);
}

static void save_unknown(worker *w, const ir_trace *t, const gen_example *ex,
			 const red_outcome *out, uint64_t seed)
{
	if (w->unknown_saved >= w->max_unknown)
		return;
	const camp_opts *o = w->o;
	char parent[4096], tmp[4400], final[4400];
	snprintf(parent, sizeof parent, "%s/unknown", o->outdir);
	snprintf(tmp, sizeof tmp, "%s/.tmp-%ld-%u", parent, (long)getpid(),
		 w->tmpseq++);
	snprintf(final, sizeof final, "%s/%016llx", parent,
		 (unsigned long long)seed); /* the seed of the trace's index */
	if (mkdir(tmp, 0777) != 0)
		return;
	strbuf sb, opts;
	sb_init(&sb);
	sb_init(&opts);
	camp_format_options(&o->gen, &o->cfg, o->timeout_ms, &opts);
	sb_printf(&sb,
		  "# undecided: %s\n# replay: jitprove fuzz --replay %s %s\n",
		  out->what, w->cur_id, opts.buf);
	gen_print_annotated(t, ex, &sb);
	bool ok = camp_write_file(tmp, "orig.trace", &sb);
	sb_reset(&sb);
	if (out->opt)
		ir_print(out->opt, &sb);
	ok &= camp_write_file(tmp, "opt.trace", &sb);
	sb_reset(&sb);
	sb_printf(&sb, "obligation: %s\nreason: %s\n", out->what,
		  out->have_res && out->res.reason ? out->res.reason
						   : out->obl);
	ok &= camp_write_file(tmp, "reason.txt", &sb);
	sb_release(&sb);
	sb_release(&opts);
	if (!ok) {
		camp_remove_dir(tmp);
		return;
	}
	if (camp_publish_dir(tmp, final, parent) == 1)
		w->unknown_saved++;
}

/* The milliseconds left before the deadline (a large number without). */
static double ms_left(const worker *w)
{
	return w->deadline > 0 ? w->deadline - clk_now_ms() : 1e12;
}

/* Whether OUTDIR/findings/SIG exists (another worker saved it). */
static bool bundle_exists(const worker *w, const char *sig)
{
	char path[4400];
	struct stat stt;
	snprintf(path, sizeof path, "%s/findings/%s", w->o->outdir, sig);
	return stat(path, &stt) == 0;
}

/* The rules of the known findings of KIND (rule signatures). */
static uint64_t known_rules(const worker *w, red_kind kind)
{
	uint64_t m = 0, k;
	for (uint32_t i = 0; i < w->nknown; i++)
		if (red_parse_rule_signature(w->known[i], w->o->cfg.bugs, kind,
					     &k))
			m |= k;
	return m;
}

/* A failure of a known finding: counted, not saved. */
static void count_dup(worker *w, const camp_finding *f)
{
	if (!is_known(w, f->sig))
		add_known(w, f->sig);
	w->c.findings_dup++;
	send_msg(w, MSG_DUP, f);
}

/* Aliases: findings/.alias.PRE holds the signature that a failure blamed
 * on PRE (before reduction) got after its reduction.  Hidden names: they
 * are not bundles. */
static void alias_path(const worker *w, const char *pre, char *buf, size_t size)
{
	snprintf(buf, size, "%s/findings/.alias.%s", w->o->outdir, pre);
}

/* Replaces SIG (CAMP_SIG_MAX bytes) by PRE's alias, if there is one. */
static void read_alias(const worker *w, const char *pre, char *sig)
{
	char path[4400], buf[CAMP_SIG_MAX];
	alias_path(w, pre, path, sizeof path);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (buf[0] && !strchr(buf, '/'))
		snprintf(sig, CAMP_SIG_MAX, "%s", buf);
}

static void write_alias(const worker *w, const char *pre, const char *sig)
{
	char path[4400];
	alias_path(w, pre, path, sizeof path);
	strbuf sb;
	sb_init(&sb);
	sb_printf(&sb, "%s\n", sig);
	camp_write_atomic(path, &sb); /* a lost alias costs one reduction */
	sb_release(&sb);
}

static void on_reduce_progress(void *ud, uint32_t ops, uint32_t evals)
{
	worker *w = ud;
	w->c.red_ops = ops;
	w->c.red_evals = evals;
	if (clk_now_ms() - w->last_msg > 250)
		send_msg(w, MSG_STATS, NULL);
}

/* F for the trace at hand (w->cur), index IDX of the stream. */
static void fill_finding(worker *w, camp_finding *f, const ir_trace *t,
			 const red_outcome *out, uint64_t idx)
{
	snprintf(f->kind, sizeof f->kind, "%s", red_kind_name(out->kind));
	snprintf(f->what, sizeof f->what, "%s", out->what);
	f->trace_seed = w->cur.seed;
	snprintf(f->trace_id, sizeof f->trace_id, "%s", w->cur_id);
	f->stream = w->stream;
	f->index = idx;
	f->ops_orig = f->ops_reduced = ir_count_ops(t);
	f->at_s = (clk_now_ms() - w->t0) / 1e3;
	f->hits = 1;
}

/* Blames a failure on rules; unless its signature is known, reduces it
 * and saves it. */
static void handle_failure(worker *w, const ir_trace *t, const gen_example *ex,
			   const red_outcome *out, uint64_t idx)
{
	double t0 = clk_now_ms();
	camp_finding f;
	memset(&f, 0, sizeof f);
	fill_finding(w, &f, t, out, idx);
	/* Blame screens the counterexample first, then the example inputs:
	 * a rule whose absence leaves the failure is then passed over with
	 * the interpreter alone, no solver. */
	red_env benv = w->env;
	uint64_t exv[2 * 64];
	uint32_t n = ex->ninputs;
	benv.vo.examples = ex->inputs;
	benv.vo.nexamples = 1;
	if (out->have_res && out->res.inputs && out->res.ninputs == n &&
	    n <= 64) {
		memcpy(exv, out->res.inputs, n * sizeof *exv);
		memcpy(exv + n, ex->inputs, n * sizeof *exv);
		benv.vo.examples = exv;
		benv.vo.nexamples = 2;
	}
	if (w->deadline > 0 && benv.vo.timeout_ms > ms_left(w))
		benv.vo.timeout_ms =
		    ms_left(w) < 20 ? 20 : (unsigned)ms_left(w);
	uint64_t rules = 0;
	blm_limits lim = {w->deadline, w->o->stop};
	bool blamed =
	    blm_blame(&benv, t, out, &lim, known_rules(w, out->kind), &rules);
	w->c.ms_blame += clk_now_ms() - t0;
	char pre[CAMP_SIG_MAX] = "";
	if (blamed) {
		red_rule_signature(w->o->cfg.bugs, out->kind, rules, pre,
				   sizeof pre);
		snprintf(f.sig, sizeof f.sig, "%s", pre);
		read_alias(w, pre, f.sig);
		if (is_known(w, f.sig) || bundle_exists(w, f.sig)) {
			count_dup(w, &f);
			return;
		}
	}

	t0 = clk_now_ms();
	ir_trace *reduced = NULL;
	red_outcome fin;
	red_stats rs;
	memset(&fin, 0, sizeof fin);
	memset(&rs, 0, sizeof rs);
	/* The reduction ends at the campaign's deadline: what it has by then
	 * is saved (marked cut short), and jitprove reduce can go on. */
	red_env env = w->env;
	if (w->deadline > 0) {
		double left = ms_left(w);
		if (!env.max_ms || left < env.max_ms)
			env.max_ms = left < 1 ? 1 : (uint32_t)left;
	}
	env.progress = on_reduce_progress;
	env.progress_ud = w;
	w->c.reducing = 1;
	w->c.red_ops_from = w->c.red_ops = f.ops_orig;
	w->c.red_evals = 0;
	send_msg(w, MSG_STATS, NULL);
	if (red_reduce(&env, t, out, &reduced, &fin, &rs, NULL) != JP_OK) {
		reduced = NULL;
		memset(&fin, 0, sizeof fin);
	}
	w->c.reducing = w->c.red_ops_from = w->c.red_ops = w->c.red_evals = 0;
	w->c.ms_reduce += clk_now_ms() - t0;
	/* A flaky verdict (a timeout on the way) could leave FIN another
	 * failure; the signature then falls back to the original's. */
	bool fin_ok = reduced && red_same_failure(&fin, out);
	const ir_trace *rt = reduced ? reduced : t;
	const red_outcome *ro = fin_ok ? &fin : out;

	snprintf(f.what, sizeof f.what, "%s", ro->what);
	f.ops_reduced = ir_count_ops(rt);
	f.at_s = (clk_now_ms() - w->t0) / 1e3;
	f.partial = reduced && !rs.complete;
	if (fin_ok && reduced) {
		/* Blame again on the reduced trace: rules that only shaped
		 * the original (a rewrite the pattern needed, a fact that
		 * steered another rule) are gone from it.  Later failures
		 * blamed like the original go straight to this finding. */
		blm_limits lim2 = {w->deadline, w->o->stop};
		uint64_t r2;
		t0 = clk_now_ms();
		if (blm_blame(&w->env, reduced, &fin, &lim2, 0, &r2)) {
			red_rule_signature(w->o->cfg.bugs, out->kind, r2, f.sig,
					   sizeof f.sig);
			if (blamed && strcmp(f.sig, pre) != 0)
				write_alias(w, pre, f.sig);
			blamed = true;
		}
		w->c.ms_blame += clk_now_ms() - t0;
		if (blamed && (is_known(w, f.sig) || bundle_exists(w, f.sig))) {
			count_dup(w, &f);
			ir_trace_free(reduced);
			red_outcome_free(&fin);
			return;
		}
	}
	if (!blamed)
		red_signature(rt, ro, w->o->cfg.bugs, f.sig, sizeof f.sig);
	if (!blamed && f.partial) {
		/* The ops of a reduction cut short are not canonical: keep
		 * such a finding apart from the complete one it would
		 * otherwise pose as.  (A rule signature does not depend on
		 * the reduction.) */
		size_t n = strlen(f.sig);
		if (n + 9 > sizeof f.sig)
			n = sizeof f.sig - 9;
		memcpy(f.sig + n, ".partial", 9);
	}

	int r = 0;
	if (!is_known(w, f.sig)) {
		char tmpname[64];
		snprintf(tmpname, sizeof tmpname, ".tmp-%ld-%u", (long)getpid(),
			 w->tmpseq++);
		camp_bundle b = {t, ex, out, rt, ro, &rs};
		r = camp_save_finding(w->o, tmpname, &f, &b);
		if (r >= 0)
			add_known(w, f.sig);
	}
	if (r < 0) {
		/* The bundle could not be written (disk full?): still
		 * report the failure, marked, rather than lose it. */
		snprintf(f.what, sizeof f.what,
			 "NOT SAVED (write error): %.130s", ro->what);
	}
	if (r != 0) {
		w->c.findings_new++;
		send_msg(w, MSG_FINDING, &f);
	} else {
		w->c.findings_dup++;
		send_msg(w, MSG_DUP, &f);
	}
	ir_trace_free(reduced);
	red_outcome_free(&fin);
}

/* Whether the trace of SEED is audited at RATE: a uniform draw from the
 * seed, so the choice is the same in a replay. */
static bool audit_sampled(double rate, uint64_t seed)
{
	if (rate <= 0)
		return false;
	uint64_t r = rng_derive(seed, 0x61756469u, 0) >> 11; /* 53 bits */
	return rate >= 1 || (double)r * 0x1p-53 < rate;
}

/* Saves a trace whose audit disagreed, unreduced (the disagreement is the
 * verifier's, not the optimizer's), as a finding of kind "audit". */
static void save_audit_finding(worker *w, const ir_trace *t,
			       const gen_example *ex, const red_outcome *out,
			       uint64_t seed, uint64_t idx)
{
	camp_finding f;
	memset(&f, 0, sizeof f);
	snprintf(f.sig, sizeof f.sig, "audit.%016llx",
		 (unsigned long long)seed);
	snprintf(f.kind, sizeof f.kind, "audit");
	snprintf(f.what, sizeof f.what, "%s",
		 out->res.reason ? out->res.reason : "audit disagreement");
	f.trace_seed = w->cur.seed;
	snprintf(f.trace_id, sizeof f.trace_id, "%s", w->cur_id);
	f.stream = w->stream;
	f.index = idx;
	f.ops_orig = f.ops_reduced = ir_count_ops(t);
	f.at_s = (clk_now_ms() - w->t0) / 1e3;
	f.hits = 1;
	red_stats rs;
	memset(&rs, 0, sizeof rs);
	char tmpname[64];
	snprintf(tmpname, sizeof tmpname, ".tmp-%ld-%u", (long)getpid(),
		 w->tmpseq++);
	camp_bundle b = {t, ex, out, t, out, &rs};
	if (camp_save_finding(w->o, tmpname, &f, &b) < 0)
		snprintf(f.what, sizeof f.what,
			 "NOT SAVED (write error): audit disagreement");
	w->c.findings_new++;
	send_msg(w, MSG_FINDING, &f);
}

static bool worker_should_stop(worker *w)
{
	if (soft_stop || (w->o->stop && *w->o->stop))
		return true;
	if (w->share && w->c.traces >= w->share)
		return true;
	if (w->deadline > 0 && clk_now_ms() >= w->deadline)
		return true;
	return getppid() != w->parent;
}

/* Rule coverage: the counters of one optimization, summed per worker
 * (the parent adds the workers' counts up like every other count). */
static void add_coverage(camp_counts *c, const red_outcome *out)
{
	c->cov_traces++;
	for (int r = 0; r < OPT_RULE_COUNT; r++)
		c->rule_hits[r] += out->rule_hits[r];
	for (int k = 0; k < OPT_BR_COUNT; k++)
		c->branch_hits[k] += out->branch_hits[k];
}

/* Coverage feedback: the features of the trace just optimized; a trace
 * that reaches a new one joins the corpus, and the parent hears of it
 * before any other message says the trace is done (so the corpus in the
 * state always matches the stream's next index). */
static void feed_coverage(worker *w, const red_outcome *out,
			  const gen_example *ex)
{
	cov_entry e;
	memset(&e, 0, sizeof e);
	cov_features(out->rule_hits, out->branch_hits, &e.bits);
	if (!cov_is_new(w->cov, &e.bits))
		return;
	if (!w->feedback) {
		cov_note(w->cov, &e.bits);
		w->c.cov_features = cov_count(&w->cov->covered);
		return;
	}
	e.id = w->cur;
	e.body = ex->body;
	cov_add(w->cov, &e);
	w->c.cov_features = cov_count(&w->cov->covered);
	send_full(w, MSG_CORPUS, NULL, &e);
}

static void judge_one(worker *w)
{
	/* The stream moves on before the work: every message sent from
	 * here on says this trace is done, so a resumed campaign does not
	 * judge it again. */
	uint64_t idx = w->next++;
	uint64_t seed = camp_trace_seed(w->o->seed, w->stream, idx);
	bool mutant =
	    w->feedback && cov_pick(w->cov, seed, w->o->cov_pct, &w->cur);
	if (!mutant)
		w->cur = gen_id_seed(seed);
	gen_id_text(&w->cur, w->cur_id);
	crash_msg.next_index = idx;
	crash_msg.f.trace_seed = w->cur.seed;
	memcpy(crash_msg.f.trace_id, w->cur_id, sizeof w->cur_id);
	crash_msg.f.index = idx;
	crash_msg.c = w->c;

	double t0 = clk_now_ms();
	ir_trace *t = NULL;
	gen_example ex;
	jp_status st = gen_trace_id(w->g, &w->cur, &w->o->gen, &t, &ex, NULL);
	w->c.cov_mutants += mutant;
	w->c.ms_gen += clk_now_ms() - t0;
	w->c.traces++;
	if (st) {
		w->c.errors++;
		return;
	}
	w->c.ops += ir_count_ops(t);
	red_env env = w->env;
	/* The example inputs pass every guard of the original: screening
	 * them first catches many miscompilations without the solver. */
	env.vo.examples = ex.inputs;
	env.vo.nexamples = 1;
	env.vo.audit = audit_sampled(w->o->audit_rate, seed);
	red_outcome out;
	if (red_evaluate(&env, t, &out, NULL) != JP_OK) {
		w->c.errors++;
		ir_trace_free(t);
		return;
	}
	w->c.ms_opt += out.ms_opt;
	w->c.ms_ver += out.ms_ver;
	if (!w->o->optimizer) {
		add_coverage(&w->c, &out);
		feed_coverage(w, &out, &ex);
	}
	if (env.vo.audit && out.have_res) {
		w->c.audit_traces++;
		w->c.audited += out.res.audited;
		w->c.audit_agreed += out.res.audit_agreed;
		w->c.audit_disagreed += out.res.audit_disagreed;
		w->c.audit_unknown += out.res.audit_unknown;
	}
	if (out.have_res && out.res.audit_disagreed) {
		w->c.errors++;
		save_audit_finding(w, t, &ex, &out, seed, idx);
		red_outcome_free(&out);
		ir_trace_free(t);
		return;
	}
	switch (out.kind) {
	case RED_PROVED: w->c.proved++; break;
	case RED_UNKNOWN:
		w->c.unknown++;
		save_unknown(w, t, &ex, &out, seed);
		break;
	case RED_REFUTED:
		w->c.refuted++;
		handle_failure(w, t, &ex, &out, idx);
		break;
	default:
		w->c.errors++;
		handle_failure(w, t, &ex, &out, idx);
		break;
	}
	red_outcome_free(&out);
	ir_trace_free(t);
}

static _Noreturn void worker_main(worker *w)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_soft_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	crash_fd = w->fd;
	memset(&crash_msg, 0, sizeof crash_msg);
	crash_msg.type = MSG_CRASH;
	crash_msg.stream = w->stream;
	install_crash_handlers();
	w->g = gen_ctx_new();
	w->vc = ver_ctx_new(NULL);
	if (!w->g || !w->vc)
		_exit(4);
	if (w->own.gen.heap && !camp_verifier_has_heap(w->vc)) {
		w->own.gen.heap = false;
		w->heap_off = true;
	}
	crash_msg.heap_off = w->heap_off;
	w->env = red_default_env(w->vc);
	w->env.cfg = w->o->cfg;
	/* Bundles show which rule made each optimized op. */
	w->env.cfg.annotate = true;
	w->env.vo.timeout_ms = w->o->timeout_ms;
	/* Generated guards carry fail-args: check them too. */
	w->env.vo.failargs = true;
	w->env.max_ms = w->o->reduce_ms ? w->o->reduce_ms : 60000;
	w->env.stop = w->o->stop;
	if (w->o->optimizer) {
		if (xo_new(w->o->optimizer, &w->xo, NULL))
			_exit(4);
		w->xopt = xo_optimizer(w->xo);
		w->env.optimizer = &w->xopt;
	}
	load_known(w);
	w->t0 = clk_now_ms();
	send_msg(w, MSG_STATS, NULL);
	while (!worker_should_stop(w)) {
		judge_one(w);
		if (clk_now_ms() - w->last_msg > 250)
			send_msg(w, MSG_STATS, NULL);
	}
	send_msg(w, MSG_DONE, NULL);
	xo_free(w->xo);
	ver_ctx_free(w->vc);
	gen_ctx_free(w->g);
	free(w->known);
	free(w->cov);
	_exit(0);
}

void camp_worker_run(const camp_opts *o, uint32_t stream, uint64_t next,
		     uint64_t share, double deadline, int fd,
		     uint32_t max_unknown, const cov_corpus *cov)
{
	worker w;
	memset(&w, 0, sizeof w);
	w.own = *o;
	w.o = &w.own;
	w.stream = stream;
	w.next = next;
	w.share = share;
	w.deadline = deadline;
	w.fd = fd;
	w.parent = getppid();
	w.max_unknown = max_unknown;
	/* Features are counted with or without feedback (built-in optimizer
	 * only); the corpus is drawn from only with it. */
	w.cov = malloc(sizeof *w.cov);
	if (!w.cov)
		_exit(4);
	if (cov)
		*w.cov = *cov;
	else
		cov_init(w.cov);
	w.feedback = cov != NULL && o->cov_pct > 0;
	w.c.cov_features = cov_count(&w.cov->covered);
	worker_main(&w);
}
