/*
 * test_opt_heap_fuzz.c - the heap passes on random heap traces, checked
 * with the heap-aware interpreter oracle (test_opt_heap_util.h).
 *
 * Each trace mixes allocations, stores and loads of int and ref fields,
 * calls, class / null guards with fail-args, pointer comparisons, over two
 * reference inputs that the oracle's environments often make alias.  The
 * bug-free output must never diverge; every heap bug must be caught on
 * some trace (so the traces reach the code the bugs live in).
 */
#include "test_opt_heap_util.h"

enum { N_TRACES = 500, N_ROUNDS = 60, MAXV = 64 };

static const char *pick(const char *const *l, int n)
{
	return l[tu_rand() % (uint64_t)n];
}

/* A random heap trace as text. */
static void gen(strbuf *sb)
{
	char refs[MAXV][16], ints[MAXV][16];
	int nr = 2, ni = 1, id = 3;
	static const char *const cls[] = {"A", "B"};
	static const char *const ifield[] = {"f", "g"};
	strcpy(refs[0], "p0");
	strcpy(refs[1], "p1");
	strcpy(ints[0], "i2");
	sb_printf(sb, "[p0, p1, i2]\n");
	int len = 4 + (int)(tu_rand() % 14);
	for (int k = 0; k < len && nr < MAXV - 1 && ni < MAXV - 1; k++) {
		const char *r = refs[tu_rand() % (uint64_t)nr];
		const char *r2 = refs[tu_rand() % (uint64_t)nr];
		const char *i = ints[tu_rand() % (uint64_t)ni];
		switch (tu_rand() % 11) {
		case 0:
		case 1:
			snprintf(refs[nr], 16, "p%d", id++);
			sb_printf(sb, "%s = new_with_vtable(descr=%s)\n",
				  refs[nr++], pick(cls, 2));
			break;
		case 2:
		case 3:
			sb_printf(sb, "setfield_gc(%s, %s, descr=%s)\n", r,
				  tu_rand() % 2 ? i : "7", pick(ifield, 2));
			break;
		case 4:
			sb_printf(sb, "setfield_gc(%s, %s, descr=n)\n", r, r2);
			break;
		case 5:
			snprintf(ints[ni], 16, "i%d", id++);
			sb_printf(sb, "%s = getfield_gc_i(%s, descr=%s)\n",
				  ints[ni++], r, pick(ifield, 2));
			break;
		case 6:
			snprintf(refs[nr], 16, "p%d", id++);
			sb_printf(sb, "%s = getfield_gc_r(%s, descr=n)\n",
				  refs[nr++], r);
			break;
		case 7:
			sb_printf(sb, "escape_n(%s)\n", tu_rand() % 3 ? r : i);
			break;
		case 8:
			sb_printf(sb,
				  tu_rand() % 2
				      ? "guard_class(%s, ConstClass(A)) [%s]\n"
				      : "guard_nonnull(%s) [%s]\n",
				  r, r2);
			break;
		case 9:
			snprintf(ints[ni], 16, "i%d", id++);
			sb_printf(sb, "%s = ptr_eq(%s, %s)\n", ints[ni++], r,
				  r2);
			break;
		default:
			sb_printf(sb, "guard_true(%s) [%s, %s]\n", i, r, r2);
			break;
		}
	}
	sb_printf(sb, "finish(%s, %s, %s)\n", ints[ni - 1], refs[nr - 1],
		  refs[tu_rand() % (uint64_t)nr]);
}

int main(void)
{
	static const char *const heap_bugs[] = {"materialize-drops-fields",
						"materialize-twice",
						"virtual-cycle",
						"alias-exact-only",
						"dse-across-escape",
						"virtual-fail-args"};
	enum { NB = sizeof heap_bugs / sizeof heap_bugs[0] };
	int caught[NB] = {0};
	int wrong = 0, changed = 0;
	for (int n = 0; n < N_TRACES; n++) {
		strbuf sb;
		sb_init(&sb);
		gen(&sb);
		char *src = sb_detach(&sb);
		ir_trace *t = tu_parse(src, 64);
		ir_trace *o = t ? tu_opt(t, NULL, NULL, NULL) : NULL;
		CHECK(t && o);
		if (t && o && o->nops != t->nops)
			changed++;
		if (t && o && hu_find_divergence(t, o, N_ROUNDS)) {
			if (!wrong++)
				fprintf(stderr, "diverges:\n%s\n", src);
		}
		for (int b = 0; b < NB && t; b++) {
			if (caught[b] > 2)
				continue;
			ir_trace *ob = tu_opt(t, NULL, heap_bugs[b], NULL);
			caught[b] += ob && hu_find_divergence(t, ob, N_ROUNDS);
			ir_trace_free(ob);
		}
		ir_trace_free(t);
		ir_trace_free(o);
		free(src);
	}
	printf("%d traces, %d changed by the optimizer, %d diverged\n",
	       N_TRACES, changed, wrong);
	CHECK(wrong == 0);
	CHECK(changed > N_TRACES / 2);
	for (int b = 0; b < NB; b++) {
		printf("  %s: caught on %d traces\n", heap_bugs[b], caught[b]);
		CHECK(caught[b] > 0);
	}
	return check_summary("test_opt_heap_fuzz");
}
