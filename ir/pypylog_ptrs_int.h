/*
 * pypylog_ptrs_int.h - what the naming of ConstPtrs (pypylog_ptrs.c and
 * pypylog_apart.c), the pairing of global cells (pypylog_cells.c) and the
 * folded reads (pypylog_folds.c) share: the name table, its union-find, the
 * roles of an argument, and the aligned pieces of a pair.  Internal to those
 * files.
 */
#ifndef JP_IR_PYPYLOG_PTRS_INT_H
#define JP_IR_PYPYLOG_PTRS_INT_H

#include "pypylog_int.h"

enum { OCC_LIVE, OCC_DEAD, OCC_UNSEEN };

typedef struct ptr_occ {
	uint64_t sig;
	uint32_t name; /* index into the name table */
	uint32_t seq;  /* order of collection: op order within a side */
	uint32_t op;   /* the op's index in its trace */
	uint8_t side;  /* 0 ORIG, 1 OPT */
	/* plays no role: OCC_DEAD in a store overwritten unseen
	 * (overwritten) or a comparison PyPy may have folded; OCC_UNSEEN in
	 * a store into an object nothing looks at (never_seen) */
	uint8_t dead;
} ptr_occ;

/* The calls both traces make (pl_paired_calls), worked out once per pair
 * when a rule needs them (pn_paired_calls): N pairs, ORIG[k] and OPT[k]
 * the op indices of the k-th, in order; not OK when another pairing could
 * be as good (pl_calls_forced). */
typedef struct call_pairs {
	bool done, ok;
	uint32_t n, *orig, *opt;
} call_pairs;

typedef struct ptr_names {
	const char **v; /* distinct ConstPtr names, ORIG's first */
	uint32_t *up;	/* union-find parent */
	uint32_t n, cap;
	ptr_occ *occ;
	uint32_t nocc, occcap;
	/* ORIG's names (the first NREC) that the recording proves one
	 * object (pl_recorded_same): a union-find of its own, facts that
	 * are not counted as identities; NULL when there are none. */
	uint32_t *rec;
	uint32_t nrec;
	/* ORIG's first RECOPS ops are the record of a run (pl_same_ptrs);
	 * RUNPTR, per value of ORIG, the ConstPtr that run shows it to be,
	 * or IR_NOVAL (pypylog_apart.c, worked out when first needed). */
	uint32_t recops;
	ir_vid *runptr;
	call_pairs calls; /* pn_paired_calls */
	bool oom;
} ptr_names;

/* A stretch [FROM, TO) of trace T's ops. */
typedef struct piece {
	const ir_trace *t;
	uint32_t from, to;
} piece;

/* The index of the name S, added when new (UINT32_MAX, PN->oom set, when
 * out of memory). */
uint32_t pn_name_index(ptr_names *pn, const char *s);

/* Unites the classes of A and B, the smaller index (ORIG's first name)
 * staying the root; true when they were apart. */
bool pn_unite(ptr_names *pn, uint32_t a, uint32_t b);

/* The role of argument J of op OPI of T without the other arguments: the
 * op, its name and descr, the position. */
uint64_t pn_shallow_role(const ir_trace *t, uint32_t opi, uint32_t j);

/* The object name I stands for as far as the recording tells: the root
 * of its class of ORIG names the run proves one object, or I. */
uint32_t pn_rec_obj(ptr_names *pn, uint32_t i);

/* Pairs the names of P's OPT (index NORIG and up) still apart from every
 * name of ORIG, by what the optimizer does with constants
 * (pypylog_apart.c). */
void pn_pair_left_apart(ptr_names *pn, const pl_pair *p, uint32_t norig);

/* The calls both traces of P make, paired (PN->calls, worked out when
 * first asked); NULL when another pairing could be as good or out of
 * memory. */
const call_pairs *pn_paired_calls(ptr_names *pn, const pl_pair *p);

/* Whether OP of T is a call the heap model counts (opaque). */
bool pn_call_op(const ir_trace *t, const ir_op *op);

/* The aligned pieces of P into O and T: one, or two for a peeled loop
 * (ORIG unrolled twice, OPT's preamble and body split at its label). */
uint32_t pn_pieces_of(const pl_pair *p, piece *o, piece *t);

/* Names the global cells of P: fields both traces reach only through
 * constants (pypylog_cells.c). */
void pn_pair_cells(ptr_names *pn, const pl_pair *p);

#endif
