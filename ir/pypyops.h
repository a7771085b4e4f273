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

#include <stddef.h>

typedef enum ir_pyact {
	IR_PY_OPAQUE, /* an opaque call (IR_OPAQUE), own name kept */
	IR_PY_ALIAS,  /* the ops.def op `target` */
	IR_PY_COPY,   /* result = the argument */
	IR_PY_DROP,   /* no effect the verifier models: left out */
	IR_PY_SPLIT,  /* guard_nonnull_class: guard_nonnull + guard_class */
	/* GC arrays as objects (docs/pypy.md, "Arrays"): an allocation with
	 * its length in a field "D.length"; item K at a constant index a
	 * field "D[K]" (an item at a variable index: an opaque call) */
	IR_PY_ANEW, /* new_array(n): new + setfield of the length */
	IR_PY_ALEN, /* arraylen_gc: getfield of the length */
	IR_PY_AGET, /* getarrayitem_gc_*: getfield of item K */
	IR_PY_ASET, /* setarrayitem_gc: setfield of item K */
} ir_pyact;

typedef struct ir_pyop {
	const char *name;
	ir_pyact act;
	int target; /* IR_ALIAS: an ir_opcode; else IR_NO_OP */
	char kind;  /* result: 'i', 'r' or 'v' */
} ir_pyop;

/* The entry for NAME, or NULL when the table has none. */
const ir_pyop *ir_pyop_find(const char *name, size_t len);

/* The number of entries, and entry I (for tests and documentation). */
size_t ir_pyop_count(void);
const ir_pyop *ir_pyop_at(size_t i);

#endif
