#!/usr/bin/env bash
# jitprove check: exit codes, JSON output, unknown on purpose, --explain, input
# errors, example inputs, --smt2 files, and a second solver through
# --solver-cmd that lies, which must be reported as an internal error,
# never as a verdict.  The checks that need the z3 and cvc5 programs are in
# smt2_solvers.sh (skipped, exit 77, without them).
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
P="$JP_SRC/corpus/pairs"
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
expect_rc() { # expect_rc CODE DESCRIPTION -- command...
  local want=$1 what=$2; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  cat "$tmp/out" "$tmp/err" >"$tmp/all"
  [ "$rc" -eq "$want" ] || { bad "$what: exit $rc, expected $want"; head -20 "$tmp/all"; }
}
json_get() { python3 -c "import json,sys; d=json.load(open('$tmp/out')); print($1)"; }

# Verdicts and exit codes.
expect_rc 0 "proved pair" -- "$JITPROVE" check "$P/wrap_add_lt_ovf/orig.trace" "$P/wrap_add_lt_ovf/opt.trace"
grep -q '^proved (aligned mode)' "$tmp/out" || bad "proved line missing"
expect_rc 1 "wrong pair" -- "$JITPROVE" check "$P/wrap_add_lt/orig.trace" "$P/wrap_add_lt/opt.trace"
grep -q '^counterexample: guard g1 (removed: must always pass) fails' "$tmp/out" || bad "counterexample header"
grep -q '>>> guard_true(i3, descr=g1)' "$tmp/out" || bad "divergence mark"
grep -q '0x7fffffffffffffff (9223372036854775807)' "$tmp/out" || bad "hex and decimal input"

# --explain: an unknown heap pair whose model did not replay shows that
# model, the field it makes differ and both runs; without it, none of that.
# (heap_overwritten_escaped_holder served until session 37, when it was
# proved; the elidable call the original alone makes is unknown for good.)
E="$JP_SRC/corpus/regressions/elidable-call-folded"
expect_rc 3 "explain unknown" -- "$JITPROVE" check --opaque --rlimit 1000000 --explain "$E/orig.trace" "$E/opt.trace"
grep -q '^model that did not replay, for op 1 of the optimized trace' "$tmp/out" || bad "explain header"
grep -q '^  at the end: <FieldS pypy.objspace.std.intobject.W_IntObject.inst_intval 8> differs' "$tmp/out" || bad "explain differing field"
grep -q '^optimized trace:' "$tmp/out" || bad "explain runs"
expect_rc 3 "no explain" -- "$JITPROVE" check --opaque --rlimit 1000000 "$E/orig.trace" "$E/opt.trace"
grep -q 'model that did not replay' "$tmp/out" && bad "model printed without --explain"

# JSON: one object with verdict, obligations, counterexample.
expect_rc 1 "json refuted" -- "$JITPROVE" check --json "$P/mul_eq_12/orig.trace" "$P/mul_eq_12/opt.trace"
[ "$(json_get "d['verdict']")" = counterexample ] || bad "json verdict"
[ "$(json_get "d['counterexample']['inputs'][0]['name']")" = i0 ] || bad "json input name"
[ "$(json_get "d['obligations'][d['failed']]['status']")" = refuted ] || bad "json failed status"
expect_rc 0 "json proved" -- "$JITPROVE" check --json "$P/const_fold/orig.trace" "$P/const_fold/opt.trace"
[ "$(json_get "d['verdict']")" = proved ] || bad "json proved"
[ "$(json_get "d['counterexample']")" = None ] || bad "json no counterexample"
[ "$(json_get "all(o['status'] == 'proved' for o in d['obligations'])")" = True ] || bad "json all proved"

# Unknown on purpose: a tiny resource limit on a query only the solver can
# settle.  Never printed as proved.
expect_rc 3 "rlimit unknown" -- "$JITPROVE" check --rlimit 1 "$P/width8_divmod_identity/orig.trace" "$P/width8_divmod_identity/opt.trace" --width 8
grep -q '^unknown' "$tmp/out" || bad "unknown line"
grep -q 'proved' "$tmp/all" && bad "unknown output mentions proved"
expect_rc 3 "rlimit unknown json" -- "$JITPROVE" check --json --rlimit 1 --width 8 "$P/width8_divmod_identity/orig.trace" "$P/width8_divmod_identity/opt.trace"
[ "$(json_get "d['verdict']")" = unknown ] || bad "json unknown"
[ "$(json_get "[o['status'] for o in d['obligations']].count('unknown')")" -ge 1 ] || bad "json unknown obligation"
# "failed" is the index of the refuted obligation, null when none failed
# (proved or unknown; it was the unknown obligation's index, 0 here).
[ "$(json_get "d['failed']")" = None ] || bad "json unknown: failed is $(json_get "d['failed']"), expected null"
expect_rc 1 "json refuted at obligation 0" -- "$JITPROVE" check --json "$P/jump_vs_finish/orig.trace" "$P/jump_vs_finish/opt.trace"
[ "$(json_get "d['failed']")" = 0 ] || bad "json refuted at 0: failed is $(json_get "d['failed']")"
expect_rc 0 "json proved, failed" -- "$JITPROVE" check --json "$P/const_fold/orig.trace" "$P/const_fold/opt.trace"
[ "$(json_get "d['failed']")" = None ] || bad "json proved: failed is $(json_get "d['failed']")"

# --pair-budget-ms: the budget jitprove log gives each pair, so that a pair
# directory it wrote is re-checked as log checked it.  The same pair is
# proved in about 0.3 s without one and unknown within 1 ms.
expect_rc 3 "pair budget unknown" -- "$JITPROVE" check --pair-budget-ms 1 --width 8 "$P/width8_divmod_identity/orig.trace" "$P/width8_divmod_identity/opt.trace"
grep -q '^unknown' "$tmp/out" || bad "pair budget: no unknown line"
expect_rc 0 "no pair budget" -- "$JITPROVE" check --pair-budget-ms 0 --width 8 "$P/width8_divmod_identity/orig.trace" "$P/width8_divmod_identity/opt.trace"
expect_rc 2 "pair budget not a number" -- "$JITPROVE" check --pair-budget-ms soon "$P/const_fold/orig.trace" "$P/const_fold/opt.trace"
# --stop-at-unproved: a heap pair stops at its first obligation that is not
# proved, as in jitprove log; the heap pair of --explain above goes on past
# its first unknown obligation (and proves a later one) without it.
statuses() { json_get "','.join(o['status'] for o in d['obligations'])"; }
expect_rc 3 "heap pair goes on" -- "$JITPROVE" check --json --opaque --rlimit 1000000 "$E/orig.trace" "$E/opt.trace"
[ "$(statuses)" = "proved,unknown,unknown,unknown,unknown,proved,unknown" ] || bad "heap pair goes on: $(statuses)"
expect_rc 3 "heap pair stops" -- "$JITPROVE" check --json --stop-at-unproved --opaque --rlimit 1000000 "$E/orig.trace" "$E/opt.trace"
[ "$(statuses)" = "proved,unknown,skipped,skipped,skipped,skipped,skipped" ] || bad "heap pair stops: $(statuses)"

# Input errors and unsupported ops: exit 2 with a message.
printf '[p0, i1]\nsetfield_gc(p0, i1, descr=f)\np2 = getfield_gc_r(p0, descr=f)\nfinish(p2)\n' >"$tmp/heap.trace"
expect_rc 2 "heap op" -- "$JITPROVE" check "$tmp/heap.trace" "$tmp/heap.trace"
grep -q 'heap' "$tmp/all" || bad "heap message"
printf '[i0, i1]\nfinish(i0)\n' >"$tmp/two.trace"
printf '[i0]\nfinish(i0)\n' >"$tmp/one.trace"
expect_rc 2 "different inputs" -- "$JITPROVE" check "$tmp/two.trace" "$tmp/one.trace"
expect_rc 2 "missing file" -- "$JITPROVE" check "$tmp/nope.trace" "$tmp/one.trace"
expect_rc 2 "one argument" -- "$JITPROVE" check "$tmp/one.trace"
expect_rc 2 "bad mode" -- "$JITPROVE" check --mode sideways "$tmp/one.trace" "$tmp/one.trace"
expect_rc 2 "json error" -- "$JITPROVE" check --json "$tmp/two.trace" "$tmp/one.trace"
[ "$(json_get "d['verdict']")" = error ] || bad "json error verdict"
printf '[i0]\ni1 = int_lt(i0, 10)\nguard_true(i1, descr=a)\ni2 = int_lt(i0, 20)\nguard_true(i2, descr=b)\nfinish(i0)\n' >"$tmp/ab.trace"
printf '[i0]\ni2 = int_lt(i0, 20)\nguard_true(i2, descr=b)\ni1 = int_lt(i0, 10)\nguard_true(i1, descr=a)\nfinish(i0)\n' >"$tmp/ba.trace"
# Guards swapped that can both fail (i0 >= 20): a counterexample with
# inputs, replayed (found by the solver too, without screening).
expect_rc 1 "guard order" -- "$JITPROVE" check "$tmp/ab.trace" "$tmp/ba.trace"
grep -q '^counterexample: exit (guards b and a in another order' "$tmp/out" || bad "order counterexample header"
grep -q 'the original fails at guard a, the optimized trace fails at guard b' "$tmp/out" || bad "order divergence"
grep -q '^  i0 = ' "$tmp/out" || bad "order inputs"
grep -q 'replayed on the interpreter' "$tmp/out" || bad "order replay"
expect_rc 1 "guard order by solver" -- "$JITPROVE" check --screen 0 "$tmp/ab.trace" "$tmp/ba.trace"
grep -q 'found by solver), replayed' "$tmp/out" || bad "order solver replay"
# Swapped guards that never both fail: proved.
printf '[i0]\ni1 = int_lt(i0, 10)\nguard_true(i1, descr=a)\ni2 = int_gt(i0, -5)\nguard_true(i2, descr=b)\nfinish(i0)\n' >"$tmp/ab2.trace"
printf '[i0]\ni2 = int_gt(i0, -5)\nguard_true(i2, descr=b)\ni1 = int_lt(i0, 10)\nguard_true(i1, descr=a)\nfinish(i0)\n' >"$tmp/ba2.trace"
expect_rc 0 "guard order, never both fail" -- "$JITPROVE" check "$tmp/ab2.trace" "$tmp/ba2.trace"
grep -q '^proved (aligned mode)' "$tmp/out" || bad "order proved line"
# The heap model keeps its guards in order: unknown, naming both guards.
printf '[p0, i1]\ni2 = int_gt(i1, 0)\nguard_true(i2, descr=a)\ni3 = int_lt(i1, 9)\nguard_true(i3, descr=b)\nsetfield_gc(p0, i1, descr=f)\nfinish()\n' >"$tmp/hab.trace"
printf '[p0, i1]\ni3 = int_lt(i1, 9)\nguard_true(i3, descr=b)\ni2 = int_gt(i1, 0)\nguard_true(i2, descr=a)\nsetfield_gc(p0, i1, descr=f)\nfinish()\n' >"$tmp/hba.trace"
expect_rc 3 "heap guard order" -- "$JITPROVE" check "$tmp/hab.trace" "$tmp/hba.trace"
grep -q 'guard b before guard a.*heap model checks guards in order only' "$tmp/all" || bad "heap order message"
expect_rc 0 "trace mode ignores order" -- "$JITPROVE" check --mode trace "$tmp/ab.trace" "$tmp/ba.trace"

# Example inputs: a difference at x = 7 only.  Screening off, the example
# finds it concretely; without it the solver does.
printf '[i0]\nfinish(i0)\n' >"$tmp/id.trace"
printf '[i0]\ni1 = int_eq(i0, 7)\ni2 = int_add(i0, i1)\nfinish(i2)\n' >"$tmp/seven.trace"
expect_rc 1 "args concrete" -- "$JITPROVE" check --json --screen 0 --args 7 "$tmp/id.trace" "$tmp/seven.trace"
[ "$(json_get "d['obligations'][d['failed']]['how']")" = concrete ] || bad "--args not screened"
[ "$(json_get "d['counterexample']['inputs'][0]['signed']")" = 7 ] || bad "cex is not 7"
expect_rc 1 "solver finds 7" -- "$JITPROVE" check --json --screen 0 "$tmp/id.trace" "$tmp/seven.trace"
[ "$(json_get "d['obligations'][d['failed']]['how']")" = solver ] || bad "not by solver"
printf '# args: 7\n[i0]\nfinish(i0)\n' >"$tmp/id7.trace"
expect_rc 1 "args comment" -- "$JITPROVE" check --json --screen 0 "$tmp/id7.trace" "$tmp/seven.trace"
[ "$(json_get "d['obligations'][d['failed']]['how']")" = concrete ] || bad "'# args:' not screened"

# Width.
expect_rc 1 "width 8" -- "$JITPROVE" check --width 8 "$P/width8_wrap_add_lt/orig.trace" "$P/width8_wrap_add_lt/opt.trace"
grep -q 'i0 = 0x7' "$tmp/out" || bad "width 8 value not 8-bit"

# --smt2: standalone files (z3 and cvc5 reading them: smt2_solvers.sh).
mkdir -p "$tmp/smt"
expect_rc 0 "smt2 proved" -- "$JITPROVE" check --smt2 "$tmp/smt" "$P/ovf_sub_of_add_ovf/orig.trace" "$P/ovf_sub_of_add_ovf/opt.trace"
ls "$tmp"/smt/*.smt2 >/dev/null 2>&1 || bad "no smt2 files"
# A second solver that answers the probe honestly and then always says
# sat: the disagreement is an internal error (exit 2), never a verdict.
printf '#!/bin/sh\ngrep -q "answer must be unsat" "$1" && echo unsat || echo sat\n' >"$tmp/liar"; chmod +x "$tmp/liar"
expect_rc 2 "lying solver" -- "$JITPROVE" check --solver-cmd "$tmp/liar" "$P/neg_minint_ovf/orig.trace" "$P/neg_minint_ovf/opt.trace"
grep -q 'disagreement' "$tmp/all" || bad "disagreement message"
# A second solver that cannot run, or answers garbage, is an error up
# front (exit 2, naming the command), before any pair is checked.
printf '#!/bin/sh\necho sat\n' >"$tmp/always_sat"; chmod +x "$tmp/always_sat"
expect_rc 2 "always-sat solver" -- "$JITPROVE" check --solver-cmd "$tmp/always_sat" "$P/neg_minint_ovf/orig.trace" "$P/neg_minint_ovf/opt.trace"
grep -q "always_sat' answered 'sat' on a query whose answer is 'unsat'" "$tmp/all" || bad "always-sat message"
expect_rc 2 "missing solver" -- "$JITPROVE" check --solver-cmd /nonexistent "$P/neg_minint_ovf/orig.trace" "$P/neg_minint_ovf/opt.trace"
grep -q "solver-cmd '/nonexistent' does not work as a solver.*exit status 127" "$tmp/all" || bad "missing solver message"
[ -s "$tmp/out" ] && bad "missing solver: a verdict was printed"
expect_rc 2 "missing solver, corpus" -- "$JITPROVE" check --corpus --solver-cmd /nonexistent "$P"
grep -q "^ok" "$tmp/all" && bad "missing solver: corpus pairs were checked"
expect_rc 2 "garbage solver" -- "$JITPROVE" check --solver-cmd "echo hello" "$P/neg_minint_ovf/orig.trace" "$P/neg_minint_ovf/opt.trace"
grep -q "printed 'hello" "$tmp/all" || bad "garbage solver message"
# Passes the probe, then answers garbage: no answer is no agreement.
printf '#!/bin/sh\nif grep -q "answer must be unsat" "$1"; then echo unsat\nelif grep -q "answer must be sat" "$1"; then echo sat\nelse echo "(error boom)"; fi\n' >"$tmp/flaky"; chmod +x "$tmp/flaky"
expect_rc 2 "garbage after the probe" -- "$JITPROVE" check --solver-cmd "$tmp/flaky" "$P/neg_minint_ovf/orig.trace" "$P/neg_minint_ovf/opt.trace"
grep -q "gave no answer on a query: it printed '(error boom)'" "$tmp/all" || bad "garbage answer message"

echo "check_cli: $fail failed"
[ "$fail" -eq 0 ]
