#!/bin/bash
# labels: slow
# The built-in optimizer as an external command (examples/optimizers/
# builtin.sh: `jitprove opt -` one-shot, `jitprove opt --serve` persistent)
# runs clean in both modes; with a bug injected through the command it is
# found and saved like a built-in finding; jitprove reduce takes the same
# options; opt --serve speaks the framing.
set -u
J=$(realpath "${JITPROVE:?set JITPROVE to the jitprove binary}")
S=$(realpath "${JP_SRC:-.}/examples/optimizers/builtin.sh")
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail() { echo "FAIL: $*" >&2; [ -f "$D/err" ] && tail -20 "$D/err" >&2; exit 1; }
export JITPROVE="$J"

# opt --serve: two framed traces, two framed answers; a cut frame is an error.
printf '[i0]\ni1 = int_add(i0, 0)\nfinish(i1)\n--end--\n[i0]\ni1 = int_mul(i0, 2)\nfinish(i1)\n--end--\n' |
	"$J" opt --serve >"$D/serve" || fail "opt --serve failed"
[ "$(grep -c -- '^--end--$' "$D/serve")" = 2 ] || fail "opt --serve: not two answers"
grep -q "int_lshift(i0, 1)" "$D/serve" || fail "opt --serve did not optimize"
printf '[i0]\nfinish(i0)\n' | "$J" opt --serve >/dev/null 2>"$D/err"
[ $? = 2 ] || fail "opt --serve: a cut frame is not an error"
grep -q "expected a line --end--" "$D/err" || fail "opt --serve: unclear message"
printf '[i0]\ni1 = int_add(i0, 0)\nfinish(i1)\n' | "$J" opt - | grep -q "finish(i0)" ||
	fail "opt - (stdin) did not optimize"

for mode in one-shot persistent; do
	if [ $mode = persistent ]; then
		args=(--optimizer "sh $S --persistent" --optimizer-persistent)
	else
		args=(--optimizer "sh $S")
	fi
	"$J" fuzz --seconds 8 --seed 11 --out "$D/$mode" "${args[@]}" \
		>"$D/out" 2>"$D/err"
	rc=$?
	[ $rc = 0 ] || fail "$mode: the built-in optimizer as a command: exit $rc"
	grep -q "findings: none" "$D/out" || fail "$mode: findings"
	n=$(sed -n 's/^checked \([0-9]*\) traces.*/\1/p' "$D/out")
	[ "${n:-0}" -ge 3 ] || fail "$mode: only ${n:-0} traces"
	grep -q -- "--optimizer" "$D/out" || fail "$mode: the summary does not name the optimizer"
done

# An injected bug behind the command is found like a built-in one.
"$J" fuzz --seconds 60 --seed 5 --max-findings 1 --no-heap --out "$D/bug" \
	--optimizer "sh $S --persistent --inject neg-minint" --optimizer-persistent \
	>"$D/out" 2>"$D/err"
rc=$?
[ $rc = 1 ] || fail "injected bug behind the command: exit $rc, expected 1"
b=$(ls -d "$D"/bug/findings/*refuted* | head -1)
[ -n "$b" ] || fail "no refuted bundle"
(cd "$b" && timeout 120 sh repro.sh >"$D/repro" 2>&1)
[ $? = 1 ] || fail "repro.sh did not reproduce"

# jitprove reduce against the command.
"$J" reduce "$b/orig.trace" --optimizer "sh $S --inject neg-minint" \
	--failargs >"$D/red" 2>"$D/err"
[ $? = 1 ] || fail "reduce --optimizer did not reduce the failure"
grep -q "^# failure: refuted" "$D/red" || fail "reduce --optimizer: no failure line"
echo "extopt_builtin: ok"
