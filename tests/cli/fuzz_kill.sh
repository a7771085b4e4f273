#!/bin/bash
# labels: slow
# A campaign killed with SIGKILL in the middle loses nothing it reported:
# every finding printed is a complete bundle on disk, the workers do not
# outlive the parent, the progress state is readable, and --resume goes on
# with the same seed streams from where they stopped.
set -u
set -m # background jobs get their own process group
J=$(realpath "${JITPROVE:?set JITPROVE to the jitprove binary}")
D=$(mktemp -d)
cleanup() {
	[ -n "${pid:-}" ] && kill -KILL -- "-$pid" 2>/dev/null
	rm -rf "$D"
}
trap cleanup EXIT
fail() {
	echo "FAIL: $*" >&2
	for f in "$D"/*.err; do
		[ -f "$f" ] && { echo "--- $f" >&2; tail -20 "$f" >&2; }
	done
	exit 1
}
BUGS=lshift-backwards,force-ge-zero,ovf-twin-cse,guard-value-bool,uint-signed-cmp

# Waits until FILE has at least N lines starting with FINDING.
wait_findings() {
	local file=$1 n=$2 i
	for i in $(seq 1 600); do
		[ "$(grep -c '^FINDING' "$file" 2>/dev/null)" -ge "$n" ] && return 0
		sleep 0.1
	done
	return 1
}

group_alive() {
	ps -e -o pgid= | awk -v g="$1" '$1 == g {found = 1} END {exit !found}'
}

# Every finding announced in FILE must be a complete bundle.
check_bundles() {
	local file=$1 sig d f
	for sig in $(sed -n 's/^FINDING after [0-9.]* s: //p' "$file"); do
		d="$D/out/findings/$sig"
		[ -d "$d" ] || fail "reported finding $sig has no bundle"
		for f in orig.trace opt.trace reduced.trace reduced.opt.trace \
			cex.txt info.json repro.sh; do
			[ -s "$d/$f" ] || fail "bundle $sig: $f missing or empty"
		done
		python3 -c 'import json, sys; json.load(open(sys.argv[1]))' \
			"$d/info.json" || fail "bundle $sig: info.json is not JSON"
		"$J" fmt "$d/reduced.trace" >/dev/null ||
			fail "bundle $sig: reduced.trace does not parse"
		"$J" fmt "$d/orig.trace" >/dev/null ||
			fail "bundle $sig: orig.trace does not parse"
		grep -q "fuzz --replay" "$d/repro.sh" ||
			fail "bundle $sig: repro.sh has no replay command"
	done
}

state_next() { # state_next STREAM -> next index of that stream
	awk -v s="$1" '$1 == "next" && $2 == s {print $3}' "$D/out/state"
}

# 1. Kill the parent alone: the workers must notice and leave.
"$J" fuzz --seconds 120 --seed 11 --jobs 2 --inject "$BUGS" \
	--out "$D/out" >"$D/run1.out" 2>"$D/run1.err" &
pid=$!
wait_findings "$D/run1.err" 2 || fail "no findings reported within 60 s"
sleep 0.5
kill -KILL "$pid"
wait "$pid" 2>/dev/null
for i in $(seq 1 200); do
	group_alive "$pid" || break
	sleep 0.1
done
group_alive "$pid" && fail "workers still running 20 s after the parent died"
pid=
check_bundles "$D/run1.err"
[ -s "$D/out/state" ] || fail "no state file"
seed=$(awk '$1 == "seed" {print $2}' "$D/out/state")
[ "$seed" = 11 ] || fail "state has seed '$seed', expected 11"
n0=$(state_next 0) n1=$(state_next 1)
[ -n "$n0" ] && [ -n "$n1" ] || fail "state lacks stream progress"
[ $((n0 + n1)) -gt 0 ] || fail "state shows no progress"

# 2. Resume for a fixed number of traces: both streams go on from where
#    they stopped, with the saved seed and bugs.
"$J" fuzz --resume --count 6 --jobs 2 --out "$D/out" \
	>"$D/run2.out" 2>"$D/run2.err"
rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "resumed campaign exited with $rc"
grep -q "(resumed)" "$D/run2.out" || fail "summary does not say resumed"
grep -q "inject $BUGS" "$D/run2.out" ||
	fail "resumed campaign did not keep the injected bugs"
m0=$(state_next 0) m1=$(state_next 1)
[ "$m0" = $((n0 + 3)) ] || fail "stream 0: expected next $((n0 + 3)), found $m0"
[ "$m1" = $((n1 + 3)) ] || fail "stream 1: expected next $((n1 + 3)), found $m1"
check_bundles "$D/run2.err"

# 3. Kill the whole process group (parent and workers) in the middle of
#    more work, then resume again.
"$J" fuzz --resume --seconds 120 --jobs 2 --out "$D/out" \
	>"$D/run3.out" 2>"$D/run3.err" &
pid=$!
sleep 4
kill -KILL -- "-$pid"
wait "$pid" 2>/dev/null
pid=
check_bundles "$D/run3.err"
k0=$(state_next 0)
[ "$k0" -ge "$m0" ] || fail "state went backwards: $k0 < $m0"
"$J" fuzz --resume --count 2 --jobs 1 --out "$D/out" \
	>"$D/run4.out" 2>"$D/run4.err"
rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "second resume exited with $rc"
[ "$(state_next 0)" = $((k0 + 2)) ] || fail "second resume did not continue stream 0"
# No temporary bundle is ever visible as a finding.
ls -A "$D/out/findings" | grep -q '^\.tmp' && fail "a temporary bundle was left"
echo "fuzz_kill: ok"
