/* The verifier against exhaustive enumeration at width 8: random pairs
 * (a generated trace and a mutated copy) and reordered guards; every
 * verdict is compared with the interpreter's ground truth
 * (test_check_util.h).
 *
 * Sections:
 *   random pairs against enumeration at width 8   the generator, printer
 *                                                  and mutations
 *   cross-validation                               test_cross_validation
 *   guard order                                    test_guard_order
 */
#define _POSIX_C_SOURCE 200809L
#include "test_check_util.h"

/* ---- random pairs against enumeration at width 8 ----------------------- */

typedef struct rng_t {
	uint64_t s;
} rng_t;

static uint64_t rnd(rng_t *r)
{
	uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static uint32_t pick(rng_t *r, uint32_t n)
{
	return (uint32_t)(rnd(r) % n);
}

enum { MAXL = 40 };

typedef struct gline {
	char res[16]; /* result name or "" */
	char op[24];
	int nargs;
	char args[2][16];
	char label[16]; /* guard label or "" */
	int cls;	/* 0 bin, 1 un, 2 cmp, 3 guard, 4 ovf, 5 ovfguard */
} gline;

typedef struct gtrace {
	int ninputs;
	gline l[MAXL];
	int n;
	char out[2][16];
	int nout;
	bool jump;
} gtrace;

static const char *BIN[] = {
    "int_add",	  "int_sub",	   "int_mul",	 "int_and",	"int_or",
    "int_xor",	  "int_lshift",	   "int_rshift", "uint_rshift", "int_py_div",
    "int_py_mod", "uint_mul_high", "int_signext"};
static const char *UN[] = {"int_neg",	  "int_invert",	 "int_force_ge_zero",
			   "int_is_zero", "int_is_true", "same_as_i"};
static const char *CMP[] = {"int_lt",  "int_le", "int_gt",  "int_ge",
			    "int_eq",  "int_ne", "uint_lt", "uint_le",
			    "uint_gt", "uint_ge"};
static const char *OVF[] = {"int_add_ovf", "int_sub_ovf", "int_mul_ovf"};
static const char *CONSTS[] = {"0",   "1",  "-1", "2",	 "3",	"5",
			       "7",   "8",  "10", "15",	 "127", "-128",
			       "100", "-3", "64", "-100"};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static void pick_arg(rng_t *r, const gtrace *t, int upto, char *dst)
{
	/* Values defined before line UPTO: inputs and results.  Zeroed, so
	 * that the 16 bytes copied are all defined: mutate compares whole
	 * traces with memcmp. */
	char names[MAXL + 2][16] = {{0}};
	int n = 0;
	for (int i = 0; i < t->ninputs; i++)
		snprintf(names[n++], 16, "i%d", i);
	for (int i = 0; i < upto; i++)
		if (t->l[i].res[0])
			memcpy(names[n++], t->l[i].res, 16);
	if (pick(r, 10) < 7)
		memcpy(dst, names[pick(r, (uint32_t)n)], 16);
	else
		snprintf(dst, 16, "%s", CONSTS[pick(r, NELEM(CONSTS))]);
}

static void gen_trace(rng_t *r, gtrace *t, int ninputs)
{
	memset(t, 0, sizeof *t);
	t->ninputs = ninputs;
	int nops = 2 + (int)pick(r, 7), next = ninputs, label = 0;
	for (int k = 0; k < nops && t->n < MAXL - 2; k++) {
		gline *g = &t->l[t->n];
		uint32_t kind = pick(r, 10);
		if (kind < 4) {
			g->cls = kind < 3 ? 0 : 1;
			snprintf(g->op, sizeof g->op, "%s",
				 g->cls ? UN[pick(r, NELEM(UN))]
					: BIN[pick(r, NELEM(BIN))]);
			g->nargs = g->cls ? 1 : 2;
		} else if (kind < 8) {
			g->cls = 2;
			snprintf(g->op, sizeof g->op, "%s",
				 CMP[pick(r, NELEM(CMP))]);
			g->nargs = 2;
		} else if (kind < 9) {
			g->cls = 4;
			snprintf(g->op, sizeof g->op, "%s",
				 OVF[pick(r, NELEM(OVF))]);
			g->nargs = 2;
		} else {
			g->cls = 3;
			snprintf(g->op, sizeof g->op, "guard_value");
			g->nargs = 2;
			pick_arg(r, t, t->n, g->args[0]);
			snprintf(g->args[1], 16, "%s",
				 CONSTS[pick(r, NELEM(CONSTS))]);
			snprintf(g->label, 16, "g%d", label++);
			t->n++;
			continue;
		}
		for (int a = 0; a < g->nargs; a++)
			pick_arg(r, t, t->n, g->args[a]);
		snprintf(g->res, 16, "i%d", next++);
		t->n++;
		if (g->cls == 2 && pick(r, 4) != 0) {
			gline *h = &t->l[t->n++];
			h->cls = 3;
			snprintf(h->op, sizeof h->op, "%s",
				 pick(r, 2) ? "guard_true" : "guard_false");
			h->nargs = 1;
			memcpy(h->args[0], g->res, 16);
			snprintf(h->label, 16, "g%d", label++);
		} else if (g->cls == 4) {
			gline *h = &t->l[t->n++];
			h->cls = 5;
			snprintf(h->op, sizeof h->op, "%s",
				 pick(r, 5) ? "guard_no_overflow"
					    : "guard_overflow");
			snprintf(h->label, 16, "g%d", label++);
		}
	}
	t->nout = 1 + (int)pick(r, 2);
	for (int j = 0; j < t->nout; j++)
		pick_arg(r, t, t->n, t->out[j]);
}

static void print_gtrace(const gtrace *t, bool labels, strbuf *sb)
{
	sb_putc(sb, '[');
	for (int i = 0; i < t->ninputs; i++)
		sb_printf(sb, i ? ", i%d" : "i%d", i);
	sb_puts(sb, "]\n");
	for (int i = 0; i < t->n; i++) {
		const gline *g = &t->l[i];
		if (g->res[0])
			sb_printf(sb, "%s = ", g->res);
		sb_printf(sb, "%s(", g->op);
		for (int a = 0; a < g->nargs; a++)
			sb_printf(sb, a ? ", %s" : "%s", g->args[a]);
		if (g->label[0] && labels)
			sb_printf(sb, "%sdescr=%s", g->nargs ? ", " : "",
				  g->label);
		sb_puts(sb, ")\n");
	}
	sb_puts(sb, t->jump ? "jump(" : "finish(");
	for (int j = 0; j < t->nout; j++)
		sb_printf(sb, j ? ", %s" : "%s", t->out[j]);
	sb_puts(sb, ")\n");
}

static void delete_line(gtrace *t, int i)
{
	memmove(&t->l[i], &t->l[i + 1],
		(size_t)(t->n - i - 1) * sizeof t->l[0]);
	t->n--;
}

/* One mutation, as an optimizer bug (or a correct rewrite) might do. */
static void mutate_once(rng_t *r, gtrace *t)
{
	if (t->n == 0)
		return;
	int i = (int)pick(r, (uint32_t)t->n);
	gline *g = &t->l[i];
	switch (pick(r, 9)) {
	case 0: /* drop a guard (an ovf check becomes a plain op) */
		if (g->cls == 3) {
			delete_line(t, i);
		} else if (g->cls == 5) {
			gline *o = &t->l[i - 1];
			o->cls = 0;
			o->op[strlen(o->op) - 4] = 0; /* strip "_ovf" */
			delete_line(t, i);
		}
		break;
	case 1: /* another constant */
		for (int a = 0; a < g->nargs; a++)
			if (g->args[a][0] != 'i')
				snprintf(g->args[a], 16, "%s",
					 CONSTS[pick(r, NELEM(CONSTS))]);
		break;
	case 2: /* another op of the same class */
		if (g->cls == 0)
			snprintf(g->op, sizeof g->op, "%s",
				 BIN[pick(r, NELEM(BIN))]);
		else if (g->cls == 1)
			snprintf(g->op, sizeof g->op, "%s",
				 UN[pick(r, NELEM(UN))]);
		else if (g->cls == 2)
			snprintf(g->op, sizeof g->op, "%s",
				 CMP[pick(r, NELEM(CMP))]);
		break;
	case 3: /* flip a guard */
		if (!strcmp(g->op, "guard_true"))
			snprintf(g->op, sizeof g->op, "guard_false");
		else if (!strcmp(g->op, "guard_false"))
			snprintf(g->op, sizeof g->op, "guard_true");
		break;
	case 4: /* another output */
		pick_arg(r, t, t->n, t->out[pick(r, (uint32_t)t->nout)]);
		break;
	case 5: /* another argument */
		if (g->cls != 5 && g->nargs)
			pick_arg(r, t, i, g->args[pick(r, (uint32_t)g->nargs)]);
		break;
	case 6: /* swap the arguments (correct for commutative ops) */
		if (g->nargs == 2) {
			char tmp[16];
			memcpy(tmp, g->args[0], 16);
			memcpy(g->args[0], g->args[1], 16);
			memcpy(g->args[1], tmp, 16);
		}
		break;
	case 7: /* negate a comparison and flip its guard (correct) */
		if (g->cls == 3 && g->nargs == 1 && i > 0 &&
		    t->l[i - 1].cls == 2 &&
		    !strcmp(t->l[i - 1].res, g->args[0])) {
			static const char *neg[][2] = {{"int_lt", "int_ge"},
						       {"int_le", "int_gt"},
						       {"int_eq", "int_ne"},
						       {"uint_lt", "uint_ge"},
						       {"uint_le", "uint_gt"}};
			gline *c = &t->l[i - 1];
			for (size_t k = 0; k < NELEM(neg); k++)
				for (int s = 0; s < 2; s++)
					if (!strcmp(c->op, neg[k][s])) {
						snprintf(c->op, sizeof c->op,
							 "%s", neg[k][1 - s]);
						s = 2;
						k = NELEM(neg);
					}
			snprintf(g->op, sizeof g->op, "%s",
				 strcmp(g->op, "guard_true") ? "guard_true"
							     : "guard_false");
		}
		break;
	case 8: /* a new guard repeating an earlier condition (correct) */
		if (g->cls == 3 && t->n < MAXL - 1) {
			gline copy = *g;
			static unsigned fresh;
			snprintf(copy.label, 16, "n%u", fresh++ % 100000);
			t->l[t->n++] = copy;
		}
		break;
	}
}

/* Mutates until the trace changes (some mutations do not apply). */
static void mutate(rng_t *r, gtrace *t)
{
	gtrace before = *t;
	for (int tries = 0; tries < 20; tries++) {
		mutate_once(r, t);
		if (memcmp(&before, t, sizeof before))
			return;
	}
}

/* ---- cross-validation -------------------------------------------------- */

static void test_cross_validation(void)
{
	rng_t r = {UINT64_C(20240601)};
	int counts[3][2] = {{0, 0}, {0, 0}, {0, 0}}; /* mode x verdict */
	int total = 0, mismatches = 0;
	for (int k = 0; k < 1100; k++) {
		int ninputs = k % 10 < 8 ? 1 : 2;
		int mode = k % 11 == 0 ? 1 : (k % 11 == 5 ? 2 : 0);
		gtrace a, b;
		gen_trace(&r, &a, ninputs);
		b = a;
		int nm = (int)pick(&r, 10) < 1 ? 0 : 1 + (int)pick(&r, 2);
		for (int m = 0; m < nm; m++)
			mutate(&r, &b);
		if (pick(&r, 40) == 0)
			b.jump = true;
		strbuf sa, sb;
		sb_init(&sa);
		sb_init(&sb);
		print_gtrace(&a, true, &sa);
		print_gtrace(&b, mode != 2, &sb);
		ir_trace *ta = parse(sa.buf, 8), *tb = parse(sb.buf, 8);
		CHECK(ta && tb);
		if (ta && tb) {
			ver_opts o = test_opts();
			o.mode = mode == 1 ? VER_MODE_TRACE : VER_MODE_AUTO;
			o.screen_inputs = k % 3 == 0 ? 0 : 8;
			o.seed = (uint64_t)k;
			ver_result res;
			jp_err err;
			jp_status st = ver_check(C, ta, tb, &o, &res, &err);
			if (st)
				fprintf(stderr, "error: %s\n%s---\n%s", err.msg,
					sa.buf, sb.buf);
			CHECK(st == JP_OK);
			if (!st) {
				bool aligned = mode == 0;
				bool differ = differ_somewhere(ta, tb, aligned);
				bool ok = res.verdict ==
					  (differ ? VER_REFUTED : VER_PROVED);
				if (ok && differ)
					ok = behave_differently(
					    ta, tb, res.inputs, aligned);
				if (!ok) {
					mismatches++;
					fprintf(stderr,
						"mismatch: %s (mode %s), truth "
						"%s\n%s---\n%s",
						ver_verdict_name(res.verdict),
						ver_mode_name(res.mode_used),
						differ ? "differ" : "equal",
						sa.buf, sb.buf);
				}
				CHECK(ok);
				counts[mode][differ]++;
				total++;
				ver_result_free(&res);
			}
		}
		ir_trace_free(ta);
		ir_trace_free(tb);
		sb_release(&sa);
		sb_release(&sb);
	}
	printf("cross-validation: %d pairs (aligned %d equal / %d differ, "
	       "trace %d / %d, inferred %d / %d), %d mismatches\n",
	       total, counts[0][0], counts[0][1], counts[1][0], counts[1][1],
	       counts[2][0], counts[2][1], mismatches);
	CHECK(total >= 1000);
	/* Both verdicts must be well represented, or the test proves little. */
	CHECK(counts[0][0] >= 100 && counts[0][1] >= 100);
	CHECK(counts[1][0] >= 10 && counts[1][1] >= 10);
	CHECK(counts[2][0] >= 10 && counts[2][1] >= 10);
}

/* ---- guard order ------------------------------------------------------- */

/* Whether NAME (an argument) is an input or a result of a line before
 * UPTO: a line using it can move to UPTO. */
static bool defined_before(const gtrace *t, const char *name, int upto)
{
	if (name[0] != 'i')
		return true; /* a constant */
	for (int i = 0; i < upto; i++)
		if (!strcmp(t->l[i].res, name))
			return true;
	return atoi(name + 1) < t->ninputs;
}

/* Swaps two guards of T (a later one moved before an earlier one, both
 * with their labels); false when T has no pair that can be swapped. */
static bool swap_guards(rng_t *r, gtrace *t)
{
	int cand[MAXL][2], n = 0;
	for (int i = 0; i < t->n; i++)
		for (int j = i + 1; j < t->n; j++) {
			const gline *a = &t->l[i], *b = &t->l[j];
			if (a->cls != 3 || b->cls != 3)
				continue;
			bool ok = true;
			for (int k = 0; k < b->nargs; k++)
				ok &= defined_before(t, b->args[k], i);
			if (ok && n < MAXL) {
				cand[n][0] = i;
				cand[n][1] = j;
				n++;
			}
		}
	if (n == 0)
		return false;
	uint32_t c = pick(r, (uint32_t)n);
	gline tmp = t->l[cand[c][0]];
	t->l[cand[c][0]] = t->l[cand[c][1]];
	t->l[cand[c][1]] = tmp;
	return true;
}

/* Guards swapped by an "optimizer" (sometimes with another mutation): the
 * verdict must match the truth found by running every input at width 8,
 * and a counterexample must replay as a divergence of exit labels. */
static void test_guard_order(void)
{
	rng_t r = {UINT64_C(20261125)};
	int counts[2] = {0, 0}, total = 0;
	for (int k = 0; k < 4000 && total < 200; k++) {
		gtrace a, b;
		gen_trace(&r, &a, 1);
		b = a;
		if (!swap_guards(&r, &b))
			continue;
		if (pick(&r, 4) == 0)
			mutate(&r, &b);
		strbuf sa, sb;
		sb_init(&sa);
		sb_init(&sb);
		print_gtrace(&a, true, &sa);
		print_gtrace(&b, true, &sb);
		ir_trace *ta = parse(sa.buf, 8), *tb = parse(sb.buf, 8);
		CHECK(ta && tb);
		ver_opts o = test_opts();
		o.screen_inputs = k % 2 ? 0 : 8;
		o.seed = (uint64_t)k;
		ver_result res;
		jp_err err;
		jp_status st = ta && tb ? ver_check(C, ta, tb, &o, &res, &err)
					: JP_EINTERNAL;
		if (ta && tb && st)
			fprintf(stderr, "error: %s\n%s---\n%s", err.msg, sa.buf,
				sb.buf);
		CHECK(st == JP_OK);
		if (!st) {
			bool differ = differ_somewhere(ta, tb, true);
			bool ok =
			    res.verdict == (differ ? VER_REFUTED : VER_PROVED);
			if (ok && differ)
				ok = behave_differently(ta, tb, res.inputs,
							true);
			if (!ok)
				fprintf(stderr,
					"guard order: %s, truth %s\n%s---\n%s",
					ver_verdict_name(res.verdict),
					differ ? "differ" : "equal", sa.buf,
					sb.buf);
			CHECK(ok);
			counts[differ]++;
			total++;
			ver_result_free(&res);
		}
		ir_trace_free(ta);
		ir_trace_free(tb);
		sb_release(&sa);
		sb_release(&sb);
	}
	printf("guard order: %d pairs with swapped guards, %d equal, %d "
	       "differ\n",
	       total, counts[0], counts[1]);
	CHECK(counts[0] >= 20 && counts[1] >= 20);
}

int main(void)
{
	if (!open_ctx())
		return 1;
	test_cross_validation();
	test_guard_order();
	ver_ctx_free(C);
	return check_summary("test_check_random");
}
