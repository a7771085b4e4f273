#!/usr/bin/env bash
# labels: slow serial
# With an rlimit, a pair's report does not depend on how loaded the machine
# is (docs/ci.md, "Limits"): the short budgets of the verifier's first
# tries (the incremental solver, the abstraction, lemmas, the audit) are
# then resource counts too, not 50 ms of wall clock.  corpus pair
# str_copy_slice_read proves output 0 with a lemma whose query takes about
# 30 ms on an idle machine; with a wall-clock short budget, 20 of 20 runs
# next to four busy loops on 2 cores missed it and fell back from the
# inferred pairing to trace mode (same verdict, another report), which
# made `jitprove ci --jobs 2` differ from --jobs 1 in CI (session 45).
set -u
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT
P=corpus/pairs/str_copy_slice_read
fail=0
summary() { # the report without times
  "$JITPROVE" check "$P/orig.trace" "$P/opt.trace" $(cat "$P/options") --verbose 2>&1 |
    sed -E 's/ \([0-9.]+ ms\)$//; s/; [0-9.]+ ms$//'
}
summary >"$tmp/idle"
grep -q '^proved (inferred mode)' "$tmp/idle" || { echo "FAIL: idle run:"; cat "$tmp/idle"; fail=1; }
for _ in 1 2 3 4; do
  sh -c 'while :; do :; done' &
  pids+=($!)
done
for i in 1 2 3 4 5; do
  summary >"$tmp/loaded$i"
  if ! cmp -s "$tmp/idle" "$tmp/loaded$i"; then
    echo "FAIL: loaded run $i differs from the idle run:"; diff "$tmp/idle" "$tmp/loaded$i"; fail=1
  fi
done
echo "check_load: $([ $fail -eq 0 ] && echo '5 loaded runs report as the idle run' || echo DIFFER)"
[ "$fail" -eq 0 ]
