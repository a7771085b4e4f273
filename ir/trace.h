/*
 * trace.h - the trace IR: inputs, SSA operations, values.
 *
 * A trace is a list of input variables (int or ref), then operations in
 * SSA form, ending with exactly one jump(...) or finish(...).  Every value
 * an operation can name -- an input, the result of an earlier op, or a
 * constant -- is an ir_value in the trace's value table and is referred to
 * by its index, an ir_vid.  Constants are interned: the same constant always
 * has the same vid within a trace.
 *
 * Integer values are W-bit two's complement, W = trace->width (8, 16, 32 or
 * 64).  Everywhere in jitprove a W-bit value is held in a uint64_t with the
 * bits above W cleared ("canonical form"; see sem.h for the helpers).
 *
 * Ownership: ir_trace_new returns a trace that owns everything reachable
 * from it (arrays, strings, op arguments); ir_trace_free releases it all.
 * Pointers to ops and values (ir_op *, ir_value *) are invalidated by any
 * call that adds an op or a value; keep indices across such calls.
 */
#ifndef JP_IR_TRACE_H
#define JP_IR_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "arena.h"
#include "err.h"
#include "ops.h"

typedef uint32_t ir_vid;

/* "No value": an op without result, or None in a fail-args list. */
#define IR_NOVAL UINT32_MAX

typedef enum ir_valtag {
	IR_VAL_INPUT,	    /* input variable; def = input index */
	IR_VAL_OP,	    /* result of ops[def] */
	IR_VAL_CONST_INT,   /* integer constant; cval in canonical form */
	IR_VAL_CONST_NULL,  /* the null reference */
	IR_VAL_CONST_PTR,   /* ConstPtr(name): a fixed non-null object */
	IR_VAL_CONST_CLASS, /* ConstClass(name): a class (type) constant */
} ir_valtag;

typedef struct ir_value {
	uint8_t tag;   /* ir_valtag */
	char kind;     /* 'i' int, 'r' ref, 'c' class */
	uint32_t name; /* string id: variable name, or the ConstPtr/ConstClass
			  name */
	uint32_t def;  /* input index or op index, see ir_valtag */
	uint64_t cval; /* value of an integer constant */
} ir_value;

/* Op flags set by the parser, kept for faithful printing. */
enum {
	IR_OPF_IMPLICIT_LABEL = 1u << 0, /* guard label assigned by position */
	IR_OPF_HAS_FAILARGS =
	    1u << 1, /* a fail-args list was written (maybe []) */
	IR_OPF_TOY_PRINT = 1u
			   << 2, /* toy spelling: print(...) not escape(...) */
	/* jitprove log: an op of the run PyPy recorded (a loop's first
	 * unrolled iteration; ir/pypylog.c), kept by its copies. */
	IR_OPF_RECORDED = 1u << 3,
	/* PyPy's instance_ptr_eq/ne: ptr_eq/ne of two instances, which
	 * PyPy's optimizer may fold when their known classes differ
	 * (ir/pypylog_consts.c); printed with PyPy's name. */
	IR_OPF_INSTANCE = 1u << 4,
	/* PyPy's getarrayitem_gc_pure_*: an item of an array PyPy declares
	 * immutable, read as any item (jitprove log's folded reads,
	 * ir/pypylog_ptrs.c); printed with PyPy's name. */
	IR_OPF_PURE_ITEM = 1u << 5,
	/* PyPy's call_pure_X of an unoptimized trace, which jitprove log
	 * spells call_X (ir/pypylog_rewrite.c, pl_pure_call_names): a call
	 * of an elidable function that raised nothing when recorded. */
	IR_OPF_PURE_CALL = 1u << 6,
};

typedef struct ir_op {
	uint16_t opc;  /* ir_opcode */
	char kind;     /* result kind: 'i', 'r' or 'v' */
	uint8_t flags; /* IR_OPF_* */
	uint32_t nargs;
	ir_vid *args;
	ir_vid result; /* IR_NOVAL when the op has no result */
	uint32_t
	    descr; /* string id: field or type (heap ops), label (guards) */
	uint32_t nfail;
	ir_vid *failargs; /* may contain IR_NOVAL (None) */
	uint32_t opname;  /* string id: own name of an opaque op; raw argument
			     text of debug_merge_point; the result name a
			     toy-spelled store/escape was written with; else 0 */
	uint32_t rule;	  /* string id: the optimizer rule that made this op,
			     written "# rule: NAME" at the end of its line;
			     else 0 */
	int line, col;	  /* where the op was read; 0 when built */
} ir_op;

typedef struct ir_trace {
	int width; /* W: 8, 16, 32 or 64 */
	bool toy;  /* read from the toy spelling (getarg/alloc/...) */
	uint32_t ninputs;
	ir_vid *inputs; /* vids of the input variables, in order */
	uint32_t nops, capops;
	ir_op *ops;
	uint32_t nvals, capvals;
	ir_value *vals;
	uint32_t nstrs, capstrs;
	const char **strs; /* string id -> text; id 0 is "" */
	uint8_t *strused;  /* string id -> already names a variable */
	uint32_t *strhash; /* open-addressing index over strs */
	uint32_t strhashcap;
	uint32_t *consthash; /* open-addressing index over constant vids */
	uint32_t consthashcap, nconsts;
	uint32_t next_name; /* counter for generated names */
	arena A;	    /* owns args, fail-args and string texts */
} ir_trace;

/* Creates an empty trace of width W (8, 16, 32 or 64); NULL when out of
 * memory. */
ir_trace *ir_trace_new(int width);
void ir_trace_free(ir_trace *t);

/* Interns a string; returns its id (0 for the empty string), or
 * UINT32_MAX when out of memory. */
uint32_t ir_str(ir_trace *t, const char *s, uint32_t len);
uint32_t ir_cstr(ir_trace *t, const char *s);
static inline const char *ir_strtext(const ir_trace *t, uint32_t id)
{
	return t->strs[id];
}
/* Whether S is a nonempty run of decimal digits (a name that is a number:
 * a toy field offset, a class PyPy prints as its address). */
static inline bool ir_is_decimal(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Adds an input variable of KIND ('i' or 'r') named NAME (NULL: generated). */
ir_vid ir_add_input(ir_trace *t, char kind, const char *name);

/* Interned constants.  V is truncated to W bits. */
ir_vid ir_const_int(ir_trace *t, uint64_t v);
ir_vid ir_const_null(ir_trace *t);
ir_vid ir_const_ptr(ir_trace *t, const char *name);
ir_vid ir_const_class(ir_trace *t, const char *name);

/* Appends an op.  ARGS (NARGS vids) are copied.  A result value of the op's
 * kind is created unless the kind is 'v'; its name is NAME, or generated
 * ("i7", "p8") when NAME is NULL.  DESCR is a string id or 0.  Returns the
 * op index, or UINT32_MAX when out of memory. */
uint32_t ir_emit(ir_trace *t, ir_opcode opc, uint32_t nargs, const ir_vid *args,
		 uint32_t descr, const char *name);
/* As ir_emit for an op whose result kind differs from the table's (opaque
 * calls). */
uint32_t ir_emit_kind(ir_trace *t, ir_opcode opc, char kind, uint32_t nargs,
		      const ir_vid *args, uint32_t descr, const char *name);
/* Sets the fail-args of op OPI (copied). */
jp_status ir_set_failargs(ir_trace *t, uint32_t opi, uint32_t n,
			  const ir_vid *vids);

/* Accessors. */
static inline ir_value *ir_val(const ir_trace *t, ir_vid v)
{
	return &t->vals[v];
}
static inline bool ir_is_const(const ir_trace *t, ir_vid v)
{
	return t->vals[v].tag >= IR_VAL_CONST_INT;
}
static inline const char *ir_valname(const ir_trace *t, ir_vid v)
{
	return t->strs[t->vals[v].name];
}
/* The op index that defines V, or UINT32_MAX for inputs and constants. */
static inline uint32_t ir_defop(const ir_trace *t, ir_vid v)
{
	return t->vals[v].tag == IR_VAL_OP ? t->vals[v].def : UINT32_MAX;
}
/* Whether V is the result of an allocation (new, new_with_vtable, ...):
 * an object the trace itself made. */
static inline bool ir_allocated(const ir_trace *t, ir_vid v)
{
	uint32_t d = ir_defop(t, v);
	return d != UINT32_MAX &&
	       ir_op_has((ir_opcode)t->ops[d].opc, IRF_ALLOC);
}
/* The label of guard op OPI. */
static inline const char *ir_guard_label(const ir_trace *t, uint32_t opi)
{
	return t->strs[t->ops[opi].descr];
}
/* Whether field descr NAME is the length of an array or string
 * ("D.length"): a field no call changes (docs/semantics.md, "Arrays"). */
static inline bool ir_descr_is_length(const char *name)
{
	size_t n = strlen(name);
	return n >= 7 && !strcmp(name + n - 7, ".length");
}
/* The op's display name: the table name, or an opaque op's own name. */
const char *ir_op_name(const ir_trace *t, const ir_op *op);

/* Number of guards, and of non-marker ops (what "ops" means in reports). */
uint32_t ir_count_guards(const ir_trace *t);
uint32_t ir_count_ops(const ir_trace *t);

/* Deep copy into a new trace (same vids, same op indices). */
ir_trace *ir_trace_clone(const ir_trace *t);

#endif
