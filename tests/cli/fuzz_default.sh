#!/bin/bash
# labels: slow
# The README's first command: `jitprove fuzz` with no arguments runs a
# short campaign (20 s) on the built-in optimizer, writes into ./jp-out,
# and prints what it checked and what it found.
set -u
J=$(realpath "${JITPROVE:?set JITPROVE to the jitprove binary}")
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$D" || exit 1
start=$(date +%s)
"$J" fuzz >out.txt 2>err.txt
rc=$?
took=$(($(date +%s) - start))
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "exit status $rc"
[ "$took" -ge 19 ] && [ "$took" -le 60 ] || fail "took $took s, expected about 20"
[ -d jp-out/findings ] && [ -d jp-out/unknown ] && [ -s jp-out/state ] ||
	fail "./jp-out is incomplete"
grep -q "no bug injected" err.txt || fail "the banner does not say what is checked"
grep -Eq "^checked [1-9][0-9]* traces" out.txt || fail "no traces checked"
grep -q "^findings: " out.txt || fail "no findings line"
if [ "$rc" = 0 ]; then
	grep -q "^findings: none" out.txt || fail "exit 0 with findings"
else
	for d in jp-out/findings/*/; do
		[ -s "$d/reduced.trace" ] || fail "finding $d incomplete"
	done
fi
echo "fuzz_default: ok (exit $rc, $took s)"
