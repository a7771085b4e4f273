/*
 * cmd_reduce.c - jitprove reduce: shrink a trace the optimizer miscompiles.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fuzz/extopt.h"
#include "fuzz/reduce.h"
#include "fuzz/report.h"
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
	const char *outpath = NULL;
	const char *optimizer = NULL, *syntax = NULL;
	bool opt_persistent = false;
	long opt_timeout = 0;
	long timeout = 2000, max_evals = 0, max_ms = 0;
	int width = 64;
	bool opaque = false, failargs = false;
	opt_config cfg = opt_default_config();
	cli_opt opts[] = {
	    cli_opt_inject(&cfg.bugs),
	    cli_opt_passes(&cfg.passes),
	    cli_opt_width(&width),
	    cli_opt_timeout(&timeout),
	    cli_opt_int("max-evals", &max_evals, 0, UINT32_MAX,
			"N  at most N candidates (default 5000)"),
	    cli_opt_int("max-ms", &max_ms, 0, UINT32_MAX,
			"MS  stop reducing after MS milliseconds (default: "
			"no limit)"),
	    cli_opt_report("out", &outpath,
			   "FILE  also write the reduced trace to FILE"),
	    cli_opt_opaque(&opaque),
	    {"failargs", CLI_FLAG, &failargs,
	     "also compare fail-args at paired guards (as campaigns do)"},
	    {"optimizer", CLI_STRING, &optimizer,
	     "CMD  reduce against this optimizer command (as jitprove fuzz)"},
	    {"optimizer-persistent", CLI_FLAG, &opt_persistent,
	     "start CMD once and send trace after trace (--end--)"},
	    {"optimizer-timeout-ms", CLI_INT, &opt_timeout,
	     "MS  an answer later than this is a hang (default 5000)"},
	    {"syntax", CLI_STRING, &syntax,
	     "S  pypy (default) or toy: the spelling CMD reads and writes"},
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
	opt_config builtin = opt_default_config();
	bool builtin_opts =
	    cfg.bugs != builtin.bugs || cfg.passes != builtin.passes;
	xo_config xc;
	if (xo_config_from_args(&xc, optimizer, opt_persistent, opt_timeout,
				syntax, width, &err))
		return cli_usage_error(&spec, "%s", err.msg);
	if (optimizer && builtin_opts)
		return cli_usage_error(&spec, "--inject and --passes select "
					      "the built-in optimizer; they do "
					      "not go with --optimizer");
	if (optimizer && xo_probe(&xc, &err))
		return cli_error(&err);
	xo *x = NULL;
	red_optimizer xopt;
	if (optimizer && xo_new(&xc, &x, &err))
		return cli_error(&err);
	ir_trace *t = NULL;
	ver_ctx *vc = NULL;
	if (cli_load_trace(pos[0], width, opaque, &t, NULL, 0, &err) ||
	    !(vc = ver_ctx_new(&err))) {
		ir_trace_free(t);
		xo_free(x);
		return cli_error(&err);
	}
	red_env env = red_default_env(vc);
	env.cfg = cfg;
	if (x) {
		xopt = xo_optimizer(x);
		env.optimizer = &xopt;
	}
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
	xo_free(x);
	ver_ctx_free(vc);
	ir_trace_free(t);
	return code;
}
