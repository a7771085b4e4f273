#!/usr/bin/env bash
# 64-bit seeds are JSON strings wherever they are written (fuzz --json,
# a finding's info.json, ci --json's fuzz section, bench --json): as JSON
# numbers, jq and JavaScript round them to a double and replaying the
# rounded seed checks another trace.  The seed from the JSON, replayed,
# reproduces the finding.  Also: the bundle's repro.sh is mode 0755.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
big=18446744073709551557   # > 2^53: a double would round it

"$JITPROVE" fuzz --seconds 60 --seed "$big" --inject guard-value-bool --max-findings 1 \
  --json --out "$tmp/f" >"$tmp/f.json" 2>"$tmp/f.err"
rc=$?
[ "$rc" -eq 1 ] || { bad "fuzz with an injected bug: exit $rc, expected 1"; cat "$tmp/f.err"; }
out=$(python3 - "$tmp/f.json" "$tmp/f" "$big" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["seed"] == sys.argv[3], ("seed", d["seed"])
f = d["findings"][0]
assert isinstance(f["trace_seed"], str) and int(f["trace_seed"]) >= 0, f["trace_seed"]
info = json.load(open(sys.argv[2] + "/findings/" + f["signature"] + "/info.json"))
assert info["campaign_seed"] == sys.argv[3], info["campaign_seed"]
assert info["trace_seed"] == f["trace_seed"], (info["trace_seed"], f["trace_seed"])
# trace_id regenerates the trace: the seed, or SEED+CUT:SEED... for a
# mutated trace (coverage feedback), whose root is trace_seed.
assert info["trace_id"] == f["trace_id"], (info["trace_id"], f["trace_id"])
assert f["trace_id"].split("+")[0] == f["trace_seed"], f["trace_id"]
print(f["trace_id"])
PY
) || bad "fuzz --json / info.json seeds are not the exact strings"
if [ -n "$out" ]; then
  "$JITPROVE" fuzz --replay "$out" --inject guard-value-bool >/dev/null 2>&1
  rc=$?
  [ "$rc" -eq 1 ] || bad "replaying trace $out from the JSON: exit $rc, expected 1"
fi

# the bundle's repro.sh is executable, writable only by its owner (it was
# 0777: anyone could change what the next person runs)
for r in "$tmp"/f/findings/*/repro.sh; do
  m=$(stat -c %a "$r")
  [ "$m" = 755 ] || bad "$r has mode $m, expected 755"
done

"$JITPROVE" ci "$JP_SRC/corpus/pairs/const_fold" --fuzz-seconds 1 --fuzz-seed "$big" \
  --fuzz-out "$tmp/ci-fuzz" --json "$tmp/ci.json" >/dev/null 2>&1
python3 - "$tmp/ci.json" "$big" <<'PY' || bad "ci --json: fuzz seed is not the exact string"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["fuzz"]["seed"] == sys.argv[2], d["fuzz"]["seed"]
PY
[ "$fail" -eq 0 ] && echo "json_seeds: ok"
exit "$fail"
