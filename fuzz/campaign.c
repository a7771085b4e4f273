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

#include "fuzz/blame.h"
#include "fuzz/campstate.h"
#include "fuzz/reduce.h"
#include "ir/fdio.h"
#include "ir/print.h"
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

static void put_range(strbuf *sb, const char *opt, uint32_t lo, uint32_t hi)
{
	if (lo == hi)
		sb_printf(sb, " %s %u", opt, lo);
	else
		sb_printf(sb, " %s %u-%u", opt, lo, hi);
}

static void put_mask(strbuf *sb, uint64_t mask, int n, const char *(*name)(int))
{
	bool first = true;
	for (int i = 0; i < n; i++) {
		if (!(mask >> i & 1))
			continue;
		sb_printf(sb, "%s%s", first ? "" : ",", name(i));
		first = false;
	}
	if (first)
		sb_puts(sb, "none");
}

static const char *bug_name_i(int i)
{
	return opt_bug_name((opt_bug)i);
}

static const char *pass_name_i(int i)
{
	return opt_pass_name((opt_pass)i);
}

void camp_format_options(const gen_opts *g, const opt_config *cfg,
			 unsigned timeout_ms, strbuf *sb)
{
	sb_printf(sb, "--profile %s", gen_profile_name(g->profile));
	put_range(sb, "--length", g->min_len, g->max_len);
	put_range(sb, "--inputs", g->min_inputs, g->max_inputs);
	sb_printf(sb, " --width %d", g->width);
	if (!g->heap)
		sb_puts(sb, " --no-heap");
	opt_config def = opt_default_config();
	if (cfg->passes != def.passes) {
		sb_puts(sb, " --passes ");
		put_mask(sb, cfg->passes, OPT_PASS_COUNT, pass_name_i);
	}
	if (cfg->bugs) {
		sb_puts(sb, " --inject ");
		put_mask(sb, cfg->bugs, OPT_BUG_COUNT, bug_name_i);
	}
	sb_printf(sb, " --timeout-ms %u", timeout_ms);
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
}

/* ---- files ----
 * Every file of a bundle is written and fsynced inside a directory with a
 * temporary name; the directory is then renamed into place.  Readers (and
 * a campaign killed at any moment) see either no bundle or a complete one. */

static bool write_file(const char *dir, const char *name, const strbuf *sb)
{
	char path[4800];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0)
		return false;
	bool ok =
	    !sb->oom && fd_write_all(fd, sb->buf, sb->len) && fsync(fd) == 0;
	return close(fd) == 0 && ok;
}

static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* Writes PATH atomically: a temporary file in the same directory, then
 * rename. */
static bool write_atomic(const char *path, const strbuf *sb)
{
	char tmp[4800];
	snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0)
		return false;
	bool ok =
	    !sb->oom && fd_write_all(fd, sb->buf, sb->len) && fsync(fd) == 0;
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, path) != 0) {
		unlink(tmp);
		return false;
	}
	return true;
}

/* Removes a directory of plain files we wrote (no recursion needed). */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *e;
		char path[4800];
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			unlink(path);
		}
		closedir(d);
	}
	rmdir(dir);
}

static bool make_dir(const char *path)
{
	return mkdir(path, 0777) == 0 || errno == EEXIST;
}

/* Renames the complete temporary bundle TMP to FINAL.  Returns 1 when it
 * is new, 0 when FINAL already exists (another worker or an earlier
 * session saved the same signature), -1 on error. */
static int publish_dir(const char *tmp, const char *final, const char *parent)
{
	sync_dir(tmp);
	if (rename(tmp, final) == 0) {
		sync_dir(parent);
		return 1;
	}
	int e = errno;
	remove_dir(tmp);
	return e == EEXIST || e == ENOTEMPTY ? 0 : -1;
}

static void iso_time(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* How long a worker may run past the campaign's deadline: the trace at
 * hand and the last step of a reduction (--seconds N ends within N + 2 s,
 * docs/fuzzing.md). */
#define CAMP_OVERRUN_MS 1000.0
/* Then SIGTERM, and SIGKILL this long after. */
#define CAMP_KILL_LATE_MS 300.0

/* ---- messages from workers ---- */

enum { MSG_STATS = 1, MSG_FINDING, MSG_DUP, MSG_CRASH, MSG_DONE };

typedef struct wmsg {
	uint32_t type;
	uint32_t stream;
	uint64_t next_index; /* next trace of the stream (MSG_CRASH: the one
				that crashed) */
	camp_counts c;	     /* cumulative, this worker process */
	camp_finding f;
	int32_t signo;
	bool heap_off; /* the worker generates integer traces only */
} wmsg;

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

static void send_msg(worker *w, uint32_t type, const camp_finding *f)
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
	/* A failed write means the parent is gone: nobody is listening. */
	if (!fd_write_all(w->fd, &m, sizeof m))
		_exit(3);
	w->last_msg = clk_now_ms();
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

static void put_header(strbuf *sb, const char *what, const camp_finding *f,
		       const camp_opts *o)
{
	sb_printf(sb,
		  "# %s\n# trace seed %llu (campaign seed %llu, stream %u, "
		  "index %llu)\n",
		  what, (unsigned long long)f->trace_seed,
		  (unsigned long long)o->seed, f->stream,
		  (unsigned long long)f->index);
}

static void put_args(strbuf *sb, const ver_result *r)
{
	if (!r || !r->inputs || r->ninputs == 0)
		return;
	sb_puts(sb, "# args: ");
	for (uint32_t i = 0; i < r->ninputs; i++) {
		if (i)
			sb_puts(sb, ", ");
		ir_print_int(r->width ? r->width : 64, r->inputs[i], sb);
	}
	sb_puts(sb, "\n");
}

static void put_repro(strbuf *sb, const camp_opts *o, const camp_finding *f)
{
	strbuf opts;
	sb_init(&opts);
	camp_format_options(&o->gen, &o->cfg, o->timeout_ms, &opts);
	xo_format_options(o->optimizer, &opts);
	sb_printf(sb,
		  "#!/bin/sh\n"
		  "# Reproduces finding %s.\n"
		  "# Run from this directory with jitprove on PATH (or set "
		  "JITPROVE).\n"
		  "J=${JITPROVE:-jitprove}\n"
		  "# Regenerate the original trace from its seed, optimize it "
		  "and verify\n# the pair again (exit 1 = the failure is "
		  "still there):\n"
		  "\"$J\" fuzz --replay %llu %s\n",
		  f->sig, (unsigned long long)f->trace_seed, opts.buf);
	if (!strcmp(f->kind, "audit"))
		sb_printf(
		    sb,
		    "# The audit disagreement (docs/trust.md), not "
		    "reduced:\n\"$J\" fuzz --replay %llu %s --audit-rate 1\n",
		    (unsigned long long)f->trace_seed, opts.buf);
	if (strcmp(f->kind, "crash") != 0 && strcmp(f->kind, "audit") != 0) {
		strbuf ro;
		sb_init(&ro);
		if (o->cfg.bugs) {
			sb_puts(&ro, " --inject ");
			put_mask(&ro, o->cfg.bugs, OPT_BUG_COUNT, bug_name_i);
		}
		opt_config def = opt_default_config();
		if (o->cfg.passes != def.passes) {
			sb_puts(&ro, " --passes ");
			put_mask(&ro, o->cfg.passes, OPT_PASS_COUNT,
				 pass_name_i);
		}
		xo_format_options(o->optimizer, &ro);
		sb_printf(sb,
			  "# Optimize the reduced trace afresh and verify it "
			  "(prints the pair and\n# the counterexample):\n"
			  "\"$J\" reduce reduced.trace --failargs --width %d%s "
			  "--timeout-ms %u\n",
			  o->gen.width, ro.buf, o->timeout_ms);
		sb_release(&ro);
	}
	sb_printf(sb, "# The campaign that found it:\n# %s\n",
		  o->cmdline ? o->cmdline : "jitprove fuzz");
	sb_release(&opts);
}

static void put_info(strbuf *sb, const camp_opts *o, const camp_finding *f,
		     const red_stats *rs, const char *obl)
{
	char z3[32], when[32];
	camp_z3_version(z3, sizeof z3);
	iso_time(when, sizeof when);
	strbuf tmp;
	sb_init(&tmp);
	sb_puts(sb, "{\n  \"signature\": ");
	sb_json_str(sb, f->sig);
	sb_puts(sb, ",\n  \"kind\": ");
	sb_json_str(sb, f->kind);
	sb_puts(sb, ",\n  \"obligation\": ");
	sb_json_str(sb, obl ? obl : "");
	sb_puts(sb, ",\n  \"what\": ");
	sb_json_str(sb, f->what);
	sb_puts(sb, ",\n  \"injected_bugs\": ");
	put_mask(&tmp, o->cfg.bugs, OPT_BUG_COUNT, bug_name_i);
	sb_json_str(sb, tmp.buf);
	sb_reset(&tmp);
	sb_puts(sb, ",\n  \"passes\": ");
	put_mask(&tmp, o->cfg.passes, OPT_PASS_COUNT, pass_name_i);
	sb_json_str(sb, tmp.buf);
	sb_reset(&tmp);
	sb_printf(
	    sb,
	    ",\n  \"trace_seed\": \"%llu\",\n  \"campaign_seed\": \"%llu\",\n"
	    "  \"stream\": %u,\n  \"index\": %llu,\n",
	    (unsigned long long)f->trace_seed, (unsigned long long)o->seed,
	    f->stream, (unsigned long long)f->index);
	sb_printf(sb,
		  "  \"generator\": {\"profile\": \"%s\", \"length\": [%u, "
		  "%u], \"inputs\": [%u, %u], \"width\": %d},\n"
		  "  \"timeout_ms\": %u,\n",
		  gen_profile_name(o->gen.profile), o->gen.min_len,
		  o->gen.max_len, o->gen.min_inputs, o->gen.max_inputs,
		  o->gen.width, o->timeout_ms);
	if (rs)
		sb_printf(sb,
			  "  \"reduction\": {\"ops_before\": %u, "
			  "\"ops_after\": %u, \"candidates\": %u, "
			  "\"kept\": %u, \"complete\": %s, \"ms\": %.0f},\n",
			  rs->ops_before, rs->ops_after, rs->evals,
			  rs->accepted, rs->complete ? "true" : "false",
			  rs->ms);
	sb_printf(sb,
		  "  \"versions\": {\"jitprove\": \"%s\", \"z3\": \"%s\"},\n"
		  "  \"found_at\": \"%s\",\n  \"campaign_command\": ",
		  JP_VERSION, z3, when);
	sb_json_str(sb, o->cmdline ? o->cmdline : "jitprove fuzz");
	camp_format_options(&o->gen, &o->cfg, o->timeout_ms, &tmp);
	xo_format_options(o->optimizer, &tmp);
	sb_printf(sb, ",\n  \"replay_command\": ");
	strbuf cmd;
	sb_init(&cmd);
	sb_printf(&cmd, "jitprove fuzz --replay %llu %s",
		  (unsigned long long)f->trace_seed, tmp.buf);
	sb_json_str(sb, cmd.buf);
	sb_puts(sb, "\n}\n");
	sb_release(&cmd);
	sb_release(&tmp);
}

/* Everything a reader needs about one failure. */
typedef struct bundle {
	const ir_trace *orig;
	const gen_example *ex;
	const red_outcome *out; /* of ORIG */
	const ir_trace *reduced;
	const red_outcome *fin; /* of REDUCED */
	const red_stats *rs;
} bundle;

static bool write_bundle_files(const char *dir, const camp_opts *o,
			       const camp_finding *f, const bundle *b)
{
	strbuf sb;
	sb_init(&sb);
	bool ok = true;
	char what[300];

	snprintf(what, sizeof what, "original trace of finding %s", f->sig);
	put_header(&sb, what, f, o);
	gen_print_annotated(b->orig, b->ex, &sb);
	ok &= write_file(dir, "orig.trace", &sb);

	sb_reset(&sb);
	put_header(&sb, "the optimizer's output for orig.trace", f, o);
	if (b->out->opt)
		ir_print(b->out->opt, &sb);
	else
		sb_printf(&sb, "# the optimizer failed: %s\n", b->out->what);
	ok &= write_file(dir, "opt.trace", &sb);

	sb_reset(&sb);
	if (!strcmp(f->kind, "crash"))
		sb_puts(&sb,
			"# not reduced: jitprove crashed on orig.trace "
			"(reducing it in the campaign would crash again)\n");
	else
		sb_printf(&sb,
			  "# reduced from orig.trace (%u ops -> %u); '# args:' "
			  "is a counterexample\n",
			  f->ops_orig, f->ops_reduced);
	put_args(&sb, b->fin->have_res ? &b->fin->res : NULL);
	ir_print(b->reduced, &sb);
	ok &= write_file(dir, "reduced.trace", &sb);

	sb_reset(&sb);
	sb_puts(&sb, "# the optimizer's output for reduced.trace\n");
	put_args(&sb, b->fin->have_res ? &b->fin->res : NULL);
	if (b->fin->opt)
		ir_print(b->fin->opt, &sb);
	else
		sb_printf(&sb, "# the optimizer failed: %s\n", b->fin->what);
	ok &= write_file(dir, "reduced.opt.trace", &sb);

	sb_reset(&sb);
	sb_printf(&sb, "%s: %s\n\n== reduced pair ==\n", f->kind, f->what);
	if (b->fin->have_res && b->fin->res.cex_text)
		sb_puts(&sb, b->fin->res.cex_text);
	else
		sb_printf(&sb, "%s\n", b->fin->what);
	sb_puts(&sb, "\n== original pair ==\n");
	if (b->out->have_res && b->out->res.cex_text)
		sb_puts(&sb, b->out->res.cex_text);
	else
		sb_printf(&sb, "%s\n", b->out->what);
	ok &= write_file(dir, "cex.txt", &sb);

	sb_reset(&sb);
	put_info(&sb, o, f, b->rs, b->fin->obl);
	ok &= write_file(dir, "info.json", &sb);

	sb_reset(&sb);
	put_repro(&sb, o, f);
	ok &= write_file(dir, "repro.sh", &sb);
	char path[4800];
	snprintf(path, sizeof path, "%s/repro.sh", dir);
	chmod(path, 0755); /* runnable by all, writable by the owner only */
	sb_release(&sb);
	return ok;
}

/* Saves a bundle for F; 1 new, 0 already there, -1 error. */
static int save_finding(const camp_opts *o, const char *tmpname,
			const camp_finding *f, const bundle *b)
{
	char parent[4096], tmp[4400], final[4400];
	snprintf(parent, sizeof parent, "%s/findings", o->outdir);
	snprintf(tmp, sizeof tmp, "%s/%s", parent, tmpname);
	snprintf(final, sizeof final, "%s/%s", parent, f->sig);
	remove_dir(tmp);
	if (mkdir(tmp, 0777) != 0)
		return -1;
	if (!write_bundle_files(tmp, o, f, b)) {
		remove_dir(tmp);
		return -1;
	}
	return publish_dir(tmp, final, parent);
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
		 (unsigned long long)seed);
	if (mkdir(tmp, 0777) != 0)
		return;
	strbuf sb, opts;
	sb_init(&sb);
	sb_init(&opts);
	camp_format_options(&o->gen, &o->cfg, o->timeout_ms, &opts);
	sb_printf(&sb,
		  "# undecided: %s\n# replay: jitprove fuzz --replay %llu %s\n",
		  out->what, (unsigned long long)seed, opts.buf);
	gen_print_annotated(t, ex, &sb);
	bool ok = write_file(tmp, "orig.trace", &sb);
	sb_reset(&sb);
	if (out->opt)
		ir_print(out->opt, &sb);
	ok &= write_file(tmp, "opt.trace", &sb);
	sb_reset(&sb);
	sb_printf(&sb, "obligation: %s\nreason: %s\n", out->what,
		  out->have_res && out->res.reason ? out->res.reason
						   : out->obl);
	ok &= write_file(tmp, "reason.txt", &sb);
	sb_release(&sb);
	sb_release(&opts);
	if (!ok) {
		remove_dir(tmp);
		return;
	}
	if (publish_dir(tmp, final, parent) == 1)
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
	write_atomic(path, &sb); /* a lost alias costs one reduction */
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

static void fill_finding(worker *w, camp_finding *f, const ir_trace *t,
			 const red_outcome *out, uint64_t seed, uint64_t idx)
{
	snprintf(f->kind, sizeof f->kind, "%s", red_kind_name(out->kind));
	snprintf(f->what, sizeof f->what, "%s", out->what);
	f->trace_seed = seed;
	f->stream = w->stream;
	f->index = idx;
	f->ops_orig = f->ops_reduced = ir_count_ops(t);
	f->at_s = (clk_now_ms() - w->t0) / 1e3;
	f->hits = 1;
}

/* Blames a failure on rules; unless its signature is known, reduces it
 * and saves it. */
static void handle_failure(worker *w, const ir_trace *t, const gen_example *ex,
			   const red_outcome *out, uint64_t seed, uint64_t idx)
{
	double t0 = clk_now_ms();
	camp_finding f;
	memset(&f, 0, sizeof f);
	fill_finding(w, &f, t, out, seed, idx);
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
		bundle b = {t, ex, out, rt, ro, &rs};
		r = save_finding(w->o, tmpname, &f, &b);
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
	f.trace_seed = seed;
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
	bundle b = {t, ex, out, t, out, &rs};
	if (save_finding(w->o, tmpname, &f, &b) < 0)
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

static void judge_one(worker *w)
{
	/* The stream moves on before the work: every message sent from
	 * here on says this trace is done, so a resumed campaign does not
	 * judge it again. */
	uint64_t idx = w->next++;
	uint64_t seed = camp_trace_seed(w->o->seed, w->stream, idx);
	crash_msg.next_index = idx;
	crash_msg.f.trace_seed = seed;
	crash_msg.f.index = idx;
	crash_msg.c = w->c;

	double t0 = clk_now_ms();
	ir_trace *t = NULL;
	gen_example ex;
	jp_status st = gen_trace(w->g, seed, &w->o->gen, &t, &ex, NULL);
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
	if (!w->o->optimizer)
		add_coverage(&w->c, &out);
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
		handle_failure(w, t, &ex, &out, seed, idx);
		break;
	default:
		w->c.errors++;
		handle_failure(w, t, &ex, &out, seed, idx);
		break;
	}
	red_outcome_free(&out);
	ir_trace_free(t);
}

static void worker_main(worker *w)
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
	_exit(0);
}

/* ---- state (fuzz/campstate.c) ---- */

jp_status camp_resume_opts(camp_opts *o, jp_err *err)
{
	camp_state s;
	jp_status st = cst_read(o->outdir, &s, err);
	if (st)
		return st;
	o->seed = s.seed;
	o->gen = s.gen;
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
	for (int i = 0; i < c->nslots; i++)
		s.next[i] = c->slots[i].next;
	camp_counts sc = session_counts(c);
	counts_add(&s.all, &sc);
	s.elapsed += (clk_now_ms() - c->t0) / 1e3;
	strbuf sb;
	sb_init(&sb);
	cst_format(&s, &sb);
	char path[4096];
	snprintf(path, sizeof path, "%s/state", c->o.outdir);
	write_atomic(path, &sb);
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
		put_mask(&sig, c->o.cfg.bugs, OPT_BUG_COUNT, bug_name_i);
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
	f.stream = m->stream;
	f.index = m->next_index;
	ir_trace *t = NULL;
	gen_example ex;
	int r = -1;
	if (c->g &&
	    gen_trace(c->g, f.trace_seed, &c->o.gen, &t, &ex, NULL) == JP_OK) {
		f.ops_orig = f.ops_reduced = ir_count_ops(t);
		red_outcome none;
		memset(&none, 0, sizeof none);
		snprintf(none.what, sizeof none.what, "%s", f.what);
		bundle b = {t, &ex, &none, t, &none, NULL};
		r = save_finding(&c->o, ".tmp-parent", &f, &b);
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
		worker w;
		memset(&w, 0, sizeof w);
		w.own = c->o;
		w.o = &w.own;
		w.stream = (uint32_t)i;
		w.next = sl->next;
		/* A restarted slot always has traces left (see drain), so
		 * this share is never 0, which would mean "unlimited". */
		w.share = sl->share ? sl->share - sl->base.traces : 0;
		w.deadline = c->deadline;
		w.fd = p[1];
		w.parent = getppid();
		uint32_t mu = c->o.max_unknown ? c->o.max_unknown : 200;
		w.max_unknown = mu / (uint32_t)c->nslots + 1;
		worker_main(&w);
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
	if (!make_dir(o->outdir))
		return jp_fail(err, JP_EIO, "cannot create directory '%s': %s",
			       o->outdir, strerror(errno));
	snprintf(path, sizeof path, "%s/findings", o->outdir);
	if (!make_dir(path))
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
			remove_dir(sub);
		}
		closedir(d);
	}
	snprintf(path, sizeof path, "%s/unknown", o->outdir);
	if (!make_dir(path))
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
	if (cst_read(o->outdir, &s, NULL) == JP_OK)
		snprintf(what, sizeof what,
			 "a campaign (seed %llu, %llu traces judged)",
			 (unsigned long long)s.seed,
			 (unsigned long long)s.all.traces);
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
	if ((st = gen_check_opts(&c.o.gen, err)))
		return st;
	if ((st = prepare_dirs(&c.o, err)))
		return st;
	sum->resumed = c.o.resume;
	sum->known_before = count_bundles(c.o.outdir);
	c.nslots = c.o.jobs;
	c.slots = calloc((size_t)c.nslots, sizeof *c.slots);
	c.g = gen_ctx_new();
	if (!c.slots || !c.g) {
		free(c.slots);
		gen_ctx_free(c.g);
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
	free(c.slots);
	gen_ctx_free(c.g);
	return st;
}

void camp_summary_free(camp_summary *s)
{
	free(s->findings);
	s->findings = NULL;
	s->nfindings = 0;
}
