/*
 * bench_chain.c - the long-trace section of `jitprove bench`: how check
 * time grows with trace length far past what the generator makes.
 *
 * Each trace is a chain of N int_add ops, i(k+1) = int_add(i(k), i1), the
 * shape that exposed a quadratic encoding (Z3 4.8's term table takes time
 * linear in the depth of a binary app's second argument; see
 * canonical_order in verify/encode.c).  Nothing folds in a chain, so the
 * optimizer's output is the chain again and the check settles the one
 * output obligation by identity: what is measured is parsing, optimizing
 * and encoding, the parts whose cost must stay linear.
 *
 * Sections: building the text, measuring one length, the section.
 */
#include "fuzz/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/parse.h"
#include "util/clock.h"
#include "verify/check.h"

static const uint32_t chain_lengths[BENCH_NCHAINS] = {10000, 100000, 400000};

/* ---- building the text ---- */

/* The chain's text, as a user would hand it to `jitprove check`. */
static jp_status chain_text(uint32_t n, strbuf *sb, jp_err *err)
{
	sb_puts(sb, "[i0, i1]\n");
	for (uint32_t k = 0; k < n; k++)
		sb_printf(sb, "i%u = int_add(i%u, i1)\n", k + 2, k ? k + 1 : 0);
	sb_printf(sb, "finish(i%u)\n", n ? n + 1 : 0);
	if (sb->oom)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	return JP_OK;
}

/* ---- one length ---- */

static jp_status chain_one(const bench_opts *o, uint32_t n, bench_chain *c,
			   jp_err *err)
{
	strbuf sb;
	sb_init(&sb);
	ir_trace *t = NULL, *ot = NULL;
	ver_ctx *vc = NULL;
	ir_parse_opts po = {.width = o->width, .file = "chain"};
	c->ops = n;
	jp_status st = chain_text(n, &sb, err);
	double t0 = clk_now_ms();
	if (!st)
		st = ir_parse(sb.buf, sb.len, &po, &t, err);
	double t1 = clk_now_ms();
	opt_config cfg = opt_default_config();
	if (!st)
		st = opt_run(t, &cfg, &ot, NULL, err);
	double t2 = clk_now_ms();
	if (!st && !(vc = ver_ctx_new(err)))
		st = err->status ? err->status : JP_ENOMEM;
	ver_opts vo = ver_default_opts();
	vo.timeout_ms = o->timeout_ms;
	ver_result r;
	memset(&r, 0, sizeof r);
	double t3 = clk_now_ms();
	if (!st)
		st = ver_check(vc, t, ot, &vo, &r, err);
	double t4 = clk_now_ms();
	if (!st) {
		c->ms_parse = t1 - t0;
		c->ms_opt = t2 - t1;
		c->ms_check = t4 - t3;
		c->verdict = r.verdict;
		ver_result_free(&r);
	}
	if (vc)
		ver_ctx_free(vc);
	ir_trace_free(t);
	ir_trace_free(ot);
	sb_release(&sb);
	return st;
}

/* ---- the section ---- */

jp_status bench_chains(const bench_opts *o, bench_result *res, jp_err *err)
{
	for (uint32_t i = 0; i < BENCH_NCHAINS; i++) {
		if (chain_lengths[i] > o->chain_max)
			break;
		if (o->on_note) {
			char buf[64];
			snprintf(buf, sizeof buf, "chain: %u int_add ops",
				 chain_lengths[i]);
			o->on_note(o->ud, buf);
		}
		jp_status st =
		    chain_one(o, chain_lengths[i], &res->chains[i], err);
		if (st)
			return st;
		res->nchains++;
	}
	return JP_OK;
}
