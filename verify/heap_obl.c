/*
 * heap_obl.c - the heap checker's obligations: the calls, paired guards'
 * heaps, the end's heap and OPT's field accesses, their order, their
 * negated goals and descriptions (heap.h has the model; heap_encode.c
 * builds the terms they compare).
 *
 * Map: guards passing; negated goals; descriptions; the list.
 */
#include "heap_int.h"

/* "Every guard of E from op FROM to op UPTO passes". */
static Z3_ast pass_between(hp *h, const htrace *e, uint32_t from, uint32_t upto)
{
	Z3_ast r = zc_true(&h->S);
	for (uint32_t i = from; i < upto; i++)
		if (e->pass[i]) {
			Z3_ast a[2] = {r, e->pass[i]};
			r = K(h, Z3_mk_and(h->z, 2, a));
		}
	return r;
}

Z3_ast hp_def_at(hp *h, uint32_t i)
{
	if (!h->ho.nn[i])
		return NULL;
	return K(
	    h, Z3_mk_implies(h->z, pass_between(h, &h->ho, 0, i), h->ho.nn[i]));
}

Z3_ast hp_def_upto(hp *h, uint32_t upto)
{
	Z3_ast r = zc_true(&h->S);
	/* A call at UPTO is defined before it happens or not at all (a
	 * string helper on NULL, ir_py_needs_nonnull): its own condition
	 * is part of "defined before the call". */
	if (upto < h->o->nops && hp_is_call(h->o, &h->o->ops[upto]))
		upto++;
	for (uint32_t i = 0; i < upto && i < h->o->nops; i++) {
		Z3_ast d = hp_def_at(h, i);
		if (d) {
			Z3_ast a[2] = {r, d};
			r = K(h, Z3_mk_and(h->z, 2, a));
		}
	}
	return r;
}

static Z3_ast neq(hp *h, Z3_ast x, Z3_ast y)
{
	if (x == y)
		return zc_false(&h->S);
	if (Z3_get_sort(h->z, x) != Z3_get_sort(h->z, y))
		return zc_true(&h->S);
	return K(h, Z3_mk_not(h->z, K(h, Z3_mk_eq(h->z, x, y))));
}

static Z3_ast or2(hp *h, Z3_ast a, Z3_ast b)
{
	Z3_ast v[2] = {a, b};
	return K(h, Z3_mk_or(h->z, 2, v));
}

static Z3_ast and2(hp *h, Z3_ast a, Z3_ast b)
{
	Z3_ast v[2] = {a, b};
	return K(h, Z3_mk_and(h->z, 2, v));
}

/* The negated goal (without the guard assumptions). */
Z3_ast hp_goal_neg(hp *h, const hobl *q)
{
	const htrace *eo = &h->ho, *ep = &h->hpp;
	const obl *b = &q->b;
	Z3_ast a = b->og != OBL_NONE ? eo->pass[b->og] : NULL;
	Z3_ast c = b->pg != OBL_NONE ? ep->pass[b->pg] : NULL;
	switch (q->kind) {
	case H_CALL_REACH: {
		/* The guards before the bounds are assumed (hp_obligations
		 * keeps the bounds within the call points): only the ones
		 * from there to each call point decide. */
		Z3_ast ro = q->k < eo->ncalls ? pass_between(h, eo, b->o_upto,
							     eo->callop[q->k])
					      : zc_false(&h->S);
		Z3_ast rp = q->k < ep->ncalls ? pass_between(h, ep, b->p_upto,
							     ep->callop[q->k])
					      : zc_false(&h->S);
		return K(h, Z3_mk_xor(h->z, ro, rp));
	}
	case H_CALL_EQ: {
		const ir_op *x = &h->o->ops[eo->callop[q->k]];
		const ir_op *y = &h->p->ops[ep->callop[q->k]];
		uint32_t fx, fy;
		const char *nx = hp_call_event(eo, q->k, &fx);
		const char *ny = hp_call_event(ep, q->k, &fy);
		if (x->opc != y->opc || strcmp(nx, ny) ||
		    x->nargs - fx != y->nargs - fy)
			return zc_true(&h->S);
		Z3_ast r = hp_heap_neq_at(h, &eo->cheap[(size_t)q->k * h->nf],
					  &ep->cheap[(size_t)q->k * h->nf], x);
		for (uint32_t j = 0; j < x->nargs - fx; j++)
			r = or2(h, r,
				neq(h, eo->val[x->args[fx + j]],
				    ep->val[y->args[fy + j]]));
		return r;
	}
	case H_GUARD_HEAP: {
		Z3_ast r =
		    hp_heap_neq_at(h, &eo->gheap[(size_t)b->og * h->nf],
				   &ep->gheap[(size_t)b->pg * h->nf], NULL);
		return and2(
		    h,
		    and2(h, K(h, Z3_mk_not(h->z, a)), K(h, Z3_mk_not(h->z, c))),
		    r);
	}
	case H_END_HEAP: return hp_heap_neq_at(h, eo->eheap, ep->eheap, NULL);
	case H_OPT_DEF: return K(h, Z3_mk_not(h->z, ep->nn[q->k]));
	case H_BASE: break;
	}
	switch (b->kind) {
	case OBL_SAME: return K(h, Z3_mk_xor(h->z, a, c));
	case OBL_REMOVED:
	case OBL_T_ORIG: return K(h, Z3_mk_not(h->z, a));
	case OBL_NEW:
	case OBL_T_OPT: return K(h, Z3_mk_not(h->z, c));
	case OBL_FAILARGS: {
		const ir_op *ga = &h->o->ops[b->og], *gb = &h->p->ops[b->pg];
		Z3_ast both =
		    and2(h, K(h, Z3_mk_not(h->z, a)), K(h, Z3_mk_not(h->z, c)));
		if (ga->nfail != gb->nfail)
			return both;
		Z3_ast d = zc_false(&h->S);
		for (uint32_t j = 0; j < ga->nfail; j++) {
			ir_vid va = ga->failargs[j], vb = gb->failargs[j];
			if (va == IR_NOVAL || vb == IR_NOVAL) {
				if (va != vb)
					d = zc_true(&h->S);
				continue;
			}
			d = or2(h, d, neq(h, eo->val[va], ep->val[vb]));
		}
		return and2(h, both, d);
	}
	case OBL_OUTPUT: {
		const ir_op *x = &h->o->ops[h->o->nops - 1];
		const ir_op *y = &h->p->ops[h->p->nops - 1];
		return neq(h, eo->val[x->args[b->j]], ep->val[y->args[b->j]]);
	}
	case OBL_END:
	case OBL_EXIT: /* not built: heap pairs keep their guards in order */
	case OBL_MODEL: /* not in a base obligation */ return zc_true(&h->S);
	}
	return zc_true(&h->S);
}

void hp_describe(const hp *h, const hobl *q, strbuf *sb)
{
	switch (q->kind) {
	case H_BASE: obl_describe(&q->b, h->o, h->p, sb); return;
	case H_CALL_REACH:
		sb_printf(sb, "call %u (made by both traces or by neither)",
			  q->k);
		return;
	case H_CALL_EQ:
		sb_printf(sb, "call %u (same op, arguments and heap)", q->k);
		return;
	case H_GUARD_HEAP:
		sb_printf(sb, "guard %s (same heap when it fails)",
			  ir_guard_label(h->o, q->b.og));
		return;
	case H_END_HEAP: sb_puts(sb, "end (same heap)"); return;
	case H_OPT_DEF:
		sb_printf(sb,
			  "op %u of the optimized trace (no NULL access where "
			  "the original is defined)",
			  q->k);
		return;
	}
}

static bool hpush(hlist *l, hobl q)
{
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? l->cap * 2 : 16;
		hobl *v = realloc(l->v, cap * sizeof *v);
		if (!v)
			return false;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = q;
	return true;
}

/* The first call of ORIG at or after op X, or its end. */
static uint32_t next_event(const hp *h, uint32_t x)
{
	for (uint32_t k = 0; k < h->ho.ncalls; k++)
		if (h->ho.callop[k] >= x)
			return h->ho.callop[k];
	return h->o->nops;
}

/* One obligation per field access or guard_class of OPT that may go
 * through NULL: it must not where ORIG is defined up to its next call
 * after as many calls as OPT made before the access. */
static bool opt_def_obls(hp *h, hlist *out)
{
	const htrace *ep = &h->hpp;
	bool ok = true;
	uint32_t calls = 0;
	for (uint32_t j = 0; j < h->p->nops; j++) {
		while (calls < ep->ncalls && ep->callop[calls] <= j)
			calls++;
		if (!ep->nn[j])
			continue;
		uint32_t d =
		    calls < h->ho.ncalls ? h->ho.callop[calls] : h->o->nops;
		hobl q = {H_OPT_DEF, {0}, j, d, d};
		q.b.og = q.b.pg = OBL_NONE;
		q.b.o_upto = 0;
		q.b.p_upto = j;
		ok &= hpush(out, q);
	}
	return ok;
}

jp_status hp_build_obls(hp *h, const obl_list *L, hlist *out)
{
	const htrace *eo = &h->ho, *ep = &h->hpp;
	bool ok = opt_def_obls(h, out);
	for (uint32_t i = 0; i < L->n; i++) {
		const obl *b = &L->v[i];
		uint32_t pos = b->og != OBL_NONE ? b->og : b->o_upto;
		hobl q = {H_BASE, *b, 0, pos, next_event(h, pos)};
		ok &= hpush(out, q);
		if (L->v[i].kind == OBL_SAME) {
			q.kind = H_GUARD_HEAP;
			ok &= hpush(out, q);
		}
	}
	uint32_t nc = eo->ncalls > ep->ncalls ? eo->ncalls : ep->ncalls;
	for (uint32_t k = 0; k < nc; k++) {
		hobl q = {H_CALL_REACH, {0}, k, 0, 0};
		q.b.og = q.b.pg = OBL_NONE;
		q.pos = k < eo->ncalls ? eo->callop[k] : h->o->nops;
		q.d_upto = q.pos;
		ok &= hpush(out, q);
		if (k < eo->ncalls && k < ep->ncalls) {
			q.kind = H_CALL_EQ;
			q.b.o_upto = eo->callop[k];
			q.b.p_upto = ep->callop[k];
			ok &= hpush(out, q);
		}
	}
	if (!obl_ends_differ(h->o, h->p)) {
		hobl q = {H_END_HEAP, {0}, 0, h->o->nops + 1, h->o->nops};
		q.b.og = q.b.pg = OBL_NONE;
		q.b.o_upto = h->o->nops;
		q.b.p_upto = h->p->nops;
		ok &= hpush(out, q);
	}
	if (!ok)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	/* Stable insertion sort by position: the first observable event that
	 * differs is the one reported. */
	for (uint32_t i = 1; i < out->n; i++) {
		hobl q = out->v[i];
		uint32_t j = i;
		for (; j > 0 && out->v[j - 1].pos > q.pos; j--)
			out->v[j] = out->v[j - 1];
		out->v[j] = q;
	}
	return JP_OK;
}
