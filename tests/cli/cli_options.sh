#!/usr/bin/env bash
# The shared option groups (tools/cli.[ch]) and the end of every command
# (issue #28): options mean and are checked the same in every command,
# bad values are refused before any work with exit 2 and a message saying
# what was expected and what was found, report paths are checked up front,
# and a failed write to standard output is exit 2, never 0.
set -u
J=$(realpath "${JITPROVE:?set JITPROVE to the jitprove binary}")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
P="$JP_SRC/corpus/pairs"
T="$P/wrap_add_lt_ovf/orig.trace"
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
# run CODE DESCRIPTION -- command...: the exit status must be CODE.
run() {
  local want=$1 what=$2; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  [ "$rc" -eq "$want" ] || { bad "$what: exit $rc, expected $want"; head -5 "$tmp/err"; }
}
says() { grep -q -- "$1" "$tmp/err" || bad "$2: message lacks '$1': $(head -2 "$tmp/err")"; }

# fuzz --count: N >= 1.  -1 used to run forever, 0 the default 20 s.
for n in -1 0; do
  run 2 "fuzz --count $n" -- timeout 20 "$J" fuzz --count $n --out "$tmp/f"
  says "option '--count': expects an integer >= 1, found '$n'" "fuzz --count $n"
done
[ -e "$tmp/f" ] && bad "fuzz --count 0 created its output directory"
run 0 "fuzz --count 2" -- timeout 120 "$J" fuzz --count 2 --seed 1 --out "$tmp/f2"
grep -q "checked 2 traces" "$tmp/out" || bad "fuzz --count 2 did not check 2 traces"

# --timeout-ms 0 means "no limit" everywhere; negative is refused the same
# way everywhere.
run 0 "fuzz --timeout-ms 0" -- timeout 120 "$J" fuzz --count 2 --seed 1 --timeout-ms 0 --out "$tmp/f3"
grep -q "checked 2 traces" "$tmp/out" || bad "fuzz --timeout-ms 0 did not check 2 traces"
run 0 "reduce --timeout-ms 0" -- "$J" reduce --timeout-ms 0 "$T"
grep -q "nothing to reduce" "$tmp/out" || bad "reduce --timeout-ms 0 output"
run 0 "check --timeout-ms 0" -- "$J" check --timeout-ms 0 "$T" "$P/wrap_add_lt_ovf/opt.trace"
for cmd in "check $T $T" "ci $P/wrap_add_lt_ovf" "fuzz --count 1" "reduce $T" "bench --sections check"; do
  run 2 "$cmd --timeout-ms -5" -- $J $cmd --timeout-ms -5
  says "option '--timeout-ms': expects an integer from 0 to 86400000, found '-5'" "$cmd --timeout-ms -5"
done

# One message for one mistake, whatever the command.
for cmd in "fuzz --count 1" "ci $P/wrap_add_lt_ovf"; do
  run 2 "$cmd --jobs 0" -- $J $cmd --jobs 0
  says "option '--jobs': expects an integer from 1 to 256, found '0'" "$cmd --jobs 0"
done
for cmd in "fmt $T" "run $T" "opt $T" "gen" "check $T $T" "reduce $T" "fuzz --count 1" "bench"; do
  run 2 "$cmd --width 7" -- $J $cmd --width 7
  says "option '--width': expects 8, 16, 32 or 64, found '7'" "$cmd --width 7"
done
for cmd in "opt $T" "reduce $T" "fuzz --count 1"; do
  run 2 "$cmd --inject nosuchbug" -- $J $cmd --inject nosuchbug
  says "option '--inject'" "$cmd --inject nosuchbug"
done

# Report paths are checked before any work: a missing directory fails at
# once, naming what was expected.
for opt in junit sarif json; do
  start=$(date +%s)
  run 2 "ci --$opt nodir/x" -- "$J" ci "$JP_SRC/corpus" --$opt "$tmp/nodir/x.xml"
  says "option '--$opt': cannot write '$tmp/nodir/x.xml': expected an existing directory '$tmp/nodir', found none" "ci --$opt"
  [ -s "$tmp/out" ] && bad "ci --$opt nodir/x checked cases before failing: $(head -1 "$tmp/out")"
  [ $(( $(date +%s) - start )) -le 5 ] || bad "ci --$opt nodir/x took over 5 s"
done
run 2 "ci --junit DIR" -- "$J" ci "$JP_SRC/corpus" --junit "$tmp"
says "expected a file, found the directory" "ci --junit DIR"
run 2 "reduce --out nodir/x" -- "$J" reduce "$T" --out "$tmp/nodir/r.trace"
says "expected an existing directory" "reduce --out nodir"
run 2 "bench --json nodir/x" -- "$J" bench --json "$tmp/nodir/b.json"
says "expected an existing directory" "bench --json nodir"
run 2 "fuzz --out nodir/sub" -- "$J" fuzz --count 1 --out "$tmp/nodir/sub"
says "expected an existing directory" "fuzz --out nodir/sub"
: >"$tmp/file"
run 2 "fuzz --out FILE" -- "$J" fuzz --count 1 --out "$tmp/file"
says "expected a directory, found the file" "fuzz --out FILE"

# Standard output that cannot be written is exit 2 with a message.
if [ -w /dev/full ]; then
  for cmd in "fmt $T" "gen --seed 1" "check --json $T $T" "run $T" "opt $T" "bugs" "--help" "check --help"; do
    $J $cmd >/dev/full 2>"$tmp/err"; rc=$?
    [ $rc = 2 ] || bad "$cmd > /dev/full: exit $rc, expected 2"
    says "error writing standard output" "$cmd > /dev/full"
  done
else
  echo "note: no writable /dev/full, stdout write errors not checked"
fi

echo "cli_options: $fail failed"
[ "$fail" -eq 0 ]
