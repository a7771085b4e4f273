#!/usr/bin/env python3
# bench/mutants/make_patches.py - writes bench/mutants/NNN-name.patch, one
# per mutant below: (name, issue-29 shape or None, file, the exact text,
# its replacement, what the bug is).  The patches are what the benchmark
# (bench/mutation.sh) applies; this script only regenerates them, e.g.
# after an edit of passes/ moved their context (tests/cli/bench_mutants.sh
# says when one no longer applies).  Each text must occur exactly once in
# its file.  Regenerating rewrites every patch, so the @@ line numbers of
# patches that still applied may move too: keep those unchanged (git
# checkout) unless their context changed.  Numbers follow the order below: append new mutants at the
# end so that earlier numbers stay.
#
#   python3 bench/mutants/make_patches.py [SRC]   (SRC: the repository root)
import os, subprocess, sys, shutil, tempfile
SRC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUT = os.path.join(SRC, "bench/mutants")
M = []
def m(name, shape, path, old, new, why):
    M.append((name, shape, path, old, new, why))

# ---- the five shapes of issue 29 ----
m("shift-count-w", "shift count ending at W", "passes/bounds.c",
  "\tif (umax >= (uint64_t)w)\n\t\tr = bnd_join(r, bnf_shift_by(opc, a, (uint64_t)w));",
  "\tif (umax > (uint64_t)w)\n\t\tr = bnd_join(r, bnf_shift_by(opc, a, (uint64_t)w));",
  "f_shift joins the result of a shift by W only when the count may exceed W,\n"
  "# so a variable count whose range ends exactly at W loses that case (0, or the sign).")
m("mulovf-half-width", "int_mul_ovf factors within +-2^(W/2)", "passes/bounds_back.c",
  "\tif (opc == IR_INT_MUL_OVF) {\n\t\tint64_t lo, hi;\n",
  "\tif (opc == IR_INT_MUL_OVF) {\n\t\tint64_t lo, hi;\n"
  "\t\tint64_t lim = INT64_C(1) << (a->w / 2);\n"
  "\t\tif (a->lo > -lim && a->hi < lim && b->lo > -lim && b->hi < lim)\n"
  "\t\t\treturn false;\n",
  "bnd_may_overflow takes two factors strictly within +-2^(W/2) as unable to\n"
  "# overflow (true only within +-2^(W/2-1)): int_mul_ovf becomes int_mul, its guard goes.")
m("signext-fits", "range ending at 2^7/2^15/2^31, sign-extended", "passes/bounds.c",
  "\tint64_t lo = -(INT64_C(1) << (bits - 1)), hi = -lo - 1;",
  "\tint64_t lo = -(INT64_C(1) << (bits - 1)), hi = -lo;",
  "signext_by takes the n-byte signed range to end at 2^(8n-1) instead of\n"
  "# 2^(8n-1) - 1: a value whose range ends exactly there is kept unchanged.")
m("mod-var-bound", "x % y, x's upper bound == y's lower bound", "passes/bounds.c",
  "\t\t\tif (a->hi < b->lo) {\n\t\t\t\thit(OPT_BR_MOD_IDENTITY);",
  "\t\t\tif (a->hi <= b->lo) {\n\t\t\t\thit(OPT_BR_MOD_IDENTITY);",
  "f_py_mod: x % y == x for x in [0, y] (should be [0, y)): off by one when\n"
  "# x's upper bound equals y's lower bound, where x % y can be 0.")
m("fresh-alias-order", "escaped fresh object, loaded ref, store through it", "passes/heapcache.c",
  "\treturn !fresh(c, b) && !defined_before(c, b, a) && escaped(c, a);",
  "\treturn !fresh(c, b) && defined_before(c, b, a) && escaped(c, a);",
  "fresh_may_be: an escaped fresh object is taken to alias only references\n"
  "# defined before it; a reference loaded after the escape (which may be it) is not.")
# ---- bounds.c, forward ----
m("add-ends-wrap", None, "passes/bounds.c",
  "\tif (cl == ch) {\n\t\t*lo = l;",
  "\tif (cl == ch || cl == 0) {\n\t\t*lo = l;",
  "range_from_ends keeps [l, h] when only the upper end of a sum wraps:\n"
  "# missed wraparound of the high corner.")
m("or-nonneg-max", None, "passes/bounds.c",
  "\tif (a->lo >= 0 && b->lo >= 0)\n\t\tlo = max64(a->lo, b->lo);",
  "\tif (a->lo >= 0 && b->lo >= 0) {\n\t\tlo = max64(a->lo, b->lo);\n\t\thi = max64(a->hi, b->hi);\n\t}",
  "f_or bounds x | y of non-negative operands by the larger upper bound (1 | 2 == 3).")
m("invert-as-neg", None, "passes/bounds.c",
  "\treturn with_tnum(w, ~a->hi, ~a->lo, t); /* ~x == -x - 1, no overflow */",
  "\treturn with_tnum(w, -a->hi, -a->lo, t); /* ~x == -x - 1, no overflow */",
  "bnf_invert uses -x instead of -x - 1 for the range (off by one; the tnum is right).")
m("lshift-low-end-only", None, "passes/bounds.c",
  "\t\tif (sem_eval(IR_INT_RSHIFT, w, (uint64_t[]){sl, k}, NULL) ==\n\t\t\tulo &&\n\t\t    sem_eval(IR_INT_RSHIFT, w, (uint64_t[]){sh, k}, NULL) ==\n\t\t\tuhi) {",
  "\t\tif (sem_eval(IR_INT_RSHIFT, w, (uint64_t[]){sl, k}, NULL) ==\n\t\t\tulo) {",
  "bnf_shift_by(int_lshift) checks only the low end for lost bits before taking\n"
  "# [lo << k, hi << k]: a high end that overflows is missed.")
m("urshift-signed-max", None, "passes/bounds.c",
  "\t\t\tlo = 0;\n\t\t\thi = (int64_t)(sem_allones(w) >> k);",
  "\t\t\tlo = 0;\n\t\t\thi = (int64_t)((uint64_t)smax(w) >> k);",
  "uint_rshift of a range spanning 0 is bounded by MAXINT >> k instead of (2^W - 1) >> k.")
m("mod-negdiv-nonzero", None, "passes/bounds.c",
  "\t\treturn bnd_range(w, b->lo + 1, 0);",
  "\t\treturn bnd_range(w, b->lo + 1, -1);",
  "f_py_mod by a negative divisor forgets that the remainder can be 0.")
m("lt-off-by-one", None, "passes/bounds.c",
  "\t\t\treturn counted(a->hi < b->lo\t? 1",
  "\t\t\treturn counted(a->hi <= b->lo\t? 1",
  "decide_rel: signed a < b is decided true when a's upper bound equals b's lower bound.")
m("eq-touching-ranges", None, "passes/bounds.c",
  "\t\tif (a->hi < b->lo || b->hi < a->lo) {",
  "\t\tif (a->hi <= b->lo || b->hi < a->lo) {",
  "decide_rel: a == b is decided false when the ranges only touch (a.hi == b.lo).")
m("ubounds-zero-end", None, "passes/bounds.c",
  "\tif (b->lo >= 0 || b->hi < 0) {\n\t\tlo = canon(w, b->lo);",
  "\tif (b->lo >= 0 || b->hi <= 0) {\n\t\tlo = canon(w, b->lo);",
  "bnd_ubounds reads the unsigned bounds off a signed range ending at 0 as if it\n"
  "# did not cross 0 ([-3, 0] becomes [2^W - 3, 0]).")
# ---- bounds_back.c ----
m("must-ovf-both-ends", None, "passes/bounds_back.c",
  "\treturn cl == ch && cl != 0;",
  "\treturn cl != 0 && ch != 0;",
  "bnd_must_overflow: both corners overflowing, in opposite directions, is taken as\n"
  "# 'must overflow' (the values in between do not).")
m("back-mul-inexact", None, "passes/bounds_back.c",
  "\tif (exact && cs > 0) {",
  "\tif (cs > 0) {",
  "back_mul divides the result's range by c also for a wrapping int_mul (the\n"
  "# exactness check is lost).")
m("refine-le-strict", None, "passes/bounds_back.c",
  "\t\t*x = bnd_meet(*x, bnd_range(w, smin(w), yhi));\n\t\t*y = bnd_meet(*y, bnd_range(w, xlo, smax(w)));",
  "\t\t*x = bnd_meet(*x, bnd_range(w, smin(w), yhi - 1));\n\t\t*y = bnd_meet(*y, bnd_range(w, xlo, smax(w)));",
  "refine_lt: the non-strict x <= y refines x to (-inf, y.hi - 1], the strict case's bound.")
m("refine-ult-signed-y", None, "passes/bounds_back.c",
  "\t} else if (y->lo >= 0) {\n\t\thit(OPT_BR_REF_ULT_Y_NONNEG);",
  "\t} else {\n\t\thit(OPT_BR_REF_ULT_Y_NONNEG);",
  "refine_ult: y >=u lb is read as signed y >= lb also for a y that may be negative\n"
  "# (a large unsigned number).")
m("back-and-known0", None, "passes/bounds_back.c",
  "\t\tuint64_t known0 = r0 & o->val, known1 = r->val;",
  "\t\tuint64_t known0 = r0 & ~o->mask, known1 = r->val;",
  "bnd_backward(int_and): a 0 in the result is taken to force a 0 in x wherever the\n"
  "# other operand's bit is known (also where it is known 0).")
m("back-rshift-range", None, "passes/bounds_back.c",
  "\t\t\t\t\t     sat(IR_INT_MUL_OVF, w, r->hi, p),\n\t\t\t\t\t     p - 1)));",
  "\t\t\t\t\t     sat(IR_INT_MUL_OVF, w, r->hi, p),\n\t\t\t\t\t     0)));",
  "bnd_backward(int_rshift): x >> k <= h gives x <= h * 2^k (should be h * 2^k + 2^k - 1).")
m("back-fgez-nonneg", None, "passes/bounds_back.c",
  "\t\td = bnd_is_nonzero(r) ? *r : bnd_top(w);",
  "\t\td = r->lo >= 0 ? *r : bnd_top(w);",
  "bnd_backward(int_force_ge_zero): a non-negative result is taken to be x itself,\n"
  "# though a result 0 comes from every negative x.")
m("back-sub-rhs", None, "passes/bounds_back.c",
  "\t\t} else { /* y = x - r */\n\t\t\td = bnf_sub(o, r);",
  "\t\t} else { /* y = x - r */\n\t\t\td = bnf_sub(r, o);",
  "bnd_backward(int_sub) for the subtrahend computes r - x instead of x - r.")
# ---- opt_bounds.c ----
m("use-mod-var-bound", "x % y, x's upper bound == y's lower bound", "passes/opt_bounds.c",
  "\t\tif (b[0].lo >= 0 && b[1].lo >= 1 && b[0].hi < b[1].lo)",
  "\t\tif (b[0].lo >= 0 && b[1].lo >= 1 && b[0].hi <= b[1].lo)",
  "use_bounds rewrites x % y to x when x's upper bound equals y's lower bound.")
m("use-signext-fits", "range ending at 2^7/2^15/2^31, sign-extended", "passes/opt_bounds.c",
  "\t\tif (b[0].lo >= -lim && b[0].hi < lim)",
  "\t\tif (b[0].lo >= -lim && b[0].hi <= lim)",
  "use_bounds drops int_signext(x, n) when x's range ends at 2^(8n-1) (one too far).")
m("use-and-maybe-bits", None, "passes/opt_bounds.c",
  "\t\tif (((b[0].val | b[0].mask) & ~b[1].val & M) == 0)\n\t\t\treturn same_as(c, op, x, OPT_BR_RW_AND);",
  "\t\tif (((b[0].val | b[0].mask) & ~(b[1].val | b[1].mask) & M) == 0)\n\t\t\treturn same_as(c, op, x, OPT_BR_RW_AND);",
  "use_bounds: x & y == x when every bit that may be 1 in x MAY be 1 in y (must be known 1).")
m("use-istrue-negative", None, "passes/opt_bounds.c",
  "\t\tif (b[0].lo >= 0 && b[0].hi <= 1)\n\t\t\treturn same_as(c, op, x, OPT_BR_RW_IS_TRUE);",
  "\t\tif (b[0].hi <= 1)\n\t\t\treturn same_as(c, op, x, OPT_BR_RW_IS_TRUE);",
  "use_bounds: int_is_true(x) is x for any x <= 1 (negative x included).")
m("guard-true-is-one", None, "passes/opt_bounds.c",
  "\t\tbx = opt_bound(c, x);\n\t\tdummy = bx;\n\t\tbnd_refine_cmp(IR_INT_IS_TRUE, true, &bx, &dummy);\n\t\trefine(c, x, bx, 0);",
  "\t\trefine(c, x, bnd_const(c->w, 1), 0);",
  "learn_guard: guard_true(x) teaches x == 1 (only x != 0 holds).")
# ---- simplify.c ----
m("add-chain-sub-sign", None, "passes/simplify.c",
  "\t\tif (opt_const(c, b, &k2))\n\t\t\treturn opt_rewrite(c, op, IR_INT_ADD, a, K(k - k2));",
  "\t\tif (opt_const(c, b, &k2))\n\t\t\treturn opt_rewrite(c, op, IR_INT_ADD, a, K(k + k2));",
  "add_chain: (a - k2) + k folds to a + (k + k2).")
m("div-minint-pow2", None, "passes/simplify.c",
  "\tif (!sem_is_negative(c->w, k) && power_of_two(k, &s))\n\t\treturn opt_rewrite(c, op, IR_INT_RSHIFT, x, K((uint64_t)s));",
  "\tif (power_of_two(k, &s))\n\t\treturn opt_rewrite(c, op, IR_INT_RSHIFT, x, K((uint64_t)s));",
  "s_py_div: x // MININT (2^(W-1) as a pattern, negative) becomes x >> (W-1).")
m("rshift-ones-any", None, "passes/simplify.c",
  "\tif (op->opc == IR_INT_RSHIFT && is_k(c, x, ones(c)))\n\t\treturn opt_replace_const(c, op, ones(c));",
  "\tif (is_k(c, x, ones(c)) && op->opc != IR_INT_LSHIFT)\n\t\treturn opt_replace_const(c, op, ones(c));",
  "s_shift: -1 shifted right is -1 also for uint_rshift (it gives 2^(W-k) - 1).")
m("rshift-big-zero", None, "passes/simplify.c",
  "\tif (k >= w && op->opc != IR_INT_RSHIFT)\n\t\treturn opt_replace_const(c, op, 0);",
  "\tif (k >= w)\n\t\treturn opt_replace_const(c, op, 0);",
  "s_shift: int_rshift by W or more gives 0 (it gives the sign, 0 or -1).")
m("signext-chain-width", None, "passes/simplify.c",
  "\tif (def_is(c, x, IR_INT_SIGNEXT, &a, &b) && b == op->args[1])",
  "\tif (def_is(c, x, IR_INT_SIGNEXT, &a, &b))",
  "s_signext: signext(signext(a, m), n) is taken as signext(a, m) for any n.")
m("add-ovf-inexact", None, "passes/simplify.c",
  "\tif (exact_def(c, x, IR_INT_SUB_OVF, &a, &b) && b == y)\n\t\treturn no_ovf(c, op, a);",
  "\tif (def_is(c, x, IR_INT_SUB_OVF, &a, &b) && b == y)\n\t\treturn no_ovf(c, op, a);",
  "s_add_ovf: (a - b) + b is a without overflow also after an int_sub_ovf whose\n"
  "# guard was guard_overflow (the subtraction wrapped).")
m("neg-sub-order", None, "passes/simplify.c",
  "\tif (def_is(c, op->args[0], IR_INT_SUB, &a, &b)) /* -(a - b) */\n\t\treturn opt_rewrite(c, op, IR_INT_SUB, b, a);",
  "\tif (def_is(c, op->args[0], IR_INT_SUB, &a, &b)) /* -(a - b) */\n\t\treturn opt_rewrite(c, op, IR_INT_SUB, a, b);",
  "s_neg: -(a - b) rewritten to a - b (operands not swapped).")
m("umulh-two", None, "passes/simplify.c",
  "\tif (split_const(c, op, &v, &k) && k <= 1) /* x * 1 < 2^W */",
  "\tif (split_const(c, op, &v, &k) && k <= 2) /* x * 1 < 2^W */",
  "s_umulh: the high half of x * 2 is taken to be 0 (it is x's top bit).")
# ---- fold.c ----
m("fold-guard-true-one", None, "passes/fold.c",
  "\t\tif (is_comparison(c, x))\n\t\t\topt_union(c, x, opt_const_int(c, 1));",
  "\t\topt_union(c, x, opt_const_int(c, 1));",
  "fold_emitted: after guard_true(x) x is the constant 1 even when x is not a\n"
  "# comparison (any non-zero value passes).")
# ---- cse.c ----
m("cse-key-not-comm", None, "passes/cse.c",
  "\tif (ir_op_has(opc, IRF_COMM) && *a > *b) {",
  "\tif (*a > *b) {",
  "cse key: the arguments of every op are put in order, so x - y and y - x share a key.")
m("cse-add-sub-sign", None, "passes/cse.c",
  "\t\tif (op->opc == IR_INT_ADD && opt_const(c, b, &k))\n\t\t\tinsert(c, IR_INT_SUB, a, opt_const_int(c, 0 - k),",
  "\t\tif (op->opc == IR_INT_ADD && opt_const(c, b, &k))\n\t\t\tinsert(c, IR_INT_SUB, a, opt_const_int(c, k),",
  "cse: x + k is entered as x - k (not x - (-k)).")
m("cse-ovf-inexact", None, "passes/cse.c",
  "\tif (r != IR_NOVAL && opt_is_exact(c, opt_def_index(c, r))) {",
  "\tif (r != IR_NOVAL) {",
  "cse_ovf: an *_ovf op reuses an earlier twin whose guard was guard_overflow and\n"
  "# declares no overflow.")
# ---- heapcache.c ----
# 040 was load-null-forward (hc_load forwarding a stored value through a
# reference not known non-null): since a field access through NULL is
# undefined behaviour, forwarding through any reference is right and that
# check is gone, so 040 is now another bug of the load path.
m("load-observes-exact", None, "passes/heapcache.c",
  "\t\tif (!(s->p[k].field == field &&\n\t\t      may_alias(c, opt_find(c, s->p[k].obj), obj)))",
  "\t\tif (!(s->p[k].field == field &&\n\t\t      opt_find(c, s->p[k].obj) == obj))",
  "observe_load: a load observes only the pending stores through its own reference,\n"
  "# not those through another that may be the same object, so a store read by such\n"
  "# a load and overwritten after it is removed as dead.  (Replaces load-null-forward:\n"
  "# forwarding through a possibly-NULL reference is right since NULL access is UB.)")
m("call-keeps-fresh", None, "passes/heapcache.c",
  "\tfor (uint32_t k = 0; k < s->ne; k++)\n\t\tif (private_obj(c, opt_find(c, s->e[k].obj)))\n\t\t\ts->e[n++] = s->e[k];\n\ts->ne = n;\n\t/* BUG dse",
  "\tfor (uint32_t k = 0; k < s->ne; k++)\n\t\tif (fresh(c, opt_find(c, s->e[k].obj)))\n\t\t\ts->e[n++] = s->e[k];\n\ts->ne = n;\n\t/* BUG dse",
  "call_effects keeps the cached fields of every fresh object, escaped or not.")
m("dse-across-guard", None, "passes/heapcache.c",
  "\tif (hs(c))\n\t\ths(c)->np = 0;",
  "\t(void)c;",
  "hc_after_guard: a guard does not observe pending stores, so a store before a\n"
  "# guard overwritten after it is removed (the guard may leave with the old heap).")
m("store-value-escape", None, "passes/heapcache.c",
  "\tif (c->out->vals[v].kind == 'r')\n\t\tnote_escape(c, v);\n\tif (is_null(c, p)) {",
  "\tif (is_null(c, p)) {",
  "hc_store: a fresh object stored into a field does not escape.")
# ---- virtualize.c ----
m("vfield-first-write", None, "passes/virtualize.c",
  "\tif (f) {\n\t\t*f = nf;\n\t\treturn;\n\t}",
  "\tif (f)\n\t\treturn;",
  "set_field on a virtual object keeps the first value written to a field.")
m("mat-root-fields", None, "passes/virtualize.c",
  "\tfor (uint32_t i = 0; i < s->nlist && stores && !c->status; i++) {",
  "\tfor (uint32_t i = 0; i < 1 && stores && !c->status; i++) {",
  "materialize stores the fields of the escaping object only, not those of the\n"
  "# other virtual objects of its cluster.")
m("ptr-ne-virtual", None, "passes/virtualize.c",
  "\t\tc->map[iop->result] = opt_const_int(\n\t\t    c, (uint64_t)(same ^ (iop->opc == IR_PTR_NE)));",
  "\t\tc->map[iop->result] = opt_const_int(c, (uint64_t)same);",
  "vrt_op: ptr_ne with a virtual argument is decided like ptr_eq.")
m("failargs-first-only", None, "passes/virtualize.c",
  "\tfor (uint32_t k = 0; k < iop->nfail && !c->status; k++)\n\t\tif (virt_of",
  "\tfor (uint32_t k = 0; k < 1 && k < iop->nfail && !c->status; k++)\n\t\tif (virt_of",
  "vrt_before_guard materializes only the first virtual object of the fail-args.")
# ---- dce.c, opt.c ----
m("dce-ignores-failargs", None, "passes/dce.c",
  "\t\tmark(used, op->args, op->nargs);\n\t\tmark(used, op->failargs, op->nfail);",
  "\t\tmark(used, op->args, op->nargs);",
  "dce: a value used only in fail-args is dead.")
m("exact-after-overflow", None, "passes/opt.c",
  "\tif (op->opc == IR_GUARD_NO_OVERFLOW && c->ovf == OPT_OVF_EMITTED)",
  "\tif (ir_op_has(op->opc, IRF_OVFGUARD) && c->ovf == OPT_OVF_EMITTED)",
  "opt: an *_ovf result is marked exact after guard_overflow too, so rules that\n"
  "# need an exact result use a wrapped one.")

# Every text is checked before any patch is removed: a text that no longer
# matches stops the script with the patches as they were (it once deleted
# the committed patches of the mutants after the first missing text).
bad = []
for i, (name, shape, path, old, new, why) in enumerate(M, 1):
    n = open(os.path.join(SRC, path)).read().count(old)
    if n != 1:
        bad.append("%03d %s: expected 1 match in %s, found %d" % (i, name, path, n))
if bad:
    sys.exit("nothing written:\n" + "\n".join(bad))
os.makedirs(OUT, exist_ok=True)
for f in os.listdir(OUT):
    if f.endswith(".patch"):
        os.remove(os.path.join(OUT, f))
for i, (name, shape, path, old, new, why) in enumerate(M, 1):
    text = open(os.path.join(SRC, path)).read()
    tmp = tempfile.mkdtemp()
    a = os.path.join(tmp, "a", path); b = os.path.join(tmp, "b", path)
    os.makedirs(os.path.dirname(a)); os.makedirs(os.path.dirname(b))
    shutil.copy(os.path.join(SRC, path), a)
    open(b, "w").write(text.replace(old, new))
    d = subprocess.run(["diff", "-u", "a/" + path, "b/" + path], cwd=tmp,
                       capture_output=True, text=True).stdout
    shutil.rmtree(tmp)
    # drop diff's timestamps so the files are stable
    lines = d.splitlines(True)
    lines[0] = "--- a/%s\n" % path; lines[1] = "+++ b/%s\n" % path
    hdr = "# mutant %03d %s (%s)\n# %s\n" % (i, name, path, why)
    if shape:
        hdr += "# shape: %s (issue 29)\n" % shape
    open(os.path.join(OUT, "%03d-%s.patch" % (i, name)), "w").write(hdr + "".join(lines))
print(len(M), "mutants")
