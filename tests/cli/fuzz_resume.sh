#!/bin/bash
# labels: slow
# jitprove fuzz --resume and the state file (docs/fuzzing.md, "Interrupting
# and resuming"): a resumed campaign keeps its seed (and prints it) and
# runs the budget it has left; a new campaign does not replace the state
# of another one (exit 2 unless --force); a damaged state says where
# (file:line), what was expected and what was found; a used-up budget says
# how to go on.
set -u
J=$(realpath "${JITPROVE:?set JITPROVE to the jitprove binary}")
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
now() { date +%s.%N; }

# A 10 s campaign stopped after about 2 s (SIGINT: clean stop).  Short
# integer traces and a short solver timeout, so the stop is quick even on
# a loaded machine.
"$J" fuzz --seconds 10 --seed 5 --no-heap --length 5-15 --timeout-ms 200 \
	--out "$D/c" >"$D/1.out" 2>"$D/1.err" &
pid=$!
# The state appears once the campaign runs (its Ctrl-C handler is in).
for _ in $(seq 100); do [ -s "$D/c/state" ] && break; sleep 0.1; done
sleep 2
kill -INT $pid
wait $pid
[ -s "$D/c/state" ] || fail "no state after the first session"
grep -q '^budget_seconds 10' "$D/c/state" || fail "state lacks the budget: $(cat "$D/c/state")"
run1=$(awk '$1 == "elapsed" {print $2}' "$D/c/state")

# --resume without --seconds: the seed of the campaign, the time left.
t0=$(now)
"$J" fuzz --resume --out "$D/c" >"$D/2.out" 2>"$D/2.err"
rc=$?
t1=$(now)
[ $rc = 0 ] || [ $rc = 1 ] || fail "resume exited $rc: $(cat "$D/2.err")"
grep -q 'seed 5 (resumed)' "$D/2.err" || fail "resume does not print the campaign's seed: $(head -3 "$D/2.err")"
grep -q 'seed 5' "$D/2.out" || fail "the summary does not give seed 5"
# awk, not bc: a fresh Debian machine has no bc.
calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }
holds() { awk "BEGIN { exit !($1) }"; }
wall=$(calc "$t1 - $t0")
left=$(calc "10 - $run1")
# It ran the time left (about 8 s), not the default 20 s.
holds "$wall < $left + 3" || fail "resume ran $wall s, expected about $left s"
holds "$wall > $left - 1.5" || fail "resume ran only $wall s, expected about $left s"
all=$(awk '$1 == "elapsed" {print $2}' "$D/c/state")
holds "$all > 9" || fail "both sessions ran $all s, expected about 10"

# The budget is used up: --resume says so and how to go on.
"$J" fuzz --resume --out "$D/c" >"$D/3.out" 2>"$D/3.err"
[ $? = 2 ] || fail "resume of a finished campaign did not exit 2"
grep -q 'used its budget' "$D/3.err" || fail "no budget message: $(cat "$D/3.err")"
grep -q -- '--seconds N' "$D/3.err" || fail "the message does not say how to go on"
# An explicit --seconds goes on, with the same seed.
"$J" fuzz --resume --seconds 1 --out "$D/c" >"$D/4.out" 2>"$D/4.err"
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || fail "resume --seconds 1 exited $rc: $(cat "$D/4.err")"
grep -q 'seed 5 (resumed)' "$D/4.err" || fail "resume --seconds does not keep the seed"

# A new campaign in the same directory: refused, the state untouched.
cp "$D/c/state" "$D/state.before"
"$J" fuzz --seconds 1 --seed 9 --out "$D/c" >"$D/5.out" 2>"$D/5.err"
[ $? = 2 ] || fail "a new campaign over an existing state did not exit 2"
grep -q "state' exists" "$D/5.err" || fail "no message about the state: $(cat "$D/5.err")"
grep -q 'seed 5' "$D/5.err" || fail "the message does not say which campaign"
grep -q -- '--resume' "$D/5.err" && grep -q -- '--force' "$D/5.err" ||
	fail "the message does not say how to resume or force"
cmp -s "$D/state.before" "$D/c/state" || fail "the refused campaign changed the state"
# --force starts over (seed 9), the findings directory stays.
"$J" fuzz --seconds 1 --seed 9 --no-heap --force --out "$D/c" >"$D/6.out" 2>"$D/6.err"
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || fail "--force exited $rc: $(cat "$D/6.err")"
grep -q '^seed 9$' "$D/c/state" || fail "--force did not start a new campaign"

# Damaged states: file:line, what was expected, what was found.
good="$D/c/state"
cp "$good" "$D/good"
sed '3s/.*/seed twelve/' "$D/good" >"$good"
"$J" fuzz --resume --out "$D/c" >/dev/null 2>"$D/7.err"
[ $? = 2 ] || fail "a damaged state did not exit 2"
grep -q "state:3:.*expected 'seed N', found 'seed twelve'" "$D/7.err" ||
	fail "bad message for a damaged line: $(cat "$D/7.err")"
sed '5s/.*/frobnicate 1/' "$D/good" >"$good"
"$J" fuzz --resume --out "$D/c" >/dev/null 2>"$D/8.err"
[ $? = 2 ] || fail "an unknown key did not exit 2"
grep -q "state:5:.*expected a state key.*found 'frobnicate 1'" "$D/8.err" ||
	fail "bad message for an unknown key: $(cat "$D/8.err")"
: >"$good"
"$J" fuzz --resume --out "$D/c" >/dev/null 2>"$D/9.err"
[ $? = 2 ] || fail "an empty state did not exit 2"
grep -q "empty file" "$D/9.err" || fail "bad message for an empty state: $(cat "$D/9.err")"
grep -v '^seed' "$D/good" >"$good"
"$J" fuzz --resume --out "$D/c" >/dev/null 2>"$D/10.err"
[ $? = 2 ] || fail "a state without seed did not exit 2"
grep -q "expected a 'seed N' line" "$D/10.err" || fail "bad message for a missing seed: $(cat "$D/10.err")"
printf 'seed 1\n\0\1\2' >"$good"
"$J" fuzz --resume --out "$D/c" >/dev/null 2>"$D/11.err"
[ $? = 2 ] || fail "a binary state did not exit 2"
grep -q "binary" "$D/11.err" || fail "bad message for a binary state: $(cat "$D/11.err")"
echo "fuzz_resume: ok"
