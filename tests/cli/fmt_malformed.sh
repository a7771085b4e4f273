#!/usr/bin/env bash
# Every malformed trace in tests/malformed/ gets exit code 2 and a message
# located at the line:col its first line "# expect: LINE:COL text" names.
set -u
fail=0; n=0
for f in "$JP_SRC"/tests/malformed/*.trace; do
  n=$((n + 1))
  want=$(head -n 1 "$f" | sed -n 's/^# expect: //p')
  loc=${want%% *}
  text=${want#* }
  err=$("$JITPROVE" fmt "$f" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -ne 2 ]; then
    echo "FAIL $f: exit $rc, expected 2"; fail=$((fail + 1)); continue
  fi
  case "$err" in
    "$f:$loc: error: "*"$text"*) ;;
    *) echo "FAIL $f: message '$err' lacks '$f:$loc: error: ...$text'"; fail=$((fail + 1)) ;;
  esac
done
echo "fmt_malformed: $((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
