/*
 * heap_replay.c - the heap checker's concrete side: turning a solver
 * model into an interpreter environment and replaying it, so that no
 * counterexample is reported that the interpreter does not show (heap.h
 * has the model; heap_compare.c compares the two runs).
 *
 * Map: model -> environment; report and replay; screening.
 */
#include "heap_int.h"

/* ---- model -> environment -------------------------------------------------
 */

typedef struct henv {
	interp_env env;
	uint64_t *args, *addrs, *rets;
	/* Per call: the fresh object it returns, as each trace names it
	 * (NULL: rets[k] is the result). */
	const char **ret_o, **ret_p;
	uint32_t naddrs;
	interp_cell *init, *writes;
	/* Call writes naming fresh objects, by identity (HP_NONE: an
	 * address); each trace's run gets them under its own names. */
	interp_obj_write *ow, *ow_p;
	uint32_t *owx, *owy, *owf;
	uint32_t now;
	/* A write of an immutable field that one trace built before the
	 * call and the other did not: one run drops it, the other makes it
	 * (name_writes), which no one world does. */
	bool built_asym;
	interp_type *types;
	interp_ptr *ptrs;
	interp_env env_p; /* the environment of OPT's run */
	/* Per op of ORIG, of OPT: a conditional call the model makes an
	 * event whatever its condition (enc_cond; interp_env.cond_events). */
	bool *cev_o, *cev_p;
	/* Per op of ORIG, of OPT: the class the model chose for an
	 * allocation the log does not name (interp_env.alloc_class). */
	const char **acls_o, **acls_p;
	Z3_model model; /* the solver's model (NULL: screening) */
	/* Results of the calls that are functions (ir_pycall_of), with
	 * their argument values. */
	interp_pure *pure;
	uint64_t *pargs;
	uint32_t npure;
	/* Per field: the cells of an object it has -- one for a plain
	 * field, one per index the runs may touch for array items -- as
	 * field names ("D[I]", owned by NAMES) and, for items, the index
	 * word. */
	uint32_t *ncells;
	const char ***cname;
	uint64_t **cidx;
	char **names;
	uint32_t nnames, nf;
	/* The model's string copies would copy more than HP_MAX_COPY_CELLS
	 * items: the replay is not made (hp_copy_too_long). */
	bool copy_too_long;
} henv;

/* The most items the string copies of a replay may copy together: each
 * copied index is a cell of every object of the environment. */
enum { HP_MAX_COPY_CELLS = 256 };

/* Per op of E: a conditional call the model makes an event whatever its
 * condition (not one it decided, callplain); NULL when out of memory. */
static bool *cond_events(const htrace *e)
{
	bool *c = calloc(e->t->nops + 1, sizeof *c);
	for (uint32_t k = 0; c && k < e->ncalls; k++)
		c[e->callop[k]] =
		    !e->callplain[k] &&
		    ir_py_cond_of(e->t, &e->t->ops[e->callop[k]]) !=
			IR_PYCOND_NONE;
	return c;
}

static void henv_free(henv *v)
{
	free(v->cev_o);
	free(v->cev_p);
	free(v->acls_o);
	free(v->acls_p);
	free(v->args);
	free(v->pure);
	free(v->pargs);
	free(v->addrs);
	free(v->rets);
	free(v->ret_o);
	free(v->ret_p);
	free(v->init);
	free(v->writes);
	free(v->ow);
	free(v->ow_p);
	free(v->owx);
	free(v->owf);
	free(v->owy);
	free(v->types);
	free(v->ptrs);
	for (uint32_t i = 0; i < v->nnames; i++)
		free(v->names[i]);
	free(v->names);
	for (uint32_t f = 0; v->cname && v->ncells && f < v->nf; f++) {
		free(v->cname[f]);
		free(v->cidx[f]);
	}
	free(v->ncells);
	free(v->cname);
	free(v->cidx);
	memset(v, 0, sizeof *v);
}

static uint64_t eval(hp *h, Z3_model m, Z3_ast t)
{
	Z3_ast r = NULL;
	uint64_t v = 0;
	if (Z3_model_eval(h->z, m, t, true, &r) && r) {
		Z3_inc_ref(h->z, r);
		if (!zc_numeral(h->z, r, &v))
			v = 0;
		Z3_dec_ref(h->z, r);
	}
	return v;
}

/* Per op of E: the class the model M gives the object of an allocation
 * whose class the log does not print, when it is one the pair names;
 * else NULL (its descr: a class no guard names).  NULL when out of
 * memory. */
static const char **alloc_classes(hp *h, Z3_model m, const htrace *e)
{
	const char **c = calloc(e->t->nops + 1, sizeof *c);
	for (uint32_t i = 0; c && i < e->t->nops; i++) {
		uint32_t x = e->ident[i];
		if (x == HP_NONE || !h->id[x].unnamed || !h->id[x].clsv)
			continue;
		uint64_t n = eval(h, m, h->id[x].clsv);
		if (n >= 1 && n <= h->ncls)
			c[i] = h->cls[n - 1].name;
	}
	return c;
}

/* The identity whose model address is V, or HP_NONE. */
static uint32_t fresh_value(hp *h, Z3_model m, uint64_t v)
{
	for (uint32_t x = 0; x < h->nid; x++)
		if (eval(h, m, h->id[x].addr) == v)
			return x;
	return HP_NONE;
}

static bool is_fresh_value(hp *h, Z3_model m, uint64_t v)
{
	return fresh_value(h, m, v) != HP_NONE;
}

/* The fresh identities that escaped at call K in either trace: the ones
 * the model lets the call change or store.  The interpreter applies such
 * a write only in a run where the world really reaches the object at the
 * call (interp_result.nrejected counts the others). */
static hset escaped_either(const hp *h, uint32_t k)
{
	hset m = hs_none();
	if (k < h->ho.ncalls)
		m = hs_or(m, h->ho.callesc[k]);
	if (k < h->hpp.ncalls)
		m = hs_or(m, h->hpp.callesc[k]);
	return m;
}

/* Records that call K sets field F of (fresh identity X, or ADDR) to the
 * model value V, naming V's fresh object when it is one. */
static void add_ow(hp *h, Z3_model m, henv *v, uint32_t k, uint32_t x,
		   uint64_t addr, uint32_t f, const char *name, uint64_t val)
{
	uint32_t y = h->f[f].kind != 'i' ? fresh_value(h, m, val) : HP_NONE;
	/* A call can only store a fresh object it can reach.  Any other
	 * fresh address in the model is an artefact of the unconstrained
	 * havoc arrays where no trace reads; it is replayed as a plain
	 * address. */
	if (y != HP_NONE && !hs_has(escaped_either(h, k), y))
		y = HP_NONE;
	if (x == HP_NONE && y == HP_NONE)
		return; /* a plain call_writes cell does it */
	v->owx[v->now] = x;
	v->owf[v->now] = f;
	v->owy[v->now] = y;
	v->ow[v->now++] = (interp_obj_write){k, NULL, addr, name, NULL, val};
}

/* The result name of the allocation of identity X in trace E, or NULL. */
static const char *ident_name(const htrace *e, uint32_t x)
{
	for (uint32_t i = 0; i < e->t->nops; i++)
		if (e->ident[i] == x)
			return ir_valname(e->t, e->t->ops[i].result);
	return NULL;
}

/* Names the fresh objects of the writes in OUT as trace E names them.
 * A write of an immutable field E built before the call is one the
 * model does not let the call make (enc_call): no run applies it. */
static void name_writes(const hp *h, const henv *v, const htrace *e,
			interp_obj_write *out)
{
	for (uint32_t i = 0; i < v->now; i++) {
		out[i] = v->ow[i];
		uint32_t f = v->owf[i];
		if (v->owx[i] != HP_NONE &&
		    hp_kept(h, e, v->owx[i], f, out[i].call)) {
			out[i].call = UINT32_MAX;
			continue;
		}
		if (v->owx[i] != HP_NONE)
			out[i].obj = ident_name(e, v->owx[i]);
		if (v->owy[i] != HP_NONE)
			out[i].value_obj = ident_name(e, v->owy[i]);
		/* Not allocated in this trace: a write no run applies. */
		if ((v->owx[i] != HP_NONE && !out[i].obj) ||
		    (v->owy[i] != HP_NONE && !out[i].value_obj))
			out[i].call = UINT32_MAX;
	}
}

/* The key of cell C of field F of the object at ADDR (a term). */
static Z3_ast cell_at(hp *h, const henv *v, uint32_t f, uint32_t c, Z3_ast addr)
{
	if (!h->f[f].indexed)
		return addr;
	return K(h, Z3_mk_concat(h->z, addr, zc_bv(&h->S, 64, v->cidx[f][c])));
}

static const char *own_name(henv *v, const char *d, uint64_t idx)
{
	int n = interp_item_field(NULL, 0, d, idx);
	char *s = n < 0 ? NULL : malloc((size_t)n + 1);
	if (!s)
		return NULL;
	interp_item_field(s, (size_t)n + 1, d, idx);
	v->names[v->nnames++] = s;
	return s;
}

/* Adds the index IDX to the cells of the indexed field F (once). */
static jp_status add_cell(hp *h, henv *v, uint32_t f, uint64_t idx)
{
	uint32_t c = 0;
	while (c < v->ncells[f] && v->cidx[f][c] != idx)
		c++;
	if (c < v->ncells[f])
		return JP_OK;
	const char *nm = own_name(v, h->f[f].name, idx);
	if (!nm)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	v->cidx[f][c] = idx;
	v->cname[f][v->ncells[f]++] = nm;
	return JP_OK;
}

/* The items the string copies of either trace copy, by the model: their
 * number, or HP_MAX_COPY_CELLS + 1 when more. */
static uint64_t copied_items(hp *h, Z3_model m)
{
	const htrace *es[2] = {&h->ho, &h->hpp};
	uint64_t n = 0;
	for (int s = 0; s < 2; s++)
		for (uint32_t i = 0; i < es[s]->t->nops; i++) {
			const ir_op *op = &es[s]->t->ops[i];
			if (!ir_py_str_copy(es[s]->t, op))
				continue;
			uint64_t k = eval(h, m, es[s]->val[op->args[4]]);
			if ((int64_t)k < 0)
				continue; /* undefined: nothing copied */
			if (k > HP_MAX_COPY_CELLS || n + k > HP_MAX_COPY_CELLS)
				return HP_MAX_COPY_CELLS + 1;
			n += k;
		}
	return n;
}

Z3_ast hp_short_copies(hp *h)
{
	const htrace *es[2] = {&h->ho, &h->hpp};
	Z3_context z = h->z;
	Z3_ast c[64];
	unsigned n = 0;
	for (int s = 0; s < 2; s++)
		for (uint32_t i = 0; i < es[s]->t->nops && n < 64; i++) {
			const ir_op *op = &es[s]->t->ops[i];
			if (!ir_py_str_copy(es[s]->t, op))
				continue;
			Z3_ast len = es[s]->val[op->args[4]];
			Z3_ast ok[2] = {
			    K(h, Z3_mk_bvule(z, len, zc_bv(&h->S, 64, 32))),
			    K(h, Z3_mk_bvslt(z, len, zc_bv(&h->S, 64, 0)))};
			c[n++] = K(h, Z3_mk_or(z, 2, ok));
		}
	if (n == 0 || h->S.failed)
		return NULL;
	return n == 1 ? c[0] : K(h, Z3_mk_and(z, n, c));
}

/* Adds the cells string copy OP of E copies from and to (their number by
 * the model), as the interpreter names them. */
static jp_status copy_cells(hp *h, Z3_model m, henv *v, uint32_t f,
			    const htrace *e, const ir_op *op)
{
	uint64_t n = eval(h, m, e->val[op->args[4]]);
	if ((int64_t)n < 0)
		return JP_OK; /* undefined: nothing copied */
	uint64_t from = eval(h, m, e->val[op->args[2]]);
	uint64_t to = eval(h, m, e->val[op->args[3]]);
	jp_status st = JP_OK;
	for (uint64_t k = 0; k < n && !st; k++) {
		st = add_cell(h, v, f, from + k);
		if (!st)
			st = add_cell(h, v, f, to + k);
	}
	return st;
}

/* The cells of every field (henv.ncells): for array items, the indices
 * the model gives the item ops of either trace -- where the runs read
 * and write -- and the index of the heap comparisons' witness ("hwi",
 * heap_encode.c): a call may write an escaped fresh array at an index no
 * op names, and the heaps then differ there; and both ends of every item
 * a string copy copies (copy_cells), unless those are more than
 * HP_MAX_COPY_CELLS (henv.copy_too_long). */
static jp_status make_cells(hp *h, Z3_model m, henv *v)
{
	const htrace *es[2] = {&h->ho, &h->hpp};
	uint64_t copied = m ? copied_items(h, m) : 0;
	if (copied > HP_MAX_COPY_CELLS) {
		v->copy_too_long = true;
		copied = 0;
	}
	/* + the witness, + both ends of every copied item */
	uint32_t cap = h->o->nops + h->p->nops + 2 + 2 * (uint32_t)copied;
	v->nf = h->nf;
	v->ncells = calloc(h->nf + 1, sizeof *v->ncells);
	v->cname = calloc(h->nf + 1, sizeof *v->cname);
	v->cidx = calloc(h->nf + 1, sizeof *v->cidx);
	v->names = calloc((size_t)cap * (h->nf + 1), sizeof *v->names);
	if (!v->ncells || !v->cname || !v->cidx || !v->names)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	for (uint32_t f = 0; f < h->nf; f++) {
		v->cname[f] = calloc(cap, sizeof *v->cname[f]);
		v->cidx[f] = calloc(cap, sizeof *v->cidx[f]);
		if (!v->cname[f] || !v->cidx[f])
			return jp_fail(h->err, JP_ENOMEM, "out of memory");
		if (!h->f[f].indexed) {
			v->cname[f][v->ncells[f]++] = h->f[f].name;
			continue;
		}
		Z3_ast wi =
		    K(h, Z3_mk_const(h->z, Z3_mk_string_symbol(h->z, "hwi"),
				     zc_bv_sort(h->z, 64)));
		jp_status st = add_cell(h, v, f, eval(h, m, wi));
		if (st)
			return st;
		for (int s = 0; s < 2; s++) {
			const ir_trace *t = es[s]->t;
			for (uint32_t i = 0; i < t->nops; i++) {
				const ir_op *op = &t->ops[i];
				const char *cd = ir_py_str_copy(t, op);
				if (cd && !v->copy_too_long &&
				    !strcmp(cd, h->f[f].name)) {
					st = copy_cells(h, m, v, f, es[s], op);
					if (st)
						return st;
					continue;
				}
				if ((op->opc != IR_GETARRAYITEM_GC_I &&
				     op->opc != IR_GETARRAYITEM_GC_R &&
				     op->opc != IR_SETARRAYITEM_GC) ||
				    strcmp(t->strs[op->descr], h->f[f].name) ||
				    !es[s]->val[op->args[1]])
					continue;
				st = add_cell(
				    h, v, f,
				    eval(h, m, es[s]->val[op->args[1]]));
				if (st)
					return st;
			}
		}
	}
	return JP_OK;
}

/* Whether call K keeps field F by its descr (ir_py_call_keeps): the model
 * gives it no write there (heap_encode.c, enc_call). */
static bool call_keeps(const hp *h, uint32_t k, uint32_t f)
{
	const htrace *e = k < h->ho.ncalls ? &h->ho : &h->hpp;
	if (k >= e->ncalls)
		return false;
	const ir_op *op = &e->t->ops[e->callop[k]];
	return ir_py_call_keeps(ir_op_name(e->t, op),
				op->descr ? ir_strtext(e->t, op->descr) : NULL,
				h->f[f].name);
}

/* Call K's writes to fresh objects that escaped in either trace. */
static void fresh_writes(hp *h, Z3_model m, henv *v, uint32_t k)
{
	hset both = escaped_either(h, k);
	for (uint32_t x = 0; x < h->nid; x++) {
		if (!hs_has(both, x))
			continue;
		for (uint32_t f = 0; f < h->nf; f++) {
			if (h->f[f].immut || call_keeps(h, k, f))
				continue; /* no call changes a length */
			Z3_ast hk = h->hk[k * h->nf + f];
			for (uint32_t c = 0; c < v->ncells[f]; c++) {
				uint64_t val = eval(
				    h, m,
				    K(h, Z3_mk_select(h->z, hk,
						      cell_at(h, v, f, c,
							      h->id[x].addr))));
				add_ow(h, m, v, k, x, 0, f, v->cname[f][c],
				       val);
			}
		}
	}
}

/* When the model's result of call K is the address of a fresh object,
 * the world hands back that object: each run gets it under its own name
 * (the interpreter places fresh objects itself).  hp_call_results lets
 * r_k be only an identity escaped at the call in both traces. */
static void name_ret(hp *h, Z3_model m, henv *v, uint32_t k)
{
	uint32_t y = fresh_value(h, m, v->rets[k]);
	if (y == HP_NONE || !hs_has(h->retesc[k], y))
		return;
	v->ret_o[k] = ident_name(&h->ho, y);
	v->ret_p[k] = ident_name(&h->hpp, y);
	v->rets[k] = 0;
}

static void add_addr(hp *h, Z3_model m, henv *v, uint64_t a)
{
	if (a == 0 || is_fresh_value(h, m, a))
		return;
	for (uint32_t i = 0; i < v->naddrs; i++)
		if (v->addrs[i] == a)
			return;
	v->addrs[v->naddrs++] = a;
}

/* The model's value of every call of either trace that is a function of
 * its arguments: one entry per call site (the uninterpreted function
 * makes equal arguments give equal results). */
static jp_status pure_table(hp *h, Z3_model m, henv *v)
{
	const htrace *es[2] = {&h->ho, &h->hpp};
	size_t nargs = 1, nsites = 1;
	for (int s = 0; s < 2; s++)
		for (uint32_t i = 0; i < es[s]->t->nops; i++)
			if (ir_pycall_of(es[s]->t, &es[s]->t->ops[i]) !=
			    IR_PYCALL_OPAQUE) {
				nsites++;
				nargs += es[s]->t->ops[i].nargs;
			}
	v->pure = calloc(nsites, sizeof *v->pure);
	v->pargs = calloc(nargs, sizeof *v->pargs);
	if (!v->pure || !v->pargs)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	size_t na = 0;
	for (int s = 0; s < 2; s++) {
		const ir_trace *t = es[s]->t;
		for (uint32_t i = 0; i < t->nops; i++) {
			const ir_op *op = &t->ops[i];
			ir_pycall pc = ir_pycall_of(t, op);
			if (pc == IR_PYCALL_OPAQUE || pc == IR_PYCALL_NOEXC ||
			    pc == IR_PYCALL_STRCOPY || !es[s]->val[op->result])
				continue;
			Z3_ast fx = pc == IR_PYCALL_CACHED
					? hp_pure_app(h, es[s], i)
					: es[s]->val[op->result];
			if (!fx)
				return jp_fail(h->err, JP_ENOMEM,
					       "out of memory");
			interp_pure *p = &v->pure[v->npure++];
			uint32_t first;
			p->fn = ir_pycall_fn(t, op, &first);
			p->nargs = op->nargs - first;
			p->args = &v->pargs[na];
			for (uint32_t j = first; j < op->nargs; j++)
				v->pargs[na++] =
				    eval(h, m, es[s]->val[op->args[j]]);
			p->ret = eval(h, m, fx);
		}
	}
	return JP_OK;
}

static jp_status make_env(hp *h, Z3_model m, henv *v)
{
	memset(v, 0, sizeof *v);
	const htrace *es[2] = {&h->ho, &h->hpp};
	size_t cap = h->o->nvals + h->p->nvals + 1;
	uint32_t nin = h->o->ninputs;
	v->args = calloc(nin + 1, sizeof *v->args);
	v->addrs = calloc(cap, sizeof *v->addrs);
	v->rets = calloc(h->maxcalls + 1, sizeof *v->rets);
	v->ret_o = calloc(h->maxcalls + 1, sizeof *v->ret_o);
	v->ret_p = calloc(h->maxcalls + 1, sizeof *v->ret_p);
	v->ptrs = calloc(h->ncp + 1, sizeof *v->ptrs);
	if (!v->args || !v->addrs || !v->rets || !v->ret_o || !v->ret_p ||
	    !v->ptrs)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < nin; i++)
		v->args[i] = eval(h, m, h->vars[i]);
	for (uint32_t i = 0; i < h->ncp; i++)
		v->ptrs[i] =
		    (interp_ptr){h->cp[i].name, eval(h, m, h->cp[i].addr)};
	for (int s = 0; s < 2; s++)
		for (ir_vid x = 0; x < es[s]->t->nvals; x++)
			if (es[s]->val[x] && is_ref(es[s]->t, x))
				add_addr(h, m, v, eval(h, m, es[s]->val[x]));
	jp_status cst = make_cells(h, m, v);
	if (cst)
		return cst;
	size_t nslots = 1;
	for (uint32_t f = 0; f < h->nf; f++)
		nslots += v->ncells[f];
	size_t ncell = (size_t)v->naddrs * nslots + 1;
	v->init = calloc(ncell, sizeof *v->init);
	v->writes = calloc(ncell * (h->maxcalls + 1), sizeof *v->writes);
	v->types = calloc(v->naddrs + 1, sizeof *v->types);
	size_t now =
	    ((size_t)v->naddrs + h->nid + 1) * nslots * (h->maxcalls + 1);
	v->ow = calloc(now, sizeof *v->ow);
	v->ow_p = calloc(now, sizeof *v->ow_p);
	v->owx = calloc(now, sizeof *v->owx);
	v->owf = calloc(now, sizeof *v->owf);
	v->owy = calloc(now, sizeof *v->owy);
	if (!v->init || !v->writes || !v->types || !v->ow || !v->ow_p ||
	    !v->owx || !v->owy || !v->owf)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	uint32_t ni = 0, nw = 0, nt = 0;
	for (uint32_t i = 0; i < v->naddrs; i++) {
		Z3_ast a = zc_bv(&h->S, 64, v->addrs[i]);
		uint64_t c = eval(h, m, K(h, Z3_mk_app(h->z, h->tyfun, 1, &a)));
		if (c >= 1 && c <= h->ncls)
			v->types[nt++] =
			    (interp_type){v->addrs[i], h->cls[c - 1].name};
		for (uint32_t f = 0; f < h->nf; f++)
			for (uint32_t c = 0; c < v->ncells[f]; c++) {
				const char *fn = v->cname[f][c];
				Z3_ast ka = cell_at(h, v, f, c, a);
				uint64_t x = eval(
				    h, m,
				    K(h, Z3_mk_select(h->z, h->f[f].h0, ka)));
				v->init[ni++] =
				    (interp_cell){0, v->addrs[i], fn, x};
				/* No call changes a length, nor an immutable
				 * field here: the object is not fresh
				 * (heap_encode.c, enc_call). */
				for (uint32_t k = 0;
				     k < h->maxcalls && !h->f[f].immut &&
				     !h->f[f].immutable;
				     k++) {
					if (call_keeps(h, k, f))
						continue;
					Z3_ast hk = h->hk[k * h->nf + f];
					x = eval(
					    h, m,
					    K(h, Z3_mk_select(h->z, hk, ka)));
					v->writes[nw++] = (interp_cell){
					    k, v->addrs[i], fn, x};
					/* A fresh object stored by the call. */
					add_ow(h, m, v, k, HP_NONE, v->addrs[i],
					       f, fn, x);
				}
			}
	}
	for (uint32_t k = 0; k < h->maxcalls; k++) {
		const htrace *e = k < h->ho.ncalls ? &h->ho : &h->hpp;
		bool ref = k < e->ncalls &&
			   e->t->ops[e->callop[k]].result != IR_NOVAL &&
			   e->t->ops[e->callop[k]].kind == 'r';
		v->rets[k] = eval(h, m, ref ? h->rkr[k] : h->rk[k]);
		if (ref)
			name_ret(h, m, v, k);
		fresh_writes(h, m, v, k);
	}
	jp_status st = pure_table(h, m, v);
	if (st)
		return st;
	v->env = (interp_env){.pure = v->pure,
			      .npure = v->npure,
			      .args = v->args,
			      .nargs = nin,
			      .init = v->init,
			      .ninit = ni,
			      .types = v->types,
			      .ntypes = nt,
			      .ptrs = v->ptrs,
			      .nptrs = h->ncp,
			      .call_ret = v->rets,
			      .ncall_ret = h->maxcalls,
			      .call_ret_obj = v->ret_o,
			      .call_writes = v->writes,
			      .ncall_writes = nw,
			      .obj_writes = v->ow,
			      .nobj_writes = v->now};
	v->cev_o = cond_events(&h->ho);
	v->cev_p = cond_events(&h->hpp);
	v->acls_o = alloc_classes(h, m, &h->ho);
	v->acls_p = alloc_classes(h, m, &h->hpp);
	if (!v->cev_o || !v->cev_p || !v->acls_o || !v->acls_p)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	v->env.cond_events = v->cev_o;
	v->env.alloc_class = v->acls_o;
	v->env_p = v->env;
	v->env_p.cond_events = v->cev_p;
	v->env_p.alloc_class = v->acls_p;
	v->env_p.obj_writes = v->ow_p;
	v->env_p.call_ret_obj = v->ret_p;
	for (uint32_t i = 0; i < v->now; i++) {
		uint32_t x = v->owx[i], f = v->owf[i], k = v->ow[i].call;
		/* An object one trace never allocates gets no write in
		 * that trace's run (name_writes): no asymmetry there. */
		v->built_asym |= x != HP_NONE &&
				 hp_kept(h, &h->ho, x, f, k) !=
				     hp_kept(h, &h->hpp, x, f, k) &&
				 ident_name(&h->ho, x) &&
				 ident_name(&h->hpp, x);
	}
	name_writes(h, v, &h->hpp, v->ow_p);
	name_writes(h, v, &h->ho, v->ow); /* in place: last */
	return JP_OK;
}

static void report(hp *h, const henv *v, const char *why, const char *what,
		   strbuf *sb)
{
	const ir_trace *o = h->o;
	if (what)
		sb_printf(sb, "counterexample (heap model) for %s:\n", what);
	for (uint32_t i = 0; i < o->ninputs; i++) {
		const char *nm = ir_valname(o, o->inputs[i]);
		if (is_ref(o, o->inputs[i]))
			sb_printf(sb, "  %s = 0x%016llx\n", nm,
				  (unsigned long long)v->args[i]);
		else
			sb_printf(sb, "  %s = %lld (0x%llx)\n", nm,
				  (long long)v->args[i],
				  (unsigned long long)v->args[i]);
	}
	for (uint32_t i = 0; i < v->env.nptrs; i++)
		sb_printf(sb, "  ConstPtr(%s) = 0x%016llx\n", v->ptrs[i].name,
			  (unsigned long long)v->ptrs[i].addr);
	for (uint32_t i = 0; i < v->env.ntypes; i++)
		sb_printf(sb, "  type of 0x%016llx = %s\n",
			  (unsigned long long)v->types[i].addr,
			  v->types[i].cls);
	for (uint32_t i = 0; i < v->env.ninit; i++)
		if (v->init[i].value)
			sb_printf(sb, "  initially 0x%016llx.%s = 0x%llx\n",
				  (unsigned long long)v->init[i].addr,
				  v->init[i].field,
				  (unsigned long long)v->init[i].value);
	for (uint32_t k = 0; k < h->maxcalls; k++)
		if (v->ret_o && (v->ret_o[k] || v->ret_p[k]))
			sb_printf(sb, "  call %u returns fresh %s\n", k,
				  v->ret_o[k] ? v->ret_o[k] : v->ret_p[k]);
		else
			sb_printf(sb, "  call %u returns 0x%llx\n", k,
				  (unsigned long long)v->rets[k]);
	for (uint32_t i = 0; i < v->env.ncall_writes; i++)
		sb_printf(
		    sb, "  call %u sets 0x%016llx.%s = 0x%llx\n",
		    v->writes[i].call, (unsigned long long)v->writes[i].addr,
		    v->writes[i].field, (unsigned long long)v->writes[i].value);
	for (uint32_t i = 0; i < v->now; i++) {
		const interp_obj_write *w = &v->ow[i];
		if (w->call == UINT32_MAX)
			continue;
		if (w->obj)
			sb_printf(sb, "  call %u sets fresh %s.%s = ", w->call,
				  w->obj, w->field);
		else
			sb_printf(sb, "  call %u sets 0x%016llx.%s = ", w->call,
				  (unsigned long long)w->addr, w->field);
		if (w->value_obj)
			sb_printf(sb, "fresh %s\n", w->value_obj);
		else
			sb_printf(sb, "0x%llx\n", (unsigned long long)w->value);
	}
	sb_printf(sb, "divergence: %s\n", why);
}

/* Runs both traces in the environment V and compares them; 1 when they
 * diverge (RES filled, the report naming WHAT).  When they do not and V
 * came from a solver model (MODEL): 0 with *ST an internal error (the
 * encoding and the interpreter disagree), or -1 when the model let a call
 * write a fresh object that the world cannot reach at run time in a trace
 * where the static escape analysis (an over-approximation) has it
 * escaped, or when the pairing of guards was guessed (the obligation
 * compared guards the runs do not tie together): that obligation is then
 * unknown.  Otherwise 0.  Frees V. */
/* With ver_opts.explain, keeps the first model that did not replay
 * (h->res->unconfirmed_text): the model as report() gives it, the fields
 * where it makes the heaps differ (hp_explain_heaps), both runs; *ST
 * set when out of memory. */
static void explain_unconfirmed(hp *h, const henv *v, const char *what,
				const interp_result *ro,
				const interp_result *rp, jp_status *st)
{
	if (!h->opts || !h->opts->explain || h->res->unconfirmed_text)
		return;
	strbuf sb;
	sb_init(&sb);
	sb_printf(&sb, "model that did not replay, for %s:\n", what);
	report(h, v, "none on the interpreter", NULL, &sb);
	if (v->model)
		hp_explain_heaps(h, v->model, &sb);
	cex_print_run("original trace", h->o, ro, ro->stop_op, &sb);
	cex_print_run("optimized trace", h->p, rp, rp->stop_op, &sb);
	if (sb.oom)
		*st = jp_fail(h->err, JP_ENOMEM, "out of memory");
	h->res->unconfirmed_text = sb_detach(&sb);
}

/* Whether a cached hash (IR_PYCALL_CACHED) of O's run R had in its
 * cache 0 or the hash ENV lists: what the model assumes of the original
 * (heap_encode.c, enc_cached). */
static bool cache_ok(const ir_trace *o, const ir_op *op, const interp_env *env,
		     const interp_result *r)
{
	if (ir_pycall_of(o, op) != IR_PYCALL_CACHED || !r->known[op->result])
		return true;
	uint64_t a[8];
	uint32_t first, n = 0;
	const char *fn = ir_pycall_fn(o, op, &first);
	for (uint32_t j = first; j < op->nargs && n < 8; j++)
		a[n++] = r->vals[op->args[j]];
	uint64_t v = r->vals[op->args[0]];
	return n == op->nargs - first &&
	       (v == 0 || v == interp_pure_find(env, fn, n, a));
}

/* Keeps the pairing A2B (identities of ORIG to OPT's) that a replay's runs
 * forced, per ORIG allocation op (hint_out), for the driver to check the
 * pair again with (hp_take_hint).  The first such pairing is kept: a
 * later model of the same pair is no better a guess. */
static void keep_hint(hp *h, const uint32_t *a2b)
{
	if (h->hint_out)
		return;
	uint32_t *x = malloc((h->o->nops + 1) * sizeof *x);
	if (!x)
		return;		     /* out of memory: no second try */
	uint32_t alloc_of[HP_MAXID]; /* OPT's allocation op per identity */
	for (uint32_t b = 0; b < HP_MAXID; b++)
		alloc_of[b] = UINT32_MAX;
	for (uint32_t j = 0; j < h->p->nops; j++)
		if (ir_op_has(h->p->ops[j].opc, IRF_ALLOC))
			alloc_of[h->hpp.ident[j]] = j;
	for (uint32_t i = 0; i < h->o->nops; i++) {
		uint32_t a = ir_op_has(h->o->ops[i].opc, IRF_ALLOC)
				 ? h->ho.ident[i]
				 : HP_NONE;
		uint32_t b = a != HP_NONE ? a2b[a] : HP_NONE;
		x[i] = b != HP_NONE ? alloc_of[b] : UINT32_MAX;
	}
	h->hint_out = x;
}

/* Whether the original's run R respects what hp_realism states that a
 * run can check: no immutable field it dereferences unchecked reads NULL
 * from an object the run did not allocate (hp_nonnull_read).  Screening
 * inputs leave such fields 0; a run with one is no run of PyPy, and no
 * counterexample.  Nor is one whose cached hash holds another value than
 * the hash (cache_ok), or where a string helper returns NULL
 * (ir_py_returns_string). */
static bool realistic(const ir_trace *o, const interp_env *env,
		      const interp_result *r)
{
	for (uint32_t i = 0; i < o->nops; i++) {
		const ir_op *op = &o->ops[i];
		if (!cache_ok(o, op, env, r))
			return false;
		if (ir_py_returns_string(o, op) && r->known[op->result] &&
		    r->vals[op->result] == 0)
			return false; /* a string helper's NULL */
		if (op->result == IR_NOVAL || !r->known[op->result] ||
		    r->vals[op->result] != 0 || !hp_nonnull_read(o, i))
			continue;
		if (!ir_allocated(o, op->args[0]))
			return false;
	}
	return true;
}

/* Whether run R of E reached a guard_class on a fresh object whose
 * class the log does not print (hident.unnamed): its outcome there is
 * the model's choice of that class (alloc_classes), not a fact. */
static bool guessed_class(const hp *h, const htrace *e, const interp_result *r)
{
	const ir_trace *t = e->t;
	for (uint32_t i = 0; i <= r->stop_op && i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc != IR_GUARD_CLASS || !r->known[op->args[0]])
			continue;
		uint64_t a = r->vals[op->args[0]];
		for (uint32_t j = 0; j < r->nobjs; j++) {
			const interp_obj *o = &r->objs[j];
			if (o->addr != a || o->fresh < 0)
				continue;
			uint32_t x = e->ident[o->alloc_op];
			if (x != HP_NONE && h->id[x].unnamed)
				return true;
		}
	}
	return false;
}

static int run_compare(hp *h, henv *vp, const char *what, bool model,
		       jp_status *st)
{
	henv v = *vp;
	interp_result ro, rp;
	memset(&ro, 0, sizeof ro);
	memset(&rp, 0, sizeof rp);
	int ans = 0;
	h->copy_too_long = v.copy_too_long;
	if (!*st && !v.copy_too_long)
		*st = interp_run(h->o, &v.env, &ro, h->err);
	if (!*st && !v.copy_too_long) {
		*st = interp_run(h->p, &v.env_p, &rp, h->err);
		if (*st)
			interp_result_free(&ro);
	}
	if (*st) {
		henv_free(&v);
		return 0;
	}
	/* A string copy too long to run (the model's, or the run's): no
	 * run to compare, nothing confirmed or refuted. */
	if (v.copy_too_long || ro.too_long || rp.too_long) {
		h->copy_too_long = true;
		h->pairing_only = false;
		h->elided = false;
		interp_result_free(&ro);
		interp_result_free(&rp);
		henv_free(&v);
		return model ? -1 : 0;
	}
	hrun A = {h->o, &h->ho, &ro, &v.env, NULL},
	     B = {h->p, &h->hpp, &rp, &v.env_p, NULL};
	strbuf why;
	sb_init(&why);
	uint32_t k;
	bool pairing_only = false, elided = false;
	uint32_t a2b[HP_MAXID];
	h->pairing_only = false;
	h->elided = false;
	h->guess_why = NULL;
	bool real = realistic(h->o, &v.env, &ro);
	bool differ = real && hp_runs_diverge(h, &A, &B, &why, &k,
					      &pairing_only, a2b, &elided);
	if (!real) {
		ans = model ? -1 : 0;
	} else if (differ && (guessed_class(h, &h->ho, &ro) ||
			      guessed_class(h, &h->hpp, &rp))) {
		/* The runs differ with classes the model chose for
		 * allocations the log does not name: nothing confirmed. */
		ans = model ? -1 : 0;
		h->guess_why = "it needs a guard_class on an allocation whose "
			       "class the log does not print (<SizeDescr N>) "
			       "to pass or fail as the model chose";
	} else if (differ && v.built_asym) {
		ans = model ? -1 : 0;
		h->guess_why = "a call writes an immutable field in one run "
			       "that the other trace had stored before it, "
			       "which no one world does";
	} else if (differ) {
		ans = 1;
		ver_result *r = h->res;
		for (uint32_t i = 0; i < h->o->ninputs; i++)
			r->inputs[i] = v.args[i];
		strbuf sb;
		sb_init(&sb);
		report(h, &v, why.buf, what, &sb);
		/* Both runs op by op, as for integer pairs (cex.h). */
		bool call = k != UINT32_MAX;
		h->div_call = k;
		h->div_stop_o = ro.stop_op;
		h->div_stop_p = rp.stop_op;
		h->div_outcome_o = ro.outcome;
		h->div_outcome_p = rp.outcome;
		cex_print_run("original trace", h->o, &ro,
			      call ? ro.calls[k].op : ro.stop_op, &sb);
		cex_print_run("optimized trace", h->p, &rp,
			      call ? rp.calls[k].op : rp.stop_op, &sb);
		sb_puts(&sb, "(>>> marks where the traces diverge)\n");
		r->cex_text = sb_detach(&sb);
	} else if (!model) {
		ans = 0;
	} else {
		explain_unconfirmed(h, &v, what, &ro, &rp, st);
		h->pairing_only = pairing_only;
		h->elided = elided;
		if (pairing_only)
			keep_hint(h, a2b);
		if (ro.nrejected || rp.nrejected || h->loose_guards ||
		    pairing_only || elided)
			ans = -1;
		else
			*st = jp_fail(h->err, JP_EINTERNAL,
				      "the heap model's counterexample for "
				      "'%s' does not replay on the "
				      "interpreter (an encoder bug)",
				      what);
	}
	sb_release(&why);
	interp_result_free(&ro);
	interp_result_free(&rp);
	henv_free(&v);
	return ans;
}

bool hp_has_hint(const hp *h)
{
	return h && h->hint_out;
}

uint32_t *hp_take_hint(hp *h)
{
	uint32_t *x = h->hint_out;
	h->hint_out = NULL;
	return x;
}

int hp_replay(hp *h, Z3_model m, const char *what, jp_status *st)
{
	henv v;
	*st = make_env(h, m, &v);
	v.model = m;
	return run_compare(h, &v, what, true, st);
}

/* ---- screening ---------------------------------------------------------- */

int hp_screen(hp *h, const uint64_t *x, const char *what, jp_status *st)
{
	*st = JP_OK;
	if (h->ncp)
		return 0; /* ConstPtrs need addresses placed: not screened */
	henv v;
	memset(&v, 0, sizeof v);
	uint32_t nin = h->o->ninputs;
	v.args = calloc(nin + 1, sizeof *v.args);
	v.rets = calloc(h->maxcalls + 1, sizeof *v.rets);
	if (!v.args || !v.rets) {
		henv_free(&v);
		*st = jp_fail(h->err, JP_ENOMEM, "out of memory");
		return 0;
	}
	memcpy(v.args, x, nin * sizeof *x);
	v.env = (interp_env){.args = v.args,
			     .nargs = nin,
			     .call_ret = v.rets,
			     .ncall_ret = h->maxcalls};
	v.env_p = v.env;
	return run_compare(h, &v, what, false, st);
}
