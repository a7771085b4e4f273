#!/usr/bin/env bash
# jitprove check --audit and jitprove fuzz --audit-rate: every proof
# re-proved by Z3 on the plain encoding (docs/trust.md).  On pairs the
# shortcuts settle (ranges, facts, refolding) the audit agrees and the
# verdict and exit code do not move; the counts reach the JSON, the
# corpus summary and the campaign summary; bad rates are usage errors.
# (A disagreement is provoked in tests/test_check_audit.c with a test-only hook:
# the CLI has no way to make a shortcut lie.)
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
P="$JP_SRC/corpus/pairs"
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
expect_rc() { # expect_rc CODE DESCRIPTION -- command...
  local want=$1 what=$2; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  cat "$tmp/out" "$tmp/err" >"$tmp/all"
  [ "$rc" -eq "$want" ] || { bad "$what: exit $rc, expected $want"; head -20 "$tmp/all"; }
}
json_get() { python3 -c "import json,sys; d=json.load(open('$tmp/out')); print($1)"; }

# One pair settled by the ranges: proved, audited, no disagreement.
expect_rc 0 "audited range pair" -- "$JITPROVE" check --audit "$P/range_pins_value/orig.trace" "$P/range_pins_value/opt.trace"
grep -q '^proved' "$tmp/out" || bad "range pair not proved under --audit"
grep -q '^audit: [1-9][0-9]* obligations re-proved on the plain encoding: .* 0 disagreed' "$tmp/err" || { bad "audit line on stderr"; cat "$tmp/err"; }

# JSON counts.
expect_rc 0 "audited json" -- "$JITPROVE" check --audit --json "$P/refold_pinned_divisor/orig.trace" "$P/refold_pinned_divisor/opt.trace"
[ "$(json_get "d['verdict']")" = proved ] || bad "json verdict under --audit"
[ "$(json_get "d['stats']['audit_disagreed']")" = 0 ] || bad "json audit_disagreed"
[ "$(json_get "d['stats']['audited'] == d['stats']['audit_agreed'] + d['stats']['audit_unknown']")" = True ] || bad "json audit counts do not add up"
[ "$(json_get "d['stats']['audited'] > 0")" = True ] || bad "nothing audited"
# Without --audit nothing is audited.
expect_rc 0 "plain json" -- "$JITPROVE" check --json "$P/refold_pinned_divisor/orig.trace" "$P/refold_pinned_divisor/opt.trace"
[ "$(json_get "d['stats']['audited']")" = 0 ] || bad "audited without --audit"

# A wrong pair stays refuted.
expect_rc 1 "audited wrong pair" -- "$JITPROVE" check --audit "$P/wrap_add_lt/orig.trace" "$P/wrap_add_lt/opt.trace"

# Corpus mode prints the totals.
mkdir -p "$tmp/c"
cp -r "$P/range_pins_value" "$P/guard_value_pins" "$P/wrap_add_lt" "$tmp/c/"
expect_rc 0 "audited corpus" -- "$JITPROVE" check --audit --corpus "$tmp/c"
grep -q '^audit: .* 0 disagreed' "$tmp/out" || { bad "corpus audit line"; cat "$tmp/out"; }

# fuzz --audit-rate: the campaign summary counts audited traces.
expect_rc 0 "audited campaign" -- "$JITPROVE" fuzz --audit-rate 1 --count 5 --seed 3 --no-heap --out "$tmp/f"
grep -q '^audit: 5 traces audited, .* 0 disagreed' "$tmp/out" || { bad "campaign audit line"; cat "$tmp/out"; }
expect_rc 0 "unaudited campaign" -- "$JITPROVE" fuzz --audit-rate 0 --count 3 --seed 3 --no-heap --out "$tmp/g"
grep -q '^audit:' "$tmp/out" && bad "audit line at rate 0"
expect_rc 2 "rate above 1" -- "$JITPROVE" fuzz --audit-rate 1.5 --count 1 --out "$tmp/h"
grep -q 'audit-rate' "$tmp/err" || bad "rate error message"
expect_rc 2 "rate not a number" -- "$JITPROVE" fuzz --audit-rate x --count 1 --out "$tmp/h"

[ "$fail" -eq 0 ] && echo "check_audit: ok" || echo "check_audit: $fail failed"
exit $((fail > 0))
