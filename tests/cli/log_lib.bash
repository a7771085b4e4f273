# Shared by the `jitprove log` CLI tests (sourced, not a test itself: the
# CLI tests are tests/cli/*.sh).  Sets up $tmp (removed on exit), $C (the
# corpus's PyPy logs), the failure count $fail and its helpers.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
C="$JP_SRC/corpus/pypy"
fail=0
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
# log_has NAME PATTERN ARGS...: `jitprove log ARGS` prints a line that
# PATTERN (grep) matches; else a failure named NAME, with the output.
log_has() {
  local name=$1 pat=$2
  shift 2
  "$JITPROVE" log "$@" >"$tmp/out" 2>&1
  grep -q "$pat" "$tmp/out" || bad "$name: $(cat "$tmp/out")"
}
