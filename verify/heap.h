/*
 * heap.h - the verifier's heap model (traces with new, getfield, setfield,
 * guard_class and escape calls).
 *
 * Model (docs/verifier.md, "The heap"):
 *  - references are 64-bit bit-vectors; input references are unconstrained
 *    (they may alias each other);
 *  - every fresh object has an *identity*: allocations of the two traces
 *    are paired by the first access path through which each becomes
 *    observable, when both have the same op and type and the path is
 *    unique among the unpaired allocations of each trace (a name says
 *    nothing of what an object is for: another optimizer, or a pair
 *    written by hand, may give one name to another object): "call K arg
 *    J", "end arg J", "guard L failarg J",
 *    "in input K.F" (stored into field F of the K-th input; likewise
 *    of a ConstPtr, of a loop-invariant call's result -- also an input
 *    a guard_true(ptr_eq) says is one -- or of an object read from a
 *    field of one of those; "#k" for the k-th store into that cell; a
 *    read of such a cell after a store into it, with no call between,
 *    holds what was stored), each extended by ".F" for
 *    an object first reached through field F of an object with a path
 *    (what the field holds then: a reference store replaced by a later
 *    one through the same allocation's result gives no path; an object
 *    held in several cells takes the smallest of their paths, breadth
 *    first).  Allocations the paths leave unpaired are paired by the same
 *    result name, op and type (the optimizer keeps the name of an
 *    allocation it materializes).  Any other fresh object is an identity
 *    of its own trace.  The pairing is a guess: the replay confirms a
 *    difference only where it holds too with fresh objects paired as the
 *    runs force (hp_pairing_only).  Identity k
 *    has one symbolic address a_k, shared by both traces, distinct from
 *    NULL, from every input and from the others;
 *  - one array per field, Array(BV64 -> BV64) whatever kinds it holds
 *    (integers zero-extended, read back as their low W bits), starting
 *    from a symbolic initial array shared by both traces; outside the toy
 *    spelling a field used with both kinds is an input error (a PyPy descr
 *    has one kind).  Stores are not array stores: a heap
 *    state is a list of writes over an array that is only read, and a
 *    read is an if-then-else chain over the writes (Z3's array theory is
 *    slow on select-over-store chains), without the writes whose cell
 *    differs by the points-to facts: a fresh object the other address
 *    may not be (heap_encode.c, addr_info; docs/trust.md);
 *  - array items (getarrayitem_gc_*, setarrayitem_gc): one array per
 *    item descr, Array(BV128 -> BV64) keyed by the concatenation of the
 *    address and the index word, so item (p, i) is one cell at any index
 *    (docs/semantics.md, "Arrays"); the same write lists, an item write
 *    carrying its index;
 *  - a field whose descr ends in ".length" (an array's or a string's
 *    length) is not changed by calls;
 *  - a type function from addresses to class numbers for objects that are
 *    not fresh; fresh objects have the type of their descr;
 *  - the k-th call (escape_n / escape_i / opaque) of either trace returns
 *    the same unknown r_k and replaces every field by a shared havoc array
 *    H_k_f,
 *    except the slots of fresh objects that have not escaped in that trace;
 *    a reference result is NULL, an object that is not fresh, or a fresh
 *    identity escaped at the call in both traces (the same a_x names the
 *    paired objects; docs/verifier.md, "Calls", says why that is every
 *    object a world can hand back);
 *  - what is observable: guards, outputs (and fail-args with --failargs)
 *    as before, the calls (same op, same arguments, in the same order),
 *    and the heap at every call, at the end and at a failing aligned guard,
 *    compared as whole arrays after the slots of fresh objects that have
 *    not escaped are set to 0.  Escape is decided statically: passed to a
 *    call (closed over the fields the call sees, not those its descr
 *    ignores), output, stored into a fresh object that escapes later
 *    while it still holds it (a store through an allocation's own result
 *    replaces the field's contents); stored through a reference that may
 *    be an object that is not fresh, or into an escaped fresh object, at
 *    the next call that does not ignore that field (ir_py_call_ignores),
 *    a guard exit or the end, unless a field store into the same
 *    holder's field replaces it first (htrace.pend; an item store adds;
 *    the interpreter's reach at a call skips the fields the call ignores
 *    alike);
 *  - undefined behaviour: a field or item access or guard_class through
 *    NULL.
 *    Every obligation assumes ORIG defined up to its next call at or after
 *    the point the obligation is about; each access of OPT that may be
 *    NULL is an obligation of its own (docs/semantics.md).
 *
 * A ConstPtr(name) is one symbolic address per name, shared by both
 * traces: non-null, distinct from every fresh object, free to be an input
 * object or another ConstPtr's; its object is not fresh (its fields start
 * in the initial heap, calls may change them, what is stored into it
 * escapes).  Counterexamples place it (interp_env.ptrs).
 *
 * Opaque ops are calls like escape_i / escape_n (the same call when the
 * names match), whatever they return; force_token and virtual_ref never
 * return an object of the trace.
 *
 * What PyPy's descrs guarantee (docs/pypy.md; ir_pycall_of):
 *  - an elidable call that cannot raise (EF=0) with integer arguments, a
 *    loop-invariant one (EF=1) with constant arguments, and force_token
 *    are no calls of the model: the application of an uninterpreted
 *    function of (function name, arguments) shared by both traces, with
 *    no effect on the heap.  A loop-invariant reference (and the frame) is
 *    no fresh object, when one trace makes the call before any escape
 *    (else the pair is unknown, hp_li_facts);
 *  - a field whose descr ends in " pure" keeps its value across a call
 *    except in escaped fresh objects;
 *  - a conditional call (cond_call, cond_call_value_*) whose condition
 *    simplifies to a constant is no event when it never calls, and the
 *    event of its plain call when it always does; any other is an event
 *    of its own both traces make alike (enc_cond);
 *  - a string length (<str>.length, <unicode>.length) of an object that
 *    is not fresh is >= 0.
 *
 * More than HP_MAXID fresh identities: VER_UNKNOWN with the reason.
 *
 * Modes: the pairing is the checker's (labels, or inference when the
 * optimized trace has none).  Aligned mode compares the heap at every
 * failing paired guard, and needs paired guards in order (a reordered
 * pair is unknown).  Trace mode (and the inferred pairing, whose
 * counterexamples are checked the way trace mode sees runs) compares
 * calls, outputs and heaps of runs that reach both ends, and two runs
 * that both leave at a guard are alike.
 *
 * Integer ops take the integer verifier's terms (enc_trace_op: folding,
 * canonical order, peepholes), so a division by a constant and the
 * optimizer's multiply-high sequence for it are one term here too.  The
 * checker's solvers, abstraction, ranges, lemmas and isolation apply to
 * heap pairs as to any other (verify/check.c).
 *
 * A counterexample is replayed on the interpreter with an environment
 * built from the model (input addresses, initial fields, types, call
 * results -- a fresh object named per trace, interp_env.call_ret_obj --,
 * call writes to objects that are not fresh, the values of the
 * uninterpreted functions at the arguments the traces use) and compared
 * concretely (hp_diverges).  Call writes naming fresh objects go to each
 * trace's run under its own names (interp_env.obj_writes); the interpreter
 * applies one only if the world reaches the object at the call.  A model
 * that does not replay is an internal error (JP_EINTERNAL), unless the
 * interpreter rejected such a write (the static escape analysis allowed
 * it, or a returned fresh object the world does not reach): that
 * obligation is then VER_UNKNOWN, never refuted or proved.
 * Before the solver, both traces run on the checker's screening inputs in
 * a plain environment (hp_screen); a divergence there is a
 * counterexample at once.
 */

/* The fresh identities (allocations of the two traces, paired ones once)
 * a pair may have. */
#define HP_MAXID 64
#ifndef JP_VERIFY_HEAP_H
#define JP_VERIFY_HEAP_H

#include <stdbool.h>

#include "ir/interp.h"
#include "ir/strbuf.h"
#include "ir/trace.h"
#include "verify/check.h"
#include "verify/oblig.h"
#include "verify/z3ctx.h"

/* Whether T has an op that touches the heap. */
bool hp_uses_heap(const ir_trace *t);

/* JP_EUNSUPPORTED when T uses something the heap model does not cover. */
jp_status hp_supported(const ir_trace *t, const char *file, jp_err *err);

/* ---- the backend of the one checker (verify/check.c) ----
 *
 * The checker drives a heap pair like any other: it takes the terms of
 * both traces and the background from the model, builds the obligations
 * of its mode, lets the model add its own (OBL_MODEL entries, whose j
 * indexes the model's list), asks every query itself, and hands each
 * satisfying model to hp_replay.  The model owns every term it made (its
 * own scope): they stay valid until hp_close. */

typedef struct hp hp;

/* Builds the model of the pair into *OUT (NULL on failure).  RES receives
 * a replayed counterexample (inputs, cex_text); ERR is kept for the
 * model's later errors and must outlive it.  Errors: JP_ENOMEM,
 * JP_EUNSUPPORTED (what the model does not cover; with *OVER_LIMIT when
 * it is a limit of the model, such as more fresh objects than it pairs,
 * which the checker reports as unknown), JP_EINPUT, Z3's. */
jp_status hp_open(Z3_context z, const ir_trace *orig, const ir_trace *opt,
		  const ver_opts *opts, ver_result *res, const uint32_t *hint,
		  hp **out, bool *over_limit, jp_err *err);
void hp_close(hp *h);

/* The input variables (enc_inputs) the terms are made over. */
const Z3_ast *hp_input_vars(const hp *h);

/* The terms of the original (OPT false) or the optimized trace: per vid
 * its value and the Boolean behind a comparison (or NULL), per op the
 * "guard passes" condition (NULL for other ops). */
void hp_terms(const hp *h, bool opt, Z3_ast **val, Z3_ast **bval,
	      Z3_ast **pass);

/* What every query assumes: fresh addresses distinct and non-null, types
 * of fresh objects, what calls may return (heap_model.c). */
Z3_ast hp_background(const hp *h);

/* Replaces L, the obligations of the driver's MODE built with MATCH (per
 * OPT op its ORIG guard; NULL in trace mode), by them and the model's own
 * (calls made alike, same arguments and heap at each call, same heap at a
 * failing paired guard and at the end), in the order of the trace.  MATCH
 * must live until the next call.  Outside aligned mode the pairing is a
 * guess or absent: replay then treats two runs that both leave at a guard
 * as alike, and trace mode compares calls only of runs that reach both
 * ends. */
jp_status hp_obligations(hp *h, const uint32_t *match, ver_mode mode,
			 obl_list *L, jp_err *err);

/* The negated goal of an OBL_MODEL obligation of the list, without the
 * guard assumptions (its bounds say which), and its description. */
/* What obligation I of the list also assumes: the original is defined
 * (no NULL access) up to the point the model's undefined-behaviour rule
 * gives it (docs/semantics.md); the checker conjoins it to the goal. */
Z3_ast hp_obl_defined(hp *h, uint32_t i);
Z3_ast hp_model_goal_neg(hp *h, const obl *b);
void hp_model_describe(const hp *h, const obl *b, strbuf *sb);

/* Replays the solver model M on the interpreter: 1 when the traces
 * diverge there as the model compares them (RES gets the inputs and the
 * report, which names obligation WHAT).  When they do not: -1 when the
 * model needed a call to write a fresh object the world cannot reach at
 * run time (the static escape analysis allowed it), when the pairing
 * was guessed (hp_obligations outside aligned mode), or when the runs
 * differ only under the model's pairing of fresh objects
 * (hp_pairing_only) or where one makes an elidable call the other does
 * not (hp_elided): the obligation is
 * unknown; else 0 with *ST a JP_EINTERNAL error (the encoding and the
 * interpreter disagree).  *ST is set on any error. */
int hp_replay(hp *h, Z3_model m, const char *what, jp_status *st);

/* Whether obligation I of the list compares heaps (at a call, a failing
 * guard, the end): the ones where escape, decided statically and so
 * over-approximated, can make a model that does not replay. */
bool hp_obl_compares_heaps(const hp *h, uint32_t i);

/* Whether the last hp_replay that gave -1 did so because its runs differ
 * only under the model's pairing of fresh objects: paired as the runs
 * themselves force (the first meeting of two fresh objects where the
 * world sees them), they are the same. */
bool hp_pairing_only(const hp *h);

/* Whether the last hp_replay that gave -1 did so because one run makes a
 * call of an elidable function (or the guard_no_exception on one) that
 * the other does not: PyPy may remove or fold such a call, and the
 * world's result for it may be one the function never returns. */
bool hp_elided(const hp *h);

/* Whether the last hp_replay that gave -1 (or the last screening that
 * gave 0) did so because a string copy of its runs copies more items
 * than a replay runs (interp.h, INTERP_MAX_COPY; heap_replay.c). */
bool hp_copy_too_long(const hp *h);

/* Why the last hp_replay that gave -1 did so although its runs differ,
 * or NULL: one of them reached a guard_class on an allocation whose
 * class the log does not print (new_with_vtable(descr=<SizeDescr N>)),
 * a class the model chose; or the runs' worlds differ in a call's write
 * of an immutable field that only one trace stored before the call
 * (htrace.built).  Neither is a run PyPy can make for certain. */
const char *hp_guess_why(const hp *h);

/* "Every string copy of either trace copies at most 32 items, or has a
 * negative length": a narrower query whose models a replay can run
 * (check.c asks it after a model hp_copy_too_long turned down).  NULL
 * when the traces make no copy or out of memory. */
Z3_ast hp_short_copies(hp *h);

/* Whether the last replay that confirmed a divergence saw ORIG's run
 * leave at a guard; *G is then that guard's op index in ORIG. */
bool hp_div_orig_guard(const hp *h, uint32_t *g);

/* The pairing of fresh objects the runs forced in the first replay that
 * differed only under the model's (hp_pairing_only), per ORIG op: the
 * OPT allocation op paired with ORIG's allocation there, or UINT32_MAX;
 * NULL when there was none.  The caller owns it (free).  Given back to
 * hp_open as HINT, it pairs those allocations before any other rule: a
 * proof under any pairing is a proof (heap.h, identities). */
uint32_t *hp_take_hint(hp *h);

/* Whether a replay of this check has left such a pairing (hp_take_hint
 * would give one). */
bool hp_has_hint(const hp *h);

/* The obligation of the list (hp_obligations) that the divergence of
 * the last replay or screening that found one is about (a call, the
 * guard the original leaves at, the end), or -1. */
int32_t hp_divergence_obl(const hp *h);

/* The same on a plain environment: the inputs X, every field of an input
 * object initially 0, no types, calls returning 0 and writing nothing --
 * one of the environments the model allows, so a divergence there is a
 * counterexample without the solver.  Pairs with ConstPtrs are not
 * screened (0). */
int hp_screen(hp *h, const uint64_t *x, const char *what, jp_status *st);

/* Runs ORIG and OPT on the interpreter in ENV and compares the runs the
 * way the heap model does (the rule that replays counterexamples): calls
 * in order with equal arguments and equal reachable heaps, the same exit,
 * equal outputs or fail-args, equal reachable heaps at the end; fresh
 * objects compared by identity (paired as hp_open pairs them), never by
 * address, and a difference counts only when it is one too with fresh
 * objects paired as the runs force (the first meeting of two where the
 * world sees them).  *DIV tells whether they differ, WHY (may be
 * appended to) how.
 * No solver is involved, so fuzz targets use it as a fast concrete tier
 * for heap traces.  Errors: JP_ENOMEM, JP_EUNSUPPORTED (more fresh
 * objects than the model pairs), the interpreter's errors. */
jp_status hp_run_diverges(const ir_trace *orig, const ir_trace *opt,
			  const interp_env *env, bool *div, strbuf *why,
			  jp_err *err);

#endif
