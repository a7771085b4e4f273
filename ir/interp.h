/*
 * interp.h - the concrete interpreter: the oracle.
 *
 * interp_run executes a trace on concrete inputs, exactly as documented in
 * docs/semantics.md, and records the value of every op.  Every counterexample
 * the verifier reports is replayed here before it is believed.
 *
 * Values: integers are canonical W-bit patterns (sem.h); references are
 * 64-bit addresses, 0 being NULL.  Fresh objects (new, new_with_vtable) get
 * addresses distinct from every input reference, every ConstPtr and each
 * other; they are also numbered by allocation order (their "identity").
 *
 * The heap: an object is known by its address and has a type (a class name,
 * possibly none) and fields named by descr.  Input objects start with the
 * field values listed in the environment and 0 elsewhere; fresh objects
 * start all zero.  A call to escape_n / escape_i / an opaque op is an
 * observable event: its arguments are recorded, it returns the next value
 * of env->call_ret (0 when exhausted) or a fresh object the world reaches
 * that env->call_ret_obj names, and the environment may list field
 * writes that the k-th call performs (its effect on the world).  A call
 * can change or store only the fresh objects the world can reach at it:
 * those passed to it or to an earlier call, stored into an object that is
 * not fresh, or referenced from such an object (interp_result.nrejected);
 * it never changes an immutable field (" pure" descr) of an object that
 * is not fresh (such a write is rejected too).  A call whose descr makes
 * it a function of its arguments (ir_pycall_of) is no event: it returns
 * env->pure's entry for its arguments and changes nothing (a cached hash,
 * IR_PYCALL_CACHED, returns its first argument when that is not 0, and
 * the guard_no_exception after it passes).
 * Array items are fields of their object named "D[i]" (interp_item_field),
 * at any index; a call never changes a field whose descr ends in
 * ".length" (such a write is counted in nrejected, not made).
 * A field access or guard_class through NULL is undefined behaviour: the
 * run stops there with INTERP_UNDEFINED.
 *
 * Ownership: an interp_result owns its arrays; interp_result_free releases
 * them.  The environment is borrowed.
 */
#ifndef JP_IR_INTERP_H
#define JP_IR_INTERP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace.h"

/* A field value of the initial heap, or a write made by a call. */
typedef struct interp_cell {
	uint32_t call; /* for writes: index of the call making it (0-based) */
	uint64_t addr; /* the object */
	const char *field; /* descr name */
	uint64_t value;
} interp_cell;

/* A write made by the k-th call that names fresh objects: the target is
 * the fresh object whose allocation result is named OBJ (or, when OBJ is
 * NULL, the object at ADDR), and the value is the address of the fresh
 * object named VALUE_OBJ (or, when VALUE_OBJ is NULL, VALUE).  A write
 * whose fresh object was not allocated (yet) in this run is skipped.  The
 * verifier uses these to replay calls that change escaped fresh objects
 * or store them, whose addresses it cannot know in advance. */
typedef struct interp_obj_write {
	uint32_t call;
	const char *obj;
	uint64_t addr;
	const char *field;
	const char *value_obj;
	uint64_t value;
} interp_obj_write;

/* The result of a call PyPy's descr makes a function of its arguments
 * (ir_pycall_of: elidable, loop-invariant): the call of FN on the integer
 * arguments ARGS (after the function) returns RET.  Such a call is not an
 * event and has no effect on the heap; a combination the environment
 * does not list returns 0 (also a function). */
typedef struct interp_pure {
	const char *fn;
	uint32_t nargs;
	const uint64_t *args;
	uint64_t ret;
} interp_pure;

/* The class of an input object. */
typedef struct interp_type {
	uint64_t addr;
	const char *cls;
} interp_type;

/* The address of a ConstPtr(name). Unlisted names get a fixed address
 * derived from the name. */
typedef struct interp_ptr {
	const char *name;
	uint64_t addr;
} interp_ptr;

typedef struct interp_env {
	const uint64_t *args; /* one per input: canonical int, or address */
	uint32_t nargs;
	const interp_cell *init; /* initial field values of input objects */
	uint32_t ninit;
	const interp_type *types;
	uint32_t ntypes;
	const interp_ptr *ptrs;
	uint32_t nptrs;
	const uint64_t *call_ret; /* result of the k-th call */
	uint32_t ncall_ret;
	/* Per call (may be NULL; ncall_ret entries): the allocation result
	 * name of the fresh object the k-th call returns instead of
	 * call_ret[k], or NULL.  The world can hand back only a fresh object
	 * it reaches at the call (as for obj_writes); otherwise the call
	 * returns call_ret[k] and the entry is counted in
	 * interp_result.nrejected. */
	const char *const *call_ret_obj;
	const interp_cell *call_writes; /* field writes done by calls */
	uint32_t ncall_writes;
	/* Writes naming fresh objects, done after the call's call_writes
	 * (may be NULL). */
	const interp_obj_write *obj_writes;
	uint32_t nobj_writes;
	/* Results of pure and loop-invariant calls (may be NULL). */
	const interp_pure *pure;
	uint32_t npure;
	/* Per op (may be NULL): a conditional call (ir_py_cond_of) the
	 * environment's maker took as made whatever its condition.  Such a
	 * call that does not call is counted in interp_result.nrejected:
	 * the run is not the one the environment describes. */
	const bool *cond_events;
	/* Every conditional call is made whatever its condition: the
	 * integer encoder's view, where such a call is an opaque call like
	 * any other (verify/cex.c); the heap model decides them. */
	bool cond_always;
	/* Per op (may be NULL): the class an allocation's object gets
	 * instead of its descr's, or NULL.  For new_with_vtable(descr=
	 * <SizeDescr N>), whose class a PyPy log does not print: the heap
	 * model chooses one. */
	const char *const *alloc_class;
} interp_env;

/* The most items a string copy may copy in a run (interp_result.too_long
 * beyond). */
#define INTERP_MAX_COPY 1024u

typedef enum interp_outcome {
	INTERP_FINISH,	   /* reached finish(...) */
	INTERP_JUMP,	   /* reached jump(...) */
	INTERP_GUARD_FAIL, /* a guard failed; stop_op is that guard */
	/* A field read or write or guard_class through NULL: the run has no
	 * defined behaviour from stop_op on (docs/semantics.md, "Undefined
	 * behaviour"); no outputs. */
	INTERP_UNDEFINED,
} interp_outcome;

struct interp_obj;

/* One call event. */
typedef struct interp_call {
	uint32_t op; /* op index */
	uint32_t nargs;
	uint64_t *args;
	uint64_t ret;
	/* The heap as the call sees it (before its writes): a copy of every
	 * object touched so far, so that the verifier can compare what two
	 * runs expose at each call.  Owned by the result. */
	uint32_t nobjs;
	struct interp_obj *objs;
} interp_call;

/* One object of the final heap. */
typedef struct interp_obj {
	uint64_t addr;
	int32_t fresh;	   /* allocation number, or -1 for an input object */
	uint32_t alloc_op; /* op index of the allocation (fresh objects) */
	const char *cls;   /* type name or NULL */
	uint32_t nfields, capfields;
	const char **fields; /* descr names */
	uint64_t *values;
	/* Per field: the kind of the value last written ('i' integer, 'r'
	 * reference, 0 a call's write of a plain value).  A field holds one
	 * 64-bit word whatever its kind (docs/semantics.md, "The heap"). */
	char *kinds;
} interp_obj;

typedef struct interp_result {
	interp_outcome outcome;
	uint32_t stop_op; /* index of the jump/finish or of the failing guard */
	uint32_t nvals;
	uint64_t *vals; /* value of every vid (constants included) */
	bool *known;	/* whether vals[v] was computed before the stop */
	bool *ovf;	/* per op: overflow flag of *_ovf ops */
	uint32_t nout;
	uint64_t *out; /* outputs, or the failing guard's fail-args */
	uint32_t ncalls;
	interp_call *calls;
	uint32_t nobjs;
	interp_obj *objs; /* every object touched, inputs and fresh */
	/* Writes of env->obj_writes that no call can make: to or of a fresh
	 * object the world cannot reach at that call, and results of
	 * env->call_ret_obj that no call can give (the same).  They are not
	 * applied; an environment with any is not one the heap semantics
	 * allow. */
	uint32_t nrejected;
	/* A string copy longer than INTERP_MAX_COPY items stopped the run
	 * (outcome INTERP_UNDEFINED): a run the interpreter does not make,
	 * which confirms and refutes nothing. */
	bool too_long;
	/* The field names of the array items touched ("D[I]",
	 * interp_item_field), owned here. */
	char **names;
	uint32_t nnames, capnames;
} interp_result;

/* Runs T in ENV.  Errors: JP_EINPUT when ENV has the wrong number of
 * arguments, JP_ENOMEM.  A guard failing is not an error. */
jp_status interp_run(const ir_trace *t, const interp_env *env,
		     interp_result *res, jp_err *err);

/* ENV's result of the function FN on the NARGS values ARGS (the
 * arguments after the function; interp_env.pure): 0 when not listed. */
uint64_t interp_pure_find(const interp_env *env, const char *fn, uint32_t nargs,
			  const uint64_t *args);

/* NULL when the interpreter runs OPC (every op); otherwise why not. */
const char *interp_unhandled(ir_opcode opc);

void interp_result_free(interp_result *res);

/* The object at ADDR in RES's final heap, or NULL. */
const interp_obj *interp_find_obj(const interp_result *res, uint64_t addr);

/* The value of FIELD in object O (0 when never written). */
uint64_t interp_obj_field(const interp_obj *o, const char *field);

/* Item IDX (a W-bit pattern) of an array under DESCR is the field
 * "DESCR[IDX]" of the array's object (docs/semantics.md, "Arrays"); this
 * writes that name into BUF like snprintf and returns its length. */
int interp_item_field(char *buf, size_t cap, const char *descr, uint64_t idx);

/* The address given to ConstPtr(NAME) when ENV does not list it. */
uint64_t interp_default_ptr_addr(const char *name);

#endif
