/*
 * heap_compare.c - two runs of the interpreter compared as the heap model
 * compares the traces: calls in order with equal arguments and equal
 * reachable heaps, the same exit, equal outputs or fail-args, equal
 * reachable heaps at the end (heap.h, hp_run_diverges).  The replay
 * (heap_replay.c) confirms a counterexample with it.
 *
 * Map: concrete comparison (fresh objects paired by the model, or as the
 * runs force: hiso); the concrete comparison without the solver.
 */
#include "heap_int.h"
#include "ir/sem.h"

/* ---- concrete comparison --------------------------------------------------
 */

/* A partial one-to-one map between the fresh identities of run A and
 * those of run B, forced as a comparison walks from what the world sees:
 * the first time a fresh object of A stands where one of B does, the two
 * are one object to the world from then on.  The model pairs fresh
 * objects by name or access path (hp_scan_idents), a guess that may pair
 * two objects the world cannot tell apart with different partners; a
 * divergence under the guess alone is then none at all (two equal heaps
 * drawn with their objects swapped).  Only what differs under this map
 * too is reported. */
typedef struct hiso {
	uint32_t a2b[HP_MAXID], b2a[HP_MAXID];
	bool grew;
} hiso;

/* Identity of the fresh object at ADDR in run R, or HP_NONE. */
static uint32_t ident_at(const hrun *R, uint64_t addr)
{
	const interp_obj *o = interp_find_obj(R->r, addr);
	if (!o || o->fresh < 0)
		return HP_NONE;
	return R->e->ident[o->alloc_op];
}

/* Whether the fresh objects at X in run A and Y in run B come from the
 * same kind of allocation of the same type (hp_same_alloc). */
static bool same_alloc(const hrun *A, uint64_t x, const hrun *B, uint64_t y)
{
	return hp_same_alloc(
	    A->t, &A->t->ops[interp_find_obj(A->r, x)->alloc_op], B->t,
	    &B->t->ops[interp_find_obj(B->r, y)->alloc_op]);
}

/* Whether X (a reference when XREF) of run A equals Y of run B: fresh
 * objects by identity (the model's, or the map A->iso, which a first
 * meeting of two unmapped objects of one type extends), anything else
 * by its bits. */
static bool same_value2(const hrun *A, uint64_t x, bool xref, const hrun *B,
			uint64_t y, bool yref)
{
	uint32_t ix = xref ? ident_at(A, x) : HP_NONE;
	uint32_t iy = yref ? ident_at(B, y) : HP_NONE;
	hiso *m = A->iso;
	if (ix == HP_NONE && iy == HP_NONE)
		return x == y;
	if (!m)
		return ix == iy;
	if (ix == HP_NONE || iy == HP_NONE)
		return false;
	if (m->a2b[ix] == HP_NONE && m->b2a[iy] == HP_NONE &&
	    same_alloc(A, x, B, y)) {
		m->a2b[ix] = iy;
		m->b2a[iy] = ix;
		m->grew = true;
	}
	return m->a2b[ix] == iy;
}

static bool same_value(const hrun *A, uint64_t x, const hrun *B, uint64_t y,
		       bool ref)
{
	return same_value2(A, x, ref, B, y, ref);
}

static uint64_t init_value(const interp_env *env, uint64_t addr,
			   const char *field)
{
	for (uint32_t i = 0; i < env->ninit; i++)
		if (env->init[i].addr == addr &&
		    !strcmp(env->init[i].field, field))
			return env->init[i].value;
	return 0;
}

/* The kind written last to field F of O, or 0. */
static char field_kind(const interp_obj *o, const char *f)
{
	for (uint32_t j = 0; j < o->nfields; j++)
		if (!strcmp(o->fields[j], f))
			return o->kinds[j];
	return 0;
}

/* Field F of the object with key (X fresh identity, or ADDR) in the
 * object list OBJS of run R, with escape mask M; *REF tells whether it
 * was last written with a reference. */
static uint64_t cell(const hrun *R, const interp_obj *objs, uint32_t n, hset m,
		     uint32_t x, uint64_t addr, const char *f, bool *ref)
{
	*ref = false;
	for (uint32_t i = 0; i < n; i++) {
		const interp_obj *o = &objs[i];
		if (x != HP_NONE) {
			if (o->fresh < 0 || R->e->ident[o->alloc_op] != x)
				continue;
			if (!hs_has(m, x))
				return 0;
			*ref = field_kind(o, f) == 'r';
			return interp_obj_field(o, f);
		}
		if (o->fresh < 0 && o->addr == addr) {
			*ref = field_kind(o, f) == 'r';
			for (uint32_t j = 0; j < o->nfields; j++)
				if (!strcmp(o->fields[j], f))
					return o->values[j];
			return init_value(R->env, addr, f);
		}
	}
	return x != HP_NONE ? 0 : init_value(R->env, addr, f);
}

static hset ident_bit(const hrun *R, uint64_t addr)
{
	uint32_t x = ident_at(R, addr);
	return x == HP_NONE ? hs_none() : hs_one(x);
}

/* The fresh identities the world can reach in the heap OBJS of run R:
 * PREV (reached before), the reference values ROOTS[0..n) (of trace
 * values VIDS), every fresh object referenced by a field of an object that
 * is not fresh, and everything referenced from those.  This is the true
 * reachability of the concrete run; the encoder's escape sets
 * over-approximate it, so a symbolic difference in an object nobody can
 * reach does not replay (the obligation is then unknown, never refuted). */
static hset reach(const hrun *R, const interp_obj *objs, uint32_t n, hset prev,
		  const ir_vid *vids, const uint64_t *roots, uint32_t nroots,
		  const ir_op *call)
{
	/* A call does not see the fields its descr ignores
	 * (ir_py_call_ignores): nothing is reached through them there. */
	const char *cd = call ? ir_py_seen_descr(R->t, call) : NULL;
	hset m = prev;
	for (uint32_t i = 0; i < nroots; i++)
		if (is_ref(R->t, vids[i]))
			m = hs_or(m, ident_bit(R, roots[i]));
	for (;;) {
		hset before = m;
		for (uint32_t i = 0; i < n; i++) {
			const interp_obj *o = &objs[i];
			if (o->fresh >= 0 &&
			    !hs_has(m, R->e->ident[o->alloc_op]))
				continue;
			for (uint32_t j = 0; j < o->nfields; j++)
				if (o->kinds[j] == 'r' &&
				    !(cd &&
				      ir_py_call_ignores(cd, o->fields[j])))
					m = hs_or(m,
						  ident_bit(R, o->values[j]));
		}
		if (hs_eq(m, before))
			return m;
	}
}

/* The identity in the other run of the fresh identity X of run SIDE (0:
 * A, 1: B): X itself under the model's pairing; under a map, X's
 * partner, HP_NONE while it has none. */
static uint32_t partner(const hrun *A, int side, uint32_t x)
{
	if (x == HP_NONE || !A->iso)
		return x;
	return side ? A->iso->b2a[x] : A->iso->a2b[x];
}

/* The part of integer cell value V of field FN ("D" or an item "D[I]")
 * that reads see: the low bits of an item narrower than a word
 * (ir_py_item_bits), as the model compares it (heap_neq.c). */
static uint64_t seen_bits(const char *fn, uint64_t v)
{
	char d[64];
	size_t n = strcspn(fn, "[");
	bool sign;
	if (n >= sizeof d)
		return v;
	memcpy(d, fn, n);
	d[n] = '\0';
	unsigned bits = ir_py_item_bits(d, &sign);
	return bits ? sem_mask((int)bits, v) : v;
}

/* Whether object O of run SIDE and its partner in the other run have the
 * same fields; WHY says which differs. */
static bool obj_equal(const hp *h, const hrun *A, const interp_obj *ao,
		      uint32_t an, hset am, const hrun *B, const interp_obj *bo,
		      uint32_t bn, hset bm, int side, const interp_obj *o,
		      uint32_t x, const char *cd, strbuf *why)
{
	uint32_t y = partner(A, side, x);
	uint32_t xa = side ? y : x, xb = side ? x : y;
	/* The plain fields, then the items this object has ("D[I]"; the
	 * other run's object is looked up by the same name, its own items
	 * in its turn). */
	for (uint32_t f = 0; f < h->nf + o->nfields; f++) {
		const char *fn =
		    f < h->nf ? h->f[f].name : o->fields[f - h->nf];
		if ((f >= h->nf && hp_field_index(h, fn) != HP_NONE) ||
		    (cd && ir_py_call_ignores(cd, fn)))
			continue;
		bool ra, rb;
		uint64_t va = cell(A, ao, an, am, xa, o->addr, fn, &ra);
		uint64_t vb = cell(B, bo, bn, bm, xb, o->addr, fn, &rb);
		if (!ra && !rb) {
			va = seen_bits(fn, va);
			vb = seen_bits(fn, vb);
		}
		if (same_value2(A, va, ra, B, vb, rb))
			continue;
		if (x != HP_NONE)
			sb_printf(why, "field %s of fresh object %s differs",
				  fn, h->id[x].name);
		else
			sb_printf(why, "field %s of object 0x%016llx differs",
				  fn, (unsigned long long)o->addr);
		return false;
	}
	return true;
}

/* Under a map: whether every fresh object of M (run SIDE's) has a
 * partner; WHY names one that has none. */
static bool all_paired(const hp *h, const hrun *A, int side, hset m,
		       strbuf *why)
{
	for (uint32_t x = 0; x < h->nid; x++)
		if (hs_has(m, x) && partner(A, side, x) == HP_NONE) {
			sb_printf(why,
				  "fresh object %s of the %s trace has no "
				  "counterpart",
				  h->id[x].name,
				  side ? "optimized" : "original");
			return false;
		}
	return true;
}

static bool heaps_equal(const hp *h, const hrun *A, const interp_obj *ao,
			uint32_t an, hset am, const hrun *B,
			const interp_obj *bo, uint32_t bn, hset bm,
			const ir_op *call, strbuf *why)
{
	/* A call whose descr says it ignores a field does not see it
	 * (ir_py_call_ignores): the model compares without it too. */
	const char *cd = call ? ir_py_seen_descr(A->t, call) : NULL;
	/* Under a map, a fresh object is compared once it has a partner;
	 * comparing may give more objects partners: again until none. */
	bool again = true;
	while (again) {
		if (A->iso)
			A->iso->grew = false;
		for (int side = 0; side < 2; side++) {
			const interp_obj *objs = side ? bo : ao;
			uint32_t n = side ? bn : an;
			const hrun *R = side ? B : A;
			hset m = side ? bm : am;
			for (uint32_t i = 0; i < n; i++) {
				const interp_obj *o = &objs[i];
				uint32_t x = o->fresh >= 0
						 ? R->e->ident[o->alloc_op]
						 : HP_NONE;
				if (x != HP_NONE &&
				    (!hs_has(m, x) ||
				     partner(A, side, x) == HP_NONE))
					continue;
				if (!obj_equal(h, A, ao, an, am, B, bo, bn, bm,
					       side, o, x, cd, why))
					return false;
			}
		}
		again = A->iso && A->iso->grew;
	}
	return !A->iso ||
	       (all_paired(h, A, 0, am, why) && all_paired(h, A, 1, bm, why));
}

static bool values_equal(const hrun *A, const ir_vid *va, const uint64_t *xa,
			 const hrun *B, const ir_vid *vb, const uint64_t *xb,
			 uint32_t n)
{
	for (uint32_t j = 0; j < n; j++) {
		if ((va[j] == IR_NOVAL) != (vb[j] == IR_NOVAL))
			return false;
		bool ra = is_ref(A->t, va[j]), rb = is_ref(B->t, vb[j]);
		if (ra != rb || !same_value(A, xa[j], B, xb[j], ra))
			return false;
	}
	return true;
}

/* Whether the calls CA of run A and CB of run B are the same call: the
 * same op (a conditional call, made, as its plain call) with equal
 * arguments. */
static bool same_made_call(const hrun *A, const interp_call *ca, const hrun *B,
			   const interp_call *cb)
{
	const ir_op *oa = &A->t->ops[ca->op], *ob = &B->t->ops[cb->op];
	uint32_t fa, fb;
	const char *na = ir_py_call_event(A->t, oa, &fa);
	const char *nb = ir_py_call_event(B->t, ob, &fb);
	return oa->opc == ob->opc && !strcmp(na, nb) &&
	       ca->nargs - fa == cb->nargs - fb &&
	       values_equal(A, oa->args + fa, ca->args + fa, B, ob->args + fb,
			    cb->args + fb, ca->nargs - fa);
}

/* Whether guard GA of A's trace (the original) and guard GB of B's are
 * one guard: paired by the checker's pairing when there is one, else by
 * label. */
static bool same_guard(const hp *h, const hrun *A, uint32_t ga, const hrun *B,
		       uint32_t gb)
{
	if (h->match)
		return h->match[gb] == ga;
	return !strcmp(ir_guard_label(A->t, ga), ir_guard_label(B->t, gb));
}

/* Whether call event K of run R is one PyPy's optimizer may remove: a
 * call of an elidable function (EF 0, 3 or 4 in its descr), or a guard on
 * what such a call left (the guard_no_exception after it).  rlib/jit.py
 * lets the optimizer remove an elidable call, reorder it, or fold it into
 * its result when the arguments are constants; optimizeopt/rewrite.py
 * drops the guard_no_exception of a call it removed.  The model takes
 * such calls as events both traces make alike (docs/pypy.md, "Kept
 * elidable calls"), and the world gives a call any result; when one run
 * makes the call and the other does not, what follows may rest on a
 * result the function never returns (kv_parser's bridge: PyPy folded
 * ll_int2dec(0), and the world's string for it was 2^63 - 16 characters
 * long).  Such runs confirm no divergence. */
static bool removable(const hrun *R, uint32_t k)
{
	if (k >= R->r->ncalls)
		return false;
	const ir_op *op = &R->t->ops[R->r->calls[k].op];
	const char *d = ir_py_seen_descr(R->t, op);
	return d && ir_py_elidable(d);
}

/* Whether runs A (ORIG) and B (OPT) differ as the model compares them;
 * WHY says how, and *AT_CALL (when not NULL) which call they differ at
 * (UINT32_MAX: at the end or exit). */

/* diverges_at under the model's pairing of fresh objects (A->iso NULL)
 * or under the map A->iso.  *ELIDED is set when the comparison stops,
 * with no divergence, at a removable call only one run makes. */
static bool diverges_run(const hp *h, const hrun *A, const hrun *B, strbuf *why,
			 uint32_t *at_call, bool *elided)
{
	const interp_result *ra = A->r, *rb = B->r;
	if (at_call)
		*at_call = UINT32_MAX;
	/* With a guessed pairing, two runs that both leave at a guard are not
	 * compared: which guard, the calls before it and what they resume
	 * with all depend on the guess. */
	if (h->loose_guards && ra->outcome == INTERP_GUARD_FAIL &&
	    rb->outcome == INTERP_GUARD_FAIL)
		return false;
	uint32_t nc = ra->ncalls < rb->ncalls ? ra->ncalls : rb->ncalls;
	hset ea = hs_none(), eb = hs_none(); /* reached by the world so far */
	for (uint32_t k = 0; k < nc; k++) {
		const interp_call *ca = &ra->calls[k], *cb = &rb->calls[k];
		const ir_op *oa = &A->t->ops[ca->op], *ob = &B->t->ops[cb->op];
		if (!same_made_call(A, ca, B, cb)) {
			if (removable(A, k) || removable(B, k)) {
				*elided = true;
				return false;
			}
			sb_printf(why, "call %u differs (op or arguments)", k);
			if (at_call)
				*at_call = k;
			return true;
		}
		ea = reach(A, ca->objs, ca->nobjs, ea, oa->args, ca->args,
			   ca->nargs, oa);
		eb = reach(B, cb->objs, cb->nobjs, eb, ob->args, cb->args,
			   cb->nargs, ob);
		hset ma = A->iso ? ea : hs_or(ea, eb);
		hset mb = A->iso ? eb : hs_or(ea, eb);
		if (!heaps_equal(h, A, ca->objs, ca->nobjs, ma, B, cb->objs,
				 cb->nobjs, mb, oa, why)) {
			sb_printf(why, " at call %u", k);
			if (at_call)
				*at_call = k;
			return true;
		}
	}
	/* Past the calls both make, one run's elidable call. */
	if (removable(A, nc) || removable(B, nc)) {
		*elided = true;
		return false;
	}
	/* Undefined behaviour (docs/semantics.md): once ORIG is undefined,
	 * only the calls it made before count; OPT undefined where ORIG is
	 * not is a divergence. */
	if (ra->outcome == INTERP_UNDEFINED) {
		if (rb->ncalls >= ra->ncalls)
			return false;
		sb_printf(why,
			  "the original makes %u calls before its undefined "
			  "op %u, the optimized %u",
			  ra->ncalls, ra->stop_op, rb->ncalls);
		return true;
	}
	if (rb->outcome == INTERP_UNDEFINED) {
		sb_printf(why,
			  "the optimized trace is undefined at op %u (a "
			  "NULL access), the original is not",
			  rb->stop_op);
		return true;
	}
	if (ra->ncalls != rb->ncalls) {
		sb_printf(why, "the original makes %u calls, the optimized %u",
			  ra->ncalls, rb->ncalls);
		return true;
	}
	bool fa = ra->outcome == INTERP_GUARD_FAIL;
	bool fb = rb->outcome == INTERP_GUARD_FAIL;
	if (fa != fb) {
		sb_puts(why,
			fa ? "the original leaves at a guard, the optimized "
			     "reaches its end"
			   : "the optimized leaves at a guard, the original "
			     "reaches its end");
		return true;
	}
	const ir_op *sa = &A->t->ops[ra->stop_op],
		    *sb_ = &B->t->ops[rb->stop_op];
	if (fa && !same_guard(h, A, ra->stop_op, B, rb->stop_op)) {
		sb_printf(why, "they leave at different guards (%s, %s)",
			  ir_guard_label(A->t, ra->stop_op),
			  ir_guard_label(B->t, rb->stop_op));
		return true;
	}
	/* What the world sees last: the failing guard's fail-args, or the
	 * end's arguments. */
	const ir_vid *va = fa ? sa->failargs : sa->args;
	const ir_vid *vb = fa ? sb_->failargs : sb_->args;
	uint32_t na = fa ? sa->nfail : sa->nargs;
	uint32_t nb = fa ? sb_->nfail : sb_->nargs;
	if ((!fa && sa->opc != sb_->opc) || na != nb ||
	    !values_equal(A, va, ra->out, B, vb, rb->out, na)) {
		sb_puts(why, fa ? "the fail-args differ"
				: "the ends or outputs differ");
		return true;
	}
	hset ma = reach(A, ra->objs, ra->nobjs, ea, va, ra->out, na, NULL);
	hset mb = reach(B, rb->objs, rb->nobjs, eb, vb, rb->out, nb, NULL);
	if (!A->iso) /* one identity space: what either run's world reached */
		ma = mb = hs_or(ma, mb);
	if (!heaps_equal(h, A, ra->objs, ra->nobjs, ma, B, rb->objs, rb->nobjs,
			 mb, NULL, why)) {
		sb_puts(why, fa ? " when the guard fails" : " at the end");
		return true;
	}
	return false;
}

/* Whether map M pairs every identity it pairs with itself (the model's
 * own pairing, as far as the runs went). */
static bool identity_map(const hiso *m)
{
	for (uint32_t x = 0; x < HP_MAXID; x++)
		if (m->a2b[x] != HP_NONE && m->a2b[x] != x)
			return false;
	return true;
}

/* See heap_int.h: under the model's pairing, then under the map. */
bool hp_runs_diverge(const hp *h, const hrun *A, const hrun *B, strbuf *why,
		     uint32_t *at_call, bool *pairing_only, uint32_t *a2b,
		     bool *elided)
{
	strbuf w;
	sb_init(&w);
	bool el = false;
	bool d = diverges_run(h, A, B, &w, at_call, &el);
	if (elided)
		*elided = el;
	if (pairing_only)
		*pairing_only = false;
	if (d) {
		hiso m;
		memset(&m, 0xff, sizeof m); /* HP_NONE everywhere */
		m.grew = false;
		hrun a = *A, b = *B;
		a.iso = b.iso = &m;
		strbuf w2;
		sb_init(&w2);
		d = diverges_run(h, &a, &b, &w2, NULL, &el);
		sb_release(&w2);
		/* The world's writes into fresh objects and the fresh objects
		 * calls return are the model's, per identity (heap_replay.c).
		 * Under a map that pairs two identities the model kept apart,
		 * the two runs' worlds answered alike-looking heaps
		 * differently: no world does that, so the difference confirms
		 * nothing; the map is a hint for the next try. */
		if (d && !el && !identity_map(&m))
			d = false;
		if (pairing_only)
			*pairing_only = !d && !el;
		if (elided)
			*elided = el;
		if (!d && !el && a2b)
			memcpy(a2b, m.a2b, sizeof m.a2b);
	}
	if (d && w.buf)
		sb_puts(why, w.buf);
	sb_release(&w);
	return d;
}

/* ---- the concrete comparison without the solver -------------------------
 */

jp_status hp_run_diverges(const ir_trace *orig, const ir_trace *opt,
			  const interp_env *env, bool *div, strbuf *why,
			  jp_err *err)
{
	*div = false;
	hp *h = calloc(1, sizeof *h);
	if (!h)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	h->o = orig;
	h->p = opt;
	h->w = orig->width;
	h->err = err;
	uint32_t cap = 2 * (orig->nops + opt->nops) + 2;
	h->f = calloc(cap, sizeof *h->f);
	h->cls = calloc(cap, sizeof *h->cls);
	jp_status st = h->f && h->cls && hp_trace_alloc(h, &h->ho, orig) &&
			       hp_trace_alloc(h, &h->hpp, opt)
			   ? JP_OK
			   : jp_fail(err, JP_ENOMEM, "out of memory");
	if (!st)
		st = hp_scan_fields(h, orig);
	if (!st)
		st = hp_scan_fields(h, opt);
	if (!st)
		st = hp_scan_idents(h);
	interp_result ro, rp;
	memset(&ro, 0, sizeof ro);
	memset(&rp, 0, sizeof rp);
	if (!st)
		st = interp_run(orig, env, &ro, err);
	if (!st)
		st = interp_run(opt, env, &rp, err);
	/* A string copy too long to run stopped a run: nothing to
	 * compare. */
	if (!st && !ro.too_long && !rp.too_long) {
		hrun A = {orig, &h->ho, &ro, env, NULL},
		     B = {opt, &h->hpp, &rp, env, NULL};
		*div = hp_runs_diverge(h, &A, &B, why, NULL, NULL, NULL, NULL);
	}
	interp_result_free(&ro);
	interp_result_free(&rp);
	hp_trace_free(&h->ho);
	hp_trace_free(&h->hpp);
	free(h->f);
	free(h->cls);
	free(h);
	return st;
}
