/*
 * parse_build.c - the parser's second step: the syntax records turned
 * into IR.  It needs the whole file for the toy spelling (there, whether a
 * value is a reference is only known from its uses), and reads PyPy's op
 * vocabulary beyond ops.def through ir/pypyops.h (parse_int.h).
 */
#include "parse_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pypyops.h"
#include "sem.h"
#include "validate.h"

static jp_status err_at(builder *b, int line, int col, const char *fmt,
			const char *a, uint32_t alen)
{
	char msg[512];
	snprintf(msg, sizeof msg, fmt, (int)alen, a);
	return jp_fail_at(b->ps->err, JP_EINPUT, b->ps->file, line, col, "%s",
			  msg);
}

static jp_status oom(builder *b)
{
	return jp_fail(b->ps->err, JP_ENOMEM, "out of memory");
}

static bool name_grow(namemap *m, uint32_t id)
{
	if (id < m->cap)
		return true;
	uint32_t cap = m->cap ? m->cap : 64;
	while (cap <= id)
		cap *= 2;
	uint32_t *s = realloc(m->slots, (size_t)cap * sizeof *s);
	if (!s)
		return false;
	memset(s + m->cap, 0, (size_t)(cap - m->cap) * sizeof *s);
	m->slots = s;
	m->cap = cap;
	return true;
}

static ir_vid lookup(builder *b, const char *s, uint32_t len)
{
	uint32_t id = ir_str(b->t, s, len);
	if (id == UINT32_MAX || id >= b->names.cap || !b->names.slots[id])
		return IR_NOVAL;
	return b->names.slots[id] - 1;
}

static jp_status define(builder *b, const char *s, uint32_t len, ir_vid v,
			int line, int col)
{
	uint32_t id = ir_str(b->t, s, len);
	if (id == UINT32_MAX || !name_grow(&b->names, id))
		return oom(b);
	if (b->names.slots[id])
		return err_at(b, line, col,
			      "'%.*s' is defined twice (SSA names are defined "
			      "once)",
			      s, len);
	b->names.slots[id] = v + 1;
	return JP_OK;
}

/* The op a toy word reads as (the toy column of ir/ops.def, plus "print",
 * an escape that prints back as print), or -1. */
static int toy_op(const char *s, uint32_t len)
{
	if (word_is(s, len, "print"))
		return IR_ESCAPE_N;
	return ir_opcode_by_toy(s, len);
}

/* The toy words of the heap and getarg: the ones that take no descr=
 * (toy arithmetic is PyPy's arithmetic under another name). */
static bool is_toy_op(const char *s, uint32_t len)
{
	int o = toy_op(s, len);
	return word_is(s, len, "getarg") ||
	       (o >= 0 && ir_op_has((ir_opcode)o, IRF_HEAP));
}

static bool note_ref_name(builder *b, const syn_arg *a)
{
	if (a->tag != A_NAME)
		return true;
	uint32_t id = ir_str(b->t, a->text, a->len);
	if (id == UINT32_MAX)
		return false;
	if (b->nrefnames == b->caprefnames) {
		uint32_t cap = b->caprefnames ? b->caprefnames * 2 : 16;
		uint32_t *n = realloc(b->refnames, (size_t)cap * sizeof *n);
		if (!n)
			return false;
		b->refnames = n;
		b->caprefnames = cap;
	}
	b->refnames[b->nrefnames++] = id;
	return true;
}

static bool toy_is_ref(builder *b, const char *s, uint32_t len)
{
	uint32_t id = ir_str(b->t, s, len);
	for (uint32_t i = 0; i < b->nrefnames; i++)
		if (b->refnames[i] == id)
			return true;
	return false;
}

/* Toy spelling: a name is a reference when it is used as the object of a
 * load or store, or stored into a field whose loads are used as objects.
 * One pass over the statements is enough for the first rule; the second
 * is approximated by treating any value stored by a store whose value
 * is a known reference as a reference (alloc results are references). */
static jp_status toy_collect(builder *b)
{
	parser *ps = b->ps;
	for (uint32_t i = 0; i < ps->nstmts; i++) {
		syn_stmt *st = &ps->stmts[i];
		if (!st->op)
			continue;
		int o = toy_op(st->op, st->oplen);
		bool obj = o == IR_GETFIELD_GC_I || o == IR_SETFIELD_GC;
		if (obj && st->nargs > 0 && !note_ref_name(b, &st->args[0]))
			return oom(b);
		if (o == IR_NEW && st->res) {
			syn_arg a = {
			    .tag = A_NAME, .text = st->res, .len = st->reslen};
			if (!note_ref_name(b, &a))
				return oom(b);
		}
	}
	return JP_OK;
}

static jp_status resolve_arg(builder *b, const syn_stmt *st, const syn_arg *a,
			     char want, ir_vid *out)
{
	ir_trace *t = b->t;
	switch (a->tag) {
	case A_NAME:
		*out = lookup(b, a->text, a->len);
		if (*out == IR_NOVAL)
			return err_at(b, st->line, a->col,
				      "'%.*s' is used before it is defined",
				      a->text, a->len);
		return JP_OK;
	case A_INT:
		if (want == 'c' && (a->text[0] == '-' || a->text[0] == '+'))
			/* A class given as a number is an address; a sign
			 * would not survive printing as ConstClass(...). */
			return err_at(b, st->line, a->col,
				      "expected a class (a name or an "
				      "address), found '%.*s'",
				      a->text, a->len);
		if (want == 'c') {
			char buf[64];
			snprintf(buf, sizeof buf, "%.*s", (int)a->len, a->text);
			*out = ir_const_class(t, buf);
		} else {
			*out = ir_const_int(t, a->ival);
		}
		break;
	case A_NULL: *out = ir_const_null(t); break;
	case A_NONE: *out = IR_NOVAL; return JP_OK;
	case A_PTR:
	case A_CLASS: {
		char *nm = arena_strndup(&b->ps->A, a->text, a->len);
		if (!nm)
			return oom(b);
		*out = a->tag == A_PTR ? ir_const_ptr(t, nm)
				       : ir_const_class(t, nm);
		break;
	}
	case A_RAW:
		return err_at(b, st->line, a->col, "unexpected '%.*s'", a->text,
			      a->len);
	}
	return *out == IR_NOVAL ? oom(b) : JP_OK;
}

static jp_status resolve_args(builder *b, const syn_stmt *st, ir_opcode opc,
			      ir_vid **out)
{
	ir_vid *v = arena_alloc(&b->ps->A, (size_t)(st->nargs + 1) * sizeof *v);
	if (!v)
		return oom(b);
	for (uint32_t i = 0; i < st->nargs; i++) {
		jp_status e = resolve_arg(b, st, &st->args[i],
					  ir_op_argkind(opc, (int)i), &v[i]);
		if (e)
			return e;
	}
	*out = v;
	return JP_OK;
}

static jp_status build_inputs(builder *b, const syn_stmt *st)
{
	if (b->t->ninputs || b->toy)
		return err_at(b, st->line, st->col,
			      "expected one inputs line at the top, found a "
			      "second one%.*s (split logs with several traces)",
			      "", 0);
	for (uint32_t i = 0; i < st->nargs; i++) {
		const syn_arg *a = &st->args[i];
		if (a->tag != A_NAME)
			return err_at(b, st->line, a->col,
				      "expected an input variable name, found "
				      "'%.*s'",
				      a->text, a->len);
		/* A float input (f...) holds its double's bit pattern: an
		 * integer (docs/pypy.md, "Floats"). */
		char kind = a->text[0] == 'p' || a->text[0] == 'r' ? 'r' : 'i';
		char *nm = arena_strndup(&b->ps->A, a->text, a->len);
		if (!nm)
			return oom(b);
		ir_vid v = ir_add_input(b->t, kind, nm);
		if (v == IR_NOVAL)
			return oom(b);
		jp_status e = define(b, a->text, a->len, v, st->line, a->col);
		if (e)
			return e;
	}
	return JP_OK;
}

/* Toy getarg(k): inputs may come in any order but must be 0..n-1. */
static jp_status build_getargs(builder *b)
{
	parser *ps = b->ps;
	uint32_t n = 0;
	for (uint32_t i = 0; i < ps->nstmts; i++) {
		syn_stmt *st = &ps->stmts[i];
		if (st->op && word_is(st->op, st->oplen, "getarg"))
			n++;
	}
	for (uint32_t k = 0; k < n; k++) {
		syn_stmt *found = NULL;
		for (uint32_t i = 0; i < ps->nstmts; i++) {
			syn_stmt *st = &ps->stmts[i];
			if (!st->op || !word_is(st->op, st->oplen, "getarg"))
				continue;
			if (st->nargs != 1 || st->args[0].tag != A_INT ||
			    !st->res)
				return err_at(
				    b, st->line, st->opcol,
				    "expected 'name = getarg(N)' with "
				    "an integer N%.*s",
				    "", 0);
			if (st->args[0].ival == k) {
				if (found)
					return err_at(b, st->line, st->opcol,
						      "getarg(%.*s) appears "
						      "twice",
						      st->args[0].text,
						      st->args[0].len);
				found = st;
			}
		}
		if (!found)
			return jp_fail_at(ps->err, JP_EINPUT, ps->file, 1, 1,
					  "expected getarg(%u), found getargs "
					  "that skip it",
					  k);
		char kind =
		    toy_is_ref(b, found->res, found->reslen) ? 'r' : 'i';
		char *nm = arena_strndup(&ps->A, found->res, found->reslen);
		if (!nm)
			return oom(b);
		ir_vid v = ir_add_input(b->t, kind, nm);
		if (v == IR_NOVAL)
			return oom(b);
		jp_status e = define(b, found->res, found->reslen, v,
				     found->line, found->rescol);
		if (e)
			return e;
	}
	return JP_OK;
}

/* Maps a statement's op name to an opcode and result kind.  Returns
 * JP_EINPUT for unknown ops (unless --opaque). */
static jp_status classify(builder *b, const syn_stmt *st, int *opc, char *kind,
			  uint8_t *flags, uint32_t *descr)
{
	const char *s = st->op;
	uint32_t len = st->oplen;
	*flags = 0;
	*descr = 0;
	int o = ir_opcode_by_name(s, len);
	if (o >= 0) {
		*opc = o;
		*kind = ir_opinfos[o].result;
		return JP_OK;
	}
	int t = b->toy ? toy_op(s, len) : -1;
	if (t >= 0) {
		/* "load" reads a reference when its result is used as one */
		if (t == IR_GETFIELD_GC_I && st->res &&
		    toy_is_ref(b, st->res, st->reslen))
			t = IR_GETFIELD_GC_R;
		*opc = t;
		*kind = ir_opinfos[t].result;
		if (word_is(s, len, "print"))
			*flags = IR_OPF_TOY_PRINT;
		return JP_OK;
	}
	if (!b->ps->opaque)
		return err_at(b, st->line, st->opcol,
			      "unknown operation '%.*s' (use --opaque to read "
			      "PyPy's whole vocabulary and unknown operations "
			      "as opaque calls)",
			      s, len);
	const ir_pyop *py = ir_pyop_find(s, len);
	if (py && py->act == IR_PY_ALIAS) {
		*opc = py->target;
		*kind = ir_opinfos[py->target].result;
		if (!strncmp(py->name, "instance_", 9))
			*flags = IR_OPF_INSTANCE;
		return JP_OK;
	}
	if (py && py->act == IR_PY_SPLIT) {
		*opc = IR_GUARD_CLASS;
		*kind = 'v';
		return JP_OK;
	}
	*opc = IR_OPAQUE;
	/* A float result (_f) is its bit pattern: an integer. */
	if (py)
		*kind = py->kind;
	else if (len > 2 && s[len - 2] == '_' && s[len - 1] == 'r')
		*kind = 'r';
	else if (len > 2 && s[len - 2] == '_' &&
		 (s[len - 1] == 'i' || s[len - 1] == 'f'))
		*kind = 'i';
	else if (st->res)
		*kind = st->res[0] == 'p' || st->res[0] == 'r' ? 'r' : 'i';
	else
		*kind = 'v';
	*descr = ir_str(b->t, s, len);
	return *descr == UINT32_MAX ? oom(b) : JP_OK;
}

/* Toy load/store take the field as a literal second argument. */
static jp_status toy_field(builder *b, syn_stmt *st, uint32_t *descr)
{
	if (st->nargs < 2 || st->args[1].tag != A_INT)
		return err_at(b, st->line, st->opcol,
			      "expected a field number as the second argument "
			      "of '%.*s'",
			      st->op, st->oplen);
	/* The field is named by its text, which must print back in the toy
	 * spelling: plain decimal digits only (not +0, -1 or 0x10). */
	for (uint32_t i = 0; i < st->args[1].len; i++)
		if (st->args[1].text[i] < '0' || st->args[1].text[i] > '9')
			return err_at(b, st->line, st->args[1].col,
				      "expected a field number (decimal "
				      "digits), found '%.*s'",
				      st->args[1].text, st->args[1].len);
	*descr = ir_str(b->t, st->args[1].text, st->args[1].len);
	if (*descr == UINT32_MAX)
		return oom(b);
	/* drop the field from the value arguments */
	memmove(&st->args[1], &st->args[2],
		(size_t)(st->nargs - 2) * sizeof *st->args);
	st->nargs--;
	return JP_OK;
}

/* The descr of an array op: the statement's, or for the string and
 * unicode ops (which have none in PyPy's logs) "<str>" / "<unicode>". */
static int array_descr(const syn_stmt *st, const char **d)
{
	if (st->descr) {
		*d = st->descr;
		return (int)st->descrlen;
	}
	bool uni = st->oplen >= 7 && (!strncmp(st->op, "unicode", 7) ||
				      !strncmp(st->op, "newunicode", 10));
	bool str = st->oplen >= 3 && (!strncmp(st->op, "str", 3) ||
				      !strncmp(st->op, "newstr", 6));
	*d = uni ? "<unicode>" : str ? "<str>" : NULL;
	return *d ? (int)strlen(*d) : 0;
}

/* Emits OPC(ARGS) with descr "<descr>SUFFIX" and result name RES (or
 * none); returns its op index or UINT32_MAX. */
static uint32_t emit_field(builder *b, const syn_stmt *st, ir_opcode opc,
			   const ir_vid *args, uint32_t nargs, const char *sfx)
{
	const char *ds;
	int dl = array_descr(st, &ds);
	char d[300];
	snprintf(d, sizeof d, "%.*s%s", dl, ds, sfx);
	char *nm =
	    st->res ? arena_strndup(&b->ps->A, st->res, st->reslen) : NULL;
	uint32_t opi = ir_emit(b->t, opc, nargs, args, ir_cstr(b->t, d), nm);
	if (opi != UINT32_MAX) {
		b->t->ops[opi].line = st->line;
		b->t->ops[opi].col = st->col;
	}
	return opi;
}

/* GC arrays, strings, unicode and interior fields as heap objects
 * (ir/pypyops.def): the length a field "D.length", an item at any index
 * the op getarrayitem_gc_i/_r or setarrayitem_gc with descr D. */
static jp_status pypy_array(builder *b, syn_stmt *st, const ir_pyop *py,
			    bool *done)
{
	uint32_t want = py->act == IR_PY_ASET	? 3
			: py->act == IR_PY_AGET ? 2
						: 1;
	if (st->nargs != want) {
		char fmt[96];
		snprintf(fmt, sizeof fmt,
			 "'%%.*s' takes %u argument%s, found %u", want,
			 want == 1 ? "" : "s", st->nargs);
		return err_at(b, st->line, st->opcol, fmt, st->op, st->oplen);
	}
	const char *ds;
	if (!array_descr(st, &ds))
		return err_at(b, st->line, st->opcol,
			      "expected descr= on '%.*s'", st->op, st->oplen);
	*done = true;
	ir_vid a[3];
	jp_status e;
	uint32_t opi;
	switch (py->act) {
	case IR_PY_ANEW:
		if ((e = resolve_arg(b, st, &st->args[0], 'i', &a[1])))
			return e;
		if ((opi = emit_field(b, st, IR_NEW, NULL, 0, "")) ==
		    UINT32_MAX)
			return oom(b);
		a[0] = b->t->ops[opi].result;
		if (st->res && (e = define(b, st->res, st->reslen, a[0],
					   st->line, st->rescol)))
			return e;
		syn_stmt anon = *st;
		anon.res = NULL;
		opi = emit_field(b, &anon, IR_SETFIELD_GC, a, 2, ".length");
		break;
	case IR_PY_ALEN:
	case IR_PY_AHASH:
	case IR_PY_AGET:
		if ((e = resolve_arg(b, st, &st->args[0], 'r', &a[0])) ||
		    (py->act == IR_PY_AGET &&
		     (e = resolve_arg(b, st, &st->args[1], 'i', &a[1]))))
			return e;
		opi = py->act != IR_PY_AGET
			  ? emit_field(b, st, IR_GETFIELD_GC_I, a, 1,
				       py->act == IR_PY_ALEN ? ".length"
							     : ".hash")
			  : emit_field(b, st,
				       py->kind == 'r' ? IR_GETARRAYITEM_GC_R
						       : IR_GETARRAYITEM_GC_I,
				       a, 2, "");
		if (opi != UINT32_MAX && py->act == IR_PY_AGET &&
		    strstr(py->name, "_pure_") &&
		    strncmp(py->name, "getarrayitem", 12) == 0)
			b->t->ops[opi].flags |= IR_OPF_PURE_ITEM;
		if (opi != UINT32_MAX && st->res)
			return define(b, st->res, st->reslen,
				      b->t->ops[opi].result, st->line,
				      st->rescol);
		break;
	default:
		if ((e = resolve_arg(b, st, &st->args[0], 'r', &a[0])) ||
		    (e = resolve_arg(b, st, &st->args[1], 'i', &a[1])) ||
		    (e = resolve_arg(b, st, &st->args[2], 'a', &a[2])))
			return e;
		opi = emit_field(b, st, IR_SETARRAYITEM_GC, a, 3, "");
		break;
	}
	return opi == UINT32_MAX ? oom(b) : JP_OK;
}

/* PyPy ops read as no op (DROP) or as their argument (COPY); *DONE says
 * the statement was taken care of here.  guard_nonnull_class emits its
 * guard_nonnull here, the guard_class follows in build_op. */
static jp_status pypy_special(builder *b, syn_stmt *st, bool *done)
{
	*done = false;
	if (!b->ps->opaque || ir_opcode_by_name(st->op, st->oplen) >= 0)
		return JP_OK;
	const ir_pyop *py = ir_pyop_find(st->op, st->oplen);
	if (!py)
		return JP_OK;
	ir_vid v;
	jp_status e;
	switch (py->act) {
	case IR_PY_DROP: *done = true; return JP_OK;
	case IR_PY_COPY:
		*done = true;
		if (st->nargs != 1)
			return err_at(b, st->line, st->opcol,
				      "'%.*s' takes 1 argument", st->op,
				      st->oplen);
		if ((e = resolve_arg(b, st, &st->args[0], 'a', &v)))
			return e;
		return st->res ? define(b, st->res, st->reslen, v, st->line,
					st->rescol)
			       : JP_OK;
	case IR_PY_SPLIT: {
		if (st->nargs != 2)
			return err_at(b, st->line, st->opcol,
				      "'%.*s' takes 2 arguments", st->op,
				      st->oplen);
		if ((e = resolve_arg(b, st, &st->args[0], 'r', &v)))
			return e;
		uint32_t opi = ir_emit(b->t, IR_GUARD_NONNULL, 1, &v, 0, NULL);
		if (opi == UINT32_MAX)
			return oom(b);
		char lbl[32];
		snprintf(lbl, sizeof lbl, "g%u", b->nguards++);
		b->t->ops[opi].descr = ir_cstr(b->t, lbl);
		b->t->ops[opi].flags |= IR_OPF_IMPLICIT_LABEL;
		b->t->ops[opi].line = st->line;
		b->t->ops[opi].col = st->col;
		return JP_OK;
	}
	case IR_PY_ANEW:
	case IR_PY_ALEN:
	case IR_PY_AHASH:
	case IR_PY_AGET:
	case IR_PY_ASET: return pypy_array(b, st, py, done);
	case IR_PY_OPAQUE:
	case IR_PY_ALIAS: return JP_OK;
	}
	return JP_OK;
}

static jp_status build_op(builder *b, syn_stmt *st)
{
	bool done;
	jp_status pe = pypy_special(b, st, &done);
	if (pe || done)
		return pe;
	int opc = 0;
	char kind = 'v';
	uint8_t flags = 0;
	uint32_t extra = 0;
	jp_status e = classify(b, st, &opc, &kind, &flags, &extra);
	if (e)
		return e;
	uint32_t descr = 0;
	bool toyheap = b->toy && ir_opcode_by_name(st->op, st->oplen) < 0 &&
		       (opc == IR_GETFIELD_GC_I || opc == IR_GETFIELD_GC_R ||
			opc == IR_SETFIELD_GC);
	if (toyheap && (e = toy_field(b, st, &descr)))
		return e;
	/* The toy words have no descr= (their print form has no place for
	 * it; alloc(descr=T) would print as new(descr=T) and the trace would
	 * no longer read as toy). */
	if (st->descr && b->toy && ir_opcode_by_name(st->op, st->oplen) < 0 &&
	    is_toy_op(st->op, st->oplen))
		return err_at(b, st->line, st->descrcol,
			      "the toy operation '%.*s' takes no descr=",
			      st->op, st->oplen);
	if (st->descr) {
		descr = ir_str(b->t, st->descr, st->descrlen);
		if (descr == UINT32_MAX)
			return oom(b);
	}
	/* Old logs write new_with_vtable(ConstClass(T)): take T as the type. */
	if (opc == IR_NEW_WITH_VTABLE && st->nargs == 1 && !st->descr &&
	    st->args[0].tag == A_CLASS) {
		descr = ir_str(b->t, st->args[0].text, st->args[0].len);
		st->nargs = 0;
	}
	ir_vid *args = NULL;
	if ((e = resolve_args(b, st, (ir_opcode)opc, &args)))
		return e;
	const char *resname = NULL;
	bool toyname = st->res && kind == 'v';
	if (st->res && !toyname) {
		resname = arena_strndup(&b->ps->A, st->res, st->reslen);
		if (!resname)
			return oom(b);
	} else if (st->res && !b->toy) {
		return err_at(b, st->line, st->rescol,
			      "'%.*s' names the result of an operation that "
			      "has none",
			      st->res, st->reslen);
	}
	/* An op with a result written without a name (escape_i(i3), as
	 * PyPy's parser allows) gets a generated one. */
	uint32_t opi = ir_emit_kind(b->t, (ir_opcode)opc, kind, st->nargs, args,
				    descr, resname);
	if (opi == UINT32_MAX)
		return oom(b);
	ir_op *op = &b->t->ops[opi];
	op->line = st->line;
	op->col = st->col;
	op->flags |= flags;
	if (opc == IR_OPAQUE)
		op->opname = extra;
	if (toyname) {
		op->opname = ir_str(b->t, st->res, st->reslen);
		if (op->opname == UINT32_MAX)
			return oom(b);
	}
	if (st->raw) {
		op->opname = ir_str(b->t, st->raw, st->rawlen);
		if (op->opname == UINT32_MAX)
			return oom(b);
	}
	if (st->rule) {
		op->rule = ir_str(b->t, st->rule, st->rulelen);
		if (op->rule == UINT32_MAX)
			return oom(b);
	}
	if (ir_op_has((ir_opcode)opc, IRF_GUARD)) {
		if (!st->descr) {
			char lbl[32];
			snprintf(lbl, sizeof lbl, "g%u", b->nguards);
			b->t->ops[opi].descr = ir_cstr(b->t, lbl);
			b->t->ops[opi].flags |= IR_OPF_IMPLICIT_LABEL;
		}
		b->nguards++;
	}
	if (st->has_fail) {
		ir_vid *fa = arena_alloc(&b->ps->A,
					 (size_t)(st->nfail + 1) * sizeof *fa);
		if (!fa)
			return oom(b);
		for (uint32_t i = 0; i < st->nfail; i++)
			if ((e = resolve_arg(b, st, &st->fail[i], 'a', &fa[i])))
				return e;
		if ((e = ir_set_failargs(b->t, opi, st->nfail, fa)))
			return oom(b);
	}
	if (st->res && !toyname) {
		ir_vid res = b->t->ops[opi].result;
		return define(b, st->res, st->reslen, res, st->line,
			      st->rescol);
	}
	return JP_OK;
}

jp_status prs_build(builder *b)
{
	parser *ps = b->ps;
	for (uint32_t i = 0; i < ps->nstmts && !b->toy; i++)
		if (ps->stmts[i].op &&
		    is_toy_op(ps->stmts[i].op, ps->stmts[i].oplen))
			b->toy = true;
	b->t->toy = b->toy;
	/* Reserve every name the text defines, so a name generated for an
	 * unnamed result (alloc() in the toy spelling) never equals one the
	 * text defines further down. */
	for (uint32_t i = 0; i < ps->nstmts; i++) {
		if (!ps->stmts[i].res)
			continue;
		uint32_t id =
		    ir_str(b->t, ps->stmts[i].res, ps->stmts[i].reslen);
		if (id == UINT32_MAX)
			return oom(b);
		b->t->strused[id] = 1;
	}
	jp_status e;
	if (b->toy) {
		for (uint32_t i = 0; i < ps->nstmts; i++)
			if (ps->stmts[i].inputs)
				return err_at(
				    b, ps->stmts[i].line, ps->stmts[i].col,
				    "expected getarg(N) for inputs in "
				    "the toy spelling, found an "
				    "inputs line%.*s",
				    "", 0);
		if ((e = toy_collect(b)) || (e = build_getargs(b)))
			return e;
	}
	bool ended = false;
	for (uint32_t i = 0; i < ps->nstmts; i++) {
		syn_stmt *st = &ps->stmts[i];
		if (st->inputs) {
			if (b->t->nops)
				return err_at(b, st->line, st->col,
					      "expected the inputs line before "
					      "the first operation%.*s",
					      "", 0);
			if ((e = build_inputs(b, st)))
				return e;
			continue;
		}
		if (b->toy && word_is(st->op, st->oplen, "getarg"))
			continue;
		if (ended)
			return err_at(b, st->line, st->col,
				      "expected nothing after the trace's "
				      "jump/finish, found '%.*s'",
				      st->op, st->oplen);
		if ((e = build_op(b, st)))
			return e;
		ended = b->t->nops &&
			ir_op_has(b->t->ops[b->t->nops - 1].opc, IRF_END);
	}
	/* The toy spelling has no end op: its outputs are its escapes.  We
	 * close such a trace with an empty finish so that every trace has
	 * one shape; the printer leaves it out again.  A PyPy trace without
	 * jump/finish (PyPy's parser accepts one) is closed the same way:
	 * it has no outputs. */
	if (!ended && (b->toy || b->t->nops > 0)) {
		if (ir_emit(b->t, IR_FINISH, 0, NULL, 0, NULL) == UINT32_MAX)
			return oom(b);
	}
	return JP_OK;
}
