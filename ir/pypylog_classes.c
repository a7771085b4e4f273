/*
 * pypylog_classes.c - the classes of the objects a PyPy trace allocates
 * (docs/pypy.md, "Classes of allocations"): PyPy prints
 * new_with_vtable(descr=<SizeDescr 16>) without the vtable and some
 * classes as their vtable's address; this names them from the field
 * descrs the traces use and from the recorded run's guard_class ops.
 * Sections: one trace's allocations; classes printed as addresses.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pypylog_int.h"

/* ---- classes of allocations ---------------------------------------------- */

/* PyPy prints new_with_vtable(descr=<SizeDescr 16>): the vtable is in the
 * descr but not in the log, and many classes share a size.  The class is
 * read from the field descrs the trace writes into the object
 * ("<FieldS pypy.objspace.std.intobject.W_IntObject.inst_intval 8 pure>"
 * names W_IntObject, the class that declares the field): when every
 * setfield_gc on the allocation's result names one class, the allocation
 * takes that class name as its descr, which is how the checker and the
 * interpreter know a fresh object's class.  An assumption (docs/pypy.md):
 * an object that belongs to a subclass and is written only through fields
 * its superclass declares gets the superclass. */

/* The declaring class of field descr D ("<FieldS a.b.C.inst_x 8 ...>"):
 * "C" into OUT, or false. */
static bool field_class(const char *d, char *out, size_t n)
{
	if (strncmp(d, "<Field", 6) != 0)
		return false;
	const char *sp = strchr(d, ' ');
	if (!sp)
		return false;
	const char *name = sp + 1;
	const char *end = strchr(name, ' ');
	if (!end)
		return false;
	const char *last = NULL, *prev = NULL;
	for (const char *q = name; q < end; q++)
		if (*q == '.') {
			prev = last;
			last = q;
		}
	if (!last)
		return false;
	const char *c = prev ? prev + 1 : name;
	size_t len = (size_t)(last - c);
	if (len == 0 || len >= n)
		return false;
	memcpy(out, c, len);
	out[len] = 0;
	return true;
}

/* The class the guard_class ops of T on V name, when they name one
 * (guard_class(p, 140331732288856) or guard_class(p, W_IntObject));
 * NULL otherwise. */
static const char *guarded_class(const ir_trace *t, ir_vid v)
{
	const char *cls = NULL;
	for (uint32_t j = 0; j < t->nops; j++) {
		const ir_op *g = &t->ops[j];
		if (g->opc != IR_GUARD_CLASS || g->nargs != 2 ||
		    g->args[0] != v ||
		    ir_val(t, g->args[1])->tag != IR_VAL_CONST_CLASS)
			continue;
		const char *c = ir_valname(t, g->args[1]);
		if (cls && strcmp(cls, c))
			return NULL;
		cls = c;
	}
	return cls;
}

void pl_name_classes(ir_trace *t, bool recorded)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		ir_op *op = &t->ops[i];
		if (op->opc != IR_NEW_WITH_VTABLE || !op->descr ||
		    strncmp(ir_strtext(t, op->descr), "<SizeDescr", 10) != 0)
			continue;
		/* A recorded trace's guard_class on the object passed on the
		 * run: the allocation makes objects of that class, exactly
		 * (new_with_vtable's descr holds the vtable). */
		const char *g = recorded ? guarded_class(t, op->result) : NULL;
		if (g) {
			uint32_t d = ir_cstr(t, g);
			if (d != UINT32_MAX)
				op->descr = d;
			continue;
		}
		char cls[128] = "", c[128];
		bool ok = true;
		for (uint32_t j = i + 1; ok && j < t->nops; j++) {
			const ir_op *w = &t->ops[j];
			if (w->opc != IR_SETFIELD_GC ||
			    w->args[0] != op->result)
				continue;
			ok =
			    w->descr &&
			    field_class(ir_strtext(t, w->descr), c, sizeof c) &&
			    (!cls[0] || !strcmp(cls, c));
			if (ok)
				snprintf(cls, sizeof cls, "%s", c);
		}
		if (ok && cls[0])
			t->ops[i].descr = ir_cstr(t, cls);
	}
}

/* PyPy prints a class it has no name for as its vtable's address
 * (guard_class(p, 140331732288856)), so a guard on an object the trace
 * made (named by pl_name_classes) never matches it.  Across a whole log,
 * the objects guarded to have class N are read and written through the
 * fields of some classes: when those fields all name one class C, C
 * names some allocation of the log and no ConstClass(C) is printed (a
 * class with a name prints by it), ConstClass(N) is renamed C.  The same
 * assumption as the one above (docs/pypy.md, "Classes of allocations"),
 * with the same exception: an object of a subclass used only through
 * fields its superclass declares would give the subclass's address the
 * superclass's name. */

typedef struct numcls {
	const char *num; /* a vtable address as printed */
	char cls[128];	 /* the one class its objects' fields name, or "" */
	bool conflict;	 /* fields of two classes, or one class, two numbers */
} numcls;

typedef struct clsmap {
	numcls *v;
	uint32_t n, cap;
	bool oom;
} clsmap;

static numcls *numcls_of(clsmap *m, const char *num)
{
	for (uint32_t i = 0; i < m->n; i++)
		if (!strcmp(m->v[i].num, num))
			return &m->v[i];
	if (m->n == m->cap) {
		uint32_t cap = m->cap ? 2 * m->cap : 16;
		numcls *v = realloc(m->v, cap * sizeof *v);
		if (!v) {
			m->oom = true;
			return NULL;
		}
		m->v = v;
		m->cap = cap;
	}
	m->v[m->n] = (numcls){.num = num};
	return &m->v[m->n++];
}

/* Adds the classes of the fields T accesses on V to E. */
static void fields_used(const ir_trace *t, ir_vid v, numcls *e)
{
	char c[128];
	for (uint32_t i = 0; i < t->nops && !e->conflict; i++) {
		const ir_op *op = &t->ops[i];
		bool acc = op->opc == IR_GETFIELD_GC_I ||
			   op->opc == IR_GETFIELD_GC_R ||
			   op->opc == IR_SETFIELD_GC;
		if (!acc || op->nargs == 0 || op->args[0] != v || !op->descr ||
		    !field_class(ir_strtext(t, op->descr), c, sizeof c))
			continue;
		if (!e->cls[0])
			snprintf(e->cls, sizeof e->cls, "%s", c);
		else if (strcmp(e->cls, c))
			e->conflict = true;
	}
}

static void collect_numeric(clsmap *m, const ir_trace *t)
{
	for (uint32_t i = 0; i < t->nops && !m->oom; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc != IR_GUARD_CLASS || op->nargs != 2)
			continue;
		const ir_value *x = ir_val(t, op->args[1]);
		if (x->tag != IR_VAL_CONST_CLASS ||
		    !ir_is_decimal(ir_strtext(t, x->name)))
			continue;
		numcls *e = numcls_of(m, ir_strtext(t, x->name));
		if (e)
			fields_used(t, op->args[0], e);
	}
}

/* Whether some trace of TR names an allocation CLS (a descr) or prints
 * ConstClass(CLS): *ALLOC, *PRINTED. */
static void class_seen(ir_trace *const *tr, uint32_t n, const char *cls,
		       bool *alloc, bool *printed)
{
	*alloc = *printed = false;
	for (uint32_t k = 0; k < n; k++) {
		const ir_trace *t = tr[k];
		for (uint32_t i = 0; t && i < t->nops; i++) {
			const ir_op *op = &t->ops[i];
			if (op->opc == IR_NEW_WITH_VTABLE && op->descr &&
			    !strcmp(ir_strtext(t, op->descr), cls))
				*alloc = true;
		}
		for (ir_vid v = 0; t && v < t->nvals; v++)
			if (t->vals[v].tag == IR_VAL_CONST_CLASS &&
			    !strcmp(ir_strtext(t, t->vals[v].name), cls))
				*printed = true;
	}
}

static void rename_class(ir_trace *const *tr, uint32_t n, const char *num,
			 const char *cls)
{
	for (uint32_t k = 0; k < n; k++) {
		ir_trace *t = tr[k];
		/* an allocation a recorded guard named by the number */
		for (uint32_t i = 0; t && i < t->nops; i++) {
			ir_op *op = &t->ops[i];
			uint32_t c = 0;
			if (op->opc == IR_NEW_WITH_VTABLE && op->descr &&
			    !strcmp(ir_strtext(t, op->descr), num))
				c = ir_cstr(t, cls);
			if (c && c != UINT32_MAX)
				op->descr = c;
		}
		for (ir_vid v = 0; t && v < t->nvals; v++)
			if (t->vals[v].tag == IR_VAL_CONST_CLASS &&
			    !strcmp(ir_strtext(t, t->vals[v].name), num)) {
				uint32_t c = ir_cstr(t, cls);
				if (c !=
				    UINT32_MAX) /* else it keeps its number */
					t->vals[v].name = c;
			}
	}
}

void pl_name_numeric_classes(ir_trace *const *tr, uint32_t n)
{
	clsmap m = {0};
	for (uint32_t k = 0; k < n && !m.oom; k++)
		if (tr[k])
			collect_numeric(&m, tr[k]);
	for (uint32_t i = 0; i < m.n && !m.oom; i++) /* one number a class */
		for (uint32_t j = 0; j < m.n; j++)
			if (j != i && m.v[i].cls[0] &&
			    !strcmp(m.v[i].cls, m.v[j].cls))
				m.v[i].conflict = true;
	for (uint32_t i = 0; i < m.n && !m.oom; i++) {
		bool alloc, printed;
		if (m.v[i].conflict || !m.v[i].cls[0])
			continue;
		class_seen(tr, n, m.v[i].cls, &alloc, &printed);
		if (alloc && !printed)
			rename_class(tr, n, m.v[i].num, m.v[i].cls);
	}
	free(m.v);
}
