#!/usr/bin/env bash
# labels: slow
# The verifier on the optimizer: every corpus/opt trace optimized by
# jitprove opt is never refuted (proved, or unknown when Z3 gives up, or
# unsupported for the heap ops of the toy traces), and every corpus/bugs
# reproducer is refuted.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
proved=0; other=0
for t in "$JP_SRC"/corpus/opt/*.trace; do
  "$JITPROVE" opt "$t" >"$tmp/o.trace" || { echo "FAIL opt $t"; fail=$((fail + 1)); continue; }
  "$JITPROVE" check --timeout-ms 3000 "$t" "$tmp/o.trace" >"$tmp/out" 2>&1
  rc=$?
  case $rc in
    0) proved=$((proved + 1)) ;;
    2|3) other=$((other + 1)) ;;
    *) echo "FAIL check $t (exit $rc)"; head -40 "$tmp/out"; fail=$((fail + 1)) ;;
  esac
done
[ "$proved" -ge 30 ] || { echo "FAIL only $proved proved"; fail=$((fail + 1)); }
for d in "$JP_SRC"/corpus/bugs/*/; do
  "$JITPROVE" check --timeout-ms 3000 "$d/orig.trace" "$d/opt.trace" >"$tmp/out" 2>&1
  rc=$?
  [ $rc -eq 1 ] || { echo "FAIL $d not refuted (exit $rc)"; fail=$((fail + 1)); }
done
echo "opt_check: $proved proved, $other unknown/unsupported, $fail failed"
[ "$fail" -eq 0 ]
