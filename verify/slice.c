/* slice.c - the assumptions a solver query is first asked with (those
 * that share inputs with the goal); the contract is in slice.h. */
#include "slice.h"

#include "verify/abstract.h"

#include <stdlib.h>
#include <string.h>

void sl_init(sl_set *s, Z3_context z)
{
	memset(s, 0, sizeof *s);
	s->z = z;
}

void sl_clear(sl_set *s)
{
	s->n = 0;
	s->nids = 0;
}

void sl_free(sl_set *s)
{
	free(s->first);
	free(s->ids);
	free(s->stack);
	zc_idset_free(&s->seen);
	zc_idset_free(&s->goalh);
	Z3_context z = s->z;
	memset(s, 0, sizeof *s);
	s->z = z;
}

static bool push(sl_set *s, uint32_t *top, Z3_ast t)
{
	if (*top == s->capstack) {
		uint32_t ncap = s->capstack ? s->capstack * 2 : 256;
		Z3_ast *st = realloc(s->stack, (size_t)ncap * sizeof *st);
		if (!st)
			return false;
		s->stack = st;
		s->capstack = ncap;
	}
	s->stack[(*top)++] = t;
	return true;
}

static bool add_id(sl_set *s, unsigned id)
{
	if (s->nids == s->capids) {
		uint32_t ncap = s->capids ? s->capids * 2 : 64;
		unsigned *v = realloc(s->ids, (size_t)ncap * sizeof *v);
		if (!v)
			return false;
		s->ids = v;
		s->capids = ncap;
	}
	s->ids[s->nids++] = id;
	return true;
}

/* Walks T's term DAG once.  Every hard term met goes to OUT (an id set)
 * when OUT is given and the walk goes on below it; otherwise the walk
 * stops at hard terms and appends their ids to s->ids. */
static bool walk(sl_set *s, Z3_ast t, zc_idset *out)
{
	Z3_context z = s->z;
	uint32_t top = 0;
	zc_idset_clear(&s->seen);
	if (!push(s, &top, t))
		return false;
	while (top > 0) {
		Z3_ast a = s->stack[--top];
		if (Z3_get_ast_kind(z, a) != Z3_APP_AST)
			continue;
		unsigned id = Z3_get_ast_id(z, a);
		bool added;
		if (!zc_idset_add(&s->seen, id, &added))
			return false;
		if (!added)
			continue;
		Z3_app app = Z3_to_app(z, a);
		Z3_decl_kind k = Z3_get_decl_kind(z, Z3_get_app_decl(z, app));
		if (abs_hidden_kind(k)) {
			if (!out) {
				if (!add_id(s, id))
					return false;
				continue;
			}
			if (!zc_idset_add(out, id, &added))
				return false;
		}
		unsigned n = Z3_get_app_num_args(z, app);
		for (unsigned i = 0; i < n; i++)
			if (!push(s, &top, Z3_get_app_arg(z, app, i)))
				return false;
	}
	return true;
}

bool sl_add(sl_set *s, Z3_ast a)
{
	if (s->n + 1 >= s->cap) {
		uint32_t ncap = s->cap ? s->cap * 2 : 64;
		uint32_t *f = realloc(s->first, ((size_t)ncap + 1) * sizeof *f);
		if (!f)
			return false;
		s->first = f;
		s->cap = ncap;
	}
	uint32_t before = s->nids;
	s->first[s->n] = before;
	if (!walk(s, a, NULL)) {
		s->nids = before;
		return false;
	}
	s->n++;
	s->first[s->n] = s->nids;
	return true;
}

uint32_t sl_select(sl_set *s, Z3_ast neg, bool *keep)
{
	zc_idset_clear(&s->goalh);
	if (!walk(s, neg, &s->goalh)) {
		for (uint32_t i = 0; i < s->n; i++)
			keep[i] = true;
		return UINT32_MAX;
	}
	uint32_t kept = 0;
	for (uint32_t i = 0; i < s->n; i++) {
		keep[i] = true;
		for (uint32_t j = s->first[i]; j < s->first[i + 1]; j++)
			if (!zc_idset_has(&s->goalh, s->ids[j])) {
				keep[i] = false;
				break;
			}
		kept += keep[i];
	}
	return kept;
}

uint32_t sl_violated(Z3_context z, Z3_model m, const Z3_ast *hyp, uint32_t n,
		     bool *keep)
{
	uint32_t bad = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (keep[i])
			continue;
		Z3_ast v = NULL;
		if (!Z3_model_eval(z, m, hyp[i], true, &v) || !v) {
			for (uint32_t j = 0; j < n; j++)
				keep[j] = true;
			return UINT32_MAX;
		}
		Z3_inc_ref(z, v);
		bool holds = Z3_get_bool_value(z, v) == Z3_L_TRUE;
		Z3_dec_ref(z, v);
		if (!holds) {
			keep[i] = true;
			bad++;
		}
	}
	return bad;
}
