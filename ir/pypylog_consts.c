/*
 * pypylog_consts.c - what the optimized trace shows of its constants'
 * memory, which PyPy's optimizer reads and the log does not print:
 * classes and one-char strings (docs/pypy.md, "Constant classes",
 * "Constant strings").  Both are assumptions, counted, and left out with
 * --consts-unknown.  Sections: classes; one-char strings.
 *
 * Classes.  PyPy's optimizer folds instance_ptr_eq/ne(a, b) when it knows
 * the class of both operands and the two differ (rewrite.py,
 * _optimize_oois_ooisnot); the class of a ConstPtr it reads from the
 * object itself.  So when the original compares a ConstPtr K with a value
 * v as instances, after a guard_class of its own gave v the class C, and
 * the optimized trace compares K with nothing at all, PyPy found K's
 * class to differ from C -- or the optimizer dropped a comparison it
 * needed, which the pair then cannot show.  The pair assumes the former:
 * the original's comparison gets the descr "<not-class=C>" (ir/pypyops.h,
 * ir_py_not_class), which the heap model states as type(K) != C for the
 * whole pair (verify/heap_classes.c); pl_pair.nclasses counts them.
 * Never for a K whose class the traces themselves say something of: a
 * guard_class or guard_value on K, or a comparison with K that a guard
 * takes as equal.  There the assumption could contradict a guard and
 * leave no run to compare: a vacuous proof.  Otherwise type(K) is free in
 * the model, and any number of "not C" leaves it a value.
 *
 * One-char strings.  PyPy's optimizer turns ll_streq(s, K) with K a
 * constant string of one char c into str_eq_nonnull_char(s, c) or
 * str_eq_checknull_char(s, c) (vstring.py, handle_str_equal_level1),
 * reading K's length and char from memory.  When a call the optimized
 * trace makes in that char form pairs with the original's str_eq with K
 * (pl_paired_calls), the pair assumes K is that string: each of the
 * original's str_eq calls with K becomes str_eq_char(s, c) with OS 30,
 * ll_streq's own meaning for such a K (false for a NULL s), its descr
 * naming K (" const-str=K").  Not when two calls show two chars for one
 * K.  pl_pair.nstrs counts the constants.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pypylog_int.h"

/* ---- classes ------------------------------------------------------------ */

static bool names(const ir_trace *t, ir_vid v, const char *k)
{
	const char *n = pl_cptr_name(t, v);
	return n && !strcmp(n, k);
}

/* Whether op I of T, a ptr_eq or ptr_ne, is taken as "equal" by a guard
 * on its result. */
static bool guarded_equal(const ir_trace *t, uint32_t i)
{
	const ir_op *op = &t->ops[i];
	for (uint32_t j = i + 1; j < t->nops; j++) {
		const ir_op *g = &t->ops[j];
		if (g->nargs < 1 || g->args[0] != op->result)
			continue;
		if ((g->opc == IR_GUARD_TRUE && op->opc == IR_PTR_EQ) ||
		    (g->opc == IR_GUARD_FALSE && op->opc == IR_PTR_NE))
			return true;
	}
	return false;
}

/* Whether T says nothing of K's class: no guard_class or guard_value on
 * K, no comparison with K a guard takes as equal. */
static bool class_unsaid(const ir_trace *t, const char *k)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		bool uses = false;
		for (uint32_t a = 0; a < op->nargs; a++)
			uses = uses || names(t, op->args[a], k);
		if (!uses)
			continue;
		if (op->opc == IR_GUARD_CLASS || op->opc == IR_GUARD_VALUE)
			return false;
		if ((op->opc == IR_PTR_EQ || op->opc == IR_PTR_NE) &&
		    guarded_equal(t, i))
			return false;
	}
	return true;
}

/* Whether T compares K with anything. */
static bool compares(const ir_trace *t, const char *k)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if ((op->opc == IR_PTR_EQ || op->opc == IR_PTR_NE) &&
		    op->nargs == 2 &&
		    (names(t, op->args[0], k) || names(t, op->args[1], k)))
			return true;
	}
	return false;
}

/* The class a guard_class of T before op I gives V, or NULL. */
static const char *class_before(const ir_trace *t, uint32_t i, ir_vid v)
{
	const char *c = NULL;
	for (uint32_t j = 0; j < i; j++) {
		const ir_op *g = &t->ops[j];
		if (g->opc == IR_GUARD_CLASS && g->nargs == 2 &&
		    g->args[0] == v)
			c = ir_valname(t, g->args[1]);
	}
	return c;
}

/* Whether an op of T before I already has descr D with K (the same
 * assumption, counted once: a loop's second iteration repeats it). */
static bool counted(const ir_trace *t, uint32_t i, const char *k, uint32_t d)
{
	for (uint32_t j = 0; j < i; j++) {
		const ir_op *op = &t->ops[j];
		if (op->descr == d && op->nargs == 2 &&
		    (names(t, op->args[0], k) || names(t, op->args[1], k)))
			return true;
	}
	return false;
}

/* Whether OP of T is an instance comparison of exactly one ConstPtr (*K,
 * its name) with a value *V. */
static bool instance_cmp(const ir_trace *t, const ir_op *op, const char **k,
			 ir_vid *v)
{
	if (!(op->flags & IR_OPF_INSTANCE) || op->nargs != 2 ||
	    (op->opc != IR_PTR_EQ && op->opc != IR_PTR_NE))
		return false;
	*k = pl_cptr_name(t, op->args[0]);
	*v = op->args[1];
	if (!*k) {
		*k = pl_cptr_name(t, op->args[1]);
		*v = op->args[0];
	}
	return *k && !pl_cptr_name(t, *v);
}

bool pl_class_foldable(const ir_trace *t, uint32_t i)
{
	const char *k;
	ir_vid v;
	return instance_cmp(t, &t->ops[i], &k, &v) &&
	       class_before(t, i, v) != NULL;
}

void pl_const_classes(pl_pair *p)
{
	ir_trace *o = p->orig;
	if (!o || !p->opt)
		return;
	for (uint32_t i = 0; i < o->nops; i++) {
		ir_op *op = &o->ops[i];
		const char *k;
		ir_vid v;
		if (op->descr || !instance_cmp(o, op, &k, &v) ||
		    !class_unsaid(o, k) || !class_unsaid(p->opt, k) ||
		    compares(p->opt, k))
			continue;
		const char *c = class_before(o, i, v);
		if (!c)
			continue;
		char text[300];
		int n = snprintf(text, sizeof text, "<not-class=%s>", c);
		if (n < 0 || (size_t)n >= sizeof text)
			continue;
		uint32_t d = ir_cstr(o, text);
		if (d == UINT32_MAX)
			return; /* out of memory: no more assumptions */
		if (!counted(o, i, k, d))
			p->nclasses++;
		op->descr = d;
	}
}

/* ---- one-char strings --------------------------------------------------- */

/* Whether op OP of T calls the str_eq family function NAME (after
 * pl_str_eq_calls: "str_eq" or "str_eq_char") with three arguments. */
static bool calls_fn(const ir_trace *t, const ir_op *op, const char *name)
{
	return op->opc == IR_OPAQUE && op->nargs == 3 &&
	       op->result != IR_NOVAL &&
	       ir_val(t, op->args[0])->tag == IR_VAL_CONST_CLASS &&
	       !strcmp(ir_valname(t, op->args[0]), name);
}

/* The argument of the str_eq call OP of T that is a ConstPtr (1 or 2),
 * the other one not; 0 when none is (PyPy tries the second first). */
static uint32_t const_arg(const ir_trace *t, const ir_op *op)
{
	for (uint32_t k = 2; k >= 1; k--)
		if (pl_cptr_name(t, op->args[k]) &&
		    !pl_cptr_name(t, op->args[3 - k]))
			return k;
	return 0;
}

typedef struct kchar {
	const char *k; /* the ConstPtr's name (ORIG's string) */
	uint64_t c;
	bool clash; /* two calls show two chars */
} kchar;

/* Adds "K is the string C" to V (*N entries, room for one more). */
static void note_char(kchar *v, uint32_t *n, const char *k, uint64_t c)
{
	for (uint32_t i = 0; i < *n; i++)
		if (!strcmp(v[i].k, k)) {
			v[i].clash |= v[i].c != c;
			return;
		}
	v[(*n)++] = (kchar){k, c, false};
}

/* Rewrites ORIG's str_eq calls with the constants of V into the char
 * form; how many constants it used. */
static uint32_t rewrite_streq(ir_trace *o, const kchar *v, uint32_t n)
{
	uint32_t used = 0;
	bool *seen = calloc(n + 1, sizeof *seen);
	ir_vid fn = seen ? ir_const_class(o, "str_eq_char") : IR_NOVAL;
	for (uint32_t i = 0; fn != IR_NOVAL && i < o->nops; i++) {
		ir_op *op = &o->ops[i];
		uint32_t a = calls_fn(o, op, "str_eq") ? const_arg(o, op) : 0;
		for (uint32_t x = 0; a && x < n; x++) {
			if (v[x].clash ||
			    strcmp(pl_cptr_name(o, op->args[a]), v[x].k))
				continue;
			char d[300];
			int len = snprintf(
			    d, sizeof d, "<Calli 8 ri EF=0 OS=30 const-str=%s>",
			    v[x].k);
			uint32_t ds = len > 0 && (size_t)len < sizeof d
					  ? ir_cstr(o, d)
					  : UINT32_MAX;
			ir_vid c = ds != UINT32_MAX ? ir_const_int(o, v[x].c)
						    : IR_NOVAL;
			if (c == IR_NOVAL)
				break; /* the call stays as it was */
			op->args[1] = op->args[3 - a];
			op->args[2] = c;
			op->args[0] = fn;
			op->descr = ds;
			used += !seen[x];
			seen[x] = true;
			break;
		}
	}
	free(seen);
	return used;
}

void pl_const_strings(pl_pair *p)
{
	if (!p->orig || !p->opt)
		return;
	uint32_t nc, *c, *o;
	if (!pl_paired_calls(p, &c, &nc, &o))
		return;
	kchar *v = calloc(nc + 1, sizeof *v);
	uint32_t n = 0;
	for (uint32_t k = 0; v && k < nc; k++) {
		if (c[k] == UINT32_MAX || o[k] == UINT32_MAX)
			continue;
		const ir_op *q = &p->opt->ops[c[k]], *r = &p->orig->ops[o[k]];
		if (!calls_fn(p->orig, r, "str_eq") ||
		    !calls_fn(p->opt, q, "str_eq_char"))
			continue;
		uint32_t a = const_arg(p->orig, r);
		const ir_value *ch = ir_val(p->opt, q->args[2]);
		if (a && ch->tag == IR_VAL_CONST_INT)
			note_char(v, &n, pl_cptr_name(p->orig, r->args[a]),
				  ch->cval);
	}
	if (v && n)
		p->nstrs += rewrite_streq(p->orig, v, n);
	free(v);
	free(c);
	free(o);
}
