#include "trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sem.h"

static uint32_t hash_bytes(const char *s, uint32_t len)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (uint32_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static uint32_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= UINT64_C(0xff51afd7ed558ccd);
	x ^= x >> 33;
	return (uint32_t)x;
}

ir_trace *ir_trace_new(int width)
{
	ir_trace *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->width = width ? width : 64;
	arena_init(&t->A);
	if (ir_str(t, "", 0) != 0) {
		ir_trace_free(t);
		return NULL;
	}
	return t;
}

void ir_trace_free(ir_trace *t)
{
	if (!t)
		return;
	free(t->inputs);
	free(t->ops);
	free(t->vals);
	free(t->strs);
	free(t->strused);
	free(t->strhash);
	free(t->consthash);
	arena_free(&t->A);
	free(t);
}

static bool grow_array(void **p, uint32_t *cap, uint32_t need, size_t size)
{
	if (need <= *cap)
		return true;
	uint32_t ncap = *cap ? *cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	void *q = realloc(*p, (size_t)ncap * size);
	if (!q)
		return false;
	*p = q;
	*cap = ncap;
	return true;
}

static bool rehash_strs(ir_trace *t)
{
	uint32_t cap = t->strhashcap ? t->strhashcap * 2 : 64;
	uint32_t *h = malloc((size_t)cap * sizeof *h);
	if (!h)
		return false;
	memset(h, 0xff, (size_t)cap * sizeof *h);
	for (uint32_t id = 0; id < t->nstrs; id++) {
		const char *s = t->strs[id];
		uint32_t i = hash_bytes(s, (uint32_t)strlen(s)) & (cap - 1);
		while (h[i] != UINT32_MAX)
			i = (i + 1) & (cap - 1);
		h[i] = id;
	}
	free(t->strhash);
	t->strhash = h;
	t->strhashcap = cap;
	return true;
}

uint32_t ir_str(ir_trace *t, const char *s, uint32_t len)
{
	if ((t->nstrs + 1) * 2 > t->strhashcap && !rehash_strs(t))
		return UINT32_MAX;
	uint32_t mask = t->strhashcap - 1;
	uint32_t i = hash_bytes(s, len) & mask;
	while (t->strhash[i] != UINT32_MAX) {
		const char *c = t->strs[t->strhash[i]];
		if (strlen(c) == len && memcmp(c, s, len) == 0)
			return t->strhash[i];
		i = (i + 1) & mask;
	}
	uint32_t capstrs = t->capstrs;
	if (!grow_array((void **)&t->strs, &capstrs, t->nstrs + 1,
			sizeof *t->strs))
		return UINT32_MAX;
	if (capstrs != t->capstrs) {
		uint8_t *u = realloc(t->strused, capstrs);
		if (!u)
			return UINT32_MAX;
		memset(u + t->capstrs, 0, capstrs - t->capstrs);
		t->strused = u;
	}
	t->capstrs = capstrs;
	char *copy = arena_strndup(&t->A, s, len);
	if (!copy)
		return UINT32_MAX;
	t->strs[t->nstrs] = copy;
	t->strhash[i] = t->nstrs;
	return t->nstrs++;
}

uint32_t ir_cstr(ir_trace *t, const char *s)
{
	return ir_str(t, s, (uint32_t)strlen(s));
}

static ir_vid new_val(ir_trace *t, ir_valtag tag, char kind, uint32_t name,
		      uint32_t def, uint64_t cval)
{
	if (!grow_array((void **)&t->vals, &t->capvals, t->nvals + 1,
			sizeof *t->vals))
		return IR_NOVAL;
	ir_value *v = &t->vals[t->nvals];
	if (tag <= IR_VAL_OP)
		t->strused[name] = 1;
	v->tag = (uint8_t)tag;
	v->kind = kind;
	v->name = name;
	v->def = def;
	v->cval = cval;
	return t->nvals++;
}

/* The next "i<N>" or "p<N>" that names no variable yet. */
static uint32_t gen_name(ir_trace *t, char kind)
{
	char buf[32];
	for (;;) {
		snprintf(buf, sizeof buf, "%c%u", kind == 'r' ? 'p' : 'i',
			 t->next_name++);
		uint32_t id = ir_str(t, buf, (uint32_t)strlen(buf));
		if (id == UINT32_MAX || !t->strused[id])
			return id;
	}
}

ir_vid ir_add_input(ir_trace *t, char kind, const char *name)
{
	uint32_t nm = name ? ir_cstr(t, name) : gen_name(t, kind);
	if (nm == UINT32_MAX)
		return IR_NOVAL;
	uint32_t cap = t->ninputs; /* inputs grow one by one; keep it simple */
	ir_vid *in = realloc(t->inputs, (size_t)(cap + 1) * sizeof *in);
	if (!in)
		return IR_NOVAL;
	t->inputs = in;
	ir_vid v = new_val(t, IR_VAL_INPUT, kind, nm, t->ninputs, 0);
	if (v == IR_NOVAL)
		return IR_NOVAL;
	t->inputs[t->ninputs++] = v;
	return v;
}

static bool const_same(const ir_value *a, ir_valtag tag, uint32_t name,
		       uint64_t cval)
{
	return a->tag == tag && a->name == name && a->cval == cval;
}

static bool rehash_consts(ir_trace *t)
{
	uint32_t cap = t->consthashcap ? t->consthashcap * 2 : 64;
	uint32_t *h = malloc((size_t)cap * sizeof *h);
	if (!h)
		return false;
	memset(h, 0xff, (size_t)cap * sizeof *h);
	for (ir_vid v = 0; v < t->nvals; v++) {
		const ir_value *x = &t->vals[v];
		if (x->tag < IR_VAL_CONST_INT)
			continue;
		uint32_t i =
		    (hash_u64(x->cval) ^ x->tag * 31u ^ x->name * 7919u) &
		    (cap - 1);
		while (h[i] != UINT32_MAX)
			i = (i + 1) & (cap - 1);
		h[i] = v;
	}
	free(t->consthash);
	t->consthash = h;
	t->consthashcap = cap;
	return true;
}

static ir_vid intern_const(ir_trace *t, ir_valtag tag, char kind, uint32_t name,
			   uint64_t cval)
{
	if ((t->nconsts + 1) * 2 > t->consthashcap && !rehash_consts(t))
		return IR_NOVAL;
	uint32_t mask = t->consthashcap - 1;
	uint32_t i =
	    (hash_u64(cval) ^ (uint32_t)tag * 31u ^ name * 7919u) & mask;
	while (t->consthash[i] != UINT32_MAX) {
		ir_vid v = t->consthash[i];
		if (const_same(&t->vals[v], tag, name, cval))
			return v;
		i = (i + 1) & mask;
	}
	ir_vid v = new_val(t, tag, kind, name, 0, cval);
	if (v == IR_NOVAL)
		return IR_NOVAL;
	t->consthash[i] = v;
	t->nconsts++;
	return v;
}

ir_vid ir_const_int(ir_trace *t, uint64_t v)
{
	return intern_const(t, IR_VAL_CONST_INT, 'i', 0, sem_mask(t->width, v));
}

ir_vid ir_const_null(ir_trace *t)
{
	return intern_const(t, IR_VAL_CONST_NULL, 'r', 0, 0);
}

ir_vid ir_const_ptr(ir_trace *t, const char *name)
{
	uint32_t nm = ir_cstr(t, name);
	return nm == UINT32_MAX ? IR_NOVAL
				: intern_const(t, IR_VAL_CONST_PTR, 'r', nm, 0);
}

ir_vid ir_const_class(ir_trace *t, const char *name)
{
	uint32_t nm = ir_cstr(t, name);
	return nm == UINT32_MAX
		   ? IR_NOVAL
		   : intern_const(t, IR_VAL_CONST_CLASS, 'c', nm, 0);
}

uint32_t ir_emit_kind(ir_trace *t, ir_opcode opc, char kind, uint32_t nargs,
		      const ir_vid *args, uint32_t descr, const char *name)
{
	if (!grow_array((void **)&t->ops, &t->capops, t->nops + 1,
			sizeof *t->ops))
		return UINT32_MAX;
	ir_vid *a = NULL;
	if (nargs) {
		a = arena_alloc(&t->A, (size_t)nargs * sizeof *a);
		if (!a)
			return UINT32_MAX;
		memcpy(a, args, (size_t)nargs * sizeof *a);
	}
	uint32_t opi = t->nops;
	ir_vid res = IR_NOVAL;
	if (kind != 'v') {
		uint32_t nm = name ? ir_cstr(t, name) : gen_name(t, kind);
		if (nm == UINT32_MAX)
			return UINT32_MAX;
		res = new_val(t, IR_VAL_OP, kind, nm, opi, 0);
		if (res == IR_NOVAL)
			return UINT32_MAX;
	}
	ir_op *op = &t->ops[t->nops++];
	memset(op, 0, sizeof *op);
	op->opc = (uint16_t)opc;
	op->kind = kind;
	op->nargs = nargs;
	op->args = a;
	op->result = res;
	op->descr = descr;
	return opi;
}

uint32_t ir_emit(ir_trace *t, ir_opcode opc, uint32_t nargs, const ir_vid *args,
		 uint32_t descr, const char *name)
{
	return ir_emit_kind(t, opc, ir_opinfos[opc].result, nargs, args, descr,
			    name);
}

jp_status ir_set_failargs(ir_trace *t, uint32_t opi, uint32_t n,
			  const ir_vid *vids)
{
	ir_vid *f = NULL;
	if (n) {
		f = arena_alloc(&t->A, (size_t)n * sizeof *f);
		if (!f)
			return JP_ENOMEM;
		memcpy(f, vids, (size_t)n * sizeof *f);
	}
	t->ops[opi].failargs = f;
	t->ops[opi].nfail = n;
	t->ops[opi].flags |= IR_OPF_HAS_FAILARGS;
	return JP_OK;
}

const char *ir_op_name(const ir_trace *t, const ir_op *op)
{
	if (op->opc == IR_OPAQUE)
		return t->strs[op->opname];
	return ir_opinfos[op->opc].name;
}

uint32_t ir_count_guards(const ir_trace *t)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops; i++)
		n += ir_op_has(t->ops[i].opc, IRF_GUARD);
	return n;
}

uint32_t ir_count_ops(const ir_trace *t)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops; i++)
		n += !ir_op_has(t->ops[i].opc, IRF_MARK | IRF_END);
	return n;
}

ir_trace *ir_trace_clone(const ir_trace *t)
{
	ir_trace *c = ir_trace_new(t->width);
	if (!c)
		return NULL;
	c->toy = t->toy;
	c->next_name = t->next_name;
	for (uint32_t i = 1; i < t->nstrs; i++) {
		if (ir_cstr(c, t->strs[i]) != i)
			goto fail;
		c->strused[i] = t->strused[i];
	}
	c->vals = malloc((size_t)(t->nvals ? t->nvals : 1) * sizeof *c->vals);
	c->ops = malloc((size_t)(t->nops ? t->nops : 1) * sizeof *c->ops);
	c->inputs =
	    malloc((size_t)(t->ninputs ? t->ninputs : 1) * sizeof *c->inputs);
	if (!c->vals || !c->ops || !c->inputs)
		goto fail;
	/* A trace without inputs (or values) has NULL arrays, and memcpy
	 * from NULL is undefined even for 0 bytes. */
	if (t->nvals)
		memcpy(c->vals, t->vals, (size_t)t->nvals * sizeof *c->vals);
	c->nvals = c->capvals = t->nvals;
	if (t->ninputs)
		memcpy(c->inputs, t->inputs,
		       (size_t)t->ninputs * sizeof *c->inputs);
	c->ninputs = t->ninputs;
	for (ir_vid v = 0; v < t->nvals; v++)
		if (t->vals[v].tag >= IR_VAL_CONST_INT)
			c->nconsts++;
	if (!rehash_consts(c))
		goto fail;
	c->capops = t->nops;
	for (uint32_t i = 0; i < t->nops; i++) {
		ir_op op = t->ops[i];
		op.args = arena_grow(&c->A, NULL, 0, op.nargs, sizeof *op.args);
		op.failargs =
		    arena_grow(&c->A, NULL, 0, op.nfail, sizeof *op.failargs);
		if ((op.nargs && !op.args) || (op.nfail && !op.failargs))
			goto fail;
		if (op.nargs)
			memcpy(op.args, t->ops[i].args,
			       (size_t)op.nargs * sizeof *op.args);
		if (op.nfail)
			memcpy(op.failargs, t->ops[i].failargs,
			       (size_t)op.nfail * sizeof *op.failargs);
		c->ops[i] = op;
	}
	c->nops = t->nops;
	return c;
fail:
	ir_trace_free(c);
	return NULL;
}
