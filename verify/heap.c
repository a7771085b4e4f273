#include "heap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ir/arena.h"
#include "ir/interp.h"
#include "ir/strbuf.h"
#include "verify/abstract.h"
#include "verify/encode.h"
#include "verify/oblig.h"

#define HP_MAXID 64
#define HP_NONE	 UINT32_MAX

/* ---- support ------------------------------------------------------------ */

bool hp_uses_heap(const ir_trace *t)
{
	for (uint32_t i = 0; i < t->nops; i++)
		if (ir_op_has(t->ops[i].opc, IRF_HEAP))
			return true;
	return false;
}

jp_status hp_supported(const ir_trace *t, const char *file, jp_err *err)
{
	if (t->width != 8 && t->width != 16 && t->width != 32 && t->width != 64)
		return jp_fail(err, JP_EINPUT, "unsupported width %d",
			       t->width);
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (ir_op_has(op->opc, IRF_MARK))
			continue;
		/* An opaque op is a call like escape_i; one that returns a
		 * reference could return an escaped fresh object, which
		 * the replay environment cannot express. */
		if (op->opc == IR_OPAQUE && op->kind == 'r')
			return jp_fail_at(
			    err, JP_EUNSUPPORTED, file, op->line, op->col,
			    "'%s' is an opaque op returning a reference; the "
			    "heap model covers calls returning integers or "
			    "nothing",
			    ir_op_name(t, op));
	}
	return JP_OK;
}

/* Two calls are the same call when they are the same op (opaque ops:
 * of the same name). */
static bool same_call_op(const ir_trace *a, const ir_op *x, const ir_trace *b,
			 const ir_op *y)
{
	return x->opc == y->opc &&
	       (x->opc != IR_OPAQUE ||
		!strcmp(ir_op_name(a, x), ir_op_name(b, y)));
}

static bool is_ref(const ir_trace *t, ir_vid v)
{
	return v != IR_NOVAL && ir_val(t, v)->kind == 'r';
}

/* ---- the shared model --------------------------------------------------- */

typedef struct hfield {
	const char *name;
	char kind; /* 'i' or 'r' */
	Z3_sort range;
	Z3_ast h0;
} hfield;

typedef struct hident {
	const char *name;
	uint32_t cls; /* class number of its type, 0 = none */
	Z3_ast addr;
} hident;

typedef struct hclass {
	const char *name;
} hclass;

/* A ConstPtr: one symbolic address per name, shared by both traces,
 * non-null and distinct from every fresh object, but free to alias an
 * input or another ConstPtr (the environment places them). */
typedef struct hcptr {
	const char *name;
	Z3_ast addr;
} hcptr;

/* One write to a field: where COND holds (NULL: always), the cell at ADDR
 * becomes VAL.  A heap state of one field is an immutable list of writes,
 * newest first, over a base array that is only ever read.  Reads expand
 * into if-then-else chains over the writes (mem_read): Z3's array theory
 * takes seconds, even times out, on select-over-store chains of a ten-op
 * pair that the bit-vector solver decides in milliseconds once the stores
 * are gone. */
typedef struct hnode {
	Z3_ast cond, addr, val;
	const struct hnode *next;
} hnode;

typedef struct hmem {
	Z3_ast base; /* Array(BV64 -> range): H0 or a call's havoc array */
	const hnode *w;
} hmem;

/* What one trace makes observable, and the terms of its values. */
typedef struct htrace {
	const ir_trace *t;
	Z3_ast *val;	   /* per vid */
	Z3_ast *pass;	   /* per op: guards */
	Z3_ast *ovf;	   /* per op: overflow flags */
	uint32_t *ident;   /* per op: identity of an allocation */
	uint64_t *pts;	   /* per vid: fresh identities it may be */
	uint64_t *geso;	   /* per op: escaped identities at a failing guard */
	hmem *gheap;	   /* per op * nf: normalized heap at a guard */
	uint32_t ncalls;   /* calls made */
	uint32_t *callop;  /* per call: op index */
	uint64_t *callesc; /* per call: escaped identities */
	hmem *cheap;	   /* per call * nf: normalized heap at the call */
	uint64_t endesc;
	hmem *eheap; /* nf: normalized heap at the end */
	/* Per identity x and field f (cont[x * nf + f]): the identities the
	 * field may hold.  A store into the object of an allocation's own
	 * result replaces the set (that reference is exactly one object), so
	 * an object no longer held there does not escape with its holder. */
	uint64_t *cont;
	uint32_t nf;
	uint64_t esc;
	/* Loads of reference fields: field, the call before them (or
	 * HP_NONE) and the address term, for the realism constraints. */
	uint32_t nloads;
	uint32_t *lf, *lk;
	Z3_ast *lobj;
	hmem *cur; /* nf: current field states while encoding */
} htrace;

typedef struct hp {
	Z3_context z;
	zc_scope S;
	const ir_trace *o, *p;
	const ver_opts *opts;
	ver_result *res;
	int w;
	Z3_ast *vars;
	hfield *f;
	uint32_t nf;
	hident id[HP_MAXID];
	uint32_t nid;
	hclass *cls;
	uint32_t ncls;
	hcptr *cp;
	uint32_t ncp;
	Z3_func_decl tyfun;
	Z3_ast *hk; /* per call k * nf: havoc arrays */
	Z3_ast *rk; /* per call k: result */
	uint32_t maxcalls;
	htrace ho, hpp;
	Z3_ast bg;	       /* background constraints */
	arena nodes;	       /* the hnode lists */
	Z3_solver s;	       /* the incremental solver (solve) */
	Z3_ast *ind_o, *ind_p; /* per op: a guard's indicator constant */
	bool have_ind;	       /* the indicator constants exist */
	Z3_solver sa;	       /* the abstraction's incremental solver */
	abs_map A;	       /* its hidden terms */
	bool abs_any;	       /* the background or a guard hides something */
	bool gave_up;	       /* an obligation was unknown */
	char why[96];	       /* reason of the last fast unknown (a copy:
				  Z3's string lives until its next call) */
	jp_err *err;
} hp;

static Z3_ast K(hp *h, Z3_ast a)
{
	return zc_keep(&h->S, a);
}

static uint32_t hp_field_index(const hp *h, const char *name)
{
	for (uint32_t i = 0; i < h->nf; i++)
		if (!strcmp(h->f[i].name, name))
			return i;
	return HP_NONE;
}

static uint32_t hp_class_index(hp *h, const char *name)
{
	for (uint32_t i = 0; i < h->ncls; i++)
		if (!strcmp(h->cls[i].name, name))
			return i + 1;
	h->cls[h->ncls].name = name;
	return ++h->ncls;
}

static jp_status add_field(hp *h, const ir_trace *t, const ir_op *op, char kind)
{
	const char *name = t->strs[op->descr];
	uint32_t i = hp_field_index(h, name);
	if (i != HP_NONE) {
		if (h->f[i].kind != kind)
			return jp_fail_at(
			    h->err, JP_EUNSUPPORTED, NULL, op->line, op->col,
			    "field '%s' holds both integers and references; "
			    "the heap model needs one kind per field",
			    name);
		return JP_OK;
	}
	hfield *f = &h->f[h->nf++];
	f->name = name;
	f->kind = kind;
	if (!h->z)
		return JP_OK; /* the concrete comparison needs no terms */
	f->range = zc_bv_sort(h->z, kind == 'r' ? 64u : (unsigned)h->w);
	char sym[32];
	snprintf(sym, sizeof sym, "h0_%u", h->nf - 1);
	f->h0 = K(h, Z3_mk_const(h->z, Z3_mk_string_symbol(h->z, sym),
				 Z3_mk_array_sort(h->z, zc_bv_sort(h->z, 64),
						  f->range)));
	return JP_OK;
}

static jp_status hp_scan_fields(hp *h, const ir_trace *t)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		jp_status st = JP_OK;
		if (op->opc == IR_GETFIELD_GC_I)
			st = add_field(h, t, op, 'i');
		else if (op->opc == IR_GETFIELD_GC_R)
			st = add_field(h, t, op, 'r');
		else if (op->opc == IR_SETFIELD_GC)
			st = add_field(
			    h, t, op,
			    ir_val(t, op->args[1])->kind == 'r' ? 'r' : 'i');
		if (st)
			return st;
		if (op->opc == IR_GUARD_CLASS)
			hp_class_index(h, ir_valname(t, op->args[1]));
		if (op->opc == IR_NEW || op->opc == IR_NEW_WITH_VTABLE)
			hp_class_index(h, t->strs[op->descr]);
	}
	return JP_OK;
}

static jp_status new_ident(hp *h, const ir_trace *t, const ir_op *op,
			   uint32_t *out)
{
	if (h->nid == HP_MAXID)
		return jp_fail_at(h->err, JP_EUNSUPPORTED, NULL, op->line,
				  op->col,
				  "more than %d fresh objects in the two "
				  "traces; the heap model stops there",
				  HP_MAXID);
	hident *d = &h->id[h->nid];
	uint32_t me = h->nid;
	d->name = ir_valname(t, op->result);
	d->cls = hp_class_index(h, t->strs[op->descr]);
	*out = h->nid++;
	if (!h->z)
		return JP_OK;
	char sym[32];
	snprintf(sym, sizeof sym, "a%u", me);
	d->addr = K(h, Z3_mk_const(h->z, Z3_mk_string_symbol(h->z, sym),
				   zc_bv_sort(h->z, 64)));
	return JP_OK;
}

/* ---- pairing fresh objects by their first access path ------------------
 *
 * Allocations of the two traces that the result names do not pair are
 * paired by the path through which each first becomes observable (see
 * heap.h): "call K arg J", "end arg J", "guard L failarg J", or
 * "in P.F" (stored into field F of input P), extended by ".F" for an
 * object first reached through field F of an object with a path.  The
 * escape rules are the encoder's (a static over-approximation). */

typedef struct hpaths {
	const ir_trace *t;
	uint32_t *aop; /* allocation index -> op */
	uint64_t *pts; /* per vid: allocations it may be */
	char **key;    /* per allocation: its path, or NULL */
	uint64_t esc;  /* allocations escaped so far */
	uint32_t nalloc;
	bool failed;
} hpaths;

static void key_set(hpaths *P, uint32_t x, const char *k)
{
	if (P->key[x])
		return;
	size_t n = strlen(k);
	P->key[x] = malloc(n + 1);
	if (!P->key[x]) {
		P->failed = true;
		return;
	}
	memcpy(P->key[x], k, n + 1);
}

/* Gives every allocation in MASK that has no path the path K. */
static void key_mask(hpaths *P, uint64_t mask, const char *k)
{
	for (uint32_t x = 0; x < P->nalloc; x++)
		if (mask & (UINT64_C(1) << x))
			key_set(P, x, k);
}

/* Objects stored (before op UPTO) into objects with a path get the path
 * of the holder extended by the field; ESCAPE adds them to the escaped
 * set. */
static void key_closure(hpaths *P, uint32_t upto, uint64_t seen, bool escape)
{
	const ir_trace *t = P->t;
	bool changed = true;
	while (changed) {
		changed = false;
		for (uint32_t i = 0; i < upto; i++) {
			const ir_op *op = &t->ops[i];
			if (op->opc != IR_SETFIELD_GC ||
			    !is_ref(t, op->args[1]))
				continue;
			uint64_t obj = P->pts[op->args[0]];
			uint64_t val = P->pts[op->args[1]] & ~seen;
			if (!(obj & seen) || !val)
				continue;
			for (uint32_t x = 0; x < P->nalloc; x++) {
				if (!(obj & (UINT64_C(1) << x)) || !P->key[x])
					continue;
				strbuf sb;
				sb_init(&sb);
				sb_printf(&sb, "%s.%s", P->key[x],
					  t->strs[op->descr]);
				key_mask(P, val, sb.buf ? sb.buf : "");
				P->failed |= !sb.buf;
				sb_release(&sb);
			}
			seen |= val;
			changed = true;
		}
	}
	if (escape)
		P->esc |= seen;
}

/* The objects of the values V[0..n) become observable at EVENT. */
static void key_event(hpaths *P, uint32_t i, const char *event,
		      const char *what, const ir_vid *v, uint32_t n,
		      bool escape)
{
	uint64_t seen = escape ? P->esc : 0;
	for (uint32_t j = 0; j < n; j++) {
		if (!is_ref(P->t, v[j]))
			continue;
		strbuf sb;
		sb_init(&sb);
		sb_printf(&sb, "%s %s %u", event, what, j);
		key_mask(P, P->pts[v[j]] & ~seen, sb.buf ? sb.buf : "");
		P->failed |= !sb.buf;
		sb_release(&sb);
		seen |= P->pts[v[j]];
	}
	key_closure(P, i, seen, escape);
}

static void key_store(hpaths *P, uint32_t i)
{
	const ir_trace *t = P->t;
	const ir_op *op = &t->ops[i];
	if (!is_ref(t, op->args[1]))
		return;
	uint32_t d = ir_defop(t, op->args[0]);
	bool fresh = d != UINT32_MAX && ir_op_has(t->ops[d].opc, IRF_ALLOC);
	if (fresh && !(P->pts[op->args[0]] & P->esc))
		return; /* the holder's own path covers it later */
	uint64_t val = P->pts[op->args[1]] & ~P->esc;
	const ir_value *x = ir_val(t, op->args[0]);
	if (x->tag == IR_VAL_INPUT || x->tag == IR_VAL_CONST_PTR) {
		strbuf sb;
		sb_init(&sb);
		if (x->tag == IR_VAL_INPUT)
			sb_printf(&sb, "in %s.%s", ir_valname(t, op->args[0]),
				  t->strs[op->descr]);
		else
			sb_printf(&sb, "in ConstPtr(%s).%s", t->strs[x->name],
				  t->strs[op->descr]);
		key_mask(P, val, sb.buf ? sb.buf : "");
		P->failed |= !sb.buf;
		sb_release(&sb);
	}
	/* Through anything else the path is not named: those objects stay
	 * without a path (and unpaired).  Into an escaped fresh object, the
	 * closure extends the holder's path. */
	key_closure(P, i + 1, P->esc | (fresh ? 0 : val), true);
}

static void key_walk(hpaths *P)
{
	const ir_trace *t = P->t;
	uint32_t ncall = 0;
	for (uint32_t i = 0; i < t->nops && !P->failed; i++) {
		const ir_op *op = &t->ops[i];
		char ev[64];
		if (ir_op_has(op->opc, IRF_ALLOC)) {
			for (uint32_t x = 0; x < P->nalloc; x++)
				if (P->aop[x] == i)
					P->pts[op->result] = UINT64_C(1) << x;
		} else if (op->opc == IR_GETFIELD_GC_R) {
			/* Whatever was stored into what the holder may be. */
			uint64_t m = 0, src = P->pts[op->args[0]];
			for (uint32_t j = 0; j < i; j++) {
				const ir_op *q = &t->ops[j];
				if (q->opc == IR_SETFIELD_GC &&
				    is_ref(t, q->args[1]) &&
				    (P->pts[q->args[0]] & src))
					m |= P->pts[q->args[1]];
			}
			P->pts[op->result] = m;
		} else if (op->opc == IR_SETFIELD_GC) {
			key_store(P, i);
		} else if (ir_op_has(op->opc, IRF_CALL)) {
			snprintf(ev, sizeof ev, "call %u", ncall++);
			key_event(P, i, ev, "arg", op->args, op->nargs, true);
		} else if (ir_op_has(op->opc, IRF_END)) {
			key_event(P, i, "end", "arg", op->args, op->nargs,
				  true);
		} else if (ir_op_has(op->opc, IRF_GUARD) && op->nfail) {
			snprintf(ev, sizeof ev, "guard %s",
				 ir_guard_label(t, i));
			key_event(P, i, ev, "failarg", op->failargs, op->nfail,
				  false);
		}
	}
}

static void paths_free(hpaths *P)
{
	for (uint32_t x = 0; P->key && x < P->nalloc; x++)
		free(P->key[x]);
	free(P->key);
	free(P->aop);
	free(P->pts);
}

/* Computes the first access path of every allocation of T; false when
 * out of memory.  More than 64 allocations: no paths. */
static bool paths_of(const ir_trace *t, hpaths *P)
{
	memset(P, 0, sizeof *P);
	P->t = t;
	for (uint32_t i = 0; i < t->nops; i++)
		P->nalloc += ir_op_has(t->ops[i].opc, IRF_ALLOC);
	P->aop = calloc(P->nalloc + 1, sizeof *P->aop);
	P->key = calloc(P->nalloc + 1, sizeof *P->key);
	P->pts = calloc(t->nvals + 1, sizeof *P->pts);
	if (!P->aop || !P->key || !P->pts)
		return false;
	if (P->nalloc > 64) {
		P->nalloc = 0;
		return true;
	}
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops; i++)
		if (ir_op_has(t->ops[i].opc, IRF_ALLOC))
			P->aop[n++] = i;
	key_walk(P);
	return !P->failed;
}

/* Allocation X of P is paired-by-path candidate: it has a path no other
 * unpaired allocation of the same trace shares. */
static bool key_unique(const hpaths *P, uint32_t x, const uint32_t *ident)
{
	if (!P->key[x])
		return false;
	for (uint32_t y = 0; y < P->nalloc; y++)
		if (y != x && ident[P->aop[y]] == HP_NONE && P->key[y] &&
		    !strcmp(P->key[x], P->key[y]))
			return false;
	return true;
}

/* Pairs the allocations the names left unpaired (ORIG's that no OPT
 * allocation took, OPT's without identity) by equal, unique paths and the
 * same op and type. */
static jp_status pair_by_path(hp *h, bool *taken)
{
	const ir_trace *o = h->o, *p = h->p;
	hpaths A, B;
	bool ok = paths_of(o, &A);
	ok = paths_of(p, &B) && ok;
	uint32_t *oid = calloc(o->nops + 1, sizeof *oid);
	ok = ok && oid;
	for (uint32_t i = 0; ok && i < o->nops; i++)
		oid[i] = h->ho.ident[i] != HP_NONE && taken[h->ho.ident[i]]
			     ? h->ho.ident[i]
			     : HP_NONE;
	for (uint32_t y = 0; ok && y < B.nalloc; y++) {
		const ir_op *op = &p->ops[B.aop[y]];
		if (h->hpp.ident[B.aop[y]] != HP_NONE ||
		    !key_unique(&B, y, h->hpp.ident))
			continue;
		for (uint32_t x = 0; x < A.nalloc; x++) {
			const ir_op *q = &o->ops[A.aop[x]];
			if (oid[A.aop[x]] != HP_NONE || !A.key[x] ||
			    strcmp(A.key[x], B.key[y]) ||
			    !key_unique(&A, x, oid) || q->opc != op->opc ||
			    strcmp(o->strs[q->descr], p->strs[op->descr]))
				continue;
			h->hpp.ident[B.aop[y]] = h->ho.ident[A.aop[x]];
			oid[A.aop[x]] = h->ho.ident[A.aop[x]];
			taken[h->ho.ident[A.aop[x]]] = true;
			break;
		}
	}
	free(oid);
	paths_free(&A);
	paths_free(&B);
	return ok ? JP_OK : jp_fail(h->err, JP_ENOMEM, "out of memory");
}

/* Pairs allocations by result name, op and type, then the rest by their
 * first access path; see heap.h. */
static jp_status hp_scan_idents(hp *h)
{
	const ir_trace *o = h->o, *p = h->p;
	bool taken[HP_MAXID] = {false};
	for (uint32_t i = 0; i < o->nops; i++)
		if (ir_op_has(o->ops[i].opc, IRF_ALLOC)) {
			jp_status st =
			    new_ident(h, o, &o->ops[i], &h->ho.ident[i]);
			if (st)
				return st;
		}
	for (uint32_t i = 0; i < p->nops; i++) {
		const ir_op *op = &p->ops[i];
		if (!ir_op_has(op->opc, IRF_ALLOC))
			continue;
		const char *nm = ir_valname(p, op->result);
		for (uint32_t j = 0; j < o->nops; j++) {
			const ir_op *q = &o->ops[j];
			if (!ir_op_has(q->opc, IRF_ALLOC) ||
			    q->opc != op->opc ||
			    strcmp(ir_valname(o, q->result), nm) ||
			    strcmp(o->strs[q->descr], p->strs[op->descr]))
				continue;
			h->hpp.ident[i] = h->ho.ident[j];
			taken[h->ho.ident[j]] = true;
		}
	}
	jp_status st = pair_by_path(h, taken);
	for (uint32_t i = 0; !st && i < p->nops; i++)
		if (ir_op_has(p->ops[i].opc, IRF_ALLOC) &&
		    h->hpp.ident[i] == HP_NONE)
			st = new_ident(h, p, &p->ops[i], &h->hpp.ident[i]);
	return st;
}

static uint32_t hp_count_calls(const ir_trace *t)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops; i++)
		n += ir_op_has(t->ops[i].opc, IRF_CALL);
	return n;
}

static void hp_make_calls(hp *h)
{
	Z3_sort bv64 = zc_bv_sort(h->z, 64);
	for (uint32_t k = 0; k < h->maxcalls; k++) {
		char sym[48];
		snprintf(sym, sizeof sym, "r%u", k);
		h->rk[k] =
		    K(h, Z3_mk_const(h->z, Z3_mk_string_symbol(h->z, sym),
				     zc_bv_sort(h->z, (unsigned)h->w)));
		for (uint32_t f = 0; f < h->nf; f++) {
			snprintf(sym, sizeof sym, "hk%u_%u", k, f);
			h->hk[k * h->nf + f] = K(
			    h, Z3_mk_const(h->z, Z3_mk_string_symbol(h->z, sym),
					   Z3_mk_array_sort(h->z, bv64,
							    h->f[f].range)));
		}
	}
}

/* The ConstPtr of name NAME, made on first use. */
static Z3_ast hp_cptr_addr(hp *h, const char *name)
{
	for (uint32_t i = 0; i < h->ncp; i++)
		if (!strcmp(h->cp[i].name, name))
			return h->cp[i].addr;
	strbuf sb;
	sb_init(&sb);
	sb_printf(&sb, "ConstPtr(%s)", name);
	if (!sb.buf) {
		h->S.failed = true;
		return zc_bv(&h->S, 64, 1);
	}
	hcptr *c = &h->cp[h->ncp++];
	c->name = name;
	c->addr = K(h, Z3_mk_const(h->z, Z3_mk_string_symbol(h->z, sb.buf),
				   zc_bv_sort(h->z, 64)));
	sb_release(&sb);
	return c->addr;
}

static void hp_scan_cptrs(hp *h, const ir_trace *t)
{
	for (ir_vid v = 0; v < t->nvals; v++)
		if (ir_val(t, v)->tag == IR_VAL_CONST_PTR)
			hp_cptr_addr(h, t->strs[ir_val(t, v)->name]);
}

/* Fresh addresses are distinct, non-null, not an input reference and not
 * a ConstPtr; a ConstPtr is non-null. */
static void hp_make_background(hp *h)
{
	uint32_t cap = h->nid * (h->o->ninputs + h->ncp + 2) + h->ncp + 2,
		 n = 0;
	Z3_ast *c = calloc(cap, sizeof *c);
	if (!c) {
		h->S.failed = true;
		return;
	}
	Z3_ast null = zc_bv(&h->S, 64, 0);
	for (uint32_t i = 0; i < h->nid; i++) {
		c[n++] =
		    K(h, Z3_mk_not(h->z,
				   K(h, Z3_mk_eq(h->z, h->id[i].addr, null))));
		for (uint32_t j = 0; j < h->o->ninputs; j++)
			if (ir_val(h->o, h->o->inputs[j])->kind == 'r')
				c[n++] = K(
				    h,
				    Z3_mk_not(h->z,
					      K(h, Z3_mk_eq(h->z, h->id[i].addr,
							    h->vars[j]))));
		for (uint32_t j = 0; j < h->ncp; j++)
			c[n++] =
			    K(h,
			      Z3_mk_not(h->z, K(h, Z3_mk_eq(h->z, h->id[i].addr,
							    h->cp[j].addr))));
	}
	for (uint32_t j = 0; j < h->ncp; j++) {
		c[n++] =
		    K(h, Z3_mk_not(h->z,
				   K(h, Z3_mk_eq(h->z, h->cp[j].addr, null))));
	}
	if (h->nid >= 2) {
		Z3_ast *a = calloc(h->nid, sizeof *a);
		if (!a) {
			free(c);
			h->S.failed = true;
			return;
		}
		for (uint32_t i = 0; i < h->nid; i++)
			a[i] = h->id[i].addr;
		c[n++] = K(h, Z3_mk_distinct(h->z, h->nid, a));
		free(a);
	}
	h->bg = n ? K(h, Z3_mk_and(h->z, n, c)) : zc_true(&h->S);
	free(c);
}

/* ---- realism of the unknown heap ------------------------------------------
 */

/* The initial heap and a call's writes cannot hold the address of a fresh
 * object that the world cannot reach: no initial cell holds a fresh
 * object, and the k-th call only stores objects that escaped before it.
 * Without these facts the solver picks such values and the counterexample
 * does not replay.  Stated at the cells the traces load (no quantifier):
 * the cell of H0 or of the havoc array of the last call before the load.
 * The havoc arrays are shared, so the call's cell excludes only objects
 * that escaped in neither trace at that call: true of the real call in
 * both runs. */
static jp_status hp_realism(hp *h)
{
	const htrace *es[2] = {&h->ho, &h->hpp};
	size_t cap = ((size_t)h->ho.nloads + h->hpp.nloads) * (h->nid + 1) + 2;
	Z3_ast *c = calloc(cap, sizeof *c);
	if (!c)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	uint32_t n = 0;
	c[n++] = h->bg;
	for (int s = 0; s < 2; s++)
		for (uint32_t i = 0; i < es[s]->nloads; i++) {
			uint32_t f = es[s]->lf[i], k = es[s]->lk[i];
			uint64_t allowed = 0;
			Z3_ast arr = h->f[f].h0;
			if (k != HP_NONE) {
				if (k >= h->ho.ncalls || k >= h->hpp.ncalls)
					continue;
				allowed = h->ho.callesc[k] | h->hpp.callesc[k];
				arr = h->hk[k * h->nf + f];
			}
			Z3_ast v =
			    K(h, Z3_mk_select(h->z, arr, es[s]->lobj[i]));
			for (uint32_t x = 0; x < h->nid; x++)
				if (!(allowed & (UINT64_C(1) << x)))
					c[n++] = K(
					    h,
					    Z3_mk_not(
						h->z,
						K(h, Z3_mk_eq(h->z, v,
							      h->id[x].addr))));
		}
	h->bg = K(h, Z3_mk_and(h->z, n, c));
	free(c);
	return JP_OK;
}

/* ---- encoding one trace -------------------------------------------------- */

/* What the fields of identity X may hold. */
static uint64_t contents(const htrace *e, uint32_t x)
{
	uint64_t m = 0;
	for (uint32_t f = 0; f < e->nf; f++)
		m |= e->cont[(size_t)x * e->nf + f];
	return m;
}

static uint64_t close_esc(const htrace *e, uint64_t m)
{
	uint64_t prev;
	do {
		prev = m;
		for (uint32_t x = 0; x < HP_MAXID; x++)
			if (m & (UINT64_C(1) << x))
				m |= contents(e, x);
	} while (m != prev);
	return m;
}

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

/* Whether the background constraints make the addresses A and B differ:
 * two fresh objects, or a fresh object and NULL or an input reference.
 * Only a shortcut that keeps the read terms small; anything else is left
 * to the solver. */
static bool known_distinct(const hp *h, Z3_ast a, Z3_ast b)
{
	if (a == b)
		return false;
	uint32_t x = fresh_ident_of(h, a), y = fresh_ident_of(h, b);
	if (x != HP_NONE && y != HP_NONE)
		return true;
	if (x != HP_NONE)
		return is_input_or_null(h, b);
	if (y != HP_NONE)
		return is_input_or_null(h, a);
	return false;
}

static hmem mem_write(hp *h, hmem m, Z3_ast cond, Z3_ast addr, Z3_ast val)
{
	hnode *n = arena_alloc(&h->nodes, sizeof *n);
	if (!n) {
		h->S.failed = true;
		return m;
	}
	*n = (hnode){cond, addr, val, m.w};
	m.w = n;
	return m;
}

/* The value of the cell at J after the writes W over BASE. */
static Z3_ast read_from(hp *h, Z3_ast base, const hnode *w, Z3_ast j)
{
	while (w && known_distinct(h, w->addr, j))
		w = w->next;
	if (!w)
		return K(h, Z3_mk_select(h->z, base, j));
	if (w->addr == j && !w->cond)
		return w->val;
	Z3_ast rest = read_from(h, base, w->next, j);
	if (rest == w->val)
		return rest;
	Z3_ast c = w->addr == j ? w->cond : K(h, Z3_mk_eq(h->z, w->addr, j));
	if (w->cond && w->addr != j) {
		Z3_ast v[2] = {w->cond, c};
		c = K(h, Z3_mk_and(h->z, 2, v));
	}
	return K(h, Z3_mk_ite(h->z, c, w->val, rest));
}

static Z3_ast mem_read(hp *h, hmem m, Z3_ast j)
{
	return read_from(h, m.base, m.w, j);
}

static uint64_t escape_list(const htrace *e, uint64_t m, const ir_vid *v,
			    uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (is_ref(e->t, v[i]))
			m |= e->pts[v[i]];
	return close_esc(e, m);
}

/* The current arrays with the slots of identities outside MASK set to 0. */
static void normalize(hp *h, const htrace *e, uint64_t mask, hmem *out)
{
	for (uint32_t f = 0; f < h->nf; f++) {
		hmem a = e->cur[f];
		Z3_ast zero =
		    zc_bv(&h->S, Z3_get_bv_sort_size(h->z, h->f[f].range), 0);
		for (uint32_t x = 0; x < h->nid; x++)
			if (!(mask & (UINT64_C(1) << x)))
				a = mem_write(h, a, NULL, h->id[x].addr, zero);
		out[f] = a;
	}
}

/* The class number of the object at T: fresh objects of this trace by
 * their type, others through the type function. */
static Z3_ast type_of(hp *h, const htrace *e, uint32_t upto, Z3_ast t)
{
	Z3_ast ty = K(h, Z3_mk_app(h->z, h->tyfun, 1, &t));
	for (uint32_t i = 0; i < upto; i++) {
		uint32_t x = e->ident[i];
		if (x == HP_NONE)
			continue;
		Z3_ast is = K(h, Z3_mk_eq(h->z, t, h->id[x].addr));
		ty = K(h,
		       Z3_mk_ite(h->z, is, zc_bv(&h->S, 16, h->id[x].cls), ty));
	}
	return ty;
}

static Z3_ast is_null(hp *h, Z3_ast t)
{
	return K(h, Z3_mk_eq(h->z, t, zc_bv(&h->S, 64, 0)));
}

static uint32_t prev_op(const ir_trace *t, uint32_t opi)
{
	while (opi > 0) {
		opi--;
		if (!ir_op_has(t->ops[opi].opc, IRF_MARK))
			return opi;
	}
	return HP_NONE;
}

static jp_status enc_guard_op(hp *h, htrace *e, uint32_t i, const Z3_ast *a)
{
	const ir_trace *t = e->t;
	const ir_op *op = &t->ops[i];
	if (op->opc == IR_GUARD_CLASS) {
		uint32_t c = hp_class_index(h, ir_valname(t, op->args[1]));
		Z3_ast parts[2] = {K(h, Z3_mk_not(h->z, is_null(h, a[0]))),
				   K(h, Z3_mk_eq(h->z, type_of(h, e, i, a[0]),
						 zc_bv(&h->S, 16, c)))};
		e->pass[i] = K(h, Z3_mk_and(h->z, 2, parts));
	} else {
		Z3_ast prev = NULL;
		if (ir_op_has(op->opc, IRF_OVFGUARD)) {
			uint32_t src = prev_op(t, i);
			if (src == HP_NONE || !e->ovf[src])
				return jp_fail_at(h->err, JP_EINPUT, NULL,
						  op->line, op->col,
						  "'%s' does not follow an "
						  "overflow-checked op",
						  ir_op_name(t, op));
			prev = e->ovf[src];
		}
		if (op->opc == IR_GUARD_VALUE &&
		    Z3_get_sort(h->z, a[0]) != Z3_get_sort(h->z, a[1]))
			return jp_fail_at(h->err, JP_EINPUT, NULL, op->line,
					  op->col,
					  "guard_value compares an int with a "
					  "ref");
		e->pass[i] =
		    enc_guard(&h->S, (ir_opcode)op->opc, a, NULL, prev);
	}
	uint64_t m = e->esc;
	m = escape_list(e, m, op->failargs, op->nfail);
	e->geso[i] = m;
	normalize(h, e, m, &e->gheap[(size_t)i * h->nf]);
	return JP_OK;
}

static void enc_call(hp *h, htrace *e, uint32_t i)
{
	const ir_op *op = &e->t->ops[i];
	uint32_t k = e->ncalls++;
	e->callop[k] = i;
	e->esc = escape_list(e, e->esc, op->args, op->nargs);
	e->callesc[k] = e->esc;
	normalize(h, e, e->esc, &e->cheap[(size_t)k * h->nf]);
	for (uint32_t f = 0; f < h->nf; f++) {
		hmem a = {h->hk[k * h->nf + f], NULL};
		for (uint32_t x = 0; x < h->nid; x++)
			if (!(e->esc & (UINT64_C(1) << x)))
				a = mem_write(
				    h, a, NULL, h->id[x].addr,
				    mem_read(h, e->cur[f], h->id[x].addr));
		e->cur[f] = a;
	}
	if (op->result != IR_NOVAL)
		e->val[op->result] = h->rk[k];
}

static void enc_heap_op(hp *h, htrace *e, uint32_t i, const Z3_ast *a)
{
	const ir_trace *t = e->t;
	const ir_op *op = &t->ops[i];
	Z3_context z = h->z;
	uint32_t f = op->opc == IR_NEW || op->opc == IR_NEW_WITH_VTABLE
			 ? HP_NONE
			 : hp_field_index(h, t->strs[op->descr]);
	switch (op->opc) {
	case IR_NEW:
	case IR_NEW_WITH_VTABLE: {
		uint32_t x = e->ident[i];
		e->val[op->result] = h->id[x].addr;
		e->pts[op->result] = UINT64_C(1) << x;
		for (uint32_t g = 0; g < h->nf; g++)
			e->cur[g] = mem_write(
			    h, e->cur[g], NULL, h->id[x].addr,
			    zc_bv(&h->S, Z3_get_bv_sort_size(z, h->f[g].range),
				  0));
		return;
	}
	case IR_GETFIELD_GC_I:
	case IR_GETFIELD_GC_R: {
		Z3_ast sel = mem_read(h, e->cur[f], a[0]);
		Z3_ast zero =
		    zc_bv(&h->S, Z3_get_bv_sort_size(z, h->f[f].range), 0);
		e->val[op->result] =
		    K(h, Z3_mk_ite(z, is_null(h, a[0]), zero, sel));
		uint64_t m = 0, src = e->pts[op->args[0]];
		for (uint32_t x = 0; x < HP_MAXID; x++)
			if (src & (UINT64_C(1) << x))
				m |= e->cont[(size_t)x * h->nf + f];
		e->pts[op->result] = m;
		if (h->f[f].kind == 'r') {
			e->lf[e->nloads] = f;
			e->lk[e->nloads] = e->ncalls ? e->ncalls - 1 : HP_NONE;
			e->lobj[e->nloads++] = a[0];
		}
		return;
	}
	case IR_SETFIELD_GC: {
		/* A store through NULL does nothing (the interpreter's
		 * rule); a fresh object is never NULL. */
		Z3_ast nn = fresh_ident_of(h, a[0]) != HP_NONE
				? NULL
				: K(h, Z3_mk_not(z, is_null(h, a[0])));
		e->cur[f] = mem_write(h, e->cur[f], nn, a[0], a[1]);
		if (!is_ref(t, op->args[1]))
			return;
		uint64_t obj = e->pts[op->args[0]], v = e->pts[op->args[1]];
		bool known_fresh =
		    ir_defop(t, op->args[0]) != UINT32_MAX &&
		    ir_op_has(t->ops[ir_defop(t, op->args[0])].opc, IRF_ALLOC);
		for (uint32_t x = 0; x < HP_MAXID; x++) {
			if (!(obj & (UINT64_C(1) << x)))
				continue;
			uint64_t *c = &e->cont[(size_t)x * h->nf + f];
			*c = known_fresh ? v : *c | v;
		}
		/* Stored into something that is not a known unescaped fresh
		 * object: the value escapes. */
		if (!known_fresh || (obj & e->esc))
			e->esc = close_esc(e, e->esc | v);
		else
			e->esc = close_esc(e, e->esc);
		return;
	}
	default: enc_call(h, e, i); return;
	}
}

static jp_status hp_enc_one(hp *h, htrace *e)
{
	const ir_trace *t = e->t;
	for (ir_vid v = 0; v < t->nvals; v++) {
		const ir_value *x = ir_val(t, v);
		if (x->tag == IR_VAL_INPUT)
			e->val[v] = h->vars[x->def];
		else if (x->tag == IR_VAL_CONST_INT)
			e->val[v] = zc_bv(&h->S, (unsigned)h->w, x->cval);
		else if (x->tag == IR_VAL_CONST_NULL)
			e->val[v] = zc_bv(&h->S, 64, 0);
		else if (x->tag == IR_VAL_CONST_PTR)
			e->val[v] = hp_cptr_addr(h, t->strs[x->name]);
	}
	for (uint32_t f = 0; f < h->nf; f++)
		e->cur[f] = (hmem){h->f[f].h0, NULL};
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (ir_op_has(op->opc, IRF_MARK))
			continue;
		Z3_ast a[2] = {NULL, NULL};
		for (uint32_t j = 0; j < op->nargs && j < 2; j++)
			a[j] = e->val[op->args[j]];
		if (ir_op_has(op->opc, IRF_END)) {
			e->endesc = escape_list(e, e->esc, op->args, op->nargs);
			normalize(h, e, e->endesc, e->eheap);
		} else if (ir_op_has(op->opc, IRF_GUARD)) {
			jp_status st = enc_guard_op(h, e, i, a);
			if (st)
				return st;
		} else if (ir_op_has(op->opc, IRF_HEAP)) {
			enc_heap_op(h, e, i, a);
		} else {
			Z3_ast of = NULL;
			Z3_ast r =
			    enc_peephole(&h->S, h->w, (ir_opcode)op->opc, a);
			if (!r)
				r = enc_op(&h->S, h->w, (ir_opcode)op->opc, a,
					   &of);
			if (!r)
				return jp_fail_at(h->err, JP_EUNSUPPORTED, NULL,
						  op->line, op->col,
						  "cannot encode '%s'",
						  ir_op_name(t, op));
			e->val[op->result] = r;
			e->ovf[i] = of;
		}
	}
	if (h->S.failed || zc_failed())
		return zc_failed()
			   ? zc_check_error(h->err, "encoding a heap trace")
			   : jp_fail(h->err, JP_ENOMEM, "out of memory");
	return JP_OK;
}

static bool hp_trace_alloc(hp *h, htrace *e, const ir_trace *t)
{
	size_t nv = t->nvals + 1, no = t->nops + 1, nf = h->nf + 1;
	size_t nc = h->maxcalls + 1;
	e->t = t;
	e->val = calloc(nv, sizeof *e->val);
	e->pts = calloc(nv, sizeof *e->pts);
	e->pass = calloc(no, sizeof *e->pass);
	e->ovf = calloc(no, sizeof *e->ovf);
	e->geso = calloc(no, sizeof *e->geso);
	e->gheap = calloc(no * nf, sizeof *e->gheap);
	e->callop = calloc(nc, sizeof *e->callop);
	e->callesc = calloc(nc, sizeof *e->callesc);
	e->cheap = calloc(nc * nf, sizeof *e->cheap);
	e->eheap = calloc(nf, sizeof *e->eheap);
	e->cur = calloc(nf, sizeof *e->cur);
	e->ident = malloc(no * sizeof *e->ident);
	e->lf = calloc(no, sizeof *e->lf);
	e->lk = calloc(no, sizeof *e->lk);
	e->lobj = calloc(no, sizeof *e->lobj);
	e->nf = h->nf;
	e->cont = calloc((size_t)HP_MAXID * nf, sizeof *e->cont);
	if (!e->cont || !e->lf || !e->lk || !e->lobj || !e->val || !e->pts ||
	    !e->pass || !e->ovf || !e->geso || !e->gheap || !e->callop ||
	    !e->callesc || !e->cheap || !e->eheap || !e->cur || !e->ident)
		return false;
	for (size_t i = 0; i < no; i++)
		e->ident[i] = HP_NONE;
	return true;
}

static void hp_trace_free(htrace *e)
{
	free(e->val);
	free(e->pts);
	free(e->pass);
	free(e->ovf);
	free(e->geso);
	free(e->gheap);
	free(e->callop);
	free(e->callesc);
	free(e->cheap);
	free(e->eheap);
	free(e->cur);
	free(e->ident);
	free(e->lf);
	free(e->lk);
	free(e->lobj);
	free(e->cont);
}

/* ---- obligations ----------------------------------------------------------
 */

typedef enum hkind {
	H_BASE,	      /* an obligation of oblig.h */
	H_CALL_REACH, /* call k is made by both traces or by neither */
	H_CALL_EQ,    /* call k: same op, arguments and heap */
	H_GUARD_HEAP, /* paired guard fails in both: same heap */
	H_END_HEAP,   /* both reach the end: same heap */
} hkind;

typedef struct hobl {
	hkind kind;
	obl b; /* H_BASE; og/pg/o_upto/p_upto for the others */
	uint32_t k;
	uint32_t pos; /* ORIG op index it is about, for the checking order */
} hobl;

/* "The heaps X and Y differ", as "they differ at some address w" with w
 * a fresh constant: the same as array disequality (extensionality), but
 * it leaves only selects over store chains, which the bit-vector solver
 * handles without array reasoning. */
static Z3_ast heap_neq(hp *h, const hmem *x, const hmem *y)
{
	Z3_ast *d = calloc(h->nf + 1, sizeof *d);
	if (!d) {
		h->S.failed = true;
		return zc_true(&h->S);
	}
	Z3_ast w = K(h, Z3_mk_const(h->z, Z3_mk_string_symbol(h->z, "hw"),
				    zc_bv_sort(h->z, 64)));
	uint32_t n = 0;
	for (uint32_t f = 0; f < h->nf; f++) {
		if (x[f].base == y[f].base && x[f].w == y[f].w)
			continue;
		Z3_ast sx = mem_read(h, x[f], w), sy = mem_read(h, y[f], w);
		if (sx != sy)
			d[n++] =
			    K(h, Z3_mk_not(h->z, K(h, Z3_mk_eq(h->z, sx, sy))));
	}
	Z3_ast r = n ? K(h, Z3_mk_or(h->z, n, d)) : zc_false(&h->S);
	free(d);
	return r;
}

static Z3_ast hp_all_pass(hp *h, const htrace *e, uint32_t upto)
{
	Z3_ast r = zc_true(&h->S);
	for (uint32_t i = 0; i < upto; i++)
		if (e->pass[i]) {
			Z3_ast a[2] = {r, e->pass[i]};
			r = K(h, Z3_mk_and(h->z, 2, a));
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
static Z3_ast hp_goal_neg(hp *h, const hobl *q)
{
	const htrace *eo = &h->ho, *ep = &h->hpp;
	const obl *b = &q->b;
	Z3_ast a = b->og != OBL_NONE ? eo->pass[b->og] : NULL;
	Z3_ast c = b->pg != OBL_NONE ? ep->pass[b->pg] : NULL;
	switch (q->kind) {
	case H_CALL_REACH: {
		Z3_ast ro = q->k < eo->ncalls
				? hp_all_pass(h, eo, eo->callop[q->k])
				: zc_false(&h->S);
		Z3_ast rp = q->k < ep->ncalls
				? hp_all_pass(h, ep, ep->callop[q->k])
				: zc_false(&h->S);
		return K(h, Z3_mk_xor(h->z, ro, rp));
	}
	case H_CALL_EQ: {
		const ir_op *x = &h->o->ops[eo->callop[q->k]];
		const ir_op *y = &h->p->ops[ep->callop[q->k]];
		if (!same_call_op(h->o, x, h->p, y) || x->nargs != y->nargs)
			return zc_true(&h->S);
		Z3_ast r = heap_neq(h, &eo->cheap[(size_t)q->k * h->nf],
				    &ep->cheap[(size_t)q->k * h->nf]);
		for (uint32_t j = 0; j < x->nargs; j++)
			r = or2(
			    h, r,
			    neq(h, eo->val[x->args[j]], ep->val[y->args[j]]));
		return r;
	}
	case H_GUARD_HEAP: {
		Z3_ast r = heap_neq(h, &eo->gheap[(size_t)b->og * h->nf],
				    &ep->gheap[(size_t)b->pg * h->nf]);
		return and2(
		    h,
		    and2(h, K(h, Z3_mk_not(h->z, a)), K(h, Z3_mk_not(h->z, c))),
		    r);
	}
	case H_END_HEAP: return heap_neq(h, eo->eheap, ep->eheap);
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
	case OBL_END: return zc_true(&h->S);
	}
	return zc_true(&h->S);
}

static void hp_describe(const hp *h, const hobl *q, strbuf *sb)
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
	}
}

typedef struct hlist {
	hobl *v;
	uint32_t n, cap;
} hlist;

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

static jp_status hp_build_obls(hp *h, const obl_list *L, hlist *out)
{
	const htrace *eo = &h->ho, *ep = &h->hpp;
	bool ok = true;
	for (uint32_t i = 0; i < L->n; i++) {
		const obl *b = &L->v[i];
		uint32_t pos = b->og != OBL_NONE ? b->og : b->o_upto;
		hobl q = {H_BASE, *b, 0, pos};
		ok &= hpush(out, q);
		if (L->v[i].kind == OBL_SAME) {
			q.kind = H_GUARD_HEAP;
			ok &= hpush(out, q);
		}
	}
	uint32_t nc = eo->ncalls > ep->ncalls ? eo->ncalls : ep->ncalls;
	for (uint32_t k = 0; k < nc; k++) {
		hobl q = {H_CALL_REACH, {0}, k, 0};
		q.b.og = q.b.pg = OBL_NONE;
		q.pos = k < eo->ncalls ? eo->callop[k] : h->o->nops;
		ok &= hpush(out, q);
		if (k < eo->ncalls && k < ep->ncalls) {
			q.kind = H_CALL_EQ;
			q.b.o_upto = eo->callop[k];
			q.b.p_upto = ep->callop[k];
			ok &= hpush(out, q);
		}
	}
	if (!obl_ends_differ(h->o, h->p)) {
		hobl q = {H_END_HEAP, {0}, 0, h->o->nops + 1};
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

/* ---- concrete comparison --------------------------------------------------
 */

typedef struct hrun {
	const ir_trace *t;
	const htrace *e;
	const interp_result *r;
	const interp_env *env;
} hrun;

/* Identity of the fresh object at ADDR in run R, or HP_NONE. */
static uint32_t ident_at(const hrun *R, uint64_t addr)
{
	const interp_obj *o = interp_find_obj(R->r, addr);
	if (!o || o->fresh < 0)
		return HP_NONE;
	return R->e->ident[o->alloc_op];
}

static bool same_value(const hrun *A, uint64_t x, const hrun *B, uint64_t y,
		       bool ref)
{
	if (!ref)
		return x == y;
	uint32_t ix = ident_at(A, x), iy = ident_at(B, y);
	if (ix != HP_NONE || iy != HP_NONE)
		return ix == iy;
	return x == y;
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

/* Field F of the object with key (X fresh identity, or ADDR) in the
 * object list OBJS of run R, with escape mask M. */
static uint64_t cell(const hrun *R, const interp_obj *objs, uint32_t n,
		     uint64_t m, uint32_t x, uint64_t addr, const char *f,
		     bool *is_fresh_addr, uint64_t *faddr)
{
	*is_fresh_addr = false;
	for (uint32_t i = 0; i < n; i++) {
		const interp_obj *o = &objs[i];
		if (x != HP_NONE) {
			if (o->fresh < 0 || R->e->ident[o->alloc_op] != x)
				continue;
			if (!(m & (UINT64_C(1) << x)))
				return 0;
			*is_fresh_addr = true;
			*faddr = o->addr;
			return interp_obj_field(o, f);
		}
		if (o->fresh < 0 && o->addr == addr) {
			for (uint32_t j = 0; j < o->nfields; j++)
				if (!strcmp(o->fields[j], f))
					return o->values[j];
			return init_value(R->env, addr, f);
		}
	}
	return x != HP_NONE ? 0 : init_value(R->env, addr, f);
}

static uint64_t ident_bit(const hrun *R, uint64_t addr)
{
	uint32_t x = ident_at(R, addr);
	return x == HP_NONE ? 0 : UINT64_C(1) << x;
}

/* The fresh identities the world can reach in the heap OBJS of run R:
 * PREV (reached before), the reference values ROOTS[0..n) (of trace
 * values VIDS), every fresh object referenced by a field of an object that
 * is not fresh, and everything referenced from those.  This is the true
 * reachability of the concrete run; the encoder's escape sets
 * over-approximate it, so a symbolic difference in an object nobody can
 * reach does not replay (the obligation is then unknown, never refuted). */
static uint64_t reach(const hp *h, const hrun *R, const interp_obj *objs,
		      uint32_t n, uint64_t prev, const ir_vid *vids,
		      const uint64_t *roots, uint32_t nroots)
{
	uint64_t m = prev;
	for (uint32_t i = 0; i < nroots; i++)
		if (is_ref(R->t, vids[i]))
			m |= ident_bit(R, roots[i]);
	for (;;) {
		uint64_t before = m;
		for (uint32_t i = 0; i < n; i++) {
			const interp_obj *o = &objs[i];
			if (o->fresh >= 0 &&
			    !(m & (UINT64_C(1) << R->e->ident[o->alloc_op])))
				continue;
			for (uint32_t j = 0; j < o->nfields; j++) {
				uint32_t f = hp_field_index(h, o->fields[j]);
				if (f != HP_NONE && h->f[f].kind == 'r')
					m |= ident_bit(R, o->values[j]);
			}
		}
		if (m == before)
			return m;
	}
}

static bool heaps_equal(const hp *h, const hrun *A, const interp_obj *ao,
			uint32_t an, uint64_t am, const hrun *B,
			const interp_obj *bo, uint32_t bn, uint64_t bm,
			strbuf *why)
{
	for (int side = 0; side < 2; side++) {
		const interp_obj *objs = side ? bo : ao;
		uint32_t n = side ? bn : an;
		const hrun *R = side ? B : A;
		uint64_t m = side ? bm : am;
		for (uint32_t i = 0; i < n; i++) {
			const interp_obj *o = &objs[i];
			uint32_t x =
			    o->fresh >= 0 ? R->e->ident[o->alloc_op] : HP_NONE;
			if (x != HP_NONE && !(m & (UINT64_C(1) << x)))
				continue;
			for (uint32_t f = 0; f < h->nf; f++) {
				bool fa, fb;
				uint64_t pa = 0, pb = 0;
				uint64_t va = cell(A, ao, an, am, x, o->addr,
						   h->f[f].name, &fa, &pa);
				uint64_t vb = cell(B, bo, bn, bm, x, o->addr,
						   h->f[f].name, &fb, &pb);
				if (same_value(A, va, B, vb,
					       h->f[f].kind == 'r'))
					continue;
				if (x != HP_NONE)
					sb_printf(why,
						  "field %s of fresh object %s "
						  "differs",
						  h->f[f].name, h->id[x].name);
				else
					sb_printf(
					    why,
					    "field %s of object 0x%016llx "
					    "differs",
					    h->f[f].name,
					    (unsigned long long)o->addr);
				return false;
			}
		}
	}
	return true;
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

/* Whether the runs differ as seen from outside in the heap model. */
static bool hp_diverges(const hp *h, const hrun *A, const hrun *B, strbuf *why)
{
	const interp_result *ra = A->r, *rb = B->r;
	uint32_t nc = ra->ncalls < rb->ncalls ? ra->ncalls : rb->ncalls;
	uint64_t ea = 0, eb = 0; /* identities the world reached so far */
	for (uint32_t k = 0; k < nc; k++) {
		const interp_call *ca = &ra->calls[k], *cb = &rb->calls[k];
		const ir_op *oa = &A->t->ops[ca->op], *ob = &B->t->ops[cb->op];
		if (!same_call_op(A->t, oa, B->t, ob) ||
		    ca->nargs != cb->nargs ||
		    !values_equal(A, oa->args, ca->args, B, ob->args, cb->args,
				  ca->nargs)) {
			sb_printf(why, "call %u differs (op or arguments)", k);
			return true;
		}
		ea = reach(h, A, ca->objs, ca->nobjs, ea, oa->args, ca->args,
			   ca->nargs);
		eb = reach(h, B, cb->objs, cb->nobjs, eb, ob->args, cb->args,
			   cb->nargs);
		if (!heaps_equal(h, A, ca->objs, ca->nobjs, ea | eb, B,
				 cb->objs, cb->nobjs, ea | eb, why)) {
			sb_printf(why, " at call %u", k);
			return true;
		}
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
	uint64_t ma, mb;
	const ir_op *sa = &A->t->ops[ra->stop_op],
		    *sb_ = &B->t->ops[rb->stop_op];
	if (fa) {
		if (strcmp(ir_guard_label(A->t, ra->stop_op),
			   ir_guard_label(B->t, rb->stop_op))) {
			sb_printf(why,
				  "they leave at different guards (%s, %s)",
				  ir_guard_label(A->t, ra->stop_op),
				  ir_guard_label(B->t, rb->stop_op));
			return true;
		}
		if ((sa->nfail != sb_->nfail ||
		     !values_equal(A, sa->failargs, ra->out, B, sb_->failargs,
				   rb->out, sa->nfail))) {
			sb_puts(why, "the fail-args differ");
			return true;
		}
		ma = reach(h, A, ra->objs, ra->nobjs, ea, sa->failargs, ra->out,
			   sa->nfail);
		mb = reach(h, B, rb->objs, rb->nobjs, eb, sb_->failargs,
			   rb->out, sb_->nfail);
	} else {
		if (sa->opc != sb_->opc || sa->nargs != sb_->nargs ||
		    !values_equal(A, sa->args, ra->out, B, sb_->args, rb->out,
				  sa->nargs)) {
			sb_puts(why, "the ends or outputs differ");
			return true;
		}
		ma = reach(h, A, ra->objs, ra->nobjs, ea, sa->args, ra->out,
			   sa->nargs);
		mb = reach(h, B, rb->objs, rb->nobjs, eb, sb_->args, rb->out,
			   sb_->nargs);
		ma = mb = ma | mb;
	}
	if (fa)
		ma = mb = ma | mb;
	if (!heaps_equal(h, A, ra->objs, ra->nobjs, ma, B, rb->objs, rb->nobjs,
			 mb, why)) {
		sb_puts(why, fa ? " when the guard fails" : " at the end");
		return true;
	}
	return false;
}

/* ---- model -> environment -------------------------------------------------
 */

typedef struct henv {
	interp_env env;
	uint64_t *args, *addrs, *rets;
	uint32_t naddrs;
	interp_cell *init, *writes;
	interp_obj_write *ow;
	uint32_t now;
	interp_type *types;
	interp_ptr *ptrs;
} henv;

static void henv_free(henv *v)
{
	free(v->args);
	free(v->addrs);
	free(v->rets);
	free(v->init);
	free(v->writes);
	free(v->ow);
	free(v->types);
	free(v->ptrs);
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

static uint64_t escaped_both(const hp *h, uint32_t k)
{
	if (k >= h->ho.ncalls || k >= h->hpp.ncalls)
		return 0;
	return h->ho.callesc[k] & h->hpp.callesc[k];
}

/* Records that call K sets field F of (fresh identity X, or ADDR) to the
 * model value V, naming V's fresh object when it is one. */
static void add_ow(hp *h, Z3_model m, henv *v, uint32_t k, uint32_t x,
		   uint64_t addr, uint32_t f, uint64_t val)
{
	uint32_t y = h->f[f].kind == 'r' ? fresh_value(h, m, val) : HP_NONE;
	/* A call can only store a fresh object it can reach: one that has
	 * escaped in both traces.  Any other fresh address in the model is
	 * an artefact of the unconstrained havoc arrays; it is replayed as a
	 * plain address (the replay then decides). */
	if (y != HP_NONE && !(escaped_both(h, k) & (UINT64_C(1) << y)))
		y = HP_NONE;
	if (x == HP_NONE && y == HP_NONE)
		return; /* a plain call_writes cell does it */
	v->ow[v->now++] =
	    (interp_obj_write){k,
			       x != HP_NONE ? h->id[x].name : NULL,
			       addr,
			       h->f[f].name,
			       y != HP_NONE ? h->id[y].name : NULL,
			       val};
}

/* Call K's writes to fresh objects that escaped in both traces. */
static void fresh_writes(hp *h, Z3_model m, henv *v, uint32_t k)
{
	uint64_t both = escaped_both(h, k);
	for (uint32_t x = 0; x < h->nid; x++) {
		if (!(both & (UINT64_C(1) << x)))
			continue;
		for (uint32_t f = 0; f < h->nf; f++) {
			Z3_ast hk = h->hk[k * h->nf + f];
			uint64_t val = eval(
			    h, m, K(h, Z3_mk_select(h->z, hk, h->id[x].addr)));
			add_ow(h, m, v, k, x, 0, f, val);
		}
	}
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

static jp_status make_env(hp *h, Z3_model m, henv *v)
{
	memset(v, 0, sizeof *v);
	const htrace *es[2] = {&h->ho, &h->hpp};
	size_t cap = h->o->nvals + h->p->nvals + 1;
	uint32_t nin = h->o->ninputs;
	v->args = calloc(nin + 1, sizeof *v->args);
	v->addrs = calloc(cap, sizeof *v->addrs);
	v->rets = calloc(h->maxcalls + 1, sizeof *v->rets);
	v->ptrs = calloc(h->ncp + 1, sizeof *v->ptrs);
	if (!v->args || !v->addrs || !v->rets || !v->ptrs)
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
	size_t ncell = (size_t)v->naddrs * h->nf + 1;
	v->init = calloc(ncell, sizeof *v->init);
	v->writes = calloc(ncell * (h->maxcalls + 1), sizeof *v->writes);
	v->types = calloc(v->naddrs + 1, sizeof *v->types);
	v->ow = calloc(((size_t)v->naddrs + h->nid + 1) * (h->nf + 1) *
			   (h->maxcalls + 1),
		       sizeof *v->ow);
	if (!v->init || !v->writes || !v->types || !v->ow)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	uint32_t ni = 0, nw = 0, nt = 0;
	for (uint32_t i = 0; i < v->naddrs; i++) {
		Z3_ast a = zc_bv(&h->S, 64, v->addrs[i]);
		uint64_t c = eval(h, m, K(h, Z3_mk_app(h->z, h->tyfun, 1, &a)));
		if (c >= 1 && c <= h->ncls)
			v->types[nt++] =
			    (interp_type){v->addrs[i], h->cls[c - 1].name};
		for (uint32_t f = 0; f < h->nf; f++) {
			uint64_t x =
			    eval(h, m, K(h, Z3_mk_select(h->z, h->f[f].h0, a)));
			v->init[ni++] =
			    (interp_cell){0, v->addrs[i], h->f[f].name, x};
			for (uint32_t k = 0; k < h->maxcalls; k++) {
				Z3_ast hk = h->hk[k * h->nf + f];
				x = eval(h, m, K(h, Z3_mk_select(h->z, hk, a)));
				v->writes[nw++] = (interp_cell){
				    k, v->addrs[i], h->f[f].name, x};
			}
		}
	}
	for (uint32_t k = 0; k < h->maxcalls; k++) {
		v->rets[k] = eval(h, m, h->rk[k]);
		fresh_writes(h, m, v, k);
	}
	v->env = (interp_env){.args = v->args,
			      .nargs = nin,
			      .init = v->init,
			      .ninit = ni,
			      .types = v->types,
			      .ntypes = nt,
			      .ptrs = v->ptrs,
			      .nptrs = h->ncp,
			      .call_ret = v->rets,
			      .ncall_ret = h->maxcalls,
			      .call_writes = v->writes,
			      .ncall_writes = nw,
			      .obj_writes = v->ow,
			      .nobj_writes = v->now};
	return JP_OK;
}

static void report(hp *h, const henv *v, const char *why, const char *what,
		   strbuf *sb)
{
	const ir_trace *o = h->o;
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
		sb_printf(sb, "  call %u returns 0x%llx\n", k,
			  (unsigned long long)v->rets[k]);
	for (uint32_t i = 0; i < v->env.ncall_writes; i++)
		sb_printf(
		    sb, "  call %u sets 0x%016llx.%s = 0x%llx\n",
		    v->writes[i].call, (unsigned long long)v->writes[i].addr,
		    v->writes[i].field, (unsigned long long)v->writes[i].value);
	for (uint32_t i = 0; i < v->now; i++) {
		const interp_obj_write *w = &v->ow[i];
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

/* Replays model M; 1 when the traces diverge (RES filled), 0 when not. */
static int hp_replay(hp *h, Z3_model m, const char *what, jp_status *st)
{
	henv v;
	interp_result ro, rp;
	memset(&ro, 0, sizeof ro);
	memset(&rp, 0, sizeof rp);
	int ans = 0;
	*st = make_env(h, m, &v);
	if (!*st)
		*st = interp_run(h->o, &v.env, &ro, h->err);
	if (!*st) {
		*st = interp_run(h->p, &v.env, &rp, h->err);
		if (*st)
			interp_result_free(&ro);
	}
	if (*st) {
		henv_free(&v);
		return 0;
	}
	hrun A = {h->o, &h->ho, &ro, &v.env}, B = {h->p, &h->hpp, &rp, &v.env};
	strbuf why;
	sb_init(&why);
	if (hp_diverges(h, &A, &B, &why)) {
		ans = 1;
		ver_result *r = h->res;
		for (uint32_t i = 0; i < h->o->ninputs; i++)
			r->inputs[i] = v.args[i];
		strbuf sb;
		sb_init(&sb);
		report(h, &v, why.buf, what, &sb);
		r->cex_text = sb_detach(&sb);
	}
	sb_release(&why);
	interp_result_free(&ro);
	interp_result_free(&rp);
	henv_free(&v);
	return ans;
}

/* ---- driver ----------------------------------------------------------------
 */

static double now_ms(void)
{
	struct timespec ts;
	timespec_get(&ts, TIME_UTC);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Queries go first to one incremental solver per pair with a short
 * budget: the background is asserted once, each guard's pass condition
 * once behind an indicator constant, and a query assumes the indicators
 * of the guards before it and pushes only its negated goal.  A query that
 * budget does not settle goes to a fresh solver with the rest of the
 * timeout (Z3's non-incremental solver preprocesses the whole query, which
 * is faster on the hard ones). */
enum { HP_FAST_MS = 100 };

static void set_limits(hp *h, Z3_solver s, unsigned timeout_ms)
{
	Z3_params p = Z3_mk_params(h->z);
	Z3_params_inc_ref(h->z, p);
	if (timeout_ms)
		Z3_params_set_uint(
		    h->z, p, Z3_mk_string_symbol(h->z, "timeout"), timeout_ms);
	if (h->opts->rlimit)
		Z3_params_set_uint(h->z, p, Z3_mk_string_symbol(h->z, "rlimit"),
				   h->opts->rlimit);
	Z3_solver_set_params(h->z, s, p);
	Z3_params_dec_ref(h->z, p);
}

static unsigned fast_budget(const hp *h)
{
	unsigned user = h->opts->timeout_ms;
	return user && user < HP_FAST_MS ? user : HP_FAST_MS;
}

/* Makes the indicator constant of each guard of E: one per guard, shared
 * by the exact and the abstract solver. */
static void make_indicators(hp *h, const htrace *e, Z3_ast *ind, char tag)
{
	for (uint32_t i = 0; i < e->t->nops; i++) {
		if (!e->pass[i])
			continue;
		char sym[32];
		snprintf(sym, sizeof sym, "pass_%c%u", tag, i);
		ind[i] = K(h, Z3_mk_const(h->z, Z3_mk_string_symbol(h->z, sym),
					  Z3_mk_bool_sort(h->z)));
	}
}

static void need_indicators(hp *h)
{
	if (h->have_ind)
		return;
	make_indicators(h, &h->ho, h->ind_o, 'o');
	make_indicators(h, &h->hpp, h->ind_p, 'p');
	h->have_ind = true;
}

/* Asserts "indicator implies pass" for the guards of E into S, each pass
 * condition through ABS (the abstraction) when it is not NULL.  False
 * when abstracting failed. */
static bool indicators(hp *h, Z3_solver s, const htrace *e, const Z3_ast *ind,
		       abs_map *abs)
{
	for (uint32_t i = 0; i < e->t->nops; i++) {
		if (!e->pass[i])
			continue;
		Z3_ast pass =
		    abs ? abs_term(abs, e->pass[i], &h->abs_any) : e->pass[i];
		if (!pass)
			return false;
		Z3_solver_assert(h->z, s,
				 K(h, Z3_mk_implies(h->z, ind[i], pass)));
	}
	return true;
}

/* Makes *OUT a new incremental solver with a budget of MS holding the
 * background and "indicator implies pass" for every guard, each through
 * ABS (the abstraction) when it is not NULL.  False when Z3 or
 * abstracting failed; a solver made is in *OUT even then (hp_check
 * releases it). */
static bool pair_solver(hp *h, Z3_solver *out, unsigned ms, abs_map *abs)
{
	Z3_solver s = Z3_mk_simple_solver(h->z);
	if (!s)
		return false;
	Z3_solver_inc_ref(h->z, s);
	*out = s;
	set_limits(h, s, ms);
	Z3_ast bg = abs ? abs_term(abs, h->bg, &h->abs_any) : h->bg;
	if (!bg)
		return false;
	Z3_solver_assert(h->z, s, bg);
	need_indicators(h);
	return indicators(h, s, &h->ho, h->ind_o, abs) &&
	       indicators(h, s, &h->hpp, h->ind_p, abs) && !zc_failed();
}

static bool make_solver(hp *h)
{
	return h->s || pair_solver(h, &h->s, fast_budget(h), NULL);
}

/* The abstraction (verify/abstract.h) gets this budget, as in the integer
 * verifier: without multipliers, the queries it can prove are easy. */
enum { HP_ABS_MS = 50 };

/* The abstraction's solver: the background and the guards' pass
 * conditions with every multiplier and divider hidden. */
static bool make_abs_solver(hp *h)
{
	if (h->sa)
		return true;
	unsigned user = h->opts->timeout_ms;
	abs_init(&h->A, &h->S);
	return pair_solver(h, &h->sa,
			   user && user < HP_ABS_MS ? user : HP_ABS_MS, &h->A);
}

static uint32_t assumptions(const hp *h, const hobl *q, Z3_ast *out)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < q->b.o_upto; i++)
		if (h->ind_o[i])
			out[n++] = h->ind_o[i];
	for (uint32_t i = 0; i < q->b.p_upto; i++)
		if (h->ind_p[i])
			out[n++] = h->ind_p[i];
	return n;
}

/* The query in a fresh solver with everything asserted. */
static Z3_solver fresh_solver(hp *h, const hobl *q, Z3_ast neg,
			      unsigned timeout_ms)
{
	Z3_solver s = Z3_mk_solver(h->z);
	Z3_solver_inc_ref(h->z, s);
	set_limits(h, s, timeout_ms);
	Z3_solver_assert(h->z, s, h->bg);
	Z3_solver_assert(h->z, s, hp_all_pass(h, &h->ho, q->b.o_upto));
	Z3_solver_assert(h->z, s, hp_all_pass(h, &h->hpp, q->b.p_upto));
	Z3_solver_assert(h->z, s, neg);
	return s;
}

static void set_reason(hp *h, const char *what, const char *why)
{
	if (h->res->reason)
		return;
	strbuf sb;
	sb_init(&sb);
	sb_printf(&sb, "%s: %s", what, why);
	h->res->reason = sb_detach(&sb);
}

/* A satisfying model: refuted when it replays. */
static jp_status use_model(hp *h, Z3_solver s, ver_obligation *out,
			   bool *refuted)
{
	jp_status st = JP_OK;
	Z3_model m = Z3_solver_get_model(h->z, s);
	if (!m)
		return zc_check_error(h->err, "getting a model");
	Z3_model_inc_ref(h->z, m);
	if (hp_replay(h, m, out->what, &st) == 1) {
		out->status = VER_REFUTED;
		out->how = VER_BY_SOLVER;
		*refuted = true;
	} else if (!st) {
		set_reason(h, out->what,
			   "the solver's counterexample does not replay on "
			   "the interpreter (a behaviour of the heap model "
			   "the interpreter's environment cannot express, "
			   "e.g. a call writing to an escaped fresh object, "
			   "or a fresh address read from the initial heap)");
	}
	Z3_model_dec_ref(h->z, m);
	return st;
}

/* Pushes a scope onto the incremental solver S, asserts NEG in it and
 * checks it under the indicators of the guards before Q; the caller pops
 * (after reading a model). */
static jp_status push_check(hp *h, Z3_solver s, const hobl *q, Z3_ast neg,
			    Z3_lbool *ans)
{
	uint32_t cap = h->o->nops + h->p->nops + 1;
	Z3_ast *as = calloc(cap, sizeof *as);
	Z3_solver_push(h->z, s);
	if (!as)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	uint32_t n = assumptions(h, q, as);
	Z3_solver_assert(h->z, s, neg);
	*ans = Z3_solver_check_assumptions(h->z, s, n, as);
	free(as);
	return zc_check_error(h->err, "solver check");
}

static jp_status abs_failed(hp *h, const char *what)
{
	return jp_fail(h->err, JP_EINTERNAL, "abstracting %s: %s", what,
		       zc_error_text());
}

/* Asks the abstraction of the query (verify/abstract.h): *ANS becomes
 * Z3_L_FALSE when it is unsatisfiable, which proves the exact query
 * unsatisfiable too; otherwise *ANS is left alone (sat or unknown says
 * nothing).  Nothing is asked when nothing is hidden: the
 * abstract query would then be the exact one.  Most heap pairs that the
 * exact solver cannot settle multiply or divide (176 of 179 undecided
 * heap pairs of a 20,000-trace campaign), and most of their obligations
 * hold whatever the products are. */
static jp_status abstract_query(hp *h, const hobl *q, Z3_ast neg, Z3_lbool *ans)
{
	if (!make_abs_solver(h))
		return h->A.failed
			   ? abs_failed(h, "the heap model")
			   : zc_check_error(h->err, "creating a solver");
	bool hid = h->abs_any;
	Z3_ast g = abs_term(&h->A, neg, &hid);
	if (!g)
		return abs_failed(h, "a goal");
	if (!hid)
		return JP_OK;
	Z3_ast ax;
	if (!abs_axioms(&h->A, &ax))
		return abs_failed(h, "axioms");
	if (ax)
		Z3_solver_assert(h->z, h->sa, ax);
	h->res->abstract_calls++;
	Z3_lbool a = Z3_L_UNDEF;
	jp_status st = push_check(h, h->sa, q, g, &a);
	Z3_solver_pop(h->z, h->sa, 1);
	if (!st && a == Z3_L_FALSE) {
		*ans = Z3_L_FALSE;
		h->res->abstract_proved++;
	}
	return st ? st : zc_check_error(h->err, "solver pop");
}

/* The incremental query: *ANS is the solver's answer; a model is used
 * before the goal is popped. */
static jp_status fast_query(hp *h, const hobl *q, Z3_ast neg,
			    ver_obligation *out, bool *refuted, Z3_lbool *ans)
{
	if (!make_solver(h))
		return zc_check_error(h->err, "creating a solver");
	jp_status st = push_check(h, h->s, q, neg, ans);
	if (!st && *ans == Z3_L_TRUE)
		st = use_model(h, h->s, out, refuted);
	else if (!st && *ans == Z3_L_UNDEF)
		snprintf(h->why, sizeof h->why, "%s",
			 Z3_solver_get_reason_unknown(h->z, h->s));
	Z3_solver_pop(h->z, h->s, 1);
	return st ? st : zc_check_error(h->err, "solver pop");
}

static jp_status solve(hp *h, const hobl *q, ver_obligation *out, bool *refuted)
{
	double t0 = now_ms();
	Z3_ast raw = hp_goal_neg(h, q);
	out->checked = true;
	out->status = VER_UNKNOWN;
	out->how = VER_BY_NONE;
	if (zc_is_false(h->z, raw)) {
		out->status = VER_PROVED;
		out->how = VER_BY_IDENTITY;
		return JP_OK;
	}
	Z3_ast neg = K(h, Z3_simplify(h->z, raw));
	if (zc_is_false(h->z, neg)) {
		out->status = VER_PROVED;
		out->how = VER_BY_REWRITE;
		out->ms = now_ms() - t0;
		return JP_OK;
	}
	h->res->solver_calls++;
	h->why[0] = 0;
	Z3_lbool ans = Z3_L_UNDEF;
	/* The abstraction gets the goal as built, as the guards are: Z3's
	 * rewriter writes -x as -1 * x, which would be hidden, and cut the
	 * goal off from the guards that say what -x is (measured: a pair
	 * with "-x // 15" took 266 ms that way and 4 ms with RAW). */
	jp_status st = h->gave_up ? JP_OK : abstract_query(h, q, raw, &ans);
	if (!st && ans != Z3_L_FALSE)
		st = fast_query(h, q, neg, out, refuted, &ans);
	unsigned user = h->opts->timeout_ms;
	double spent = now_ms() - t0;
	/* Once an obligation is unknown the pair cannot be proved: the rest
	 * only look for a counterexample within the short budget, so a hard
	 * pair costs one timeout, not one per obligation. */
	if (!st && ans == Z3_L_UNDEF && !h->gave_up &&
	    (user == 0 || (user > HP_FAST_MS && spent + 1 < (double)user))) {
		h->res->slow_queries++;
		Z3_solver s =
		    fresh_solver(h, q, neg, user ? user - (unsigned)spent : 0);
		ans = Z3_solver_check(h->z, s);
		st = zc_check_error(h->err, "solver check");
		if (!st && ans == Z3_L_TRUE)
			st = use_model(h, s, out, refuted);
		else if (!st && ans == Z3_L_UNDEF)
			set_reason(h, out->what,
				   Z3_solver_get_reason_unknown(h->z, s));
		Z3_solver_dec_ref(h->z, s);
	} else if (!st && ans == Z3_L_UNDEF) {
		set_reason(h, out->what, h->why[0] ? h->why : "unknown");
	}
	if (!st && ans == Z3_L_FALSE) {
		out->status = VER_PROVED;
		out->how = VER_BY_SOLVER;
	}
	if (!st && out->status == VER_UNKNOWN)
		h->gave_up = true;
	out->ms = now_ms() - t0;
	h->res->ms_solve += out->ms;
	return st;
}

static jp_status setup(hp *h)
{
	const ir_trace *o = h->o, *p = h->p;
	uint32_t cap = 2 * (o->nops + p->nops) + 2;
	h->f = calloc(cap, sizeof *h->f);
	h->cls = calloc(cap, sizeof *h->cls);
	h->cp = calloc(o->nvals + p->nvals + 1, sizeof *h->cp);
	h->vars = calloc(o->ninputs + 1, sizeof *h->vars);
	uint32_t co = hp_count_calls(o), cp = hp_count_calls(p);
	h->maxcalls = co > cp ? co : cp;
	if (!h->f || !h->cls || !h->vars || !h->cp)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	jp_status st = hp_scan_fields(h, o);
	if (!st)
		st = hp_scan_fields(h, p);
	if (st)
		return st;
	h->ind_o = calloc(o->nops + 1, sizeof *h->ind_o);
	h->ind_p = calloc(p->nops + 1, sizeof *h->ind_p);
	if (!h->ind_o || !h->ind_p)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	h->hk = calloc((size_t)h->maxcalls * (h->nf + 1) + 1, sizeof *h->hk);
	h->rk = calloc(h->maxcalls + 1, sizeof *h->rk);
	if (!h->hk || !h->rk || !hp_trace_alloc(h, &h->ho, o) ||
	    !hp_trace_alloc(h, &h->hpp, p))
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	st = hp_scan_idents(h);
	if (!st)
		st = enc_inputs(&h->S, o, h->vars, h->err);
	if (st)
		return st;
	Z3_sort bv64 = zc_bv_sort(h->z, 64), bv16 = zc_bv_sort(h->z, 16);
	h->tyfun = Z3_mk_func_decl(h->z, Z3_mk_string_symbol(h->z, "type"), 1,
				   &bv64, bv16);
	Z3_inc_ref(h->z, Z3_func_decl_to_ast(h->z, h->tyfun));
	hp_make_calls(h);
	hp_scan_cptrs(h, o);
	hp_scan_cptrs(h, p);
	hp_make_background(h);
	st = hp_enc_one(h, &h->ho);
	if (!st)
		st = hp_enc_one(h, &h->hpp);
	if (!st)
		st = hp_realism(h);
	return st;
}

static jp_status init_res(hp *h)
{
	ver_result *r = h->res;
	const ir_trace *o = h->o;
	r->verdict = VER_UNKNOWN;
	r->mode_used = VER_MODE_ALIGNED;
	r->failed = -1;
	r->width = h->w;
	r->ninputs = o->ninputs;
	r->inputs = calloc(o->ninputs + 1, sizeof *r->inputs);
	r->input_names = calloc(o->ninputs + 1, sizeof *r->input_names);
	r->input_kinds = calloc(o->ninputs + 1, 1);
	if (!r->inputs || !r->input_names || !r->input_kinds)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < o->ninputs; i++) {
		const char *nm = ir_valname(o, o->inputs[i]);
		r->input_names[i] = malloc(strlen(nm) + 1);
		if (!r->input_names[i])
			return jp_fail(h->err, JP_ENOMEM, "out of memory");
		strcpy(r->input_names[i], nm);
		r->input_kinds[i] = is_ref(o, o->inputs[i]) ? 'r' : 'i';
	}
	return JP_OK;
}

static jp_status run_all(hp *h, const hlist *Q)
{
	ver_result *r = h->res;
	r->obl = calloc(Q->n + 1, sizeof *r->obl);
	if (!r->obl)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	r->nobl = Q->n;
	for (uint32_t i = 0; i < Q->n; i++) {
		strbuf sb;
		sb_init(&sb);
		hp_describe(h, &Q->v[i], &sb);
		r->obl[i].what = sb_detach(&sb);
		r->obl[i].status = VER_UNKNOWN;
		r->obl[i].how = VER_BY_NONE;
		if (!r->obl[i].what)
			return jp_fail(h->err, JP_ENOMEM, "out of memory");
	}
	bool refuted = false, unknown = false;
	for (uint32_t i = 0; i < Q->n && !refuted; i++) {
		jp_status st = solve(h, &Q->v[i], &r->obl[i], &refuted);
		if (st)
			return st;
		if (zc_failed())
			return zc_check_error(h->err, "Z3 (heap model)");
		if (refuted)
			r->failed = (int32_t)i;
		else if (r->obl[i].status == VER_UNKNOWN) {
			unknown = true;
			if (r->failed < 0)
				r->failed = (int32_t)i;
		}
	}
	/* The statistics are counted from the list, so they always add up. */
	r->by_identity = r->by_solver = r->by_rewrite = 0;
	for (uint32_t i = 0; i < r->nobl; i++) {
		if (!r->obl[i].checked)
			continue;
		r->by_identity += r->obl[i].how == VER_BY_IDENTITY;
		r->by_solver += r->obl[i].how == VER_BY_SOLVER;
		r->by_rewrite += r->obl[i].how == VER_BY_REWRITE;
	}
	r->verdict = refuted ? VER_REFUTED : unknown ? VER_UNKNOWN : VER_PROVED;
	if (refuted) {
		free(r->reason);
		r->reason = NULL;
	} else if (!unknown) {
		r->failed = -1;
	}
	return JP_OK;
}

jp_status hp_check(Z3_context z, const ir_trace *orig, const ir_trace *opt,
		   const ver_opts *opts, ver_result *res, jp_err *err)
{
	if (opts->mode == VER_MODE_TRACE)
		return jp_fail(err, JP_EUNSUPPORTED,
			       "trace mode does not model the heap; heap "
			       "traces are checked in aligned mode");
	hp *h = calloc(1, sizeof *h);
	if (!h)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	h->z = z;
	h->o = orig;
	h->p = opt;
	h->opts = opts;
	h->res = res;
	h->w = orig->width;
	h->err = err;
	zc_scope_init(&h->S, z);
	arena_init(&h->nodes);
	double t0 = now_ms();
	uint32_t *match = calloc(opt->nops + 1, sizeof *match);
	obl_list L;
	memset(&L, 0, sizeof L);
	hlist Q;
	memset(&Q, 0, sizeof Q);
	jp_status st = match ? JP_OK : jp_fail(err, JP_ENOMEM, "out of memory");
	if (!st)
		st = obl_match_labels(orig, opt, match, err);
	if (!st)
		st = init_res(h);
	if (!st)
		st = setup(h);
	res->ms_encode = now_ms() - t0;
	if (!st)
		st = obl_build(orig, opt, VER_MODE_ALIGNED, match, true, &L,
			       err);
	if (!st)
		st = hp_build_obls(h, &L, &Q);
	if (!st)
		st = run_all(h, &Q);
	free(Q.v);
	obl_list_free(&L);
	free(match);
	hp_trace_free(&h->ho);
	hp_trace_free(&h->hpp);
	if (h->tyfun)
		Z3_dec_ref(z, Z3_func_decl_to_ast(z, h->tyfun));
	if (h->s)
		Z3_solver_dec_ref(z, h->s);
	if (h->sa) {
		Z3_solver_dec_ref(z, h->sa);
		abs_free(&h->A);
	}
	zc_scope_release(&h->S);
	arena_free(&h->nodes);
	free(h->ind_o);
	free(h->ind_p);
	free(h->cp);
	free(h->f);
	free(h->cls);
	free(h->vars);
	free(h->hk);
	free(h->rk);
	free(h);
	return st;
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
	if (!st) {
		hrun A = {orig, &h->ho, &ro, env}, B = {opt, &h->hpp, &rp, env};
		*div = hp_diverges(h, &A, &B, why);
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
