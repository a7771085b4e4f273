#!/usr/bin/env bash
# jitprove opt / jitprove bugs: options, errors, --stats, --inject.
set -u
fail=0
pass=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { # name, status (0 = ok)
  if [ "$2" -ne 0 ]; then echo "FAIL $1"; fail=$((fail + 1)); else pass=$((pass + 1)); fi
}
t=$JP_SRC/corpus/opt/blog_wraparound.trace
b=$JP_SRC/corpus/bugs/add-wrap-bounds/orig.trace
out=$("$JITPROVE" opt "$t"); check "opt exits 0" $?
echo "$out" | grep -q 'guard_true(i2, descr=g0) \[i0\]'; check "labels made explicit" $?
echo "$out" | grep -q 'guard_true(i3, descr=g1)'; check "wraparound guard kept" $?
out=$("$JITPROVE" opt --inject add-wrap-bounds "$b")
echo "$out" | grep -q 'descr=g1'; check "bug drops guard g1" $(( $? == 0 ? 1 : 0 ))
cmp -s <(echo "$out") "$JP_SRC/corpus/bugs/add-wrap-bounds/opt.trace"; check "bug output is the committed opt.trace" $?
err=$("$JITPROVE" opt --stats "$JP_SRC/corpus/opt/pypy_bound_and.trace" 2>&1 >/dev/null)
echo "$err" | grep -q '^# ops: 17 -> 1, guards: 8 -> 0$'; check "--stats counts" $?
echo "$err" | grep -q 'removed by pass: fold [0-9]* simplify [0-9]* bounds [0-9]* cse [0-9]* virtualize [0-9]* heap [0-9]* dce [0-9]*'; check "--stats per pass" $?
out=$("$JITPROVE" opt --passes none "$t"); check "--passes none" $?
[ "$(echo "$out" | grep -c .)" -eq 7 ]; check "--passes none copies" $?
out=$("$JITPROVE" opt --passes fold,cse --width 8 "$t"); check "--passes and --width" $?
"$JITPROVE" opt --passes fold,licm "$t" >/dev/null 2>"$tmp/e" ; check "unknown pass exits 2" $(( $? == 2 ? 0 : 1 ))
grep -q "unknown pass 'licm'" "$tmp/e"; check "unknown pass named" $?
"$JITPROVE" opt --inject no-such-bug "$t" >/dev/null 2>&1; check "unknown bug exits 2" $(( $? == 2 ? 0 : 1 ))
"$JITPROVE" opt /nonexistent.trace >/dev/null 2>&1; check "missing file exits 2" $(( $? == 2 ? 0 : 1 ))
"$JITPROVE" opt --width 7 "$t" >/dev/null 2>&1; check "bad width exits 2" $(( $? == 2 ? 0 : 1 ))
"$JITPROVE" opt --help | grep -q 'usage: jitprove opt'; check "opt --help" $?
out=$("$JITPROVE" bugs); check "bugs exits 0" $?
for name in add-wrap-bounds neg-minint mul-backwards lshift-backwards ovf-cse pow2-div force-ge-zero and-no-shrink; do
  echo "$out" | grep -q "^$name  *[a-z]"; check "bugs lists $name" $?
  [ -f "$JP_SRC/corpus/bugs/$name/orig.trace" ]; check "reproducer for $name" $?
done
echo "opt_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
