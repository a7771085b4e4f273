/*
 * ops.h - operation codes and their static properties.
 *
 * The table itself lives in ops.def; this header turns it into the
 * ir_opcode enum and an array of ir_opinfo.  Nothing here allocates.
 */
#ifndef JP_IR_OPS_H
#define JP_IR_OPS_H

#include <stdbool.h>
#include <stddef.h>

enum {
	IRF_PURE = 1u << 0, /* no side effect, result depends only on args */
	IRF_COMM = 1u << 1, /* commutative in its two arguments */
	IRF_CMP = 1u << 2,  /* result is 0 or 1 */
	IRF_OVF =
	    1u << 3, /* overflow-checked; must be followed by an ovf guard */
	IRF_GUARD = 1u << 4,	/* may leave the trace */
	IRF_OVFGUARD = 1u << 5, /* tests the overflow flag of the previous op */
	IRF_HEAP = 1u << 6,	/* reads or writes the heap */
	IRF_ALLOC = 1u << 7,	/* allocates a fresh object */
	IRF_DESCR = 1u << 8,	/* needs descr= (a field or type name) */
	IRF_OBS = 1u << 9,	/* an effect the outside world can observe */
	IRF_CALL = 1u << 10,	/* an opaque call */
	IRF_MARK = 1u << 11,	/* marker without effect on values */
	IRF_END = 1u << 12,	/* jump or finish: ends the trace */
};

typedef enum ir_opcode {
#define OP(id, name, nargs, res, args, flags) IR_##id,
#include "ops.def"
#undef OP
	IR_OPCODE_COUNT
} ir_opcode;

typedef struct ir_opinfo {
	const char *name;
	int nargs;	  /* -1 = variadic */
	char result;	  /* 'i', 'r' or 'v' */
	const char *args; /* kind letters, see ops.def */
	unsigned flags;
} ir_opinfo;

extern const ir_opinfo ir_opinfos[IR_OPCODE_COUNT];

static inline const ir_opinfo *ir_opinfo_of(ir_opcode opc)
{
	return &ir_opinfos[opc];
}

static inline bool ir_op_has(ir_opcode opc, unsigned flag)
{
	return (ir_opinfos[opc].flags & flag) != 0;
}

/* The opcode named NAME (PyPy spelling), or -1.  Never returns IR_OPAQUE. */
int ir_opcode_by_name(const char *name, size_t len);

/* Expected kind of argument I of OPC: 'i', 'r', 'c' or 'a'. */
char ir_op_argkind(ir_opcode opc, int i);

#endif
