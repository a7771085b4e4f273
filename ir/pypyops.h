/*
 * pypyops.h - PyPy's op vocabulary beyond ir/ops.def (ir/pypyops.def).
 *
 * The parser consults this table when it reads PyPy's vocabulary
 * (ir_parse_opts.opaque): an op named here is read as the table says
 * (an opaque call, an alias of an ops.def op, a copy, dropped, or split),
 * never refused.  Nothing here allocates.
 */
#ifndef JP_IR_PYPYOPS_H
#define JP_IR_PYPYOPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum ir_pyact {
	IR_PY_OPAQUE, /* an opaque call (IR_OPAQUE), own name kept */
	IR_PY_ALIAS,  /* the ops.def op `target` */
	IR_PY_COPY,   /* result = the argument */
	IR_PY_DROP,   /* no effect the verifier models: left out */
	IR_PY_SPLIT,  /* guard_nonnull_class: guard_nonnull + guard_class */
	/* GC arrays as objects (docs/pypy.md, "Arrays"): an allocation with
	 * its length in a field "D.length"; item K at a constant index a
	 * field "D[K]" (an item at a variable index: an opaque call) */
	IR_PY_ANEW,  /* new_array(n): new + setfield of the length */
	IR_PY_ALEN,  /* arraylen_gc: getfield of the length */
	IR_PY_AGET,  /* getarrayitem_gc_*: getfield of item K */
	IR_PY_ASET,  /* setarrayitem_gc: setfield of item K */
	IR_PY_AHASH, /* strhash/unicodehash: getfield of "D.hash" */
} ir_pyact;

typedef struct ir_pyop {
	const char *name;
	ir_pyact act;
	int target; /* IR_ALIAS: an ir_opcode; else IR_NO_OP */
	char kind;  /* result: 'i', 'r' or 'v' */
} ir_pyop;

/* The entry for NAME, or NULL when the table has none. */
const ir_pyop *ir_pyop_find(const char *name, size_t len);

/* What PyPy's descrs state about an opaque op (docs/pypy.md, "What the
 * descrs guarantee"). */
typedef enum ir_pycall {
	IR_PYCALL_OPAQUE, /* an opaque call: any effect, an unknown result */
	/* An elidable call that cannot raise (EF=0 in its call descr), its
	 * first argument the function (ConstClass), the others integers, an
	 * integer result: a function of (function, arguments) without any
	 * effect on the heap, not an event of the trace. */
	IR_PYCALL_PURE,
	/* A call with EF=1 (call_loopinvariant_*, or the call_* the
	 * optimizer leaves of one) with integer constant arguments: one
	 * value per (function, arguments) in a run of the loop, no effect on
	 * the heap, not an event. */
	IR_PYCALL_LOOPINV,
	/* force_token(): the address of the JIT frame the trace runs in --
	 * one value per run, never an object the trace allocated; no
	 * effect, not an event. */
	IR_PYCALL_FRAME,
	/* cond_call_value_i(v, f, s...) of a string hash (f named
	 * _ll_strhash...: jit.conditional_call_elidable(s.hash, ...)):
	 * v when it is not 0, else F(s...), F a function of (f, arguments
	 * after f); PyPy's optimizer takes it as a pure call whatever v is
	 * (pure.py), so v is assumed to be 0 or F(s...) in the original.
	 * No effect on the heap (the store into the cache is left out), no
	 * exception, not an event. */
	IR_PYCALL_CACHED,
	/* A guard_no_exception whose call (ir_py_seen_descr's) is
	 * IR_PYCALL_CACHED: it passes; not an event. */
	IR_PYCALL_NOEXC,
	/* copystrcontent(src, dst, srcstart, dststart, length) or
	 * copyunicodecontent (ir_py_str_copy): item k of dst from dststart
	 * on becomes item srcstart + k of src, for k < length; nothing else
	 * changes.  Undefined where src or dst is NULL or length is
	 * negative (the backend's memcpy).  Not an event. */
	IR_PYCALL_STRCOPY,
} ir_pycall;

struct ir_trace;
struct ir_op;

/* How the verifier takes op OP of T (IR_PYCALL_OPAQUE for any op that is
 * not an opaque call or whose descr states nothing it uses). */
ir_pycall ir_pycall_of(const struct ir_trace *t, const struct ir_op *op);

/* The item descr ("<str>" or "<unicode>") that OP of T copies when it
 * is a string copy (IR_PYCALL_STRCOPY), else NULL. */
const char *ir_py_str_copy(const struct ir_trace *t, const struct ir_op *op);

/* The function of a call that is not opaque: the name of its ConstClass
 * first argument (*FIRST = 1, the arguments follow), of its second for a
 * cached value (IR_PYCALL_CACHED; *FIRST = 2), or the op's own name
 * (force_token; *FIRST = 0). */
const char *ir_pycall_fn(const struct ir_trace *t, const struct ir_op *op,
			 uint32_t *first);

/* The EffectInfo.extraeffect of a call descr ("<Calli 8 ii EF=0 OS=14>"):
 * the number after "EF=", or -1 when there is none. */
int ir_py_extraeffect(const char *descr);

/* Whether the call descr says the call is elidable: extraeffect 0
 * (EF_ELIDABLE_CANNOT_RAISE), 3 (EF_ELIDABLE_OR_MEMORYERROR) or 4
 * (EF_ELIDABLE_CAN_RAISE) -- a function of its arguments with no side
 * effect, which PyPy removes, moves and shares. */
bool ir_py_elidable(const char *descr);

/* The EffectInfo.oopspecindex of a call descr (the number after " OS="),
 * or -1 when there is none (rpython/jit/codewriter/effectinfo.py). */
int ir_py_oopspec(const char *descr);

/* Whether argument J of the call OP of T is a string that must not be
 * NULL: the string helpers PyPy's optimizer takes apart (oopspec
 * OS_STR_CONCAT, _SLICE, OS_STREQ_SLICE_NONNULL, _SLICE_CHAR, _NONNULL,
 * _NONNULL_CHAR, _LENGTHOK and their unicode twins) read the length of
 * every string they are given (rpython/rtyper/lltypesystem/rstr.py), so
 * such a call on NULL is undefined, as a field access through NULL is.
 * The optimizer reads those lengths itself when it makes the string
 * virtual.  Only reference arguments after the function. */
bool ir_py_needs_nonnull(const struct ir_trace *t, const struct ir_op *op,
			 uint32_t j);

/* Whether the field descr says the field is immutable (PyPy prints " pure"
 * at its end: immutable and quasi-immutable fields). */
bool ir_py_field_immutable(const char *descr);

/* Whether NAME names a string's characters: the item descr "<str>" or
 * "<unicode>", or one item of it ("<str>[3]", interp_item_field).  An
 * RPython string is immutable once made: only the code that makes it
 * writes its characters. */
bool ir_py_items_immutable(const char *name);

/* How many low bits of its word an integer array item under DESCR holds,
 * or 0 for a whole word.  A string's items are chars: "<str>" is 8 bits,
 * unsigned.  PyPy prints an array descr's item size and sign: "<ArrayU
 * 1>" holds unsigned bytes, "<ArrayS 2>" signed 16-bit items, and so on
 * (rpython/jit/backend/llsupport/descr.py, ArrayDescr.repr_of_descr).  A
 * read of such an item is its low bits, zero- or sign-extended (*SIGNED):
 * the machine's load of an item that size.  Unicode items and 8-byte
 * items are whole words. */
unsigned ir_py_item_bits(const char *descr, bool *is_signed);

/* Whether the opaque op NAME with descr CALL_DESCR leaves the field of
 * descr FIELD unchanged in every object:
 *  - guard_no_exception, guard_exception, guard_not_forced(_2) write no
 *    object (they look at what the previous call left);
 *  - a call whose descr lists the field's name after " keeps="
 *    ("<Callv 0 r EF=5 keeps=a.B.inst_x,a.B.inst_y>").  PyPy's EffectInfo
 *    knows which fields a call may write but its log does not print it;
 *    jitprove log writes what the optimizer took a call to keep
 *    (docs/pypy.md, "Call effects");
 *  - a call whose descr lists it after " ignores=" (below);
 *  - an elidable call (EF=0, 3 or 4), which writes nothing: every field
 *    and every item;
 *  - a call of force_virtualizable (OS=121): every field but the
 *    frame's vable_token, and every item (ir_py_forces_vable);
 *  - the items of array descr D ("<ArrayS 8>", or an item's name
 *    "<ArrayS 8>[3]") when the keep list names "ArrayS8[]": PyPy's
 *    EffectInfo lists the array descrs a call may write, all items of
 *    one descr alike.
 * Never an array's length (no call changes it). */
/* The keep-list token of the items of array descr DESCR ("<ArrayS 8>" or
 * "<ArrayS 8>[3]" give "ArrayS8[]") into BUF; false when DESCR names no
 * array item. */
bool ir_py_items_token(const char *descr, char *buf, size_t cap);
/* Whether CALL_DESCR is the descr of force_virtualizable (oopspec
 * OS_JIT_FORCE_VIRTUALIZABLE, 121): the call PyPy puts before the
 * interpreter touches a virtualizable frame that a JIT frame may hold in
 * registers.  rpython/jit/metainterp/virtualizable.py gives it an
 * EffectInfo with empty read and write lists: to the optimizer it writes
 * no field and no item, and the heap cache keeps everything across it.
 * What it writes back is what the JIT frame holds of the frame, the
 * values the interpreter last stored, and it sets the frame's vable_token
 * to NULL -- the one field the model lets it change. */
bool ir_py_forces_vable(const char *call_descr);

/* The frame op OP of T clears when it is a force_virtualizable
 * (ir_py_forces_vable) that is a cond_call(c, f, frame) or a
 * call_n(f, frame): its index in OP's arguments, with in *COND the index
 * of the condition (UINT32_MAX for the call_n: it always calls).  Else
 * UINT32_MAX.  The function PyPy calls is clear_vable_token
 * (virtualizable.py): "if frame.vable_token: force_now(frame)", after
 * which vable_token is NULL.  Its EffectInfo reads and writes nothing, so
 * such an op is no call event: it sets the frame's vable_token to NULL
 * where it calls (a NULL token stays NULL, so a condition PyPy kept from
 * an earlier read changes nothing), and is undefined where it calls with
 * a NULL frame. */
uint32_t ir_py_clears_vable(const struct ir_trace *t, const struct ir_op *op,
			    uint32_t *cond);
/* Whether the field of descr FIELD is a frame's vable_token. */
bool ir_py_is_vable_token(const char *field);
/* Whether op OP of T is a call event of the heap model: an opaque call
 * (ir_pycall_of IR_PYCALL_OPAQUE) that is no force_virtualizable
 * (ir_py_clears_vable).  The model (hp_is_call) and jitprove log's
 * call-effect inference count calls alike. */
bool ir_py_is_call_event(const struct ir_trace *t, const struct ir_op *op);

/* The class named by the descr "<not-class=C>" of a ptr_eq or ptr_ne
 * (jitprove log's constant classes, ir/pypylog_consts.c): the
 * comparison's ConstPtr operand is no instance of C.  Returns C and its
 * length in *LEN, or NULL when DESCR is not of that form. */
const char *ir_py_not_class(const char *descr, size_t *len);

bool ir_py_call_keeps(const char *name, const char *call_descr,
		      const char *field);

/* Whether the opaque op NAME is one of the guards on what the previous
 * call left (guard_no_exception, guard_exception, guard_not_forced(_2)):
 * events of the trace that read and write no object. */
bool ir_py_writes_nothing(const char *name);

/* Whether the call descr CALL_DESCR lists the field of descr FIELD after
 * " ignores=" (for FIELD an array descr or item, "<ArrayP 8>" or
 * "<ArrayP 8>[3]": its items, "ArrayP8[]"), or is elidable (EF=0, 3 or
 * 4: it sees no field at all):
 * the call neither reads nor writes that field, so the
 * heaps the two traces hand it are compared without it, and it keeps it.
 * jitprove log writes it where the optimizer delayed a store of the field
 * past the call (docs/pypy.md, "Call effects"). */
bool ir_py_call_ignores(const char *call_descr, const char *field);

/* The descr text that says what the call event OP of T sees (its
 * " keeps=" and " ignores=" lists): its own, or for a guard on what the
 * previous call left (ir_py_writes_nothing) that call's -- a store the
 * optimizer delayed past a call is still pending at the guard_no_exception
 * after it; NULL when there is none. */
const char *ir_py_seen_descr(const struct ir_trace *t, const struct ir_op *op);

/* Whether OP of T is a string helper that returns a string (OS_STR_CONCAT,
 * OS_STR_SLICE and their unicode twins, effectinfo.py): on strings that
 * are not NULL (ir_py_needs_nonnull) rstr.py's ll_strconcat and
 * _ll_stringslice return a string, a new one or an argument, never
 * NULL. */
bool ir_py_returns_string(const struct ir_trace *t, const struct ir_op *op);

/* Whether an opaque op of this name returns a reference that is never an
 * object the trace allocated: force_token (the JIT frame), virtual_ref (a
 * new vref object). */
bool ir_py_returns_foreign_ref(const char *name);

/* PyPy's conditional calls (rpython/jit/metainterp/executor.py):
 * cond_call(c, f, args...) calls f(args...) when c is not 0, and
 * cond_call_value_i/r(v, f, args...) calls it when v is 0 (NULL) and
 * gives v otherwise.  The call it makes is the plain call_n, call_i or
 * call_r of the same function, arguments and descr. */
typedef enum ir_pycond {
	IR_PYCOND_NONE, /* not a conditional call */
	IR_PYCOND_CALL,
	IR_PYCOND_VALUE,
} ir_pycond;

ir_pycond ir_py_cond_of(const struct ir_trace *t, const struct ir_op *op);

/* Whether a conditional call of kind C whose first argument is X calls. */
bool ir_py_cond_calls(ir_pycond c, uint64_t x);

/* For a guard_no_exception OP of T whose call (as ir_py_seen_descr finds
 * it) is a conditional call: that call's op index; else UINT32_MAX.  When
 * the conditional call did not call, nothing can be pending and the guard
 * passes, no event (PyPy's rewrite.py drops the guard_no_exception of a
 * cond_call it removed as never calling). */
uint32_t ir_py_noexc_cond(const struct ir_trace *t, const struct ir_op *op);

/* The name of the call op OP of T makes, as the events of two traces are
 * compared: a conditional call's plain call (*FIRST = 1: its arguments
 * start after the condition), else the op's own name (*FIRST = 0). */
const char *ir_py_call_event(const struct ir_trace *t, const struct ir_op *op,
			     uint32_t *first);

/* The number of entries, and entry I (for tests and documentation). */
size_t ir_pyop_count(void);
const ir_pyop *ir_pyop_at(size_t i);

#endif
