/*
 * pypylog.h - reading a PyPy JIT log into pairs of traces to check.
 *
 * A log written with PYPYLOG=jit-log-noopt,jit-log-opt:FILE holds, for
 * every loop and bridge PyPy compiled, a section jit-log-noopt (the trace
 * as recorded) followed by one jit-log-opt-loop or jit-log-opt-bridge
 * section (the trace as optimized); other sections are ignored.  pl_read
 * pairs each optimized section with the unoptimized one right before it
 * and turns the two into an (orig, opt) pair the checker can compare
 * (docs/pypy.md, "What is checked"):
 *  - a loop's optimized trace starts with a prologue that reads the frame
 *    into the arguments of its first label; those arguments correspond
 *    one by one to the unoptimized trace's inputs, so OPT starts at that
 *    label with them as inputs.  With a second label (a peeled loop: the
 *    preamble, then the body) ORIG is the unoptimized trace unrolled twice
 *    (the second iteration's inputs are the first one's jump arguments);
 *  - a bridge (or an entry bridge) maps its inputs to the unoptimized
 *    trace's one by one; the guards it inlines from the target loop's
 *    short preamble (after its last debug_merge_point, before its jump)
 *    are left out: a failing one resumes at the loop header;
 *  - a trace ending in jump keeps no outputs (the jump passes the loop's
 *    state in PyPy's virtual-state form, which is not compared); one
 *    ending in finish keeps its outputs.  The optimized jump must go to
 *    a label the log defines (the body label for a peeled loop);
 *  - ConstPtr(null) is NULL.  PyPy numbers every other constant box per
 *    printed trace, so one object has a name in each section and often
 *    several in one.  Names are prefixed by their section ("s3_ptr23")
 *    and, unless pl_opts.apart, identified by the role each occurrence
 *    plays (the same argument of the same op over the same values in
 *    both traces; a guard_value between two constants): an assumption,
 *    counted in pl_pair.nsame and stated in docs/pypy.md.  Names left
 *    apart are unrelated objects to the checker;
 *  - guard descrs are dropped on both sides: the checker infers the
 *    pairing (PyPy's unoptimized guards have none);
 *  - every op is read with the PyPy vocabulary (ir/pypyops.h).
 * A pair that cannot be put in this shape keeps orig/opt NULL and says
 * why in `reason` (the pair is then unknown, not an error); a section
 * that does not parse gives orig/opt NULL and an `error`.
 *
 * Ownership: pl_log owns its pairs, their traces and strings; pl_free
 * releases them.
 */
#ifndef JP_IR_PYPYLOG_H
#define JP_IR_PYPYLOG_H

#include <stdbool.h>
#include <stdint.h>

#include "err.h"
#include "trace.h"

typedef enum pl_kind {
	PL_LOOP,
	PL_BRIDGE,
	PL_ENTRY, /* an entry bridge: a loop section without labels */
} pl_kind;

typedef struct pl_pair {
	char id[48]; /* "loop 1", "bridge 0x7f12...", "entry 2" */
	pl_kind kind;
	int line;	/* line of the optimized section in the log */
	ir_trace *orig; /* NULL: see reason / error */
	ir_trace *opt;
	/* How many ConstPtr names were identified with another (by role,
	 * see below): the pair's verdict assumes those identities. */
	uint32_t nsame;
	/* How many guards a bridge's traces start with for what its parent
	 * loop knew at the failing guard (docs/pypy.md, "Bridges"). */
	uint32_t nfacts;
	/* How many guards both traces start with for what the recorded run
	 * proves about its constants (docs/pypy.md, "What the recording
	 * proves"). */
	uint32_t nrecorded;
	/* How many (call, field) pairs the optimized trace took a call to
	 * keep, an assumption (docs/pypy.md, "Call effects"); the pair's
	 * verdict assumes them. */
	uint32_t nkept;
	/* How many float constants of the optimized trace were read as the
	 * original's that print the same (PyPy prints six decimals; an
	 * assumption, docs/pypy.md). */
	uint32_t nfloat;
	/* How many ConstPtrs the pair takes to be no instance of a class,
	 * because the optimized trace folded their instance comparisons
	 * (an assumption, docs/pypy.md, "Constant classes"). */
	uint32_t nclasses;
	/* How many ConstPtrs the pair takes to be a one-char string, because
	 * the optimized trace compares with that char where the original
	 * compares with the constant (an assumption, docs/pypy.md,
	 * "Constant strings"). */
	uint32_t nstrs;
	/* How many ops both traces start with that the front end added (the
	 * facts above): pl_facts_probe checks they leave a run. */
	uint32_t nprefix;
	/* The recorded facts made so far, one line each (malloc'd, or
	 * NULL): a later pass adds only facts not among them. */
	char *rec_keys;
	char *reason; /* malloc'd: why the pair is unknown, or NULL */
	char *error;  /* malloc'd: why a section could not be read, or NULL */
} pl_pair;

typedef struct pl_opts {
	bool apart;	/* keep every ConstPtr name apart (no identities) */
	bool write_all; /* take no field as kept by a call (pl_pair.nkept) */
	bool consts_unknown; /* nothing of a ConstPtr's memory from the
				optimized trace (pl_pair.nclasses, nstrs) */
} pl_opts;

typedef struct pl_log {
	pl_pair *pairs;
	uint32_t n;
	uint32_t unpaired; /* optimized sections with no unoptimized one */
} pl_log;

/* Reads the log at PATH.  JP_EIO / JP_EINPUT when the file cannot be read
 * or holds no jit-log section at all; a section that does not parse is
 * recorded in its pair, not returned. */
jp_status pl_read(const char *path, const pl_opts *o, pl_log *out, jp_err *err);

/* As pl_read on TEXT (LEN bytes); FILE names it in messages.  O may be
 * NULL (the defaults). */
jp_status pl_read_text(const char *text, size_t len, const char *file,
		       const pl_opts *o, pl_log *out, jp_err *err);

const char *pl_kind_name(pl_kind k);

/* P's ORIG cut after the ops the front end added (its first P->nprefix),
 * ended by jump() when JUMP, else finish(): checked against each other,
 * "proved" means those facts leave no run at all (a proof of P would be
 * vacuous).  NULL when out of memory or P has no such ops. */
ir_trace *pl_facts_probe(const pl_pair *p, bool jump);

/* The ConstPtr whose class, identity or contents guard G of T tests, or
 * NULL: the guard's own subject is one (guard_class, guard_nonnull...),
 * or its subject is computed from one by the op that defines it (ptr_eq
 * against it, a read of its field or item, a call that takes it).  PyPy's
 * optimizer reads the constants' memory and the log prints only their
 * names, so a guard the optimized trace dropped on such grounds cannot be
 * proved from the log (docs/pypy.md, "What the logs do not print"). */
const char *pl_guard_const(const ir_trace *t, uint32_t g);

void pl_free(pl_log *log);

#endif
