#!/usr/bin/env bash
# jitprove ci exit codes on tests/ci-cases (see its README.md): 0 when every
# case meets its expectation, 1 on a refutation or missed expectation, 2 on
# errors, 3 when only unknowns exceed the budget -- for several budgets --
# and the summary's order: failures first, the counts last.
set -u
C=tests/ci-cases
fail=0; n=0
expect_rc() {
  local want=$1; shift
  n=$((n + 1))
  out=$("$JITPROVE" ci "$@" 2>&1); rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL jitprove ci $*: exit $rc, expected $want"; echo "$out" | head -30
    fail=$((fail + 1))
  fi
}
# mixed/: 8 cases, one of them unknown on purpose (rlimit 1 in its expect
# file), everything else as expected.
expect_rc 3 "$C/mixed"
expect_rc 3 "$C/mixed" --max-unknown 0
expect_rc 0 "$C/mixed" --max-unknown 1
expect_rc 0 "$C/mixed" --max-unknown 5
expect_rc 3 "$C/mixed" --max-unknown 10%    # 1 of 8 is 12.5%
expect_rc 0 "$C/mixed" --max-unknown 12.5%  # exactly at the limit
expect_rc 0 "$C/mixed" --max-unknown 20%
expect_rc 0 "$C/mixed" --max-unknown=1 --jobs 2
# A refutation without an expect file fails, whatever the budget; it
# outranks errors, which outrank unknowns.
expect_rc 1 "$C/failing"
expect_rc 1 "$C/mixed" "$C/failing" --max-unknown 1
expect_rc 1 "$C/mixed" "$C/failing" "$C/broken"
expect_rc 2 "$C/broken"
expect_rc 2 "$C/mixed" "$C/broken"
expect_rc 2 "$C/mixed" "$C/broken" --max-unknown 1
expect_rc 2 "$C/bad-expect"
# A single trace named directly, and a case directory named directly.
expect_rc 0 "$C/mixed/injected.trace"
expect_rc 0 "$C/mixed/proved"
expect_rc 1 "$C/failing/miscompiled"
# Usage errors.
expect_rc 2 "$C/no-such-dir"
expect_rc 2 "$C/README.md"
empty=$(mktemp -d); expect_rc 2 "$C/mixed" "$empty"; rmdir "$empty"
expect_rc 2 "$C/mixed" --max-unknown 5x
expect_rc 2 "$C/mixed" --max-unknown 1.5
expect_rc 2 "$C/mixed" --jobs 0
expect_rc 2 "$C/mixed" --cache-mode sometimes --cache /tmp/unused
expect_rc 2 "$C/mixed" --fuzz-seconds soon
expect_rc 2 "$C/mixed" --fuzz-inject no-such-bug

# Errors are reported located, as the parser does.
out=$("$JITPROVE" ci "$C/broken" "$C/bad-expect" 2>&1)
for want in "$C/broken/bad.trace:2:6: error: unknown operation" \
            "$C/bad-expect/case/expect:2:1: error: expected a verdict"; do
  n=$((n + 1))
  case "$out" in
    *"$want"*) ;;
    *) echo "FAIL: output lacks '$want':"; echo "$out"; fail=$((fail + 1)) ;;
  esac
done
# Failures first (with the counterexample and its location), the counts
# and the time last.
n=$((n + 1))
out=$("$JITPROVE" ci "$C/mixed" "$C/failing" --max-unknown 1 2>&1)
first=$(printf '%s\n' "$out" | head -n 1)
last=$(printf '%s\n' "$out" | tail -n 1)
case "$first|$last" in
  "FAIL     $C/failing/miscompiled: expected proved, got counterexample"*"|jitprove ci: 9 cases: 7 passed, 1 failed, 0 errors, 1 unknown"*" s")
    ;;
  *) echo "FAIL: summary order:"; echo "$out"; fail=$((fail + 1)) ;;
esac
n=$((n + 1))
if ! printf '%s\n' "$out" | grep -q "^         at $C/failing/miscompiled/opt.trace:3$"; then
  echo "FAIL: no location line for the failure"; echo "$out"; fail=$((fail + 1))
fi
echo "ci_exit: $((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
