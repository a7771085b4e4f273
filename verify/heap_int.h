#ifndef JP_VERIFY_HEAP_INT_H
#define JP_VERIFY_HEAP_INT_H

#include "heap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/arena.h"
#include "ir/interp.h"
#include "ir/pypyops.h"
#include "ir/strbuf.h"
#include "verify/abstract.h"
#include "verify/cex.h"
#include "verify/encode.h"
#include "verify/oblig.h"

#define HP_NONE UINT32_MAX

/* A set of fresh identities: the escape and points-to facts.  Fixed size,
 * passed by value; HP_MAXID identities at most (a pair with more is
 * unknown, hp_scan_idents).  HP_MAXID is 64: at 256 the real
 * PyPy loops that have more than 64 fresh objects (a frame, boxes and
 * lists per iteration, unrolled twice) all ran out of the 30 s a pair
 * gets in jitprove log (docs/performance.md, session 21), where they were
 * unknown at once before. */
#define HS_WORDS ((HP_MAXID + 63) / 64)
typedef struct hset {
	uint64_t w[HS_WORDS];
} hset;

static inline hset hs_none(void)
{
	return (hset){{0}};
}

static inline hset hs_all(void)
{
	hset s;
	for (int i = 0; i < HS_WORDS; i++)
		s.w[i] = UINT64_MAX;
	return s;
}

static inline hset hs_one(uint32_t x)
{
	hset s = hs_none();
	s.w[x / 64] = UINT64_C(1) << (x % 64);
	return s;
}

static inline bool hs_has(hset s, uint32_t x)
{
	return (s.w[x / 64] >> (x % 64)) & 1;
}

static inline hset hs_or(hset a, hset b)
{
	for (int i = 0; i < HS_WORDS; i++)
		a.w[i] |= b.w[i];
	return a;
}

static inline hset hs_and(hset a, hset b)
{
	for (int i = 0; i < HS_WORDS; i++)
		a.w[i] &= b.w[i];
	return a;
}

/* A without the members of B. */
static inline hset hs_minus(hset a, hset b)
{
	for (int i = 0; i < HS_WORDS; i++)
		a.w[i] &= ~b.w[i];
	return a;
}

static inline bool hs_any(hset s)
{
	for (int i = 0; i < HS_WORDS; i++)
		if (s.w[i])
			return true;
	return false;
}

static inline bool hs_eq(hset a, hset b)
{
	return !memcmp(&a, &b, sizeof a);
}
/* The address of fresh identity X when addresses are numerals
 * (heap_model.c, addresses_as_numerals): non-null, aligned, distinct. */
#define HP_FRESH_ADDR(x) (UINT64_C(0x7e0000000000) + 16 * (uint64_t)(x) + 16)

/* Whether op OP of T is a call event of the model: an opaque call, unless
 * its descr makes it a function of its arguments (ir_pycall_of: no event,
 * no effect on the heap) or a force_virtualizable (ir_py_clears_vable:
 * no event, it clears the frame's vable_token). */
static inline bool hp_is_call(const ir_trace *t, const ir_op *op)
{
	return ir_py_is_call_event(t, op);
}

static inline bool is_ref(const ir_trace *t, ir_vid v)
{
	return v != IR_NOVAL && ir_val(t, v)->kind == 'r';
}

/* Whether op A of trace TA and op B of trace TB allocate objects of one
 * kind and type, which may then be one object: the world tells others
 * apart by their class or size whatever their fields hold. */
static inline bool hp_same_alloc(const ir_trace *ta, const ir_op *a,
				 const ir_trace *tb, const ir_op *b)
{
	return ir_op_has(a->opc, IRF_ALLOC) && a->opc == b->opc &&
	       !a->descr == !b->descr &&
	       (!a->descr || !strcmp(ta->strs[a->descr], tb->strs[b->descr]));
}

/* ---- the shared model --------------------------------------------------- */

typedef struct hfield {
	const char *name;
	char kind; /* 'i', 'r', or 'm' when used with both (toy spelling) */
	bool immutable; /* PyPy's " pure" descr: no call changes it in an
			   object that is not fresh (docs/pypy.md) */
	/* Array items (getarrayitem_gc_*, setarrayitem_gc): one cell per
	 * (address, index), the key the 128-bit concatenation of the
	 * address and the index word; else one cell per address. */
	bool indexed;
	/* A length ("D.length", heap.h): no call changes it, in any object
	 * (unlike IMMUTABLE, escaped fresh objects included). */
	bool immut;
	/* Integer items narrower than a word (ir_py_item_bits): a read is
	 * the low BITS bits, sign- or zero-extended; 0 = the whole word. */
	unsigned bits;
	bool bits_signed;
	Z3_sort range;
	Z3_ast h0;
} hfield;

typedef struct hident {
	const char *name;
	uint32_t cls; /* class number of its type, 0 = none */
	/* new_with_vtable(descr=<SizeDescr N>) that jitprove log could not
	 * name: an instance whose class the model does not know (a plain
	 * new's struct is no instance, and no guard_class passes on it) */
	bool unnamed;
	Z3_ast addr;
	/* Its class number: a numeral, or for an unnamed one a constant
	 * of its own, free to be any class (heap_model.c, new_ident). */
	Z3_ast clsv;
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

/* What the points-to facts say a reference term may be (addr_info,
 * heap_encode.c): FRESH, the fresh identity whose address it is (HP_NONE:
 * none); KNOWN, whether MAY is known: in every run its value is NULL, an object
 * that is not fresh, or the address of an identity in MAY. */
typedef struct haddr {
	uint32_t fresh;
	bool known;
	hset may;
} haddr;

/* One write to a field: where COND holds (NULL: always), the cell at ADDR
 * becomes VAL.  A heap state of one field is an immutable list of writes,
 * newest first, over a base array that is only ever read.  Reads expand
 * into if-then-else chains over the writes (mem_read): Z3's array theory
 * takes seconds, even times out, on select-over-store chains of a ten-op
 * pair that the bit-vector solver decides in milliseconds once the stores
 * are gone. */
typedef struct hnode {
	Z3_ast cond, addr, val;
	haddr ai; /* what ADDR may be, for read_from */
	/* The index of an item write; NULL: every cell of the object at ADDR
	 * (a plain field's one cell, or all items of an indexed field). */
	Z3_ast idx;
	/* A copy (all items of ADDR keep their values across a call): the
	 * value is read from the state FBASE/FW instead of VAL. */
	Z3_ast fbase;
	const struct hnode *fw;
	bool copy;
	/* A string copy (IR_PYCALL_STRCOPY) into ADDR: the items at index
	 * words LO + k, k <u LEN, hold the items of SRC at SLO + k in the
	 * state FBASE/FW before it (COPY is false, IDX NULL). */
	Z3_ast lo, len, src, slo;
	const struct hnode *next;
} hnode;

typedef struct hmem {
	Z3_ast base; /* Array(BV64 -> range): H0 or a call's havoc array */
	const hnode *w;
} hmem;

/* What one trace makes observable, and the terms of its values. */
/* What a pending store (htrace.pend) goes into: a field, the item at a
 * constant index, or an item at an index that is not a constant. */
enum { HP_PEND_FIELD, HP_PEND_ITEM, HP_PEND_ANY_ITEM };

typedef struct htrace {
	const ir_trace *t;
	Z3_ast *val;  /* per vid */
	Z3_ast *bval; /* per vid: the Boolean of a comparison, or NULL */
	Z3_ast *pass; /* per op: guards */
	Z3_ast *ovf;  /* per op: overflow flags */
	/* Per op: "the object is not NULL" for a field access or guard_class
	 * through something that may be NULL (else NULL): the op is defined
	 * exactly where it holds. */
	Z3_ast *nn;
	uint32_t *ident; /* per op: identity of an allocation */
	hset *pts;	 /* per vid: fresh identities it may be */
	/* Per vid: its pts and other were set by the op that made it (or
	 * it is an input or a ConstPtr), so note_facts (heap_encode.c) may
	 * state them. */
	bool *facts;
	/* A reference without facts was made: from then on note_facts
	 * states nothing of E's references (their facts may miss it). */
	bool taint;
	hset *geso;	  /* per op: escaped identities at a failing guard */
	hmem *gheap;	  /* per op * nf: normalized heap at a guard */
	uint32_t ncalls;  /* calls made */
	uint32_t *callop; /* per call: op index */
	hset *callesc;	  /* per call: escaped identities */
	/* Per call: a conditional call that always calls, the event of its
	 * plain call (enc_cond, ir_py_call_event). */
	bool *callplain;
	/* The last conditional call enc_cond found never to call, or
	 * HP_NONE: the guard_no_exception on it passes, no event
	 * (ir_py_noexc_cond; the interpreter's rule too). */
	uint32_t skipped;
	hmem *cheap; /* per call * nf: normalized heap at the call */
	hset endesc;
	hmem *eheap; /* nf: normalized heap at the end */
	/* Per identity x and field f (cont[x * nf + f]): the identities the
	 * field may hold.  A store into the object of an allocation's own
	 * result replaces the set (that reference is exactly one object), so
	 * an object no longer held there does not escape with its holder. */
	hset *cont;
	/* Per vid: it may be an object that is not fresh (an input, a
	 * ConstPtr, or loaded from such a cell); per identity and field
	 * (as cont): the field may hold one.  A store into something that
	 * may not be fresh lets the value escape; a store into fresh objects
	 * only lets it escape with them (heap.h). */
	bool *other;
	bool *cont_other;
	/* Array items a fresh array's own allocation result stored at a
	 * constant index (the last store there; store_facts): what the
	 * array holds is LOOSE (every other item store, a call's writes)
	 * and these, so an item overwritten before the array escapes does
	 * not escape with it. */
	struct hitem {
		size_t c; /* identity * nf + field */
		uint64_t idx;
		hset val;
		bool other;
	} * items;
	uint32_t nitems, capitems;
	hset *loose; /* per identity * nf + field */
	/* Per identity * nf + field: the number of calls made before the
	 * trace first stored that field of the allocation's own result, or
	 * UINT32_MAX.  An immutable field the trace stored is built: a later
	 * call keeps it (enc_call, docs/pypy.md "Immutable fields"). */
	uint32_t *built;
	bool *loose_other;
	uint32_t nf;
	hset esc;
	/* Stores of fresh objects into field F of HOLDER, an object that may
	 * not be fresh, that no call has seen yet: the next call whose descr
	 * ignores F (ir_py_call_ignores) cannot reach them through it, so
	 * they escape at the first call that does not ignore F, at a guard
	 * or at the end.  A later store into F of the same HOLDER replaces
	 * the entry, and one into the item at the same constant index; an
	 * item store at an index that is not a constant adds to its entry.
	 * One entry per (holder, field or item); NOPS at most. */
	struct hpend {
		ir_vid holder;
		uint32_t f;
		hset val;
		uint8_t slot; /* HP_PEND_FIELD, _ITEM (at IDX), _ANY_ITEM */
		uint64_t idx;
	} * pend;
	uint32_t npend;
	/* Per vid, for a reference field load (hp_note_read): 0 none, 1 no
	 * store into that field of that object was pending at the load, 2
	 * one was, holding RDPEND. */
	uint8_t *rdseen;
	hset *rdpend;
	/* Loads of reference fields: field, the call before them (or
	 * HP_NONE) and the address term, for the realism constraints. */
	uint32_t nloads;
	uint32_t *lf, *lk;
	Z3_ast *lobj;
	hmem *cur; /* nf: current field states while encoding */
} htrace;

/* The name and first compared argument of call K of E, as the calls of
 * two traces are compared: a conditional call that always calls as its
 * plain call (ir_py_call_event), any other as its own op. */
static inline const char *hp_call_event(const htrace *e, uint32_t k,
					uint32_t *first)
{
	const ir_op *op = &e->t->ops[e->callop[k]];
	if (e->callplain[k])
		return ir_py_call_event(e->t, op, first);
	*first = 0;
	return ir_op_name(e->t, op);
}

typedef enum hkind {
	H_BASE,	      /* an obligation of oblig.h */
	H_CALL_REACH, /* call k is made by both traces or by neither */
	H_CALL_EQ,    /* call k: same op, arguments and heap */
	H_GUARD_HEAP, /* paired guard fails in both: same heap */
	H_END_HEAP,   /* both reach the end: same heap */
	H_OPT_DEF,    /* OPT's field access K is defined where ORIG is */
} hkind;

typedef struct hobl {
	hkind kind;
	obl b; /* H_BASE; og/pg/o_upto/p_upto for the others */
	uint32_t k;
	uint32_t pos; /* ORIG op index it is about, for the checking order */
	/* Assumed: ORIG is defined (no NULL access) before op d_upto: its
	 * next call at or after the point the obligation is about, or its
	 * end.  Undefined behaviour after the last event before that point
	 * makes the whole rest of the run undefined, and a difference there
	 * is allowed (docs/semantics.md, "Undefined behaviour"). */
	uint32_t d_upto;
} hobl;

typedef struct hlist {
	hobl *v;
	uint32_t n, cap;
} hlist;

/* An initial cell of H0 and what realism says of it: non-NULL (a
 * reference) or >= 0 (a length). */
typedef struct hcellfact {
	Z3_ast cell;
	bool nonnull;
} hcellfact;

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
	Z3_ast *hk;  /* per call k * nf: havoc arrays */
	Z3_ast *rk;  /* per call k: result */
	Z3_ast *rkr; /* per call k: its result when it is a reference */
	uint32_t maxcalls;
	htrace ho, hpp;
	Z3_ast bg; /* background constraints */
	/* Initial cells hp_realism states something of: a string length
	 * the traces read is >= 0 (nonneg_length), an immutable reference
	 * field the original dereferences unchecked is not NULL
	 * (nonnull_field). */
	hcellfact *cells;
	uint32_t ncells, capcells;
	/* What reference terms may be (note_facts, heap_encode.c): an
	 * open-addressing table keyed by the term, MAYCAP a power of two (0:
	 * empty). */
	struct hmayent {
		Z3_ast t;
		hset may;
	} * maytab;
	uint32_t maycap, mayn;
	arena nodes;	       /* the hnode lists */
	hlist Q;	       /* the obligations (hp_obligations) */
	const uint32_t *match; /* per OPT op: its ORIG guard (the pairing) */
	bool loose_guards;     /* the pairing was inferred: replay compares
				  exits, not which guard */
	bool pairing_only;     /* the last replay differed only under the
				  model's pairing of fresh objects (hiso) */
	bool elided;	       /* the last replay's runs met an elidable
				  call only one makes (hp_elided) */
	bool copy_too_long;    /* the last replay had a string copy too
				  long to run (hp_copy_too_long) */
	/* Why the last replay's difference is the model's guess, not a
	 * fact (hp_guess_why), or NULL. */
	const char *guess_why;
	/* Pairings of fresh objects, per ORIG op: the OPT allocation op
	 * paired with ORIG's allocation there, or UINT32_MAX.  HINT_IN
	 * (borrowed, may be NULL) is applied first (hp_scan_idents);
	 * HINT_OUT (owned) is the pairing the runs forced in the last
	 * replay that differed only under the model's (hp_take_hint). */
	const uint32_t *hint_in;
	uint32_t *hint_out;
	bool over_limit; /* beyond the model: more fresh identities than
			  * HP_MAXID, a class used as a value, ... */
	/* Per call k: the fresh identities its reference result may be
	 * (hp_call_results), for the replay to name them. */
	hset *retesc;
	/* Loop-invariant calls returning a reference (enc_pure): per call
	 * site of either trace its term, and whether no fresh object had
	 * escaped in that trace before it. */
	Z3_ast *li_val;
	bool *li_clean;
	uint32_t nli;
	/* Where the last replayed divergence was (hp_divergence_obl): the
	 * call they differ at (UINT32_MAX: none), each run's stop. */
	uint32_t div_call, div_stop_o, div_stop_p;
	interp_outcome div_outcome_o, div_outcome_p;
	jp_err *err;
} hp;

/* Whether call K of E keeps field F of fresh identity X because F is
 * immutable and E stored it before that call (htrace.built).  Items are
 * never built this way: a string may be filled by a call after its
 * length is set. */
static inline bool hp_built(const hp *h, const htrace *e, uint32_t x,
			    uint32_t f, uint32_t k)
{
	return h->f[f].immutable && !h->f[f].indexed &&
	       e->built[(size_t)x * e->nf + f] <= k;
}

/* Whether call K of E keeps immutable field F of fresh identity X: E
 * built it before the call, or E is the optimized trace and the original
 * built it before its own call K, the same event.  In the one world the
 * two runs share, a call does not set a field the original had already
 * constructed, so the optimized trace's run does not see it set either
 * (docs/pypy.md "Immutable fields").  The original is encoded first
 * (heap.c), so its built is complete when the optimized trace's calls
 * are encoded. */
static inline bool hp_kept(const hp *h, const htrace *e, uint32_t x, uint32_t f,
			   uint32_t k)
{
	return hp_built(h, e, x, f, k) ||
	       (e == &h->hpp && hp_built(h, &h->ho, x, f, k));
}

static inline Z3_ast K(hp *h, Z3_ast a)
{
	return zc_keep(&h->S, a);
}

/* ---- heap_model.c ------------------------------------------------ */

uint32_t hp_field_index(const hp *h, const char *name);

/* The sort of F's cell keys: BV64 addresses, or BV128 (address, index)
 * for array items. */
Z3_sort hp_key_sort(const hp *h, const hfield *f);

/* The index of the class named NAME (made on first use), and of the one
 * named by the LEN bytes at NAME (HP_NONE when the pair names none). */
uint32_t hp_class_index(hp *h, const char *name);
uint32_t hp_class_find(const hp *h, const char *name, size_t len);

jp_status hp_scan_fields(hp *h, const ir_trace *t);
/* A ConstClass of T used as a value (an argument of a call other than the
 * function it names, an output of finish): the model has no term for a
 * class, and two classes would look alike.  JP_EUNSUPPORTED with
 * over_limit: the pair is unknown. */
jp_status hp_scan_classes(hp *h, const ir_trace *t);

jp_status hp_scan_idents(hp *h);

uint32_t hp_count_calls(const ir_trace *t);

void hp_make_calls(hp *h);

Z3_ast hp_cptr_addr(hp *h, const char *name);

void hp_scan_cptrs(hp *h, const ir_trace *t);

void hp_make_background(hp *h);

/* Whether op I of the original T reads an immutable reference field
 * whose value T dereferences with no test of its own: hp_realism states
 * the field's initial cell non-NULL (heap_encode.c, nonnull_field), and
 * a concrete run that reads NULL there is not a run of PyPy (the
 * replay's realistic). */
bool hp_nonnull_read(const ir_trace *t, uint32_t i);

/* After both traces are encoded: what call results may be (added to the
 * background; h->retesc). */
jp_status hp_call_results(hp *h);

jp_status hp_realism(hp *h);

/* ---- heap_classes.c ---------------------------------------------------- */

/* Adds to the background what the pair assumes of its constants' classes:
 * type(K) != C for each ptr_eq/ptr_ne of either trace with the descr
 * "<not-class=C>" and the ConstPtr K as an operand (jitprove log's
 * constant classes, ir/pypylog_consts.c). */
void hp_class_facts(hp *h);

/* ---- heap_escape.c: points-to and escape facts ------------------------ */

/* What escaped in E, with every store no call has seen yet: what a guard
 * exit or the end shows. */
hset hp_with_pending(const htrace *e);

/* At CALL: the stores it sees escape now; those into fields its descr
 * ignores wait for a later call. */
void hp_flush_pending(hp *h, htrace *e, const ir_op *call);

/* M, the objects the references among V[0..N) may be, and all they
 * reach; at a call whose descr is CD (H given), not through the fields
 * it ignores.  hp_escape_list: with no call. */
hset hp_escape_list_at(const hp *h, const htrace *e, hset m, const ir_vid *v,
		       uint32_t n, const char *cd);
hset hp_escape_list(const htrace *e, hset m, const ir_vid *v, uint32_t n);

/* Cell C (identity * nf + field) may now also hold VAL (OTHER: an object
 * that is not fresh, or any escaped fresh one). */
void hp_cont_add(htrace *e, size_t c, hset val, bool other);

/* The points-to facts of a load of field or items F through SRC into
 * DST; of a store of the reference V into field F of OBJ (item IDX when
 * ITEM); that E stored field F of OBJ before its next call. */
void hp_load_facts(htrace *e, uint32_t f, ir_vid src, ir_vid dst);
void hp_store_facts(htrace *e, uint32_t f, ir_vid obj, ir_vid v, bool item,
		    ir_vid idx);
void hp_mark_built(htrace *e, uint32_t f, ir_vid obj);

/* Op I of E is getfield_gc_r of reference field F: notes the store no
 * call has seen yet in that field of its object, for hp_store_back. */
void hp_note_read(htrace *e, uint32_t i, uint32_t f);

/* Op I of E, a setfield_gc of reference field F that hp_store_facts has
 * just taken, puts back what a getfield_gc_r of the same field of the
 * same object read, with nothing in between that could have changed
 * that field of any object but by a store into the same object: the
 * field then holds what it held at the read, and what it left pending
 * is what was pending then (heap_escape.c says why that is sound). */
void hp_store_back(htrace *e, uint32_t i, uint32_t f);

/* ---- heap_encode.c ----------------------------------------------- */

jp_status hp_enc_one(hp *h, htrace *e);

/* The application, for op I of E that is a function of its arguments
 * (ir_pycall_of: not opaque, not IR_PYCALL_NOEXC), of its uninterpreted
 * function to E's values of the arguments after the function: the
 * result, or for a cached hash the value F it stands for (what the
 * replay lists in interp_env.pure).  NULL when out of memory. */
Z3_ast hp_pure_app(hp *h, const htrace *e, uint32_t i);

/* The value of the cell (J, JI) (JI NULL for a plain field) after the
 * writes W over BASE; and of item (J, JI) of state M (heap_encode.c). */
Z3_ast hp_read_from(hp *h, Z3_ast base, const hnode *w, Z3_ast j, Z3_ast ji);
Z3_ast hp_mem_read_item(hp *h, hmem m, Z3_ast j, Z3_ast ji);

/* "The heaps X and Y (nf states each) differ" where CALL (an op of the
 * original, or NULL) sees them: every field but those its descr says it
 * ignores (ir_py_call_ignores). */
Z3_ast hp_heap_neq_at(hp *h, const hmem *x, const hmem *y, const ir_op *call);

bool hp_trace_alloc(hp *h, htrace *e, const ir_trace *t);

void hp_trace_free(htrace *e);

/* "If ORIG reaches op I, its object is not NULL", or NULL when op I
 * cannot be undefined. */
Z3_ast hp_def_at(hp *h, uint32_t i);

/* ORIG is defined before op UPTO: the conjunction of hp_def_at. */
Z3_ast hp_def_upto(hp *h, uint32_t upto);

Z3_ast hp_goal_neg(hp *h, const hobl *q);

void hp_describe(const hp *h, const hobl *q, strbuf *sb);

/* For ver_opts.explain: the fields model M makes differ between the two
 * traces' heaps at each call both make and at the end, a line each into
 * SB. */
void hp_explain_heaps(hp *h, Z3_model m, strbuf *sb);

jp_status hp_build_obls(hp *h, const obl_list *L, hlist *out);

/* After both traces are encoded: every loop-invariant reference is no
 * fresh object (added to the background), when in one of the traces a
 * call of it with the same arguments comes before any fresh object
 * escaped; else JP_EUNSUPPORTED with over_limit (the pair is unknown). */
jp_status hp_li_facts(hp *h);

/* ---- comparing two runs (heap_compare.c) -------------------------------- */

struct hiso;

/* One run of a trace on the interpreter, with its trace's encoding (the
 * identities of its allocations). */
typedef struct hrun {
	const ir_trace *t;
	const htrace *e;
	const interp_result *r;
	const interp_env *env;
	/* The map of fresh objects (shared by both runs), or NULL: the
	 * model's pairing. */
	struct hiso *iso;
} hrun;

/* Whether runs A (ORIG) and B (OPT), with ISO NULL, differ as the model
 * compares them, and differ too when fresh objects are paired as the runs
 * themselves force (the first meeting of two fresh objects of one type
 * where the world sees them pairs them): a difference that only the
 * model's pairing of fresh objects makes is none (*PAIRING_ONLY, when
 * not NULL, then says so); so is one under a map that pairs identities
 * the model kept apart, since the world's writes into fresh objects are
 * the model's per identity.  WHY is appended how they differ under the
 * model's pairing; *AT_CALL (when not NULL) which call they differ at
 * (UINT32_MAX: at the end or exit).  With *PAIRING_ONLY, A2B (HP_MAXID
 * entries, when not NULL) receives the forced map from A's identities to
 * B's (HP_NONE: none).  Runs where one makes a call of an elidable
 * function, or the guard_no_exception on one, that the other does not
 * differ in nothing this can confirm: PyPy may remove or fold such a call
 * (heap_compare.c, removable); *ELIDED (when not NULL) says so. */
bool hp_runs_diverge(const hp *h, const hrun *A, const hrun *B, strbuf *why,
		     uint32_t *at_call, bool *pairing_only, uint32_t *a2b,
		     bool *elided);

#endif
