#!/bin/bash
# labels: slow
# jitprove fuzz and jitprove reduce from the command line: a short
# campaign, an injected bug found, reduced and saved as a complete bundle
# whose repro commands reproduce it, JSON output, replay, usage errors.
set -u
J=$(realpath "${JITPROVE:?set JITPROVE to the jitprove binary}")
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# A short campaign on the optimizer as it is: the summary is complete and
# the exit status agrees with it.
"$J" fuzz --count 15 --seed 3 --out "$D/a" >"$D/a.out" 2>"$D/a.err"
rc=$?
for w in "checked 15 traces" "proved" "refuted" "unknown" "time per stage" "findings:"; do
	grep -q "$w" "$D/a.out" || fail "summary lacks '$w'"
done
if grep -q "^findings: none" "$D/a.out"; then
	[ "$rc" = 0 ] || fail "no findings but exit $rc"
else
	[ "$rc" = 1 ] || fail "findings but exit $rc"
fi
[ -s "$D/a/state" ] || fail "no state file"

# An injected bug: found, reduced to a few ops, saved completely.
"$J" fuzz --seconds 60 --seed 1 --inject guard-value-bool --max-findings 1 --force \
	--json --out "$D/b" >"$D/b.json" 2>"$D/b.err"
rc=$?
[ "$rc" = 1 ] || fail "injected bug not found (exit $rc)"
read -r sig ops tseed < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["traces"] >= 1 and d["refuted"] >= 1
f = d["findings"][0]
print(f["signature"], f["ops_reduced"], f["trace_id"])
' "$D/b.json") || fail "--json output is not the expected JSON"
[ "$ops" -le 8 ] || fail "reproducer has $ops ops"
case "$sig" in guard-value-bool.refuted.*) ;; *) fail "signature '$sig'" ;; esac
B="$D/b/findings/$sig"
for f in orig.trace opt.trace reduced.trace reduced.opt.trace cex.txt info.json repro.sh; do
	[ -s "$B/$f" ] || fail "bundle lacks $f"
done
python3 - "$B/info.json" <<'PY' || fail "info.json lacks fields"
import json, sys
d = json.load(open(sys.argv[1]))
for k in ["signature", "kind", "trace_id", "trace_seed", "campaign_seed", "versions",
          "replay_command", "campaign_command", "injected_bugs", "reduction"]:
    assert k in d, k
assert d["versions"]["z3"].count(".") == 2
assert d["injected_bugs"] == "guard-value-bool"
PY
# The replay command regenerates the same original trace and fails again.
"$J" fuzz --replay "$tseed" --inject guard-value-bool >"$D/replay.out"
[ $? = 1 ] || fail "replay does not reproduce the failure"
grep -v '^#' "$B/orig.trace" | grep -v '^$' >"$D/o1"
sed -n '/^\[/,/^$/p' "$D/replay.out" | grep -v '^#' | grep -v '^$' >"$D/o2"
diff <(sed 's/  # = .*//' "$D/o1") <(sed 's/  # = .*//' "$D/o2" | head -n "$(wc -l <"$D/o1")") >/dev/null ||
	fail "replay printed another trace than orig.trace"
# repro.sh runs as written.
(cd "$B" && JITPROVE="$J" sh repro.sh >/dev/null 2>&1)
[ $? = 1 ] || fail "repro.sh does not reproduce"
# The reduced trace is a standalone reproducer for jitprove reduce.
"$J" reduce "$B/reduced.trace" --inject guard-value-bool >"$D/r.out"
[ $? = 1 ] || fail "reduce on the reduced trace: no failure"
"$J" fmt "$D/r.out" >/dev/null || fail "reduce output does not parse"
grep -q '^# signature: guard-value-bool' "$D/r.out" || fail "reduce prints no signature"
"$J" reduce "$B/orig.trace" --inject guard-value-bool --out "$D/r2.trace" >/dev/null
[ $? = 1 ] || fail "reduce on the original: no failure"
n=$(grep -v '^#' "$D/r2.trace" | grep -Evc '^\[|^(finish|jump)\(|^$')
[ "$n" -le 8 ] || fail "reduce left $n ops"
# Without the bug nothing is left to reduce.
printf '[i0]\ni1 = int_add(i0, 0)\nfinish(i1)\n' >"$D/ok.trace"
"$J" reduce "$D/ok.trace" >"$D/ok.out"
[ $? = 0 ] || fail "reduce of a correct pair did not exit 0"
grep -q "nothing to reduce" "$D/ok.out" || fail "reduce did not say nothing to reduce"

# A second campaign with the same bug into the same directory: the
# finding is known, not new.
"$J" fuzz --seconds 60 --seed 1 --inject guard-value-bool --max-findings 1 --force \
	--out "$D/b" >"$D/b2.out" 2>"$D/b2.err"
[ $? = 1 ] || fail "second campaign found nothing"
grep -q "\[known\] $sig" "$D/b2.out" || fail "known finding not recognised"

# Usage errors.
for args in "--jobs 0" "--inject nosuchbug" "--profile nope" "--seconds 0" \
	"--length 3-1" "--timeout-ms -1" "--count 0" "--bogus"; do
	"$J" fuzz $args --out "$D/x" >/dev/null 2>&1
	[ $? = 2 ] || fail "fuzz $args did not exit 2"
done
"$J" fuzz --resume --out "$D/none" >/dev/null 2>&1
[ $? = 2 ] || fail "--resume without state did not exit 2"
"$J" reduce >/dev/null 2>&1; [ $? = 2 ] || fail "reduce without a trace did not exit 2"
"$J" reduce "$D/nonexistent" >/dev/null 2>&1; [ $? = 2 ] || fail "reduce of a missing file did not exit 2"
echo "fuzz_basic: ok"
