/*
 * parse.c - reads PyPy's trace syntax and the toy spelling into the IR.
 *
 * The syntax is line based: one statement per line.  The parser works in
 * two steps.  First each line is cut into a small syntax record (the
 * statement's shape, its names and literals, with their columns); then the
 * records are turned into IR, which needs the whole file for the toy
 * spelling (there, whether a value is a reference is only known from its
 * uses).  Finally ir_validate checks the result.  Every error carries the
 * line and column of the offending token.
 */
#include "parse.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pypyops.h"
#include "sem.h"
#include "validate.h"

/* The longest piece of input quoted in a message (a 5,000-digit
 * constant is shown by its start). */
enum { ECHO_MAX = 40 };

/* ---------- syntax records ---------- */

typedef enum arg_tag {
	A_NAME,	 /* a variable */
	A_INT,	 /* integer literal (also ConstInt(n)) */
	A_NULL,	 /* NULL */
	A_NONE,	 /* None (fail-args only) */
	A_PTR,	 /* ConstPtr(name) */
	A_CLASS, /* ConstClass(name) */
	A_RAW,	 /* anything else inside debug_merge_point */
} arg_tag;

typedef struct syn_arg {
	arg_tag tag;
	const char *text; /* name, literal text, or raw text */
	uint32_t len;
	int col;
	uint64_t ival; /* A_INT: value truncated to W bits */
} syn_arg;

typedef struct syn_stmt {
	int line, col;	 /* start of the statement */
	bool inputs;	 /* an inputs line [i0, p1] */
	const char *res; /* result name or NULL */
	uint32_t reslen;
	int rescol;
	const char *op; /* op name */
	uint32_t oplen;
	int opcol;
	syn_arg *args;
	uint32_t nargs;
	const char *descr; /* descr= text or NULL */
	uint32_t descrlen;
	int descrcol;
	bool has_fail;
	syn_arg *fail;
	uint32_t nfail;
	const char *raw; /* debug_merge_point: raw argument text */
	uint32_t rawlen;
	const char *rule; /* "# rule: NAME" comment: NAME, or NULL */
	uint32_t rulelen;
} syn_stmt;

typedef struct parser {
	const char *file;
	const char *src, *end;
	int width;
	bool opaque;
	arena A; /* syntax records, freed at the end */
	syn_stmt *stmts;
	uint32_t nstmts, capstmts;
	jp_err *err;
	/* line being scanned */
	const char *p, *eol;
	const char *linestart;
	int line;
} parser;

static int colof(const parser *ps, const char *at)
{
	return (int)(at - ps->linestart) + 1;
}

/* Describes the text at AT for "found ..." in messages. */
static void found_text(const parser *ps, const char *at, char *buf, size_t size)
{
	if (at >= ps->eol || *at == '\n' || *at == '\r') {
		snprintf(buf, size, "end of line");
		return;
	}
	size_t n = 0;
	while (at + n < ps->eol && n < 24 && at[n] != '\n')
		n++;
	char tmp[40];
	size_t k = 0;
	for (size_t i = 0; i < n && k + 5 < sizeof tmp; i++) {
		unsigned char c = (unsigned char)at[i];
		if (c >= 0x20 && c < 0x7f) {
			tmp[k++] = (char)c;
		} else {
			snprintf(tmp + k, sizeof tmp - k, "\\x%02x", c);
			k += 4;
		}
	}
	tmp[k] = '\0';
	snprintf(buf, size, "'%s'", tmp);
}

static jp_status fail_at(parser *ps, const char *at, const char *expected)
{
	char found[64];
	found_text(ps, at, found, sizeof found);
	return jp_fail_at(ps->err, JP_EINPUT, ps->file, ps->line, colof(ps, at),
			  "expected %s, found %s", expected, found);
}

/* Bytes of UTF-8 sequences count as letters: PyPy names may be unicode. */
static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (unsigned char)c >= 0x80;
}

static bool is_ident(char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9') || c == '.' ||
	       c == '$';
}

static void skip_ws(parser *ps)
{
	while (ps->p < ps->eol && (*ps->p == ' ' || *ps->p == '\t'))
		ps->p++;
}

static bool at_end_of_stmt(parser *ps)
{
	skip_ws(ps);
	return ps->p >= ps->eol || *ps->p == '#';
}

static bool eat(parser *ps, char c)
{
	skip_ws(ps);
	if (ps->p < ps->eol && *ps->p == c) {
		ps->p++;
		return true;
	}
	return false;
}

static jp_status expect(parser *ps, char c, const char *what)
{
	if (eat(ps, c))
		return JP_OK;
	return fail_at(ps, ps->p, what);
}

static bool ident(parser *ps, const char **s, uint32_t *len)
{
	skip_ws(ps);
	if (ps->p >= ps->eol || !is_ident_start(*ps->p))
		return false;
	const char *b = ps->p;
	while (ps->p < ps->eol && is_ident(*ps->p))
		ps->p++;
	*s = b;
	*len = (uint32_t)(ps->p - b);
	return true;
}

static bool word_is(const char *s, uint32_t len, const char *w)
{
	return strlen(w) == len && memcmp(s, w, len) == 0;
}

/* Reads an integer literal (decimal or 0x hex, optional sign) that must fit
 * in W bits as a signed or unsigned number. */
static jp_status int_literal(parser *ps, syn_arg *a)
{
	const char *b = ps->p;
	const char *q = b;
	bool neg = false;
	if (q < ps->eol && (*q == '-' || *q == '+'))
		neg = *q++ == '-';
	int base = 10;
	if (q + 1 < ps->eol && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		base = 16;
		q += 2;
	}
	uint64_t v = 0;
	const char *digits = q;
	bool over = false;
	for (; q < ps->eol; q++) {
		int d;
		char c = *q;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			break;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			over = true;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	if (q == digits)
		return fail_at(ps, b, "an integer literal");
	if (q < ps->eol && is_ident(*q))
		return fail_at(ps, b, "an integer literal");
	int w = ps->width;
	uint64_t umax = sem_allones(w);
	uint64_t nmax = sem_minint(w); /* magnitude of MININT */
	if (over || (!neg && v > umax) || (neg && v > nmax)) {
		/* A literal of thousands of digits is shown by its start. */
		int n = (int)(q - b), shown = n > ECHO_MAX ? ECHO_MAX - 3 : n;
		return jp_fail_at(ps->err, JP_EINPUT, ps->file, ps->line,
				  colof(ps, b),
				  "expected an integer that fits in %d bits, "
				  "found '%.*s%s' (%d characters)",
				  w, shown, b, shown < n ? "..." : "", n);
	}
	a->tag = A_INT;
	a->text = b;
	a->len = (uint32_t)(q - b);
	a->col = colof(ps, b);
	a->ival = sem_mask(w, neg ? 0 - v : v);
	ps->p = q;
	return JP_OK;
}

/* NAME(...) wrappers: ConstInt(5), ConstPtr(p), ConstClass(T). */
static jp_status wrapped(parser *ps, syn_arg *a, arg_tag tag)
{
	jp_status st = expect(ps, '(', "'('");
	if (st)
		return st;
	skip_ws(ps);
	if (tag == A_INT) {
		st = int_literal(ps, a);
	} else {
		const char *s = ps->p;
		uint32_t len = 0;
		/* Class constants in real logs may be addresses. */
		while (s + len < ps->eol && is_ident(s[len]))
			len++;
		if (len == 0)
			return fail_at(ps, ps->p, "a name");
		ps->p += len;
		a->tag = tag;
		a->text = s;
		a->len = len;
	}
	if (st)
		return st;
	return expect(ps, ')', "')'");
}

/* The end of a decimal float literal at P ("1.5", "-2e10", "0.25E-3"),
 * or NULL when the text there is not one (an integer has no '.' and no
 * exponent). */
static const char *float_end(const parser *ps, const char *p)
{
	const char *q = p;
	if (q < ps->eol && (*q == '-' || *q == '+'))
		q++;
	const char *d = q;
	while (q < ps->eol && *q >= '0' && *q <= '9')
		q++;
	bool frac = q < ps->eol && *q == '.';
	if (q == d || (q + 1 < ps->eol && q[0] == '0' && q[1] == 'x'))
		return NULL;
	if (frac)
		for (q++; q < ps->eol && *q >= '0' && *q <= '9'; q++)
			;
	bool exp = q < ps->eol && (*q == 'e' || *q == 'E');
	if (exp) {
		q++;
		if (q < ps->eol && (*q == '-' || *q == '+'))
			q++;
		const char *e = q;
		while (q < ps->eol && *q >= '0' && *q <= '9')
			q++;
		if (q == e)
			return NULL;
	}
	return frac || exp ? q : NULL;
}

/* A float literal is not modelled as a number: it stands for its IEEE
 * 754 double bit pattern, an integer constant (docs/pypy.md, "Floats"). */
static jp_status float_literal(parser *ps, syn_arg *a, const char *q)
{
	char buf[64];
	size_t n = (size_t)(q - ps->p);
	if (n >= sizeof buf)
		return fail_at(ps, ps->p,
			       "a float literal of under 64 characters");
	memcpy(buf, ps->p, n);
	buf[n] = '\0';
	double d = strtod(buf, NULL);
	uint64_t bits;
	memcpy(&bits, &d, sizeof bits);
	a->tag = A_INT;
	a->text = ps->p;
	a->len = (uint32_t)n;
	a->col = colof(ps, ps->p);
	a->ival = sem_mask(ps->width, bits);
	ps->p = q;
	return JP_OK;
}

static jp_status parse_arg(parser *ps, syn_arg *a, bool failargs)
{
	skip_ws(ps);
	memset(a, 0, sizeof *a);
	a->col = colof(ps, ps->p);
	const char *c = ps->p;
	const char *fe = float_end(ps, c);
	if (fe)
		return float_literal(ps, a, fe);
	if (c < ps->eol && (*c == '-' || *c == '+' || (*c >= '0' && *c <= '9')))
		return int_literal(ps, a);
	const char *s;
	uint32_t len;
	if (!ident(ps, &s, &len))
		return fail_at(ps, c,
			       failargs ? "a value or None"
					: "a value (name or constant)");
	if (word_is(s, len, "ConstInt"))
		return wrapped(ps, a, A_INT);
	if (word_is(s, len, "ConstPtr"))
		return wrapped(ps, a, A_PTR);
	if (word_is(s, len, "ConstClass"))
		return wrapped(ps, a, A_CLASS);
	a->text = s;
	a->len = len;
	if (word_is(s, len, "NULL")) {
		a->tag = A_NULL;
	} else if (word_is(s, len, "None")) {
		if (!failargs)
			return jp_fail_at(
			    ps->err, JP_EINPUT, ps->file, ps->line, a->col,
			    "expected a value, found 'None' "
			    "(None is only allowed in fail-args)");
		a->tag = A_NONE;
	} else {
		a->tag = A_NAME;
	}
	return JP_OK;
}

/* descr= values: a name, possibly with a balanced (...) suffix
 * (TargetToken(1234)), or a balanced <...> form (<Guard0x7f12>). */
static jp_status parse_descr(parser *ps, syn_stmt *st)
{
	skip_ws(ps);
	const char *b = ps->p;
	st->descrcol = colof(ps, b);
	if (ps->p < ps->eol && *ps->p == '<') {
		int depth = 0;
		while (ps->p < ps->eol) {
			char c = *ps->p++;
			if (c == '<')
				depth++;
			else if (c == '>' && --depth == 0)
				break;
		}
		if (depth != 0)
			return jp_fail_at(ps->err, JP_EINPUT, ps->file,
					  ps->line, colof(ps, b),
					  "expected '>' closing the descr that "
					  "starts here, found end of line");
	} else {
		const char *s;
		uint32_t len;
		if (!ident(ps, &s, &len) &&
		    !(ps->p < ps->eol && *ps->p >= '0' && *ps->p <= '9'))
			return fail_at(ps, ps->p,
				       "a descr name after 'descr='");
		while (ps->p < ps->eol && is_ident(*ps->p))
			ps->p++;
		if (ps->p < ps->eol && *ps->p == '(') {
			int depth = 0;
			while (ps->p < ps->eol) {
				char c = *ps->p++;
				if (c == '(')
					depth++;
				else if (c == ')' && --depth == 0)
					break;
			}
			if (depth != 0)
				return fail_at(ps, ps->p,
					       "')' closing the descr");
		}
	}
	st->descr = b;
	st->descrlen = (uint32_t)(ps->p - b);
	return JP_OK;
}

static syn_arg *grow_args(parser *ps, syn_arg *old, uint32_t n)
{
	/* Grow by doubling at powers of two; arena waste is bounded. */
	if (n == 0 || (n & (n - 1)) == 0)
		return arena_grow(&ps->A, old, n, n ? n * 2 : 4, sizeof *old);
	return old;
}

static jp_status arg_list(parser *ps, syn_arg **out, uint32_t *nout, char close,
			  bool failargs, syn_stmt *st)
{
	syn_arg *args = NULL;
	uint32_t n = 0;
	skip_ws(ps);
	if (eat(ps, close)) {
		*out = NULL;
		*nout = 0;
		return JP_OK;
	}
	for (;;) {
		skip_ws(ps);
		const char *s = ps->p;
		uint32_t len;
		if (st && ident(ps, &s, &len) && word_is(s, len, "descr")) {
			if (st->descr)
				return fail_at(ps, s, "one descr= only");
			jp_status e = expect(ps, '=', "'=' after descr");
			if (!e)
				e = parse_descr(ps, st);
			if (e)
				return e;
		} else {
			ps->p = s;
			if (st && st->descr)
				return fail_at(ps, s, "')' after descr=");
			syn_arg *g = grow_args(ps, args, n);
			if (!g)
				return jp_fail(ps->err, JP_ENOMEM,
					       "out of memory");
			args = g;
			jp_status e = parse_arg(ps, &args[n], failargs);
			if (e)
				return e;
			n++;
		}
		if (eat(ps, close))
			break;
		if (!eat(ps, ',')) {
			char what[32];
			snprintf(what, sizeof what, "',' or '%c'", close);
			return fail_at(ps, ps->p, what);
		}
	}
	*out = args;
	*nout = n;
	return JP_OK;
}

/* debug_merge_point(...) keeps its raw argument text; strings may contain
 * anything, including '#', ')' and commas. */
static jp_status raw_args(parser *ps, syn_stmt *st)
{
	const char *b = ps->p;
	int depth = 1;
	char quote = 0;
	while (ps->p < ps->eol) {
		char c = *ps->p;
		if (quote) {
			if (c == '\\' && ps->p + 1 < ps->eol)
				ps->p++;
			else if (c == quote)
				quote = 0;
		} else if (c == '\'' || c == '"') {
			quote = c;
		} else if (c == '(') {
			depth++;
		} else if (c == ')' && --depth == 0) {
			break;
		}
		ps->p++;
	}
	if (depth != 0)
		return fail_at(ps, ps->p, "')' closing debug_merge_point");
	st->raw = b;
	st->rawlen = (uint32_t)(ps->p - b);
	ps->p++;
	return JP_OK;
}

static jp_status push_stmt(parser *ps, const syn_stmt *st)
{
	if (ps->nstmts == ps->capstmts) {
		uint32_t cap = ps->capstmts ? ps->capstmts * 2 : 64;
		syn_stmt *n =
		    arena_grow(&ps->A, ps->stmts, ps->nstmts, cap, sizeof *n);
		if (!n)
			return jp_fail(ps->err, JP_ENOMEM, "out of memory");
		ps->stmts = n;
		ps->capstmts = cap;
	}
	ps->stmts[ps->nstmts++] = *st;
	return JP_OK;
}

static bool starts_with(const char *p, const char *end, const char *w)
{
	size_t n = strlen(w);
	return (size_t)(end - p) >= n && memcmp(p, w, n) == 0;
}

/* Real logs wrap traces in "[5ed3b1a8c93] {jit-log-opt-loop" lines. */
static bool is_log_header(parser *ps)
{
	const char *q = ps->p + 1;
	while (q < ps->eol &&
	       ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f')))
		q++;
	if (q == ps->p + 1 || q >= ps->eol || *q != ']')
		return false;
	q++;
	while (q < ps->eol && *q == ' ')
		q++;
	return q < ps->eol && (*q == '{' || is_ident_start(*q));
}

/* An optimizer's trace comment "# rule: NAME" at the end of an op's line
 * names the rule that made the op (docs/optimizer.md, "Rules"); other comments
 * are ignored.  PS->p is at the end of the statement. */
static void rule_comment(parser *ps, syn_stmt *st)
{
	static const char tag[] = "rule:";
	const char *p = ps->p;
	if (p >= ps->eol || *p != '#')
		return;
	for (p++; p < ps->eol && (*p == ' ' || *p == '\t'); p++)
		;
	if ((size_t)(ps->eol - p) < sizeof tag - 1 ||
	    memcmp(p, tag, sizeof tag - 1))
		return;
	for (p += sizeof tag - 1; p < ps->eol && (*p == ' ' || *p == '\t'); p++)
		;
	const char *s = p;
	while (p < ps->eol && (is_ident(*p) || *p == '-' || *p == '+'))
		p++;
	if (p > s) {
		st->rule = s;
		st->rulelen = (uint32_t)(p - s);
	}
}

static jp_status parse_line(parser *ps)
{
	syn_stmt st;
	memset(&st, 0, sizeof st);
	skip_ws(ps);
	/* "+123: op(...)" offsets in real logs */
	if (ps->p < ps->eol && *ps->p == '+') {
		const char *q = ps->p + 1;
		while (q < ps->eol && *q >= '0' && *q <= '9')
			q++;
		if (q > ps->p + 1 && q < ps->eol && *q == ':')
			ps->p = q + 1;
	}
	if (at_end_of_stmt(ps))
		return JP_OK;
	if (starts_with(ps->p, ps->eol, "--end of the loop--"))
		return JP_OK;
	st.line = ps->line;
	st.col = colof(ps, ps->p);
	if (*ps->p == '[') {
		if (is_log_header(ps))
			return JP_OK;
		ps->p++;
		st.inputs = true;
		jp_status e =
		    arg_list(ps, &st.args, &st.nargs, ']', false, NULL);
		if (e)
			return e;
	} else {
		const char *s;
		uint32_t len;
		if (!ident(ps, &s, &len))
			return fail_at(ps, ps->p, "an operation or '['");
		int col = colof(ps, s);
		if (eat(ps, '=')) {
			st.res = s;
			st.reslen = len;
			st.rescol = col;
			if (!ident(ps, &s, &len))
				return fail_at(ps, ps->p,
					       "an operation name after '='");
			col = colof(ps, s);
		}
		st.op = s;
		st.oplen = len;
		st.opcol = col;
		jp_status e = expect(ps, '(', "'(' after the operation name");
		if (e)
			return e;
		if (word_is(s, len, "debug_merge_point"))
			e = raw_args(ps, &st);
		else
			e = arg_list(ps, &st.args, &st.nargs, ')', false, &st);
		if (e)
			return e;
		if (eat(ps, '[')) {
			st.has_fail = true;
			e = arg_list(ps, &st.fail, &st.nfail, ']', true, NULL);
			if (e)
				return e;
		}
		/* PyPy's own parser ignores text after the closing ')' or
		 * ']' (annotations some tools add); so do we, except a
		 * "# rule:" comment. */
		while (!at_end_of_stmt(ps))
			ps->p++;
	}
	if (!at_end_of_stmt(ps))
		return fail_at(ps, ps->p, "end of line or '#' comment");
	rule_comment(ps, &st);
	return push_stmt(ps, &st);
}

static jp_status scan(parser *ps)
{
	const char *p = ps->src;
	ps->line = 0;
	while (p < ps->end) {
		const char *eol = memchr(p, '\n', (size_t)(ps->end - p));
		if (!eol)
			eol = ps->end;
		ps->line++;
		ps->linestart = ps->p = p;
		ps->eol = eol;
		if (eol > p && eol[-1] == '\r')
			ps->eol = eol - 1;
		const char *nul = memchr(p, '\0', (size_t)(ps->eol - p));
		if (nul)
			return fail_at(ps, nul, "text");
		jp_status e = parse_line(ps);
		if (e)
			return e;
		p = eol + 1;
	}
	return JP_OK;
}

/* ---------- building the IR ---------- */

typedef struct namemap {
	uint32_t *slots; /* string id -> vid + 1, 0 = undefined */
	uint32_t cap;
} namemap;

typedef struct builder {
	parser *ps;
	ir_trace *t;
	namemap names;
	bool toy;
	uint32_t *refnames; /* toy: string ids used in reference positions */
	uint32_t nrefnames, caprefnames;
	uint32_t nguards;
} builder;

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

/* Emits OPC(ARGS) with descr "<descr>SUFFIX" and result name RES (or
 * none); returns its op index or UINT32_MAX. */
static uint32_t emit_field(builder *b, const syn_stmt *st, ir_opcode opc,
			   const ir_vid *args, uint32_t nargs, const char *sfx)
{
	char d[300];
	snprintf(d, sizeof d, "%.*s%s", (int)st->descrlen,
		 st->descr ? st->descr : "array", sfx);
	char *nm =
	    st->res ? arena_strndup(&b->ps->A, st->res, st->reslen) : NULL;
	uint32_t opi = ir_emit(b->t, opc, nargs, args, ir_cstr(b->t, d), nm);
	if (opi != UINT32_MAX) {
		b->t->ops[opi].line = st->line;
		b->t->ops[opi].col = st->col;
	}
	return opi;
}

/* GC arrays as heap objects (ir/pypyops.def): *DONE stays false for an
 * item at a variable index, which is then read as an opaque call. */
static jp_status pypy_array(builder *b, syn_stmt *st, const ir_pyop *py,
			    bool *done)
{
	uint32_t want = py->act == IR_PY_ASET	? 3
			: py->act == IR_PY_AGET ? 2
						: 1;
	if (st->nargs != want)
		return err_at(b, st->line, st->opcol,
			      "'%.*s' takes another number of arguments",
			      st->op, st->oplen);
	if ((py->act == IR_PY_AGET || py->act == IR_PY_ASET) &&
	    st->args[1].tag != A_INT)
		return JP_OK;
	*done = true;
	ir_vid a[3];
	jp_status e;
	char sfx[40] = ".length";
	if (py->act == IR_PY_AGET || py->act == IR_PY_ASET)
		snprintf(sfx, sizeof sfx, "[%" PRIu64 "]", st->args[1].ival);
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
		opi = emit_field(b, &anon, IR_SETFIELD_GC, a, 2, sfx);
		break;
	case IR_PY_ALEN:
	case IR_PY_AGET:
		if ((e = resolve_arg(b, st, &st->args[0], 'r', &a[0])))
			return e;
		opi = emit_field(b, st,
				 py->kind == 'r' ? IR_GETFIELD_GC_R
						 : IR_GETFIELD_GC_I,
				 a, 1, sfx);
		if (opi != UINT32_MAX && st->res)
			return define(b, st->res, st->reslen,
				      b->t->ops[opi].result, st->line,
				      st->rescol);
		break;
	default:
		if ((e = resolve_arg(b, st, &st->args[0], 'r', &a[0])) ||
		    (e = resolve_arg(b, st, &st->args[2], 'a', &a[1])))
			return e;
		opi = emit_field(b, st, IR_SETFIELD_GC, a, 2, sfx);
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

static jp_status build(builder *b)
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

/* The UTF-8 byte order mark some editors put at the start of a file. */
static size_t bom_len(const char *text, size_t len)
{
	return len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
}

jp_status ir_parse(const char *text, size_t len, const ir_parse_opts *opts,
		   ir_trace **out, jp_err *err)
{
	*out = NULL;
	size_t bom = bom_len(text, len); /* columns count from after it */
	text += bom;
	len -= bom;
	parser ps;
	memset(&ps, 0, sizeof ps);
	ps.file = opts && opts->file ? opts->file : "<input>";
	ps.src = text;
	ps.end = text + len;
	ps.width = opts && opts->width ? opts->width : 64;
	ps.opaque = opts && opts->opaque;
	ps.err = err;
	arena_init(&ps.A);
	if (ps.width != 8 && ps.width != 16 && ps.width != 32 &&
	    ps.width != 64) {
		arena_free(&ps.A);
		return jp_fail(err, JP_EINPUT,
			       "expected width 8, 16, 32 or 64, found %d",
			       ps.width);
	}
	jp_status e = scan(&ps);
	builder b;
	memset(&b, 0, sizeof b);
	b.ps = &ps;
	if (!e) {
		b.t = ir_trace_new(ps.width);
		e = b.t ? build(&b) : jp_fail(err, JP_ENOMEM, "out of memory");
	}
	if (!e && b.t->nops == 0)
		e = jp_fail_at(err, JP_EINPUT, ps.file, 1, 1,
			       "expected a trace, found no operations");
	if (!e)
		e = ir_validate(b.t, ps.file, err);
	free(b.names.slots);
	free(b.refnames);
	arena_free(&ps.A);
	if (e) {
		ir_trace_free(b.t);
		return e;
	}
	*out = b.t;
	return JP_OK;
}

jp_status ir_read_file(const char *path, char **text, size_t *len, jp_err *err)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f)
		return jp_fail_at(err, JP_EINPUT, path, 0, 0, "cannot open: %s",
				  strerror(errno));
	struct stat st;
	if (f != stdin && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return jp_fail_at(err, JP_EINPUT, path, 0, 0,
				  "expected a trace file, found a directory");
	}
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
	}
	bool bad = ferror(f);
	int e = errno;
	if (f != stdin)
		fclose(f);
	if (!buf)
		return jp_fail(err, JP_ENOMEM, "out of memory reading %s",
			       path);
	if (bad) {
		free(buf);
		return jp_fail_at(err, JP_EIO, path, 0, 0, "read error: %s",
				  strerror(e));
	}
	size_t bom = bom_len(buf, n); /* so '# args:' on line 1 is seen */
	memmove(buf, buf + bom, n - bom);
	n -= bom;
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return JP_OK;
}

jp_status ir_parse_file(const char *path, const ir_parse_opts *opts,
			ir_trace **out, jp_err *err)
{
	char *text;
	size_t len;
	*out = NULL;
	jp_status e = ir_read_file(path, &text, &len, err);
	if (e)
		return e;
	ir_parse_opts o = opts ? *opts : (ir_parse_opts){0};
	if (!o.file)
		o.file = path;
	e = ir_parse(text, len, &o, out, err);
	free(text);
	return e;
}

bool ir_args_comment(const char *text, size_t len, char *buf, size_t size)
{
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		const char *q = p;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		if (q < eol && *q == '#') {
			q++;
			while (q < eol && *q == ' ')
				q++;
			if (eol - q >= 5 && !memcmp(q, "args:", 5)) {
				q += 5;
				size_t k = 0;
				for (; q < eol && k + 1 < size; q++)
					if (*q != ' ' && *q != '\t' &&
					    *q != '\r')
						buf[k++] = *q;
				buf[k] = '\0';
				return true;
			}
		}
		p = eol + 1;
	}
	return false;
}
