#!/usr/bin/env bash
# The external solvers on jitprove's queries: every file `check --smt2`
# writes for a proved pair is unsat for the z3 and cvc5 programs, and cvc5
# as the second solver (--solver-cmd) agrees with a proof and with a
# counterexample.  Needs both programs (apt packages z3 and cvc5; ./run.sh
# installs them): without either the test is skipped (exit 77), never
# counted as passed.
set -u
missing=
for solver in z3 cvc5; do
  command -v "$solver" >/dev/null || missing="$missing $solver"
done
if [ -n "$missing" ]; then
  echo "SKIP: not installed:$missing (apt packages; ./run.sh installs them)"
  exit 77
fi
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

mkdir -p "$tmp/smt"
expect_rc 0 "smt2 proved" -- "$JITPROVE" check --smt2 "$tmp/smt" "$P/ovf_sub_of_add_ovf/orig.trace" "$P/ovf_sub_of_add_ovf/opt.trace"
ls "$tmp"/smt/*.smt2 >/dev/null 2>&1 || bad "no smt2 files"
for solver in z3 cvc5; do
  args=(); [ "$solver" = cvc5 ] && args=(--lang smt2)
  for f in "$tmp"/smt/*.smt2; do
    out=$("$solver" "${args[@]}" "$f" 2>&1 | head -1)
    [ "$out" = unsat ] || bad "$solver on $(basename "$f"): '$out', expected unsat"
  done
done

# Heap pairs go through the same driver: their queries (arrays for the
# fields, a type function) are written too, as QF_AUFBV, and both solvers
# agree that the proved pair's are unsat.
mkdir -p "$tmp/hsmt"
expect_rc 0 "smt2 heap proved" -- "$JITPROVE" check --smt2 "$tmp/hsmt" "$P/heap_div_by_magic/orig.trace" "$P/heap_div_by_magic/opt.trace"
ls "$tmp"/hsmt/*.smt2 >/dev/null 2>&1 || bad "no smt2 files for a heap pair"
grep -q 'QF_AUFBV' "$tmp"/hsmt/*.smt2 || bad "heap smt2 logic"
for solver in z3 cvc5; do
  args=(); [ "$solver" = cvc5 ] && args=(--lang smt2)
  for f in "$tmp"/hsmt/*.smt2; do
    out=$("$solver" "${args[@]}" "$f" 2>&1 | head -1)
    [ "$out" = unsat ] || bad "$solver on heap $(basename "$f"): '$out', expected unsat"
  done
done

printf '[i0]\nfinish(i0)\n' >"$tmp/id.trace"
printf '[i0]\ni1 = int_eq(i0, 7)\ni2 = int_add(i0, i1)\nfinish(i2)\n' >"$tmp/seven.trace"
expect_rc 0 "cvc5 recheck" -- "$JITPROVE" check --json --solver-cmd "cvc5 --lang smt2" "$P/neg_minint_ovf/orig.trace" "$P/neg_minint_ovf/opt.trace"
[ "$(json_get "d['stats']['second_solver_checks'] > 0")" = True ] || bad "cvc5 not run"
expect_rc 1 "cvc5 recheck sat" -- "$JITPROVE" check --screen 0 --solver-cmd "cvc5 --lang smt2" "$tmp/id.trace" "$tmp/seven.trace"

echo "smt2_solvers: $fail failed"
[ "$fail" -eq 0 ]
