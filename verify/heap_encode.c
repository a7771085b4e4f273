/*
 * heap_encode.c - one trace in the heap model: heap states as lists of
 * writes, the encoding of guards, heap ops and calls, and the heap
 * terms the obligations compare (heap_obl.c; heap.h has the model).
 *
 * Map: encoding one trace; heap states.  Comparing heap states is in
 * heap_neq.c.
 */
#include "heap_int.h"

/* ---- heap states ----------------------------------------------------------
 */

static uint32_t fresh_ident_of(const hp *h, Z3_ast a)
{
	for (uint32_t x = 0; x < h->nid; x++)
		if (h->id[x].addr == a)
			return x;
	return HP_NONE;
}

static bool is_input_or_null(const hp *h, Z3_ast a)
{
	uint64_t v;
	if (zc_numeral(h->z, a, &v))
		return v == 0;
	for (uint32_t i = 0; i < h->o->ninputs; i++)
		if (h->vars[i] == a && is_ref(h->o, h->o->inputs[i]))
			return true;
	for (uint32_t i = 0; i < h->ncp; i++)
		if (h->cp[i].addr == a)
			return true;
	return false;
}

/* ---- what a reference may be ----------------------------------------------
 *
 * The points-to facts (htrace.pts, .other; heap_escape.c) say which fresh
 * identities a reference value may be in a run of its trace: those of
 * pts, and when it may be an object that is not fresh also every fresh
 * object that had escaped when it was made (the world hands back only
 * those).  The table keeps that set per term, the union when a term is
 * the value of several references (each statement holds of the term's
 * one value).  A read then skips a write whose address is fresh identity
 * X when the read's address may not be X, and likewise a write through
 * such an address when the read is of X: the two cells differ in every
 * run, and the chains lose the if-then-else per identity that every
 * call's havoc and every allocation add (docs/trust.md, "What a
 * reference may be"). */

static uint32_t may_slot(const hp *h, Z3_ast t)
{
	uint32_t i = (uint32_t)(((uintptr_t)t >> 4) * 2654435761u);
	for (i &= h->maycap - 1; h->maytab[i].t && h->maytab[i].t != t;
	     i = (i + 1) & (h->maycap - 1))
		;
	return i;
}

static bool may_grow(hp *h)
{
	uint32_t cap = h->maycap ? 2 * h->maycap : 256;
	struct hmayent *old = h->maytab;
	uint32_t ocap = h->maycap;
	h->maytab = calloc(cap, sizeof *h->maytab);
	if (!h->maytab) {
		h->maytab = old;
		return false;
	}
	h->maycap = cap;
	for (uint32_t i = 0; i < ocap; i++)
		if (old[i].t)
			h->maytab[may_slot(h, old[i].t)] = old[i];
	free(old);
	return true;
}

/* States that the term T (a reference's value) is in every run NULL, an
 * object that is not fresh, or an identity of MAY. */
static void may_note(hp *h, Z3_ast t, hset may)
{
	if (2 * (h->mayn + 1) > h->maycap && !may_grow(h)) {
		h->S.failed = true; /* out of memory: unknown */
		return;
	}
	uint32_t i = may_slot(h, t);
	if (h->maytab[i].t) {
		h->maytab[i].may = hs_or(h->maytab[i].may, may);
		return;
	}
	h->maytab[i] = (struct hmayent){t, may};
	h->mayn++;
}

/* Records what reference V of E may be, when the op that made it set its
 * facts. */
static void note_facts(hp *h, htrace *e, ir_vid v)
{
	if (v == IR_NOVAL || !is_ref(e->t, v))
		return;
	e->taint |= !e->facts[v];
	if (e->taint || !e->val[v])
		return;
	hset may = e->pts[v];
	if (e->other[v])
		may = hs_or(may, e->esc);
	may_note(h, e->val[v], may);
}

static haddr addr_info(const hp *h, Z3_ast a)
{
	haddr r = {fresh_ident_of(h, a), false, hs_none()};
	if (r.fresh != HP_NONE) {
		r.known = true;
		r.may = hs_one(r.fresh);
	} else if (h->maycap) {
		const struct hmayent *m = &h->maytab[may_slot(h, a)];
		r.known = m->t == a;
		r.may = m->may;
	}
	return r;
}

/* Whether the addresses A and B (AI, BI: what addr_info says of them)
 * differ in every run: one is a fresh identity the other may not be (the
 * facts; two fresh objects among them), or a fresh object and NULL or an
 * input reference (the background constraints).  Only a shortcut that
 * keeps the read terms small; anything else is left to the solver. */
static bool addrs_apart(const hp *h, Z3_ast a, haddr ai, Z3_ast b, haddr bi)
{
	if (a == b)
		return false;
	if ((ai.fresh != HP_NONE && bi.known && !hs_has(bi.may, ai.fresh)) ||
	    (bi.fresh != HP_NONE && ai.known && !hs_has(ai.may, bi.fresh)))
		return true;
	if (ai.fresh != HP_NONE)
		return is_input_or_null(h, b);
	if (bi.fresh != HP_NONE)
		return is_input_or_null(h, a);
	return false;
}

/* Puts the write N (its next set here) on top of M. */
static hmem mem_push(hp *h, hmem m, hnode n)
{
	hnode *p = arena_alloc(&h->nodes, sizeof *p);
	if (!p) {
		h->S.failed = true;
		return m;
	}
	n.ai = addr_info(h, n.addr);
	n.next = m.w;
	*p = n;
	m.w = p;
	return m;
}

static hmem mem_write(hp *h, hmem m, Z3_ast cond, Z3_ast addr, Z3_ast val)
{
	return mem_push(h, m, (hnode){.cond = cond, .addr = addr, .val = val});
}

/* An item write: the cell (ADDR, IDX) becomes VAL. */
static hmem mem_write_item(hp *h, hmem m, Z3_ast addr, Z3_ast idx, Z3_ast val)
{
	return mem_push(h, m, (hnode){.addr = addr, .idx = idx, .val = val});
}

/* Every item of the object at ADDR keeps its value in FROM. */
static hmem mem_copy(hp *h, hmem m, Z3_ast addr, hmem from)
{
	return mem_push(
	    h, m,
	    (hnode){
		.addr = addr, .copy = true, .fbase = from.base, .fw = from.w});
}

/* Items LO + k (k <u LEN, index words) of the object at ADDR take the
 * values of SRC's items SLO + k in FROM (a string copy). */
static hmem mem_copy_range(hp *h, hmem m, Z3_ast addr, Z3_ast lo, Z3_ast len,
			   Z3_ast src, Z3_ast slo, hmem from)
{
	return mem_push(h, m,
			(hnode){.addr = addr,
				.lo = lo,
				.len = len,
				.src = src,
				.slo = slo,
				.fbase = from.base,
				.fw = from.w});
}

/* The cell key of (J, JI): the address, or address and index word. */
static Z3_ast cell_key(hp *h, Z3_ast j, Z3_ast ji)
{
	return ji ? K(h, Z3_mk_concat(h->z, j, ji)) : j;
}

static bool idx_distinct(hp *h, Z3_ast a, Z3_ast b)
{
	uint64_t x, y;
	return a && b && a != b && zc_numeral(h->z, a, &x) &&
	       zc_numeral(h->z, b, &y) && x != y;
}

static Z3_ast read_from(hp *h, Z3_ast base, const hnode *w, Z3_ast j,
			Z3_ast ji);

/* What the string copy W gives item JI of its object: the source item it
 * copies, read in the state before the copy, where *WHEN holds (NULL:
 * wherever W applies; JI is then known to be copied).  *SKIP when JI is
 * known not to be copied. */
static Z3_ast range_value(hp *h, const hnode *w, Z3_ast ji, Z3_ast *when,
			  bool *skip)
{
	Z3_context z = h->z;
	uint64_t a, b, n, s;
	/* Numerals fold here, so that a copy at known indices reads the
	 * source's item by its own index term, whatever the context's
	 * rewriter would make of the sums. */
	bool known = zc_numeral(z, ji, &a) && zc_numeral(z, w->lo, &b);
	bool inside = known && zc_numeral(z, w->len, &n);
	*skip = inside && a - b >= n;
	*when = NULL;
	if (*skip)
		return NULL;
	Z3_ast k = known ? zc_bv(&h->S, 64, a - b)
			 : enc_binop(&h->S, 64, IR_INT_SUB, ji, w->lo);
	if (!inside)
		*when = K(h, Z3_mk_bvult(z, k, w->len));
	Z3_ast at = known && zc_numeral(z, w->slo, &s)
			? zc_bv(&h->S, 64, s + (a - b))
			: enc_binop(&h->S, 64, IR_INT_ADD, w->slo, k);
	return read_from(h, w->fbase, w->fw, w->src, at);
}

/* The value of the cell (J, JI) (JI NULL for a plain field) after the
 * writes W over BASE; JA is addr_info of J, asked once per read. */
static Z3_ast read_at(hp *h, Z3_ast base, const hnode *w, Z3_ast j, Z3_ast ji,
		      haddr ja)
{
	while (w && (addrs_apart(h, w->addr, w->ai, j, ja) ||
		     idx_distinct(h, w->idx, ji)))
		w = w->next;
	if (!w)
		return K(h, Z3_mk_select(h->z, base, cell_key(h, j, ji)));
	/* A copy is read at its own address: equal to J where it applies,
	 * and it keeps the reads of other fresh objects out of the chain. */
	Z3_ast when = w->cond, wv;
	bool skip = false;
	if (w->len)
		wv = range_value(h, w, ji, &when, &skip);
	else
		wv = w->copy ? read_from(h, w->fbase, w->fw, w->addr, ji)
			     : w->val;
	if (skip)
		return read_at(h, base, w->next, j, ji, ja);
	if (w->addr == j && (!w->idx || w->idx == ji) && !when)
		return wv;
	Z3_ast rest = read_at(h, base, w->next, j, ji, ja);
	if (rest == wv)
		return rest;
	Z3_ast c[3];
	unsigned n = 0;
	if (when)
		c[n++] = when;
	if (w->addr != j)
		c[n++] = K(h, Z3_mk_eq(h->z, w->addr, j));
	if (w->idx && w->idx != ji)
		c[n++] = K(h, Z3_mk_eq(h->z, w->idx, ji));
	Z3_ast cc = n == 1 ? c[0] : K(h, Z3_mk_and(h->z, n, c));
	return K(h, Z3_mk_ite(h->z, cc, wv, rest));
}

static Z3_ast read_from(hp *h, Z3_ast base, const hnode *w, Z3_ast j, Z3_ast ji)
{
	return read_at(h, base, w, j, ji, addr_info(h, j));
}

static Z3_ast mem_read(hp *h, hmem m, Z3_ast j)
{
	return read_from(h, m.base, m.w, j, NULL);
}

static Z3_ast mem_read_item(hp *h, hmem m, Z3_ast j, Z3_ast ji)
{
	return read_from(h, m.base, m.w, j, ji);
}

Z3_ast hp_read_from(hp *h, Z3_ast base, const hnode *w, Z3_ast j, Z3_ast ji)
{
	return read_from(h, base, w, j, ji);
}

Z3_ast hp_mem_read_item(hp *h, hmem m, Z3_ast j, Z3_ast ji)
{
	return mem_read_item(h, m, j, ji);
}

/* ---- encoding one trace -------------------------------------------------- */

/* The current arrays with the slots of identities outside MASK set to 0. */
static void normalize(hp *h, const htrace *e, hset mask, hmem *out)
{
	for (uint32_t f = 0; f < h->nf; f++) {
		hmem a = e->cur[f];
		Z3_ast zero =
		    zc_bv(&h->S, Z3_get_bv_sort_size(h->z, h->f[f].range), 0);
		for (uint32_t x = 0; x < h->nid; x++)
			if (!hs_has(mask, x))
				a = mem_write(h, a, NULL, h->id[x].addr, zero);
		out[f] = a;
	}
}

/* The class number of the object at T: fresh objects of this trace by
 * their type, others through the type function. */
static Z3_ast type_of(hp *h, const htrace *e, uint32_t upto, Z3_ast t)
{
	Z3_ast ty = K(h, Z3_mk_app(h->z, h->tyfun, 1, &t));
	haddr ta = addr_info(h, t);
	for (uint32_t i = 0; i < upto; i++) {
		uint32_t x = e->ident[i];
		if (x == HP_NONE || (ta.known && !hs_has(ta.may, x)))
			continue;
		Z3_ast is = K(h, Z3_mk_eq(h->z, t, h->id[x].addr));
		ty = K(h, Z3_mk_ite(h->z, is, h->id[x].clsv, ty));
	}
	return ty;
}

static Z3_ast is_null(hp *h, Z3_ast t)
{
	return K(h, Z3_mk_eq(h->z, t, zc_bv(&h->S, 64, 0)));
}

/* Encodes op I of E, an op of the integer encoder, its way (encode.h:
 * folding, canonical forms, the Boolean behind a comparison), so that the
 * heap model's integer terms are the integer verifier's. */
static jp_status enc_int_op(hp *h, htrace *e, uint32_t i)
{
	enc_trace v = {.t = e->t,
		       .w = h->w,
		       .val = e->val,
		       .bval = e->bval,
		       .ovf = e->ovf,
		       .pass = e->pass};
	return enc_trace_op(&h->S, &v, i, h->err);
}

static jp_status enc_guard_op(hp *h, htrace *e, uint32_t i, const Z3_ast *a)
{
	const ir_trace *t = e->t;
	const ir_op *op = &t->ops[i];
	if (op->opc == IR_GUARD_CLASS) {
		uint32_t c = hp_class_index(h, ir_valname(t, op->args[1]));
		if (fresh_ident_of(h, a[0]) == HP_NONE)
			e->nn[i] = K(h, Z3_mk_not(h->z, is_null(h, a[0])));
		Z3_ast parts[2] = {K(h, Z3_mk_not(h->z, is_null(h, a[0]))),
				   K(h, Z3_mk_eq(h->z, type_of(h, e, i, a[0]),
						 zc_bv(&h->S, 16, c)))};
		e->pass[i] = K(h, Z3_mk_and(h->z, 2, parts));
	} else {
		jp_status st = enc_int_op(h, e, i);
		if (st)
			return st;
	}
	hset m = hp_with_pending(e);
	m = hp_escape_list(e, m, op->failargs, op->nfail);
	e->geso[i] = m;
	normalize(h, e, m, &e->gheap[(size_t)i * h->nf]);
	return JP_OK;
}

/* Op I of E is defined only where C holds too (its nn: assumed of ORIG,
 * an obligation of OPT). */
static void defined_where(hp *h, htrace *e, uint32_t i, Z3_ast c)
{
	if (e->nn[i]) {
		Z3_ast both[2] = {e->nn[i], c};
		c = K(h, Z3_mk_and(h->z, 2, both));
	}
	e->nn[i] = c;
}

static void enc_call(hp *h, htrace *e, uint32_t i)
{
	const ir_op *op = &e->t->ops[i];
	uint32_t k = e->ncalls++;
	e->callop[k] = i;
	hp_flush_pending(h, e, op);
	e->esc = hp_escape_list_at(h, e, e->esc, op->args, op->nargs,
				   ir_py_seen_descr(e->t, op));
	e->callesc[k] = e->esc;
	/* The call may store into an escaped object anything the world
	 * holds: objects that are not fresh and escaped fresh ones. */
	for (uint32_t x = 0; x < h->nid; x++)
		if (hs_has(e->esc, x))
			for (uint32_t f = 0; f < h->nf; f++)
				hp_cont_add(e, (size_t)x * h->nf + f, e->esc,
					    true);
	normalize(h, e, e->esc, &e->cheap[(size_t)k * h->nf]);
	const char *cd = op->descr ? ir_strtext(e->t, op->descr) : NULL;
	for (uint32_t f = 0; f < h->nf; f++) {
		if (h->f[f].immut)
			continue; /* a length: no call changes it */
		if (ir_py_call_keeps(ir_op_name(e->t, op), cd, h->f[f].name))
			continue; /* the descr says the call keeps it */
		if (h->f[f].immutable) {
			/* An immutable field or a string's characters
			 * (docs/pypy.md): the call may set them only in
			 * escaped fresh objects (their construction may end
			 * in it); elsewhere they keep their values. */
			hmem a = e->cur[f], hk = {h->hk[k * h->nf + f], NULL};
			for (uint32_t x = 0; x < h->nid; x++)
				if (hs_has(e->esc, x) &&
				    !hp_kept(h, e, x, f, k))
					a = h->f[f].indexed
						? mem_copy(h, a, h->id[x].addr,
							   hk)
						: mem_write(
						      h, a, NULL, h->id[x].addr,
						      mem_read(h, hk,
							       h->id[x].addr));
			e->cur[f] = a;
			continue;
		}
		hmem a = {h->hk[k * h->nf + f], NULL};
		for (uint32_t x = 0; x < h->nid; x++)
			if (!hs_has(e->esc, x))
				a = h->f[f].indexed
					? mem_copy(h, a, h->id[x].addr,
						   e->cur[f])
					: mem_write(h, a, NULL, h->id[x].addr,
						    mem_read(h, e->cur[f],
							     h->id[x].addr));
		e->cur[f] = a;
	}
	if (op->result == IR_NOVAL)
		return;
	if (op->kind != 'r') {
		e->val[op->result] = h->rk[k];
		return;
	}
	/* A reference from the world: NULL, an object that is not fresh,
	 * or a fresh object the world can reach at the call -- one address
	 * per call shared by both traces, so the same choice names the
	 * paired object in the other trace; hp_call_results restricts it to
	 * the identities escaped at the call in both traces.  As a value
	 * that may be any escaped object it is OTHER (store_facts), which
	 * already stands for "not fresh, or any escaped fresh object". */
	e->val[op->result] = h->rkr[k];
	e->pts[op->result] = hs_none();
	e->other[op->result] = true;
	e->facts[op->result] = true;
	/* A string helper's string (ir_py_returns_string) is not NULL: the
	 * original is defined where it is not; OPT's is not assumed. */
	if (e == &h->ho && ir_py_returns_string(e->t, op))
		defined_where(h, e, i,
			      K(h, Z3_mk_not(h->z, is_null(h, h->rkr[k]))));
}

Z3_ast hp_pure_app(hp *h, const htrace *e, uint32_t i)
{
	const ir_trace *t = e->t;
	const ir_op *op = &t->ops[i];
	Z3_context z = h->z;
	uint32_t first;
	const char *fn = ir_pycall_fn(t, op, &first);
	uint32_t n = op->nargs - first;
	ir_pycall pc = ir_pycall_of(t, op);
	Z3_sort *dom = calloc(n + 1, sizeof *dom);
	Z3_ast *args = calloc(n + 1, sizeof *args);
	Z3_ast r = NULL;
	strbuf sb;
	sb_init(&sb);
	sb_printf(&sb, "%s:%s/%c%u",
		  pc == IR_PYCALL_PURE	   ? "pure"
		  : pc == IR_PYCALL_CACHED ? "cached"
					   : "loopinvariant",
		  fn, op->kind, n);
	if (!dom || !args || !sb.buf) {
		h->S.failed = true;
		goto out;
	}
	/* A reference argument is a 64-bit address whatever the width. */
	for (uint32_t j = 0; j < n; j++) {
		args[j] = e->val[op->args[j + first]];
		dom[j] = Z3_get_sort(z, args[j]);
	}
	Z3_sort range = zc_bv_sort(z, op->kind == 'r' ? 64 : (unsigned)h->w);
	Z3_func_decl f =
	    Z3_mk_func_decl(z, Z3_mk_string_symbol(z, sb.buf), n, dom, range);
	Z3_inc_ref(z, Z3_func_decl_to_ast(z, f));
	r = K(h, Z3_mk_app(z, f, n, args));
	Z3_dec_ref(z, Z3_func_decl_to_ast(z, f));
out:
	sb_release(&sb);
	free(dom);
	free(args);
	return r;
}

/* A cached hash (IR_PYCALL_CACHED): the cache V when it is not 0, else
 * F.  The original is defined where V is 0 or F: PyPy's optimizer takes
 * the op as a pure call of F whatever V is (pure.py), which holds only
 * when the cache never holds another value.  OPT's V is not assumed: an
 * optimizer that hands the op something else is caught. */
static void enc_cached(hp *h, htrace *e, uint32_t i, Z3_ast fx)
{
	const ir_op *op = &e->t->ops[i];
	Z3_context z = h->z;
	Z3_ast v = e->val[op->args[0]];
	Z3_ast zero =
	    zc_bv(&h->S, Z3_get_bv_sort_size(z, Z3_get_sort(z, v)), 0);
	Z3_ast is0 = K(h, Z3_mk_eq(z, v, zero));
	e->val[op->result] = K(h, Z3_mk_ite(z, is0, fx, v));
	if (e == &h->ho) {
		Z3_ast ok[2] = {is0, K(h, Z3_mk_eq(z, v, fx))};
		defined_where(h, e, i, K(h, Z3_mk_or(z, 2, ok)));
	}
}

/* A call PyPy's descr makes a function of its arguments (ir_pycall_of):
 * the application of an uninterpreted function, one per function name,
 * kind and arity, shared by both traces, to the arguments after the
 * function (hp_pure_app); no event, no effect on the heap.  A
 * loop-invariant reference or the frame (force_token) is recorded for
 * hp_li_facts.  A guard_no_exception after a cached hash passes. */
static void enc_pure(hp *h, htrace *e, uint32_t i)
{
	const ir_trace *t = e->t;
	const ir_op *op = &t->ops[i];
	ir_pycall pc = ir_pycall_of(t, op);
	if (pc == IR_PYCALL_NOEXC)
		return;
	Z3_ast fx = hp_pure_app(h, e, i);
	if (!fx)
		return;
	if (pc == IR_PYCALL_CACHED) {
		enc_cached(h, e, i, fx);
		return;
	}
	e->val[op->result] = fx;
	if (op->kind == 'r') {
		e->pts[op->result] = hs_none();
		e->other[op->result] = true;
		e->facts[op->result] = true;
		h->li_val[h->nli] = e->val[op->result];
		/* The JIT frame exists before the trace runs, and so does
		 * the thread's ExecutionContext that threadlocalref_get
		 * reads (OS_THREADLOCALREF_GET = 5; PyPy's one thread-local
		 * reference, pypy/module/thread/threadlocals.py, is set when
		 * the thread starts or is attached, before any of its frames
		 * runs, and only re-set to the same context after a fork). */
		h->li_clean[h->nli++] =
		    !hs_any(e->esc) || pc == IR_PYCALL_FRAME ||
		    (op->descr && ir_py_oopspec(t->strs[op->descr]) == 5);
	}
}

jp_status hp_li_facts(hp *h)
{
	Z3_ast *c = calloc((size_t)h->nli * h->nid + 2, sizeof *c);
	if (!c)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	uint32_t n = 0;
	c[n++] = h->bg;
	jp_status st = JP_OK;
	for (uint32_t s = 0; s < h->nli && !st; s++) {
		bool clean = false;
		for (uint32_t u = 0; u < h->nli; u++)
			clean |= h->li_val[u] == h->li_val[s] && h->li_clean[u];
		if (!clean) {
			h->over_limit = true;
			st = jp_fail(h->err, JP_EUNSUPPORTED,
				     "a loop-invariant call returns a "
				     "reference, and in both traces its first "
				     "call comes after a fresh object escaped: "
				     "it could be that object, which the heap "
				     "model does not express");
			break;
		}
		for (uint32_t x = 0; x < h->nid; x++)
			c[n++] = K(
			    h, Z3_mk_not(h->z, K(h, Z3_mk_eq(h->z, h->li_val[s],
							     h->id[x].addr))));
	}
	if (!st)
		h->bg = K(h, Z3_mk_and(h->z, n, c));
	free(c);
	return st;
}

/* A W-bit integer as a field word (heap_model.c: one 64-bit word per
 * field), and back. */
static Z3_ast to_word(hp *h, Z3_ast v)
{
	unsigned n = Z3_get_bv_sort_size(h->z, Z3_get_sort(h->z, v));
	return n >= 64 ? v : K(h, Z3_mk_zero_ext(h->z, 64 - n, v));
}

static Z3_ast from_word(hp *h, Z3_ast v)
{
	return h->w >= 64 ? v
			  : K(h, Z3_mk_extract(h->z, (unsigned)h->w - 1, 0, v));
}

/* An integer item of field F read from the word W: its low bits,
 * extended, when F's items are narrower than a word (hfield.bits; the
 * interpreter's narrow_item). */
static Z3_ast narrow_item(hp *h, uint32_t f, Z3_ast w)
{
	unsigned bits = h->f[f].bits;
	if (!bits)
		return w;
	Z3_ast low = K(h, Z3_mk_extract(h->z, bits - 1, 0, w));
	return K(h, h->f[f].bits_signed ? Z3_mk_sign_ext(h->z, 64 - bits, low)
					: Z3_mk_zero_ext(h->z, 64 - bits, low));
}

/* The call whose havoc array field F's state in E is over now, or
 * HP_NONE for the initial array: the last call that did not keep F (its
 * descr, a length, an immutable field of an object that is not fresh),
 * which is where a load's value comes from when no write of the trace
 * matches (hp_realism states what that cell can hold). */
static uint32_t base_call(const hp *h, const htrace *e, uint32_t f)
{
	for (uint32_t k = e->ncalls; k-- > 0;)
		if (h->hk[k * h->nf + f] == e->cur[f].base)
			return k;
	return HP_NONE;
}

/* Adds CELL to the cells hp_realism states something of (once). */
static void add_cell(hp *h, Z3_ast cell, bool nonnull)
{
	for (uint32_t i = 0; i < h->ncells; i++)
		if (h->cells[i].cell == cell && h->cells[i].nonnull == nonnull)
			return;
	if (h->ncells == h->capcells) {
		uint32_t cap = h->capcells ? 2 * h->capcells : 16;
		hcellfact *v = realloc(h->cells, cap * sizeof *v);
		if (!v) {
			h->S.failed = true; /* out of memory: unknown */
			return;
		}
		h->cells = v;
		h->capcells = cap;
	}
	h->cells[h->ncells++] = (hcellfact){cell, nonnull};
}

/* Whether the original T dereferences R (a field or item access, a
 * guard_class, a string helper's argument) and nowhere tests it against
 * NULL or another reference. */
static bool deref_unchecked(const ir_trace *t, ir_vid r)
{
	bool deref = false;
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		for (uint32_t j = 0; j < op->nargs; j++) {
			if (op->args[j] != r)
				continue;
			switch (op->opc) {
			case IR_GETFIELD_GC_I:
			case IR_GETFIELD_GC_R:
			case IR_GETARRAYITEM_GC_I:
			case IR_GETARRAYITEM_GC_R:
			case IR_SETFIELD_GC:
			case IR_SETARRAYITEM_GC:
			case IR_GUARD_CLASS: deref |= j == 0; break;
			case IR_GUARD_NONNULL:
			case IR_GUARD_ISNULL:
			case IR_GUARD_VALUE:
			case IR_PTR_EQ:
			case IR_PTR_NE: return false;
			default: deref |= ir_py_needs_nonnull(t, op, j); break;
			}
		}
	}
	return deref;
}

/* An immutable reference field of an object that is not fresh, read
 * through ADDR by the original, which dereferences the value with no test
 * of its own (deref_unchecked), is not NULL from the start: PyPy's
 * interpreter is RPython, whose annotator gives such a field a type
 * without None (the unicode object's utf8 string) -- a field that may be
 * None is tested before use.  No call changes an immutable field of an
 * object that is not fresh, so its initial cell holds the value.  PyPy's
 * optimizer hoists such reads and the length read behind them above
 * calls (glob_match); with NULL allowed there the hoisted access would be
 * a new NULL access. */
bool hp_nonnull_read(const ir_trace *t, uint32_t i)
{
	const ir_op *op = &t->ops[i];
	return op->opc == IR_GETFIELD_GC_R && op->descr &&
	       ir_py_field_immutable(t->strs[op->descr]) &&
	       deref_unchecked(t, op->result);
}

static void nonnull_field(hp *h, const htrace *e, uint32_t f, uint32_t i,
			  Z3_ast addr)
{
	if (e == &h->ho && hp_nonnull_read(e->t, i))
		add_cell(h, K(h, Z3_mk_select(h->z, h->f[f].h0, addr)), true);
}

/* A string or array length read through ADDR ("<str>.length",
 * "<unicode>.length": strlen, unicodelen; "<ArrayP 8>.length":
 * arraylen_gc) where no store of the trace matches comes from H0, where
 * no call changes it: its initial cell is one hp_realism states
 * non-negative (each cell once).  A real string or GC array has a length
 * >= 0, and PyPy's optimizer assumes it of every length it reads
 * (intbounds).  A fresh object's length is what the trace stored: its
 * cell of H0 is never read.  Array lengths were left out until session 26
 * for solver time (3.5 times slower on a list loop in session 21); with
 * today's encoding h4's flood_regions takes 33.7 s against 31.0 s, and
 * the tuple loops of h11 (tictactoe_minimax, anagram_groups), which test
 * 0 < len after len != 0, need it. */
static void nonneg_length(hp *h, uint32_t f, Z3_ast addr)
{
	const char *n = h->f[f].name;
	if (strncmp(n, "<str>", 5) && strncmp(n, "<unicode>", 9) &&
	    strncmp(n, "<Array", 6))
		return;
	add_cell(h, K(h, Z3_mk_select(h->z, h->f[f].h0, addr)), false);
}

/* Conditional call I of E (ir_py_cond_of) whose condition is the same
 * for every input: when it never calls it is no event (a
 * cond_call_value gives its first argument); when it always calls it is
 * the event of its plain call (ir_py_call_event; callplain).  False when
 * the condition depends on the input: the caller makes it the event of
 * the op itself, made whatever the condition -- both traces must then
 * make it alike, with the same condition, and the shared havoc of the
 * call includes leaving everything as it was. */
static bool enc_cond(hp *h, htrace *e, uint32_t i)
{
	const ir_op *op = &e->t->ops[i];
	ir_pycond cc = ir_py_cond_of(e->t, op);
	Z3_ast x = e->val[op->args[0]];
	Z3_ast zero =
	    zc_bv(&h->S, Z3_get_bv_sort_size(h->z, Z3_get_sort(h->z, x)), 0);
	Z3_ast calls = K(h, Z3_mk_eq(h->z, x, zero));
	if (cc == IR_PYCOND_CALL)
		calls = K(h, Z3_mk_not(h->z, calls));
	Z3_lbool v = Z3_get_bool_value(h->z, K(h, Z3_simplify(h->z, calls)));
	if (v == Z3_L_UNDEF || h->S.failed)
		return false;
	if (v == Z3_L_TRUE) {
		enc_call(h, e, i);
		e->callplain[e->ncalls - 1] = true;
		return true;
	}
	e->skipped = i;
	if (op->result != IR_NOVAL) {
		e->val[op->result] = x;
		e->pts[op->result] = e->pts[op->args[0]];
		e->other[op->result] = e->other[op->args[0]];
		e->facts[op->result] = e->facts[op->args[0]];
	}
	return true;
}

/* A string helper's string arguments must not be NULL
 * (ir_py_needs_nonnull): the op is defined where none is.  A helper may
 * take more arguments than the three hp_enc_one gathers (str_eq_slice
 * takes five, its second string last), so each is read from E. */
static void string_args_nonnull(hp *h, htrace *e, uint32_t i)
{
	const ir_trace *t = e->t;
	const ir_op *op = &t->ops[i];
	for (uint32_t j = 0; j < op->nargs; j++) {
		Z3_ast aj = e->val[op->args[j]];
		if (!ir_py_needs_nonnull(t, op, j) ||
		    fresh_ident_of(h, aj) != HP_NONE)
			continue;
		defined_where(h, e, i, K(h, Z3_mk_not(h->z, is_null(h, aj))));
	}
}

/* A string copy (IR_PYCALL_STRCOPY, width 64: hp_supported): the copied
 * items of the destination read the source's in the state before it
 * (mem_copy_range).  Defined where neither string is NULL and the length
 * is not negative.  Chars hold no reference: nothing escapes. */
static void enc_str_copy(hp *h, htrace *e, uint32_t i)
{
	const ir_trace *t = e->t;
	const ir_op *op = &t->ops[i];
	Z3_context z = h->z;
	uint32_t f = hp_field_index(h, ir_py_str_copy(t, op));
	Z3_ast v[5];
	for (uint32_t j = 0; j < 5; j++)
		v[j] = e->val[op->args[j]];
	if (f == HP_NONE) {
		h->S.failed = true;
		return;
	}
	for (uint32_t j = 0; j < 2; j++)
		if (fresh_ident_of(h, v[j]) == HP_NONE)
			defined_where(h, e, i,
				      K(h, Z3_mk_not(z, is_null(h, v[j]))));
	defined_where(h, e, i, K(h, Z3_mk_bvsge(z, v[4], zc_bv(&h->S, 64, 0))));
	e->cur[f] = mem_copy_range(h, e->cur[f], v[1], v[3], v[4], v[0], v[2],
				   e->cur[f]);
}

/* A force_virtualizable (ir_py_clears_vable) of the frame, argument FI
 * of op I, under argument CI (UINT32_MAX: always): no event; where it
 * calls, the frame's vable_token fields become NULL, and it is defined
 * where the frame is not NULL.  The contents facts need nothing: NULL is
 * no fresh object. */
static void enc_clear_vable(hp *h, htrace *e, uint32_t i, uint32_t fi,
			    uint32_t ci)
{
	const ir_op *op = &e->t->ops[i];
	Z3_context z = h->z;
	Z3_ast x = e->val[op->args[fi]], calls = NULL;
	if (ci != UINT32_MAX) {
		Z3_ast c = e->val[op->args[ci]];
		Z3_ast zero =
		    zc_bv(&h->S, Z3_get_bv_sort_size(z, Z3_get_sort(z, c)), 0);
		calls = K(h, Z3_mk_not(z, K(h, Z3_mk_eq(z, c, zero))));
	}
	if (fresh_ident_of(h, x) == HP_NONE) {
		Z3_ast nn = K(h, Z3_mk_not(z, is_null(h, x)));
		Z3_ast v[2] = {calls ? K(h, Z3_mk_not(z, calls)) : NULL, nn};
		defined_where(h, e, i, calls ? K(h, Z3_mk_or(z, 2, v)) : nn);
	}
	for (uint32_t f = 0; f < h->nf; f++)
		if (!h->f[f].indexed && ir_py_is_vable_token(h->f[f].name))
			e->cur[f] = mem_write(h, e->cur[f], calls, x,
					      zc_bv(&h->S, 64, 0));
}

static void enc_heap_op(hp *h, htrace *e, uint32_t i, const Z3_ast *a)
{
	const ir_trace *t = e->t;
	const ir_op *op = &t->ops[i];
	Z3_context z = h->z;
	uint32_t f = op->opc == IR_NEW || op->opc == IR_NEW_WITH_VTABLE
			 ? HP_NONE
			 : hp_field_index(h, t->strs[op->descr]);
	/* A field access through NULL is undefined: the op is defined where
	 * NN holds, and its effect elsewhere does not matter (ORIG is
	 * assumed defined, OPT's accesses are obligations). */
	if (f != HP_NONE && fresh_ident_of(h, a[0]) == HP_NONE)
		e->nn[i] = K(h, Z3_mk_not(z, is_null(h, a[0])));
	switch (op->opc) {
	case IR_NEW:
	case IR_NEW_WITH_VTABLE: {
		uint32_t x = e->ident[i];
		e->val[op->result] = h->id[x].addr;
		e->pts[op->result] = hs_one(x);
		e->facts[op->result] = true;
		for (uint32_t g = 0; g < h->nf; g++)
			e->cur[g] = mem_write(h, e->cur[g], NULL, h->id[x].addr,
					      zc_bv(&h->S, 64, 0));
		return;
	}
	case IR_GETFIELD_GC_I:
	case IR_GETFIELD_GC_R: {
		Z3_ast sel = mem_read(h, e->cur[f], a[0]);
		e->val[op->result] =
		    op->opc == IR_GETFIELD_GC_I ? from_word(h, sel) : sel;
		if (h->f[f].immut)
			nonneg_length(h, f, a[0]);
		nonnull_field(h, e, f, i, a[0]);
		hp_load_facts(e, f, op->args[0], op->result);
		e->facts[op->result] = e->facts[op->args[0]];
		if (op->opc == IR_GETFIELD_GC_R) {
			hp_note_read(e, i, f);
			/* No call changes an immutable field of an object
			 * that is not fresh: it holds its initial value. */
			e->lf[e->nloads] = f;
			e->lk[e->nloads] = base_call(h, e, f);
			e->lobj[e->nloads++] = a[0];
		}
		return;
	}
	case IR_SETFIELD_GC: {
		Z3_ast v = is_ref(t, op->args[1]) ? a[1] : to_word(h, a[1]);
		e->cur[f] = mem_write(h, e->cur[f], NULL, a[0], v);
		hp_mark_built(e, f, op->args[0]);
		if (is_ref(t, op->args[1])) {
			hp_store_facts(e, f, op->args[0], op->args[1], false,
				       IR_NOVAL);
			hp_store_back(e, i, f);
		}
		return;
	}
	case IR_GETARRAYITEM_GC_I:
	case IR_GETARRAYITEM_GC_R: {
		Z3_ast ji = to_word(h, a[1]);
		Z3_ast sel = mem_read_item(h, e->cur[f], a[0], ji);
		e->val[op->result] = op->opc == IR_GETARRAYITEM_GC_I
					 ? from_word(h, narrow_item(h, f, sel))
					 : sel;
		hp_load_facts(e, f, op->args[0], op->result);
		e->facts[op->result] = e->facts[op->args[0]];
		if (op->opc == IR_GETARRAYITEM_GC_R) {
			e->lf[e->nloads] = f;
			e->lk[e->nloads] = base_call(h, e, f);
			e->lobj[e->nloads++] = cell_key(h, a[0], ji);
		}
		return;
	}
	case IR_SETARRAYITEM_GC: {
		Z3_ast v = is_ref(t, op->args[2]) ? a[2] : to_word(h, a[2]);
		e->cur[f] =
		    mem_write_item(h, e->cur[f], a[0], to_word(h, a[1]), v);
		if (is_ref(t, op->args[2]))
			hp_store_facts(e, f, op->args[0], op->args[2], true,
				       op->args[1]);
		return;
	}
	default:
		if (ir_py_str_copy(t, op)) {
			enc_str_copy(h, e, i);
			return;
		}
		uint32_t vc, vf = ir_py_clears_vable(t, op, &vc);
		if (vf != UINT32_MAX) {
			enc_clear_vable(h, e, i, vf, vc);
			return;
		}
		string_args_nonnull(h, e, i);
		if (e->skipped != HP_NONE &&
		    ir_py_noexc_cond(t, op) == e->skipped)
			return; /* passes, no event */
		if (ir_pycall_of(t, op) != IR_PYCALL_OPAQUE)
			enc_pure(h, e, i);
		else if (ir_py_cond_of(t, op) == IR_PYCOND_NONE ||
			 !enc_cond(h, e, i))
			enc_call(h, e, i);
		return;
	}
}

jp_status hp_enc_one(hp *h, htrace *e)
{
	const ir_trace *t = e->t;
	for (ir_vid v = 0; v < t->nvals; v++) {
		const ir_value *x = ir_val(t, v);
		e->other[v] = x->kind == 'r' && (x->tag == IR_VAL_INPUT ||
						 x->tag == IR_VAL_CONST_PTR);
		e->facts[v] = e->other[v] || x->tag == IR_VAL_CONST_NULL;
		if (x->tag == IR_VAL_INPUT)
			e->val[v] = h->vars[x->def];
		else if (x->tag == IR_VAL_CONST_INT)
			e->val[v] = zc_bv(&h->S, (unsigned)h->w, x->cval);
		else if (x->tag == IR_VAL_CONST_NULL)
			e->val[v] = zc_bv(&h->S, 64, 0);
		else if (x->tag == IR_VAL_CONST_PTR)
			e->val[v] = hp_cptr_addr(h, t->strs[x->name]);
		if (x->tag != IR_VAL_OP)
			note_facts(h, e, v);
	}
	for (uint32_t f = 0; f < h->nf; f++)
		e->cur[f] = (hmem){h->f[f].h0, NULL};
	e->skipped = HP_NONE;
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (ir_op_has(op->opc, IRF_MARK))
			continue;
		Z3_ast a[3] = {NULL, NULL, NULL};
		for (uint32_t j = 0; j < op->nargs && j < 3; j++)
			a[j] = e->val[op->args[j]];
		if (ir_op_has(op->opc, IRF_END)) {
			e->endesc = hp_escape_list(e, hp_with_pending(e),
						   op->args, op->nargs);
			normalize(h, e, e->endesc, e->eheap);
		} else if (ir_op_has(op->opc, IRF_GUARD)) {
			jp_status st = enc_guard_op(h, e, i, a);
			if (st)
				return st;
		} else if (ir_op_has(op->opc, IRF_HEAP)) {
			enc_heap_op(h, e, i, a);
		} else {
			jp_status st = enc_int_op(h, e, i);
			if (st)
				return st;
		}
		note_facts(h, e, op->result);
	}
	if (h->S.failed || zc_failed())
		return zc_failed()
			   ? zc_check_error(h->err, "encoding a heap trace")
			   : jp_fail(h->err, JP_ENOMEM, "out of memory");
	return JP_OK;
}

bool hp_trace_alloc(hp *h, htrace *e, const ir_trace *t)
{
	size_t nv = t->nvals + 1, no = t->nops + 1, nf = h->nf + 1;
	size_t nc = h->maxcalls + 1;
	e->t = t;
	e->val = calloc(nv, sizeof *e->val);
	e->bval = calloc(nv, sizeof *e->bval);
	e->pts = calloc(nv, sizeof *e->pts);
	e->pass = calloc(no, sizeof *e->pass);
	e->ovf = calloc(no, sizeof *e->ovf);
	e->nn = calloc(no, sizeof *e->nn);
	e->other = calloc(nv, sizeof *e->other);
	e->facts = calloc(nv, sizeof *e->facts);
	e->geso = calloc(no, sizeof *e->geso);
	e->gheap = calloc(no * nf, sizeof *e->gheap);
	e->callop = calloc(nc, sizeof *e->callop);
	e->callesc = calloc(nc, sizeof *e->callesc);
	e->callplain = calloc(nc, sizeof *e->callplain);
	e->cheap = calloc(nc * nf, sizeof *e->cheap);
	e->eheap = calloc(nf, sizeof *e->eheap);
	e->cur = calloc(nf, sizeof *e->cur);
	e->pend = calloc(no, sizeof *e->pend);
	e->rdseen = calloc(nv, sizeof *e->rdseen);
	e->rdpend = calloc(nv, sizeof *e->rdpend);
	e->ident = malloc(no * sizeof *e->ident);
	e->lf = calloc(no, sizeof *e->lf);
	e->lk = calloc(no, sizeof *e->lk);
	e->lobj = calloc(no, sizeof *e->lobj);
	e->nf = h->nf;
	e->cont = calloc((size_t)HP_MAXID * nf, sizeof *e->cont);
	e->cont_other = calloc((size_t)HP_MAXID * nf, sizeof *e->cont_other);
	e->loose = calloc((size_t)HP_MAXID * nf, sizeof *e->loose);
	e->loose_other = calloc((size_t)HP_MAXID * nf, sizeof *e->loose_other);
	e->built = malloc((size_t)HP_MAXID * nf * sizeof *e->built);
	if (e->built)
		for (size_t c = 0; c < (size_t)HP_MAXID * nf; c++)
			e->built[c] = UINT32_MAX;
	if (!e->cont || !e->cont_other || !e->loose || !e->loose_other ||
	    !e->built || !e->nn || !e->other || !e->lf || !e->lk || !e->lobj ||
	    !e->val || !e->bval || !e->pts || !e->pass || !e->ovf || !e->geso ||
	    !e->gheap || !e->callop || !e->callesc || !e->callplain ||
	    !e->cheap || !e->eheap || !e->cur || !e->ident || !e->pend ||
	    !e->rdseen || !e->rdpend || !e->facts)
		return false;
	for (size_t i = 0; i < no; i++)
		e->ident[i] = HP_NONE;
	return true;
}

void hp_trace_free(htrace *e)
{
	free(e->val);
	free(e->bval);
	free(e->pts);
	free(e->pass);
	free(e->ovf);
	free(e->geso);
	free(e->gheap);
	free(e->callop);
	free(e->callesc);
	free(e->callplain);
	free(e->cheap);
	free(e->eheap);
	free(e->cur);
	free(e->pend);
	free(e->rdseen);
	free(e->rdpend);
	free(e->ident);
	free(e->lf);
	free(e->lk);
	free(e->lobj);
	free(e->cont);
	free(e->cont_other);
	free(e->loose);
	free(e->loose_other);
	free(e->built);
	free(e->items);
	free(e->nn);
	free(e->other);
	free(e->facts);
}
