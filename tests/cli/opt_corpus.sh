#!/usr/bin/env bash
# labels: slow
# jitprove opt on every trace of corpus/: the output parses, and runs in the
# interpreter to the same result as the input on the trace's '# args:'.
set -u
fail=0
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
while IFS= read -r t; do
  dir=$(dirname "$t")
  width=64
  if [ -f "$dir/options" ]; then
    w=$(grep -o -- '--width[ =]*[0-9]*' "$dir/options" | grep -o '[0-9]*$')
    [ -n "$w" ] && width=$w
  fi
  # Files that do not parse are the other tools' test material.
  "$JITPROVE" fmt --opaque --width "$width" "$t" >/dev/null 2>&1 || continue
  n=$((n + 1))
  if ! "$JITPROVE" opt --opaque --width "$width" "$t" >"$tmp/o.trace" 2>"$tmp/err"; then
    echo "FAIL opt $t: $(cat "$tmp/err")"; fail=$((fail + 1)); continue
  fi
  "$JITPROVE" fmt --opaque --width "$width" "$tmp/o.trace" >/dev/null 2>&1 ||
    { echo "FAIL output of $t does not parse"; fail=$((fail + 1)); continue; }
  args=$(grep -m1 '^# *args:' "$t" | sed 's/^# *args://; s/ //g')
  [ -z "$args" ] && continue
  a=$("$JITPROVE" run --opaque --width "$width" --args "$args" "$t" 2>&1 | grep '^result:')
  b=$("$JITPROVE" run --opaque --width "$width" --args "$args" "$tmp/o.trace" 2>&1 | grep '^result:')
  if [ -z "$a" ] || [ "$a" != "$b" ]; then
    echo "FAIL $t on $args: '$a' vs '$b'"; fail=$((fail + 1))
  fi
done < <(find "$JP_SRC/corpus" -name '*.trace' | sort)
[ "$n" -ge 30 ] || { echo "FAIL only $n traces"; fail=$((fail + 1)); }
echo "opt_corpus: $n traces, $fail failed"
[ "$fail" -eq 0 ]
