#!/usr/bin/env bash
# jitprove run: values, guard failure, --args, '# args:' default, errors.
set -u
fail=0
t=$JP_SRC/corpus/examples/wraparound.trace
check() { # name, condition-result
  if [ "$2" -ne 0 ]; then echo "FAIL $1"; fail=$((fail + 1)); fi
}
out=$("$JITPROVE" run "$t"); rc=$?
check "run exit 0" $rc
echo "$out" | grep -q '^result: jump(13 (0xd))$'; check "default args from '# args:' comment" $?
out=$("$JITPROVE" run "$t" --args 0x7fffffffffffffff)
echo "$out" | grep -q '^result: guard g1 failed'; check "wraparound input fails g1" $?
echo "$out" | grep -q 'i1 = int_add(i0, 10).*# = -9223372036854775799'; check "wrapped value printed" $?
out=$("$JITPROVE" run "$t" --width 8 --args 250)
echo "$out" | grep -q 'result: jump(4)'; check "width 8 wraps 250+10 to 4" $?
"$JITPROVE" run "$t" --args 1,2 >/dev/null 2>&1; check "wrong arg count exits 2" $(( $? == 2 ? 0 : 1 ))
"$JITPROVE" run "$t" --args x >/dev/null 2>&1; check "bad args exit 2" $(( $? == 2 ? 0 : 1 ))
"$JITPROVE" run "$t" --width 7 >/dev/null 2>&1; check "bad width exits 2" $(( $? == 2 ? 0 : 1 ))
"$JITPROVE" run /nonexistent.trace >/dev/null 2>&1; check "missing file exits 2" $(( $? == 2 ? 0 : 1 ))
"$JITPROVE" nosuchcommand >/dev/null 2>&1; check "unknown command exits 2" $(( $? == 2 ? 0 : 1 ))
"$JITPROVE" run --help | grep -q 'usage: jitprove run'; check "--help" $?
echo "run_basic: $((11 - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
