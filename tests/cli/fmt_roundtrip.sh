#!/usr/bin/env bash
# Round trip over every trace in corpus/: fmt of fmt output is identical to
# fmt output.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0; n=0
while IFS= read -r -d '' f; do
  n=$((n + 1))
  if ! "$JITPROVE" fmt --opaque "$f" >"$tmp/a" 2>"$tmp/err"; then
    echo "FAIL $f: does not parse: $(cat "$tmp/err")"; fail=$((fail + 1)); continue
  fi
  if ! "$JITPROVE" fmt --opaque "$tmp/a" >"$tmp/b" 2>"$tmp/err" || ! cmp -s "$tmp/a" "$tmp/b"; then
    echo "FAIL $f: fmt(fmt(x)) differs from fmt(x)"; diff "$tmp/a" "$tmp/b" | head -5
    fail=$((fail + 1)); continue
  fi
done < <(find "$JP_SRC/corpus" -name '*.trace' -print0 | sort -z)
if [ "$n" -eq 0 ]; then echo "no corpus traces found"; exit 1; fi
echo "fmt_roundtrip: $((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
