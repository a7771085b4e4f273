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
 * "C" into OUT and the offset (8) into *OFF, or false. */
static bool field_class(const char *d, char *out, size_t n, long *off)
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
	char *after;
	*off = strtol(end + 1, &after, 10);
	if (after == end + 1 || *off < 0)
		return false;
	memcpy(out, c, len);
	out[len] = 0;
	return true;
}

/* ---- lines of classes ----------------------------------------------------
 *
 * An object is often written through the fields of two classes: a range
 * iterator through W_IntRangeIterator's current and step and
 * W_IntRangeOneArgIterator's stop, a user exception through
 * W_BaseException's args_w and W_BaseExceptionUserWeakrefable's map.
 * Each field's class is the object's class or one of its ancestors, and
 * RPython lays an instance out as its superclass's struct followed by the
 * fields its own class declares (rpython/rtyper/lltypesystem/rclass.py:
 * the 'super' field comes first), so a class's fields sit at offsets above
 * all of its ancestors'.  When the classes' offset ranges follow one
 * another without overlapping, they are one line of descent, and the one
 * whose fields sit highest is the deepest: the object's class, by the
 * same assumption as for one class.  Overlapping ranges are no such line,
 * and nothing is concluded. */

enum { CHAIN_MAX = 4 }; /* classes in one line; more: nothing concluded */

typedef struct cls_span {
	char name[128];
	long lo, hi; /* the lowest and highest offset of its fields seen */
} cls_span;

typedef struct cls_chain {
	cls_span c[CHAIN_MAX];
	unsigned n;
	bool bad; /* a descr that names no class, or too many classes */
} cls_chain;

/* Adds a field of class C at offset OFF to CH. */
static void chain_add_field(cls_chain *ch, const char *c, long off)
{
	for (unsigned i = 0; i < ch->n; i++)
		if (!strcmp(ch->c[i].name, c)) {
			if (off < ch->c[i].lo)
				ch->c[i].lo = off;
			if (off > ch->c[i].hi)
				ch->c[i].hi = off;
			return;
		}
	if (ch->n == CHAIN_MAX) {
		ch->bad = true;
		return;
	}
	cls_span *sp = &ch->c[ch->n++];
	snprintf(sp->name, sizeof sp->name, "%s", c);
	sp->lo = sp->hi = off;
}

/* Adds the field of DESCR to CH; a descr that names no field's class
 * (or none) makes CH bad. */
static void chain_add(cls_chain *ch, const char *descr)
{
	char c[128];
	long off;
	if (!descr || !field_class(descr, c, sizeof c, &off))
		ch->bad = true;
	else
		chain_add_field(ch, c, off);
}

/* The index in CH of the deepest class, when CH names some class and the
 * classes above it sit below it, one after another; else -1. */
static int chain_deepest_at(const cls_chain *ch)
{
	if (ch->bad || ch->n == 0)
		return -1;
	/* Each class's range must lie wholly above or below each other's;
	 * then the one with the highest range is the deepest. */
	unsigned deep = 0;
	for (unsigned i = 0; i < ch->n; i++) {
		for (unsigned j = i + 1; j < ch->n; j++)
			if (!(ch->c[i].hi < ch->c[j].lo ||
			      ch->c[j].hi < ch->c[i].lo))
				return -1;
		if (ch->c[i].lo > ch->c[deep].lo)
			deep = i;
	}
	return (int)deep;
}

/* The name of the deepest class of CH (chain_deepest_at), or NULL; it
 * lives in CH. */
static const char *chain_deepest(const cls_chain *ch)
{
	int k = chain_deepest_at(ch);
	return k < 0 ? NULL : ch->c[k].name;
}

static bool chain_has(const cls_chain *ch, const char *cls)
{
	for (unsigned i = 0; i < ch->n; i++)
		if (!strcmp(ch->c[i].name, cls))
			return true;
	return false;
}

/* The line of classes the setfield_gc ops after op I of T write the
 * result of op I through. */
static void alloc_chain(const ir_trace *t, uint32_t i, cls_chain *ch)
{
	ir_vid v = t->ops[i].result;
	*ch = (cls_chain){.n = 0};
	for (uint32_t j = i + 1; j < t->nops && !ch->bad; j++) {
		const ir_op *w = &t->ops[j];
		if (w->opc == IR_SETFIELD_GC && w->args[0] == v)
			chain_add(ch,
				  w->descr ? ir_strtext(t, w->descr) : NULL);
	}
}

/* Whether op I of T is new_with_vtable(descr=<SizeDescr N>). */
static bool unnamed_alloc(const ir_trace *t, uint32_t i)
{
	const ir_op *op = &t->ops[i];
	return op->opc == IR_NEW_WITH_VTABLE && op->descr &&
	       strncmp(ir_strtext(t, op->descr), "<SizeDescr", 10) == 0;
}

/* A size is left alone when one of its allocations is written through a
 * line of classes and another through fewer of them, named by a class
 * above the first's deepest: the second may be an object of the deeper
 * class whose zero fields PyPy's optimizer did not write (a fresh object
 * is zeroed), so one class in one trace and another in the other would
 * make a difference the runs do not have. */
typedef struct size_seen {
	const char *size;
	cls_chain ch;
	unsigned deep; /* the deepest class: its index in ch.c (not a
			  pointer: the entry is copied and moved) */
} size_seen;

static const char *deep_of(const size_seen *e)
{
	return e->ch.c[e->deep].name;
}

static bool contested(const size_seen *v, uint32_t n, const char *size)
{
	for (uint32_t a = 0; a < n; a++) {
		if (strcmp(v[a].size, size) || v[a].ch.n < 2)
			continue;
		for (uint32_t b = 0; b < n; b++)
			if (!strcmp(v[b].size, size) &&
			    strcmp(deep_of(&v[b]), deep_of(&v[a])) &&
			    chain_has(&v[a].ch, deep_of(&v[b])))
				return true;
	}
	return false;
}

static jp_status add_contested(pl_sizes *out, const char *size)
{
	for (uint32_t i = 0; i < out->n; i++)
		if (!strcmp(out->v[i], size))
			return JP_OK;
	char **v = realloc(out->v, (out->n + 1) * sizeof *v);
	if (!v)
		return JP_ENOMEM;
	out->v = v;
	if (!(v[out->n] = strdup(size)))
		return JP_ENOMEM;
	out->n++;
	return JP_OK;
}

jp_status pl_contested_sizes(ir_trace *const *tr, uint32_t n, pl_sizes *out)
{
	*out = (pl_sizes){NULL, 0};
	size_seen *v = NULL;
	uint32_t nv = 0, cap = 0;
	jp_status st = JP_OK;
	for (uint32_t k = 0; k < n && !st; k++)
		for (uint32_t i = 0; tr[k] && i < tr[k]->nops && !st; i++) {
			if (!unnamed_alloc(tr[k], i))
				continue;
			size_seen e = {
			    .size = ir_strtext(tr[k], tr[k]->ops[i].descr)};
			alloc_chain(tr[k], i, &e.ch);
			int deep = chain_deepest_at(&e.ch);
			if (deep < 0)
				continue;
			e.deep = (unsigned)deep;
			if (nv == cap) {
				cap = cap ? 2 * cap : 64;
				size_seen *w = realloc(v, cap * sizeof *w);
				if (!w) {
					st = JP_ENOMEM;
					break;
				}
				v = w;
			}
			v[nv++] = e;
		}
	for (uint32_t a = 0; a < nv && !st; a++)
		if (contested(v, nv, v[a].size))
			st = add_contested(out, v[a].size);
	free(v);
	return st;
}

void pl_sizes_free(pl_sizes *s)
{
	for (uint32_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	*s = (pl_sizes){NULL, 0};
}

static bool sizes_has(const pl_sizes *s, const char *size)
{
	for (uint32_t i = 0; s && i < s->n; i++)
		if (!strcmp(s->v[i], size))
			return true;
	return false;
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

void pl_name_classes(ir_trace *t, bool recorded, const pl_sizes *contested)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		ir_op *op = &t->ops[i];
		if (!unnamed_alloc(t, i))
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
		cls_chain ch;
		alloc_chain(t, i, &ch);
		const char *cls = chain_deepest(&ch);
		if (cls && (ch.n == 1 ||
			    !sizes_has(contested, ir_strtext(t, op->descr))))
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
	cls_chain ch;	 /* the classes of its objects' fields */
	char cls[128];	 /* the deepest of them (chain_deepest), or "" */
	bool conflict;	 /* no line of classes, or one class, two numbers */
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

/* Adds the classes of the fields T accesses on V to E (descrs that name
 * no class are passed over). */
static void fields_used(const ir_trace *t, ir_vid v, numcls *e)
{
	char c[128];
	long off;
	for (uint32_t i = 0; i < t->nops && !e->ch.bad; i++) {
		const ir_op *op = &t->ops[i];
		bool acc = op->opc == IR_GETFIELD_GC_I ||
			   op->opc == IR_GETFIELD_GC_R ||
			   op->opc == IR_SETFIELD_GC;
		if (acc && op->nargs > 0 && op->args[0] == v && op->descr &&
		    field_class(ir_strtext(t, op->descr), c, sizeof c, &off))
			chain_add_field(&e->ch, c, off);
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
	for (uint32_t i = 0; i < m.n && !m.oom; i++) {
		const char *d = chain_deepest(&m.v[i].ch);
		if (d)
			snprintf(m.v[i].cls, sizeof m.v[i].cls, "%s", d);
		else if (m.v[i].ch.n)
			m.v[i].conflict = true;
	}
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
