/*
 * ci_case.c - checking one case of the CI gate (ci_check_case); see ci.h.
 *
 * Sections:
 *   results        ci_result_free, errors as results
 *   location       where a refutation shows: the guard or end op
 *   verifying      a fresh verifier context per case, the cache
 *   examples       the '# args:' vectors screened before the solver
 *   the traces     reading (and for single cases optimizing) the traces
 *   one case       ci_check_case
 */
#include "ci_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/parse.h"
#include "ir/sem.h"
#include "ir/strbuf.h"
#include "passes/opt.h"
#include "util/clock.h"

/* ---- results ---------------------------------------------------------- */

void ci_result_free(ci_result *r)
{
	free(r->message);
	free(r->what);
	free(r->cex);
	free(r->json);
	free(r->loc_file);
	free(r->warning);
	memset(r, 0, sizeof *r);
}

static void set_error(ci_result *r, const jp_err *e)
{
	char buf[1200];
	jp_err_format(e, buf, sizeof buf);
	r->got = CI_ERROR;
	free(r->message);
	r->message = ci_dup_str(buf);
	free(r->loc_file);
	r->loc_file = e->file[0] ? ci_dup_str(e->file) : NULL;
	r->loc_line = e->line;
}

/* ---- location --------------------------------------------------------- */

/* The op of T that is the guard labelled LABEL, or UINT32_MAX. */
static uint32_t find_guard(const ir_trace *t, const char *label, size_t n)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const char *g = ir_guard_label(t, i);
		if (ir_op_has(t->ops[i].opc, IRF_GUARD) && strlen(g) == n &&
		    !memcmp(g, label, n))
			return i;
	}
	return UINT32_MAX;
}

/* The guard label in an obligation description "... guard LABEL (...)". */
static bool label_of(const char *what, const char **label, size_t *n)
{
	const char *g = strstr(what, "guard ");
	if (!g)
		return false;
	g += strlen("guard ");
	const char *e = g;
	while (*e && *e != ' ')
		e++;
	*label = g;
	*n = (size_t)(e - g);
	return *n > 0;
}

/* Where a refutation shows: the op of the optimized trace that the
 * failing obligation is about (the guard, or the end op for outputs and
 * ends).  A guard that only the original has (removed, or an obligation
 * about an original guard in trace or inferred mode) is shown in the
 * original trace.  A single case's optimized trace exists only in memory,
 * so its ops are shown at the original ops they come from (same label;
 * the end op for the end). */
static void locate(const ci_case *c, const ir_trace *orig, const ir_trace *opt,
		   ver_mode used, const char *what, ci_result *r)
{
	bool single = c->kind == CI_SINGLE;
	const char *opt_file = single ? c->orig : c->opt;
	const ir_trace *opt_side_trace = single ? orig : opt;
	const char *file = opt_file, *label;
	const ir_trace *t = opt_side_trace;
	uint32_t op = UINT32_MAX;
	size_t n;
	if (what && label_of(what, &label, &n)) {
		/* Whose label it is: obl_describe names optimized-only guards
		 * "optimized guard L" or "guard L (new in ...)", original-only
		 * ones "original guard L"; plain "guard L" is the original's
		 * label, which aligned mode gives the optimized guard too. */
		bool opt_label = !strncmp(what, "optimized ", 10) ||
				 strstr(what, "(new in") != NULL;
		bool orig_label = !strncmp(what, "original ", 9);
		if (!orig_label && (opt_label || used == VER_MODE_ALIGNED))
			op = find_guard(opt_side_trace, label, n);
		if (op == UINT32_MAX && !opt_label) {
			file = c->orig;
			t = orig;
			op = find_guard(orig, label, n);
		}
	}
	if (op == UINT32_MAX) {
		file = opt_file;
		t = opt_side_trace;
		op = t->nops ? t->nops - 1 : UINT32_MAX;
	}
	int line = op == UINT32_MAX ? 0 : t->ops[op].line;
	free(r->loc_file);
	r->loc_file = ci_dup_str(file);
	r->loc_line = line > 0 ? line : 1;
}

/* ---- verifying -------------------------------------------------------- */

static ci_status classify(ci_verdict got, ci_verdict expected)
{
	if (got == expected)
		return CI_ST_PASS;
	if (got == CI_ERROR)
		return CI_ST_ERROR;
	if (got == CI_UNKNOWN)
		return CI_ST_UNKNOWN;
	return CI_ST_FAIL;
}

static ci_verdict from_ver(ver_verdict v)
{
	switch (v) {
	case VER_PROVED: return CI_PROVED;
	case VER_REFUTED: return CI_COUNTEREXAMPLE;
	case VER_UNKNOWN: return CI_UNKNOWN;
	}
	return CI_ERROR;
}

/* Runs the verifier on the pair and fills R; stores definite verdicts in
 * the cache under KEY (may be NULL).
 *
 * Every case gets a fresh verifier context.  Reusing one across cases
 * would be a little faster, but Z3's term order (and with it what its
 * rewriter settles without a solver call) depends on every term the
 * context has seen; a case's result would then depend on which cases the
 * same process checked before it, and --jobs 2 would report different
 * statistics than --jobs 1.  It also means a run served entirely from the
 * cache never starts Z3. */
static jp_status verify_pair(const ir_trace *orig, const ir_trace *opt,
			     const ver_opts *vo, pc_cache *cache,
			     const char *key, ver_mode *used, ci_result *r,
			     jp_err *err)
{
	ver_ctx *vc = ver_ctx_new(err);
	if (!vc)
		return err ? err->status : JP_EINTERNAL;
	ver_result vr;
	jp_status st = ver_check(vc, orig, opt, vo, &vr, err);
	ver_ctx_free(vc);
	if (st)
		return st;
	r->got = from_ver(vr.verdict);
	r->solver_calls = vr.solver_calls;
	*used = vr.mode_used;
	if (vr.failed >= 0 && (uint32_t)vr.failed < vr.nobl &&
	    vr.verdict == VER_REFUTED)
		r->what = ci_dup_str(vr.obl[vr.failed].what);
	else if (vr.verdict == VER_UNKNOWN && vr.reason)
		r->what = ci_dup_str(vr.reason);
	if (vr.verdict == VER_REFUTED && vr.cex_text)
		r->cex = ci_dup_str(vr.cex_text);
	strbuf sb;
	sb_init(&sb);
	ver_result_json(&vr, &sb);
	r->json = sb_detach(&sb);
	if (cache && key && vr.verdict != VER_UNKNOWN) {
		pc_entry e = {vr.verdict, vr.mode_used, r->what, r->cex,
			      r->json};
		jp_err ce;
		if (pc_store(cache, key, &e, &ce)) {
			char buf[1200];
			jp_err_format(&ce, buf, sizeof buf);
			r->warning = ci_dup_str(buf);
		}
	}
	ver_result_free(&vr);
	return JP_OK;
}

static void from_cache(pc_entry *e, ci_result *r, ver_mode *used)
{
	r->got = from_ver(e->verdict);
	*used = e->mode_used;
	r->what = e->what;
	r->cex = e->cex;
	r->json = e->json;
	e->what = e->cex = e->json = NULL;
}

/* ---- examples --------------------------------------------------------- */

/* Example inputs from '# args:' comments, screened by the verifier before
 * anything else (as `jitprove check` does), so that a case reports the
 * same counterexample there and here. */
typedef struct examples {
	uint64_t *v; /* nvec vectors of ninputs values */
	uint32_t nvec;
} examples;

/* One integer literal: optional sign, decimal or 0x hex; canonical at
 * WIDTH. */
static bool parse_literal(const char *s, size_t n, int width, uint64_t *out)
{
	bool neg = n > 0 && s[0] == '-';
	size_t i = (n > 0 && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
	unsigned base = 10;
	if (n - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		base = 16;
		i += 2;
	}
	if (i >= n)
		return false;
	uint64_t v = 0;
	for (; i < n; i++) {
		unsigned d;
		char c = s[i];
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return false;
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*out = sem_mask(width, neg ? 0 - v : v);
	return true;
}

/* Appends the vectors of LIST ("1, -2; 3, 0x4"): NINPUTS values each. */
static bool add_examples(const char *list, int width, uint32_t ninputs,
			 examples *ex)
{
	const char *p = list;
	for (;;) {
		const char *semi = strchr(p, ';');
		const char *end = semi ? semi : p + strlen(p);
		uint64_t *v =
		    realloc(ex->v, ((size_t)ex->nvec + 1) *
				       (ninputs ? ninputs : 1) * sizeof *v);
		if (!v)
			return false;
		ex->v = v;
		uint64_t *row = v + (size_t)ex->nvec * ninputs;
		uint32_t k = 0;
		const char *q = p;
		while (q < end) {
			const char *comma = memchr(q, ',', (size_t)(end - q));
			const char *we = comma ? comma : end;
			while (q < we && (*q == ' ' || *q == '\t'))
				q++;
			const char *e = we;
			while (e > q &&
			       (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
				e--;
			if (k >= ninputs ||
			    !parse_literal(q, (size_t)(e - q), width, &row[k]))
				return false;
			k++;
			q = comma ? comma + 1 : end;
		}
		if (k != ninputs)
			return false;
		ex->nvec++;
		if (!semi)
			return true;
		p = semi + 1;
	}
}

/* ---- the traces ------------------------------------------------------- */

/* Parses PATH and adds the example vectors of its '# args:' comment. */
static jp_status parse_trace(const char *path, const ir_parse_opts *base,
			     ir_trace **t, examples *ex, jp_err *err)
{
	char *text;
	size_t len;
	jp_status st = ir_read_file(path, &text, &len, err);
	if (st)
		return st;
	ir_parse_opts po = *base;
	po.file = path;
	st = ir_parse(text, len, &po, t, err);
	char list[1024];
	if (!st && ir_args_comment(text, len, list, sizeof list) &&
	    !add_examples(list, (*t)->width, (*t)->ninputs, ex))
		st = jp_fail_at(err, JP_EINPUT, path, 0, 0,
				"bad '# args:' comment: expected %u "
				"comma-separated integers per vector (';' "
				"between vectors), found '%s'",
				(*t)->ninputs, list);
	free(text);
	return st;
}

/* Reads and, for single cases, optimizes the traces of C. */
static jp_status load_traces(const ci_case *c, const ci_expect *x,
			     ir_trace **orig, ir_trace **opt, examples *ex,
			     jp_err *err)
{
	ir_parse_opts po = {.width = x->width, .opaque = x->opaque};
	*orig = *opt = NULL;
	jp_status st = parse_trace(c->orig, &po, orig, ex, err);
	if (st)
		return st;
	if (c->kind == CI_PAIR) {
		/* The optimized trace's examples only help when it has the
		 * same inputs; the verifier rejects the pair otherwise. */
		examples pex = {NULL, 0};
		st = parse_trace(c->opt, &po, opt, &pex, err);
		if (!st && (*opt)->ninputs == (*orig)->ninputs && pex.nvec) {
			uint32_t w = (*orig)->ninputs;
			uint64_t *v =
			    realloc(ex->v, ((size_t)ex->nvec + pex.nvec) *
					       (w ? w : 1) * sizeof *v);
			if (v) {
				memcpy(v + (size_t)ex->nvec * w, pex.v,
				       (size_t)pex.nvec * w * sizeof *v);
				ex->v = v;
				ex->nvec += pex.nvec;
			}
		}
		free(pex.v);
		return st;
	}
	opt_config oc = opt_default_config();
	oc.bugs = x->bugs;
	if (x->has_passes)
		oc.passes = x->passes;
	jp_err oe;
	st = opt_run(*orig, &oc, opt, NULL, &oe);
	if (st)
		return jp_fail_at(err, st, c->orig, 0, 0,
				  "the optimizer failed: %s", oe.msg);
	return JP_OK;
}

/* The verifier names the traces "original" and "optimized" in its
 * messages; in a corpus the files are more useful.  A single case's
 * optimized trace is not a file: the message is about the trace file it
 * came from, without a line (the built trace has none). */
static void name_sides(const ci_case *c, jp_err *e)
{
	if (!strcmp(e->file, "original")) {
		snprintf(e->file, sizeof e->file, "%s", c->orig);
	} else if (!strcmp(e->file, "optimized") && c->opt) {
		snprintf(e->file, sizeof e->file, "%s", c->opt);
	} else if (!strcmp(e->file, "optimized")) {
		strbuf sb;
		sb_init(&sb);
		sb_printf(&sb, "in the optimized trace: %s", e->msg);
		if (!sb.oom) {
			size_t n =
			    sb.len < sizeof e->msg ? sb.len : sizeof e->msg - 1;
			memcpy(e->msg, sb.buf, n);
			e->msg[n] = '\0';
		}
		sb_release(&sb);
		snprintf(e->file, sizeof e->file, "%s", c->orig);
		e->line = e->col = 0;
	}
}

/* ---- one case --------------------------------------------------------- */

void ci_check_case(const ci_case *c, const ci_config *cfg, ci_result *r)
{
	double t0 = clk_now_ms();
	memset(r, 0, sizeof *r);
	ci_expect x;
	jp_err err;
	ir_trace *orig = NULL, *opt = NULL;
	jp_status st = ci_load_expect(c, &x, &err);
	r->expected = x.verdict;
	examples ex = {NULL, 0};
	if (!st)
		st = load_traces(c, &x, &orig, &opt, &ex, &err);
	if (!st) {
		ver_opts vo = cfg->vopts;
		vo.width = 0;
		if (x.has_mode)
			vo.mode = x.mode;
		if (x.failargs)
			vo.failargs = true;
		if (x.has_rlimit)
			vo.rlimit = x.rlimit;
		if (x.has_timeout)
			vo.timeout_ms = x.timeout_ms;
		ci_prefer_rlimit(&vo);
		vo.examples = ex.v;
		vo.nexamples = ex.nvec;
		pc_params pp = {orig->width, vo.mode, vo.failargs};
		char key[HASH_HEX_SIZE];
		bool keyed = cfg->cache && !pc_key(orig, opt, &pp, key, NULL);
		pc_entry e;
		ver_mode used = vo.mode;
		if (keyed && pc_lookup(cfg->cache, key, &e)) {
			r->cache = CI_CACHE_HIT;
			from_cache(&e, r, &used);
		} else {
			r->cache = cfg->cache ? CI_CACHE_MISS : CI_CACHE_OFF;
			st = verify_pair(orig, opt, &vo, cfg->cache,
					 keyed ? key : NULL, &used, r, &err);
			if (st)
				name_sides(c, &err);
		}
		if (!st && r->got == CI_COUNTEREXAMPLE)
			locate(c, orig, opt, used, r->what, r);
	}
	if (st)
		set_error(r, &err);
	r->status = classify(r->got, r->expected);
	ir_trace_free(orig);
	ir_trace_free(opt);
	free(ex.v);
	r->ms = clk_now_ms() - t0;
}
