#!/usr/bin/env bash
# labels: slow
# Resource limits win over the wall clock (docs/ci.md, "Limits"): with an
# rlimit, `check` and `ci` raise a short --timeout-ms to a safety net, so a
# query that needs 300 ms on a loaded machine is proved under a 50 ms
# timeout; options files may say --rlimit (check --corpus read no --rlimit
# before); and a too-small rlimit is an unknown with the resource-limit
# reason on every run, whatever the load.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
src=$JP_SRC/corpus/pairs/magic_mod_negative
mkdir -p "$tmp/c"; cp "$src/orig.trace" "$src/opt.trace" "$tmp/c/"
echo proved > "$tmp/c/expect"

# a short wall clock alone cannot prove it (the query took > 200 ms when
# this test was written, 20-50 ms in session 23: 5 ms is short)
"$JITPROVE" check "$tmp/c/orig.trace" "$tmp/c/opt.trace" --timeout-ms 5 >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 3 ] || { echo "FAIL: --timeout-ms 5 alone: exit $rc, expected 3"; cat "$tmp/out"; fail=1; }

# with an rlimit, the rlimit decides
"$JITPROVE" check "$tmp/c/orig.trace" "$tmp/c/opt.trace" --timeout-ms 50 --rlimit 40000000 >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: check --timeout-ms 50 --rlimit: exit $rc, expected 0"; cat "$tmp/out"; fail=1; }

# the same from an options file, in ci and in check --corpus
printf -- '--timeout-ms 50\n--rlimit 40000000\n' > "$tmp/c/options"
"$JITPROVE" ci "$tmp/c" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: ci with options --timeout-ms 50 --rlimit: exit $rc"; cat "$tmp/out"; fail=1; }
"$JITPROVE" check --corpus "$tmp" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: check --corpus with --rlimit in options: exit $rc"; cat "$tmp/out"; fail=1; }

# ... and in an expect file (its settings win over the options file)
printf 'proved\ntimeout-ms 50\nrlimit 40000000\n' > "$tmp/c/expect"
rm "$tmp/c/options"
"$JITPROVE" ci "$tmp/c" --timeout-ms 50 >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: ci with expect timeout-ms 50 + rlimit: exit $rc"; cat "$tmp/out"; fail=1; }

# a too-small rlimit: unknown, for the resource limit, twice the same
for i in 1 2; do
  "$JITPROVE" check "$tmp/c/orig.trace" "$tmp/c/opt.trace" --rlimit 1000 >"$tmp/out" 2>&1
  rc=$?
  if [ "$rc" -ne 3 ] || ! grep -q 'resource limit' "$tmp/out"; then
    echo "FAIL: --rlimit 1000 (run $i): exit $rc, expected 3 with the resource limit"
    cat "$tmp/out"; fail=1
  fi
done
[ "$fail" -eq 0 ] && echo "ci_limits: ok"
exit "$fail"
