#!/bin/bash
# labels: slow
# External optimizers that fail (docs/own-optimizer.md): a crash (non-zero
# exit), a hang (no answer in time) and bad output (no trace) are findings
# of their own kind, reduced keeping that kind, with a repro.sh that
# replays with the same --optimizer command.  Commands that cannot work at
# all (missing, exit at once, garbage, silence, double answers) are usage
# errors with a clear message, and nothing hangs.
set -u
J=$(realpath "${JITPROVE:?set JITPROVE to the jitprove binary}")
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail() { echo "FAIL: $*" >&2; [ -f "$D/err" ] && tail -20 "$D/err" >&2; exit 1; }

# Optimizers that echo every trace except those with an int_mul.
mk() { # NAME ACTION
	printf 't=$(cat)\ncase "$t" in *int_mul*) %s ;; esac\nprintf "%%s\\n" "$t"\n' \
		"$2" >"$D/$1.sh"
}
mk crash 'echo "crash.sh: cannot multiply" >&2; exit 3'
mk bad 'echo "this is not a trace"; exit 0'
# Persistent, line by line: no answer once a line has an int_mul.
cat >"$D/hang.sh" <<'EOF'
while IFS= read -r l; do
	case "$l" in *int_mul*) sleep 60 ;; esac
	printf '%s\n' "$l"
done
EOF

# campaign NAME KIND EXTRA...: one finding of kind KIND, reduced, replayable.
campaign() {
	local name=$1 kind=$2
	shift 2
	timeout 120 "$J" fuzz --seconds 60 --seed 3 --max-findings 1 --no-heap \
		--profile arithmetic --out "$D/$name" --reduce-ms 30000 \
		--optimizer "sh $D/$name.sh" "$@" >"$D/out" 2>"$D/err"
	local rc=$?
	[ $rc = 1 ] || fail "$name: campaign exited $rc, expected 1 (a finding)"
	local b
	b=$(ls -d "$D/$name"/findings/*"$kind"* 2>/dev/null | head -1)
	[ -n "$b" ] || fail "$name: no bundle of kind $kind in $(ls "$D/$name/findings")"
	grep -q "\"kind\": \"$kind\"" "$b/info.json" || fail "$name: info.json kind"
	grep -q "int_mul" "$b/reduced.trace" ||
		fail "$name: the reduced trace lost what triggers the failure"
	# Smaller than the original (on a loaded machine the budget may cut
	# the reduction short; unloaded it ends at 1-3 ops).
	before=$(sed -n 's/.*"ops_before": \([0-9]*\).*/\1/p' "$b/info.json")
	after=$(sed -n 's/.*"ops_after": \([0-9]*\).*/\1/p' "$b/info.json")
	[ -n "$before" ] && [ -n "$after" ] && [ "$after" -lt "$before" ] ||
		fail "$name: not reduced ($before -> $after ops)"
	grep -q -- "--optimizer 'sh $D/$name.sh'" "$b/repro.sh" ||
		fail "$name: repro.sh does not name the optimizer command"
	(cd "$b" && JITPROVE="$J" timeout 60 sh repro.sh >"$D/repro" 2>&1)
	rc=$?
	[ $rc = 1 ] || fail "$name: repro.sh exited $rc, expected 1"
	grep -q "$kind" "$D/repro" || fail "$name: repro.sh does not show $kind"
	echo "$b"
}
b=$(campaign crash optimizer-crash) || exit 1
grep -q "status 3" "$b/info.json" || fail "crash: no exit status in info.json"
grep -q "cannot multiply" "$b/info.json" || fail "crash: no stderr tail"
b=$(campaign hang optimizer-hang --optimizer-persistent \
	--optimizer-timeout-ms 500) || exit 1
grep -q -- "--optimizer-timeout-ms 500" "$b/repro.sh" ||
	fail "hang: the timeout is not in repro.sh"
grep -q "no answer" "$b/info.json" || fail "hang: info.json does not say it"
b=$(campaign bad optimizer-bad-output) || exit 1
grep -q "does not parse" "$b/info.json" || fail "bad: no parse error in info.json"

# Commands that cannot work at all: exit 2 and a clear message, quickly.
bad_cmd() { # WHAT PATTERN ARGS...
	local what=$1 pat=$2
	shift 2
	timeout 30 "$J" fuzz --seconds 30 --seed 1 --out "$D/x" "$@" \
		>/dev/null 2>"$D/err"
	local rc=$?
	[ $rc = 2 ] || fail "$what: exit $rc, expected 2"
	grep -q "$pat" "$D/err" || fail "$what: message lacks '$pat'"
}
bad_cmd missing "cannot be run" --optimizer no-such-optimizer-xyz
bad_cmd "exits at once" "exited with status 1" --optimizer "exit 1"
bad_cmd "prints nothing" "does not parse" --optimizer "exit 0"
bad_cmd garbage "does not parse" --optimizer "echo garbage"
bad_cmd silent "no answer within 300 ms" --optimizer "sleep 100" \
	--optimizer-timeout-ms 300
bad_cmd "silent (persistent)" "no answer" --optimizer "cat >/dev/null" \
	--optimizer-persistent --optimizer-timeout-ms 300
bad_cmd "answers twice" "answered twice" --optimizer-persistent \
	--optimizer 'while IFS= read -r l; do [ "$l" = --end-- ] && { printf "[i0]\nfinish(i0)\n--end--\n[i0]\nfinish(i0)\n--end--\n"; }; done'
bad_cmd "options without --optimizer" "go with --optimizer" --optimizer-persistent
bad_cmd "--inject with --optimizer" "do not go with" --optimizer cat --inject neg-minint
bad_cmd "--syntax" "expected pypy or toy" --optimizer cat --syntax lisp
echo "extopt_failures: ok"
