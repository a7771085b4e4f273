/*
 * cmd_reduce.c - jitprove reduce: shrink a trace the optimizer miscompiles.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fuzz/reduce.h"
#include "fuzz/report.h"
#include "ir/parse.h"
#include "ir/print.h"

/* Appends TEXT with every line commented out. */
static void put_commented(strbuf *sb, const char *text)
{
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		sb_puts(sb, len ? "# " : "#");
		sb_add(sb, p, len);
		sb_putc(sb, '\n');
		p = nl ? nl + 1 : p + len;
	}
}

static void put_args(strbuf *sb, const red_outcome *o)
{
	if (!o->have_res || !o->res.inputs || o->kind != RED_REFUTED)
		return;
	sb_puts(sb, "# args: ");
	for (uint32_t i = 0; i < o->res.ninputs; i++) {
		if (i)
			sb_puts(sb, ", ");
		ir_print_int(o->res.width ? o->res.width : 64, o->res.inputs[i],
			     sb);
	}
	sb_putc(sb, '\n');
}

int cmd_reduce(int argc, char **argv)
{
	const char *inject = NULL, *passes = NULL, *outpath = NULL;
	long timeout = 2000, max_evals = 0, max_ms = 0;
	int width = 64;
	bool opaque = false, failargs = false;
	cli_opt opts[] = {
	    {"inject", CLI_STRING, &inject,
	     "BUGS  inject known optimizer bugs (see jitprove bugs)"},
	    {"passes", CLI_STRING, &passes,
	     "LIST  optimizer passes (default all)"},
	    {"width", CLI_WIDTH, &width, "W  integer width (default 64)"},
	    {"timeout-ms", CLI_INT, &timeout,
	     "T  solver timeout per query (default 2000)"},
	    {"max-evals", CLI_INT, &max_evals,
	     "N  at most N candidates (default 5000)"},
	    {"max-ms", CLI_INT, &max_ms,
	     "MS  stop reducing after MS milliseconds (default: no limit)"},
	    {"out", CLI_STRING, &outpath,
	     "FILE  also write the reduced trace to FILE"},
	    {"opaque", CLI_FLAG, &opaque,
	     "read unknown operations as opaque calls"},
	    {"failargs", CLI_FLAG, &failargs,
	     "also compare fail-args at paired guards (as campaigns do)"},
	};
	cli_spec spec = {
	    "jitprove reduce ORIG [--inject BUG] [--passes LIST] [--width W] "
	    "[--out FILE]",
	    "Optimizes ORIG, verifies the pair, and when it fails (a "
	    "counterexample, an\noptimizer or verifier error) shrinks ORIG by "
	    "delta debugging: smaller\ncandidates are re-optimized and "
	    "re-verified and kept only when they fail\nthe same way.  Prints "
	    "the reduced trace (parseable), then its optimized\nversion and "
	    "the counterexample as comments.\nExit status: 1 reduced a "
	    "failure, 0 nothing fails, 3 undecided, 2 usage or\ninput error.",
	    opts,
	    (int)(sizeof opts / sizeof opts[0]),
	    1,
	    1};
	const char *pos[1];
	int npos, rc = cli_parse(&spec, argc, argv, pos, &npos);
	if (rc >= 0)
		return rc;
	jp_err err;
	jp_err_clear(&err);
	opt_config cfg = opt_default_config();
	if (inject && opt_parse_bugs(inject, &cfg.bugs, &err))
		return cli_usage_error(&spec, "--inject: %s", err.msg);
	if (passes && opt_parse_passes(passes, &cfg.passes, &err))
		return cli_usage_error(&spec, "--passes: %s", err.msg);
	if (timeout < 1 || max_evals < 0 || max_ms < 0)
		return cli_usage_error(&spec, "expected positive limits");
	ir_parse_opts po = {width, opaque, NULL};
	ir_trace *t = NULL;
	if (ir_parse_file(pos[0], &po, &t, &err))
		return cli_error(&err);
	ver_ctx *vc = ver_ctx_new(&err);
	if (!vc) {
		ir_trace_free(t);
		return cli_error(&err);
	}
	red_env env = red_default_env(vc);
	env.cfg = cfg;
	env.vo.timeout_ms = (unsigned)timeout;
	env.vo.failargs = failargs;
	env.max_evals = (uint32_t)max_evals;
	env.max_ms = (uint32_t)max_ms;
	int code = EXIT_USAGE;
	red_outcome o;
	if (red_evaluate(&env, t, &o, &err)) {
		code = cli_error(&err);
		goto out;
	}
	if (!red_is_failure(o.kind)) {
		printf("nothing to reduce: the pair is %s%s%s\n",
		       red_kind_name(o.kind), o.what[0] ? ": " : "", o.what);
		code = o.kind == RED_UNKNOWN ? EXIT_UNKNOWN : EXIT_PROVED;
		red_outcome_free(&o);
		goto out;
	}
	ir_trace *r = NULL;
	red_outcome fin;
	red_stats st;
	if (red_reduce(&env, t, &o, &r, &fin, &st, &err)) {
		red_outcome_free(&o);
		code = cli_error(&err);
		goto out;
	}
	char sig[256];
	red_signature(r, &fin, cfg.bugs, sig, sizeof sig);
	strbuf sb;
	sb_init(&sb);
	sb_printf(&sb,
		  "# reduced %u -> %u ops (%u candidates, %u kept, %.1f s%s)\n"
		  "# failure: %s: %s\n# signature: %s\n",
		  st.ops_before, st.ops_after, st.evals, st.accepted,
		  st.ms / 1e3, st.complete ? "" : ", budget exhausted",
		  red_kind_name(fin.kind), fin.what, sig);
	put_args(&sb, &fin);
	ir_print(r, &sb);
	if (outpath) {
		if (rep_write_file(outpath, &sb, &err)) {
			sb_release(&sb);
			ir_trace_free(r);
			red_outcome_free(&fin);
			red_outcome_free(&o);
			code = cli_error(&err);
			goto out;
		}
	}
	sb_puts(&sb, "#\n# optimized:\n");
	if (fin.opt) {
		strbuf ob;
		sb_init(&ob);
		ir_print(fin.opt, &ob);
		put_commented(&sb, ob.buf);
		sb_release(&ob);
	}
	if (fin.have_res && fin.res.cex_text) {
		sb_puts(&sb, "#\n");
		put_commented(&sb, fin.res.cex_text);
	}
	fputs(sb.buf, stdout);
	sb_release(&sb);
	code = EXIT_FOUND;
	ir_trace_free(r);
	red_outcome_free(&fin);
	red_outcome_free(&o);
out:
	ver_ctx_free(vc);
	ir_trace_free(t);
	return code;
}
