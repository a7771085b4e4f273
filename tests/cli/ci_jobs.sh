#!/usr/bin/env bash
# labels: slow
# jitprove ci --jobs 2 gives the same reports as --jobs 1: the same cases in
# the same order with the same content; only times (and the command line
# recorded in the reports) may differ.  The timeout is generous so that no
# verdict depends on how loaded the machine is.  The solver statistics
# are not compared either: an abstract query the incremental solver does not
# settle within its 50 ms goes to a second tactic (verify/check.c), so how
# many calls a case needs, and how each obligation was settled, depend on
# the machine's load, never its verdict.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
C=tests/ci-cases
paths=("$C/mixed" "$C/failing" "$C/broken" "$C/bad-expect")
for d in corpus/pairs corpus/regressions corpus/bugs; do [ -d "$d" ] && paths+=("$d"); done
fail=0
for j in 1 2; do
  mkdir -p "$tmp/j$j"
  "$JITPROVE" ci "${paths[@]}" --jobs $j --timeout-ms 120000 --junit "$tmp/j$j/r.xml" --sarif "$tmp/j$j/r.sarif" \
    --json "$tmp/j$j/r.json" >"$tmp/j$j/out" 2>&1
  echo $? >"$tmp/j$j/rc"
done
if ! cmp -s "$tmp/j1/rc" "$tmp/j2/rc"; then
  echo "FAIL: exit codes differ: $(cat "$tmp/j1/rc") vs $(cat "$tmp/j2/rc")"; fail=1
fi
# Normalized: times and the command line removed.
for j in 1 2; do
  sed -E 's/ time="[0-9.]+"//g' "$tmp/j$j/r.xml" >"$tmp/j$j/xml"
  sed -E 's/; [0-9.]+ s$//; s/; [0-9]+ solver calls//' "$tmp/j$j/out" >"$tmp/j$j/text"
  python3 - "$tmp/j$j" <<'PY'
import json, sys
d = sys.argv[1]
# How the solver got there depends on the load (the 50 ms budget of
# abstract queries, the isolation of slow ones, the lemmas tried after
# them): the verifier's "stats", the solver-call counts, and how each
# obligation was settled -- a lemma proved within the short budget makes
# an obligation "identity", the same lemma timed out leaves it to the
# "solver" (corpus pair str_copy_slice_read's output 0 went both ways in
# CI, its lemma's query then took about the whole budget).  The
# verdicts, obligations and their statuses are compared.
LOAD_DEPENDENT = {"solver_calls", "stats", "how"}
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items()
                if not (k == "ms" or k.startswith("ms_") or k in LOAD_DEPENDENT
                        or k in ("command", "commandLine"))}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
for name in ("r.json", "r.sarif"):
    doc = strip(json.load(open(f"{d}/{name}")))
    json.dump(doc, open(f"{d}/{name}.norm", "w"), indent=1, sort_keys=True)
PY
done
for f in xml text r.json.norm r.sarif.norm; do
  if ! cmp -s "$tmp/j1/$f" "$tmp/j2/$f"; then
    echo "FAIL: $f differs between --jobs 1 and --jobs 2:"; diff "$tmp/j1/$f" "$tmp/j2/$f" | head -20
    fail=1
  fi
done
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cases"]))' "$tmp/j1/r.json")
if [ "$n" -lt 10 ]; then echo "FAIL: only $n cases"; fail=1; fi
echo "ci_jobs: $n cases, reports $([ $fail -eq 0 ] && echo identical || echo DIFFER)"
[ "$fail" -eq 0 ]
