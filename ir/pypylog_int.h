/*
 * pypylog_int.h - what the files of the PyPy front end (pypylog.c,
 * pypylog_rewrite.c, pypylog_ptrs.c, pypylog_bridge.c, ...) share; not a
 * public interface.
 *
 * A copier copies ops of one trace into another it owns the value map
 * of: values are mapped (constants re-interned, ConstPtr names possibly
 * renamed), guards get fresh implicit labels unless keep_labels.  The
 * rewrites of a pair replace its traces (pl_replace_traces frees the
 * old ones) or leave them as they were when a step fails (out of
 * memory): a rewrite never leaves a pair half done.
 */
#ifndef JP_IR_PYPYLOG_INT_H
#define JP_IR_PYPYLOG_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "pypylog.h"
#include "trace.h"

typedef struct copier {
	ir_trace *d;	   /* the trace being built */
	const ir_trace *s; /* the source */
	ir_vid *map;	   /* source vid -> vid in d, IR_NOVAL unset */
	uint32_t nguards;  /* guards emitted into d */
	bool keep_labels;  /* copy guard labels instead of numbering them */
	/* copy guards' fail-args too: a log's trace rewritten before the
	 * pairs are made is the parent of bridges, found by its guards'
	 * fail-args (pypylog.c, parent_guard; pypylog_bridge.c) */
	bool keep_failargs;
	/* ConstPtr names to rename while copying (pl_pair.opt_same) */
	const char **ren_from, **ren_to;
	uint32_t nren;
} copier;

/* Sets C up to copy from S into D; false when out of memory (C->map is
 * malloc'd: the caller frees it). */
bool pl_copier_init(copier *c, ir_trace *d, const ir_trace *s);
/* Sets C up to copy T into a new trace C->d, labels kept; false (nothing
 * to free) when out of memory. */
bool pl_copier_new(copier *c, const ir_trace *t);
/* Copies op OPI of the source into D, its result named with SUFFIX
 * appended; false (WHY set) when an argument has no value in D. */
bool pl_copy_op(copier *c, uint32_t opi, const char *suffix, char *why,
		size_t whysize);
/* The value of source vid V in C's trace: its copy, or the constant
 * re-interned (ConstPtr names renamed); IR_NOVAL when it has none. */
ir_vid pl_map_val(copier *c, ir_vid v);
/* Emits END: FINISH keeps its outputs, a jump becomes finish(). */
bool pl_emit_end(copier *c, const ir_op *end);
/* Maps every input of C's source to a new input of C's trace, in order;
 * false when out of memory. */
bool pl_copy_inputs(copier *c);
/* A copy of T (labels kept) whose first ops PREFIX emits (C's trace has
 * T's inputs mapped, nothing else yet): the facts both traces of a pair
 * start with.  NULL when PREFIX or a copy fails. */
ir_trace *pl_with_prefix(const ir_trace *t,
			 bool (*prefix)(copier *c, void *ctx), void *ctx);
/* Emits PREFIX(CTX) at the start of both of P's traces (pl_with_prefix:
 * the same ops in each, so they only remove runs) and adds their number
 * to P->nprefix; false, P unchanged, when a copy fails. */
bool pl_prefix_both(pl_pair *p, bool (*prefix)(copier *c, void *ctx),
		    void *ctx);
/* Whether some op of T takes ConstPtr NAME, as an argument or fail-arg. */
bool pl_mentions(const ir_trace *t, const char *name);
/* Ends C's copy: emits the source's end (pl_emit_end), frees C->map;
 * returns C's trace, or NULL (the trace freed) when !OK or that fails. */
ir_trace *pl_copy_done(copier *c, bool ok);
/* The index of T's last op (jump or finish). */
uint32_t pl_end_op(const ir_trace *t);

/* T with N extra inputs NAMES (kind from the first letter), the result
 * of op AT[k] (ascending, NAT of them) taking input WHICH[k]; those ops
 * are left out.  NULL when out of memory. */
ir_trace *pl_with_inputs(const ir_trace *t, const char *const *names,
			 uint32_t n, const uint32_t *at, const uint32_t *which,
			 uint32_t nat);
/* P's traces become O and T when both are non-NULL; else O and T are
 * freed and P is unchanged. */
void pl_replace_traces(pl_pair *p, ir_trace *o, ir_trace *t);

/* Classes of allocations (pypylog_classes.c).  pl_contested_sizes puts
 * into OUT (owned: pl_sizes_free) the <SizeDescr N> texts of TR's
 * allocations that pl_name_classes must not name by a line of two or
 * more classes; JP_ENOMEM.  pl_name_classes names T's allocations;
 * RECORDED says T is an unoptimized trace, whose guards passed on the
 * recorded run. */
typedef struct pl_sizes {
	char **v;
	uint32_t n;
} pl_sizes;
jp_status pl_contested_sizes(ir_trace *const *tr, uint32_t n, pl_sizes *out);
void pl_sizes_free(pl_sizes *s);
void pl_name_classes(ir_trace *t, bool recorded, const pl_sizes *contested);

/* Rewrites of one parsed section (pypylog_rewrite.c). */
/* Names ConstClass(N), a vtable address, for the one class the fields of
 * the objects guarded to be N name, across the traces TR of one log. */
void pl_name_numeric_classes(ir_trace *const *tr, uint32_t n);
void pl_oopspec_calls(ir_trace *t);
void pl_pure_call_names(ir_trace *t);
/* May replace *T by a copy without the call_pure_X ops that repeat an
 * earlier one (same function and arguments), each repeat's result named
 * by the earlier one's. */
void pl_repeated_pure_calls(ir_trace **t);
/* The same for the call_X pl_pure_call_names made of a call_pure_X
 * (IR_OPF_PURE_CALL): for an unoptimized trace after a rewrite forwarded
 * its field reads (pypylog_rewrite.c). */
void pl_repeated_elidable_calls(ir_trace **t);
/* A copy of T with ops FROM[k] (N of them, ascending; each a call with a
 * result) left out, each one's result named by op TO[k]'s, and a
 * guard_no_exception right after each left out too; NULL when out of
 * memory. */
ir_trace *pl_drop_repeats(const ir_trace *t, const uint32_t *from,
			  const uint32_t *to, uint32_t n);
/* May replace *T by a copy with string slices of a known length spelled
 * as the new string and its items. */
/* How one rewrite spells an op: MATCH says whether op I of T is one it
 * rewrites, EMIT writes op I of C's source into C's trace instead of the
 * copy (false when out of memory or when it cannot). */
typedef struct pl_rewrite {
	bool (*match)(const ir_trace *t, uint32_t i);
	bool (*emit)(copier *c, uint32_t i);
} pl_rewrite;

/* Replaces *TP by a copy with every op RW matches rewritten, guards with
 * their labels and fail-args; *TP is left as it was when none matches or
 * a step fails. */
void pl_rewrite_ops(ir_trace **tp, const pl_rewrite *rw);
/* Whether op I of T is a guard_no_exception right after an op CALL
 * takes (only debug_merge_points between): the guard of a call a
 * rewrite leaves out. */
bool pl_guard_of_call(const ir_trace *t, uint32_t i,
		      bool (*call)(const ir_trace *t, uint32_t i));

/* Whether V of T is an integer constant at most MAX (*OUT). */
bool pl_const_int(const ir_trace *t, ir_vid v, uint64_t max, uint64_t *out);

void pl_str_slices(ir_trace **t);
/* V of T as BASE + *OFF (wrapping), following int_add and int_sub by
 * constants and same_as_i; BASE is IR_NOVAL when V is the constant *OFF
 * (pypylog_strings.c). */
ir_vid pl_lin_of(const ir_trace *t, ir_vid v, uint64_t *off);
/* Whether V of T is the result of new(descr=DESCR): a string or array the
 * trace made (pypylog_strings.c). */
bool pl_new_of(const ir_trace *t, ir_vid v, const char *descr);
/* Gives the string equality helpers of T one function name per family,
 * and ll_streq of a one-char string its char form (pypylog_rewrite.c). */
void pl_str_eq_calls(ir_trace *t);
/* May replace *T by a copy with compares of a string with one char
 * spelled as a char compare: a slice of length 1, or a one-char string
 * the trace made (pypylog_strings.c). */
void pl_str_char_compares(ir_trace **t);
/* May replace *T by a copy without its elidable calls (EF=0 or 3) whose
 * result nothing uses, and their guard_no_exception (pypylog_rewrite.c). */
void pl_unused_pure_calls(ir_trace **t);
/* Spells float_truediv(x, C) of T as float_mul(x, 1/C) when C and 1/C are
 * powers of two, as PyPy's optimizer does (pypylog_rewrite.c). */
void pl_float_div_pow2(ir_trace *t);
/* Makes float_mul(x, 1.0) of T a copy of x, as PyPy's optimizer does
 * (pypylog_rewrite.c). */
void pl_float_mul_one(ir_trace *t);
/* An optimized float op's constant that is none of the original's but
 * prints with six decimals as exactly one of them becomes that one
 * (P->nfloat counts them; pypylog_rewrite.c). */
void pl_float_consts(pl_pair *p);
/* May replace *T by a copy with virtual_ref and virtual_ref_finish spelled
 * as the structure PyPy's optimizer makes of them. */
void pl_virtual_refs(ir_trace **t);
/* jit_force_virtual calls of a vref whose fields the trace knows, as the
 * value they return (pypylog_rewrite.c). */
void pl_forced_vrefs(ir_trace **t);
/* May replace *T by a copy with arraycopy calls expanded (on failure,
 * *T is left as it was). */
void pl_arraycopy(ir_trace **t);
/* Whether op OP of T reads raw memory at a constant address
 * (getfield_raw_i/_f): an opaque op that changes nothing
 * (pypylog_rewrite.c). */
bool pl_is_raw_read(const ir_trace *t, const ir_op *op);
/* Rewrites of a shaped pair. */
void pl_raw_inputs(pl_pair *p);
void pl_force_token_input(pl_pair *p);
/* NREC: ORIG's first NREC ops are the recorded ones (pl_recorded_same).
 * May run again on the rewritten pair: names made one stay one, and
 * P->nsame grows by the identities this run adds. */
void pl_same_ptrs(pl_pair *p, uint32_t nrec); /* pypylog_ptrs.c */
/* What holds of a bridge's inputs on entry: the facts about the live
 * fail-args of guard G of PARENT (its optimized section, as parsed) that
 * hold at every arrival at G, PE those of PARENT's own inputs when it is
 * a bridge (or NULL).  NULL when out of memory; freed by pl_entry_free
 * (pypylog_bridge.c). */
typedef struct pl_entry pl_entry;
pl_entry *pl_entry_facts(const ir_trace *parent, uint32_t g,
			 const pl_entry *pe);
void pl_entry_free(pl_entry *e);
/* Bridge P leaves from a guard of PARENT: its entry facts E (what holds
 * of its inputs and of the heap on entry) and the loop-invariant calls
 * it inherits become guards at the start of both traces
 * (pypylog_bridge.c); P->nfacts counts them.  Unless O->apart, a heap
 * fact about a ConstPtr names it by role (an identity, P->nsame); unless
 * O->write_all, a heap fact may have crossed an elidable call (a field
 * kept, P->nkept). */
void pl_bridge_facts(pl_pair *p, const ir_trace *parent, const pl_entry *e,
		     const pl_opts *o);
/* What the run P's ORIG records (its first NREC ops) proves about its
 * ConstPtr objects: their identities, classes and immutable fields
 * become guards at the start of both traces (pypylog_recorded.c);
 * P->nrecorded counts them.  Called again on a bridge with its facts
 * (they held on the recorded run too), it adds what is new. */
void pl_recorded_facts(pl_pair *p, uint32_t nrec);
/* Calls SAME(CTX, A, B) for ConstPtr names A and B of T that the run T's
 * first NREC ops record is one object (facts, not assumptions): the role
 * pairing takes them as one object (pypylog_ptrs.c). */
void pl_recorded_same(const ir_trace *t, uint32_t nrec,
		      void (*same)(void *ctx, const char *a, const char *b),
		      void *ctx);
/* What the run T's first NREC ops record fixes (guards, the ops'
 * semantics; pypylog_recorded.c), for each of the N values VS: whether
 * its integer is known (KNOWN[k]) and what it is (X[k]); the ConstPtr
 * it is (KPTR[k], a value of T, or IR_NOVAL).  False when out of
 * memory. */
bool pl_run_values(const ir_trace *t, uint32_t nrec, const ir_vid *vs,
		   uint32_t n, bool *known, uint64_t *x, ir_vid *kptr);
/* What PyPy's optimizer read from constants' memory: a value of the
 * original read from a constant through immutable fields and items
 * (getarrayitem_gc_pure_*) at indices the run fixes, where the optimized
 * trace has a constant of its own (a ConstPtr the original does not
 * have, an integer) in the one role both traces use them in.  Each
 * becomes a guard_value of that read at the start of both traces,
 * counted as a ConstPtr identity (pypylog_folds.c). */
void pl_folded_reads(pl_pair *p, uint32_t nrec);
/* Takes apart the fresh objects of P's traces whose address goes nowhere
 * but into their own field accesses, guards and pointer comparisons:
 * their reads become the values stored (pypylog_private.c). */
void pl_private_objects(pl_pair *p);
/* Renames the list fields of P's two traces for their lists' item types
 * when every list they access has one (pypylog_types.c); again after
 * facts were added, for the facts' accesses.  False when out of memory
 * (the traces may then be half renamed: the pair is not to be checked). */
bool pl_list_types(pl_pair *p);
/* The fields the optimizer took each call to keep, written into the
 * descr of both traces' call (pypylog_effects.c); P->nkept counts them. */
void pl_call_effects(pl_pair *p);
/* Leaves out of P's original a dict lookup that repeats an earlier one
 * PyPy's cache answers, when the optimized trace has fewer lookups
 * (pypylog_lookups.c, after pl_call_effects); P->nkept counts them. */
void pl_dict_lookups(pl_pair *p);
/* The name of the ConstClass OP of T calls with its first argument, of
 * a call with N arguments and a result, or NULL (pypylog_effects.c). */
const char *pl_call_fn(const ir_trace *t, const ir_op *op, uint32_t n);
/* The calls of P's traces as pl_call_effects pairs them: *C the optimized
 * trace's call ops (*NC of them; UINT32_MAX where unpaired), *O the
 * original's partner of each; both malloc'd.  False (nothing to free)
 * when out of memory. */
bool pl_paired_calls(const pl_pair *p, uint32_t **c, uint32_t *nc,
		     uint32_t **o);
/* Whether call ops A of T and B of U call the same function the same
 * way: the op, its function and its descr (pypylog_effects.c). */
bool pl_same_call(const ir_trace *t, const ir_op *a, const ir_trace *u,
		  const ir_op *b);
/* Whether the pairing C, O of pl_paired_calls (NC calls) is the only one
 * there can be: no call either trace makes alone calls what a call of the
 * other trace calls (same function, op and descr), so no other pairing
 * could take it.  False when out of memory. */
bool pl_calls_forced(const pl_pair *p, const uint32_t *c, uint32_t nc,
		     const uint32_t *o);
/* Whether OP leaves the chars of string S as they are: it does not take
 * S, or only reads it or stores it elsewhere (a call or copystrcontent
 * taking S could fill a new string; pypylog_rewrite.c). */
bool pl_leaves_chars(const ir_op *op, ir_vid s);
/* The classes the optimized trace shows its ConstPtrs are not, written
 * into the descr of the original's instance comparisons
 * (pypylog_consts.c); P->nclasses counts them. */
void pl_const_classes(pl_pair *p);
/* The one-char strings the optimized trace shows its ConstPtrs are: an
 * original str_eq with the constant becomes str_eq_char with the char
 * (pypylog_consts.c); P->nstrs counts them. */
void pl_const_strings(pl_pair *p);
/* The constant strings the original copies whole into a concatenation
 * whose chars the optimized trace writes one by one: their length and
 * chars as facts at the start of both traces (pypylog_consts.c); P->nstrs
 * counts them.  After the recording's facts, which would take these
 * guards for recorded ones. */
void pl_const_concats(pl_pair *p);
/* Leaves out of both finishes of P the outputs that are the same
 * ConstClass in both (pypylog_consts.c). */
void pl_class_outputs(pl_pair *p);
/* Whether op I of T is an instance comparison of a ConstPtr with a value
 * a guard_class before it gives a class: one PyPy's optimizer folds when
 * the constant's class is another (pypylog_consts.c). */
bool pl_class_foldable(const ir_trace *t, uint32_t i);

/* ---- heap facts of a bridge (pypylog_bridge.c, pypylog_keep.c) ---------- */

/* "field DESCR of input OBJ holds input VAL" (VAL < nfail), or holds the
 * constant K (VAL == HF_CONST: NULL for a reference field), or a ConstPtr
 * (VAL == HF_PTR).  OBJ == HF_PTR: the object is a ConstPtr.  A ConstPtr
 * is a name of the parent's section: the bridge's name for it is found
 * by role (pl_fact_names), and kept in OBJNAME / VALNAME. */
#define HF_CONST UINT32_MAX
#define HF_PTR	 (UINT32_MAX - 1)
typedef struct hfact {
	uint32_t obj, val;
	uint64_t k;
	ir_opcode get; /* IR_GETFIELD_GC_R or _I */
	const char *descr;
	const char *pobj;	       /* OBJ == HF_PTR: the parent's name */
	const char *objname, *valname; /* the bridge's names */
	bool ambiguous; /* two ConstPtr objects of the parent with DESCR */
	bool kept;	/* carried across a call (pl_pair.nkept) */
	bool weak;	/* across a call PyPy may take to write it (below) */
	/* VAL == HF_PTR, a constant the bridge gives no name of its own:
	 * named HF_ANON (with the fact's index) in both traces, an object
	 * of its own (pl_fact_names). */
	bool anon;
} hfact;

#define HF_ANON "heapfact%u"

typedef struct hfacts {
	hfact *v;
	uint32_t n, cap;
} hfacts;

/* ConstPtr names of a bridge that a fact shows are one object: FROM
 * becomes TO in both traces (malloc'd copies: the traces they come from
 * are replaced before the renaming). */
typedef struct pren {
	char *from[8], *to[8];
	uint32_t n;
} pren;

/* Whether field D of X may change in a real run between ops FROM and TO
 * of T (pypylog_bridge.c): a store to D through any object, or a call
 * (unless D is immutable and T did not allocate X); with KEPT, an
 * elidable call keeps D (*KEPT set), and with ANY_CALL every call does. */
bool pl_may_change_calls(const ir_trace *t, uint32_t from, uint32_t to,
			 const char *d, ir_vid x, bool *kept, bool any_call);
/* The constant Y is known to equal at op TO of T (itself, or a guard on
 * it in [FROM, TO)): *K; false when none. */
bool pl_const_of(const ir_trace *t, uint32_t from, uint32_t to, ir_vid y,
		 uint64_t *k);
/* The bridge's names for the ConstPtrs of the facts HS, read from its
 * unoptimized trace B (OPT its optimized one); a fact whose object is a
 * ConstPtr without a name is dropped, and every such one when APART; a
 * value without a name (every one when APART) is a constant of its own
 * (hfact.anon).  Identities the names rest on go into REN; their number
 * is returned (pypylog_keep.c). */
uint32_t pl_fact_names(const ir_trace *b, const ir_trace *opt, hfacts *hs,
		       bool apart, pren *ren);
/* Whether bridge P's traces show that PyPy used weak fact F
 * (pypylog_keep.c). */
bool pl_weak_used(const pl_pair *p, const hfact *f, const hfacts *hs);

/* The root of I in the union-find forest UP (paths halved on the way):
 * ConstPtr names (pypylog_ptrs.c), values equal on the recorded run
 * (pypylog_recorded.c). */
static inline uint32_t pl_uf_find(uint32_t *up, uint32_t i)
{
	while (up[i] != i)
		i = up[i] = up[up[i]];
	return i;
}

/* The name of ConstPtr V of T, or NULL when V is no ConstPtr. */
static inline const char *pl_cptr_name(const ir_trace *t, ir_vid v)
{
	if (v == IR_NOVAL || ir_val(t, v)->tag != IR_VAL_CONST_PTR)
		return NULL;
	return ir_strtext(t, ir_val(t, v)->name);
}

/* The ConstPtr the first guard_value on V in ops [FROM, TO) of T pins it
 * to, or IR_NOVAL. */
static inline ir_vid pl_pinned(const ir_trace *t, ir_vid v, uint32_t from,
			       uint32_t to)
{
	for (uint32_t m = from; m < to; m++) {
		const ir_op *g = &t->ops[m];
		if (g->opc == IR_GUARD_VALUE && g->nargs == 2 &&
		    g->args[0] == v && pl_cptr_name(t, g->args[1]))
			return g->args[1];
	}
	return IR_NOVAL;
}

/* Whether the index of item access OP of T (its second argument) is an
 * integer constant, in *C. */
static inline bool pl_const_index(const ir_trace *t, const ir_op *op,
				  uint64_t *c)
{
	if (op->nargs < 2 || ir_val(t, op->args[1])->tag != IR_VAL_CONST_INT)
		return false;
	*c = ir_val(t, op->args[1])->cval;
	return true;
}

/* Hashing of how values are computed (pypylog_ptrs.c). */
uint64_t pl_mix(uint64_t h, uint64_t x);
uint64_t pl_hash_text(const char *s);
uint64_t pl_val_sig(const ir_trace *t, ir_vid v, int depth);

#endif
