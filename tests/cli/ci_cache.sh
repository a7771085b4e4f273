#!/usr/bin/env bash
# labels: slow
# The proof cache of jitprove ci: a second run over an unchanged corpus
# gives identical verdicts without calling the solver for any case that
# has a definite verdict; read-only caches never write; damaged entries are
# misses, not verdicts; a changed trace is checked afresh.  (The timeout
# is generous so that no verdict depends on how loaded the machine is.)
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
C=tests/ci-cases
paths=("$C/mixed" "$C/failing" "$C/broken")
[ -d corpus/pairs ] && paths+=(corpus/pairs)
fail=0
run() { # NAME ARGS...: runs jitprove ci on the paths, JSON to $tmp/NAME.json
  local name=$1; shift
  "$JITPROVE" ci "${paths[@]}" --max-unknown 1 --timeout-ms 120000 --json "$tmp/$name.json" "$@" >"$tmp/$name.out" 2>&1
  echo $?
}
t0=$(date +%s%N); rc1=$(run first --cache "$tmp/cache"); t1=$(date +%s%N)
rc2=$(run second --cache "$tmp/cache"); t2=$(date +%s%N)
rc0=$(run nocache)
echo "first run $(( (t1 - t0) / 1000000 )) ms, second run $(( (t2 - t1) / 1000000 )) ms"
if [ "$rc1" != "$rc0" ] || [ "$rc2" != "$rc0" ]; then
  echo "FAIL: exit codes with cache $rc1/$rc2, without $rc0"; fail=1
fi
# The same files, checked again after one trace changed.
cp -r "$C/mixed" "$tmp/mixed"
sed -i 's/int_lshift(i0, 3)/int_mul(i0, 8)/' "$tmp/mixed/proved/opt.trace"
"$JITPROVE" ci --timeout-ms 120000 "$tmp/mixed" --max-unknown 1 --cache "$tmp/cache" --json "$tmp/changed.json" >/dev/null 2>&1
# Read-only: a missing cache stays missing, an existing one is not added to.
"$JITPROVE" ci --timeout-ms 120000 "${paths[@]}" --max-unknown 1 --cache "$tmp/ro-missing" --cache-mode read-only \
  --json "$tmp/ro1.json" >/dev/null 2>&1
before=$(find "$tmp/cache" -type f | sort | xargs md5sum)
cp -r "$C/mixed" "$tmp/mixed2"
sed -i 's/int_lshift(i0, 3)/int_mul(8, i0)/' "$tmp/mixed2/proved/opt.trace"
"$JITPROVE" ci --timeout-ms 120000 "${paths[@]}" "$tmp/mixed2" --max-unknown 2 --cache "$tmp/cache" --cache-mode read-only \
  --json "$tmp/ro2.json" >/dev/null 2>&1
after=$(find "$tmp/cache" -type f | sort | xargs md5sum)
# Damaged entries: every entry overwritten with garbage.
cp -r "$tmp/cache" "$tmp/damaged"
find "$tmp/damaged" -type f -exec sh -c 'printf "jitprove-proof-cache 1\nkey 00\nverdict proved\n" > "$1"' _ {} \;
"$JITPROVE" ci --timeout-ms 120000 "${paths[@]}" --max-unknown 1 --cache "$tmp/damaged" --json "$tmp/damaged.json" >/dev/null 2>&1

[ -e "$tmp/ro-missing" ] && { echo "FAIL: a read-only cache was created"; fail=1; }
[ "$before" = "$after" ] || { echo "FAIL: a read-only cache was written to"; fail=1; }
if find "$tmp/cache" -name '.tmp*' | grep -q .; then
  echo "FAIL: temporary files left in the cache"; fail=1
fi

python3 - "$tmp" <<'PY' || fail=1
import json, sys
tmp = sys.argv[1]
load = lambda n: json.load(open(f"{tmp}/{n}.json"))
fails = []
def check(cond, what):
    if not cond:
        fails.append(what)
KEYS = ("name", "verdict", "status", "expected", "obligation", "counterexample", "location", "message")
def verdicts(doc):
    return [{k: c[k] for k in KEYS} for c in doc["cases"]]
first, second, nocache = load("first"), load("second"), load("nocache")
check(verdicts(first) == verdicts(nocache), "cached first run differs from a run without cache")
check(verdicts(second) == verdicts(first), "second run's verdicts differ from the first's")
definite = lambda c: c["verdict"] in ("proved", "counterexample")
# On the first run only a pair seen earlier in the same run can hit (a
# single trace whose optimized form is also a stored pair, for instance).
for c in first["cases"]:
    want = ("miss", "hit") if c["verdict"] != "error" else ("off",)
    check(c["cache"] in want, f"first run: {c['name']} cache={c['cache']}")
first_hits = first["summary"]["cache_hits"]
check(first_hits < len(first["cases"]) // 2, f"first run: {first_hits} hits in an empty cache")
for c in second["cases"]:
    if definite(c):
        check(c["cache"] == "hit" and c["solver_calls"] == 0,
              f"second run: {c['name']} cache={c['cache']} solver_calls={c['solver_calls']}")
    elif c["verdict"] == "unknown":
        check(c["cache"] == "miss", f"second run: unknown {c['name']} must be retried")
    # The verifier's report comes back from the cache too.
    if definite(c):
        check(c["verifier"] is not None and c["verifier"]["verdict"] in ("proved", "counterexample"),
              f"second run: {c['name']} lost its verifier report")
hits = sum(1 for c in second["cases"] if definite(c))
check(second["summary"]["cache_hits"] == hits, "summary cache_hits")
unknown_calls = sum(c["solver_calls"] for c in second["cases"] if c["verdict"] == "unknown")
check(second["summary"]["solver_calls"] == unknown_calls,
      "the second run called the solver for a case with a definite verdict")
first_calls = first["summary"]["solver_calls"]
check(first_calls > second["summary"]["solver_calls"], f"first run solver calls {first_calls}")
changed = {c["name"].rsplit("/", 1)[-1]: c for c in load("changed")["cases"]}
check(changed["proved"]["cache"] == "miss", "a changed pair was served from the cache")
check(changed["refuted"]["cache"] == "hit", "an unchanged pair (copied elsewhere) missed the cache")
ro1 = load("ro1")
check(verdicts(ro1) == verdicts(nocache), "read-only missing cache changed verdicts")
check(all(c["cache"] != "hit" for c in ro1["cases"]), "hit in a missing cache")
ro2 = load("ro2")
check(any(c["cache"] == "hit" for c in ro2["cases"]), "read-only cache not read")
new = [c for c in ro2["cases"] if c["name"].endswith("mixed2/proved")]
check(len(new) == 1 and new[0]["cache"] == "miss" and new[0]["verdict"] == "proved",
      "read-only cache: a new pair must be checked normally")
damaged = load("damaged")
check(verdicts(damaged) == verdicts(nocache), "damaged cache entries changed verdicts")
check(damaged["summary"]["cache_hits"] == first_hits, "a damaged entry was used")
for f in fails:
    print("FAIL", f)
sys.exit(1 if fails else 0)
PY
echo "ci_cache: $([ $fail -eq 0 ] && echo passed || echo FAILED)"
[ "$fail" -eq 0 ]
