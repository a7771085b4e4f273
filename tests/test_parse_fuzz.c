/* Robustness: 10,000 random and mutated byte strings through the parser.
 * Each must parse or fail with a located error; a parsed one must print
 * and reparse to the same text.  Run under ASan+UBSan by the asan preset
 * to catch memory errors and leaks. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/parse.h"
#include "ir/print.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static const char *const seeds[] = {
    "[i0, i1]\ni2 = int_add(i0, 10)\ni3 = int_lt(i2, 15)\n"
    "guard_true(i3, descr=g0) [i0]\ni4 = int_add_ovf(i0, i1)\n"
    "guard_no_overflow()\nfinish(i2, i4)\n",
    "[p0, i1]\np2 = new_with_vtable(descr=Box)\n"
    "setfield_gc(p2, i1, descr=value)\ni3 = getfield_gc_i(p2, descr=value)\n"
    "guard_class(p0, ConstClass(Box)) [p0, None]\nescape_n(p2)\njump(p0, i3)\n",
    "var0 = getarg(0)\nobj0 = alloc()\nstore(obj0, 0, var0)\n"
    "var1 = load(obj0, 0)\nprint(var1)\n",
    "+10: label(p0, descr=TargetToken(1))\n"
    "debug_merge_point(0, 0, '<code> #1 (x)')\n[p0]\n--end of the loop--\n",
};

static const char *const tokens[] = {
    "(",	   ")",
    "[",	   "]",
    ",",	   "=",
    "descr=",	   "<",
    ">",	   "#",
    "\n",	   " ",
    "i0",	   "p1",
    "None",	   "NULL",
    "ConstInt(",   "ConstPtr(",
    "ConstClass(", "int_add",
    "guard_true",  "finish",
    "jump",	   "-",
    "0x",	   "99999999999999999999",
    "getarg",	   "alloc",
    "store",	   "load",
    "'",	   "\0",
    "\xff",	   "+3:",
    "label",
};

static void check_one(const char *buf, size_t len, bool opaque)
{
	ir_parse_opts o = {.width = (int)(8u << (next() % 4)),
			   .opaque = opaque};
	ir_trace *t = NULL;
	jp_err e;
	jp_err_clear(&e);
	jp_status st = ir_parse(buf, len, &o, &t, &e);
	if (st) {
		CHECK(t == NULL);
		CHECK(e.msg[0] != '\0');
		CHECK(st == JP_EINPUT);
		return;
	}
	strbuf a, b;
	sb_init(&a);
	sb_init(&b);
	ir_print(t, &a);
	ir_trace *t2 = NULL;
	CHECK(ir_parse(a.buf, a.len, &o, &t2, &e) == JP_OK);
	if (t2) {
		ir_print(t2, &b);
		CHECK(a.len == b.len && memcmp(a.buf, b.buf, a.len) == 0);
	}
	sb_release(&a);
	sb_release(&b);
	ir_trace_free(t);
	ir_trace_free(t2);
}

static size_t mutate(char *buf, size_t len, size_t cap)
{
	int edits = (int)(next() % 3);
	for (int k = 0; k < edits; k++) {
		size_t pos = len ? (size_t)(next() % len) : 0;
		switch (next() % 4) {
		case 0: /* flip a byte */
			if (len)
				buf[pos] = (char)next();
			break;
		case 1: /* delete a range */
			if (len) {
				size_t n = 1 + (size_t)(next() % 8);
				if (n > len - pos)
					n = len - pos;
				memmove(buf + pos, buf + pos + n,
					len - pos - n);
				len -= n;
			}
			break;
		default: { /* insert a token */
			const char *tok =
			    tokens[next() % (sizeof tokens / sizeof *tokens)];
			size_t n = strlen(tok) ? strlen(tok) : 1;
			if (len + n >= cap)
				break;
			memmove(buf + pos + n, buf + pos, len - pos);
			memcpy(buf + pos, tok, n);
			len += n;
		}
		}
	}
	return len;
}

int main(void)
{
	enum { CAP = 4096 };
	char *buf = malloc(CAP);
	int parsed = 0;
	for (int i = 0; i < 10000; i++) {
		size_t len;
		if (i % 4 == 0) { /* random bytes */
			len = (size_t)(next() % 200);
			for (size_t k = 0; k < len; k++)
				buf[k] = (char)next();
		} else { /* mutated seed */
			const char *s =
			    seeds[next() % (sizeof seeds / sizeof *seeds)];
			len = strlen(s);
			memcpy(buf, s, len);
			len = mutate(buf, len, CAP);
		}
		ir_parse_opts o = {0};
		ir_trace *t = NULL;
		if (ir_parse(buf, len, &o, &t, NULL) == JP_OK)
			parsed++;
		ir_trace_free(t);
		check_one(buf, len, (i & 1) != 0);
	}
	free(buf);
	printf("parsed %d of 10000 inputs\n", parsed);
	CHECK(parsed > 100); /* mutations keep many inputs valid */
	return check_summary("test_parse_fuzz");
}
