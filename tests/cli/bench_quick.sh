#!/bin/bash
# labels: slow
# jitprove bench in its smallest configuration: every section runs once on
# a handful of traces, and the JSON report has the keys docs/performance.md
# documents, with numbers that are consistent with each other.
set -eu
: "${JITPROVE:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

TMPDIR="$tmp" "$JITPROVE" bench --check-pairs 2 --max-length 30 \
	--campaign-seconds 0.3 --memory-traces 4 --bugs neg-minint \
	--bug-seeds 1 --bug-seconds 1 --json "$tmp/b.json" >"$tmp/out" 2>"$tmp/err"

grep -q "check throughput" "$tmp/out"
grep -q "memory of a campaign slice" "$tmp/out"
grep -q "time to the first finding" "$tmp/out"
# The scratch directory of the campaigns is removed.
[ -z "$(ls "$tmp" | grep jp-bench || true)" ]

python3 - "$tmp/b.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for k in ("machine", "options", "seconds", "check", "scaling_1000_vs_30",
          "campaign", "camp_run", "memory", "bugs"):
    assert k in r, k
assert r["machine"]["nproc"] >= 1
# 64-bit seeds are strings (a JSON number would be rounded by jq)
assert isinstance(r["options"]["seed"], str), r["options"]
assert all(isinstance(c["max_seed"], str) for c in r["check"]), r["check"]
assert [c["len"] for c in r["check"]] == [10, 30], r["check"]
for c in r["check"]:
    assert c["pairs"] == 2, c
    assert c["proved"] + c["refuted"] + c["unknown"] == 2, c
    assert c["ms_mean"] > 0 and c["ms_max"] >= c["ms_median"], c
# Every generator profile is measured (more may be added over time).
assert {"all", "arithmetic", "bounds-heavy", "overflow-heavy"} <= \
    set(r["campaign"]), r["campaign"].keys()
for p in r["campaign"].values():
    assert p["traces"] >= 1
    assert p["proved"] + p["refuted"] + p["unknown"] + p["errors"] == p["traces"]
    o = p["obligations"]
    assert o["by_identity"] + o["by_concrete"] + o["by_range"] + o["by_rewrite"] + \
        o["by_solver"] + o["unknown"] == o["total"], o
    assert sum(k["n"] for k in p["solver_kinds"]) == o["by_solver"] + o["unknown"], p
    for k in ("generate", "optimize", "verify", "screen", "encode", "solve"):
        assert p["ms"][k] >= 0, k
assert r["camp_run"]["traces"] >= 1
mem = r["memory"]
assert len(mem) >= 2 and mem[-1]["traces"] == 4, mem
assert all(m["maxrss_kb"] > 0 for m in mem)
assert all(a["maxrss_kb"] <= b["maxrss_kb"] for a, b in zip(mem, mem[1:]))
assert all(a["unknown"] <= b["unknown"] for a, b in zip(mem, mem[1:]))
# The largest solver child so far (0 before the first one): never shrinks.
assert all(m["workers_maxrss_kb"] >= 0 for m in mem)
assert all(a["workers_maxrss_kb"] <= b["workers_maxrss_kb"]
           for a, b in zip(mem, mem[1:]))
assert [b["bug"] for b in r["bugs"]] == ["neg-minint"], r["bugs"]
assert r["bugs"][0]["runs"] == 1
PY

# Usage errors exit 2.
set +e
"$JITPROVE" bench --sections nope >/dev/null 2>&1; rc=$?
set -e
[ "$rc" = 2 ]
echo ok
