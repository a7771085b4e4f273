#!/usr/bin/env bash
# labels: slow
# jitprove check on every pair of corpus/pairs (hand-written, correct and
# wrong) and corpus/bugs (optimizer bug reproducers): the exit code matches
# the pair's expect file (proved 0, counterexample 1, error 2, unknown 3; a
# reproducer without one must be refuted), every counterexample says it was
# replayed, and the self-checks (each trace against itself, the encoding
# against the interpreter) hold.  Then the whole corpus once more in one
# process with --corpus, which also prints the throughput, together with
# corpus/regressions (whose expect files start with '#' comments).
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0; n=0
for dir in "$JP_SRC"/corpus/pairs/*/ "$JP_SRC"/corpus/bugs/*/; do
  [ -f "$dir/orig.trace" ] && [ -f "$dir/opt.trace" ] || continue
  n=$((n + 1))
  want=counterexample
  [ -f "$dir/expect" ] && want=$(tr -d ' \n' < "$dir/expect")
  opts=()
  # every word of the options file, over all its lines
  [ -f "$dir/options" ] && read -r -d "" -a opts < "$dir/options"
  "$JITPROVE" check --self-check "${opts[@]}" "$dir/orig.trace" "$dir/opt.trace" \
    >"$tmp/out" 2>&1
  rc=$?
  case $want in
    proved) code=0 ;; counterexample) code=1 ;; error) code=2 ;; unknown) code=3 ;;
    *) echo "FAIL $dir: bad expect '$want'"; fail=$((fail + 1)); continue ;;
  esac
  if [ "$rc" -ne "$code" ]; then
    echo "FAIL $dir: expected $want (exit $code), got exit $rc"; head -30 "$tmp/out"
    fail=$((fail + 1)); continue
  fi
  if [ "$want" = counterexample ] &&
     ! grep -q 'replayed on the interpreter' "$tmp/out"; then
    echo "FAIL $dir: counterexample without replay note"; fail=$((fail + 1))
  fi
done
[ "$n" -ge 40 ] || { echo "FAIL only $n pairs found"; fail=$((fail + 1)); }
dirs=("$JP_SRC/corpus/pairs")
[ -d "$JP_SRC/corpus/bugs" ] && dirs+=("$JP_SRC/corpus/bugs")
dirs+=("$JP_SRC/corpus/regressions")
if ! "$JITPROVE" check --corpus "${dirs[@]}" >"$tmp/out" 2>&1; then
  echo "FAIL check --corpus"; grep -v '^ok' "$tmp/out"; fail=$((fail + 1))
fi
tail -1 "$tmp/out"
echo "check_corpus: $n pairs, $fail failed"
[ "$fail" -eq 0 ]
