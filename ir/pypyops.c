/* pypyops.c - the table of ir/pypyops.def and its lookup, and what
 * PyPy's descrs state about calls and fields (docs/pypy.md). */
#include "pypyops.h"

#include <string.h>

#include "ops.h"
#include "trace.h"

static const ir_pyop table[] = {
#define PY(name, act, target, kind) {name, IR_PY_##act, IR_##target, kind},
#include "pypyops.def"
#undef PY
};

const ir_pyop *ir_pyop_find(const char *name, size_t len)
{
	/* A linear scan: the table is small and is only consulted for ops
	 * ops.def does not name. */
	for (size_t i = 0; i < sizeof table / sizeof *table; i++)
		if (strlen(table[i].name) == len &&
		    memcmp(table[i].name, name, len) == 0)
			return &table[i];
	return NULL;
}

size_t ir_pyop_count(void)
{
	return sizeof table / sizeof *table;
}

const ir_pyop *ir_pyop_at(size_t i)
{
	return i < ir_pyop_count() ? &table[i] : NULL;
}

/* ---- what the descrs guarantee (docs/pypy.md) ---------------------------- */

/* The decimal number right after KEY in DESCR (its digits read while the
 * value is below CAP), or -1 when KEY is not followed by a digit. */
static int number_after(const char *descr, const char *key, int cap)
{
	const char *s = descr ? strstr(descr, key) : NULL;
	size_t k = strlen(key);
	if (!s || s[k] < '0' || s[k] > '9')
		return -1;
	int n = 0;
	for (s += k; *s >= '0' && *s <= '9' && n < cap; s++)
		n = n * 10 + (*s - '0');
	return n;
}

int ir_py_extraeffect(const char *descr)
{
	return number_after(descr, "EF=", 1000);
}

bool ir_py_elidable(const char *descr)
{
	int ef = descr ? ir_py_extraeffect(descr) : -1;
	return ef == 0 || ef == 3 || ef == 4;
}

int ir_py_oopspec(const char *descr)
{
	if (!descr || strncmp(descr, "<Call", 5))
		return -1;
	return number_after(descr, " OS=", 100000);
}

bool ir_py_field_immutable(const char *descr)
{
	if (!descr || strncmp(descr, "<Field", 6) != 0)
		return false;
	size_t n = strlen(descr);
	return n > 6 && !strcmp(descr + n - 6, " pure>");
}

bool ir_py_items_immutable(const char *name)
{
	static const char *const strs[] = {"<str>", "<unicode>"};
	for (int i = 0; name && i < 2; i++) {
		size_t n = strlen(strs[i]);
		if (!strncmp(name, strs[i], n) &&
		    (name[n] == '\0' || name[n] == '['))
			return true;
	}
	return false;
}

unsigned ir_py_item_bits(const char *descr, bool *is_signed)
{
	*is_signed = false;
	if (!descr)
		return 0;
	if (!strcmp(descr, "<str>"))
		return 8;
	if (strncmp(descr, "<Array", 6) != 0 ||
	    (descr[6] != 'U' && descr[6] != 'S') || descr[7] != ' ' ||
	    !descr[8] || descr[9] != '>' || descr[10])
		return 0;
	unsigned size = (unsigned)(descr[8] - '0');
	if (size != 1 && size != 2 && size != 4)
		return 0;
	*is_signed = descr[6] == 'S';
	return 8 * size;
}

/* The name of a field descr "<FieldP a.b.C.inst_x 16>": a.b.C.inst_x
 * (*LEN set), or NULL for any other descr. */
static const char *field_name(const char *descr, size_t *len)
{
	if (!descr || strncmp(descr, "<Field", 6) != 0)
		return NULL;
	const char *s = strchr(descr, ' ');
	if (!s)
		return NULL;
	s++;
	*len = strcspn(s, " >");
	return *len ? s : NULL;
}

/* Whether the list after KEY in CALL_DESCR has the N-char item NAME. */
static bool names(const char *call_descr, const char *key, const char *name,
		  size_t n)
{
	const char *k = call_descr ? strstr(call_descr, key) : NULL;
	if (!k)
		return false;
	for (k += strlen(key); *k && *k != '>' && *k != ' ';) {
		size_t m = strcspn(k, ",> ");
		if (m == n && !strncmp(k, name, n))
			return true;
		k += m;
		if (*k == ',')
			k++;
	}
	return false;
}

/* Whether the list after KEY (" keeps=", " ignores=") in CALL_DESCR names
 * the field of descr FIELD. */
static bool listed(const char *call_descr, const char *key, const char *field)
{
	size_t n;
	const char *name = field_name(field, &n);
	return name && names(call_descr, key, name, n);
}

bool ir_py_items_token(const char *descr, char *buf, size_t cap)
{
	if (!descr || strncmp(descr, "<Array", 6) != 0)
		return false;
	const char *e = strchr(descr, '>');
	if (!e || (e[1] && e[1] != '['))
		return false; /* "<ArrayS 8>.length" is no item */
	size_t n = 0;
	for (const char *q = descr + 1; q < e && n + 3 < cap; q++)
		if (*q != ' ')
			buf[n++] = *q;
	if (n + 3 >= cap)
		return false;
	memcpy(buf + n, "[]", 3);
	return true;
}

/* Whether the list after KEY (" keeps=", " ignores=") in CALL_DESCR
 * names the items of array descr FIELD (ir_py_items_token). */
static bool items_listed(const char *call_descr, const char *key,
			 const char *field)
{
	char tok[64];
	return ir_py_items_token(field, tok, sizeof tok) &&
	       names(call_descr, key, tok, strlen(tok));
}

bool ir_py_writes_nothing(const char *opname)
{
	/* Guards on the exception or the frame state the previous call
	 * left: they write no object. */
	static const char *const guards[] = {
	    "guard_no_exception", "guard_exception", "guard_not_forced",
	    "guard_not_forced_2", NULL};
	for (int i = 0; opname && guards[i]; i++)
		if (!strcmp(opname, guards[i]))
			return true;
	return false;
}

bool ir_py_forces_vable(const char *call_descr)
{
	return ir_py_oopspec(call_descr) == 121;
}

uint32_t ir_py_clears_vable(const ir_trace *t, const ir_op *op, uint32_t *cond)
{
	if (op->opc != IR_OPAQUE || op->result != IR_NOVAL || !op->descr ||
	    !ir_py_forces_vable(t->strs[op->descr]))
		return UINT32_MAX;
	const char *name = ir_op_name(t, op);
	if (!strcmp(name, "cond_call") && op->nargs == 3) {
		*cond = 0;
		return 2;
	}
	if (!strcmp(name, "call_n") && op->nargs == 2) {
		*cond = UINT32_MAX;
		return 1;
	}
	return UINT32_MAX;
}

bool ir_py_is_vable_token(const char *field)
{
	return strstr(field, ".vable_token ") != NULL;
}

bool ir_py_is_call_event(const ir_trace *t, const ir_op *op)
{
	uint32_t c;
	return ir_op_has((ir_opcode)op->opc, IRF_CALL) &&
	       ir_pycall_of(t, op) == IR_PYCALL_OPAQUE &&
	       ir_py_clears_vable(t, op, &c) == UINT32_MAX;
}

const char *ir_py_not_class(const char *descr, size_t *len)
{
	static const char key[] = "<not-class=";
	size_t n = descr ? strlen(descr) : 0;
	if (n < sizeof key + 1 || strncmp(descr, key, sizeof key - 1) ||
	    descr[n - 1] != '>')
		return NULL;
	*len = n - sizeof key; /* minus the key and the closing '>' */
	return descr + sizeof key - 1;
}

bool ir_py_call_keeps(const char *opname, const char *call_descr,
		      const char *field)
{
	if (ir_py_writes_nothing(opname))
		return true;
	if (ir_py_elidable(call_descr))
		return true; /* it writes nothing: no field, no item */
	if (ir_py_forces_vable(call_descr))
		return !ir_py_is_vable_token(field);
	return listed(call_descr, " keeps=", field) ||
	       items_listed(call_descr, " keeps=", field) ||
	       ir_py_call_ignores(call_descr, field);
}

/* The call event OP of T sees: OP itself, or for a guard on what the
 * previous call left (ir_py_writes_nothing) the last call before it that
 * is no such guard; NULL when there is none. */
static const ir_op *seen_call(const ir_trace *t, const ir_op *op)
{
	for (size_t i = (size_t)(op - t->ops) + 1; i-- > 0;) {
		const ir_op *q = &t->ops[i];
		if (q != op && !ir_op_has((ir_opcode)q->opc, IRF_CALL))
			continue;
		if (!ir_py_writes_nothing(ir_op_name(t, q)))
			return q;
	}
	return NULL;
}

const char *ir_py_seen_descr(const ir_trace *t, const ir_op *op)
{
	const ir_op *q = seen_call(t, op);
	return q && q->descr ? t->strs[q->descr] : NULL;
}

bool ir_py_needs_nonnull(const ir_trace *t, const ir_op *op, uint32_t j)
{
	/* rpython/jit/codewriter/effectinfo.py; the unicode ones are 20
	 * more.  OS_STR_EQUAL, the CHECKNULL ones and OS_STR_CMP accept
	 * NULL. */
	static const int nonnull[] = {22, 23, 26, 27, 28, 29, 31};
	if (op->opc != IR_OPAQUE || !op->descr || j == 0 || j >= op->nargs ||
	    ir_val(t, op->args[j])->kind != 'r' ||
	    ir_val(t, op->args[0])->tag != IR_VAL_CONST_CLASS)
		return false;
	int os = ir_py_oopspec(t->strs[op->descr]);
	for (size_t k = 0; k < sizeof nonnull / sizeof *nonnull; k++)
		if (os == nonnull[k] || os == nonnull[k] + 20)
			return true;
	return false;
}

bool ir_py_returns_string(const ir_trace *t, const ir_op *op)
{
	if (op->opc != IR_OPAQUE || !op->descr || op->kind != 'r' ||
	    op->result == IR_NOVAL || !op->nargs ||
	    ir_val(t, op->args[0])->tag != IR_VAL_CONST_CLASS)
		return false;
	int os = ir_py_oopspec(t->strs[op->descr]);
	return os == 22 || os == 23 || os == 42 || os == 43;
}

bool ir_py_call_ignores(const char *call_descr, const char *field)
{
	/* An elidable call neither reads nor writes a mutable field (its
	 * strings are immutable items, not fields). */
	size_t n;
	if (ir_py_elidable(call_descr) && field_name(field, &n))
		return true;
	return listed(call_descr, " ignores=", field) ||
	       items_listed(call_descr, " ignores=", field);
}

bool ir_py_returns_foreign_ref(const char *name)
{
	return !strcmp(name, "force_token") || !strcmp(name, "virtual_ref");
}

ir_pycond ir_py_cond_of(const ir_trace *t, const ir_op *op)
{
	if (op->opc != IR_OPAQUE || op->nargs < 2)
		return IR_PYCOND_NONE;
	const char *name = ir_op_name(t, op);
	if (!strcmp(name, "cond_call"))
		return IR_PYCOND_CALL;
	if (!strcmp(name, "cond_call_value_i") ||
	    !strcmp(name, "cond_call_value_r"))
		return IR_PYCOND_VALUE;
	return IR_PYCOND_NONE;
}

bool ir_py_cond_calls(ir_pycond c, uint64_t x)
{
	return c == IR_PYCOND_CALL ? x != 0 : x == 0;
}

uint32_t ir_py_noexc_cond(const ir_trace *t, const ir_op *op)
{
	if (op->opc != IR_OPAQUE || op->result != IR_NOVAL ||
	    strcmp(ir_op_name(t, op), "guard_no_exception"))
		return UINT32_MAX;
	const ir_op *q = seen_call(t, op);
	return q && ir_py_cond_of(t, q) != IR_PYCOND_NONE
		   ? (uint32_t)(q - t->ops)
		   : UINT32_MAX;
}

const char *ir_py_call_event(const ir_trace *t, const ir_op *op,
			     uint32_t *first)
{
	switch (ir_py_cond_of(t, op)) {
	case IR_PYCOND_CALL: *first = 1; return "call_n";
	case IR_PYCOND_VALUE:
		*first = 1;
		return op->kind == 'r' ? "call_r" : "call_i";
	case IR_PYCOND_NONE: break;
	}
	*first = 0;
	return ir_op_name(t, op);
}

const char *ir_pycall_fn(const ir_trace *t, const ir_op *op, uint32_t *first)
{
	if (ir_py_cond_of(t, op) == IR_PYCOND_VALUE &&
	    t->vals[op->args[1]].tag == IR_VAL_CONST_CLASS) {
		*first = 2;
		return t->strs[t->vals[op->args[1]].name];
	}
	if (op->nargs && t->vals[op->args[0]].tag == IR_VAL_CONST_CLASS) {
		*first = 1;
		return t->strs[t->vals[op->args[0]].name];
	}
	*first = 0;
	return ir_op_name(t, op);
}

static bool name_in(const char *name, const char *const *names)
{
	for (; *names; names++)
		if (!strcmp(name, *names))
			return true;
	return false;
}

/* The first argument is the function (a ConstClass); the others are
 * integers, and constants when CONSTS. */
static bool int_args(const ir_trace *t, const ir_op *op, bool consts)
{
	if (op->nargs < 1 || t->vals[op->args[0]].tag != IR_VAL_CONST_CLASS)
		return false;
	for (uint32_t j = 1; j < op->nargs; j++) {
		const ir_value *v = &t->vals[op->args[j]];
		if (v->kind != 'i' || (consts && v->tag != IR_VAL_CONST_INT))
			return false;
	}
	return true;
}

/* A string's hash as rstr.py's ll_strhash reads it:
 * cond_call_value_i(s.hash, _ll_strhash..., s).  _ll_strhash computes a
 * hash of the characters and stores it in the cache; it allocates
 * nothing and raises nothing. */
static bool cached_hash(const ir_trace *t, const ir_op *op)
{
	const char *p = "_ll_strhash";
	return ir_py_cond_of(t, op) == IR_PYCOND_VALUE && op->kind == 'i' &&
	       op->nargs >= 3 &&
	       t->vals[op->args[1]].tag == IR_VAL_CONST_CLASS &&
	       !strncmp(t->strs[t->vals[op->args[1]].name], p, strlen(p));
}

/* A guard_no_exception looks at what its call left (seen_call). */
static ir_pycall noexc_guard(const ir_trace *t, const ir_op *op)
{
	const ir_op *q = seen_call(t, op);
	return q && cached_hash(t, q) ? IR_PYCALL_NOEXC : IR_PYCALL_OPAQUE;
}

const char *ir_py_str_copy(const ir_trace *t, const ir_op *op)
{
	if (op->opc != IR_OPAQUE || !op->opname || op->result != IR_NOVAL ||
	    op->nargs != 5)
		return NULL;
	const char *n = t->strs[op->opname];
	const char *d = !strcmp(n, "copystrcontent")	   ? "<str>"
			: !strcmp(n, "copyunicodecontent") ? "<unicode>"
							   : NULL;
	for (uint32_t j = 0; d && j < 5; j++)
		if (t->vals[op->args[j]].kind != (j < 2 ? 'r' : 'i'))
			return NULL;
	return d;
}

ir_pycall ir_pycall_of(const ir_trace *t, const ir_op *op)
{
	static const char *const pure[] = {"call_i", "call_f", "call_pure_i",
					   "call_pure_f", NULL};
	/* The optimizer turns the first call_loopinvariant_r of a loop into
	 * a call_r with the same descr: the descr is what counts. */
	static const char *const loopinv[] = {"call_i",
					      "call_f",
					      "call_r",
					      "call_loopinvariant_i",
					      "call_loopinvariant_f",
					      "call_loopinvariant_r",
					      NULL};
	/* Floating-point ops and casts: IEEE operations on the bit patterns,
	 * deterministic functions of their operands with no effect.  Not
	 * interpreted: a function of the bits is all the model says. */
	static const char *const fp[] = {
	    "float_add",	 "float_sub",	      "float_mul",
	    "float_truediv",	 "float_neg",	      "float_abs",
	    "float_lt",		 "float_le",	      "float_eq",
	    "float_ne",		 "float_gt",	      "float_ge",
	    "cast_float_to_int", "cast_int_to_float", NULL};
	if (op->opc == IR_OPAQUE && op->result == IR_NOVAL &&
	    !strcmp(t->strs[op->opname], "guard_no_exception"))
		return noexc_guard(t, op);
	if (ir_py_str_copy(t, op))
		return IR_PYCALL_STRCOPY;
	if (op->opc != IR_OPAQUE || op->result == IR_NOVAL)
		return IR_PYCALL_OPAQUE;
	if (cached_hash(t, op))
		return IR_PYCALL_CACHED;
	const char *name = t->strs[op->opname];
	if (op->kind == 'i' && name_in(name, fp)) {
		bool ints = true;
		for (uint32_t j = 0; j < op->nargs; j++)
			ints = ints && t->vals[op->args[j]].kind == 'i' &&
			       t->vals[op->args[j]].tag != IR_VAL_CONST_CLASS;
		if (ints)
			return IR_PYCALL_PURE;
	}
	if (!strcmp(name, "force_token") && op->nargs == 0 && op->kind == 'r')
		return IR_PYCALL_FRAME;
	int ef = ir_py_extraeffect(t->strs[op->descr]);
	/* EF_ELIDABLE_CANNOT_RAISE = 0 (rpython/jit/codewriter/
	 * effectinfo.py): no exception, so no guard_no_exception to tie to
	 * it.  The elidable ones that can raise (3, 4) stay opaque. */
	if (ef == 0 && op->kind == 'i' && name_in(name, pure) &&
	    int_args(t, op, false))
		return IR_PYCALL_PURE;
	/* EF_LOOPINVARIANT = 1. */
	if (ef == 1 && name_in(name, loopinv) && int_args(t, op, true))
		return IR_PYCALL_LOOPINV;
	return IR_PYCALL_OPAQUE;
}
