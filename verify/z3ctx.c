#include "z3ctx.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first Z3 error since the last clear, per thread.  Only the first is
 * kept because later ones are usually consequences of it (a NULL term fed
 * to the next call). */
static _Thread_local bool zc_err_set;
static _Thread_local char zc_err_text[256];

static void record_error(Z3_context c, Z3_error_code e)
{
	if (zc_err_set)
		return;
	zc_err_set = true;
	const char *msg = Z3_get_error_msg(c, e);
	snprintf(zc_err_text, sizeof zc_err_text, "Z3 error %d: %s", (int)e,
		 msg ? msg : "(no message)");
}

bool zc_failed(void)
{
	return zc_err_set;
}

const char *zc_error_text(void)
{
	return zc_err_set ? zc_err_text : "no Z3 error";
}

void zc_clear_error(void)
{
	zc_err_set = false;
	zc_err_text[0] = 0;
}

jp_status zc_check_error(jp_err *err, const char *what)
{
	if (!zc_err_set)
		return JP_OK;
	return jp_fail(err, JP_EINTERNAL, "%s: %s", what, zc_err_text);
}

static Z3_context make_context(void)
{
	Z3_config cfg = Z3_mk_config();
	if (!cfg)
		return NULL;
	/* Models must assign every input so counterexamples are complete. */
	Z3_set_param_value(cfg, "model", "true");
	Z3_context z = Z3_mk_context_rc(cfg);
	Z3_del_config(cfg);
	if (z)
		Z3_set_error_handler(z, record_error);
	return z;
}

jp_status zc_init(zc_ctx *zc, jp_err *err)
{
	memset(zc, 0, sizeof *zc);
	zc->recycle_every = 2000;
	zc->z = make_context();
	if (!zc->z)
		return jp_fail(err, JP_EINTERNAL, "cannot create a Z3 context");
	return JP_OK;
}

void zc_fini(zc_ctx *zc)
{
	if (zc->z)
		Z3_del_context(zc->z);
	zc->z = NULL;
}

jp_status zc_begin_check(zc_ctx *zc, jp_err *err)
{
	zc_clear_error();
	if (zc->checks >= zc->recycle_every) {
		Z3_del_context(zc->z);
		zc->z = make_context();
		zc->checks = 0;
		zc->rebuilds++;
		if (!zc->z)
			return jp_fail(err, JP_EINTERNAL,
				       "cannot rebuild the Z3 context");
	}
	zc->checks++;
	return JP_OK;
}

void zc_scope_init(zc_scope *s, Z3_context z)
{
	memset(s, 0, sizeof *s);
	s->z = z;
}

Z3_ast zc_keep(zc_scope *s, Z3_ast a)
{
	if (!a) {
		s->failed = true;
		return NULL;
	}
	if (s->n == s->cap) {
		uint32_t ncap = s->cap ? s->cap * 2 : 256;
		Z3_ast *t = realloc(s->terms, (size_t)ncap * sizeof *t);
		if (!t) {
			s->failed = true;
			return NULL;
		}
		s->terms = t;
		s->cap = ncap;
	}
	Z3_inc_ref(s->z, a);
	s->terms[s->n++] = a;
	return a;
}

void zc_scope_release(zc_scope *s)
{
	for (uint32_t i = 0; i < s->n; i++)
		Z3_dec_ref(s->z, s->terms[i]);
	free(s->terms);
	s->terms = NULL;
	s->n = s->cap = 0;
	s->failed = false;
}

Z3_sort zc_bv_sort(Z3_context z, unsigned w)
{
	/* Sorts are ASTs too, but Z3 keeps the sorts of live terms alive;
	 * a sort is only used to build a term right away. */
	return Z3_mk_bv_sort(z, w);
}

Z3_ast zc_bv(zc_scope *s, unsigned w, uint64_t v)
{
	return zc_keep(s, Z3_mk_unsigned_int64(s->z, v, zc_bv_sort(s->z, w)));
}

Z3_ast zc_true(zc_scope *s)
{
	return zc_keep(s, Z3_mk_true(s->z));
}

Z3_ast zc_false(zc_scope *s)
{
	return zc_keep(s, Z3_mk_false(s->z));
}

bool zc_numeral(Z3_context z, Z3_ast a, uint64_t *v)
{
	if (!a || Z3_get_ast_kind(z, a) != Z3_NUMERAL_AST)
		return false;
	return Z3_get_numeral_uint64(z, a, v);
}

bool zc_is_true(Z3_context z, Z3_ast a)
{
	return a && Z3_get_bool_value(z, a) == Z3_L_TRUE;
}

bool zc_is_false(Z3_context z, Z3_ast a)
{
	return a && Z3_get_bool_value(z, a) == Z3_L_FALSE;
}

static uint32_t id_slot(unsigned id, uint32_t cap)
{
	return (id * 2654435761u) & (cap - 1);
}

bool zc_idset_has(const zc_idset *s, unsigned id)
{
	if (!s->cap)
		return false;
	for (uint32_t k = id_slot(id, s->cap); s->slot[k] != UINT_MAX;
	     k = (k + 1) & (s->cap - 1))
		if (s->slot[k] == id)
			return true;
	return false;
}

static bool idset_grow(zc_idset *s)
{
	uint32_t ncap = s->cap ? s->cap * 2 : 64;
	unsigned *n = malloc((size_t)ncap * sizeof *n);
	if (!n)
		return false;
	memset(n, 0xff, (size_t)ncap * sizeof *n);
	for (uint32_t i = 0; i < s->cap; i++) {
		if (s->slot[i] == UINT_MAX)
			continue;
		uint32_t k = id_slot(s->slot[i], ncap);
		while (n[k] != UINT_MAX)
			k = (k + 1) & (ncap - 1);
		n[k] = s->slot[i];
	}
	free(s->slot);
	s->slot = n;
	s->cap = ncap;
	return true;
}

bool zc_idset_add(zc_idset *s, unsigned id, bool *added)
{
	*added = false;
	if ((s->n + 1) * 2 > s->cap && !idset_grow(s))
		return false;
	uint32_t k = id_slot(id, s->cap);
	while (s->slot[k] != UINT_MAX) {
		if (s->slot[k] == id)
			return true;
		k = (k + 1) & (s->cap - 1);
	}
	s->slot[k] = id;
	s->n++;
	*added = true;
	return true;
}

void zc_idset_clear(zc_idset *s)
{
	if (s->slot)
		memset(s->slot, 0xff, (size_t)s->cap * sizeof *s->slot);
	s->n = 0;
}

void zc_idset_free(zc_idset *s)
{
	free(s->slot);
	s->slot = NULL;
	s->n = s->cap = 0;
}
