/*
 * pypylog.c - PyPy JIT logs into trace pairs (the contract is in
 * pypylog.h).
 *
 * Sections: cutting the log into sections; rewriting a section's text
 * (ConstPtr names, guard descrs); copying ops between traces; the shapes
 * (unrolled original, optimized loop from its first label, bridge); the
 * driver that pairs sections.  What is rewritten in the parsed traces is
 * in pypylog_rewrite.c (classes, oopspec calls, raw reads, force_token),
 * pypylog_ptrs.c (ConstPtr identities) and pypylog_bridge.c (what a
 * bridge knows from its parent loop); pypylog_int.h joins them.
 */
#define _POSIX_C_SOURCE 200809L
#include "pypylog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "pypylog_int.h"
#include "pypyops.h"
#include "strbuf.h"

const char *pl_kind_name(pl_kind k)
{
	switch (k) {
	case PL_LOOP: return "loop";
	case PL_BRIDGE: return "bridge";
	case PL_ENTRY: return "entry bridge";
	}
	return "?";
}

/* ---- sections ----------------------------------------------------------- */

typedef enum sec_kind { SEC_NOOPT, SEC_LOOP, SEC_BRIDGE } sec_kind;

typedef struct section {
	sec_kind kind;
	const char *body; /* the lines between the two section lines */
	size_t len;
	int line; /* line of the first body line in the log */
} section;

/* "[hex] {name" (open) or "[hex] name}" (close): the name and which. */
static bool section_line(const char *p, const char *eol, const char **name,
			 size_t *nlen, bool *open)
{
	if (p >= eol || *p != '[')
		return false;
	const char *q = p + 1;
	while (q < eol &&
	       ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f')))
		q++;
	if (q == p + 1 || q >= eol || *q != ']')
		return false;
	for (q++; q < eol && *q == ' '; q++)
		;
	*open = q < eol && *q == '{';
	if (*open)
		q++;
	const char *e = eol;
	while (e > q && (e[-1] == '\r' || e[-1] == ' '))
		e--;
	if (!*open) {
		if (e == q || e[-1] != '}')
			return false;
		e--;
	}
	*name = q;
	*nlen = (size_t)(e - q);
	return *nlen > 0;
}

static bool name_is(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(s, w, n) == 0;
}

static bool wanted(const char *s, size_t n, sec_kind *k)
{
	/* Older PyPys split jit-log-noopt into -loop and -bridge. */
	if (name_is(s, n, "jit-log-noopt") ||
	    name_is(s, n, "jit-log-noopt-loop") ||
	    name_is(s, n, "jit-log-noopt-bridge"))
		*k = SEC_NOOPT;
	else if (name_is(s, n, "jit-log-opt-loop"))
		*k = SEC_LOOP;
	else if (name_is(s, n, "jit-log-opt-bridge"))
		*k = SEC_BRIDGE;
	else
		return false;
	return true;
}

/* Cuts TEXT into the wanted sections (other sections are skipped, nested
 * ones included). */
static jp_status split(const char *text, size_t len, section **out, uint32_t *n,
		       jp_err *err)
{
	section *v = NULL;
	uint32_t cnt = 0, cap = 0;
	const char *p = text, *end = text + len;
	int line = 0;
	section cur;
	bool in = false;
	sec_kind ck = SEC_NOOPT;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		line++;
		const char *nm;
		size_t nl;
		bool open;
		if (section_line(p, eol, &nm, &nl, &open)) {
			sec_kind k;
			if (open && !in && wanted(nm, nl, &k)) {
				in = true;
				ck = k;
				cur.kind = k;
				cur.body = eol < end ? eol + 1 : eol;
				cur.line = line + 1;
			} else if (!open && in && wanted(nm, nl, &k) &&
				   k == ck) {
				in = false;
				cur.len = (size_t)(p - cur.body);
				if (cnt == cap) {
					cap = cap ? cap * 2 : 16;
					section *g =
					    realloc(v, cap * sizeof *v);
					if (!g) {
						free(v);
						return jp_fail(err, JP_ENOMEM,
							       "out of memory");
					}
					v = g;
				}
				v[cnt++] = cur;
			}
		}
		p = eol + 1;
	}
	*out = v;
	*n = cnt;
	return JP_OK;
}

/* ---- rewriting a section's text ----------------------------------------- */

static bool starts(const char *p, const char *end, const char *w)
{
	size_t n = strlen(w);
	return (size_t)(end - p) >= n && memcmp(p, w, n) == 0;
}

/* Copies section S into SB with ConstPtr(null) as NULL, every other
 * ConstPtr name prefixed by "sK_" (K = the section's index), and every
 * "descr=<Guard...>" of a guard removed with the comma before it. */
static void rewrite(const section *s, uint32_t k, strbuf *sb)
{
	const char *p = s->body, *end = s->body + s->len;
	char pfx[24];
	snprintf(pfx, sizeof pfx, "s%u_", k);
	while (p < end) {
		if (starts(p, end, "ConstPtr(null)")) {
			sb_puts(sb, "NULL");
			p += strlen("ConstPtr(null)");
		} else if (starts(p, end, "ConstPtr(")) {
			sb_puts(sb, "ConstPtr(");
			sb_puts(sb, pfx);
			p += strlen("ConstPtr(");
		} else if (starts(p, end, ", descr=<Guard") ||
			   starts(p, end, "descr=<Guard")) {
			while (p < end && *p != '>' && *p != '\n')
				p++;
			if (p < end && *p == '>')
				p++;
		} else {
			sb_putc(sb, *p++);
		}
	}
}

static jp_status parse_section(const section *s, uint32_t k, const char *file,
			       ir_trace **t, jp_err *err)
{
	strbuf sb;
	sb_init(&sb);
	rewrite(s, k, &sb);
	char *text = sb_detach(&sb);
	if (!text)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	ir_parse_opts o = {.width = 64, .opaque = true, .file = file};
	jp_status st = ir_parse(text, strlen(text), &o, t, err);
	free(text);
	/* Lines of the section count from its first body line. */
	if (st && err && err->line > 0)
		err->line += s->line - 1;
	return st;
}

/* ---- copying ops -------------------------------------------------------- */

static const char *renamed(const copier *c, const char *name)
{
	for (uint32_t i = 0; i < c->nren; i++)
		if (!strcmp(c->ren_from[i], name))
			return c->ren_to[i];
	return name;
}

ir_vid pl_map_val(copier *c, ir_vid v)
{
	if (v == IR_NOVAL || c->map[v] != IR_NOVAL)
		return v == IR_NOVAL ? IR_NOVAL : c->map[v];
	const ir_value *x = ir_val(c->s, v);
	switch ((ir_valtag)x->tag) {
	case IR_VAL_CONST_INT: return ir_const_int(c->d, x->cval);
	case IR_VAL_CONST_NULL: return ir_const_null(c->d);
	case IR_VAL_CONST_PTR:
		return ir_const_ptr(c->d,
				    renamed(c, ir_strtext(c->s, x->name)));
	case IR_VAL_CONST_CLASS:
		return ir_const_class(c->d, ir_strtext(c->s, x->name));
	case IR_VAL_INPUT:
	case IR_VAL_OP: break;
	}
	return IR_NOVAL;
}

/* Copies op OPI of the source into D; its result is named with SUFFIX
 * appended.  Guards get fresh implicit labels.  Returns false (WHY set)
 * when an argument has no value in D. */
bool pl_copy_op(copier *c, uint32_t opi, const char *suffix, char *why,
		size_t whysize)
{
	const ir_op *op = &c->s->ops[opi];
	ir_vid *args = calloc(op->nargs + 1, sizeof *args);
	ir_vid *fa = calloc(op->nfail + 1, sizeof *fa);
	bool ok = args && fa;
	for (uint32_t i = 0; ok && i < op->nargs; i++) {
		args[i] = pl_map_val(c, op->args[i]);
		if (args[i] == IR_NOVAL) {
			snprintf(why, whysize,
				 "%s at line %d uses '%s', which is not "
				 "passed to it",
				 ir_op_name(c->s, op), op->line,
				 ir_valname(c->s, op->args[i]));
			ok = false;
		}
	}
	for (uint32_t i = 0; ok && i < op->nfail; i++)
		fa[i] = pl_map_val(c, op->failargs[i]); /* unknown: None */
	uint32_t descr = 0;
	bool guard = ir_op_has((ir_opcode)op->opc, IRF_GUARD);
	char buf[256];
	if (ok && guard && !c->keep_labels) {
		snprintf(buf, sizeof buf, "g%u", c->nguards++);
		descr = ir_cstr(c->d, buf);
	} else if (ok && op->descr) {
		descr = ir_cstr(c->d, ir_strtext(c->s, op->descr));
	}
	const char *name = NULL;
	if (ok && op->result != IR_NOVAL) {
		snprintf(buf, sizeof buf, "%s%s", ir_valname(c->s, op->result),
			 suffix);
		name = buf;
	}
	uint32_t ni = ok ? ir_emit_kind(c->d, (ir_opcode)op->opc, op->kind,
					op->nargs, args, descr, name)
			 : UINT32_MAX;
	if (ok && ni == UINT32_MAX) {
		snprintf(why, whysize, "out of memory");
		ok = false;
	}
	if (ok) {
		ir_op *n = &c->d->ops[ni];
		n->line = op->line;
		n->col = op->col;
		if (guard && !c->keep_labels)
			n->flags |= IR_OPF_IMPLICIT_LABEL;
		if (guard && c->keep_labels)
			n->flags |= op->flags & IR_OPF_IMPLICIT_LABEL;
		n->flags |= op->flags & (IR_OPF_RECORDED | IR_OPF_INSTANCE |
					 IR_OPF_PURE_ITEM | IR_OPF_PURE_CALL);
		if (op->opname)
			n->opname = ir_cstr(c->d, ir_strtext(c->s, op->opname));
		/* Fail-args are left out unless asked for: PyPy's
		 * unoptimized log prints none, so there is nothing to
		 * compare them with. */
		if (c->keep_failargs && op->nfail &&
		    ir_set_failargs(c->d, ni, op->nfail, fa) != JP_OK) {
			snprintf(why, whysize, "out of memory");
			ok = false;
		}
		if (op->result != IR_NOVAL)
			c->map[op->result] = n->result;
	}
	free(args);
	free(fa);
	return ok;
}

bool pl_copier_init(copier *c, ir_trace *d, const ir_trace *s)
{
	memset(c, 0, sizeof *c);
	c->d = d;
	c->s = s;
	c->map = malloc((s->nvals + 1) * sizeof *c->map);
	if (!c->map)
		return false;
	for (uint32_t i = 0; i <= s->nvals; i++)
		c->map[i] = IR_NOVAL;
	return true;
}

bool pl_copier_new(copier *c, const ir_trace *t)
{
	ir_trace *d = ir_trace_new(t->width);
	if (!d || !pl_copier_init(c, d, t)) {
		ir_trace_free(d);
		return false;
	}
	c->keep_labels = true;
	return true;
}

bool pl_copy_inputs(copier *c)
{
	const ir_trace *t = c->s;
	for (uint32_t i = 0; i < t->ninputs; i++) {
		ir_vid v = t->inputs[i];
		c->map[v] =
		    ir_add_input(c->d, ir_val(t, v)->kind, ir_valname(t, v));
		if (c->map[v] == IR_NOVAL)
			return false;
	}
	return true;
}

ir_trace *pl_copy_done(copier *c, bool ok)
{
	ok = ok && pl_emit_end(c, &c->s->ops[pl_end_op(c->s)]);
	free(c->map);
	c->map = NULL;
	if (!ok) {
		ir_trace_free(c->d);
		return NULL;
	}
	return c->d;
}

ir_trace *pl_with_prefix(const ir_trace *t,
			 bool (*prefix)(copier *c, void *ctx), void *ctx)
{
	copier c;
	if (!pl_copier_new(&c, t))
		return NULL;
	bool ok = pl_copy_inputs(&c) && prefix(&c, ctx);
	char why[256];
	for (uint32_t i = 0; ok && i < pl_end_op(t); i++)
		ok = pl_copy_op(&c, i, "", why, sizeof why);
	return pl_copy_done(&c, ok);
}

bool pl_prefix_both(pl_pair *p, bool (*prefix)(copier *c, void *ctx), void *ctx)
{
	uint32_t before = p->orig->nops;
	ir_trace *a = pl_with_prefix(p->orig, prefix, ctx);
	ir_trace *b = a ? pl_with_prefix(p->opt, prefix, ctx) : NULL;
	pl_replace_traces(p, a, b);
	if (!a || !b)
		return false;
	p->nprefix += a->nops - before;
	return true;
}

bool pl_mentions(const ir_trace *t, const char *name)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		for (uint32_t j = 0; j < op->nargs; j++) {
			const char *s = pl_cptr_name(t, op->args[j]);
			if (s && !strcmp(s, name))
				return true;
		}
		for (uint32_t j = 0; j < op->nfail; j++) {
			const char *s = pl_cptr_name(t, op->failargs[j]);
			if (s && !strcmp(s, name))
				return true;
		}
	}
	return false;
}

ir_trace *pl_facts_probe(const pl_pair *p, bool jump)
{
	if (!p->orig || p->nprefix == 0 || p->nprefix >= p->orig->nops)
		return NULL;
	copier c;
	if (!pl_copier_new(&c, p->orig))
		return NULL;
	ir_trace *d = c.d;
	bool ok = pl_copy_inputs(&c);
	char why[256];
	for (uint32_t i = 0; ok && i < p->nprefix; i++)
		ok = pl_copy_op(&c, i, "", why, sizeof why);
	free(c.map);
	ok = ok && ir_emit(d, jump ? IR_JUMP : IR_FINISH, 0, NULL, 0, NULL) !=
		       UINT32_MAX;
	if (!ok) {
		ir_trace_free(d);
		return NULL;
	}
	return d;
}

uint32_t pl_end_op(const ir_trace *t)
{
	return t->nops - 1; /* ir_parse closes every trace with jump/finish */
}

/* Emits the end: FINISH keeps its outputs, a jump becomes finish(). */
bool pl_emit_end(copier *c, const ir_op *end)
{
	uint32_t n = end->opc == IR_FINISH ? end->nargs : 0;
	ir_vid *args = calloc(n + 1, sizeof *args);
	if (!args)
		return false;
	for (uint32_t i = 0; i < n; i++)
		args[i] = pl_map_val(c, end->args[i]);
	uint32_t r = ir_emit(c->d, IR_FINISH, n, args, 0, NULL);
	free(args);
	return r != UINT32_MAX;
}

/* ---- the shapes --------------------------------------------------------- */

/* ORIG: the unoptimized trace N run ITERS times in a row. */
static ir_trace *unrolled(const ir_trace *n, int iters, char *why, size_t ws)
{
	const ir_op *end = &n->ops[pl_end_op(n)];
	if (iters > 1 && (end->opc != IR_JUMP || end->nargs != n->ninputs)) {
		snprintf(why, ws,
			 "the unoptimized trace does not jump back with its "
			 "%u inputs, so it cannot be unrolled",
			 n->ninputs);
		return NULL;
	}
	ir_trace *d = ir_trace_new(n->width);
	copier c;
	if (!d || !pl_copier_init(&c, d, n)) {
		ir_trace_free(d);
		snprintf(why, ws, "out of memory");
		return NULL;
	}
	bool ok = true;
	for (uint32_t i = 0; i < n->ninputs; i++) {
		ir_vid v = n->inputs[i];
		c.map[v] =
		    ir_add_input(d, ir_val(n, v)->kind, ir_valname(n, v));
		ok = ok && c.map[v] != IR_NOVAL;
	}
	ir_vid *next = calloc(n->ninputs + 1, sizeof *next);
	ok = ok && next;
	for (int it = 1; ok && it <= iters; it++) {
		char sfx[16] = "";
		if (it > 1) {
			snprintf(sfx, sizeof sfx, "_%d", it);
			for (uint32_t i = 0; i < n->ninputs; i++)
				next[i] = pl_map_val(&c, end->args[i]);
			for (uint32_t i = 0; i < n->nvals; i++)
				if (ir_val(n, i)->tag == IR_VAL_OP)
					c.map[i] = IR_NOVAL;
			for (uint32_t i = 0; i < n->ninputs; i++)
				c.map[n->inputs[i]] = next[i];
		}
		uint32_t from = d->nops;
		for (uint32_t o = 0; ok && o + 1 < n->nops; o++)
			ok = pl_copy_op(&c, o, sfx, why, ws);
		for (uint32_t o = from; ok && it == 1 && o < d->nops; o++)
			d->ops[o].flags |= IR_OPF_RECORDED;
	}
	ok = ok && pl_emit_end(&c, end);
	free(next);
	free(c.map);
	if (!ok) {
		ir_trace_free(d);
		return NULL;
	}
	return d;
}

/* The labels of T: their op indices (at most MAX). */
static uint32_t labels(const ir_trace *t, uint32_t *at, uint32_t max)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops; i++)
		if (t->ops[i].opc == IR_LABEL) {
			if (n < max)
				at[n] = i;
			n++;
		}
	return n;
}

/* Whether the inputs INS (N values of T) fit the unoptimized trace's
 * inputs one by one: as many, the same kinds, distinct non-constants. */
static bool inputs_fit(const ir_trace *t, const ir_vid *ins, uint32_t n,
		       const ir_trace *noopt, char *why, size_t ws)
{
	if (n != noopt->ninputs) {
		snprintf(why, ws,
			 "the optimized trace starts with %u values, the "
			 "unoptimized one with %u inputs",
			 n, noopt->ninputs);
		return false;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (ir_is_const(t, ins[i])) {
			snprintf(why, ws,
				 "start value %u of the optimized trace is a "
				 "constant",
				 i);
			return false;
		}
		for (uint32_t j = 0; j < i; j++)
			if (ins[j] == ins[i]) {
				snprintf(why, ws,
					 "start values %u and %u of the "
					 "optimized trace are one value",
					 j, i);
				return false;
			}
		if (ir_val(t, ins[i])->kind !=
		    ir_val(noopt, noopt->inputs[i])->kind) {
			snprintf(why, ws,
				 "start value %u is %s in the optimized trace "
				 "but not in the unoptimized one",
				 i,
				 ir_val(t, ins[i])->kind == 'r' ? "a ref"
								: "an int");
			return false;
		}
	}
	return true;
}

/* Whether the jump at the end of T goes to label text TARGET, or (TARGET
 * NULL) to any of the log's labels KNOWN (NKNOWN strings). */
static bool jump_ok(const ir_trace *t, const char *target,
		    const char *const *known, uint32_t nknown, char *why,
		    size_t ws)
{
	const ir_op *end = &t->ops[pl_end_op(t)];
	if (end->opc != IR_JUMP)
		return true;
	const char *to = end->descr ? ir_strtext(t, end->descr) : "";
	if (target) {
		if (!strcmp(to, target))
			return true;
		snprintf(why, ws, "the loop jumps to %s, not to its label %s",
			 to[0] ? to : "(no descr)", target);
		return false;
	}
	for (uint32_t i = 0; i < nknown; i++)
		if (!strcmp(to, known[i]))
			return true;
	snprintf(why, ws, "the jump goes to %s, which no loop of the log has",
		 to[0] ? to : "(no descr)");
	return false;
}

/* Whether op OP of T has no effect anything after it could see, other
 * than through its result: guards, pure and overflow-checked arithmetic,
 * reads, and calls PyPy marks elidable: descr EF=0 (cannot raise), 3
 * (only MemoryError) or 4 (can raise), rpython/jit/codewriter/
 * effectinfo.py.  EF=1 (loop-invariant) and EF=2 (cannot raise, but may
 * write: ll_arraycopy is one) are not. */
static bool effect_free(const ir_trace *t, const ir_op *op)
{
	ir_opcode opc = (ir_opcode)op->opc;
	if (ir_op_has(opc, IRF_GUARD) || ir_op_has(opc, IRF_PURE) ||
	    ir_op_has(opc, IRF_OVF) || opc == IR_GETFIELD_GC_I ||
	    opc == IR_GETFIELD_GC_R || opc == IR_GETARRAYITEM_GC_I ||
	    opc == IR_GETARRAYITEM_GC_R || opc == IR_DEBUG_MERGE_POINT)
		return true;
	if (opc != IR_OPAQUE || !op->opname)
		return false;
	const char *n = ir_strtext(t, op->opname);
	static const char *const reads[] = {
	    "get",	"guard_",     "strlen",		"unicodelen",
	    "arraylen", "strgetitem", "unicodegetitem", "call_pure_"};
	for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++)
		if (!strncmp(n, reads[i], strlen(reads[i])))
			return true;
	return !strncmp(n, "call_", 5) && strncmp(n, "call_may_force", 14) &&
	       strncmp(n, "call_assembler", 14) &&
	       strncmp(n, "call_release_gil", 16) &&
	       ir_py_elidable(op->descr ? ir_strtext(t, op->descr) : NULL);
}

/* Which ops after op FROM of T a bridge leaves out: PyPy inlines there,
 * before the jump, the target loop's short preamble -- reads, pure ops,
 * elidable calls and the guards on them, whose results only feed the
 * jump's arguments (not compared).  Every effect-free op there is left
 * out unless an op that stays uses its result; DROP[i] says which. */
static void short_preamble(const ir_trace *t, uint32_t from, uint8_t *drop)
{
	uint32_t end = pl_end_op(t);
	for (uint32_t i = from + 1; i < end; i++)
		drop[i] = effect_free(t, &t->ops[i]);
	for (uint32_t i = end; i-- > from + 1;) {
		if (drop[i])
			continue;
		const ir_op *op = &t->ops[i];
		for (uint32_t j = 0; j < op->nargs; j++) {
			uint32_t d = ir_defop(t, op->args[j]);
			if (d != UINT32_MAX && d > from)
				drop[d] = 0;
		}
	}
}

/* OPT from op FIRST on, with inputs INS (N values), the short preamble
 * after op DROP_AFTER (UINT32_MAX: none) left out. */
static ir_trace *opt_from(const ir_trace *t, uint32_t first, const ir_vid *ins,
			  uint32_t n, uint32_t drop_after, char *why, size_t ws)
{
	ir_trace *d = ir_trace_new(t->width);
	copier c;
	if (!d || !pl_copier_init(&c, d, t)) {
		ir_trace_free(d);
		snprintf(why, ws, "out of memory");
		return NULL;
	}
	bool ok = true;
	for (uint32_t i = 0; ok && i < n; i++) {
		c.map[ins[i]] = ir_add_input(d, ir_val(t, ins[i])->kind,
					     ir_valname(t, ins[i]));
		ok = c.map[ins[i]] != IR_NOVAL;
	}
	uint8_t *drop = calloc(t->nops + 1, 1);
	ok = ok && drop;
	if (ok && drop_after != UINT32_MAX)
		short_preamble(t, drop_after, drop);
	for (uint32_t o = first; ok && o + 1 < t->nops; o++)
		if (!drop[o])
			ok = pl_copy_op(&c, o, "", why, ws);
	free(drop);
	return pl_copy_done(&c, ok);
}

/* The last debug_merge_point of T, or UINT32_MAX. */
static uint32_t last_merge_point(const ir_trace *t)
{
	for (uint32_t i = t->nops; i-- > 0;)
		if (t->ops[i].opc == IR_DEBUG_MERGE_POINT)
			return i;
	return UINT32_MAX;
}

/* The frame values an entry bridge's prologue reads: its inputs, then
 * the results of its leading field reads, in order, except those that are
 * only read from (the locals array); INS receives them.  Returns the
 * first op after the prologue.  The same correspondence a loop's first
 * label states (docs/pypy.md, "Assumptions"). */
static uint32_t frame_values(const ir_trace *t, ir_vid *ins, uint32_t *n)
{
	uint32_t end = 0;
	while (end < t->nops && (t->ops[end].opc == IR_GETFIELD_GC_R ||
				 t->ops[end].opc == IR_GETFIELD_GC_I ||
				 t->ops[end].opc == IR_GETARRAYITEM_GC_R ||
				 t->ops[end].opc == IR_GETARRAYITEM_GC_I))
		end++;
	*n = 0;
	for (uint32_t i = 0; i < t->ninputs; i++)
		ins[(*n)++] = t->inputs[i];
	for (uint32_t i = 0; i < end; i++) {
		bool container = false;
		for (uint32_t j = i + 1; j < end && !container; j++)
			container = t->ops[j].args[0] == t->ops[i].result;
		if (!container)
			ins[(*n)++] = t->ops[i].result;
	}
	return end;
}

static void set_reason(pl_pair *p, const char *why)
{
	free(p->reason);
	p->reason = strdup(why[0] ? why : "the pair could not be shaped");
}

/* The list fields of P renamed for their types (pl_list_types); out of
 * memory half way, P is not checked. */
static void lists_typed(pl_pair *p)
{
	if (pl_list_types(p))
		return;
	ir_trace_free(p->orig);
	ir_trace_free(p->opt);
	p->orig = p->opt = NULL;
	set_reason(p, "out of memory");
}

/* The end of the ops of P's ORIG that PyPy recorded: all but the end op
 * of a bridge's or an entry bridge's (one copy of its unoptimized trace),
 * the facts and the first copy of a loop's (IR_OPF_RECORDED; a rewrite
 * that emits an op of its own there ends the range early, which only
 * loses facts). */
static uint32_t recorded_end(const pl_pair *p)
{
	const ir_trace *t = p->orig;
	if (p->kind != PL_LOOP)
		return pl_end_op(t);
	uint32_t i = p->nprefix;
	while (i < pl_end_op(t) && (t->ops[i].flags & IR_OPF_RECORDED))
		i++;
	return i;
}

/* Shapes pair P from the unoptimized trace N and the optimized one T. */
static void shape(pl_pair *p, const ir_trace *n, const ir_trace *t,
		  const char *const *known, uint32_t nknown, const pl_opts *o)
{
	char why[512] = "";
	uint32_t at[2];
	uint32_t nl = labels(t, at, 2);
	if (p->kind == PL_LOOP && nl == 0)
		p->kind = PL_ENTRY;
	if (nl > 2) {
		snprintf(why, sizeof why,
			 "the loop has %u labels (at most 2 "
			 "are understood)",
			 nl);
		set_reason(p, why);
		return;
	}
	if (nl > 0 && p->kind != PL_BRIDGE) {
		const ir_op *l1 = &t->ops[at[0]];
		const char *target = ir_strtext(t, t->ops[at[nl - 1]].descr);
		if (!inputs_fit(t, l1->args, l1->nargs, n, why, sizeof why) ||
		    !jump_ok(t, target, NULL, 0, why, sizeof why)) {
			set_reason(p, why);
			return;
		}
		p->orig = unrolled(n, (int)nl, why, sizeof why);
		if (p->orig)
			p->opt = opt_from(t, at[0] + 1, l1->args, l1->nargs,
					  UINT32_MAX, why, sizeof why);
	} else {
		/* An entry bridge reads the frame like a loop's prologue, but
		 * has no label to say what it read: take the inputs and the
		 * prologue's reads (see frame_values). */
		ir_vid *ins = calloc(t->ninputs + t->nops + 1, sizeof *ins);
		uint32_t nins = 0, first = 0;
		if (!ins) {
			set_reason(p, "out of memory");
			return;
		}
		if (p->kind == PL_ENTRY && t->ninputs < n->ninputs)
			first = frame_values(t, ins, &nins);
		else {
			memcpy(ins, t->inputs, t->ninputs * sizeof *ins);
			nins = t->ninputs;
		}
		if (!inputs_fit(t, ins, nins, n, why, sizeof why) ||
		    !jump_ok(t, NULL, known, nknown, why, sizeof why)) {
			free(ins);
			set_reason(p, why);
			return;
		}
		bool jumps = t->ops[pl_end_op(t)].opc == IR_JUMP;
		p->orig = unrolled(n, 1, why, sizeof why);
		if (p->orig)
			p->opt =
			    opt_from(t, first, ins, nins,
				     jumps ? last_merge_point(t) : UINT32_MAX,
				     why, sizeof why);
		free(ins);
	}
	if (!p->orig || !p->opt) {
		ir_trace_free(p->orig);
		p->orig = NULL;
		set_reason(p, why);
		return;
	}
	if (!o || !o->apart)
		pl_same_ptrs(p, pl_end_op(n));
	/* p->orig starts with a copy of N's ops (unrolled): those are the
	 * recorded ones. */
	pl_recorded_facts(p, pl_end_op(n));
	pl_raw_inputs(p);
	pl_force_token_input(p);
	pl_private_objects(p);
	/* Again on what the private objects' rewrite left: a constant the
	 * unoptimized trace stored into such an object and read back out
	 * is now in the role the optimized trace's constant plays. */
	if (p->orig && (!o || !o->apart))
		pl_same_ptrs(p, recorded_end(p));
	/* Again on what the private objects' rewrite left: an elidable
	 * call's result stored only into such an object is unused now. */
	if (p->orig) {
		/* the original only: PyPy's optimizer forwards those reads
		 * before it looks for repeated pure calls; what it left
		 * in the optimized trace stays as it is */
		pl_repeated_elidable_calls(&p->orig);
		pl_unused_pure_calls(&p->orig);
		pl_unused_pure_calls(&p->opt);
	}
	/* Again on what the private objects' rewrite left: a string read
	 * back from such an object's field is now the one-char string the
	 * trace made (email_validate's s[i] == '.' on a W_UnicodeObject). */
	if (p->orig) {
		pl_str_eq_calls(p->orig);
		pl_str_eq_calls(p->opt);
	}
	pl_float_consts(p);
	lists_typed(p);
}

/* ---- the driver --------------------------------------------------------- */

/* The id of an optimized section from its "# Loop 1 (...) : loop with"
 * or "# bridge out of Guard 0x7f... with" comment. */
static void section_id(const section *s, uint32_t k, pl_pair *p)
{
	const char *b = s->body, *end = s->body + s->len;
	const char *eol = memchr(b, '\n', (size_t)(end - b));
	size_t n = eol ? (size_t)(eol - b) : s->len;
	char line[256];
	snprintf(line, sizeof line, "%.*s", (int)(n < 255 ? n : 255), b);
	unsigned num;
	char guard[40];
	if (sscanf(line, "# Loop %u", &num) == 1) {
		bool entry = strstr(line, ": entry bridge") != NULL;
		p->kind = entry ? PL_ENTRY : PL_LOOP;
		snprintf(p->id, sizeof p->id, "%s %u", entry ? "entry" : "loop",
			 num);
	} else if (sscanf(line, "# bridge out of Guard %39s", guard) == 1) {
		p->kind = PL_BRIDGE;
		snprintf(p->id, sizeof p->id, "bridge %s", guard);
	} else {
		p->kind = s->kind == SEC_BRIDGE ? PL_BRIDGE : PL_LOOP;
		snprintf(p->id, sizeof p->id, "%s #%u",
			 s->kind == SEC_BRIDGE ? "bridge" : "loop", k);
	}
}

static char *errtext(const jp_err *e)
{
	char buf[2048];
	if (e->file[0] && e->line > 0)
		snprintf(buf, sizeof buf, "%s:%d:%d: %s", e->file, e->line,
			 e->col, e->msg);
	else
		snprintf(buf, sizeof buf, "%s", e->msg);
	return strdup(buf);
}

/* Every label descr of the optimized loop sections (jump targets). */
static char **all_labels(ir_trace **opts, uint32_t n, uint32_t *count)
{
	uint32_t cap = 16, cnt = 0;
	char **v = malloc(cap * sizeof *v);
	for (uint32_t k = 0; v && k < n; k++) {
		const ir_trace *t = opts[k];
		for (uint32_t i = 0; t && i < t->nops; i++) {
			if (t->ops[i].opc != IR_LABEL || !t->ops[i].descr)
				continue;
			if (cnt == cap) {
				char **g = realloc(v, (cap *= 2) * sizeof *v);
				if (!g)
					break;
				v = g;
			}
			v[cnt] = strdup(ir_strtext(t, t->ops[i].descr));
			if (v[cnt])
				cnt++;
		}
	}
	*count = cnt;
	return v;
}

/* Whether OP of T is a guard a bridge may leave from: one of the IR's
 * guards, or a guard_no_exception, which the IR keeps as an opaque op
 * (the exception a call raised is not modelled), its fail-args and its
 * place in the trace as PyPy wrote them -- what held before it holds when
 * it fails (tictactoe_minimax's bridges out of `x in list`,
 * corpus/pypy/bridge_no_exception.log). */
static bool fails_to_bridge(const ir_trace *t, const ir_op *op)
{
	if (ir_op_has((ir_opcode)op->opc, IRF_GUARD))
		return true;
	/* the guards on what the previous call left are opaque ops
	 * (guard_no_exception, guard_exception, guard_not_forced(_2)):
	 * each can fail to a bridge (elevator_sim's bridge out of a
	 * guard_exception, holdout11) */
	return op->opc == IR_OPAQUE && op->opname &&
	       ir_py_writes_nothing(ir_strtext(t, op->opname));
}

/* The guard bridge P leaves from ("bridge 0xADDR" leaves from the guard
 * printed with descr=<Guard0xADDR>): its optimized section among the
 * first UPTO, into *SK, and op, into *G.  False when the log does not
 * have it. */
static bool parent_guard(const pl_pair *p, const section *secs,
			 ir_trace *const *tr, uint32_t upto, uint32_t *sk,
			 uint32_t *g)
{
	const char *addr = p->id + strlen("bridge ");
	if (p->kind != PL_BRIDGE || strncmp(p->id, "bridge 0x", 9) != 0)
		return false;
	char pat[80];
	snprintf(pat, sizeof pat, "descr=<Guard%s>", addr);
	size_t pl = strlen(pat);
	for (uint32_t k = 0; k < upto; k++) {
		if (secs[k].kind == SEC_NOOPT || !tr[k])
			continue;
		const char *b = secs[k].body, *end = b + secs[k].len;
		int line = 1;
		for (const char *q = b; q + pl <= end; q++) {
			if (*q == '\n')
				line++;
			if (*q != 'd' || memcmp(q, pat, pl) != 0)
				continue;
			bool found = false;
			for (uint32_t i = 0; i < tr[k]->nops; i++) {
				const ir_op *op = &tr[k]->ops[i];
				if (op->line == line && op->nfail > 0 &&
				    fails_to_bridge(tr[k], op)) {
					*g = i;
					found = true;
				}
			}
			*sk = k;
			return found;
		}
	}
	return false;
}

jp_status pl_read_text(const char *text, size_t len, const char *file,
		       const pl_opts *o, pl_log *out, jp_err *err)
{
	memset(out, 0, sizeof *out);
	section *secs = NULL;
	uint32_t ns = 0;
	jp_status st = split(text, len, &secs, &ns, err);
	if (st)
		return st;
	if (ns == 0) {
		free(secs);
		return jp_fail_at(err, JP_EINPUT, file, 1, 1,
				  "expected a PyPy JIT log with jit-log-noopt "
				  "and jit-log-opt sections (written with "
				  "PYPYLOG=jit-log-noopt,jit-log-opt:FILE), "
				  "found none");
	}
	ir_trace **tr = calloc(ns, sizeof *tr);
	char **perr = calloc(ns, sizeof *perr);
	pl_entry **ent = calloc(ns, sizeof *ent);
	out->pairs = calloc(ns, sizeof *out->pairs);
	if (!tr || !perr || !ent || !out->pairs) {
		free(tr);
		free(perr);
		free(ent);
		free(secs);
		free(out->pairs);
		out->pairs = NULL;
		return jp_fail(err, JP_ENOMEM, "out of memory");
	}
	for (uint32_t k = 0; k < ns; k++) {
		jp_err e;
		jp_err_clear(&e);
		if (parse_section(&secs[k], k, file, &tr[k], &e))
			perr[k] = errtext(&e);
	}
	/* Out of memory here only leaves the allocations of more sizes
	 * unnamed. */
	pl_sizes contested;
	if (pl_contested_sizes(tr, ns, &contested)) {
		pl_sizes_free(&contested);
		contested = (pl_sizes){NULL, 0};
	}
	for (uint32_t k = 0; k < ns; k++) {
		if (tr[k]) {
			pl_name_classes(tr[k], secs[k].kind == SEC_NOOPT,
					&contested);
			pl_oopspec_calls(tr[k]);
			pl_repeated_pure_calls(&tr[k]);
			pl_pure_call_names(tr[k]);
			pl_arraycopy(&tr[k]);
			pl_virtual_refs(&tr[k]);
			pl_forced_vrefs(&tr[k]);
			pl_str_slices(&tr[k]);
			pl_str_eq_calls(tr[k]);
			pl_str_char_compares(&tr[k]);
			pl_unused_pure_calls(&tr[k]);
			pl_float_div_pow2(tr[k]);
			pl_float_mul_one(tr[k]);
		}
	}
	pl_sizes_free(&contested);
	pl_name_numeric_classes(tr, ns);
	uint32_t nknown = 0;
	char **known = all_labels(tr, ns, &nknown);
	int32_t last_noopt = -1;
	for (uint32_t k = 0; k < ns; k++) {
		if (secs[k].kind == SEC_NOOPT) {
			last_noopt = (int32_t)k;
			continue;
		}
		if (last_noopt < 0) {
			out->unpaired++;
			continue;
		}
		pl_pair *p = &out->pairs[out->n++];
		section_id(&secs[k], k, p);
		p->line = secs[k].line - 1;
		uint32_t nk = (uint32_t)last_noopt;
		last_noopt = -1;
		if (perr[nk] || perr[k]) {
			p->error = strdup(perr[nk] ? perr[nk] : perr[k]);
			continue;
		}
		shape(p, tr[nk], tr[k], (const char *const *)known, nknown, o);
		uint32_t pk, g;
		if (parent_guard(p, secs, tr, k, &pk, &g)) {
			ent[k] = pl_entry_facts(tr[pk], g, ent[pk]);
			if (p->orig && ent[k]) {
				pl_bridge_facts(p, tr[pk], ent[k], o);
				lists_typed(p); /* the facts' list fields */
			}
		}
		/* Before the call effects, which then see the char form. */
		if (p->orig && (!o || !o->consts_unknown))
			pl_const_strings(p);
		/* Last: after the rewrites that turn calls into inputs, and
		 * after a bridge's facts, whose reads of fields are the
		 * optimized bridge's knowledge before its first call. */
		if (p->orig && (!o || !o->write_all)) {
			pl_call_effects(p);
			pl_dict_lookups(p);
		}
		/* A bridge's facts held on its recorded run too, and so did
		 * the fields its calls keep: with them the recording may
		 * prove more of its constants (an input the parent knew to
		 * be a field's value, promoted, and the field read again
		 * after a call that keeps it, promoted to another name; a
		 * module's locals and globals read again after a dict store
		 * and compared).  Only the facts not found before are
		 * added. */
		if (p->orig)
			pl_recorded_facts(p, recorded_end(p));
		/* Those facts may make two of ORIG's names one object, which
		 * the names of OPT can then be paired with by order
		 * (elo_ratings' bridge: a map checked again after a call). */
		if (p->orig && (!o || !o->apart))
			pl_same_ptrs(p, recorded_end(p));
		/* After the names are one: an optimized constant alone
		 * where the original reads a constant's memory (an
		 * identity read from that memory). */
		if (p->orig && (!o || (!o->apart && !o->consts_unknown)))
			pl_folded_reads(p, recorded_end(p));
		/* After the recorded facts, which may state a constant's
		 * class: such a constant is left alone. */
		if (p->orig && (!o || !o->consts_unknown)) {
			pl_const_concats(p);
			pl_const_classes(p);
		}
		if (p->orig)
			pl_class_outputs(p);
	}
	for (uint32_t k = 0; k < ns; k++) {
		pl_entry_free(ent[k]);
		ir_trace_free(tr[k]);
		free(perr[k]);
	}
	for (uint32_t i = 0; i < nknown; i++)
		free(known[i]);
	free(known);
	free(tr);
	free(perr);
	free(ent);
	free(secs);
	return JP_OK;
}

jp_status pl_read(const char *path, const pl_opts *o, pl_log *out, jp_err *err)
{
	char *text;
	size_t len;
	memset(out, 0, sizeof *out);
	jp_status st = ir_read_file(path, &text, &len, err);
	if (st)
		return st;
	st = pl_read_text(text, len, path, o, out, err);
	free(text);
	return st;
}

void pl_free(pl_log *log)
{
	for (uint32_t i = 0; i < log->n; i++) {
		ir_trace_free(log->pairs[i].orig);
		ir_trace_free(log->pairs[i].opt);
		free(log->pairs[i].reason);
		free(log->pairs[i].error);
		free(log->pairs[i].rec_keys);
	}
	free(log->pairs);
	memset(log, 0, sizeof *log);
}
