#!/usr/bin/env bash
# jitprove check on a long trace shows its stages on a terminal (reading,
# encoding each trace, the obligations) and clears the line at the end;
# without a terminal it prints no progress.  `script` gives the command a
# terminal; JP_PROGRESS_DELAY_MS=0 shows the notes however fast the check.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if ! command -v script >/dev/null; then
  echo "SKIP: no 'script' (util-linux) to give the check a terminal"; exit 77
fi
fail=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
{ echo "[i0, i1]"; p=i0
  for k in $(seq 2 2001); do echo "i$k = int_add($p, i1)"; p=i$k; done
  echo "finish($p)"; } > "$tmp/chain.trace"
JP_PROGRESS_DELAY_MS=0 script -qec "'$JITPROVE' check '$tmp/chain.trace' '$tmp/chain.trace'" /dev/null > "$tmp/tty" 2>&1
rc=$?
[ "$rc" -eq 0 ] || bad "check on a terminal: exit $rc"
for note in "reading $tmp/chain.trace" "encoding the original trace (2001 ops)" \
            "encoding the optimized trace (2001 ops)" "obligation 1 of 1"; do
  grep -qF "$note" "$tmp/tty" || bad "no progress note '$note'"
done
grep -q "proved (aligned mode)" "$tmp/tty" || bad "no verdict on the terminal"
JP_PROGRESS_DELAY_MS=0 "$JITPROVE" check "$tmp/chain.trace" "$tmp/chain.trace" > "$tmp/out" 2> "$tmp/err"
[ "$?" -eq 0 ] || bad "check without a terminal failed"
[ -s "$tmp/err" ] && bad "progress printed without a terminal: $(head -c 200 "$tmp/err")"
echo "check_progress: $fail failed"
[ "$fail" -eq 0 ]
