/* abstract.c - queries with their multipliers and dividers hidden behind
 * uninterpreted functions and their axioms; the contract is in abstract.h. */
#include "abstract.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void abs_init(abs_map *m, zc_scope *S)
{
	memset(m, 0, sizeof *m);
	m->S = S;
}

void abs_reset(abs_map *m)
{
	m->n = 0;
	m->paired = 0;
	m->naxioms = 0;
	zc_idset_clear(&m->seen);
	m->failed = false;
}

void abs_free(abs_map *m)
{
	free(m->from);
	free(m->to);
	zc_idset_free(&m->seen);
	free(m->stack);
	zc_scope *S = m->S;
	memset(m, 0, sizeof *m);
	m->S = S;
}

bool abs_hidden_kind(Z3_decl_kind k)
{
	switch (k) {
	case Z3_OP_BMUL:
	case Z3_OP_BSDIV:
	case Z3_OP_BUDIV:
	case Z3_OP_BSREM:
	case Z3_OP_BUREM:
	case Z3_OP_BSMOD:
	case Z3_OP_BSDIV_I:
	case Z3_OP_BUDIV_I:
	case Z3_OP_BSREM_I:
	case Z3_OP_BUREM_I:
	case Z3_OP_BSMOD_I: return true;
	default: return false;
	}
}

/* Adds ID to the visited set; false when it was there already. */
static bool visit(abs_map *m, unsigned id)
{
	bool added;
	if (!zc_idset_add(&m->seen, id, &added))
		m->failed = true;
	return added;
}

static bool push(abs_map *m, uint32_t *top, Z3_ast t, bool post)
{
	if (*top == m->capstack) {
		uint32_t ncap = m->capstack ? m->capstack * 2 : 256;
		abs_item *s = realloc(m->stack, (size_t)ncap * sizeof *s);
		if (!s) {
			m->failed = true;
			return false;
		}
		m->stack = s;
		m->capstack = ncap;
	}
	m->stack[(*top)++] = (abs_item){t, post};
	return true;
}

static bool grow(abs_map *m)
{
	if (m->n < m->cap)
		return true;
	uint32_t ncap = m->cap ? m->cap * 2 : 16;
	Z3_ast *f = realloc(m->from, (size_t)ncap * sizeof *f);
	if (f)
		m->from = f;
	Z3_ast *v = f ? realloc(m->to, (size_t)ncap * sizeof *v) : NULL;
	if (!v) {
		m->failed = true;
		return false;
	}
	m->to = v;
	m->cap = ncap;
	return true;
}

/* The uninterpreted function standing for operation KIND on ARGS: one per
 * kind, arity and sorts, so the same operation always gets the same
 * function and equal arguments give equal results (congruence). */
static Z3_func_decl stand_in(Z3_context z, Z3_decl_kind kind, unsigned n,
			     const Z3_ast *args, Z3_sort range)
{
	Z3_sort dom[8];
	char name[64];
	int len = snprintf(name, sizeof name, "abs!%d!%u!%u", (int)kind, n,
			   Z3_get_bv_sort_size(z, range));
	for (unsigned i = 0; i < n; i++) {
		dom[i] = Z3_get_sort(z, args[i]);
		if (len > 0 && (size_t)len < sizeof name)
			len += snprintf(name + len, sizeof name - (size_t)len,
					"!%u", Z3_get_bv_sort_size(z, dom[i]));
	}
	return Z3_mk_func_decl(z, Z3_mk_string_symbol(z, name), n, dom, range);
}

/* Records T = op(a1..an) as hidden behind op's stand-in applied to the
 * abstracted arguments.  The walk is post-order, so every hidden term
 * inside the arguments is already in the map. */
static bool hide(abs_map *m, Z3_ast t)
{
	Z3_context z = m->S->z;
	Z3_app app = Z3_to_app(z, t);
	unsigned n = Z3_get_app_num_args(z, app);
	Z3_ast args[8];
	if (n == 0 || n > 8 || !grow(m)) {
		m->failed = true;
		return false;
	}
	for (unsigned i = 0; i < n; i++) {
		Z3_ast a = Z3_get_app_arg(z, app, i);
		args[i] = m->n ? zc_keep(m->S, Z3_substitute(z, a, m->n,
							     m->from, m->to))
			       : a;
		if (!args[i]) {
			m->failed = true;
			return false;
		}
	}
	Z3_decl_kind kind = Z3_get_decl_kind(z, Z3_get_app_decl(z, app));
	Z3_func_decl f = stand_in(z, kind, n, args, Z3_get_sort(z, t));
	if (!f) {
		m->failed = true;
		return false;
	}
	Z3_ast fa = Z3_func_decl_to_ast(z, f);
	Z3_inc_ref(z, fa);
	Z3_ast v = zc_keep(m->S, Z3_mk_app(z, f, n, args));
	Z3_dec_ref(z, fa);
	if (!v) {
		m->failed = true;
		return false;
	}
	m->from[m->n] = t;
	m->to[m->n] = v;
	m->n++;
	return true;
}

/* Walks T's terms not seen before, hiding every multiplier and divider,
 * inner ones (in the arguments of others) first.  *HID is set when T
 * contains a hidden term, new or not. */
static void collect(abs_map *m, Z3_ast t, bool *hid)
{
	Z3_context z = m->S->z;
	uint32_t top = 0;
	uint32_t before = m->n;
	if (!push(m, &top, t, false))
		return;
	while (top > 0 && !m->failed) {
		abs_item it = m->stack[--top];
		Z3_ast a = it.t;
		if (it.post) {
			hide(m, a);
			continue;
		}
		if (Z3_get_ast_kind(z, a) != Z3_APP_AST ||
		    !visit(m, Z3_get_ast_id(z, a)))
			continue;
		Z3_app app = Z3_to_app(z, a);
		Z3_decl_kind k = Z3_get_decl_kind(z, Z3_get_app_decl(z, app));
		if (abs_hidden_kind(k) && !push(m, &top, a, true))
			return;
		unsigned n = Z3_get_app_num_args(z, app);
		for (unsigned i = 0; i < n; i++)
			if (!push(m, &top, Z3_get_app_arg(z, app, i), false))
				return;
	}
	if (m->n > before)
		*hid = true;
}

Z3_ast abs_term(abs_map *m, Z3_ast t, bool *hid)
{
	if (m->failed || !t) {
		m->failed = true;
		return NULL;
	}
	collect(m, t, hid);
	if (m->failed)
		return NULL;
	if (m->n == 0)
		return t;
	Z3_ast r =
	    zc_keep(m->S, Z3_substitute(m->S->z, t, m->n, m->from, m->to));
	if (!r)
		m->failed = true;
	else if (r != t)
		*hid = true;
	return r;
}

/* "a = c and b = d implies U = V" for U = f(a, b) and V = f(c, d), or with
 * c and d swapped (SWAP). */
static Z3_ast implies_equal(zc_scope *S, Z3_ast u, Z3_ast v, bool swap)
{
	Z3_context z = S->z;
	Z3_app au = Z3_to_app(z, u), av = Z3_to_app(z, v);
	Z3_ast eqs[2];
	for (unsigned k = 0; k < 2; k++)
		eqs[k] = zc_keep(
		    S, Z3_mk_eq(z, Z3_get_app_arg(z, au, k),
				Z3_get_app_arg(z, av, swap ? 1 - k : k)));
	Z3_ast both =
	    eqs[0] && eqs[1] ? zc_keep(S, Z3_mk_and(z, 2, eqs)) : NULL;
	Z3_ast same = zc_keep(S, Z3_mk_eq(z, u, v));
	return both && same ? zc_keep(S, Z3_mk_implies(z, both, same)) : NULL;
}

/* The axioms of stand-ins U (hiding FROM) and V: none unless they apply
 * one function to two arguments; congruence; for products, commutation.
 * Writes at most ROOM of them to OUT and returns how many. */
static unsigned pair_axioms(zc_scope *S, Z3_ast from, Z3_ast u, Z3_ast v,
			    Z3_ast *out, unsigned room)
{
	Z3_context z = S->z;
	Z3_app au = Z3_to_app(z, u), av = Z3_to_app(z, v);
	if (Z3_get_app_num_args(z, au) != 2 ||
	    !Z3_is_eq_func_decl(z, Z3_get_app_decl(z, au),
				Z3_get_app_decl(z, av)))
		return 0;
	bool product =
	    Z3_get_decl_kind(z, Z3_get_app_decl(z, Z3_to_app(z, from))) ==
	    Z3_OP_BMUL;
	unsigned n = 0;
	for (int swap = 0; swap <= product && n < room; swap++) {
		Z3_ast a = implies_equal(S, u, v, swap);
		if (a)
			out[n++] = a;
	}
	return n;
}

bool abs_axioms(abs_map *m, Z3_ast *out)
{
	zc_scope *S = m->S;
	Z3_context z = S->z;
	Z3_ast ax[ABS_MAX_AXIOMS];
	unsigned nax = 0;
	for (; m->paired < m->n; m->paired++) {
		uint32_t i = m->paired;
		for (uint32_t j = 0; j < i && m->naxioms < ABS_MAX_AXIOMS;
		     j++) {
			unsigned k =
			    pair_axioms(S, m->from[i], m->to[i], m->to[j],
					ax + nax, ABS_MAX_AXIOMS - m->naxioms);
			nax += k;
			m->naxioms += k;
		}
	}
	*out = nax == 0	  ? NULL
	       : nax == 1 ? ax[0]
			  : zc_keep(S, Z3_mk_and(z, nax, ax));
	if (zc_failed())
		m->failed = true;
	return !m->failed;
}
