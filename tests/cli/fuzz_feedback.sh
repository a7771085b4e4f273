#!/bin/bash
# labels: slow
# Coverage feedback (#29, docs/fuzzing.md "Coverage feedback"): a share of
# the traces are mutations of traces that reached new rules or branches.
# - a finding in a mutated trace is saved with its identity
#   (SEED+CUT:SEED...), and fuzz --replay of that identity regenerates the
#   same original trace and fails again, and jitprove gen --seed ID prints
#   it (it runs to its end on its example inputs);
# - a campaign stopped and resumed makes the same traces and the same
#   corpus as one run in one go (the corpus is kept in the state);
# - without --coverage-feedback (the default) or with
#   --no-coverage-feedback, traces are fresh only; a bad identity is a
#   usage error that says what was expected;
# - a crashed worker's trace is regenerated from its identity.
set -u
J=$(realpath "${JITPROVE:?set JITPROVE to the jitprove binary}")
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Most traces mutate the corpus; a bug the mutations hit often.
"$J" fuzz --count 400 --seed 4 --coverage-feedback 90 --inject neg-minint,ovf-cse,and-no-shrink \
	--reduce-ms 2000 --timeout-ms 500 --json --out "$D/a" >"$D/a.json" 2>"$D/a.err"
rc=$?
[ "$rc" = 1 ] || fail "campaign with injected bugs exited $rc: $(tail -3 "$D/a.err")"
read -r sig tid < <(python3 - "$D/a.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
fb = d["coverage_feedback"]
assert fb["percent"] == 90 and fb["mutants"] > 200 and fb["features"] > 50, fb
for f in d["findings"]:
    if "+" in f["trace_id"] and f["kind"] != "crash":
        print(f["signature"], f["trace_id"])
        break
PY
) || fail "--json lacks coverage_feedback: $(head -c 300 "$D/a.json")"
[ -n "${tid:-}" ] || fail "no finding in a mutated trace: $(python3 -c 'import json,sys; print([f["trace_id"] for f in json.load(open(sys.argv[1]))["findings"]])' "$D/a.json")"
B="$D/a/findings/$sig"
grep -q "\"trace_id\": \"$tid\"" "$B/info.json" || fail "info.json lacks trace_id $tid"
grep -q -- "--replay $tid " "$B/repro.sh" || fail "repro.sh does not replay $tid"
grep -q "# trace $tid " "$B/orig.trace" || fail "orig.trace does not name its identity"
"$J" fuzz --replay "$tid" --inject neg-minint,ovf-cse,and-no-shrink --timeout-ms 500 >"$D/replay.out"
[ $? = 1 ] || fail "replaying $tid does not fail again"
grep -q "^# trace $tid$" "$D/replay.out" || fail "the replay does not name $tid"
# The same original trace: its op lines, without the value comments.
ops() { grep -v '^#' "$1" | sed 's/  # = .*//' | grep -v '^$'; }
ops "$B/orig.trace" >"$D/o1"
awk '/^\[/ {on = 1} on && /^$/ {exit} on' "$D/replay.out" | sed 's/  # = .*//' | grep -v '^#' | grep -v '^$' >"$D/o2"
cmp -s "$D/o1" "$D/o2" || fail "the replay of $tid is another trace: $(diff "$D/o1" "$D/o2" | head -5)"
# The replay's example inputs are the bundle's.
grep -m1 '^# args:' "$B/orig.trace" >"$D/a1"
grep -m1 '^# args:' "$D/replay.out" >"$D/a2"
cmp -s "$D/a1" "$D/a2" || fail "the replay has other example inputs"

# jitprove gen --seed takes the identity too: the same trace, and it runs
# to its end on its example inputs (every guard passes).
"$J" gen --seed "$tid" >"$D/gen.out" || fail "gen --seed $tid exited $?"
ops "$D/gen.out" | sed 's/  # = .*//' >"$D/o3"
cmp -s "$D/o1" "$D/o3" || fail "gen --seed $tid is another trace"
"$J" run - <"$D/gen.out" | tail -1 | grep -Eq '^result: (finish|jump)' ||
	fail "the mutated trace $tid does not run to its end on its example inputs"

# Resume: 300 traces in one go, and 150 + 150 resumed, give the same
# state (traces, ops generated, corpus) apart from the times.
"$J" fuzz --count 300 --seed 8 --coverage-feedback 25 --out "$D/one" >/dev/null 2>&1
"$J" fuzz --count 150 --seed 8 --coverage-feedback 25 --out "$D/two" >/dev/null 2>&1
"$J" fuzz --resume --count 150 --out "$D/two" >/dev/null 2>&1
st() { grep -Ev '^(elapsed|budget_seconds|budget_count) ' "$1/state"; }
grep -q '^cov_entry 0 ' "$D/one/state" || fail "the state keeps no corpus"
grep -q '^coverage_feedback 25$' "$D/one/state" || fail "the state lacks coverage_feedback 25"
grep -q '^cov_entry 0 [0-9]*+' "$D/one/state" || fail "no mutated trace joined the corpus"
diff <(st "$D/one") <(st "$D/two") >"$D/diff" ||
	fail "a resumed campaign made other traces: $(head -6 "$D/diff")"

# A damaged corpus line: the resume is refused with file:line, what was
# expected and what was found, and nothing runs.
cp -r "$D/one" "$D/dmg"
n=$(grep -n '^cov_entry 0 ' "$D/dmg/state" | head -1 | cut -d: -f1)
sed -i "${n}s/ [0-9a-f]*\$/ zz/" "$D/dmg/state"
cp "$D/dmg/state" "$D/dmg.before"
"$J" fuzz --resume --count 10 --out "$D/dmg" >/dev/null 2>"$D/dmg.err"
[ $? = 2 ] || fail "a damaged corpus line did not exit 2"
grep -q "state:$n:" "$D/dmg.err" || fail "the error does not give state:$n: $(cat "$D/dmg.err")"
grep -q "hexadecimal" "$D/dmg.err" || fail "the error does not say what was expected: $(cat "$D/dmg.err")"
cmp -s "$D/dmg/state" "$D/dmg.before" || fail "the refused resume changed the state"
# Corpus lines of another feature count (another optimizer version) are
# skipped: the stream goes on with an empty corpus.
cp -r "$D/one" "$D/old"
sed -i 's/^cov_bits .*/cov_bits 4/' "$D/old/state"
"$J" fuzz --resume --count 10 --out "$D/old" >/dev/null 2>"$D/old.err"
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || fail "resuming a state of another feature count exited $rc: $(cat "$D/old.err")"

# Off (the default, and --no-coverage-feedback): fresh traces only, and
# the summary says so.
for off in "" --no-coverage-feedback; do
	rm -rf "$D/off"
	"$J" fuzz --count 100 --seed 8 $off --out "$D/off" >"$D/off.out" 2>&1
	grep -q '^coverage feedback: off; [0-9]* features covered' "$D/off.out" ||
		fail "no 'coverage feedback: off' line ($off): $(grep -i feedback "$D/off.out")"
	grep -q '^coverage_feedback 0$' "$D/off/state" || fail "the state lacks coverage_feedback 0 ($off)"
	! grep -q '^cov_entry' "$D/off/state" || fail "a corpus without feedback ($off)"
done
# --resume keeps the campaign's share: a campaign with feedback goes on
# with it (checked above by the equal states), one without stays without.
"$J" fuzz --resume --count 20 --coverage-feedback 50 --out "$D/off" >/dev/null 2>&1
grep -q '^coverage_feedback 0$' "$D/off/state" || fail "--resume changed the feedback share"

# A worker killed while judging a trace: the parent regenerates the trace
# from its identity (a mutated one, most likely, at 90%) for the crash
# bundle, and restarts the worker with the stream's corpus.
if command -v pgrep >/dev/null; then
	"$J" fuzz --seconds 8 --seed 5 --coverage-feedback 90 --out "$D/crash" >"$D/crash.out" 2>"$D/crash.err" &
	pid=$!
	worker=
	for _ in $(seq 1 100); do
		worker=$(pgrep -P "$pid" | head -1)
		[ -n "$worker" ] && break
		sleep 0.1
	done
	[ -n "$worker" ] || { kill -KILL $pid; fail "no worker process"; }
	sleep 2
	kill -SEGV "$worker"
	wait "$pid"
	b="$D/crash/findings/nobug.crash.signal-11"
	[ -s "$b/info.json" ] || fail "no crash bundle: $(tail -3 "$D/crash.err")"
	grep -q "restarting" "$D/crash.err" || fail "the worker was not restarted"
	cid=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["trace_id"])' "$b/info.json")
	"$J" gen --seed "$cid" >"$D/cgen.out" || fail "gen --seed $cid (the crash) exited $?"
	cmp -s <(ops "$b/orig.trace") <(ops "$D/cgen.out") ||
		fail "the crash bundle of $cid is not the trace of $cid"
	grep -q '^cov_entry 0 ' "$D/crash/state" || fail "the restarted stream lost its corpus"
else
	echo "note: no pgrep, the crash part is skipped"
fi

# Bad identities are usage errors.
"$J" fuzz --replay "12+3" >/dev/null 2>"$D/bad.err"
[ $? = 2 ] || fail "a bad identity did not exit 2"
grep -q 'SEED+CUT:SEED' "$D/bad.err" || fail "the error does not say what was expected: $(cat "$D/bad.err")"
"$J" fuzz --replay "12+100000:5" >/dev/null 2>"$D/cut.err"
[ $? = 2 ] || fail "a cut past the trace did not exit 2: $(cat "$D/cut.err")"
grep -q 'cut 100000' "$D/cut.err" || fail "the error does not name the cut: $(cat "$D/cut.err")"
"$J" fuzz --count 1 --no-coverage-feedback --coverage-feedback 10 --out "$D/x" >/dev/null 2>&1
[ $? = 2 ] || fail "contradicting feedback options did not exit 2"
echo "fuzz_feedback: ok"
