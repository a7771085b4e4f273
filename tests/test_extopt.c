/*
 * test_extopt.c - external optimizer commands (fuzz/extopt.h): both modes
 * with echo optimizers, each failure kind, restarts, the probe, unlabelled
 * answers (the verifier infers the pairing), and that no child is left
 * behind.  The commands are small sh/awk/sed programs.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "fuzz/extopt.h"
#include "fuzz/gen.h"
#include "ir/parse.h"
#include "ir/print.h"

static const char *src = "[i0, i1]\n"
			 "i2 = int_add(i0, i1)\n"
			 "i3 = int_lt(i2, 10)\n"
			 "guard_true(i3)\n"
			 "i4 = int_mul(i2, 2)\n"
			 "finish(i4)\n";

/* Echoes, persistent: line by line (printf writes at once; awk and sed
 * may hold their input back). */
#define ECHO_P "while IFS= read -r l; do printf '%s\\n' \"$l\"; done"

static ir_trace *parse(const char *text)
{
	ir_parse_opts po = {64, false, "test"};
	ir_trace *t = NULL;
	jp_err e;
	if (ir_parse(text, strlen(text), &po, &t, &e))
		fprintf(stderr, "parse: %s\n", e.msg);
	return t;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* One call; returns the kind (RED_PROVED standing for "an answer"). */
static red_kind run(xo *x, const ir_trace *t, char *obl, char *msg,
		    ir_trace **ans)
{
	ir_trace *o = NULL;
	red_kind k = RED_PROVED;
	jp_err e;
	jp_err_clear(&e);
	obl[0] = msg[0] = '\0';
	jp_status st = xo_optimize(x, t, &o, &k, obl, 96, &e);
	CHECK(st == JP_OK);
	snprintf(msg, 768, "%s", e.msg);
	if (o) {
		k = RED_PROVED;
		if (ans)
			*ans = o;
		else
			ir_trace_free(o);
	}
	return k;
}

static xo *make(const char *cmd, bool persistent, unsigned timeout)
{
	xo_config c = {cmd, persistent, timeout, false, 64};
	xo *x = NULL;
	CHECK(xo_new(&c, &x, NULL) == JP_OK);
	return x;
}

static void no_children(void)
{
	errno = 0;
	CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD);
}

static void test_echo(void)
{
	ir_trace *t = parse(src);
	strbuf a, b;
	sb_init(&a);
	sb_init(&b);
	xo_print_trace(t, false, &a);
	/* guards are sent labelled */
	CHECK(strstr(a.buf, "guard_true(i3, descr=g0)") != NULL);
	for (int mode = 0; mode < 2; mode++) {
		xo *x = make(mode ? ECHO_P : "cat", mode == 1, 5000);
		char obl[96], msg[768];
		for (int i = 0; i < 3; i++) {
			ir_trace *o = NULL;
			CHECK(run(x, t, obl, msg, &o) == RED_PROVED);
			if (!o)
				continue;
			sb_reset(&b);
			xo_print_trace(o, false, &b);
			CHECK_STREQ(a.buf, b.buf);
			ir_trace_free(o);
		}
		xo_free(x);
	}
	sb_release(&a);
	sb_release(&b);
	ir_trace_free(t);
	no_children();
}

static void test_crash(void)
{
	ir_trace *t = parse(src);
	char obl[96], msg[768];
	xo *x = make("cat >/dev/null; echo oops >&2; exit 3", false, 5000);
	CHECK(run(x, t, obl, msg, NULL) == RED_OPT_CRASH);
	CHECK_STREQ(obl, "crash exit 3");
	CHECK(strstr(msg, "status 3") && strstr(msg, "oops"));
	xo_free(x);
	x = make("kill -SEGV $$", false, 5000);
	CHECK(run(x, t, obl, msg, NULL) == RED_OPT_CRASH);
	CHECK_STREQ(obl, "crash signal 11");
	xo_free(x);
	/* persistent: the first process quits after its first answer;
	 * it is started again for the next trace, which is no finding */
	char dir[] = "/tmp/jp-xo-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char cmd[512];
	snprintf(cmd, sizeof cmd,
		 "if [ -e %s/s ]; then %s; exit 0; fi; touch %s/s; "
		 "while IFS= read -r l; do printf '%%s\\n' \"$l\"; "
		 "[ \"$l\" = --end-- ] && exit 0; done",
		 dir, ECHO_P, dir);
	x = make(cmd, true, 5000);
	CHECK(run(x, t, obl, msg, NULL) == RED_PROVED);
	struct timespec pause = {0, 300000000L};
	nanosleep(&pause, NULL);
	CHECK(run(x, t, obl, msg, NULL) == RED_PROVED);
	CHECK(run(x, t, obl, msg, NULL) == RED_PROVED);
	xo_free(x);
	x = make("read a; exit 4", true, 5000);
	CHECK(run(x, t, obl, msg, NULL) == RED_OPT_CRASH);
	CHECK(strstr(msg, "before answering") != NULL);
	xo_free(x);
	char rm[600];
	snprintf(rm, sizeof rm, "rm -rf %s", dir);
	CHECK(system(rm) == 0);
	ir_trace_free(t);
	no_children();
}

static void test_hang(void)
{
	ir_trace *t = parse(src);
	char obl[96], msg[768];
	/* the sleep is a grandchild: the whole group must go */
	xo *x = make("cat >/dev/null; sleep 30", false, 200);
	double t0 = now_ms();
	CHECK(run(x, t, obl, msg, NULL) == RED_OPT_HANG);
	CHECK(now_ms() - t0 < 3000);
	CHECK_STREQ(obl, "hang");
	CHECK(strstr(msg, "200 ms") != NULL);
	xo_free(x);
	/* persistent: the first trace after a start has twice the time (a
	 * slow start is no hang) */
	x = make("sleep 0.6; " ECHO_P, true, 400);
	CHECK(run(x, t, obl, msg, NULL) == RED_PROVED);
	xo_free(x);
	/* persistent: hangs on int_mul only; restarted after the hang */
	x = make("while IFS= read -r l; do case \"$l\" in *int_mul*) "
		 "sleep 30;; esac; printf '%s\\n' \"$l\"; done",
		 true, 300);
	ir_trace *small = parse("[i0]\ni1 = int_add(i0, 1)\nfinish(i1)\n");
	CHECK(run(x, small, obl, msg, NULL) == RED_PROVED);
	t0 = now_ms();
	CHECK(run(x, t, obl, msg, NULL) == RED_OPT_HANG);
	CHECK(now_ms() - t0 < 3000);
	CHECK(run(x, small, obl, msg, NULL) == RED_PROVED);
	xo_free(x);
	ir_trace_free(small);
	ir_trace_free(t);
	no_children();
}

static void test_bad_output(void)
{
	ir_trace *t = parse(src);
	char obl[96], msg[768];
	xo *x = make("cat >/dev/null; echo 'this is no trace'", false, 5000);
	CHECK(run(x, t, obl, msg, NULL) == RED_OPT_BADOUT);
	CHECK_STREQ(obl, "bad output parse");
	CHECK(strstr(msg, "does not parse") &&
	      strstr(msg, "optimizer output:1"));
	xo_free(x);
	/* other inputs */
	x = make("cat >/dev/null; printf '[i0]\\nfinish(i0)\\n'", false, 5000);
	CHECK(run(x, t, obl, msg, NULL) == RED_OPT_BADOUT);
	CHECK_STREQ(obl, "bad output inputs");
	xo_free(x);
	/* persistent: every answer twice */
	x = make("b=; while IFS= read -r l; do b=\"$b$l\n\"; if [ \"$l\" = "
		 "--end-- ]; then printf '%s%s' \"$b\" \"$b\"; b=; fi; done",
		 true, 5000);
	CHECK(run(x, t, obl, msg, NULL) == RED_OPT_BADOUT);
	CHECK_STREQ(obl, "bad output extra");
	xo_free(x);
	/* the output limit */
	x = make("cat >/dev/null; yes 'finish()' | head -c 20000000", false,
		 10000);
	CHECK(run(x, t, obl, msg, NULL) == RED_OPT_BADOUT);
	CHECK_STREQ(obl, "bad output size");
	xo_free(x);
	ir_trace_free(t);
	no_children();
}

/* An answer without labels: the verifier pairs the guards itself. */
static void test_unlabelled(void)
{
	ir_trace *t = parse(src);
	ver_ctx *vc = ver_ctx_new(NULL);
	CHECK(vc != NULL);
	xo *x = make("sed -E 's/, descr=g[0-9]+//'", false, 5000);
	red_optimizer ro = xo_optimizer(x);
	red_env env = red_default_env(vc);
	env.optimizer = &ro;
	red_outcome out;
	CHECK(red_evaluate(&env, t, &out, NULL) == JP_OK);
	CHECK(out.kind == RED_PROVED);
	CHECK(out.opt && out.opt->ops[2].flags & IR_OPF_IMPLICIT_LABEL);
	CHECK(out.have_res && out.res.mode_used == VER_MODE_INFERRED);
	red_outcome_free(&out);
	/* and a wrong answer is still refuted */
	xo_free(x);
	x = make("sed -E 's/, descr=g[0-9]+//; s/int_mul\\(i2, 2\\)/"
		 "int_add(i2, 2)/'",
		 false, 5000);
	ro = xo_optimizer(x);
	CHECK(red_evaluate(&env, t, &out, NULL) == JP_OK);
	CHECK(out.kind == RED_REFUTED);
	red_outcome_free(&out);
	xo_free(x);
	ver_ctx_free(vc);
	ir_trace_free(t);
	no_children();
}

static void test_probe(void)
{
	jp_err e;
	xo_config c = {"no-such-optimizer-command-xyz", false, 2000, false, 64};
	CHECK(xo_probe(&c, &e) == JP_EINPUT);
	CHECK(strstr(e.msg, "cannot be run") && strstr(e.msg, "not found"));
	c.cmd = "exit 0";
	CHECK(xo_probe(&c, &e) == JP_EINPUT);
	CHECK(strstr(e.msg, "does not parse") != NULL);
	c.cmd = "sleep 5";
	c.timeout_ms = 200;
	CHECK(xo_probe(&c, &e) == JP_EINPUT);
	CHECK(strstr(e.msg, "no answer") != NULL);
	c.cmd = "cat";
	c.timeout_ms = 0;
	CHECK(xo_probe(&c, &e) == JP_OK);
	c.cmd = ECHO_P;
	c.persistent = true;
	CHECK(xo_probe(&c, &e) == JP_OK);
	/* answers twice, a moment apart */
	c.cmd = "while IFS= read -r l; do [ \"$l\" = --end-- ] && { printf "
		"'[i0]\\nfinish(i0)\\n--end--\\n'; sleep 0.02; printf "
		"'[i0]\\nfinish(i0)\\n--end--\\n'; }; done";
	CHECK(xo_probe(&c, &e) == JP_EINPUT);
	c.toy = true;
	c.persistent = false;
	c.cmd = "cat";
	CHECK(xo_probe(&c, &e) == JP_OK);
	no_children();
}

static void test_format(void)
{
	xo_config c = {"python3 toy.py --x 'a'", true, 300, true, 64};
	strbuf sb;
	sb_init(&sb);
	xo_format_options(&c, &sb);
	CHECK_STREQ(sb.buf, " --optimizer 'python3 toy.py --x '\\''a'\\''' "
			    "--optimizer-persistent --optimizer-timeout-ms 300 "
			    "--syntax toy");
	sb_release(&sb);
	jp_err e;
	CHECK(xo_config_from_args(&c, NULL, true, 0, NULL, 64, &e) ==
	      JP_EINPUT);
	CHECK(xo_config_from_args(&c, "cat", false, 0, "lisp", 64, &e) ==
	      JP_EINPUT);
	CHECK(xo_config_from_args(&c, "cat", false, 0, "toy", 64, &e) ==
		  JP_OK &&
	      c.toy);
}

/* Traces of the toy profile travel in the toy spelling and come back
 * as the same trace: same text, same input kinds, toy words only. */
static void test_toy_roundtrip(void)
{
	gen_ctx *g = gen_ctx_new();
	gen_opts o = gen_default_opts();
	o.profile = GEN_PROFILE_TOY;
	o.heap = true;
	int bad = 0, heap = 0;
	for (uint64_t s = 1; s <= 300; s++) {
		ir_trace *t = NULL, *back = NULL;
		if (gen_trace(g, s, &o, &t, NULL, NULL)) {
			bad++;
			continue;
		}
		strbuf a, b;
		sb_init(&a);
		sb_init(&b);
		xo_print_trace(t, true, &a);
		heap += strstr(a.buf, "alloc()") != NULL;
		if (strstr(a.buf, "int_") || strstr(a.buf, "descr=") ||
		    strstr(a.buf, "guard") || strstr(a.buf, "finish") ||
		    strstr(a.buf, "[i"))
			bad++;
		ir_parse_opts po = {64, false, "toy"};
		if (ir_parse(a.buf, a.len, &po, &back, NULL) == JP_OK) {
			xo_print_trace(back, true, &b);
			bool same = !strcmp(a.buf, b.buf) &&
				    back->ninputs == t->ninputs &&
				    back->nops == t->nops;
			for (uint32_t i = 0; same && i < t->nops; i++)
				same = back->ops[i].opc == t->ops[i].opc;
			for (uint32_t i = 0; same && i < t->ninputs; i++)
				same = ir_val(back, back->inputs[i])->kind ==
				       ir_val(t, t->inputs[i])->kind;
			bad += !same;
		} else {
			bad++;
		}
		ir_trace_free(back);
		ir_trace_free(t);
		sb_release(&a);
		sb_release(&b);
	}
	CHECK(bad == 0);
	CHECK(heap > 100);
	gen_ctx_free(g);
}

int main(void)
{
	test_echo();
	test_crash();
	test_hang();
	test_bad_output();
	test_unlabelled();
	test_probe();
	test_format();
	test_toy_roundtrip();
	return check_summary("test_extopt");
}
