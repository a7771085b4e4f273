/*
 * pypylog_keep.c - which of the heap facts a bridge inherits it keeps
 * (docs/pypy.md, "Bridges"): the bridge's own names for their ConstPtrs,
 * and the weak facts its traces show PyPy used.  pypylog_bridge.c works
 * the facts out from the parent; this file reads only the bridge's two
 * traces.  Sections: ConstPtr names of facts; weak facts used.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "pypylog_int.h"
#include "pypyops.h"

/* ---- ConstPtr names of facts --------------------------------------------- */

/* The bridge's names for the ConstPtrs of heap facts, by role.  PyPy
 * numbers constants per section, so the parent's ConstPtr has another
 * name in the bridge.  The bridge's unoptimized trace was recorded from
 * the failing guard: its first read of field D (of input OBJ, or of a
 * ConstPtr when the fact's object is one), before anything that may
 * change D, reads the value the parent knew, and the ConstPtr its
 * guard_value checks that read against is the parent's value.  Taking
 * the read's ConstPtr object for the parent's, and the guarded ConstPtr
 * for the parent's value, are identities the log cannot confirm: counted
 * with the others (pl_pair.nsame), their number returned.  A fact with
 * no such read, or an ambiguous one, is dropped, and so is every one
 * when APART (--ptrs-apart: no identity assumed). */

/* The name of the ConstPtr a guard_value after op J of B pins the value V
 * to, or NULL. */
static const char *pinned(const ir_trace *b, uint32_t j, ir_vid v)
{
	return pl_cptr_name(b, pl_pinned(b, v, j, b->nops));
}

/* A fact "field D of the ConstPtr read at op J of B holds input K": the
 * recorded run read that field at J (nothing before it may change it,
 * pl_fact_names) and pinned the value to a ConstPtr C, and pinned input K
 * to a ConstPtr B.  On that run both held the one value the fact names,
 * so B and C are one object -- as sure as the fact, and counted with the
 * ConstPtr identities (a map PyPy checked in the parent under one name
 * and the bridge's recording under another: bench/pypy_holdout5
 * fnv_table). */
static bool fact_identity(const ir_trace *b, const hfact *f, uint32_t j,
			  pren *r)
{
	if (f->val >= b->ninputs || r->n == 8)
		return false;
	const char *c = pinned(b, j + 1, b->ops[j].result);
	const char *k = pinned(b, 0, b->inputs[f->val]);
	if (!c || !k || !strcmp(c, k))
		return false;
	r->from[r->n] = strdup(c);
	r->to[r->n] = strdup(k);
	if (!r->from[r->n] || !r->to[r->n]) {
		free(r->from[r->n]);
		free(r->to[r->n]);
		return false;
	}
	r->n++;
	return true;
}

/* T's first read or store of field D of X (calls or not), or NULL. */
static const ir_op *first_access(const ir_trace *t, ir_vid x, const char *d)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		bool access = op->opc == IR_SETFIELD_GC ||
			      op->opc == IR_GETFIELD_GC_R ||
			      op->opc == IR_GETFIELD_GC_I;
		if (access && op->nargs >= 1 && op->args[0] == x && op->descr &&
		    !strcmp(ir_strtext(t, op->descr), d))
			return op;
	}
	return NULL;
}

/* Whether T reads field D of X before it first stores it. */
static bool reads_before_store(const ir_trace *t, ir_vid x, const char *d)
{
	const ir_op *a = first_access(t, x, d);
	return a && a->opc != IR_SETFIELD_GC;
}

/* Whether fact F's value may be pinned by the read at op J of B, the
 * bridge's unoptimized trace, though a call of B comes first: B stores
 * field D of that input nowhere before J, and the optimized trace OPT
 * never reads it before a store -- the optimizer carried the parent's
 * value across the bridge's own calls (and, for a weak fact, the
 * parent's), which is what the name assumes (pl_call_effects then has
 * those calls keep D).  Since session 31 for facts that are not weak too
 * (bowling_score's bridges three down from the entry bridge that
 * promoted the map, holdout12). */
static bool carried(const ir_trace *b, const ir_trace *opt, const hfact *f,
		    uint32_t j)
{
	if (f->obj >= b->ninputs || f->obj >= opt->ninputs)
		return false;
	ir_vid x = b->inputs[f->obj];
	bool kept;
	return !pl_may_change_calls(b, 0, j, f->descr, x, &kept, true) &&
	       !reads_before_store(opt, opt->inputs[f->obj], f->descr);
}

uint32_t pl_fact_names(const ir_trace *b, const ir_trace *opt, hfacts *hs,
		       bool apart, pren *ren)
{
	uint32_t nid = 0, w = 0;
	for (uint32_t i = 0; i < hs->n; i++) {
		hfact f = hs->v[i];
		bool po = f.obj == HF_PTR, pv = f.val == HF_PTR;
		if (!po && !pv) {
			hs->v[w++] = f;
			continue;
		}
		if (f.ambiguous || (apart && po))
			continue;
		for (uint32_t j = 0; !(apart && !po) && j < b->nops; j++) {
			const ir_op *op = &b->ops[j];
			if (op->opc != f.get || !op->descr || op->nargs != 1 ||
			    strcmp(ir_strtext(b, op->descr), f.descr))
				continue;
			ir_vid x = op->args[0];
			const ir_value *xv = ir_val(b, x);
			if (po ? xv->tag != IR_VAL_CONST_PTR
			       : (f.obj >= b->ninputs || x != b->inputs[f.obj]))
				continue;
			/* A read after a call names the entry value only if
			 * the calls kept the field: what the optimized trace
			 * shows by carrying it (counted as kept, as a weak
			 * fact's use is). */
			if (pl_may_change_calls(b, 0, j, f.descr, x, NULL,
						false)) {
				if (po || !carried(b, opt, &f, j))
					break;
				f.kept = true;
			}
			if (po) {
				f.objname = ir_strtext(b, xv->name);
				if (!pv && fact_identity(b, &f, j, ren))
					nid++;
			}
			if (pv)
				f.valname = pinned(b, j + 1, op->result);
			break;
		}
		/* A value with no name of the bridge's is still a constant
		 * object: one of its own, which claims no identity. */
		f.anon = !po && pv && (apart || !f.valname);
		if ((po && !f.objname) || (pv && !f.valname && !f.anon))
			continue;
		nid += po + (pv && !f.anon);
		hs->v[w++] = f;
	}
	hs->n = w;
	return nid;
}

/* ---- weak facts used ----------------------------------------------------- */

/* Whether V of T is input K, or a read of a field that facts HS say
 * holds input K, made before any call (the fact holds on entry, and no
 * store comes between: an object the trace reads a field of through
 * another input's field, trie_words' dict storage through the node's
 * dict).  A store into an object T allocated is into no input
 * (pl_may_change_calls). */
static bool is_input(const ir_trace *t, ir_vid v, uint32_t k, const hfacts *hs)
{
	if (k >= t->ninputs)
		return false;
	if (v == t->inputs[k])
		return true;
	uint32_t d = ir_defop(t, v);
	if (!hs || d == UINT32_MAX || t->ops[d].opc != IR_GETFIELD_GC_R ||
	    t->ops[d].nargs != 1 || !t->ops[d].descr)
		return false;
	const ir_op *op = &t->ops[d];
	const char *fd = ir_strtext(t, op->descr);
	bool kept; /* no call comes first: reads_before_call stops at one */
	if (pl_may_change_calls(t, 0, d, fd, op->args[0], &kept, true))
		return false;
	for (uint32_t i = 0; i < hs->n; i++) {
		const hfact *g = &hs->v[i];
		if (g->val == k && g->obj < t->ninputs &&
		    op->args[0] == t->inputs[g->obj] && !strcmp(g->descr, fd))
			return true;
	}
	return false;
}

/* Whether T reads field D of input K (is_input) before its first call
 * that may write the heap. */
static bool reads_before_call(const ir_trace *t, uint32_t k, const char *d,
			      const hfacts *hs)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (ir_op_has((ir_opcode)op->opc, IRF_CALL) &&
		    ir_pycall_of(t, op) == IR_PYCALL_OPAQUE &&
		    !pl_is_raw_read(t, op))
			return false;
		if ((op->opc == IR_GETFIELD_GC_R ||
		     op->opc == IR_GETFIELD_GC_I) &&
		    op->nargs == 1 && op->descr &&
		    !strcmp(ir_strtext(t, op->descr), d) &&
		    is_input(t, op->args[0], k, hs))
			return true;
	}
	return false;
}

/* Whether T's first access of field F->descr of X is a store of the value
 * fact F names (an input of T, or its integer constant): a store the
 * optimizer drops when its heap cache says the field holds that value. */
static bool stores_known(const ir_trace *t, ir_vid x, const hfact *f)
{
	const ir_op *a = first_access(t, x, f->descr);
	if (!a || a->opc != IR_SETFIELD_GC || a->nargs != 2)
		return false;
	ir_vid v = a->args[1];
	uint64_t k;
	if (f->val < HF_PTR)
		return f->val < t->ninputs && v == t->inputs[f->val];
	return f->val == HF_CONST && pl_const_of(t, 0, 0, v, &k) && k == f->k;
}

/* Whether T stores field F->descr of X anywhere. */
static bool stores_field(const ir_trace *t, ir_vid x, const hfact *f)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc == IR_SETFIELD_GC && op->nargs == 2 &&
		    op->args[0] == x && op->descr &&
		    !strcmp(ir_strtext(t, op->descr), f->descr))
			return true;
	}
	return false;
}

/* How many debug_merge_points come before op I of T: the bytecode
 * instruction op I belongs to. */
static uint32_t region_of(const ir_trace *t, uint32_t i)
{
	uint32_t r = 0;
	for (uint32_t j = 0; j < i && j < t->nops; j++)
		r += t->ops[j].opc == IR_DEBUG_MERGE_POINT;
	return r;
}

/* Whether A and B have the same debug_merge_points, in order: the same
 * bytecode instructions, as a bridge's two traces have (one recording,
 * optimized once). */
static bool same_regions(const ir_trace *a, const ir_trace *b)
{
	uint32_t i = 0, j = 0;
	for (;;) {
		while (i < a->nops && a->ops[i].opc != IR_DEBUG_MERGE_POINT)
			i++;
		while (j < b->nops && b->ops[j].opc != IR_DEBUG_MERGE_POINT)
			j++;
		if (i == a->nops || j == b->nops)
			return i == a->nops && j == b->nops;
		if (strcmp(ir_strtext(a, a->ops[i].opname),
			   ir_strtext(b, b->ops[j].opname)))
			return false;
		i++;
		j++;
	}
}

/* Whether the optimized trace OPT has no access of field D of XT in the
 * bytecode instruction where ORIG first accesses D of XO, a read, nor
 * before it: the optimizer took that read's value from what it knew on
 * entry (nqueens_count's bridges read a closure cell after their own set
 * lookups, the optimized ones only after a recursive call, which forgets
 * the heap cache; holdout10). */
static bool read_dropped(const ir_trace *orig, ir_vid xo, const ir_trace *opt,
			 ir_vid xt, const char *d)
{
	const ir_op *a = first_access(orig, xo, d);
	if (!a || a->opc == IR_SETFIELD_GC || !same_regions(orig, opt))
		return false;
	const ir_op *b = first_access(opt, xt, d);
	return !b || region_of(opt, (uint32_t)(b - opt->ops)) >
			 region_of(orig, (uint32_t)(a - orig->ops));
}

/* Whether the bridge P uses weak fact F (direct_hfacts): its unoptimized
 * trace reads the field of that input before its first call, and its
 * optimized trace does not read it there -- it took the value from the
 * parent's heap cache, which had kept it across the parent's call.  Or
 * the unoptimized trace reads it (after a call of the bridge) and the
 * optimized one never does: it carried the parent's value across the
 * parent's calls and the bridge's own (pl_call_effects then finds the
 * bridge's call keeping it, the fact's read coming first).  Or the
 * unoptimized trace stores the value the fact names and the optimized
 * one does not store the field: it dropped the store as redundant.  What
 * the fact assumes is what the optimizer did; it is counted with the
 * fields kept by calls. */
bool pl_weak_used(const pl_pair *p, const hfact *f, const hfacts *hs)
{
	if (f->obj >= p->orig->ninputs || f->obj >= p->opt->ninputs)
		return false;
	ir_vid xo = p->orig->inputs[f->obj], xt = p->opt->inputs[f->obj];
	return (reads_before_call(p->orig, f->obj, f->descr, hs) &&
		!reads_before_call(p->opt, f->obj, f->descr, hs)) ||
	       (reads_before_store(p->orig, xo, f->descr) &&
		!reads_before_store(p->opt, xt, f->descr)) ||
	       read_dropped(p->orig, xo, p->opt, xt, f->descr) ||
	       (stores_known(p->orig, xo, f) && !stores_field(p->opt, xt, f));
}
