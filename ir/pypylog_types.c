/*
 * pypylog_types.c - telling RPython's list types apart in a log pair
 * (docs/pypy.md, "List types").
 *
 * PyPy prints the fields of every low-level list the same way,
 * "<FieldS list.length 8>" and "<FieldP list.items 16>", whatever the
 * item type: the struct of a list of integers and that of a list of chars
 * are both named "list".  They are different GC types all the same, with
 * descrs of their own, so PyPy's heap cache keeps the length of a list of
 * integers across a call whose EffectInfo writes only lists of chars.
 * Under one field name the model cannot say so: a call that may write
 * one list's length writes them all.
 *
 * A list's type shows in its items array: the descr of the item accesses
 * ("<ArrayS 8>", "<ArrayU 1>", ...), in either trace for an object the
 * two share (an input, a ConstPtr).  When every object a pair's two
 * traces access through a list field has such a type, and no object has
 * two, each list field is renamed for its object's type:
 * "<FieldS list.length 8>" of a list of "<ArrayU 1>" items becomes
 * "<FieldS list:ArrayU1.length 8>".  Objects of different types are
 * different objects, so the renaming only separates cells that are never
 * one; the same object keeps one name in both traces.  When some object
 * has no type (the trace only takes the length of a list), nothing is
 * renamed: a list's field under two names would be two cells of one
 * object.  Sections: types of values; renaming.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pypylog_int.h"

/* ---- types of values ---------------------------------------------------- */

/* Whether descr D is a list field as PyPy prints it, "<FieldX list.F N>"
 * (or, with TYPED, one renamed here, "<FieldX list:T.F N>"); *FIELD set
 * to the text from "list" on. */
static bool list_field(const char *d, const char **field, bool typed)
{
	if (strncmp(d, "<Field", 6) != 0 || !d[6] || d[7] != ' ' ||
	    strncmp(d + 8, "list", 4) != 0 ||
	    (d[12] != '.' && (!typed || d[12] != ':')))
		return false;
	*field = d + 8;
	return true;
}

/* The array descr that op OP of T uses V as the array of, or NULL: an
 * item access, an array length ("D.length"), or an allocation of V with
 * descr D. */
static const char *array_use(const ir_trace *t, const ir_op *op, ir_vid v)
{
	if (!op->descr)
		return NULL;
	const char *d = ir_strtext(t, op->descr);
	switch ((int)op->opc) {
	case IR_GETARRAYITEM_GC_I:
	case IR_GETARRAYITEM_GC_R:
	case IR_SETARRAYITEM_GC:
		return op->nargs >= 1 && op->args[0] == v ? d : NULL;
	case IR_GETFIELD_GC_I:
		return op->nargs == 1 && op->args[0] == v &&
			       !strncmp(d, "<Array", 6) && ir_descr_is_length(d)
			   ? d
			   : NULL;
	case IR_NEW:
		return op->result == v && !strncmp(d, "<Array", 6) ? d : NULL;
	default: return NULL;
	}
}

/* The length of the array descr at the start of D ("<ArrayS 8>" of
 * "<ArrayS 8>.length"). */
static size_t array_len(const char *d)
{
	const char *e = strchr(d, '>');
	return e ? (size_t)(e - d + 1) : 0;
}

/* The type of the items array A of T: the array descr its uses name, ""
 * when none does, NULL when two disagree. */
static const char *items_type(const ir_trace *t, ir_vid a, size_t *len)
{
	const char *ty = "";
	*len = 0;
	for (uint32_t i = 0; i < t->nops; i++) {
		const char *d = array_use(t, &t->ops[i], a);
		if (!d)
			continue;
		size_t n = array_len(d);
		if (!n)
			return NULL;
		if (*len && (n != *len || strncmp(d, ty, n)))
			return NULL;
		ty = d;
		*len = n;
	}
	return ty;
}

typedef struct ltypes {
	const char **ty; /* per vid: its list type (an array descr), or NULL */
	size_t *len;
} ltypes;

/* Sets the type of list V to TY (LEN chars); false when V already has
 * another. */
static bool set_type(ltypes *L, ir_vid v, const char *ty, size_t len)
{
	if (!len)
		return true;
	if (L->ty[v] && (L->len[v] != len || strncmp(L->ty[v], ty, len)))
		return false;
	L->ty[v] = ty;
	L->len[v] = len;
	return true;
}

/* The type of every list T accesses through its items field; false when
 * an object has two. */
static bool type_lists(const ir_trace *t, ltypes *L)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		const char *f;
		if (!op->descr ||
		    !list_field(ir_strtext(t, op->descr), &f, true) ||
		    !strstr(f, ".items "))
			continue;
		ir_vid a =
		    op->opc == IR_GETFIELD_GC_R && op->nargs == 1 ? op->result
		    : op->opc == IR_SETFIELD_GC && op->nargs == 2 ? op->args[1]
								  : IR_NOVAL;
		if (a == IR_NOVAL)
			continue;
		size_t n;
		const char *ty = items_type(t, a, &n);
		if (!ty || !set_type(L, op->args[0], ty, n))
			return false;
	}
	return true;
}

/* Value V of T and value W of U are one object in every run of the pair:
 * inputs in the same place (a pair's traces run on the same inputs), or
 * ConstPtrs of the same name. */
static bool one_object(const ir_trace *t, ir_vid v, const ir_trace *u, ir_vid w)
{
	const ir_value *x = ir_val(t, v), *y = ir_val(u, w);
	if (x->tag != y->tag)
		return false;
	if (x->tag == IR_VAL_INPUT)
		return x->def == y->def;
	return x->tag == IR_VAL_CONST_PTR &&
	       !strcmp(ir_strtext(t, x->name), ir_strtext(u, y->name));
}

/* Gives the objects the two traces share the type either trace shows;
 * false when the traces disagree. */
static bool share_types(const ir_trace *t, ltypes *A, const ir_trace *u,
			ltypes *B)
{
	for (ir_vid v = 0; v < t->nvals; v++)
		for (ir_vid w = 0; w < u->nvals; w++) {
			if ((!A->ty[v] && !B->ty[w]) || !one_object(t, v, u, w))
				continue;
			if (!set_type(A, v, B->ty[w] ? B->ty[w] : "",
				      B->len[w]) ||
			    !set_type(B, w, A->ty[v] ? A->ty[v] : "",
				      A->len[v]))
				return false;
		}
	return true;
}

/* ---- renaming ----------------------------------------------------------- */

/* The longest list field descr renamed: a longer one (no PyPy log has
 * one) leaves the pair as it is, so no access keeps its old name while
 * the others get the new one. */
#define MAX_LIST_DESCR 160

/* Whether every list field access of T is through an object with a
 * type, and can be renamed. */
static bool all_typed(const ir_trace *t, const ltypes *L)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		const char *f;
		if (op->descr &&
		    list_field(ir_strtext(t, op->descr), &f, false) &&
		    (op->nargs == 0 || !L->ty[op->args[0]] ||
		     strlen(ir_strtext(t, op->descr)) > MAX_LIST_DESCR))
			return false;
	}
	return true;
}

/* Renames T's list field accesses for their objects' types; false when
 * out of memory. */
static bool rename_fields(ir_trace *t, const ltypes *L)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		ir_op *op = &t->ops[i];
		const char *f;
		if (!op->descr ||
		    !list_field(ir_strtext(t, op->descr), &f, false))
			continue;
		const char *d = ir_strtext(t, op->descr);
		const char *ty = L->ty[op->args[0]];
		char buf[256], tyc[64];
		size_t k = 0;
		/* "<ArrayS 8>" as "ArrayS8": the descr's text has no spaces
		 * inside its field name */
		for (size_t j = 1; j + 1 < L->len[op->args[0]] && k < 63; j++)
			if (ty[j] != ' ')
				tyc[k++] = ty[j];
		tyc[k] = 0;
		int n = snprintf(buf, sizeof buf, "%.*slist:%s%s", (int)(f - d),
				 d, tyc, f + 4);
		if (n < 0 || (size_t)n >= sizeof buf)
			return false; /* cannot happen: all_typed bounds D */
		uint32_t s = ir_str(t, buf, (uint32_t)n);
		if (s == UINT32_MAX)
			return false;
		op->descr = s;
	}
	return true;
}

static bool alloc_types(const ir_trace *t, ltypes *L)
{
	L->ty = calloc(t->nvals + 1, sizeof *L->ty);
	L->len = calloc(t->nvals + 1, sizeof *L->len);
	return L->ty && L->len;
}

static void free_types(ltypes *L)
{
	free(L->ty);
	free(L->len);
}

bool pl_list_types(pl_pair *p)
{
	if (!p->orig || !p->opt)
		return true;
	ltypes a = {NULL, NULL}, b = {NULL, NULL};
	bool ok = alloc_types(p->orig, &a) && alloc_types(p->opt, &b);
	if (ok && type_lists(p->orig, &a) && type_lists(p->opt, &b) &&
	    share_types(p->orig, &a, p->opt, &b) && all_typed(p->orig, &a) &&
	    all_typed(p->opt, &b))
		ok = rename_fields(p->orig, &a) && rename_fields(p->opt, &b);
	free_types(&a);
	free_types(&b);
	return ok;
}
