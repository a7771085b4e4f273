/* The Z3 encoding of every op against the concrete interpreter.
 *
 * Each op is put in a one-op trace over symbolic inputs, encoded, and the
 * terms are evaluated under a model holding concrete inputs; the value (and
 * for overflow-checked ops the guard outcome) must equal what interp_run
 * computes for the same inputs.  Edge values at widths 8, 16, 32 and 64, all
 * pairs at width 8 for the overflow flags, and solver proofs that the
 * cheap overflow formulas equal the textbook 2W-bit definition. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/interp.h"
#include "ir/sem.h"
#include "verify/encode.h"
#include "verify/z3ctx.h"

static Z3_context Z;

/* Appends "r = OPC(ARGS) [guard_no_overflow] finish(r)" to T. */
static ir_trace *emit_op(ir_trace *t, ir_opcode opc, uint32_t nargs,
			 const ir_vid *args)
{
	uint32_t op = ir_emit(t, opc, nargs, args, 0, NULL);
	if (ir_op_has(opc, IRF_OVF))
		ir_emit(t, IR_GUARD_NO_OVERFLOW, 0, NULL, ir_cstr(t, "g0"),
			NULL);
	ir_vid r = t->ops[op].result;
	ir_emit(t, IR_FINISH, 1, &r, 0, NULL);
	return t;
}

/* A trace "[i0, i1] r = OPC(i0, i1) [guard_no_overflow] finish(r)". */
static ir_trace *one_op(ir_opcode opc, int w)
{
	ir_trace *t = ir_trace_new(w);
	const ir_opinfo *oi = ir_opinfo_of(opc);
	ir_vid in[2];
	for (int i = 0; i < oi->nargs; i++)
		in[i] = ir_add_input(t, oi->args[i] == 'r' ? 'r' : 'i', NULL);
	return emit_op(t, opc, (uint32_t)oi->nargs, in);
}

static bool eval(Z3_model m, Z3_ast t, uint64_t *v)
{
	Z3_ast r = NULL;
	if (!Z3_model_eval(Z, m, t, true, &r) || !r)
		return false;
	Z3_inc_ref(Z, r);
	bool ok;
	if (Z3_get_sort_kind(Z, Z3_get_sort(Z, r)) == Z3_BOOL_SORT) {
		ok = Z3_get_bool_value(Z, r) != Z3_L_UNDEF;
		*v = Z3_get_bool_value(Z, r) == Z3_L_TRUE;
	} else {
		ok = zc_numeral(Z, r, v);
	}
	Z3_dec_ref(Z, r);
	return ok;
}

typedef struct enc_case {
	ir_trace *t;
	zc_scope S;
	Z3_ast vars[2];
	enc_trace e;
} enc_case;

/* Encodes T (which C then owns); case_close releases C either way. */
static bool case_encode(enc_case *c, ir_trace *t)
{
	c->t = t;
	memset(&c->e, 0, sizeof c->e);
	zc_scope_init(&c->S, Z);
	jp_err err;
	if (enc_inputs(&c->S, c->t, c->vars, &err) ||
	    enc_trace_build(&c->S, c->t, c->vars, &c->e, &err)) {
		fprintf(stderr, "encode %s: %s\n", ir_op_name(t, &t->ops[0]),
			err.msg);
		return false;
	}
	return true;
}

static bool case_open(enc_case *c, ir_opcode opc, int w)
{
	return case_encode(c, one_op(opc, w));
}

static void case_close(enc_case *c)
{
	enc_trace_free(&c->e);
	zc_scope_release(&c->S);
	ir_trace_free(c->t);
}

/* Compares encoding and interpreter on inputs X; returns false (after
 * printing) on a mismatch. */
static bool case_agrees(enc_case *c, const uint64_t *x)
{
	const ir_trace *t = c->t;
	Z3_model m = Z3_mk_model(Z);
	Z3_model_inc_ref(Z, m);
	for (uint32_t i = 0; i < t->ninputs; i++) {
		Z3_func_decl d = Z3_get_app_decl(Z, Z3_to_app(Z, c->vars[i]));
		unsigned w = Z3_get_bv_sort_size(Z, Z3_get_sort(Z, c->vars[i]));
		Z3_add_const_interp(Z, m, d, zc_bv(&c->S, w, x[i]));
	}
	interp_env env = {.args = x, .nargs = t->ninputs};
	interp_result r;
	jp_err err;
	bool ok = interp_run(t, &env, &r, &err) == JP_OK;
	uint64_t got = 0;
	ir_vid res = t->ops[0].result;
	ok = ok && eval(m, c->e.val[res], &got) && r.known[res] &&
	     got == r.vals[res];
	if (ok && ir_op_has(t->ops[0].opc, IRF_OVF)) {
		uint64_t pass = 0;
		ok = eval(m, c->e.pass[1], &pass) &&
		     (pass != 0) == (r.outcome != INTERP_GUARD_FAIL);
	}
	if (!ok)
		fprintf(stderr,
			"  %s at W=%d on 0x%llx, 0x%llx: encoding 0x%llx, "
			"interpreter 0x%llx (outcome %d)\n",
			ir_op_name(t, &t->ops[0]), t->width,
			(unsigned long long)x[0],
			(unsigned long long)(t->ninputs > 1 ? x[1] : 0),
			(unsigned long long)got,
			(unsigned long long)r.vals[res], (int)r.outcome);
	interp_result_free(&r);
	Z3_model_dec_ref(Z, m);
	return ok;
}

static uint32_t edge_values(int w, uint64_t *v)
{
	uint32_t n = 0;
	const int64_t small[] = {0, 1, -1, 2, -2, 3, 7, 8, 9, -8, 100};
	for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
		v[n++] = sem_from_signed(w, small[i]);
	v[n++] = sem_minint(w);
	v[n++] = sem_maxint(w);
	v[n++] = sem_minint(w) + 1;
	v[n++] = sem_maxint(w) - 1;
	v[n++] = (uint64_t)w - 1;
	v[n++] = (uint64_t)w;
	v[n++] = (uint64_t)w + 1;
	v[n++] = (uint64_t)w / 8;
	v[n++] = (uint64_t)w / 8 - 1;
	v[n++] = sem_mask(w, UINT64_C(0x5a5a5a5a5a5a5a5a));
	v[n++] = sem_mask(w, UINT64_C(0x8000000080000001));
	return n;
}

/* Every evaluable op at width W on all pairs of edge values. */
static void test_ops_on_edges(int w)
{
	uint64_t v[32];
	uint32_t n = edge_values(w, v);
	for (int opc = 0; opc < IR_OPCODE_COUNT; opc++) {
		if (!sem_evaluable((ir_opcode)opc))
			continue;
		enc_case c;
		bool ok = case_open(&c, (ir_opcode)opc, w);
		CHECK(ok);
		int bad = 0;
		uint32_t nargs = c.t->ninputs;
		for (uint32_t a = 0; ok && a < n && bad < 3; a++)
			for (uint32_t b = 0; b < (nargs > 1 ? n : 1); b++) {
				uint64_t x[2] = {v[a], v[b]};
				if (!case_agrees(&c, x) && ++bad >= 3)
					break;
			}
		CHECK(bad == 0);
		case_close(&c);
	}
}

/* The overflow flags and all two-argument ops, exhaustively at W = 8. */
static void test_exhaustive_w8(void)
{
	const ir_opcode ops[] = {
	    IR_INT_ADD_OVF, IR_INT_SUB_OVF,   IR_INT_MUL_OVF, IR_INT_PY_DIV,
	    IR_INT_PY_MOD,  IR_UINT_MUL_HIGH, IR_INT_SIGNEXT, IR_INT_RSHIFT,
	    IR_INT_LSHIFT,  IR_UINT_RSHIFT};
	for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
		enc_case c;
		CHECK(case_open(&c, ops[k], 8));
		int bad = 0;
		for (uint64_t a = 0; a < 256 && bad < 3; a++)
			for (uint64_t b = 0; b < 256; b++) {
				uint64_t x[2] = {a, b};
				if (!case_agrees(&c, x) && ++bad >= 3)
					break;
			}
		CHECK(bad == 0);
		case_close(&c);
	}
}

/* The solver's answer to "A != B for some input" (Z3_L_FALSE: A == B
 * always). */
static Z3_lbool differ(zc_scope *S, Z3_ast a, Z3_ast b)
{
	Z3_solver s = Z3_mk_solver(Z);
	Z3_solver_inc_ref(Z, s);
	Z3_solver_assert(
	    Z, s, zc_keep(S, Z3_mk_not(Z, zc_keep(S, Z3_mk_eq(Z, a, b)))));
	Z3_lbool ans = Z3_solver_check(Z, s);
	Z3_solver_dec_ref(Z, s);
	return ans;
}

static bool proved_equal(zc_scope *S, Z3_ast a, Z3_ast b)
{
	return differ(S, a, b) == Z3_L_FALSE;
}

/* The sign-rule overflow formulas of add/sub (and the 2W one of mul) are
 * proved equal to the textbook definition at every width: no input makes
 * them differ. */
static void test_ovf_formulas_proved(void)
{
	const ir_opcode ops[] = {IR_INT_ADD_OVF, IR_INT_SUB_OVF,
				 IR_INT_MUL_OVF};
	const int widths[] = {8, 16, 32, 64};
	for (size_t wi = 0; wi < 4; wi++)
		for (size_t k = 0; k < 3; k++) {
			int w = widths[wi];
			zc_scope S;
			zc_scope_init(&S, Z);
			Z3_sort srt = Z3_mk_bv_sort(Z, (unsigned)w);
			Z3_ast a[2] = {
			    zc_keep(&S,
				    Z3_mk_const(Z, Z3_mk_string_symbol(Z, "a"),
						srt)),
			    zc_keep(&S,
				    Z3_mk_const(Z, Z3_mk_string_symbol(Z, "b"),
						srt))};
			Z3_ast ovf = NULL;
			CHECK(enc_op(&S, w, ops[k], a, &ovf) != NULL);
			Z3_ast ref =
			    enc_ovf_reference(&S, w, ops[k], a[0], a[1]);
			Z3_lbool r = differ(&S, ovf, ref);
			if (r != Z3_L_FALSE)
				fprintf(stderr, "  %s at W=%d: %d\n",
					ir_opinfo_of(ops[k])->name, w, (int)r);
			CHECK(r == Z3_L_FALSE);
			zc_scope_release(&S);
		}
}

/* Folding (all arguments constant) and int_signext with a constant count
 * give the same values as the symbolic encoding. */
static void test_constant_args(void)
{
	uint64_t v[32];
	uint32_t n = edge_values(64, v);
	for (int opc = 0; opc < IR_OPCODE_COUNT; opc++) {
		if (!sem_evaluable((ir_opcode)opc) ||
		    ir_opinfo_of((ir_opcode)opc)->nargs != 2 ||
		    ir_opinfo_of((ir_opcode)opc)->args[0] == 'r')
			continue;
		zc_scope S;
		zc_scope_init(&S, Z);
		for (uint32_t a = 0; a < n; a++)
			for (uint32_t b = 0; b < n; b++) {
				Z3_ast args[2] = {zc_bv(&S, 64, v[a]),
						  zc_bv(&S, 64, v[b])};
				Z3_ast ovf = NULL;
				Z3_ast t =
				    enc_op(&S, 64, (ir_opcode)opc, args, &ovf);
				Z3_ast s = zc_keep(&S, Z3_simplify(Z, t));
				uint64_t got = 0, x[2] = {v[a], v[b]};
				bool of = false;
				uint64_t want =
				    sem_eval((ir_opcode)opc, 64, x, &of);
				bool ok = zc_numeral(Z, s, &got) && got == want;
				if (ovf) {
					Z3_ast so =
					    zc_keep(&S, Z3_simplify(Z, ovf));
					ok = ok && (of ? zc_is_true(Z, so)
						       : zc_is_false(Z, so));
				}
				if (!ok)
					fprintf(
					    stderr,
					    "  const %s 0x%llx 0x%llx\n",
					    ir_opinfo_of((ir_opcode)opc)->name,
					    (unsigned long long)v[a],
					    (unsigned long long)v[b]);
				CHECK(ok);
			}
		zc_scope_release(&S);
	}
}

/* Whether OPC with the constant C as argument SIDE (0: "x OPC c", 1: "c
 * OPC x") agrees with the interpreter at width W for every x in V[0..N). */
static bool const_case_agrees(int w, ir_opcode opc, uint64_t c, int side,
			      const uint64_t *v, uint32_t n)
{
	ir_trace *t = ir_trace_new(w);
	ir_vid in = ir_add_input(t, 'i', NULL);
	ir_vid k = ir_const_int(t, c);
	ir_vid args[2] = {side ? k : in, side ? in : k};
	enc_case cs;
	bool ok = case_encode(&cs, emit_op(t, opc, 2, args));
	CHECK(ok);
	for (uint32_t i = 0; ok && i < n; i++) {
		uint64_t x[2] = {v[i], 0};
		ok = case_agrees(&cs, x);
	}
	case_close(&cs);
	return ok;
}

/* One symbolic and one constant argument (either side): the path where
 * enc_peephole replaces multipliers and dividers by shifts and masks. */
static void test_one_constant(int w)
{
	uint64_t v[80];
	uint32_t n = edge_values(w, v);
	for (int k = 2; k < w; k += (k < 8 ? 1 : 7)) {
		v[n++] = UINT64_C(1) << k;
		v[n++] = sem_mask(w, 0 - (UINT64_C(1) << k));
	}
	const int64_t odd[] = {-3, -7, -10, -100};
	for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
		v[n++] = sem_from_signed(w, odd[i]);
	for (int opc = 0; opc < IR_OPCODE_COUNT; opc++) {
		const ir_opinfo *oi = ir_opinfo_of((ir_opcode)opc);
		if (!sem_evaluable((ir_opcode)opc) || oi->nargs != 2 ||
		    oi->args[0] == 'r')
			continue;
		int bad = 0;
		for (int side = 0; side < 2; side++)
			for (uint32_t ci = 0; ci < n && bad < 3; ci++) {
				bad += !const_case_agrees(w, (ir_opcode)opc,
							  v[ci], side, v, n);
			}
		CHECK(bad == 0);
	}
}

/* Floor division and modulo at W=8 by every constant, positive and
 * negative, agree with the interpreter on every dividend: the peepholes
 * replace the divider for each of them. */
static void test_division_every_constant_w8(void)
{
	const ir_opcode ops[] = {IR_INT_PY_DIV, IR_INT_PY_MOD};
	uint64_t all[256];
	for (uint64_t x = 0; x < 256; x++)
		all[x] = x;
	for (size_t k = 0; k < 2; k++) {
		int bad = 0;
		for (uint64_t c = 0; c < 256 && bad < 3; c++)
			bad += !const_case_agrees(8, ops[k], c, 0, all, 256);
		CHECK(bad == 0);
	}
}

/* Products at W=8 by every constant agree with the interpreter on every
 * x, value and overflow: constants with one or two bits set (or whose
 * negation has one) take shifts, the overflow check of every constant is
 * a range test on x.  int_mul_ovf gives both the value and the check;
 * the constant alternates sides. */
static void test_product_every_constant_w8(void)
{
	uint64_t all[256];
	for (uint64_t x = 0; x < 256; x++)
		all[x] = x;
	int bad = 0;
	for (uint64_t c = 0; c < 256 && bad < 3; c++)
		bad += !const_case_agrees(8, IR_INT_MUL_OVF, c, (int)(c & 1),
					  all, 256);
	CHECK(bad == 0);
}

/* The same at W=64, proved for every x by the solver against the 2W
 * reference product, for constants at the edges of the shift and range
 * forms. */
static void test_product_constants_proved(void)
{
	const int64_t cs[] = {INT64_MIN,
			      INT64_MIN + 1,
			      -1,
			      -8,
			      7,
			      INT64_MAX,
			      (1LL << 62) + (1LL << 61)};
	for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
		zc_scope S;
		zc_scope_init(&S, Z);
		Z3_ast x =
		    zc_keep(&S, Z3_mk_const(Z, Z3_mk_string_symbol(Z, "x"),
					    Z3_mk_bv_sort(Z, 64)));
		Z3_ast a[2] = {x, zc_bv(&S, 64, (uint64_t)cs[i])};
		Z3_ast ovf = NULL;
		Z3_ast r = enc_op(&S, 64, IR_INT_MUL_OVF, a, &ovf);
		CHECK(r && ovf);
		Z3_ast ref = enc_ovf_reference(&S, 64, IR_INT_MUL_OVF, x, a[1]);
		Z3_lbool ans = differ(&S, ovf, ref);
		if (ans == Z3_L_FALSE)
			ans =
			    differ(&S, r, zc_keep(&S, Z3_mk_bvmul(Z, x, a[1])));
		if (ans != Z3_L_FALSE)
			fprintf(stderr, "  x * %lld: %d\n", (long long)cs[i],
				(int)ans);
		CHECK(ans == Z3_L_FALSE);
		zc_scope_release(&S);
	}
}

/* Negations take the optimizer's forms: -(a - b) is b - a, -(-a) is a,
 * a + -b is a - b, a - -b is a + b, 0 - a and a * -1 are -a; each is the
 * general encoding's value (proved) and the form stated (the term). */
static void test_negations(void)
{
	zc_scope S;
	zc_scope_init(&S, Z);
	Z3_ast v[2];
	for (int i = 0; i < 2; i++)
		v[i] = zc_keep(
		    &S, Z3_mk_const(Z, Z3_mk_string_symbol(Z, i ? "b" : "a"),
				    Z3_mk_bv_sort(Z, 64)));
	Z3_ast sub[2] = {v[0], v[1]};
	Z3_ast d = enc_op(&S, 64, IR_INT_SUB, sub, NULL);
	Z3_ast nd = enc_peephole(&S, 64, IR_INT_NEG, &d);
	Z3_ast ba[2] = {v[1], v[0]};
	CHECK(nd == enc_op(&S, 64, IR_INT_SUB, ba, NULL));
	CHECK(proved_equal(&S, nd, enc_op(&S, 64, IR_INT_NEG, &d, NULL)));
	Z3_ast na = enc_op(&S, 64, IR_INT_NEG, v, NULL);
	CHECK(enc_peephole(&S, 64, IR_INT_NEG, &na) == v[0]);
	Z3_ast plus[2] = {v[1], na}, minus[2] = {v[1], na};
	Z3_ast p = enc_peephole(&S, 64, IR_INT_ADD, plus);
	CHECK(p == enc_op(&S, 64, IR_INT_SUB, ba, NULL));
	CHECK(proved_equal(&S, p, enc_op(&S, 64, IR_INT_ADD, plus, NULL)));
	Z3_ast m = enc_peephole(&S, 64, IR_INT_SUB, minus);
	CHECK(m != NULL &&
	      proved_equal(&S, m, enc_op(&S, 64, IR_INT_SUB, minus, NULL)));
	Z3_ast z[2] = {zc_bv(&S, 64, 0), v[0]};
	Z3_ast m1[2] = {v[0], zc_bv(&S, 64, ~0ull)};
	CHECK(enc_peephole(&S, 64, IR_INT_SUB, z) == na);
	/* -a + -a is still (-a) << 1, the optimizer's form of it. */
	Z3_ast nn[2] = {na, na}, n1[2] = {na, zc_bv(&S, 64, 1)};
	CHECK(enc_peephole(&S, 64, IR_INT_ADD, nn) ==
	      enc_peephole(&S, 64, IR_INT_LSHIFT, n1));
	CHECK(enc_peephole(&S, 64, IR_INT_MUL, m1) == na);
	zc_scope_release(&S);
}

/* An op of one value twice takes a peephole: int_add(x, x) is x << 1,
 * int_and / int_or give x, int_xor / int_sub 0; int_add_ovf(x, x) and
 * int_sub_ovf(x, x) take them for their value, with the overflow check
 * of the op.  Each agrees with the interpreter on every edge value. */
static void test_same_args(int w, ir_opcode opc)
{
	uint64_t v[48];
	uint32_t n = edge_values(w, v);
	ir_trace *t = ir_trace_new(w);
	ir_vid in = ir_add_input(t, 'i', NULL);
	ir_vid args[2] = {in, in};
	enc_case cs;
	bool ok = case_encode(&cs, emit_op(t, opc, 2, args));
	CHECK(ok && cs.e.peepholes == !ir_op_has(opc, IRF_OVF));
	for (uint32_t xi = 0; ok && xi < n; xi++) {
		uint64_t x[2] = {v[xi], 0};
		CHECK(case_agrees(&cs, x));
	}
	case_close(&cs);
}

/* "x // (1 << s)" and "x % (1 << s)" take enc_peephole's case split on
 * the shift count instead of a divider: every count (in range, W - 1 where
 * the divisor is MININT, and past the width) against the interpreter. */
static void test_shifted_one_divisor(int w)
{
	uint64_t v[48];
	uint32_t n = edge_values(w, v);
	ir_opcode ops[2] = {IR_INT_PY_DIV, IR_INT_PY_MOD};
	for (int oi = 0; oi < 2; oi++) {
		ir_trace *t = ir_trace_new(w);
		ir_vid x = ir_add_input(t, 'i', NULL);
		ir_vid sh = ir_add_input(t, 'i', NULL);
		ir_vid one = ir_const_int(t, 1);
		ir_vid a0[2] = {one, sh};
		uint32_t d = ir_emit(t, IR_INT_LSHIFT, 2, a0, 0, NULL);
		ir_vid a1[2] = {x, t->ops[d].result};
		uint32_t q = ir_emit(t, ops[oi], 2, a1, 0, NULL);
		ir_vid r = t->ops[q].result;
		ir_emit(t, IR_FINISH, 1, &r, 0, NULL);
		zc_scope S;
		zc_scope_init(&S, Z);
		Z3_ast vars[2];
		enc_trace e;
		jp_err err;
		bool ok = enc_inputs(&S, t, vars, &err) == JP_OK &&
			  enc_trace_build(&S, t, vars, &e, &err) == JP_OK;
		CHECK(ok);
		CHECK(ok && e.peepholes == 1);
		int bad = 0;
		for (uint64_t c = 0; ok && c < (uint64_t)w + 3 && bad < 3; c++)
			for (uint32_t xi = 0; xi < n && bad < 3; xi++) {
				uint64_t in[2] = {v[xi], c == (uint64_t)w + 2
							     ? sem_allones(w)
							     : c};
				Z3_model m = Z3_mk_model(Z);
				Z3_model_inc_ref(Z, m);
				for (int i = 0; i < 2; i++)
					Z3_add_const_interp(
					    Z, m,
					    Z3_get_app_decl(
						Z, Z3_to_app(Z, vars[i])),
					    zc_bv(&S, (unsigned)w, in[i]));
				interp_env env = {.args = in, .nargs = 2};
				interp_result ir;
				uint64_t got = 0;
				bool agree =
				    interp_run(t, &env, &ir, &err) == JP_OK &&
				    eval(m, e.val[r], &got) &&
				    got == ir.vals[r];
				if (!agree) {
					bad++;
					fprintf(stderr,
						"  %s(0x%llx, 1 << %llu) at "
						"W=%d: encoding 0x%llx\n",
						ir_opinfo_of(ops[oi])->name,
						(unsigned long long)in[0],
						(unsigned long long)in[1], w,
						(unsigned long long)got);
				}
				interp_result_free(&ir);
				Z3_model_dec_ref(Z, m);
			}
		CHECK(bad == 0);
		if (ok)
			enc_trace_free(&e);
		zc_scope_release(&S);
		ir_trace_free(t);
	}
}

/* The peepholes fire where they should, so "x // 4" and "x >> 2" are the
 * same term. */
static void test_peephole_identity(void)
{
	zc_scope S;
	zc_scope_init(&S, Z);
	Z3_ast x = zc_keep(&S, Z3_mk_const(Z, Z3_mk_string_symbol(Z, "x"),
					   Z3_mk_bv_sort(Z, 64)));
	Z3_ast a[2] = {x, zc_bv(&S, 64, 4)};
	Z3_ast div = enc_peephole(&S, 64, IR_INT_PY_DIV, a);
	Z3_ast b[2] = {x, zc_bv(&S, 64, 2)};
	Z3_ast shr = enc_op(&S, 64, IR_INT_RSHIFT, b, NULL);
	CHECK(div != NULL && div == shr);
	Z3_ast xx[2] = {x, x};
	Z3_ast one[2] = {x, zc_bv(&S, 64, 1)};
	CHECK(enc_peephole(&S, 64, IR_INT_ADD, xx) ==
	      enc_op(&S, 64, IR_INT_LSHIFT, one, NULL));
	/* Constants that leave x alone: x >> 0 and x & -1 are x itself,
	 * so x + (x >> 0) meets x + x. */
	Z3_ast z0[2] = {x, zc_bv(&S, 64, 0)},
	       all1[2] = {zc_bv(&S, 64, ~0ull), x};
	CHECK(enc_peephole(&S, 64, IR_UINT_RSHIFT, z0) == x);
	CHECK(enc_peephole(&S, 64, IR_INT_RSHIFT, z0) == x);
	CHECK(enc_peephole(&S, 64, IR_INT_AND, all1) == x);
	Z3_ast xs[2] = {x, enc_peephole(&S, 64, IR_UINT_RSHIFT, z0)};
	CHECK(enc_peephole(&S, 64, IR_INT_ADD, xs) ==
	      enc_peephole(&S, 64, IR_INT_ADD, xx));
	/* Negative divisors, MININT included, need no divider either. */
	Z3_ast m[2] = {x, zc_bv(&S, 64, sem_minint(64))};
	Z3_ast n16[2] = {x, zc_bv(&S, 64, sem_from_signed(64, -16))};
	Z3_app app;
	CHECK(zc_app_of(Z, enc_peephole(&S, 64, IR_INT_PY_DIV, m), Z3_OP_ITE, 3,
			&app));
	CHECK(zc_app_of(Z, enc_peephole(&S, 64, IR_INT_PY_MOD, n16), Z3_OP_ITE,
			3, &app));
	/* A product by a constant of three bits keeps its multiplier; one
	 * of two bits is an adder; a product of a product by a constant is
	 * one product: (x * 6) * 11 is x * 66, (x * -8) * 3 is x * -24. */
	Z3_ast t[2] = {x, zc_bv(&S, 64, 11)};
	Z3_ast m11 = enc_peephole(&S, 64, IR_INT_MUL, t);
	CHECK(zc_app_of(Z, m11, Z3_OP_BMUL, 2, &app));
	t[1] = zc_bv(&S, 64, 12);
	CHECK(zc_app_of(Z, enc_peephole(&S, 64, IR_INT_MUL, t), Z3_OP_BADD, 2,
			&app));
	const int64_t nest[][2] = {{6, 11}, {-8, 3}, {11, 6}, {3, 5}, {7, 0}};
	for (size_t i = 0; i < sizeof nest / sizeof nest[0]; i++) {
		Z3_ast in[2] = {x, zc_bv(&S, 64, (uint64_t)nest[i][0])};
		Z3_ast out[2] = {enc_peephole(&S, 64, IR_INT_MUL, in),
				 zc_bv(&S, 64, (uint64_t)nest[i][1])};
		Z3_ast once[2] = {
		    x, zc_bv(&S, 64, (uint64_t)(nest[i][0] * nest[i][1]))};
		CHECK(enc_peephole(&S, 64, IR_INT_MUL, out) ==
		      enc_peephole(&S, 64, IR_INT_MUL, once));
	}
	/* The wrapped result of x +ovf x is the same term as x + x, and
	 * products by 0 and 1 need no multiplier. */
	Z3_ast ovf = NULL;
	CHECK(enc_op(&S, 64, IR_INT_ADD_OVF, xx, &ovf) ==
	      enc_peephole(&S, 64, IR_INT_ADD, xx));
	CHECK(ovf != NULL);
	Z3_ast zero[2] = {zc_bv(&S, 64, 0), x};
	uint64_t c = 1;
	CHECK(zc_numeral(Z, enc_peephole(&S, 64, IR_INT_MUL, zero), &c) &&
	      c == 0);
	CHECK(enc_peephole(&S, 64, IR_INT_MUL, one) == x);
	CHECK(enc_op(&S, 64, IR_INT_MUL_OVF, one, &ovf) == x);
	zc_scope_release(&S);
}

/* Division by a constant k and what an optimizer makes of it.  ORIG is
 * "[i0] q = i0 // k; r = i0 % k; finish(q, r)"; MAGIC the multiply-high
 * sequence for both (the sign folded in with i0 ^ (i0 >> (W-1))); NONNEG
 * the sequence an optimizer emits when it knows i0 >= 0, without the sign
 * fold. */
static ir_vid emit2(ir_trace *t, ir_opcode opc, ir_vid x, ir_vid y)
{
	ir_vid a[2] = {x, y};
	uint32_t op = ir_emit(t, opc, 2, a, 0, NULL);
	return t->ops[op].result;
}

static ir_trace *div_orig(int w, uint64_t k)
{
	ir_trace *t = ir_trace_new(w);
	ir_vid x = ir_add_input(t, 'i', NULL), c = ir_const_int(t, k);
	ir_vid f[2] = {emit2(t, IR_INT_PY_DIV, x, c),
		       emit2(t, IR_INT_PY_MOD, x, c)};
	ir_emit(t, IR_FINISH, 2, f, 0, NULL);
	return t;
}

static ir_trace *div_magic(int w, uint64_t k, uint64_t m, int s, bool nonneg)
{
	ir_trace *t = ir_trace_new(w);
	ir_vid x = ir_add_input(t, 'i', NULL), n = x, sg = IR_NOVAL;
	if (!nonneg) {
		sg = emit2(t, IR_INT_RSHIFT, x,
			   ir_const_int(t, (uint64_t)w - 1));
		n = emit2(t, IR_INT_XOR, sg, x); /* either order */
	}
	ir_vid h = emit2(t, IR_UINT_MUL_HIGH, ir_const_int(t, m), n);
	ir_vid q = emit2(t, IR_UINT_RSHIFT, h, ir_const_int(t, (uint64_t)s));
	if (!nonneg)
		q = emit2(t, IR_INT_XOR, q, sg);
	ir_vid p = emit2(t, IR_INT_MUL, q, ir_const_int(t, k));
	ir_vid f[2] = {q, emit2(t, IR_INT_SUB, x, p)};
	ir_emit(t, IR_FINISH, 2, f, 0, NULL);
	return t;
}

/* Whether the finish arguments of T, encoded in E over VAR, evaluate to
 * what the interpreter computes on input X. */
static bool finish_agrees(const ir_trace *t, Z3_ast var, const enc_trace *e,
			  uint64_t x)
{
	zc_scope S;
	zc_scope_init(&S, Z);
	Z3_model m = Z3_mk_model(Z);
	Z3_model_inc_ref(Z, m);
	Z3_add_const_interp(Z, m, Z3_get_app_decl(Z, Z3_to_app(Z, var)),
			    zc_bv(&S, (unsigned)t->width, x));
	interp_env env = {.args = &x, .nargs = 1};
	interp_result r;
	jp_err err;
	bool ok = interp_run(t, &env, &r, &err) == JP_OK;
	const ir_op *fin = &t->ops[t->nops - 1];
	for (uint32_t i = 0; ok && i < fin->nargs; i++) {
		uint64_t got = 0;
		ok = eval(m, e->val[fin->args[i]], &got) &&
		     got == r.vals[fin->args[i]];
	}
	Z3_model_dec_ref(Z, m);
	interp_result_free(&r);
	zc_scope_release(&S);
	return ok;
}

/* ORIG and MAGIC encode to the very same terms (so the pair is settled
 * without a solver), NONNEG to a term that agrees with the interpreter on
 * every input (negative ones included, where the identity does not hold),
 * and all three agree with the interpreter: on every input for the small
 * divisors at W = 8, on edge values otherwise. */
static void test_division_forms(int w, uint64_t k, uint64_t m, int s)
{
	ir_trace *t[3] = {div_orig(w, k), div_magic(w, k, m, s, false),
			  div_magic(w, k, m, s, true)};
	zc_scope S;
	zc_scope_init(&S, Z);
	Z3_ast var;
	enc_trace e[3];
	jp_err err;
	bool ok = enc_inputs(&S, t[0], &var, &err) == JP_OK;
	for (int i = 0; i < 3; i++)
		ok =
		    ok && enc_trace_build(&S, t[i], &var, &e[i], &err) == JP_OK;
	CHECK(ok);
	if (!ok) {
		fprintf(stderr, "  W=%d k=%llu: %s\n", w, (unsigned long long)k,
			err.msg);
		return;
	}
	for (int f = 0; f < 2; f++) {
		ir_vid a = t[0]->ops[t[0]->nops - 1].args[f];
		ir_vid b = t[1]->ops[t[1]->nops - 1].args[f];
		CHECK(e[0].val[a] == e[1].val[b]);
	}
	uint64_t v[48];
	bool all = w == 8 && k < 32;
	uint32_t n = all ? 256 : edge_values(w, v);
	int bad = 0;
	for (uint32_t i = 0; i < n && bad < 3; i++) {
		uint64_t x = all ? i : v[i];
		for (int j = 0; j < 3; j++)
			if (!finish_agrees(t[j], var, &e[j], x) && ++bad)
				fprintf(stderr,
					"  W=%d k=%llu form %d x=0x%llx\n", w,
					(unsigned long long)k, j,
					(unsigned long long)x);
	}
	CHECK(bad == 0);
	for (int i = 0; i < 3; i++) {
		enc_trace_free(&e[i]);
		ir_trace_free(t[i]);
	}
	zc_scope_release(&S);
}

/* Every divisor at W = 8 with the Granlund-Montgomery constants, and
 * PyPy's constants at W = 64. */
static void test_division_by_constants(void)
{
	for (uint64_t k = 3; k < 128; k++) {
		if (!(k & (k - 1)))
			continue;
		int l = 0;
		while (k >> l)
			l++;
		uint64_t m = ((UINT64_C(1) << (7 + l)) + k - 1) / k;
		test_division_forms(8, k, m, l - 1);
	}
	test_division_forms(64, 3, UINT64_C(0xAAAAAAAAAAAAAAAB), 1);
	test_division_forms(64, 7, UINT64_C(0x924924924924924A), 2);
	test_division_forms(64, 10, UINT64_C(0xCCCCCCCCCCCCCCCD), 3);
}

/* "(x & 0x7fffffff) >> 10" (json_pretty's random numbers) divided by 6
 * in form F: 0 the optimizer's multiply-high of a value it knows is not
 * negative, 1 floor division, 2 PyPy's signed multiply-high sequence. */
static ir_trace *masked_div(int f)
{
	ir_trace *t = ir_trace_new(64);
	ir_vid x = ir_add_input(t, 'i', NULL);
	ir_vid a = emit2(t, IR_INT_AND, x, ir_const_int(t, 0x7fffffff));
	ir_vid n = emit2(t, IR_INT_RSHIFT, a, ir_const_int(t, 10)), q;
	ir_vid m = ir_const_int(t, UINT64_C(0xAAAAAAAAAAAAAAAB));
	if (f == 1) {
		q = emit2(t, IR_INT_PY_DIV, n, ir_const_int(t, 6));
	} else if (f == 0) {
		ir_vid h = emit2(t, IR_UINT_MUL_HIGH, n, m);
		q = emit2(t, IR_UINT_RSHIFT, h, ir_const_int(t, 2));
	} else {
		ir_vid sg = emit2(t, IR_INT_RSHIFT, n, ir_const_int(t, 63));
		ir_vid nn = emit2(t, IR_INT_XOR, n, sg);
		ir_vid h = emit2(t, IR_UINT_MUL_HIGH, nn, m);
		q = emit2(t, IR_UINT_RSHIFT, h, ir_const_int(t, 2));
		q = emit2(t, IR_INT_XOR, q, sg);
	}
	ir_emit(t, IR_FINISH, 1, &q, 0, NULL);
	return t;
}

/* A dividend whose sign bit and top bits its shape clears (an arithmetic
 * shift right of a mask: 43 leading zeros): the three forms of its
 * division by 6 are one term, a 21-bit divider zero-extended, with no
 * 128-bit product and no 64-bit divider left; each agrees with the
 * interpreter. */
static void test_masked_dividend(void)
{
	zc_scope S;
	zc_scope_init(&S, Z);
	Z3_ast var;
	enc_trace e[3];
	ir_trace *t[3];
	jp_err err;
	bool ok = true;
	for (int f = 0; f < 3; f++) {
		t[f] = masked_div(f);
		ok = ok &&
		     (f > 0 || enc_inputs(&S, t[0], &var, &err) == JP_OK) &&
		     enc_trace_build(&S, t[f], &var, &e[f], &err) == JP_OK;
	}
	CHECK(ok);
	if (!ok)
		return;
	Z3_ast q[3];
	for (int f = 0; f < 3; f++)
		q[f] = e[f].val[t[f]->ops[t[f]->nops - 1].args[0]];
	CHECK(q[0] == q[1] && q[1] == q[2]);
	Z3_app app = Z3_to_app(Z, q[0]);
	CHECK(Z3_get_decl_kind(Z, Z3_get_app_decl(Z, app)) == Z3_OP_ZERO_EXT);
	Z3_ast d = Z3_get_app_arg(Z, app, 0);
	Z3_decl_kind k =
	    Z3_get_decl_kind(Z, Z3_get_app_decl(Z, Z3_to_app(Z, d)));
	CHECK(k == Z3_OP_BUDIV || k == Z3_OP_BUDIV_I);
	CHECK(Z3_get_bv_sort_size(Z, Z3_get_sort(Z, d)) == 21);
	uint64_t v[48];
	uint32_t nv = edge_values(64, v);
	for (int f = 0; f < 3; f++) {
		for (uint32_t i = 0; i < nv; i++)
			CHECK(finish_agrees(t[f], var, &e[f], v[i]));
		enc_trace_free(&e[f]);
		ir_trace_free(t[f]);
	}
	zc_scope_release(&S);
}

/* Floor division and modulo of masked, shifted values by constants,
 * narrowed to the bits the shape leaves (udiv_const), agree with the
 * interpreter: divisors below, near and above the value's range. */
static void test_narrowed_divisions(void)
{
	const uint64_t masks[] = {0x7fffffff, 0xffff, 0xff00ff00ff};
	const uint64_t shifts[] = {0, 10, 20};
	const uint64_t ks[] = {3, 6, 7, 1000, 65535, 65536, UINT64_C(1) << 22};
	uint64_t v[64];
	uint32_t nv = edge_values(64, v);
	uint64_t r = 0x9e3779b97f4a7c15u;
	while (nv < 64) {
		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		v[nv++] = r;
	}
	int bad = 0;
	for (int a = 0; a < 3; a++)
		for (int b = 0; b < 3; b++)
			for (int c = 0; c < 7; c++) {
				ir_trace *t = ir_trace_new(64);
				ir_vid x = ir_add_input(t, 'i', NULL);
				ir_vid m = emit2(t, IR_INT_AND, x,
						 ir_const_int(t, masks[a]));
				ir_vid n = emit2(t, IR_INT_RSHIFT, m,
						 ir_const_int(t, shifts[b]));
				ir_vid k = ir_const_int(t, ks[c]);
				ir_vid f[2] = {emit2(t, IR_INT_PY_DIV, n, k),
					       emit2(t, IR_INT_PY_MOD, n, k)};
				ir_emit(t, IR_FINISH, 2, f, 0, NULL);
				zc_scope S;
				zc_scope_init(&S, Z);
				Z3_ast var;
				enc_trace e;
				jp_err err;
				bool ok =
				    enc_inputs(&S, t, &var, &err) == JP_OK &&
				    enc_trace_build(&S, t, &var, &e, &err) ==
					JP_OK;
				CHECK(ok);
				for (uint32_t i = 0; ok && i < nv; i++)
					bad += !finish_agrees(t, var, &e, v[i]);
				if (ok)
					enc_trace_free(&e);
				ir_trace_free(t);
				zc_scope_release(&S);
			}
	CHECK(bad == 0);
}

/* Heap ops are refused with a message naming the op. */
static void test_unsupported(void)
{
	ir_trace *t = ir_trace_new(64);
	ir_vid p = ir_add_input(t, 'r', NULL);
	ir_emit(t, IR_GETFIELD_GC_I, 1, &p, ir_cstr(t, "f"), NULL);
	ir_emit(t, IR_FINISH, 0, NULL, 0, NULL);
	jp_err err;
	CHECK(enc_supported(t, NULL, &err) == JP_EUNSUPPORTED);
	CHECK(strstr(err.msg, "getfield_gc_i") != NULL);
	ir_trace_free(t);
	/* References that are only compared are fine. */
	t = ir_trace_new(64);
	ir_vid r[2] = {ir_add_input(t, 'r', NULL), ir_add_input(t, 'r', NULL)};
	ir_emit(t, IR_PTR_EQ, 2, r, 0, NULL);
	ir_emit(t, IR_FINISH, 0, NULL, 0, NULL);
	CHECK(enc_supported(t, NULL, &err) == JP_OK);
	ir_trace_free(t);
}

/* A Z3 error goes to our handler (recorded), never to exit(1). */
static void test_error_handler(void)
{
	zc_clear_error();
	zc_scope S;
	zc_scope_init(&S, Z);
	Z3_ast a = zc_bv(&S, 8, 1), b = zc_bv(&S, 16, 1);
	Z3_ast bad = zc_keep(&S, Z3_mk_bvadd(Z, a, b)); /* sort mismatch */
	CHECK(bad == NULL);
	CHECK(S.failed);
	CHECK(zc_failed());
	jp_err err;
	CHECK(zc_check_error(&err, "test") == JP_EINTERNAL);
	zc_clear_error();
	zc_scope_release(&S);
}

/* Every op the encoder claims (enc_unhandled is NULL) gets a term from
 * enc_op (values, comparisons), enc_guard (guards) or needs none (markers,
 * ends); every op it does not claim has a reason and gets no term, so a
 * new op cannot be claimed without its case. */
static void test_claims(void)
{
	for (int i = 0; i < IR_OPCODE_COUNT; i++) {
		ir_opcode opc = (ir_opcode)i;
		const char *why = enc_unhandled(opc);
		/* the switch has a case for every op: the fall-through answer
		 * means an op was added without one */
		CHECK(!why || strcmp(why, "not an op of the table") != 0);
		CHECK(!sem_evaluable(opc) || !why);
		zc_scope S;
		zc_scope_init(&S, Z);
		Z3_sort srt = Z3_mk_bv_sort(Z, 8);
		Z3_ast a[2] = {
		    zc_keep(&S,
			    Z3_mk_const(Z, Z3_mk_string_symbol(Z, "a"), srt)),
		    zc_keep(&S,
			    Z3_mk_const(Z, Z3_mk_string_symbol(Z, "b"), srt))};
		Z3_ast prev = zc_keep(&S, Z3_mk_false(Z)), ovf = NULL;
		Z3_ast r = NULL;
		bool needs_none =
		    ir_op_has(opc, IRF_MARK) || ir_op_has(opc, IRF_END);
		if (ir_op_has(opc, IRF_GUARD))
			r = enc_guard(&S, opc, a, NULL, prev);
		else if (!needs_none)
			r = enc_op(&S, 8, opc, a, &ovf);
		if (why) {
			CHECK(*why != '\0');
			CHECK(r == NULL);
		} else if (!needs_none) {
			if (!r)
				fprintf(stderr, "  %s claimed, not encoded\n",
					ir_opinfos[i].name);
			CHECK(r != NULL);
			CHECK(!ir_op_has(opc, IRF_OVF) || ovf != NULL);
		}
		zc_scope_release(&S);
	}
}

int main(void)
{
	zc_ctx zc;
	jp_err err;
	if (zc_init(&zc, &err)) {
		fprintf(stderr, "no Z3: %s\n", err.msg);
		return 1;
	}
	Z = zc.z;
	test_claims();
	test_error_handler();
	test_unsupported();
	test_ops_on_edges(8);
	test_ops_on_edges(16);
	test_ops_on_edges(32);
	test_ops_on_edges(64);
	test_constant_args();
	test_one_constant(8);
	test_one_constant(64);
	static const ir_opcode same[] = {
	    IR_INT_ADD, IR_INT_ADD_OVF, IR_INT_AND,    IR_INT_OR,
	    IR_INT_XOR, IR_INT_SUB,	IR_INT_SUB_OVF};
	for (int w = 8; w <= 64; w *= 8)
		for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
			test_same_args(w, same[i]);
	test_shifted_one_divisor(8);
	test_shifted_one_divisor(64);
	test_division_every_constant_w8();
	test_product_every_constant_w8();
	test_product_constants_proved();
	test_peephole_identity();
	test_negations();
	test_division_by_constants();
	test_masked_dividend();
	test_narrowed_divisions();
	test_ovf_formulas_proved();
	test_exhaustive_w8();
	CHECK(!zc_failed());
	zc_fini(&zc);
	return check_summary("test_encode");
}
