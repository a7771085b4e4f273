/*
 * pypylog_rewrite.c - what the PyPy front end rewrites in parsed traces so
 * that the checker sees what PyPy's descrs say (docs/pypy.md): calls
 * with an oopspec, raw reads at constant addresses, force_token, virtual
 * refs.  Sections: oopspec calls; repeated elidable calls; rewriting
 * ops; arraycopy; float division by a power of two; virtual refs; adding
 * inputs to a pair; raw reads; force_token.
 * String slices, copies and equality are in pypylog_strings.c, the
 * classes of allocations in pypylog_classes.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pypylog_int.h"
#include "pypyops.h"

/* ---- calls with an oopspec -------------------------------------------------
 */

/* A call descr "<Calli 8 ii EF=0 OS=14>" carries PyPy's oopspec index
 * (rpython/jit/codewriter/effectinfo.py): OS_INT_PY_DIV = 12 and
 * OS_INT_PY_MOD = 14 are the helpers ll_int_py_div / ll_int_py_mod
 * (rpython/rtyper/rint.py: C division corrected to round toward minus
 * infinity), which PyPy's optimizer rewrites into shifts and masks for
 * constant divisors.  Such a call is the op int_py_div / int_py_mod of
 * ops.def, whose semantics are exactly those (docs/semantics.md; a zero
 * divisor, which the helpers never see because the trace guards it
 * first, gives 0 / x there). */

void pl_oopspec_calls(ir_trace *t)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		ir_op *op = &t->ops[i];
		if (op->opc != IR_OPAQUE || !op->opname || !op->descr ||
		    op->nargs != 3 || op->result == IR_NOVAL ||
		    op->kind != 'i' ||
		    ir_val(t, op->args[0])->tag != IR_VAL_CONST_CLASS)
			continue;
		const char *n = ir_strtext(t, op->opname);
		if (strcmp(n, "call_i") && strcmp(n, "call_pure_i"))
			continue;
		int k = ir_py_oopspec(ir_strtext(t, op->descr));
		if (k != 12 && k != 14)
			continue;
		op->opc = k == 12 ? IR_INT_PY_DIV : IR_INT_PY_MOD;
		op->args[0] = op->args[1];
		op->args[1] = op->args[2];
		op->nargs = 2;
		op->opname = 0;
		op->descr = 0;
	}
}

/* PyPy's optimizer emits call_X for a call_pure_X it keeps (it cannot
 * fold it): the same call.  Whether a call is elidable is read from its
 * descr's EF (ir_pycall_of), not from the name, so the names are made one
 * here; an opaque call stays an event of both traces either way. */
void pl_pure_call_names(ir_trace *t)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		ir_op *op = &t->ops[i];
		if (op->opc != IR_OPAQUE || !op->opname)
			continue;
		const char *n = ir_strtext(t, op->opname);
		if (strncmp(n, "call_pure_", 10) || strlen(n) != 11)
			continue;
		char plain[8];
		snprintf(plain, sizeof plain, "call_%c", n[10]);
		uint32_t id = ir_cstr(t, plain);
		if (id != UINT32_MAX) {
			op->opname = id;
			op->flags |= IR_OPF_PURE_CALL;
		}
	}
}

/* ---- repeated elidable calls -------------------------------------------- */

/* Whether op OP of T is a call_pure_X of a ConstClass function, or with
 * BY_NAME false, the call_X pl_pure_call_names made of one. */
static bool is_pure_call(const ir_trace *t, const ir_op *op, bool by_name)
{
	if (op->opc != IR_OPAQUE || !op->opname || !op->descr ||
	    op->nargs == 0 || op->result == IR_NOVAL ||
	    ir_val(t, op->args[0])->tag != IR_VAL_CONST_CLASS)
		return false;
	return by_name ? !strncmp(ir_strtext(t, op->opname), "call_pure_", 10)
		       : (op->flags & IR_OPF_PURE_CALL) != 0;
}

/* Whether A and B, values of T, are one value to PyPy's optimizer
 * comparing boxes: one name, or equal constants. */
static bool same_box(const ir_trace *t, ir_vid a, ir_vid b)
{
	const ir_value *x = ir_val(t, a), *y = ir_val(t, b);
	if (a == b)
		return true;
	if (x->tag != y->tag || x->tag < IR_VAL_CONST_INT)
		return false;
	if (x->tag == IR_VAL_CONST_INT)
		return x->cval == y->cval;
	return !strcmp(ir_valname(t, a), ir_valname(t, b));
}

/* Whether call_pure J of T repeats call_pure I (I < J): the same op,
 * descr, function and arguments, each argument taken for what REP says it
 * is (the earlier call a repeated one's result stands for). */
static bool repeats_pure(const ir_trace *t, const ir_vid *rep, uint32_t i,
			 uint32_t j)
{
	const ir_op *a = &t->ops[i], *b = &t->ops[j];
	if (a->opname != b->opname || a->nargs != b->nargs ||
	    strcmp(ir_strtext(t, a->descr), ir_strtext(t, b->descr)))
		return false;
	for (uint32_t k = 0; k < a->nargs; k++)
		if (!same_box(t, rep[a->args[k]], rep[b->args[k]]))
			return false;
	return true;
}

ir_trace *pl_drop_repeats(const ir_trace *t, const uint32_t *from,
			  const uint32_t *to, uint32_t n)
{
	copier c;
	if (!pl_copier_new(&c, t))
		return NULL;
	bool ok = pl_copy_inputs(&c);
	char why[256];
	uint32_t k = 0;
	for (uint32_t i = 0; ok && i < pl_end_op(t); i++) {
		if (k < n && i == from[k]) {
			c.map[t->ops[i].result] = c.map[t->ops[to[k]].result];
			if (i + 1 < t->nops &&
			    !strcmp(ir_op_name(t, &t->ops[i + 1]),
				    "guard_no_exception"))
				i++;
			k++;
			continue;
		}
		ok = pl_copy_op(&c, i, "", why, sizeof why);
	}
	return pl_copy_done(&c, ok);
}

/* A call_pure_X with the same function and arguments as an earlier
 * call_pure_X of the same trace is what PyPy's optimizer removes, with
 * its guard_no_exception, taking the earlier result (optimizeopt/pure.py,
 * optimize_call_pure's second step, for every EffectInfo: the tracer
 * records call_pure_X only for an elidable function, and only when the
 * call raised nothing).  rlib/jit.py's contract for an elidable function
 * is that the same arguments give the same result, so the two calls are
 * one: the repeat is left out and its result named by the earlier one's.
 * Runs before pl_pure_call_names, while the name still tells a
 * call_pure_X the tracer recorded from a call_X PyPy keeps; after it,
 * IR_OPF_PURE_CALL does. */
static void repeated_calls(ir_trace **tp, bool by_name)
{
	const ir_trace *t = *tp;
	uint32_t *from = calloc(t->nops + 1, sizeof *from);
	uint32_t *to = calloc(t->nops + 1, sizeof *to);
	ir_vid *rep = calloc(t->nvals + 1, sizeof *rep);
	uint32_t n = 0;
	for (ir_vid v = 0; rep && v < t->nvals; v++)
		rep[v] = v;
	for (uint32_t j = 0; from && to && rep && j < pl_end_op(t); j++) {
		if (!is_pure_call(t, &t->ops[j], by_name))
			continue;
		uint32_t i = 0;
		while (i < j && (!is_pure_call(t, &t->ops[i], by_name) ||
				 rep[t->ops[i].result] != t->ops[i].result ||
				 !repeats_pure(t, rep, i, j)))
			i++;
		if (i == j)
			continue;
		rep[t->ops[j].result] = t->ops[i].result;
		from[n] = j;
		to[n++] = i;
	}
	ir_trace *d = n ? pl_drop_repeats(t, from, to, n) : NULL;
	if (d) {
		ir_trace_free(*tp);
		*tp = d;
	}
	free(from);
	free(to);
	free(rep);
}

void pl_repeated_pure_calls(ir_trace **tp)
{
	repeated_calls(tp, true);
}

/* The same once the pair's rewrites have forwarded field reads to what
 * was stored (pl_private_objects): two recorded calls may then take one
 * value where the log printed two.  config_lexer's "%s" formatting calls
 * codepoints_in_utf8 on unicode_escape's result and again on the _utf8
 * field of the W_UnicodeObject it boxed it in; PyPy's optimizer, which
 * reads the virtual's field, makes one call. */
void pl_repeated_elidable_calls(ir_trace **tp)
{
	repeated_calls(tp, false);
}

/* ---- rewriting ops ------------------------------------------------------ */

bool pl_guard_of_call(const ir_trace *t, uint32_t i,
		      bool (*call)(const ir_trace *t, uint32_t i))
{
	const ir_op *op = &t->ops[i];
	if (op->opc != IR_OPAQUE || !op->opname ||
	    strcmp(ir_strtext(t, op->opname), "guard_no_exception"))
		return false;
	while (i > 0 && t->ops[i - 1].opc == IR_DEBUG_MERGE_POINT)
		i--;
	return i > 0 && call(t, i - 1);
}

void pl_rewrite_ops(ir_trace **tp, const pl_rewrite *rw)
{
	const ir_trace *t = *tp;
	bool any = false;
	for (uint32_t i = 0; i < t->nops && !any; i++)
		any = rw->match(t, i);
	if (!any)
		return;
	copier c;
	if (!pl_copier_new(&c, t))
		return;
	ir_trace *x = c.d;
	c.keep_failargs = true; /* the trace may be a bridge's parent */
	bool ok = pl_copy_inputs(&c);
	char why[256];
	for (uint32_t i = 0; ok && i < t->nops; i++)
		ok = rw->match(t, i) ? rw->emit(&c, i)
				     : pl_copy_op(&c, i, "", why, sizeof why);
	free(c.map);
	if (!ok) {
		ir_trace_free(x);
		return;
	}
	ir_trace_free(*tp);
	*tp = x;
}

/* ---- arraycopy --------------------------------------------------------- */

/* A call with OS_ARRAYCOPY (oopspec 1: rgc.ll_arraycopy(source, dest,
 * source_start, dest_start, length)) copies LENGTH items between two
 * arrays of one type that do not overlap (rgc.py asserts both), with no
 * other effect a trace can see (the write barrier only moves GC flags).
 * PyPy's optimizer copies the items of virtual arrays itself; as an
 * opaque call the copy would change every field.  When the starts and
 * the length are constants (at most 64 items), the destination was
 * allocated by this trace with an array descr D (so it is not the
 * source), the call is those item reads and stores. */

static const char *array_descr(const ir_trace *t, ir_vid v)
{
	uint32_t d = ir_defop(t, v);
	if (d == UINT32_MAX || t->ops[d].opc != IR_NEW || !t->ops[d].descr)
		return NULL;
	const char *s = ir_strtext(t, t->ops[d].descr);
	return strncmp(s, "<Array", 6) == 0 ? s : NULL;
}

bool pl_const_int(const ir_trace *t, ir_vid v, uint64_t max, uint64_t *out)
{
	const ir_value *x = ir_val(t, v);
	if (x->tag != IR_VAL_CONST_INT || x->cval > max)
		return false;
	*out = x->cval;
	return true;
}

/* Whether op I of T is an arraycopy this file expands (see above); its
 * descr D, starts and length. */
static bool arraycopy(const ir_trace *t, uint32_t i, const char **d,
		      uint64_t *a, uint64_t *b, uint64_t *n)
{
	const ir_op *op = &t->ops[i];
	if (op->opc != IR_OPAQUE || !op->opname || !op->descr ||
	    op->nargs != 6 ||
	    strcmp(ir_strtext(t, op->opname), "call_n") != 0 ||
	    !strstr(ir_strtext(t, op->descr), " OS=1>") ||
	    op->args[1] == op->args[2])
		return false;
	*d = array_descr(t, op->args[2]);
	return *d && pl_const_int(t, op->args[3], 1u << 20, a) &&
	       pl_const_int(t, op->args[4], 1u << 20, b) &&
	       pl_const_int(t, op->args[5], 64, n);
}

/* Emits into C's trace the copy of op I (see arraycopy()): for each k, a
 * read of item A+K of the source and a store of it into item B+K of the
 * destination, array ops of descr D. */
static bool emit_copy(copier *c, uint32_t i, const char *d, uint64_t a,
		      uint64_t b, uint64_t n)
{
	const ir_op *op = &c->s->ops[i];
	ir_vid src = c->map[op->args[1]], dst = c->map[op->args[2]];
	bool ref = strncmp(d, "<ArrayP", 7) == 0;
	uint32_t descr = ir_cstr(c->d, d);
	for (uint64_t k = 0; k < n; k++) {
		char nm[48];
		snprintf(nm, sizeof nm, "%ccopy%u_%llu", ref ? 'p' : 'i', i,
			 (unsigned long long)k);
		ir_vid ga[2] = {src, ir_const_int(c->d, a + k)};
		uint32_t r = ir_emit_kind(
		    c->d, ref ? IR_GETARRAYITEM_GC_R : IR_GETARRAYITEM_GC_I,
		    ref ? 'r' : 'i', 2, ga, descr, nm);
		if (r == UINT32_MAX)
			return false;
		ir_vid sa[3] = {dst, ir_const_int(c->d, b + k),
				c->d->ops[r].result};
		if (ir_emit(c->d, IR_SETARRAYITEM_GC, 3, sa, descr, NULL) ==
		    UINT32_MAX)
			return false;
	}
	return true;
}

static bool match_copy(const ir_trace *t, uint32_t i)
{
	const char *d;
	uint64_t a, b, n;
	return arraycopy(t, i, &d, &a, &b, &n);
}

static bool emit_copy_at(copier *c, uint32_t i)
{
	const char *d;
	uint64_t a, b, n;
	return arraycopy(c->s, i, &d, &a, &b, &n) &&
	       emit_copy(c, i, d, a, b, n);
}

void pl_arraycopy(ir_trace **tp)
{
	static const pl_rewrite rw = {match_copy, emit_copy_at};
	pl_rewrite_ops(tp, &rw);
}

/* ---- float division by a power of two ---------------------------------- */

/* PyPy's optimizer turns float_truediv(x, C) into float_mul(x, 1/C) when C
 * and 1/C are both powers of two (rewrite.py, optimize_FLOAT_TRUEDIV).
 * That is an identity of IEEE arithmetic, bit for bit: both results are
 * the one double nearest x / C (= x * (1/C), exactly, when 1/C is
 * representable), NaNs and infinities alike.  Floats are uninterpreted
 * functions to the checker, which cannot see it, so both traces get the
 * multiplication: one spelling of one value, in each trace alike. */

/* Whether the double with bits B is a power of two (+ or -, normal or
 * subnormal) whose reciprocal is one too; *R the reciprocal's bits. */
static bool pow2_reciprocal(uint64_t b, uint64_t *r)
{
	double c, q;
	int e;
	memcpy(&c, &b, sizeof c);
	if (c == 0 || c != c || c - c != 0) /* zero, NaN, infinity */
		return false;
	double f = frexp(c, &e);
	if (f != 0.5 && f != -0.5)
		return false;
	q = 1.0 / c;
	if (q - q != 0 || q == 0)
		return false;
	f = frexp(q, &e);
	if (f != 0.5 && f != -0.5)
		return false;
	memcpy(r, &q, sizeof *r);
	return true;
}

void pl_float_div_pow2(ir_trace *t)
{
	uint32_t mul = UINT32_MAX;
	for (uint32_t i = 0; i < t->nops; i++) {
		ir_op *op = &t->ops[i];
		uint64_t r;
		if (op->opc != IR_OPAQUE || !op->opname || op->nargs != 2 ||
		    strcmp(ir_strtext(t, op->opname), "float_truediv") ||
		    ir_val(t, op->args[1])->tag != IR_VAL_CONST_INT ||
		    !pow2_reciprocal(ir_val(t, op->args[1])->cval, &r))
			continue;
		if (mul == UINT32_MAX)
			mul = ir_cstr(t, "float_mul");
		ir_vid k = mul != UINT32_MAX ? ir_const_int(t, r) : IR_NOVAL;
		if (k == IR_NOVAL)
			return; /* out of memory: the rest stay as they were */
		op->opname = mul;
		op->args[1] = k;
	}
}

/* PyPy's optimizer makes float_mul(x, 1.0), and float_mul(1.0, x), x
 * itself (rewrite.py, optimize_FLOAT_MUL: "these work in all cases,
 * including NaN and inf").  In IEEE arithmetic x * 1.0 is x bit for bit
 * but for a signaling NaN, which the product quiets; Python's floats
 * hold none (PyPy takes the rule for every x).  To the checker floats are
 * uninterpreted functions of their bits, so both traces get the copy:
 * one spelling of one value, in each trace alike. */
void pl_float_mul_one(ir_trace *t)
{
	const uint64_t one = 0x3ff0000000000000u; /* the bits of 1.0 */
	for (uint32_t i = 0; i < t->nops; i++) {
		ir_op *op = &t->ops[i];
		if (op->opc != IR_OPAQUE || !op->opname || op->nargs != 2 ||
		    op->result == IR_NOVAL ||
		    strcmp(ir_strtext(t, op->opname), "float_mul"))
			continue;
		for (uint32_t a = 0; a < 2; a++) {
			const ir_value *c = ir_val(t, op->args[a]);
			if (c->tag != IR_VAL_CONST_INT || c->cval != one)
				continue;
			op->opc = IR_SAME_AS_I;
			op->kind = 'i';
			op->opname = 0;
			op->args[0] = op->args[1 - a];
			op->nargs = 1;
			break;
		}
	}
}

/* ---- float constants printed with six decimals ----------------------- */

/* PyPy 7.3's log prints a float constant as RPython's str() does, with
 * six decimals ("0.000000" for 2**-53): the text names every double that
 * prints so.  The parser takes the nearest one, the same in both traces
 * for the same text.  The original can hold the exact value where the
 * optimized one has only its text: a rewrite made it exact
 * (pl_float_div_pow2: 1/2**53 from "9007199254740992.000000"), or the
 * optimizer folded a constant the unoptimized trace computes.  An
 * optimized float op's constant that is none of the constants the
 * original's ops of that name have at that argument, but prints as
 * exactly one of them, is read as that one (p->nfloat counts them: an
 * assumption). */

static bool float_op(const ir_trace *t, const ir_op *op)
{
	return op->opc == IR_OPAQUE && op->opname &&
	       !strncmp(ir_strtext(t, op->opname), "float_", 6);
}

static void text6(uint64_t bits, char *buf, size_t n)
{
	double d;
	memcpy(&d, &bits, sizeof d);
	snprintf(buf, n, "%.6f", d);
}

/* Whether float op Q of T is named NAME (an opname string of another
 * trace) and has a constant at argument J. */
static bool same_place(const ir_trace *t, const ir_op *q, const char *name,
		       uint32_t j)
{
	return float_op(t, q) && !strcmp(ir_strtext(t, q->opname), name) &&
	       j < q->nargs && ir_val(t, q->args[j])->tag == IR_VAL_CONST_INT;
}

/* Whether T's float ops named NAME have the constant B at argument J. */
static bool has_float_const(const ir_trace *t, const char *name, uint32_t j,
			    uint64_t b)
{
	for (uint32_t i = 0; i < t->nops; i++)
		if (same_place(t, &t->ops[i], name, j) &&
		    ir_val(t, t->ops[i].args[j])->cval == b)
			return true;
	return false;
}

/* The one constant at argument J of T's float ops named NAME that prints
 * as TEXT; false when none or several do. */
static bool one_float_const(const ir_trace *t, const char *name, uint32_t j,
			    const char *text, uint64_t *c)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops; i++) {
		if (!same_place(t, &t->ops[i], name, j))
			continue;
		uint64_t x = ir_val(t, t->ops[i].args[j])->cval;
		char buf[400];
		text6(x, buf, sizeof buf);
		if ((n && x == *c) || strcmp(buf, text))
			continue;
		*c = x;
		n++;
	}
	return n == 1;
}

void pl_float_consts(pl_pair *p)
{
	ir_trace *t = p->opt;
	for (uint32_t i = 0; t && p->orig && i < t->nops; i++) {
		ir_op *op = &t->ops[i];
		for (uint32_t j = 0; float_op(t, op) && j < op->nargs; j++) {
			const ir_value *x = ir_val(t, op->args[j]);
			const char *name = ir_strtext(t, op->opname);
			char buf[400];
			uint64_t c = 0;
			if (x->tag != IR_VAL_CONST_INT ||
			    has_float_const(p->orig, name, j, x->cval))
				continue;
			text6(x->cval, buf, sizeof buf);
			if (!one_float_const(p->orig, name, j, buf, &c))
				continue;
			ir_vid k = ir_const_int(t, c);
			if (k == IR_NOVAL)
				return; /* out of memory: left as it was */
			op->args[j] = k;
			p->nfloat++;
		}
	}
}

/* ---- virtual refs ------------------------------------------------------- */

/* virtual_ref and virtual_ref_finish never reach a backend: PyPy's
 * optimizer always rewrites them (optimizeopt/virtualize.py), and that
 * rewrite is what they mean in compiled code.  virtual_ref(p, i) is a new
 * JitVirtualRef whose virtual_token is the JIT frame (force_token) and
 * whose forced field is NULL -- it does not hold p, so p does not escape
 * through it; virtual_ref_finish(v, x) stores x into v.forced unless x is
 * NULL, then NULL into v.virtual_token.  The descrs are PyPy 7.3's on 64
 * bits, as its optimized traces print them. */

#define VREF_TOKEN  "<FieldP JitVirtualRef.virtual_token 8>"
#define VREF_FORCED "<FieldP JitVirtualRef.forced 16>"

static bool vref_op(const ir_trace *t, const ir_op *op, const char *name)
{
	return op->opc == IR_OPAQUE && op->opname &&
	       !strcmp(ir_strtext(t, op->opname), name);
}

static bool emit_store(ir_trace *d, ir_vid obj, ir_vid val, const char *f)
{
	ir_vid a[2] = {obj, val};
	return ir_emit(d, IR_SETFIELD_GC, 2, a, ir_cstr(d, f), NULL) !=
	       UINT32_MAX;
}

static bool emit_vref(copier *c, const ir_op *op)
{
	ir_trace *d = c->d;
	char name[96];
	snprintf(name, sizeof name, "%s_tok", ir_valname(c->s, op->result));
	uint32_t tk = ir_emit_kind(d, IR_OPAQUE, 'r', 0, NULL, 0, name);
	if (tk == UINT32_MAX)
		return false;
	d->ops[tk].opname = ir_cstr(d, "force_token");
	uint32_t v =
	    ir_emit(d, IR_NEW_WITH_VTABLE, 0, NULL, ir_cstr(d, "JitVirtualRef"),
		    ir_valname(c->s, op->result));
	if (v == UINT32_MAX)
		return false;
	ir_vid obj = d->ops[v].result;
	c->map[op->result] = obj;
	return emit_store(d, obj, d->ops[tk].result, VREF_TOKEN) &&
	       emit_store(d, obj, ir_const_null(d), VREF_FORCED);
}

static bool emit_vref_finish(copier *c, const ir_op *op)
{
	ir_vid v = pl_map_val(c, op->args[0]), x = pl_map_val(c, op->args[1]);
	if (v == IR_NOVAL || x == IR_NOVAL)
		return false;
	if (ir_val(c->d, x)->tag != IR_VAL_CONST_NULL &&
	    !emit_store(c->d, v, x, VREF_FORCED))
		return false;
	return emit_store(c->d, v, ir_const_null(c->d), VREF_TOKEN);
}

static bool match_vref(const ir_trace *t, uint32_t i)
{
	const ir_op *op = &t->ops[i];
	return (vref_op(t, op, "virtual_ref") && op->result != IR_NOVAL) ||
	       (vref_op(t, op, "virtual_ref_finish") && op->nargs == 2);
}

static bool emit_vref_at(copier *c, uint32_t i)
{
	const ir_op *op = &c->s->ops[i];
	return vref_op(c->s, op, "virtual_ref") ? emit_vref(c, op)
						: emit_vref_finish(c, op);
}

void pl_virtual_refs(ir_trace **tp)
{
	static const pl_rewrite rw = {match_vref, emit_vref_at};
	pl_rewrite_ops(tp, &rw);
}

/* jit_force_virtual(v) (a call_may_force_r with OS=120, support.py's
 * _ll_1_jit_force_virtual) runs virtualref.py's force_virtual: when
 * v.virtual_token is NULL (TOKEN_NONE: the frame it stood for is gone)
 * and v.forced is not, it returns v.forced and does nothing else -- no
 * frame is forced, so the guard_not_forced after it passes, and nothing
 * raises.  PyPy's optimizer removes such a call, with its guards, when it
 * knows both fields (virtualize.py, _optimize_JIT_FORCE_VIRTUAL); the
 * unoptimized trace of an inlined function returning stores them just
 * before (virtual_ref_finish, then the call).  When the trace's last
 * stores of both fields of v before the call are NULL and X, X an
 * object the trace made or one a guard found not NULL, with no call and
 * no other store of those fields between, the call is X and its guards
 * are left out: exact, by those sources.  Any other such call stays an
 * opaque call. */

/* Whether V of T is known not NULL before op I: an allocation of T, or
 * the subject of an earlier guard_nonnull or guard_class. */
static bool nonnull_before(const ir_trace *t, ir_vid v, uint32_t i)
{
	if (ir_allocated(t, v))
		return true;
	for (uint32_t j = 0; j < i; j++) {
		const ir_op *g = &t->ops[j];
		if ((g->opc == IR_GUARD_NONNULL || g->opc == IR_GUARD_CLASS) &&
		    g->nargs >= 1 && g->args[0] == v)
			return true;
	}
	return false;
}

/* The value jit_force_virtual op I of T returns (see above), or
 * IR_NOVAL when it is not one whose fields the trace knows. */
static ir_vid forced_value(const ir_trace *t, uint32_t i)
{
	const ir_op *op = &t->ops[i];
	if (!vref_op(t, op, "call_may_force_r") || op->nargs != 2 ||
	    !op->descr || !strstr(ir_strtext(t, op->descr), " OS=120>"))
		return IR_NOVAL;
	ir_vid v = op->args[1], x = IR_NOVAL;
	bool token = false;
	for (uint32_t j = i; j-- > 0 && (!token || x == IR_NOVAL);) {
		const ir_op *a = &t->ops[j];
		if (ir_op_has((ir_opcode)a->opc, IRF_CALL) &&
		    !pl_is_raw_read(t, a))
			return IR_NOVAL;
		if (a->opc != IR_SETFIELD_GC || a->nargs != 2 || !a->descr)
			continue;
		const char *d = ir_strtext(t, a->descr);
		bool tk = !strcmp(d, VREF_TOKEN), fd = !strcmp(d, VREF_FORCED);
		if (!tk && !fd)
			continue;
		if (a->args[0] != v)
			return IR_NOVAL; /* another object may be v */
		if (tk && !token) {
			if (ir_val(t, a->args[1])->tag != IR_VAL_CONST_NULL)
				return IR_NOVAL;
			token = true;
		} else if (fd && x == IR_NOVAL)
			x = a->args[1];
	}
	return token && x != IR_NOVAL && nonnull_before(t, x, i) ? x : IR_NOVAL;
}

/* Whether op I of T is a guard_not_forced or guard_no_exception of such
 * a call: the guards right after it (debug_merge_points between). */
static bool forced_guard(const ir_trace *t, uint32_t i)
{
	if (!vref_op(t, &t->ops[i], "guard_not_forced") &&
	    !vref_op(t, &t->ops[i], "guard_no_exception"))
		return false;
	while (i-- > 0) {
		const ir_op *op = &t->ops[i];
		if (op->opc == IR_DEBUG_MERGE_POINT ||
		    vref_op(t, op, "guard_not_forced") ||
		    vref_op(t, op, "guard_no_exception"))
			continue;
		return forced_value(t, i) != IR_NOVAL;
	}
	return false;
}

static bool match_forced(const ir_trace *t, uint32_t i)
{
	return forced_value(t, i) != IR_NOVAL || forced_guard(t, i);
}

static bool emit_forced_at(copier *c, uint32_t i)
{
	ir_vid x = forced_value(c->s, i);
	if (x == IR_NOVAL)
		return true; /* one of its guards: left out */
	ir_vid y = pl_map_val(c, x);
	if (y == IR_NOVAL)
		return false;
	c->map[c->s->ops[i].result] = y;
	return true;
}

void pl_forced_vrefs(ir_trace **tp)
{
	static const pl_rewrite rw = {match_forced, emit_forced_at};
	pl_rewrite_ops(tp, &rw);
}

/* ---- raw reads ------------------------------------------------------------
 */

/* getfield_raw_i at a constant address (PyPy's signal-pending flag, read
 * once per iteration) is an opaque op, and an opaque op is a call that
 * may change every field: after it nothing the trace read is known.  A
 * raw read changes nothing.  When the two traces make the same raw reads
 * at constant addresses (same op, descr and address, in the same order)
 * and neither writes raw memory, the k-th read of both is taken as one
 * unknown value: an extra input "irawK" of both traces.  That is the
 * heap model's own rule for the k-th call (the same unknown result),
 * without the writes; the value read may be anything, so nothing about
 * the raw memory is assumed. */

bool pl_is_raw_read(const ir_trace *t, const ir_op *op)
{
	if (op->opc != IR_OPAQUE || !op->opname || op->result == IR_NOVAL)
		return false;
	const char *n = ir_strtext(t, op->opname);
	if (strcmp(n, "getfield_raw_i") && strcmp(n, "getfield_raw_f"))
		return false;
	for (uint32_t j = 0; j < op->nargs; j++)
		if (ir_val(t, op->args[j])->tag != IR_VAL_CONST_INT)
			return false;
	return true;
}

static bool writes_raw(const ir_trace *t)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc != IR_OPAQUE || !op->opname)
			continue;
		const char *n = ir_strtext(t, op->opname);
		if (strstr(n, "_raw") && !strstr(n, "get") &&
		    strncmp(n, "raw_load", 8) != 0)
			return true;
	}
	return false;
}

/* The raw reads of T (op indices into AT, at most MAX); their count. */
static uint32_t raw_reads(const ir_trace *t, uint32_t *at, uint32_t max)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops; i++)
		if (pl_is_raw_read(t, &t->ops[i])) {
			if (n < max)
				at[n] = i;
			n++;
		}
	return n;
}

static bool same_read(const ir_trace *a, const ir_op *x, const ir_trace *b,
		      const ir_op *y)
{
	if (strcmp(ir_strtext(a, x->opname), ir_strtext(b, y->opname)) ||
	    x->nargs != y->nargs || !x->descr != !y->descr ||
	    (x->descr &&
	     strcmp(ir_strtext(a, x->descr), ir_strtext(b, y->descr))))
		return false;
	for (uint32_t j = 0; j < x->nargs; j++)
		if (ir_val(a, x->args[j])->cval != ir_val(b, y->args[j])->cval)
			return false;
	return true;
}

/* T with N extra inputs NAMES[0..N-1] (the parser reads a name's kind
 * from its first letter), the result of op AT[k] (ascending) taking input
 * WHICH[k]; those ops are left out. */
ir_trace *pl_with_inputs(const ir_trace *t, const char *const *names,
			 uint32_t n, const uint32_t *at, const uint32_t *which,
			 uint32_t nat)
{
	copier c;
	if (!pl_copier_new(&c, t))
		return NULL;
	ir_trace *d = c.d;
	bool ok = pl_copy_inputs(&c);
	ir_vid *in = calloc(n + 1, sizeof *in);
	ok = ok && in;
	for (uint32_t k = 0; ok && k < n; k++) {
		in[k] =
		    ir_add_input(d, names[k][0] == 'p' ? 'r' : 'i', names[k]);
		ok = in[k] != IR_NOVAL;
	}
	for (uint32_t k = 0; ok && k < nat; k++)
		c.map[t->ops[at[k]].result] = in[which[k]];
	char why[256];
	for (uint32_t i = 0, k = 0; ok && i + 1 < t->nops; i++) {
		if (k < nat && at[k] == i) {
			k++;
			continue;
		}
		ok = pl_copy_op(&c, i, "", why, sizeof why);
	}
	free(in);
	return pl_copy_done(&c, ok);
}

/* Replaces P's traces by O and T when both were made; frees them
 * otherwise. */
void pl_replace_traces(pl_pair *p, ir_trace *o, ir_trace *t)
{
	if (o && t) {
		ir_trace_free(p->orig);
		ir_trace_free(p->opt);
		p->orig = o;
		p->opt = t;
	} else {
		ir_trace_free(o);
		ir_trace_free(t);
	}
}

/* T with the raw read at AT[k] taking the int input irawK. */
static ir_trace *with_raw_inputs(const ir_trace *t, const uint32_t *at,
				 uint32_t n)
{
	char(*buf)[16] = calloc(n + 1, sizeof *buf);
	const char **names = calloc(n + 1, sizeof *names);
	uint32_t *which = calloc(n + 1, sizeof *which);
	ir_trace *d = NULL;
	if (buf && names && which) {
		for (uint32_t k = 0; k < n; k++) {
			snprintf(buf[k], sizeof buf[k], "iraw%u", k);
			names[k] = buf[k];
			which[k] = k;
		}
		d = pl_with_inputs(t, names, n, at, which, n);
	}
	free(buf);
	free(names);
	free(which);
	return d;
}

void pl_raw_inputs(pl_pair *p)
{
	uint32_t n = raw_reads(p->orig, NULL, 0);
	if (n == 0 || n != raw_reads(p->opt, NULL, 0) || writes_raw(p->orig) ||
	    writes_raw(p->opt))
		return;
	uint32_t *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);
	bool ok = a && b;
	if (ok) {
		raw_reads(p->orig, a, n);
		raw_reads(p->opt, b, n);
	}
	for (uint32_t k = 0; ok && k < n; k++)
		ok = same_read(p->orig, &p->orig->ops[a[k]], p->opt,
			       &p->opt->ops[b[k]]);
	ir_trace *o = ok ? with_raw_inputs(p->orig, a, n) : NULL;
	pl_replace_traces(p, o, o ? with_raw_inputs(p->opt, b, n) : NULL);
	free(a);
	free(b);
}

/* ---- force_token --------------------------------------------------------- */

/* force_token() returns the address of the JIT frame the trace runs in:
 * the same value at every call of one run, and no object the trace
 * allocates or reads a field of (it is only stored, into the frame's
 * vable_token).  As an opaque op it would be a call that may change every
 * field, so a store moved across it (PyPy does that) looks like a
 * different heap.  Every force_token of both traces takes one extra ref
 * input "pforce_token": an unconstrained reference, which covers the
 * frame's address. */

static uint32_t force_tokens(const ir_trace *t, uint32_t *at)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc == IR_OPAQUE && op->opname &&
		    op->result != IR_NOVAL && op->nargs == 0 &&
		    !strcmp(ir_strtext(t, op->opname), "force_token")) {
			if (at)
				at[n] = i;
			n++;
		}
	}
	return n;
}

static ir_trace *with_force_token(const ir_trace *t)
{
	uint32_t n = force_tokens(t, NULL);
	uint32_t *at = calloc(n + 1, sizeof *at);
	uint32_t *which = calloc(n + 1, sizeof *which); /* all input 0 */
	const char *name = "pforce_token";
	ir_trace *d = NULL;
	if (at && which) {
		force_tokens(t, at);
		d = pl_with_inputs(t, &name, 1, at, which, n);
	}
	free(at);
	free(which);
	return d;
}

void pl_force_token_input(pl_pair *p)
{
	if (!force_tokens(p->orig, NULL) && !force_tokens(p->opt, NULL))
		return;
	ir_trace *o = with_force_token(p->orig);
	pl_replace_traces(p, o, o ? with_force_token(p->opt) : NULL);
}

/* ---- unused elidable calls ---------------------------------------------- */

/* Whether V of T is used by an op after op FROM: as an argument or a
 * fail-arg (the end's arguments are arguments). */
static bool used_after(const ir_trace *t, ir_vid v, uint32_t from)
{
	for (uint32_t i = from + 1; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		for (uint32_t a = 0; a < op->nargs; a++)
			if (op->args[a] == v)
				return true;
		for (uint32_t a = 0; a < op->nfail; a++)
			if (op->failargs[a] == v)
				return true;
	}
	return false;
}

/* Whether op I of T is a call of an elidable function that cannot raise
 * but MemoryError (EF=0 or 3) whose result nothing uses. */
static bool unused_pure_call(const ir_trace *t, uint32_t i)
{
	const ir_op *op = &t->ops[i];
	if (op->opc != IR_OPAQUE || !op->opname || !op->descr ||
	    op->result == IR_NOVAL ||
	    strncmp(ir_strtext(t, op->opname), "call_", 5))
		return false;
	int ef = ir_py_extraeffect(ir_strtext(t, op->descr));
	return (ef == 0 || ef == 3) && !used_after(t, op->result, i);
}

static bool match_unused(const ir_trace *t, uint32_t i)
{
	return unused_pure_call(t, i) ||
	       pl_guard_of_call(t, i, unused_pure_call);
}

static bool emit_nothing(copier *c, uint32_t i)
{
	(void)c;
	(void)i;
	return true;
}

/* A call of an elidable function (EF=0, or 3: it may raise only
 * MemoryError, which the model takes no allocation to raise) whose result
 * nothing uses has no effect: it is left out, with its
 * guard_no_exception.  PyPy leaves such a call out (a virtual string's
 * slice it never forces, maze_bfs' s[i:i+n] whose chars it compares one
 * by one), and it keeps a pure op only for its result, so both traces
 * are spelled without it. */
void pl_unused_pure_calls(ir_trace **tp)
{
	static const pl_rewrite rw = {match_unused, emit_nothing};
	pl_rewrite_ops(tp, &rw);
}
