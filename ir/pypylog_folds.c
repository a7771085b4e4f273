/*
 * pypylog_folds.c - what PyPy's optimizer read from constants' memory
 * (docs/pypy.md, "ConstPtr identities").
 *
 * PyPy's optimizer folds a read of an immutable field of a constant, or
 * of an item of a constant immutable array (getarrayitem_gc_pure_*) at a
 * constant index, into the value read from memory: the optimized trace
 * then holds a constant of its own where the original holds the read
 * (date_diff's month_length returns DAYS[month - 1] for a month its
 * bridge knows, and to_ordinal adds its intval).  The log does not print
 * the constants' memory, so the pair takes the read to be that constant
 * -- an assumption, counted with the ConstPtr identities -- when the read
 * and the constant are the only ones in a role both traces use them in:
 * the op, its name and descr, the position (pn_shallow_role); on the
 * optimized side a ConstPtr the original does not have, or an integer
 * constant where the original has none in that role.  A read's object
 * is a ConstPtr, a value the recorded run shows to be one, or another
 * such read; an item's index a constant or an integer the run fixes
 * (pl_run_values).  The fact, guard_value(read, c), starts both traces,
 * like the recorded facts.  Sections: the reads; the pairing; the facts.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pypylog_int.h"
#include "pypylog_ptrs_int.h"
#include "pypyops.h"

/* ---- the reads ------------------------------------------------------------
 */

#define FOLD_DEPTH 3

/* One read of a chain: the op (a field or item read), its descr, an
 * item's index. */
typedef struct step {
	ir_opcode opc;
	uint32_t descr;
	uint64_t idx;
	bool pure_item;
} step;

/* A value X of ORIG read from constant K through N steps, and the
 * constant of OPT it is taken to be: name C (a ConstPtr) or integer IV
 * (C NULL, HAS_IV); CLASH when two were found. */
typedef struct fold {
	ir_vid x;
	const char *k;
	uint32_t n;
	step s[FOLD_DEPTH];
	const char *c;
	uint64_t iv;
	bool has_iv, clash;
} fold;

typedef struct folds {
	fold *v;
	uint32_t n;
	uint32_t *of; /* per value of ORIG: its fold, or UINT32_MAX */
} folds;

/* Whether OP reads something that never changes: an immutable field or
 * a length, or an item of an array PyPy declares immutable. */
static bool fixed_read(const ir_trace *t, const ir_op *op)
{
	if (!op->descr || op->result == IR_NOVAL)
		return false;
	const char *d = ir_strtext(t, op->descr);
	if ((op->opc == IR_GETFIELD_GC_I || op->opc == IR_GETFIELD_GC_R) &&
	    op->nargs == 1)
		return ir_py_field_immutable(d) || ir_descr_is_length(d);
	return (op->opc == IR_GETARRAYITEM_GC_I ||
		op->opc == IR_GETARRAYITEM_GC_R) &&
	       op->nargs == 2 && (op->flags & IR_OPF_PURE_ITEM);
}

/* The fixed reads of ORIG whose object is a constant (by name, or as the
 * run of its first NREC ops shows: RK) or another such read, with an
 * item's index a constant or fixed by the run (RI, RX), into F. */
static void chains(const ir_trace *o, uint32_t nrec, const bool *ri,
		   const uint64_t *rx, const ir_vid *rk, folds *f)
{
	for (uint32_t i = 0; i < o->nops; i++) {
		const ir_op *op = &o->ops[i];
		if (!fixed_read(o, op))
			continue;
		ir_vid b = op->args[0];
		bool run = i < nrec;
		ir_vid kb = pl_cptr_name(o, b) ? b : run ? rk[b] : IR_NOVAL;
		uint32_t from = f->of[b];
		if (kb == IR_NOVAL && from == UINT32_MAX)
			continue;
		uint64_t idx = 0;
		if (op->nargs == 2) {
			const ir_value *c = ir_val(o, op->args[1]);
			if (c->tag == IR_VAL_CONST_INT)
				idx = c->cval;
			else if (run && ri[op->args[1]])
				idx = rx[op->args[1]];
			else
				continue;
		}
		fold x = {0};
		if (kb != IR_NOVAL) {
			x.k = pl_cptr_name(o, kb);
		} else {
			x = f->v[from];
			if (x.n == FOLD_DEPTH)
				continue;
		}
		x.x = op->result;
		x.s[x.n++] = (step){(ir_opcode)op->opc, op->descr, idx,
				    (op->flags & IR_OPF_PURE_ITEM) != 0};
		x.c = NULL;
		f->of[op->result] = f->n;
		f->v[f->n++] = x;
	}
}

/* The reads of F for ORIG (NREC recorded ops); false when out of
 * memory. */
static bool reads_of(const ir_trace *o, uint32_t nrec, folds *f)
{
	uint32_t nv = o->nvals + 1;
	ir_vid *vs = malloc(nv * sizeof *vs);
	bool *ri = calloc(nv, sizeof *ri);
	uint64_t *rx = calloc(nv, sizeof *rx);
	ir_vid *rk = malloc(nv * sizeof *rk);
	f->v = calloc(o->nops + 1, sizeof *f->v);
	f->of = malloc(nv * sizeof *f->of);
	bool ok = vs && ri && rx && rk && f->v && f->of;
	for (ir_vid v = 0; ok && v < o->nvals; v++) {
		vs[v] = v;
		f->of[v] = UINT32_MAX;
	}
	ok = ok && pl_run_values(o, nrec, vs, o->nvals, ri, rx, rk);
	if (ok)
		chains(o, nrec, ri, rx, rk, f);
	free(vs);
	free(ri);
	free(rx);
	free(rk);
	return ok;
}

/* ---- the pairing ------------------------------------------------------------
 */

#define ROLE_MAX 16

/* The arguments of ORIG in role R that are a read of F or an integer
 * constant, in order: their folds (UINT32_MAX for a constant) into ONE,
 * at most ROLE_MAX; how many there are. */
static uint32_t orig_uses(const ir_trace *o, const folds *f, uint64_t r,
			  uint32_t *one)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < o->nops; i++) {
		const ir_op *op = &o->ops[i];
		for (uint32_t j = 0; j < op->nargs; j++) {
			ir_vid a = op->args[j];
			bool read = f->of[a] != UINT32_MAX;
			if ((!read && ir_val(o, a)->tag != IR_VAL_CONST_INT) ||
			    pn_shallow_role(o, i, j) != r)
				continue;
			if (n < ROLE_MAX)
				one[n] = read ? f->of[a] : UINT32_MAX;
			n++;
		}
	}
	return n;
}

/* The arguments of OPT in role R that are a constant of its own, in
 * order: a ConstPtr ORIG does not have (NAME), or (INT) an integer
 * (IV); at most ROLE_MAX; how many there are. */
static uint32_t opt_consts(const ir_trace *t, const ir_trace *o, uint64_t r,
			   bool is_int, const char **name, uint64_t *iv)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		for (uint32_t j = 0; j < op->nargs; j++) {
			const ir_value *x = ir_val(t, op->args[j]);
			const char *s = pl_cptr_name(t, op->args[j]);
			if ((is_int ? x->tag != IR_VAL_CONST_INT : !s) ||
			    pn_shallow_role(t, i, j) != r ||
			    (!is_int && pl_mentions(o, s)))
				continue;
			if (n < ROLE_MAX) {
				name[n] = s;
				iv[n] = x->cval;
			}
			n++;
		}
	}
	return n;
}

/* Takes fold X to be the constant C or IV (an integer when IS_INT). */
static void take(fold *x, bool is_int, const char *c, uint64_t iv)
{
	if ((x->c || x->has_iv) &&
	    (is_int ? x->iv != iv : !x->c || strcmp(x->c, c)))
		x->clash = true;
	x->c = is_int ? NULL : c;
	x->iv = iv;
	x->has_iv = is_int;
}

/* Pairs the reads of F with the constants of OPT in the role of one of
 * their uses: the one with the one, or in order when the role has as
 * many reads in ORIG (and no constant) as constants in OPT (the
 * optimizer keeps the order of what it does not remove). */
static void pair_consts(const pl_pair *p, folds *f)
{
	const ir_trace *o = p->orig, *t = p->opt;
	for (uint32_t i = 0; i < o->nops; i++) {
		const ir_op *op = &o->ops[i];
		for (uint32_t j = 0; j < op->nargs; j++) {
			if (f->of[op->args[j]] == UINT32_MAX)
				continue;
			uint32_t one[ROLE_MAX];
			const char *c[ROLE_MAX];
			uint64_t iv[ROLE_MAX];
			uint64_t r = pn_shallow_role(o, i, j);
			bool is_int =
			    ir_val(o, f->v[f->of[op->args[j]]].x)->kind != 'r';
			uint32_t m = orig_uses(o, f, r, one);
			if (m == 0 || m > ROLE_MAX ||
			    opt_consts(t, o, r, is_int, c, iv) != m)
				continue;
			bool reads = true;
			for (uint32_t k = 0; k < m; k++)
				reads = reads && one[k] != UINT32_MAX &&
					(ir_val(o, f->v[one[k]].x)->kind !=
					 'r') == is_int;
			for (uint32_t k = 0; reads && k < m; k++)
				take(&f->v[one[k]], is_int, c[k], iv[k]);
		}
	}
}

/* ---- the facts --------------------------------------------------------------
 */

typedef struct fold_in {
	const ir_trace *o; /* the trace the reads are of */
	const folds *f;
} fold_in;

static bool paired(const fold *x)
{
	return (x->c || x->has_iv) && !x->clash;
}

/* Emits X's chain of reads from its constant into D, the values named
 * after K; its result, or IR_NOVAL when out of memory. */
static ir_vid emit_chain(ir_trace *d, const ir_trace *o, const fold *x,
			 uint32_t k)
{
	char name[40];
	ir_vid v = ir_const_ptr(d, x->k);
	for (uint32_t s = 0; s < x->n; s++) {
		const step *st = &x->s[s];
		bool item = st->opc == IR_GETARRAYITEM_GC_I ||
			    st->opc == IR_GETARRAYITEM_GC_R;
		bool ref = st->opc == IR_GETARRAYITEM_GC_R ||
			   st->opc == IR_GETFIELD_GC_R;
		ir_vid a[2] = {v, item ? ir_const_int(d, st->idx) : IR_NOVAL};
		snprintf(name, sizeof name, "%cfold%u_%u", ref ? 'p' : 'i', k,
			 s);
		uint32_t op =
		    ir_emit(d, st->opc, item ? 2 : 1, a,
			    ir_cstr(d, ir_strtext(o, st->descr)), name);
		if (op == UINT32_MAX)
			return IR_NOVAL;
		if (st->pure_item)
			d->ops[op].flags |= IR_OPF_PURE_ITEM;
		v = d->ops[op].result;
	}
	return v;
}

/* Emits guard_value(read, c) for each paired read into C's trace. */
static bool emit_folds(copier *c, void *ctx)
{
	const fold_in *in = ctx;
	ir_trace *d = c->d;
	char lbl[32];
	for (uint32_t k = 0; k < in->f->n; k++) {
		const fold *x = &in->f->v[k];
		if (!paired(x))
			continue;
		ir_vid v = emit_chain(d, in->o, x, k);
		if (v == IR_NOVAL)
			return false;
		ir_vid g[2] = {v, x->has_iv ? ir_const_int(d, x->iv)
					    : ir_const_ptr(d, x->c)};
		snprintf(lbl, sizeof lbl, "gfold%u", k);
		uint32_t o =
		    ir_emit(d, IR_GUARD_VALUE, 2, g, ir_cstr(d, lbl), NULL);
		if (o == UINT32_MAX)
			return false;
		d->ops[o].flags |= IR_OPF_IMPLICIT_LABEL;
	}
	return true;
}

void pl_folded_reads(pl_pair *p, uint32_t nrec)
{
	if (!p->orig || !p->opt)
		return;
	folds f = {0};
	if (reads_of(p->orig, nrec, &f) && f.n)
		pair_consts(p, &f);
	uint32_t n = 0;
	for (uint32_t k = 0; k < f.n; k++)
		n += paired(&f.v[k]);
	fold_in in = {p->orig, &f};
	if (n && pl_prefix_both(p, emit_folds, &in))
		p->nsame += n;
	free(f.v);
	free(f.of);
}
