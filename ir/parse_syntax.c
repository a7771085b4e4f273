/*
 * parse_syntax.c - the parser's first step: each line of a trace cut into
 * a syntax record (the statement's shape, its names and literals, with
 * their columns), without knowing what the ops mean (parse_int.h).
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
 * 754 double bit pattern, an integer constant (docs/pypy.md, "Floats").
 * PyPy's logs print a large double in full, "%f" style: DBL_MAX is 309
 * digits before the point and six after, so 400 characters hold any. */
static jp_status float_literal(parser *ps, syn_arg *a, const char *q)
{
	char buf[400];
	size_t n = (size_t)(q - ps->p);
	if (n >= sizeof buf)
		return fail_at(ps, ps->p,
			       "a float literal of under 400 characters");
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
		/* The fields the PyPy vocabulary makes of an array descr
		 * ("<ArrayS 8>.length", "<ArrayP 8>[3]"), as printed. */
		while (ps->p < ps->eol && (*ps->p == '.' || *ps->p == '[')) {
			if (*ps->p == '.') {
				ps->p++;
				while (ps->p < ps->eol && is_ident(*ps->p))
					ps->p++;
				continue;
			}
			const char *q = ps->p + 1;
			while (q < ps->eol && *q >= '0' && *q <= '9')
				q++;
			if (q == ps->p + 1 || q >= ps->eol || *q != ']')
				return fail_at(ps, ps->p,
					       "an index and ']' after '['");
			ps->p = q + 1;
		}
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

jp_status prs_scan(parser *ps)
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
