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
	IRF_MULTIPLIER = 1u << 13, /* a product: a multiplier circuit */
	IRF_DIVIDER = 1u << 14,	   /* a division or modulo: a divider */
};

/* The relation of a comparison before its cmpform (see ops.def). */
typedef enum ir_rel {
	IR_REL_NONE, /* not a comparison */
	IR_REL_EQ,
	IR_REL_LT,
	IR_REL_LE,
} ir_rel;

enum {
	IRC_UNS = 1u << 0,  /* compares as unsigned numbers */
	IRC_SWAP = 1u << 1, /* op(a, b) is rel(b, a) */
	IRC_NEG = 1u << 2,  /* op(...) is !rel(...) */
	IRC_ZERO = 1u << 3, /* unary: op(a) is rel(a, 0) (then negated) */
};

/* No op: the twin column of an op without an overflow check. */
#define IR_NO_OP (-1)

typedef enum ir_opcode {
#define OP(id, name, nargs, res, args, flags, twin, rel, form, toy) IR_##id,
#include "ops.def"
#undef OP
} ir_opcode;

/* The number of ops.  Outside the enum, so that a switch over ir_opcode
 * names every op and nothing else (-Wswitch-enum). */
enum {
	IR_OPCODE_COUNT = 0
#define OP(id, name, nargs, res, args, flags, twin, rel, form, toy) +1
#include "ops.def"
#undef OP
};

typedef struct ir_opinfo {
	const char *name;
	int nargs;	  /* -1 = variadic */
	char result;	  /* 'i', 'r' or 'v' */
	const char *args; /* kind letters, see ops.def */
	unsigned flags;
	int twin;	 /* wrapping twin of an IRF_OVF op, or IR_NO_OP */
	ir_rel rel;	 /* comparison relation, IR_REL_NONE otherwise */
	unsigned form;	 /* IRC_* bits of a comparison */
	const char *toy; /* toy spelling, or NULL */
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

/* The op computing OPC's value without an overflow check: the wrapping
 * twin of an IRF_OVF op (int_add_ovf -> int_add), OPC itself otherwise. */
static inline ir_opcode ir_op_wrapping(ir_opcode opc)
{
	int twin = ir_opinfos[opc].twin;
	return twin == IR_NO_OP ? opc : (ir_opcode)twin;
}

/* A comparison in its canonical shape: OPC(a, b) is
 *   neg XOR rel(x, y)   with (x, y) = swap ? (b, a) : (a, b),
 * compared unsigned when uns, and y = 0 for a unary (zero) comparison. */
typedef struct ir_cmp {
	ir_rel rel; /* IR_REL_NONE: OPC is not a comparison of integers */
	bool uns, swap, neg, zero;
} ir_cmp;

/* The shape of integer comparison OPC (rel is IR_REL_NONE for any other op,
 * the pointer comparisons included). */
ir_cmp ir_op_cmp(ir_opcode opc);

/* The integer comparison with shape C, or -1 when the table has none. */
int ir_cmp_opcode(ir_cmp c);

/* Whether OPC(x, x) holds, for a binary comparison OPC (integer or
 * pointer): x == x, x <= x hold; x < x, x != x do not. */
bool ir_cmp_reflexive(ir_opcode opc);

/* Whether OPC needs a bit-blasted multiplier or divider, given which of
 * its first two operands are constants: a product unless either is, a
 * division or modulo unless the divisor is. */
static inline bool ir_op_needs_circuit(ir_opcode opc, bool const0, bool const1)
{
	if (ir_op_has(opc, IRF_MULTIPLIER))
		return !const0 && !const1;
	if (ir_op_has(opc, IRF_DIVIDER))
		return !const1;
	return false;
}

/* The opcode named NAME (PyPy spelling), or -1.  Never returns IR_OPAQUE. */
int ir_opcode_by_name(const char *name, size_t len);

/* The first op (in table order) whose toy spelling is NAME, or -1. */
int ir_opcode_by_toy(const char *name, size_t len);

/* Expected kind of argument I of OPC: 'i', 'r', 'c' or 'a'. */
char ir_op_argkind(ir_opcode opc, int i);

#endif
