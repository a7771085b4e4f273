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

/* Whether the application is a multiplier or divider: the circuits that
 * are expensive to bit-blast. */
static bool is_hidden_kind(Z3_decl_kind k)
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

static bool push(abs_map *m, uint32_t *top, Z3_ast t)
{
	if (*top == m->capstack) {
		uint32_t ncap = m->capstack ? m->capstack * 2 : 256;
		Z3_ast *s = realloc(m->stack, (size_t)ncap * sizeof *s);
		if (!s) {
			m->failed = true;
			return false;
		}
		m->stack = s;
		m->capstack = ncap;
	}
	m->stack[(*top)++] = t;
	return true;
}

/* Records T as hidden behind a fresh variable of its sort. */
static bool hide(abs_map *m, Z3_ast t)
{
	Z3_context z = m->S->z;
	if (m->n == m->cap) {
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
	}
	char name[32];
	snprintf(name, sizeof name, "hidden!%u", Z3_get_ast_id(z, t));
	Z3_ast v = zc_keep(m->S, Z3_mk_const(z, Z3_mk_string_symbol(z, name),
					     Z3_get_sort(z, t)));
	if (!v) {
		m->failed = true;
		return false;
	}
	m->from[m->n] = t;
	m->to[m->n] = v;
	m->n++;
	return true;
}

/* Walks T's terms not seen before, hiding the outermost multipliers and
 * dividers (what is under a hidden term no longer matters).  *HID is set
 * when T contains a hidden term, new or not. */
static void collect(abs_map *m, Z3_ast t, bool *hid)
{
	Z3_context z = m->S->z;
	uint32_t top = 0;
	uint32_t before = m->n;
	if (!push(m, &top, t))
		return;
	while (top > 0 && !m->failed) {
		Z3_ast a = m->stack[--top];
		if (Z3_get_ast_kind(z, a) != Z3_APP_AST ||
		    !visit(m, Z3_get_ast_id(z, a)))
			continue;
		Z3_app app = Z3_to_app(z, a);
		Z3_decl_kind k = Z3_get_decl_kind(z, Z3_get_app_decl(z, app));
		if (is_hidden_kind(k)) {
			hide(m, a);
			continue;
		}
		unsigned n = Z3_get_app_num_args(z, app);
		for (unsigned i = 0; i < n; i++)
			if (!push(m, &top, Z3_get_app_arg(z, app, i)))
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
