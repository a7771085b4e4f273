#!/bin/bash
# labels: slow
# A worker that dies on a signal while judging a trace is a finding of kind
# "crash": the parent saves the trace (regenerated from its seed) with the
# command that replays it, restarts the worker after that trace, and the
# campaign ends normally, reporting it.
set -u
J=$(realpath "${JITPROVE:?set JITPROVE to the jitprove binary}")
D=$(mktemp -d)
trap 'kill -KILL $pid 2>/dev/null; rm -rf "$D"' EXIT
fail() { echo "FAIL: $*" >&2; tail -20 "$D/err" >&2; exit 1; }
command -v pgrep >/dev/null || { echo "SKIP: no pgrep"; exit 77; }

"$J" fuzz --seconds 12 --seed 5 --out "$D/out" >"$D/out.txt" 2>"$D/err" &
pid=$!
worker=
for i in $(seq 1 100); do
	worker=$(pgrep -P "$pid" | head -1)
	[ -n "$worker" ] && break
	sleep 0.1
done
[ -n "$worker" ] || fail "no worker process"
sleep 2
kill -SEGV "$worker"
wait "$pid"
rc=$?
[ "$rc" = 1 ] || fail "campaign with a crash exited $rc"
grep -q "restarting" "$D/err" || fail "the worker was not restarted"
grep -q "crash" "$D/out.txt" || fail "the summary does not list the crash"
b=$(ls -d "$D"/out/findings/nobug.crash.signal-11 2>/dev/null)
[ -n "$b" ] || fail "no crash bundle"
for f in orig.trace info.json repro.sh; do
	[ -s "$b/$f" ] || fail "crash bundle lacks $f"
done
"$J" fmt "$b/orig.trace" >/dev/null || fail "crash trace does not parse"
grep -q '"kind": "crash"' "$b/info.json" || fail "info.json kind is not crash"
# The restarted worker went on: more traces were judged after the crash.
grep -Eq "^checked [0-9]+ traces" "$D/out.txt" || fail "no summary"
echo "fuzz_crash: ok"
