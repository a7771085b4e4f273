/*
 * pypylog_strings.c - what the PyPy front end rewrites of strings
 * (docs/pypy.md, "What the front end reads from the log's descrs"): the
 * helpers' slices and concatenations as allocations and copies, string
 * copies of a known length as item copies, string equality under one
 * name per family.  Sections: slices, concatenations and copies; string
 * equality.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pypylog_int.h"
#include "pypyops.h"

/* ---- string slices and copies ------------------------------------------ */

/* A call with OS_STR_SLICE (oopspec 23) or OS_UNI_SLICE (43) calls
 * rstr's _ll_stringslice(s, start, stop): a new string of length
 * stop - start holding s's items from start (rtyper/lltypesystem/rstr.py;
 * no other effect).  When stop - start is a constant K, 0 <= K <= 64
 * (both constants, or both one value plus or minus constants: s[i:i+1],
 * s[n-8:n]), the call is that allocation, its length and K item copies --
 * what PyPy's string optimizer (vstring.py) reasons with, so `s[i:i+1]`
 * of iterating over a string is checked.
 *
 * copystrcontent(src, dst, srcstart, dststart, length) and its unicode
 * twin copy LENGTH chars and do nothing else (resoperation.py; the
 * backend's memcpy).  PyPy's optimizer emits them where it forces a
 * virtual string (a slice, a concatenation) into a new one.  With a
 * constant length of at most 64 and a destination this trace allocated
 * as a string (so that it is not the source), the op is those item reads
 * and stores, as the slice above is: both traces then say the same
 * thing, where an opaque op could change any field. */

ir_vid pl_lin_of(const ir_trace *t, ir_vid v, uint64_t *off)
{
	*off = 0;
	for (int depth = 0; depth < 8; depth++) {
		const ir_value *x = ir_val(t, v);
		if (x->tag == IR_VAL_CONST_INT) {
			*off += x->cval;
			return IR_NOVAL;
		}
		uint32_t d = ir_defop(t, v);
		if (d == UINT32_MAX)
			return v;
		const ir_op *op = &t->ops[d];
		if (op->opc == IR_SAME_AS_I && op->nargs == 1) {
			v = op->args[0];
			continue;
		}
		if ((op->opc != IR_INT_ADD && op->opc != IR_INT_SUB) ||
		    op->nargs != 2)
			return v;
		const ir_value *a = ir_val(t, op->args[0]);
		const ir_value *b = ir_val(t, op->args[1]);
		if (b->tag == IR_VAL_CONST_INT) {
			*off += op->opc == IR_INT_ADD ? b->cval : -b->cval;
			v = op->args[0];
		} else if (a->tag == IR_VAL_CONST_INT &&
			   op->opc == IR_INT_ADD) {
			*off += a->cval;
			v = op->args[1];
		} else
			return v;
	}
	return v;
}

/* STOP - START when it is a constant in [0, 64], else -1. */
static int64_t const_distance(const ir_trace *t, ir_vid start, ir_vid stop)
{
	uint64_t a, b;
	if (pl_lin_of(t, start, &a) != pl_lin_of(t, stop, &b))
		return -1;
	uint64_t k = b - a;
	return k <= 64 ? (int64_t)k : -1;
}

static int slice_os(const ir_trace *t, const ir_op *op)
{
	if (op->opc != IR_OPAQUE || !op->opname || !op->descr ||
	    op->nargs != 4 || op->kind != 'r' || op->result == IR_NOVAL ||
	    strcmp(ir_strtext(t, op->opname), "call_r"))
		return -1;
	int k = ir_py_oopspec(ir_strtext(t, op->descr));
	return k == 23 || k == 43 ? k : -1;
}

/* K for a slice op OP (see above), or -1. */
static int64_t slice_len(const ir_trace *t, const ir_op *op)
{
	if (slice_os(t, op) < 0)
		return -1;
	return const_distance(t, op->args[2], op->args[3]);
}

/* Emits N reads of SRC's items from SRC_AT on and stores of them into
 * DST's items from DST_AT on, items of descr DS; NAME names the values. */
static bool emit_items(copier *c, ir_vid src, ir_vid src_at, ir_vid dst,
		       ir_vid dst_at, int64_t n, const char *ds,
		       const char *name)
{
	ir_trace *d = c->d;
	char nm[96];
	for (int64_t k = 0; k < n; k++) {
		ir_vid at[2] = {src_at, dst_at};
		for (int j = 0; j < 2 && k > 0; j++) {
			const ir_value *cv = ir_val(d, at[j]);
			if (cv->tag == IR_VAL_CONST_INT) {
				at[j] = ir_const_int(d, cv->cval + (uint64_t)k);
				continue;
			}
			ir_vid aa[2] = {at[j], ir_const_int(d, (uint64_t)k)};
			snprintf(nm, sizeof nm, "%s_%s%lld", name,
				 j ? "to" : "at", (long long)k);
			uint32_t x = ir_emit(d, IR_INT_ADD, 2, aa, 0, nm);
			if (x == UINT32_MAX)
				return false;
			at[j] = d->ops[x].result;
		}
		snprintf(nm, sizeof nm, "%s_ch%lld", name, (long long)k);
		ir_vid ga[2] = {src, at[0]};
		uint32_t g =
		    ir_emit(d, IR_GETARRAYITEM_GC_I, 2, ga, ir_cstr(d, ds), nm);
		if (g == UINT32_MAX)
			return false;
		ir_vid sa[3] = {dst, at[1], d->ops[g].result};
		if (ir_emit(d, IR_SETARRAYITEM_GC, 3, sa, ir_cstr(d, ds),
			    NULL) == UINT32_MAX)
			return false;
	}
	return true;
}

/* A new string RES of descr DS and length LEN (named after op OP's
 * result); its value in D, or IR_NOVAL. */
static ir_vid emit_new_str(copier *c, const ir_op *op, const char *ds,
			   ir_vid len)
{
	ir_trace *d = c->d;
	char nm[32];
	snprintf(nm, sizeof nm, "%s.length", ds);
	uint32_t o = ir_emit(d, IR_NEW, 0, NULL, ir_cstr(d, ds),
			     ir_valname(c->s, op->result));
	if (o == UINT32_MAX)
		return IR_NOVAL;
	ir_vid res = d->ops[o].result;
	ir_vid la[2] = {res, len};
	if (ir_emit(d, IR_SETFIELD_GC, 2, la, ir_cstr(d, nm), NULL) ==
	    UINT32_MAX)
		return IR_NOVAL;
	c->map[op->result] = res;
	return res;
}

static bool emit_slice(copier *c, const ir_op *op, int64_t n)
{
	ir_trace *d = c->d;
	const char *ds = slice_os(c->s, op) == 23 ? "<str>" : "<unicode>";
	ir_vid src = pl_map_val(c, op->args[1]);
	ir_vid start = pl_map_val(c, op->args[2]);
	if (src == IR_NOVAL || start == IR_NOVAL)
		return false;
	ir_vid res = emit_new_str(c, op, ds, ir_const_int(d, (uint64_t)n));
	return res != IR_NOVAL &&
	       emit_items(c, src, start, res, ir_const_int(d, 0), n, ds,
			  ir_valname(c->s, op->result));
}

bool pl_new_of(const ir_trace *t, ir_vid v, const char *descr)
{
	uint32_t d = ir_defop(t, v);
	return d != UINT32_MAX && t->ops[d].opc == IR_NEW && t->ops[d].descr &&
	       !strcmp(ir_strtext(t, t->ops[d].descr), descr);
}

/* The item descr of a string copy op OP of T (see above) whose length
 * is a constant in [0, 64] (*N) and whose destination T allocated as a
 * string; NULL otherwise. */
static const char *str_copy(const ir_trace *t, const ir_op *op, int64_t *n)
{
	const char *ds = ir_py_str_copy(t, op);
	if (!ds || op->args[0] == op->args[1])
		return NULL;
	uint64_t k;
	if (!pl_new_of(t, op->args[1], ds) ||
	    !pl_const_int(t, op->args[4], 64, &k))
		return NULL;
	*n = (int64_t)k;
	return ds;
}

static bool emit_str_copy(copier *c, uint32_t i)
{
	const ir_op *op = &c->s->ops[i];
	int64_t n;
	const char *ds = str_copy(c->s, op, &n);
	ir_vid v[4];
	for (int j = 0; j < 4; j++)
		if ((v[j] = pl_map_val(c, op->args[j])) == IR_NOVAL)
			return false;
	char name[32];
	snprintf(name, sizeof name, "icopy%u", i);
	return ds && emit_items(c, v[0], v[2], v[1], v[3], n, ds, name);
}

/* Whether V of T is X, or the constant 0 when X is IR_NOVAL. */
static bool is_arg(const ir_trace *t, ir_vid v, ir_vid x)
{
	const ir_value *c = ir_val(t, v);
	return x == IR_NOVAL ? c->tag == IR_VAL_CONST_INT && c->cval == 0
			     : v == x;
}

/* Whether guard G of T says LO <= HI (or LO < HI) for some *LO, *HI: a
 * guard_true or guard_false on an int_lt, int_le, int_gt or int_ge
 * (not x < y is y <= x, not x <= y is y < x). */
static bool guard_order(const ir_trace *t, const ir_op *g, ir_vid *lo,
			ir_vid *hi)
{
	if ((g->opc != IR_GUARD_TRUE && g->opc != IR_GUARD_FALSE) ||
	    g->nargs != 1)
		return false;
	uint32_t c = ir_defop(t, g->args[0]);
	if (c == UINT32_MAX || t->ops[c].nargs != 2)
		return false;
	const ir_op *q = &t->ops[c];
	bool less = q->opc == IR_INT_LT || q->opc == IR_INT_LE;
	if (!less && q->opc != IR_INT_GT && q->opc != IR_INT_GE)
		return false;
	bool held = g->opc == IR_GUARD_TRUE;
	/* x < y, x <= y held, or x > y, x >= y failed: x comes first */
	bool x_first = less == held;
	*lo = q->args[x_first ? 0 : 1];
	*hi = q->args[x_first ? 1 : 0];
	return true;
}

/* Whether a guard of T before op I fails unless A <= B holds (a trace is
 * one path: every guard before I passed).  A IR_NOVAL stands for the
 * constant 0. */
static bool guarded_before(const ir_trace *t, uint32_t i, ir_vid a, ir_vid b)
{
	for (uint32_t j = 0; j < i; j++) {
		ir_vid lo, hi;
		if (guard_order(t, &t->ops[j], &lo, &hi) && is_arg(t, lo, a) &&
		    is_arg(t, hi, b))
			return true;
	}
	return false;
}

/* Whether V of T is a length read (never negative: the heap model's
 * lengths, heap.h). */
static bool length_read(const ir_trace *t, ir_vid v)
{
	uint32_t d = ir_defop(t, v);
	if (d == UINT32_MAX || t->ops[d].opc != IR_GETFIELD_GC_I ||
	    !t->ops[d].descr)
		return false;
	return ir_descr_is_length(ir_strtext(t, t->ops[d].descr));
}

/* Whether T makes sure before op I that 0 <= START <= STOP, so that
 * STOP - START is the slice's length with no wrap: START a constant at
 * least 0 or guarded so (or STOP a length read and START 0), and a guard
 * on a comparison of the two. */
static bool ordered_before(const ir_trace *t, uint32_t i, ir_vid start,
			   ir_vid stop)
{
	const ir_value *a = ir_val(t, start);
	if (a->tag == IR_VAL_CONST_INT && a->cval == 0 && length_read(t, stop))
		return true;
	bool nonneg = (a->tag == IR_VAL_CONST_INT && (int64_t)a->cval >= 0) ||
		      guarded_before(t, i, IR_NOVAL, start);
	return nonneg && guarded_before(t, i, start, stop);
}

enum slice_form {
	SLICE_KEPT,  /* stays a call */
	SLICE_ITEMS, /* a constant length: item copies */
	SLICE_COPY   /* a length the trace orders: a string copy */
};

/* How op I of T, when a slice, is rewritten (*K its constant length). */
static enum slice_form slice_form_of(const ir_trace *t, uint32_t i, int64_t *k)
{
	const ir_op *op = &t->ops[i];
	*k = slice_len(t, op);
	if (slice_os(t, op) < 0)
		return SLICE_KEPT;
	if (*k >= 0)
		return SLICE_ITEMS;
	return ordered_before(t, i, op->args[2], op->args[3]) ? SLICE_COPY
							      : SLICE_KEPT;
}

/* A call with OS_STR_CONCAT (oopspec 22) or OS_UNI_CONCAT (42) calls
 * rstr's ll_strconcat(s1, s2): a new string of the two lengths' sum
 * holding s1's items, then s2's (rtyper/lltypesystem/rstr.py; it always
 * allocates, and has no other effect).  PyPy's string optimizer makes it
 * a virtual concatenation, forced as exactly that: newstr of the sum and
 * two copies.  The item descr, or NULL when OP is no such call. */
static const char *concat_descr(const ir_trace *t, const ir_op *op)
{
	if (op->opc != IR_OPAQUE || !op->opname || !op->descr ||
	    op->nargs != 3 || op->kind != 'r' || op->result == IR_NOVAL ||
	    strcmp(ir_strtext(t, op->opname), "call_r") ||
	    ir_val(t, op->args[0])->tag != IR_VAL_CONST_CLASS)
		return NULL;
	int k = ir_py_oopspec(ir_strtext(t, op->descr));
	return k == 22 ? "<str>" : k == 42 ? "<unicode>" : NULL;
}

/* Emits the string copy (ir_py_str_copy) of N items of descr DS from SRC
 * at FROM on to DST at TO on. */
static bool emit_copy_op(ir_trace *d, const char *ds, ir_vid src, ir_vid dst,
			 ir_vid from, ir_vid to, ir_vid n)
{
	ir_vid a[5] = {src, dst, from, to, n};
	uint32_t o = ir_emit_kind(d, IR_OPAQUE, 'v', 5, a, 0, NULL);
	if (o == UINT32_MAX)
		return false;
	d->ops[o].opname = ir_cstr(d, strcmp(ds, "<str>") ? "copyunicodecontent"
							  : "copystrcontent");
	return true;
}

/* An int op OPC on A and B into D, named NAME plus SFX; its value. */
static ir_vid emit_int(ir_trace *d, ir_opcode opc, ir_vid a, ir_vid b,
		       const char *name, const char *sfx)
{
	char nm[96];
	snprintf(nm, sizeof nm, "%s%s", name, sfx);
	ir_vid ab[2] = {a, b};
	uint32_t o = ir_emit(d, opc, 2, ab, 0, nm);
	return o == UINT32_MAX ? IR_NOVAL : d->ops[o].result;
}

/* A slice of a length the trace orders: the new string of length
 * stop - start and the copy of it. */
static bool emit_slice_copy(copier *c, const ir_op *op)
{
	ir_trace *d = c->d;
	const char *ds = slice_os(c->s, op) == 23 ? "<str>" : "<unicode>";
	const char *name = ir_valname(c->s, op->result);
	ir_vid src = pl_map_val(c, op->args[1]);
	ir_vid start = pl_map_val(c, op->args[2]);
	ir_vid stop = pl_map_val(c, op->args[3]);
	if (src == IR_NOVAL || start == IR_NOVAL || stop == IR_NOVAL)
		return false;
	ir_vid len = emit_int(d, IR_INT_SUB, stop, start, name, "_len");
	ir_vid res = len == IR_NOVAL ? IR_NOVAL : emit_new_str(c, op, ds, len);
	return res != IR_NOVAL &&
	       emit_copy_op(d, ds, src, res, start, ir_const_int(d, 0), len);
}

/* A concatenation (concat_descr): the two lengths, the new string of
 * their sum and the two copies into it. */
static bool emit_concat(copier *c, const ir_op *op, const char *ds)
{
	ir_trace *d = c->d;
	const char *name = ir_valname(c->s, op->result);
	ir_vid s1 = pl_map_val(c, op->args[1]), s2 = pl_map_val(c, op->args[2]);
	if (s1 == IR_NOVAL || s2 == IR_NOVAL)
		return false;
	char ln[32], nm[96];
	snprintf(ln, sizeof ln, "%s.length", ds);
	ir_vid l[2];
	for (int j = 0; j < 2; j++) {
		snprintf(nm, sizeof nm, "%s_len%d", name, j + 1);
		ir_vid ga[1] = {j ? s2 : s1};
		uint32_t g =
		    ir_emit(d, IR_GETFIELD_GC_I, 1, ga, ir_cstr(d, ln), nm);
		if (g == UINT32_MAX)
			return false;
		l[j] = d->ops[g].result;
	}
	ir_vid sum = emit_int(d, IR_INT_ADD, l[0], l[1], name, "_len");
	ir_vid res = sum == IR_NOVAL ? IR_NOVAL : emit_new_str(c, op, ds, sum);
	ir_vid zero = ir_const_int(d, 0);
	return res != IR_NOVAL &&
	       emit_copy_op(d, ds, s1, res, zero, zero, l[0]) &&
	       emit_copy_op(d, ds, s2, res, zero, l[0], l[1]);
}

/* Whether op I of T is a slice or concatenation this file rewrites. */
static bool rewritten_call(const ir_trace *t, uint32_t i)
{
	int64_t k;
	return slice_form_of(t, i, &k) != SLICE_KEPT ||
	       concat_descr(t, &t->ops[i]);
}

/* Whether op I of T is a guard_no_exception right after a slice or
 * concatenation that is rewritten (only debug_merge_points between).
 * The helper may raise only MemoryError (EF=3); as an allocation it
 * raises nothing, so the guard passes and is left out, as PyPy's
 * optimizer leaves out the guard_no_exception of a call it removed
 * (rewrite.py, optimize_GUARD_NO_EXCEPTION).  Kept, it would be a call
 * event of one trace only, and the original would be taken as defined
 * only up to it. */
static bool slice_guard(const ir_trace *t, uint32_t i)
{
	return pl_guard_of_call(t, i, rewritten_call);
}

static bool match_slice(const ir_trace *t, uint32_t i)
{
	int64_t n;
	return rewritten_call(t, i) || slice_guard(t, i) ||
	       str_copy(t, &t->ops[i], &n);
}

static bool emit_slice_at(copier *c, uint32_t i)
{
	const ir_op *op = &c->s->ops[i];
	int64_t k;
	if (slice_guard(c->s, i))
		return true; /* left out */
	const char *cd = concat_descr(c->s, op);
	if (cd)
		return emit_concat(c, op, cd);
	switch (slice_form_of(c->s, i, &k)) {
	case SLICE_ITEMS: return emit_slice(c, op, k);
	case SLICE_COPY: return emit_slice_copy(c, op);
	case SLICE_KEPT: break;
	}
	return emit_str_copy(c, i);
}

void pl_str_slices(ir_trace **tp)
{
	static const pl_rewrite rw = {match_slice, emit_slice_at};
	pl_rewrite_ops(tp, &rw);
}

/* ---- string equality ---------------------------------------------------- */

/* PyPy's optimizer rewrites string equality by what it knows of the
 * strings (vstring.py, opt_call_stroruni_STR_EQUAL): ll_streq(s, t)
 * (OS_STR_EQUAL, 24) with t a string of one known char c becomes
 * str_eq_checknull_char(s, c) (OS 30), or str_eq_nonnull_char(s, c)
 * (OS 29) when s is known not to be NULL; and ll_streq of two strings
 * known not to be NULL becomes streq_nonnull (OS 28).  The helpers are
 * elidable calls (EF=0) with the same answer wherever both are defined.
 * The model compares calls by function and arguments, so each family is
 * given one function name here, in both traces: "str_eq_char" for 29 and
 * 30, "str_eq" for 24 and 28; and ll_streq(s, t) (either order) with t a
 * one-char string the trace just made (a new <str> of length 1 whose
 * item 0 is c, nothing else done to it before) becomes
 * str_eq_char(s, c) with OS 30 -- its exact meaning: false when s is NULL
 * (t is not), else s == c.  The descr keeps its OS, so str_eq_nonnull_char
 * and streq_nonnull stay undefined on NULL (ir_py_needs_nonnull); on
 * NULL the one function of a family answers as it likes where the helper
 * says false, which covers the helper's answer: a proof holds for it. */

/* Whether OP only reads S or stores S elsewhere: it cannot change S's
 * chars (a call or copystrcontent could fill a new string). */
static bool leaves_chars(const ir_op *op, ir_vid s)
{
	switch ((int)op->opc) {
	case IR_SETFIELD_GC: return op->args[0] != s;
	case IR_SETARRAYITEM_GC: return op->args[0] != s;
	case IR_GETFIELD_GC_I:
	case IR_GETFIELD_GC_R:
	case IR_GETARRAYITEM_GC_I:
	case IR_GETARRAYITEM_GC_R:
	case IR_PTR_EQ:
	case IR_PTR_NE:
	case IR_GUARD_NONNULL:
	case IR_GUARD_CLASS: return true;
	default: return false;
	}
}

bool pl_leaves_chars(const ir_op *op, ir_vid s)
{
	for (uint32_t j = 0; j < op->nargs; j++)
		if (op->args[j] == s)
			return leaves_chars(op, s);
	return true;
}

/* The char C of T's string S when S is a new "<str>" of length 1 whose
 * item 0 was set to C, and nothing in [0, BEFORE) may change its chars:
 * after both stores, calls may take it. */
static bool one_char_string(const ir_trace *t, ir_vid s, uint32_t before,
			    ir_vid *c)
{
	const ir_value *x = ir_val(t, s);
	if (x->tag != IR_VAL_OP || t->ops[x->def].opc != IR_NEW ||
	    !t->ops[x->def].descr ||
	    strcmp(ir_strtext(t, t->ops[x->def].descr), "<str>"))
		return false;
	bool len = false;
	*c = IR_NOVAL;
	for (uint32_t i = x->def + 1; i < before; i++) {
		const ir_op *op = &t->ops[i];
		if (pl_leaves_chars(op, s))
			continue;
		/* A call does not change a string the trace completed:
		 * RPython strings are immutable once made, and PyPy's
		 * string optimizer keeps a forced string's chars
		 * (email_validate hashes a char and looks it up first).
		 * The hash's cond_call_value writes only the hash. */
		if (len && *c != IR_NOVAL &&
		    (ir_py_is_call_event(t, op) ||
		     ir_pycall_of(t, op) == IR_PYCALL_CACHED))
			continue;
		const char *d = op->descr ? ir_strtext(t, op->descr) : "";
		const ir_value *a1 =
		    op->nargs > 1 ? ir_val(t, op->args[1]) : NULL;
		if (op->opc == IR_SETFIELD_GC && op->nargs == 2 &&
		    !strcmp(d, "<str>.length") && a1->tag == IR_VAL_CONST_INT &&
		    a1->cval == 1 && !len)
			len = true;
		else if (op->opc == IR_SETARRAYITEM_GC && op->nargs == 3 &&
			 !strcmp(d, "<str>") && a1->tag == IR_VAL_CONST_INT &&
			 a1->cval == 0 && *c == IR_NOVAL)
			*c = op->args[2];
		else
			return false;
	}
	return len && *c != IR_NOVAL;
}

void pl_str_eq_calls(ir_trace *t)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		ir_op *op = &t->ops[i];
		if (op->opc != IR_OPAQUE || !op->opname || !op->descr ||
		    op->nargs != 3 || op->result == IR_NOVAL ||
		    ir_val(t, op->args[0])->tag != IR_VAL_CONST_CLASS ||
		    strncmp(ir_strtext(t, op->opname), "call_", 5))
			continue;
		int os = ir_py_oopspec(ir_strtext(t, op->descr));
		const char *fn = os == 29 || os == 30	? "str_eq_char"
				 : os == 24 || os == 28 ? "str_eq"
							: NULL;
		if (!fn)
			continue;
		ir_vid c = IR_NOVAL;
		uint32_t one = 0; /* the one-char string's argument */
		/* PyPy tries the second string first (handle_str_equal_level1
		 * with the arguments as given, then swapped). */
		for (uint32_t k = 2; os == 24 && k >= 1 && !one; k--)
			if (one_char_string(t, op->args[k], i, &c))
				one = k;
		if (one)
			fn = "str_eq_char";
		uint32_t d =
		    one ? ir_cstr(t, "<Calli 8 ri EF=0 OS=30>") : op->descr;
		ir_vid f = d != UINT32_MAX ? ir_const_class(t, fn) : IR_NOVAL;
		if (f == IR_NOVAL)
			continue; /* out of memory: the call stays as it was */
		if (one) {
			op->args[1] = op->args[3 - one];
			op->args[2] = c;
		}
		op->args[0] = f;
		op->descr = d;
	}
}

/* ---- string compares with one char ------------------------------------ */

/* Two compares of a string with one char are spelled as what they
 * compute (jit/codewriter/support.py), so that the two traces compare
 * chars where PyPy's optimizer changed the helper:
 * _ll_4_str_eq_slice_char(s, start, length, c) (OS_STREQ_SLICE_CHAR, 27;
 * the unicode twin 47) with length the constant 1 is s[start] == c; and
 * str_eq_char(x, c) (OS 29 or 30, after pl_str_eq_calls) of a one-char
 * string x the trace made (one_char_string) is x's char == c.  PyPy
 * makes the first of s[i:i+1] == "c" (vstring.py,
 * handle_str_equal_level1); the unoptimized trace has the second
 * (query_string, maze_bfs, spell_edits).  Both helpers are elidable
 * (EF=0), so nothing else is lost. */

/* The char op I of T compares with one char, as the op reads it: 1 for
 * a slice of length 1, 2 for a one-char string (*CH its char); 0 when
 * the op is neither. */
static int char_compare(const ir_trace *t, uint32_t i, ir_vid *ch)
{
	const ir_op *op = &t->ops[i];
	if (op->opc != IR_OPAQUE || !op->descr || op->result == IR_NOVAL ||
	    ir_val(t, op->args[0])->tag != IR_VAL_CONST_CLASS || !op->opname ||
	    strncmp(ir_strtext(t, op->opname), "call_", 5))
		return 0;
	int os = ir_py_oopspec(ir_strtext(t, op->descr));
	uint64_t len;
	if ((os == 27 || os == 47) && op->nargs == 5 &&
	    pl_const_int(t, op->args[3], 1, &len) && len == 1)
		return 1;
	if ((os == 29 || os == 30) && op->nargs == 3 &&
	    one_char_string(t, op->args[1], i, ch))
		return 2;
	return 0;
}

static bool match_char_compare(const ir_trace *t, uint32_t i)
{
	ir_vid ch;
	return char_compare(t, i, &ch) != 0;
}

static bool emit_char_compare(copier *c, uint32_t i)
{
	const ir_trace *t = c->s;
	const ir_op *op = &t->ops[i];
	ir_vid ch = IR_NOVAL;
	int form = char_compare(t, i, &ch);
	const char *name = ir_valname(t, op->result);
	ir_vid want = pl_map_val(c, op->args[form == 1 ? 4 : 2]);
	if (form == 1) {
		const char *ds = ir_py_oopspec(ir_strtext(t, op->descr)) == 27
				     ? "<str>"
				     : "<unicode>";
		char nm[96];
		snprintf(nm, sizeof nm, "%s_ch", name);
		ir_vid ga[2] = {pl_map_val(c, op->args[1]),
				pl_map_val(c, op->args[2])};
		if (ga[0] == IR_NOVAL || ga[1] == IR_NOVAL)
			return false;
		uint32_t g = ir_emit(c->d, IR_GETARRAYITEM_GC_I, 2, ga,
				     ir_cstr(c->d, ds), nm);
		if (g == UINT32_MAX)
			return false;
		ch = c->d->ops[g].result;
	} else {
		ch = pl_map_val(c, ch);
	}
	if (ch == IR_NOVAL || want == IR_NOVAL)
		return false;
	ir_vid r = emit_int(c->d, IR_INT_EQ, ch, want, name, "");
	if (r == IR_NOVAL)
		return false;
	c->map[op->result] = r;
	return true;
}

void pl_str_char_compares(ir_trace **tp)
{
	static const pl_rewrite rw = {match_char_compare, emit_char_compare};
	pl_rewrite_ops(tp, &rw);
}
