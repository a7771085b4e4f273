/* Parser, printer and validator: round trips, accepted forms, errors. */
#define _DEFAULT_SOURCE /* mkstemp */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "ir/validate.h"

static ir_trace *parse_w(const char *text, int width, bool opaque, jp_err *e)
{
	ir_parse_opts o = {.width = width, .opaque = opaque, .file = "t"};
	ir_trace *t = NULL;
	ir_parse(text, strlen(text), &o, &t, e);
	return t;
}

static char *print_trace(const ir_trace *t)
{
	strbuf sb;
	sb_init(&sb);
	ir_print(t, &sb);
	return sb_detach(&sb);
}

/* Parses TEXT, prints it and checks the print equals WANT (or TEXT when
 * WANT is NULL) and that reparsing the print gives the same print. */
static void roundtrip(const char *text, const char *want, bool opaque)
{
	jp_err e;
	ir_trace *t = parse_w(text, 64, opaque, &e);
	CHECK(t != NULL);
	if (!t) {
		fprintf(stderr, "  parse error: %s\n", e.msg);
		return;
	}
	char *p1 = print_trace(t);
	CHECK_STREQ(p1, want ? want : text);
	ir_trace *t2 = parse_w(p1, 64, opaque, &e);
	CHECK(t2 != NULL);
	if (t2) {
		char *p2 = print_trace(t2);
		CHECK_STREQ(p2, p1);
		free(p2);
		ir_trace_free(t2);
	}
	free(p1);
	ir_trace_free(t);
}

static void expect_error_n(const char *text, size_t len, int width, int line,
			   int col, const char *substr)
{
	jp_err e;
	jp_err_clear(&e);
	ir_parse_opts o = {.width = width, .file = "t"};
	ir_trace *t = NULL;
	ir_parse(text, len, &o, &t, &e);
	CHECK(t == NULL);
	CHECK(e.status == JP_EINPUT);
	CHECK(e.line == line);
	CHECK(e.col == col);
	CHECK(strstr(e.msg, substr) != NULL);
	if (e.line != line || e.col != col || !strstr(e.msg, substr))
		fprintf(stderr, "  got %d:%d %s\n", e.line, e.col, e.msg);
	ir_trace_free(t);
}

static void expect_error(const char *text, int line, int col,
			 const char *substr)
{
	expect_error_n(text, strlen(text), 64, line, col, substr);
}

static void test_roundtrips(void)
{
	roundtrip("[i0, i1]\n"
		  "i2 = int_add(i0, 10)\n"
		  "i3 = int_lt(i2, -15)\n"
		  "guard_true(i3, descr=g0) [i0, None, 7]\n"
		  "i4 = int_add_ovf(i0, i1)\n"
		  "guard_no_overflow(descr=<Guard0x7f>) []\n"
		  "finish(i2, i4)\n",
		  NULL, false);
	/* implicit labels are not printed, comments and offsets dropped */
	roundtrip("# a comment\n[i0]\n+12: i1 = int_is_true(i0) # why\n"
		  "guard_true(i1)\n--end of the loop--\njump(i0)\n",
		  "[i0]\ni1 = int_is_true(i0)\nguard_true(i1)\njump(i0)\n",
		  false);
	/* constants in all spellings */
	roundtrip("[p0]\ni1 = int_add(ConstInt(0x10), -0x1)\n"
		  "i2 = ptr_eq(p0, NULL)\ni3 = ptr_ne(p0, ConstPtr(ptr0))\n"
		  "guard_class(p0, ConstClass(node_vtable), descr=c1)\n"
		  "finish(i1, i2, i3)\n",
		  "[p0]\ni1 = int_add(16, -1)\ni2 = ptr_eq(p0, NULL)\n"
		  "i3 = ptr_ne(p0, ConstPtr(ptr0))\n"
		  "guard_class(p0, ConstClass(node_vtable), descr=c1)\n"
		  "finish(i1, i2, i3)\n",
		  false);
	/* heap ops */
	roundtrip("[p0, i1]\np2 = new_with_vtable(descr=Box)\n"
		  "setfield_gc(p2, i1, descr=value)\n"
		  "i3 = getfield_gc_i(p2, descr=value)\n"
		  "p4 = getfield_gc_r(p0, descr=next)\nescape_n(p2, i3)\n"
		  "i5 = escape_i(p4)\np6 = new()\nguard_nonnull(p4)\n"
		  "guard_isnull(p6)\njump(p0, i5)\n",
		  NULL, false);
	/* markers and opaque calls from real logs */
	roundtrip("[p0, i1]\nlabel(p0, i1, descr=TargetToken(1))\n"
		  "debug_merge_point(0, 0, '<code object f. file 'x.py'. "
		  "line 2> #9 LOAD_FAST')\n"
		  "i2 = call_i(ConstClass(f), i1, descr=<Calli 8 i>)\n"
		  "guard_not_forced(descr=<Guard0x1>) [p0]\n"
		  "jump(p0, i2, descr=TargetToken(1))\n",
		  NULL, true);
	/* the toy spelling */
	roundtrip("var0 = getarg(0)\nobj0 = alloc()\n"
		  "sto0 = store(obj0, 0, var0)\nvar1 = load(obj0, 0)\n"
		  "print(var1)\nescape(obj0)\n",
		  NULL, false);
	/* all int limits at width 64 */
	roundtrip("[i0]\ni1 = int_and(i0, -9223372036854775808)\n"
		  "i2 = int_or(i1, 9223372036854775807)\nfinish(i2)\n",
		  NULL, false);
}

static void test_toy_kinds(void)
{
	jp_err e;
	ir_trace *t = parse_w("var0 = getarg(0)\nvar1 = getarg(1)\n"
			      "obj0 = alloc()\nstore(obj0, 0, var0)\n"
			      "var2 = load(var1, 3)\nvar3 = load(var2, 0)\n"
			      "print(var3)\n",
			      64, false, &e);
	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(t->toy);
	CHECK(t->ninputs == 2);
	CHECK(t->vals[t->inputs[0]].kind == 'i');
	CHECK(t->vals[t->inputs[1]].kind == 'r');
	/* var2 is used as an object, so its load reads a reference */
	CHECK(t->ops[2].opc == IR_GETFIELD_GC_R);
	CHECK(t->ops[3].opc == IR_GETFIELD_GC_I);
	CHECK(t->ops[t->nops - 1].opc == IR_FINISH);
	ir_trace_free(t);
}

static void test_labels_and_width(void)
{
	jp_err e;
	ir_trace *t = parse_w("[i0]\nguard_true(i0)\nguard_false(i0, descr=x)\n"
			      "guard_value(i0, 255)\nfinish()\n",
			      8, false, &e);
	CHECK(t != NULL);
	if (!t)
		return;
	CHECK_STREQ(ir_guard_label(t, 0), "g0");
	CHECK(t->ops[0].flags & IR_OPF_IMPLICIT_LABEL);
	CHECK_STREQ(ir_guard_label(t, 1), "x");
	CHECK_STREQ(ir_guard_label(t, 2), "g2");
	/* 255 at width 8 is -1 */
	CHECK_EQ_U64(t->vals[t->ops[2].args[1]].cval, 0xff);
	CHECK(ir_count_guards(t) == 3);
	ir_trace_free(t);
	const char *big = "[i0]\ni1 = int_add(i0, 256)\nfinish(i1)\n";
	expect_error_n(big, strlen(big), 8, 2, 18, "fits in 8 bits");
	t = parse_w("[i0]\ni1 = int_add(i0, -128)\nfinish(i1)\n", 8, false, &e);
	CHECK(t != NULL);
	ir_trace_free(t);
}

static void test_errors(void)
{
	expect_error("[i0]\ni1 = int_add(i0, i9)\nfinish(i1)\n", 2, 18,
		     "'i9' is used before it is defined");
	expect_error("[i0]\ni1 = int_sub(i0)\nfinish(i1)\n", 2, 1,
		     "takes 2 arguments, found 1");
	expect_error("[i0]\ni1 = bogus_op(i0)\nfinish(i1)\n", 2, 6,
		     "unknown operation 'bogus_op'");
	expect_error("[i0]\nfinish(i0)\nfinish(i0)\n", 3, 1,
		     "expected nothing after");
	expect_error("[i0]\ni1 = int_mul_ovf(i0, 3)\nfinish(i1)\n", 2, 1,
		     "must be followed right away");
	expect_error("[i0] junk\nfinish(i0)\n", 1, 6, "expected end of line");
	/* A NUL byte inside the text is an error at its position. */
	const char nul[] = "[i0]\ni1 = int_add(i0, 1)\0\nfinish(i1)\n";
	expect_error_n(nul, sizeof nul - 1, 64, 2, 20, "found '\\x00");
}

/* What PyPy's own trace parser accepts, we accept (issue 26, item 3). */
static ir_trace *parse_ok(const char *text, bool opaque)
{
	jp_err e;
	ir_trace *t = parse_w(text, 64, opaque, &e);
	if (!t)
		fprintf(stderr, "  parse error: %d:%d %s\n", e.line, e.col,
			e.msg);
	return t;
}

static void test_pypy_leniency(void)
{
	/* no end op: closed with an empty finish */
	ir_trace *t = parse_ok("[i0]\ni1 = int_add(i0, 1)\n", false);
	CHECK(t && t->nops == 2 && t->ops[1].opc == IR_FINISH &&
	      t->ops[1].nargs == 0);
	ir_trace_free(t);
	/* an op with a result but no result name gets a generated one */
	t = parse_ok("[i3]\nescape_i(i3)\nfinish(i3)\n", false);
	CHECK(t && t->ops[0].opc == IR_ESCAPE_I &&
	      t->ops[0].result != IR_NOVAL);
	ir_trace_free(t);
	/* text after ')' and after the fail-args ']' */
	t = parse_ok("[i0]\ni1 = int_add(i0, 1) junk here\n"
		     "guard_true(i1) [i0] more text\nfinish(i1)\n",
		     false);
	CHECK(t && t->nops == 3 && t->ops[1].nfail == 1);
	ir_trace_free(t);
	/* +N: offsets, descr=<...>, TargetToken(N), ConstPtr, ConstClass,
	 * None fail-args */
	t = parse_ok("[p0, i1]\n+12: guard_class(p0, ConstClass(W_Int), "
		     "descr=<Guard0x7f01>) [p0, None]\n"
		     "+20: guard_value(p0, ConstPtr(ptr3), descr=<Guard0x7f02>)"
		     "\n+31: jump(p0, i1, descr=TargetToken(140))\n",
		     false);
	CHECK(t && t->nops == 3 && t->ops[0].nfail == 2 &&
	      t->ops[0].failargs[1] == IR_NOVAL);
	if (t) {
		CHECK_STREQ(ir_guard_label(t, 0), "<Guard0x7f01>");
		CHECK_STREQ(ir_strtext(t, t->ops[2].descr), "TargetToken(140)");
	}
	ir_trace_free(t);
	/* float literals are their IEEE bit patterns; f inputs are integers
	 * holding one */
	t = parse_ok("[f0]\nf1 = float_add(f0, 1.5)\nf2 = float_mul(f1, "
		     "-2e3)\nfinish(f2)\n",
		     true);
	CHECK(t && t->ninputs == 1 && ir_val(t, t->inputs[0])->kind == 'i');
	if (t) {
		double d = 1.5;
		uint64_t bits;
		memcpy(&bits, &d, sizeof bits);
		CHECK_EQ_U64(ir_val(t, t->ops[0].args[1])->cval, bits);
		d = -2e3;
		memcpy(&bits, &d, sizeof bits);
		CHECK_EQ_U64(ir_val(t, t->ops[1].args[1])->cval, bits);
	}
	ir_trace_free(t);
	/* PyPy prints a large double with every digit ("%f"): DBL_MAX is
	 * 316 characters (it was an error over 63) */
	{
		char big[512];
		int n = snprintf(big, sizeof big,
				 "[f0]\nf1 = float_add(f0, %f)\nfinish(f1)\n",
				 DBL_MAX);
		CHECK(n > 300 && (size_t)n < sizeof big);
		t = parse_ok(big, true);
		CHECK(t && t->nops == 2);
		if (t) {
			double d = DBL_MAX;
			uint64_t bits;
			memcpy(&bits, &d, sizeof bits);
			CHECK_EQ_U64(ir_val(t, t->ops[0].args[1])->cval, bits);
		}
		ir_trace_free(t);
	}
	/* unicode names */
	t = parse_ok("[i\xc3\xa9]\n\xce\xb1 = int_add(i\xc3\xa9, 1)\n"
		     "finish(\xce\xb1)\n",
		     false);
	CHECK(t && t->nops == 2);
	if (t)
		CHECK_STREQ(ir_valname(t, t->ops[0].result), "\xce\xb1");
	ir_trace_free(t);
}

/* A UTF-8 byte order mark at the start is skipped (it was an error
 * quoting its raw bytes); columns on line 1 count from after it; one
 * anywhere else is still an error. */
static void test_bom(void)
{
	const char *text = "\xEF\xBB\xBF"
			   "[i0]\ni1 = int_add(i0, 1)\nfinish(i1)\n";
	ir_parse_opts o = {.width = 64, .file = "t"};
	ir_trace *t = NULL;
	jp_err e;
	CHECK(ir_parse(text, strlen(text), &o, &t, &e) == JP_OK);
	CHECK(t && t->nops == 2);
	ir_trace_free(t);
	expect_error("\xEF\xBB\xBF[i0] junk\nfinish(i0)\n", 1, 6, "expected");
	/* (UTF-8 bytes are letters of names: it reads as a name) */
	expect_error("[i0]\n\xEF\xBB\xBF"
		     "finish(i0)\n",
		     2, 1, "unknown operation");
	/* ir_read_file drops it too, so '# args:' on line 1 is seen */
	char path[] = "/tmp/jp-bom-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	const char *file = "\xEF\xBB\xBF# args: 5\n[i0]\nfinish(i0)\n";
	CHECK(write(fd, file, strlen(file)) == (ssize_t)strlen(file));
	close(fd);
	char *buf;
	size_t len;
	CHECK(ir_read_file(path, &buf, &len, &e) == JP_OK);
	CHECK(len == strlen(file) - 3 && !memcmp(buf, "# args: 5", 9));
	free(buf);
	unlink(path);
}

/* A directory given as a trace says so (it said "read error"). */
static void test_directory(void)
{
	char *buf = NULL;
	size_t len;
	jp_err e;
	jp_err_clear(&e);
	CHECK(ir_read_file("/tmp", &buf, &len, &e) == JP_EINPUT);
	CHECK(strstr(e.msg, "found a directory") != NULL);
	CHECK(!strcmp(e.file, "/tmp"));
	CHECK(buf == NULL);
}

/* A constant of 5,000 digits is quoted by its start, with its length. */
static void test_long_constant(void)
{
	size_t n = 5000;
	char *text = malloc(n + 64);
	CHECK(text != NULL);
	if (!text)
		return;
	int k = sprintf(text, "[i0]\ni1 = int_add(i0, ");
	memset(text + k, '9', n);
	strcpy(text + k + n, ")\nfinish(i1)\n");
	expect_error(text, 2, 18, "...' (5000 characters)");
	jp_err e;
	ir_trace *t = NULL;
	ir_parse_opts o = {.width = 64, .file = "t"};
	ir_parse(text, strlen(text), &o, &t, &e);
	CHECK(strlen(e.msg) < 160);
	free(text);
	/* a short one is quoted whole */
	expect_error(
	    "[i0]\ni1 = int_add(i0, 99999999999999999999)\nfinish(i1)\n", 2, 18,
	    "found '99999999999999999999' (20 characters)");
}

/* A trace built through the API is checked by ir_validate. */
static void test_validate_built(void)
{
	ir_trace *t = ir_trace_new(32);
	ir_vid x = ir_add_input(t, 'i', "x");
	ir_vid args[2] = {x, ir_const_int(t, 5)};
	uint32_t a = ir_emit(t, IR_INT_ADD_OVF, 2, args, 0, NULL);
	(void)a;
	jp_err e;
	CHECK(ir_validate(t, NULL, &e) == JP_EINPUT); /* no ovf guard, no end */
	uint32_t g =
	    ir_emit(t, IR_GUARD_NO_OVERFLOW, 0, NULL, ir_cstr(t, "g0"), NULL);
	(void)g;
	ir_vid out = t->ops[0].result;
	ir_emit(t, IR_FINISH, 1, &out, 0, NULL);
	CHECK(ir_validate(t, NULL, &e) == JP_OK);
	CHECK_STREQ(ir_valname(t, out), "i0");
	ir_trace *c = ir_trace_clone(t);
	CHECK(c != NULL);
	if (c) {
		char *p1 = print_trace(t), *p2 = print_trace(c);
		CHECK_STREQ(p1, p2);
		free(p1);
		free(p2);
		ir_trace_free(c);
	}
	ir_trace_free(t);
}

int main(void)
{
	test_roundtrips();
	test_toy_kinds();
	test_labels_and_width();
	test_errors();
	test_pypy_leniency();
	test_validate_built();
	test_bom();
	test_directory();
	test_long_constant();
	return check_summary("test_parse");
}
