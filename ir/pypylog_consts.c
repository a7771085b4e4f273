/*
 * pypylog_consts.c - what the optimized trace shows of its constants'
 * memory, which PyPy's optimizer reads and the log does not print:
 * classes, one-char strings and string lengths (docs/pypy.md, "Constant
 * classes", "Constant strings").  All are assumptions, counted, and
 * left out with --consts-unknown.  Sections: classes; one-char strings;
 * strings in concatenations and lengths in call arguments; class
 * outputs.
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
 * K.  The same for s[i:i+1] == K, which PyPy compares as
 * str_eq_slice_char(s, i, 1, c): the original's str_eq_char(K, s[i])
 * becomes that call.  pl_pair.nstrs counts the constants.
 *
 * The same for s[i:i+1] == K folded to the chars, int_eq(s[i], c) with
 * no call (char_compares): the k-th of the original's str_eq_char(K,
 * s[i]) pairs with the k-th char compare when both are as many.
 *
 * Strings in concatenations.  PyPy's optimizer keeps s + K, K a constant
 * string, virtual (vstring.py, VStringConcatInfo) and, where it forces
 * it, copies s and writes K's chars one by one: strsetitem(d, len(s) + j,
 * c_j), its length len(s) + N.  The original copies K whole into the new
 * string (copystrcontent(K, d, 0, off, strlen(K)), the front end's form
 * of ll_strconcat).  When the original's whole copies of ConstPtrs and
 * the optimized trace's parts (a run of constant chars stored at
 * consecutive indices into a string it made, or a copy of a ConstPtr)
 * are as many, the k-th pair in order, and the runs paired with one K
 * agree, the pair assumes K is those chars: guard_value(strlen(K), N) and
 * guard_value(K[j], c_j) start both traces (facts, as the recording's
 * are, but added after those so that they are not taken for recorded
 * ones).  Counted in pl_pair.nstrs.  What is not caught: an optimizer
 * that writes the wrong chars, or a length of its own that matches them.
 *
 * Lengths in call arguments (call_lengths).  PyPy's optimizer reads a
 * constant string's length and passes the number on: where a call of the
 * optimized trace has a constant N and its partner strlen(K) + d, the
 * pair assumes K has N - d chars, a guard_value(strlen(K), N - d) among
 * the same facts.  Not when two calls disagree.
 *
 * Class outputs.  A finish output that is the same ConstClass in both
 * traces (`finish(ConstClass(AssertionError))` after guard_always_fails)
 * is one value in both: it is left out of both finishes, since the heap
 * model has no address for a class.  Exact; not an assumption.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pypylog_int.h"
#include "pypyops.h"

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

/* Whether T compares K with anything but another ConstPtr.  Two
 * ConstPtrs compare by address, which says nothing of K's class: the
 * recorded facts that start both traces (ptr_eq(K, K2) found false on
 * the recorded run, json_pretty) are no comparison the optimizer kept. */
static bool compares(const ir_trace *t, const char *k)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if ((op->opc != IR_PTR_EQ && op->opc != IR_PTR_NE) ||
		    op->nargs != 2)
			continue;
		for (int a = 0; a < 2; a++)
			if (names(t, op->args[a], k) &&
			    !pl_cptr_name(t, op->args[1 - a]))
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
	const char *f = pl_call_fn(t, op, 3);
	return f && !strcmp(f, name);
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
	bool used;  /* a call of ORIG was rewritten with it */
} kchar;

/* Whether op OP of T calls PyPy's str_eq_slice_char(s, start, 1, c)
 * (OS 27) with a constant char; *C receives it. */
static bool slice_char_call(const ir_trace *t, const ir_op *op, uint64_t *c)
{
	if (op->opc != IR_OPAQUE || op->nargs != 5 || op->result == IR_NOVAL ||
	    !op->descr || ir_val(t, op->args[0])->tag != IR_VAL_CONST_CLASS ||
	    ir_py_oopspec(ir_strtext(t, op->descr)) != 27)
		return false;
	const ir_value *len = ir_val(t, op->args[3]),
		       *ch = ir_val(t, op->args[4]);
	if (len->tag != IR_VAL_CONST_INT || len->cval != 1 ||
	    ch->tag != IR_VAL_CONST_INT)
		return false;
	*c = ch->cval;
	return true;
}

/* The op of T that makes V when it reads a char of a string
 * (getarrayitem_gc_i(s, i, descr=<str>)), else NULL. */
static const ir_op *str_char_read(const ir_trace *t, ir_vid v)
{
	uint32_t d = ir_defop(t, v);
	const ir_op *g = d == UINT32_MAX ? NULL : &t->ops[d];
	if (!g || g->opc != IR_GETARRAYITEM_GC_I || g->nargs != 2 ||
	    !g->descr || strcmp(ir_strtext(t, g->descr), "<str>"))
		return NULL;
	return g;
}

/* Whether op R of T is str_eq_char(K, x) (pl_str_eq_calls' form of
 * ll_streq(K, t) with t the one-char string of x) with x = s[i], a char
 * read of a string that nothing between the read and R may write: then
 * *S and *I receive s and i. */
static bool char_of_read(const ir_trace *t, const ir_op *r, ir_vid *s,
			 ir_vid *i)
{
	if (!calls_fn(t, r, "str_eq_char") || !pl_cptr_name(t, r->args[1]) ||
	    pl_cptr_name(t, r->args[2]))
		return false;
	const ir_op *g = str_char_read(t, r->args[2]);
	if (!g)
		return false;
	*s = g->args[0];
	*i = g->args[1];
	for (const ir_op *op = g + 1; op < r; op++)
		if (!pl_leaves_chars(op, *s))
			return false;
	return true;
}

/* Adds "K is the string C" to V (*N entries, room for one more). */
static void note_char(kchar *v, uint32_t *n, const char *k, uint64_t c)
{
	for (uint32_t i = 0; i < *n; i++)
		if (!strcmp(v[i].k, k)) {
			v[i].clash |= v[i].c != c;
			return;
		}
	v[(*n)++] = (kchar){k, c, false, false};
}

/* The entry of V (N of them) for ORIG's ConstPtr K, NULL when there is
 * none or it is ambiguous. */
static kchar *find_char(kchar *v, uint32_t n, const ir_trace *o, ir_vid k)
{
	for (uint32_t x = 0; x < n; x++)
		if (!v[x].clash && !strcmp(pl_cptr_name(o, k), v[x].k))
			return &v[x];
	return NULL;
}

/* Gives op OP of ORIG the descr D with " const-str=K" before its '>';
 * false (OP unchanged) when out of memory. */
static bool name_const(ir_trace *o, ir_op *op, const char *d, const char *k)
{
	char buf[300];
	int len = snprintf(buf, sizeof buf, "%.*s const-str=%s>",
			   (int)strcspn(d, ">"), d, k);
	uint32_t ds =
	    len > 0 && (size_t)len < sizeof buf ? ir_cstr(o, buf) : UINT32_MAX;
	if (ds == UINT32_MAX)
		return false;
	op->descr = ds;
	return true;
}

/* Rewrites ORIG's str_eq calls with the constants of V into the char
 * form. */
static void rewrite_streq(ir_trace *o, kchar *v, uint32_t n)
{
	ir_vid fn = ir_const_class(o, "str_eq_char");
	for (uint32_t i = 0; fn != IR_NOVAL && i < o->nops; i++) {
		ir_op *op = &o->ops[i];
		uint32_t a = calls_fn(o, op, "str_eq") ? const_arg(o, op) : 0;
		kchar *x = a ? find_char(v, n, o, op->args[a]) : NULL;
		ir_vid c = x ? ir_const_int(o, x->c) : IR_NOVAL;
		ir_op was = *op;
		if (c == IR_NOVAL ||
		    !name_const(o, op, "<Calli 8 ri EF=0 OS=30>", x->k))
			continue; /* the call stays as it was */
		op->args[1] = was.args[3 - a];
		op->args[2] = c;
		op->args[0] = fn;
		x->used = true;
	}
}

/* Rewrites ORIG's call R, str_eq_char(K, s[i]) (char_of_read), into Q,
 * the optimized trace's str_eq_slice_char(s', i', 1, c) call it pairs
 * with, on s and i: with K the string of c, both say s[i] == c. */
static void rewrite_slice(pl_pair *p, ir_op *r, const ir_op *q, kchar *x)
{
	ir_trace *o = p->orig;
	ir_vid s, i;
	if (!char_of_read(o, r, &s, &i))
		return;
	ir_vid *a = arena_alloc(&o->A, 5 * sizeof *a);
	ir_vid fn = ir_const_class(o, ir_valname(p->opt, q->args[0]));
	ir_vid one = ir_const_int(o, 1), c = ir_const_int(o, x->c);
	if (!a || fn == IR_NOVAL || one == IR_NOVAL || c == IR_NOVAL ||
	    !name_const(o, r, ir_strtext(p->opt, q->descr), x->k))
		return; /* the call stays as it was */
	a[0] = fn;
	a[1] = s;
	a[2] = i;
	a[3] = one;
	a[4] = c;
	r->args = a;
	r->nargs = 5;
	x->used = true;
}

/* Notes in V (*N entries) the char that the optimized trace's call Q
 * shows for the ConstPtr of ORIG's call R, its partner; *SLICE says
 * whether R is a char comparison Q makes on a slice. */
static void note_pair(const pl_pair *p, const ir_op *q, const ir_op *r,
		      kchar *v, uint32_t *n, bool *slice)
{
	uint64_t c;
	ir_vid s, i;
	*slice = false;
	if (calls_fn(p->orig, r, "str_eq") &&
	    calls_fn(p->opt, q, "str_eq_char")) {
		uint32_t a = const_arg(p->orig, r);
		const ir_value *ch = ir_val(p->opt, q->args[2]);
		if (a && ch->tag == IR_VAL_CONST_INT)
			note_char(v, n, pl_cptr_name(p->orig, r->args[a]),
				  ch->cval);
	} else if (slice_char_call(p->opt, q, &c) &&
		   char_of_read(p->orig, r, &s, &i)) {
		note_char(v, n, pl_cptr_name(p->orig, r->args[1]), c);
		*slice = true;
	}
}

/* Whether op Q of T compares a char read of a string with a constant
 * char: int_eq(s[i], c) or int_eq(c, s[i]); *C receives c. */
static bool char_compare(const ir_trace *t, const ir_op *q, uint64_t *c)
{
	if (q->opc != IR_INT_EQ || q->nargs != 2)
		return false;
	for (int a = 0; a < 2; a++) {
		const ir_value *k = ir_val(t, q->args[1 - a]);
		if (k->tag == IR_VAL_CONST_INT && k->cval <= 255 &&
		    str_char_read(t, q->args[a])) {
			*c = k->cval;
			return true;
		}
	}
	return false;
}

/* The ops of T that are char compares (char_compare), or with ORIG set
 * str_eq_char(K, s[i]) calls (char_of_read), in order, at most CAP into
 * V; their number (all of them). */
static uint32_t char_tests(const ir_trace *t, bool orig, uint32_t *v,
			   uint32_t cap)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		uint64_t c;
		ir_vid s, x;
		bool hit = orig ? char_of_read(t, op, &s, &x)
				: char_compare(t, op, &c);
		if (hit && n++ < cap)
			v[n - 1] = i;
	}
	return n;
}

/* PyPy's optimizer compares s[i] == K, K a constant string of one char c
 * and s[i] a one-char string, as the chars: int_eq(s[i], c) (vstring.py,
 * handle_str_equal_level1, reading K's char from memory).  The original's
 * form is str_eq_char(K, s[i]) (char_of_read).  When the original makes
 * no char compare of its own and as many such calls as the optimized
 * trace makes char compares, the k-th pair in order and the pair assumes
 * K is the char of its partner: the call becomes int_eq(s[i], c), what
 * it means for that K.  Not when two partners show two chars for one K.
 * Counted in pl_pair.nstrs (email_validate, kv_parser, base_convert). */
static void char_compares(pl_pair *p)
{
	enum { CAP = 32 };
	uint32_t a[CAP], b[CAP], own[1];
	uint32_t na = char_tests(p->orig, true, a, CAP);
	uint32_t nb = char_tests(p->opt, false, b, CAP);
	if (na == 0 || na != nb || na > CAP ||
	    char_tests(p->orig, false, own, 1))
		return;
	kchar v[CAP];
	uint32_t n = 0;
	for (uint32_t k = 0; k < na; k++) {
		uint64_t c = 0;
		char_compare(p->opt, &p->opt->ops[b[k]], &c);
		note_char(v, &n,
			  pl_cptr_name(p->orig, p->orig->ops[a[k]].args[1]), c);
	}
	for (uint32_t k = 0; k < na; k++) {
		ir_op *r = &p->orig->ops[a[k]];
		kchar *x = find_char(v, n, p->orig, r->args[1]);
		ir_vid *args = arena_alloc(&p->orig->A, 2 * sizeof *args);
		ir_vid c = x ? ir_const_int(p->orig, x->c) : IR_NOVAL;
		if (!args || c == IR_NOVAL)
			continue; /* the call stays as it was */
		args[0] = r->args[2];
		args[1] = c;
		r->opc = IR_INT_EQ;
		r->opname = 0;
		r->descr = 0;
		r->args = args;
		r->nargs = 2;
		x->used = true;
	}
	for (uint32_t x = 0; x < n; x++)
		p->nstrs += v[x].used;
}

/* The one-char strings the optimized trace's calls show (note_pair). */
static void char_calls(pl_pair *p)
{
	uint32_t nc, *c, *o;
	if (!pl_paired_calls(p, &c, &nc, &o))
		return;
	kchar *v = calloc(nc + 1, sizeof *v);
	bool *slice = calloc(nc + 1, sizeof *slice);
	uint32_t n = 0;
	for (uint32_t k = 0; v && slice && k < nc; k++)
		if (c[k] != UINT32_MAX && o[k] != UINT32_MAX)
			note_pair(p, &p->opt->ops[c[k]], &p->orig->ops[o[k]], v,
				  &n, &slice[k]);
	for (uint32_t k = 0; n && k < nc; k++) {
		ir_op *r = slice[k] ? &p->orig->ops[o[k]] : NULL;
		kchar *x = r ? find_char(v, n, p->orig, r->args[1]) : NULL;
		if (x)
			rewrite_slice(p, r, &p->opt->ops[c[k]], x);
	}
	if (n)
		rewrite_streq(p->orig, v, n);
	for (uint32_t x = 0; x < n; x++)
		p->nstrs += v[x].used;
	free(slice);
	free(v);
	free(c);
	free(o);
}

void pl_const_strings(pl_pair *p)
{
	if (!p->orig || !p->opt)
		return;
	char_calls(p);
	char_compares(p);
}

/* ---- constant strings in concatenations --------------------------------- */

/* One string part of a trace, in trace order: in ORIG a copy of a whole
 * ConstPtr string K into a string the trace made (K set); in OPT a run
 * of constant chars stored into such a string (N chars C), or a copy of
 * a ConstPtr into one (N = UINT32_MAX: it shows no chars). */
#define KS_MAX 64
typedef struct kpart {
	const char *k;
	uint32_t n;
	uint8_t c[KS_MAX];
} kpart;

typedef struct kparts {
	kpart *v;
	uint32_t n, cap;
	bool oom;
} kparts;

static kpart *part_add(kparts *ps)
{
	if (ps->n == ps->cap) {
		uint32_t cap = ps->cap ? 2 * ps->cap : 16;
		kpart *v = realloc(ps->v, cap * sizeof *v);
		if (!v) {
			ps->oom = true;
			return NULL;
		}
		ps->v = v;
		ps->cap = cap;
	}
	kpart *p = &ps->v[ps->n++];
	memset(p, 0, sizeof *p);
	return p;
}

/* Whether V of T is getfield_gc_i(K, descr=<str>.length). */
static bool length_of(const ir_trace *t, ir_vid v, ir_vid k)
{
	uint32_t d = ir_defop(t, v);
	const ir_op *op = d == UINT32_MAX ? NULL : &t->ops[d];
	return op && op->opc == IR_GETFIELD_GC_I && op->nargs == 1 &&
	       op->args[0] == k &&
	       !strcmp(ir_strtext(t, op->descr), "<str>.length");
}

/* The ConstPtr a string copy OP of T copies whole into a string T made
 * (copystrcontent(K, d, 0, off, strlen(K))), or NULL. */
static const char *whole_copy(const ir_trace *t, const ir_op *op)
{
	const char *d = ir_py_str_copy(t, op);
	uint64_t z;
	if (!d || strcmp(d, "<str>") || !pl_new_of(t, op->args[1], "<str>") ||
	    !pl_const_int(t, op->args[2], 0, &z))
		return NULL;
	const char *k = pl_cptr_name(t, op->args[0]);
	return k && length_of(t, op->args[4], op->args[0]) ? k : NULL;
}

/* Whether OP of T stores a constant char into a string T made
 * (setarrayitem_gc(d, i, c, descr=<str>)); *BASE + *OFF is its index
 * (pl_lin_of), *C the char. */
static bool char_store(const ir_trace *t, const ir_op *op, ir_vid *base,
		       uint64_t *off, uint64_t *c)
{
	if (op->opc != IR_SETARRAYITEM_GC || op->nargs != 3 ||
	    strcmp(ir_strtext(t, op->descr), "<str>") ||
	    !pl_new_of(t, op->args[0], "<str>") ||
	    !pl_const_int(t, op->args[2], 255, c))
		return false;
	*base = pl_lin_of(t, op->args[1], off);
	return true;
}

/* The op after *I of T that is not pure arithmetic (an index
 * computed between two stores: i + 1), or T's op count. */
static uint32_t next_effect(const ir_trace *t, uint32_t i)
{
	while (++i < t->nops && ir_op_has((ir_opcode)t->ops[i].opc, IRF_PURE))
		;
	return i;
}

/* The run of char stores of OPT from op *I on, into one string at
 * consecutive indices, as a part (pure arithmetic between them, the
 * next index, is no break: json_pretty's two-space indent); *I moves
 * past it. */
static void char_run(const ir_trace *t, uint32_t *i, kparts *ps)
{
	ir_vid base, b2;
	uint64_t off, o2, c;
	const ir_op *op = &t->ops[*i];
	if (!char_store(t, op, &base, &off, &c))
		return;
	kpart *p = part_add(ps);
	if (!p)
		return;
	ir_vid dst = op->args[0];
	p->c[p->n++] = (uint8_t)c;
	for (uint32_t j = next_effect(t, *i); j < t->nops && p->n < KS_MAX;
	     j = next_effect(t, j)) {
		const ir_op *q = &t->ops[j];
		if (!char_store(t, q, &b2, &o2, &c) || q->args[0] != dst ||
		    b2 != base || o2 != off + p->n)
			break;
		p->c[p->n++] = (uint8_t)c;
		*i = j;
	}
}

static void orig_parts(const ir_trace *t, kparts *ps)
{
	for (uint32_t i = 0; i < t->nops && !ps->oom; i++) {
		const char *k = whole_copy(t, &t->ops[i]);
		kpart *p = k ? part_add(ps) : NULL;
		if (p)
			p->k = k;
	}
}

static void opt_parts(const ir_trace *t, kparts *ps)
{
	for (uint32_t i = 0; i < t->nops && !ps->oom; i++) {
		const ir_op *op = &t->ops[i];
		const char *d = ir_py_str_copy(t, op);
		if (d && !strcmp(d, "<str>") &&
		    pl_new_of(t, op->args[1], "<str>") &&
		    pl_cptr_name(t, op->args[0])) {
			kpart *p = part_add(ps);
			if (p)
				p->n = UINT32_MAX;
		} else {
			char_run(t, &i, ps);
		}
	}
}

/* The chars OPT's parts show for constant K (*N of them, into C), paired
 * in order with ORIG's; false when none does, or two parts disagree. */
static bool learned(const kparts *o, const kparts *t, const char *k, uint8_t *c,
		    uint32_t *n)
{
	bool any = false;
	for (uint32_t j = 0; j < o->n; j++) {
		const kpart *q = &t->v[j];
		if (strcmp(o->v[j].k, k) || q->n == UINT32_MAX)
			continue;
		if (any && (q->n != *n || memcmp(q->c, c, q->n)))
			return false;
		memcpy(c, q->c, q->n);
		*n = q->n;
		any = true;
	}
	return any;
}

typedef struct kstr {
	const char *k;
	uint32_t n;
	uint8_t c[KS_MAX];
	bool len_only; /* only the length is known (call_lengths) */
} kstr;

typedef struct kstrs {
	const kstr *v;
	uint32_t n;
} kstrs;

/* Emits into C's trace, for each learned string, guard_value(strlen(K),
 * N) and guard_value(K[j], c_j), labelled alike in both traces. */
static bool emit_kstrs(copier *c, void *ctx)
{
	const kstrs *ks = ctx;
	ir_trace *d = c->d;
	char lbl[48], name[48];
	for (uint32_t x = 0; x < ks->n; x++) {
		const kstr *s = &ks->v[x];
		ir_vid k = ir_const_ptr(d, s->k);
		for (uint32_t j = s->len_only ? s->n : 0; j <= s->n; j++) {
			bool len = j == s->n;
			ir_vid a[2] = {k, len ? IR_NOVAL : ir_const_int(d, j)};
			snprintf(name, sizeof name, "ikstr%u_%u", x, j);
			uint32_t o = ir_emit(
			    d, len ? IR_GETFIELD_GC_I : IR_GETARRAYITEM_GC_I,
			    len ? 1 : 2, a,
			    ir_cstr(d, len ? "<str>.length" : "<str>"), name);
			if (o == UINT32_MAX)
				return false;
			ir_vid g[2] = {d->ops[o].result,
				       ir_const_int(d, len ? s->n : s->c[j])};
			snprintf(lbl, sizeof lbl, "gkstr%u_%u", x, j);
			o = ir_emit(d, IR_GUARD_VALUE, 2, g, ir_cstr(d, lbl),
				    NULL);
			if (o == UINT32_MAX)
				return false;
			d->ops[o].flags |= IR_OPF_IMPLICIT_LABEL;
		}
	}
	return true;
}

/* The ConstPtr K when V of T is strlen(K) + *OFF
 * (getfield_gc_i(K, descr=<str>.length), pl_lin_of); else IR_NOVAL. */
static ir_vid length_plus(const ir_trace *t, ir_vid v, uint64_t *off)
{
	ir_vid b = pl_lin_of(t, v, off);
	uint32_t d = b == IR_NOVAL ? UINT32_MAX : ir_defop(t, b);
	const ir_op *op = d == UINT32_MAX ? NULL : &t->ops[d];
	if (!op || op->nargs != 1 || !pl_cptr_name(t, op->args[0]) ||
	    !length_of(t, b, op->args[0]))
		return IR_NOVAL;
	return op->args[0];
}

/* Notes that constant K has N chars in V (*NV entries, CAP at most); an
 * entry two arguments disagree on is dropped (its length set to
 * UINT32_MAX, skipped by the caller). */
static void note_length(kstr *v, uint32_t *nv, uint32_t cap, const char *k,
			uint64_t n)
{
	for (uint32_t x = 0; x < *nv; x++)
		if (!strcmp(v[x].k, k)) {
			if (v[x].n != n)
				v[x].n = UINT32_MAX;
			return;
		}
	if (*nv < cap && n < UINT32_MAX)
		v[(*nv)++] = (kstr){.k = k, .n = (uint32_t)n, .len_only = true};
}

/* Lengths in call arguments.  PyPy's optimizer reads a constant string's
 * length from memory and passes the number on: the original's
 * ll_append_res_slice(sb, K, 16, strlen(K)) is the optimized trace's
 * ll_append_res_slice(sb, K, 16, 16) (csv_split's bridges).  Where an
 * argument of a call of OPT is a constant N and the same argument of its
 * partner (pl_paired_calls) is strlen(K) + d, the pair assumes K has
 * N - d chars; not when two arguments disagree, nor for a K whose chars
 * were learned from a concatenation.  Entries go into V (*NV, CAP). */
static void call_lengths(const pl_pair *p, kstr *v, uint32_t *nv, uint32_t cap)
{
	uint32_t nc, *c, *o;
	if (!pl_paired_calls(p, &c, &nc, &o))
		return;
	uint32_t first = *nv;
	kstr *w = v + first;
	uint32_t nw = 0;
	for (uint32_t k = 0; k < nc; k++) {
		if (c[k] == UINT32_MAX)
			continue;
		const ir_op *a = &p->orig->ops[o[k]], *b = &p->opt->ops[c[k]];
		for (uint32_t j = 0; j < a->nargs && j < b->nargs; j++) {
			uint64_t off, len;
			ir_vid x = length_plus(p->orig, a->args[j], &off);
			if (x == IR_NOVAL ||
			    !pl_const_int(p->opt, b->args[j], INT32_MAX, &len))
				continue;
			const char *name = pl_cptr_name(p->orig, x);
			bool known = false;
			for (uint32_t y = 0; y < first; y++)
				known |= !strcmp(v[y].k, name);
			if (!known)
				note_length(w, &nw, cap - first, name,
					    len - off > INT32_MAX ? UINT32_MAX
								  : len - off);
		}
	}
	for (uint32_t y = 0; y < nw; y++)
		if (w[y].n != UINT32_MAX)
			v[(*nv)++] = w[y];
	free(c);
	free(o);
}

/* Empty constants.  PyPy's optimizer drops a concatenation with a
 * constant string it reads as empty (vstring.py: s + "" is s), so the
 * optimized trace has no part for it and no mention of it at all
 * (query_string's "%s" % ... with an empty tail).  When ORIG's parts
 * whose K OPT never mentions are exactly the ones OPT lacks, they move
 * to the end of O's list as empty strings (n = 0, set in EMPTY) and
 * *NO becomes the number left to pair in order with OPT's; otherwise
 * nothing changes. */
static void drop_empty(const pl_pair *p, kparts *o, uint32_t nt, bool *empty)
{
	uint32_t keep = 0;
	for (uint32_t j = 0; j < o->n; j++)
		empty[j] = !pl_mentions(p->opt, o->v[j].k);
	for (uint32_t j = 0; j < o->n; j++)
		keep += !empty[j];
	if (keep == o->n || keep != nt)
		return;
	kpart *v = malloc(o->n * sizeof *v);
	if (!v)
		return;
	uint32_t a = 0, b = keep;
	for (uint32_t j = 0; j < o->n; j++)
		v[empty[j] ? b++ : a++] = o->v[j];
	for (uint32_t j = 0; j < o->n; j++)
		empty[j] = j >= keep;
	memcpy(o->v, v, o->n * sizeof *v);
	free(v);
	o->n = keep;
}

void pl_const_concats(pl_pair *p)
{
	if (!p->orig || !p->opt)
		return;
	kparts o = {0}, t = {0};
	orig_parts(p->orig, &o);
	opt_parts(p->opt, &t);
	uint32_t all = o.n;
	bool *empty = o.n ? calloc(o.n, sizeof *empty) : NULL;
	if (empty && !o.oom && !t.oom && o.n > t.n)
		drop_empty(p, &o, t.n, empty);
	bool parts = o.n && !o.oom && !t.oom && o.n == t.n;
	uint32_t cap = all + p->opt->nops;
	kstr *v = calloc(cap + 1, sizeof *v);
	uint32_t n = 0;
	for (uint32_t j = 0; v && parts && j < o.n; j++) {
		bool seen = false;
		for (uint32_t x = 0; x < n; x++)
			seen |= !strcmp(v[x].k, o.v[j].k);
		if (!seen && learned(&o, &t, o.v[j].k, v[n].c, &v[n].n))
			v[n++].k = o.v[j].k;
	}
	/* the empty ones drop_empty set apart (none of them pairs) */
	for (uint32_t j = o.n; v && empty && j < all; j++) {
		bool seen = false;
		for (uint32_t x = 0; x < n; x++)
			seen |= !strcmp(v[x].k, o.v[j].k);
		if (!seen && empty[j])
			v[n++] = (kstr){.k = o.v[j].k, .n = 0};
	}
	free(empty);
	if (v)
		call_lengths(p, v, &n, cap);
	kstrs ks = {v, n};
	if (n && pl_prefix_both(p, emit_kstrs, &ks))
		p->nstrs += n;
	free(v);
	free(o.v);
	free(t.v);
}

/* ---- class outputs ------------------------------------------------------ */

/* Whether argument J of OP in T is ConstClass(NAME) (*NAME set). */
static bool class_arg(const ir_trace *t, const ir_op *op, uint32_t j,
		      const char **name)
{
	ir_vid v = op->args[j];
	if (v == IR_NOVAL || ir_val(t, v)->tag != IR_VAL_CONST_CLASS)
		return false;
	*name = ir_valname(t, v);
	return true;
}

/* Leaves out of the finish F of T the arguments that DROP marks. */
static void drop_args(ir_op *f, const bool *drop)
{
	uint32_t w = 0;
	for (uint32_t j = 0; j < f->nargs; j++)
		if (!drop[j])
			f->args[w++] = f->args[j];
	f->nargs = w;
}

void pl_class_outputs(pl_pair *p)
{
	if (!p->orig || !p->opt || !p->orig->nops || !p->opt->nops)
		return;
	ir_op *a = &p->orig->ops[p->orig->nops - 1];
	ir_op *b = &p->opt->ops[p->opt->nops - 1];
	if (a->opc != IR_FINISH || b->opc != IR_FINISH || a->nargs != b->nargs)
		return;
	bool *drop = calloc(a->nargs + 1, sizeof *drop);
	bool any = false;
	for (uint32_t j = 0; drop && j < a->nargs; j++) {
		const char *x, *y;
		drop[j] = class_arg(p->orig, a, j, &x) &&
			  class_arg(p->opt, b, j, &y) && !strcmp(x, y);
		any |= drop[j];
	}
	if (any) {
		drop_args(a, drop);
		drop_args(b, drop);
	}
	free(drop);
}
