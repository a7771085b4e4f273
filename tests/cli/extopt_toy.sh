#!/bin/bash
# labels: slow
# The Python toy optimizer (examples/optimizers/toyopt.py, toy spelling:
# constant folding, CSE, allocation removal): with its planted bug
# (--bug: materialization loses constant fields) a campaign with the toy
# profile and --syntax toy finds it well within 60 s; without the bug a
# campaign runs clean.  Needs python3 (else skipped, exit 77).
set -u
J=$(realpath "${JITPROVE:?set JITPROVE to the jitprove binary}")
T=$(realpath "${JP_SRC:-.}/examples/optimizers/toyopt.py")
command -v python3 >/dev/null || { echo "skipped: no python3"; exit 77; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail() { echo "FAIL: $*" >&2; [ -f "$D/err" ] && tail -20 "$D/err" >&2; exit 1; }

# The bug: found, with the time it took under 60 s.
timeout 120 "$J" fuzz --seconds 60 --seed 7 --max-findings 1 --syntax toy \
	--out "$D/bug" --reduce-ms 15000 \
	--optimizer "python3 $T --persistent --bug" --optimizer-persistent \
	>"$D/out" 2>"$D/err"
rc=$?
[ $rc = 1 ] || fail "the planted bug was not found (exit $rc)"
at=$(sed -n 's/^FINDING after \([0-9.]*\) s.*/\1/p' "$D/err" | head -1)
[ -n "$at" ] || fail "no FINDING line"
awk -v t="$at" 'BEGIN { exit !(t < 60) }' || fail "found after $at s (> 60)"
b=$(ls -d "$D"/bug/findings/*refuted* | head -1)
[ -n "$b" ] || fail "no refuted bundle"
grep -q "store(" "$b/reduced.trace" || fail "the reduced trace has no store"
grep -q "alloc()" "$b/reduced.trace" || fail "the reduced trace has no alloc"
grep -q -- "--syntax toy" "$b/repro.sh" || fail "repro.sh lacks --syntax toy"
echo "planted bug found after $at s"

# The same bug in one-shot mode, switched on by the environment.
TOYOPT_BUG=1 "$J" reduce "$b/reduced.trace" --optimizer "python3 $T" \
	--syntax toy >"$D/red" 2>"$D/err"
[ $? = 1 ] || fail "one-shot reduce with TOYOPT_BUG=1 did not fail"

# Without the bug: clean.
"$J" fuzz --seconds 15 --seed 7 --syntax toy --out "$D/clean" \
	--optimizer "python3 $T --persistent" --optimizer-persistent \
	>"$D/out" 2>"$D/err"
rc=$?
[ $rc = 0 ] || fail "the clean toy optimizer: exit $rc"
n=$(sed -n 's/^checked \([0-9]*\) traces.*/\1/p' "$D/out")
[ "${n:-0}" -ge 5 ] || fail "clean run: only ${n:-0} traces"
"$J" reduce "$b/reduced.trace" --optimizer "python3 $T" --syntax toy \
	>"$D/red" 2>"$D/err"
[ $? = 0 ] || fail "one-shot, no bug: the reduced trace still fails"
echo "extopt_toy: ok"
