#!/bin/bash
# labels: slow serial
# One injected bug is about one finding (docs/fuzzing.md, "Findings"):
# failures are blamed on an optimizer rule before they are reduced, hits of
# a known rule are counted, not reduced, and the campaign ends on time
# (it runs alone, label serial: under ctest -j2 beside another test a
# 15 s campaign once took 17.18 s).
# Before rule blame, neg-minint gave 36 distinct findings in 30 s.
set -u
J=$(realpath "${JITPROVE:?set JITPROVE to the jitprove binary}")
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

annotated=0
for bug in neg-minint ovf-cse; do
	t0=$(date +%s.%N)
	"$J" fuzz --seconds 15 --seed 1 --inject $bug --out "$D/$bug" \
		--json >"$D/$bug.json" 2>"$D/$bug.err"
	rc=$?
	t1=$(date +%s.%N)
	[ $rc = 1 ] || fail "$bug: exit $rc, expected 1 (findings): $(tail -3 "$D/$bug.err")"
	n=$(ls "$D/$bug/findings" | grep -vc '^\.')
	hits=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(f['hits'] for f in d['findings']))" "$D/$bug.json")
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	echo "$bug: $n findings, $hits hits, $secs s"
	[ "$n" -ge 1 ] && [ "$n" -le 3 ] || fail "$bug: $n findings, expected 1 to 3: $(ls "$D/$bug/findings")"
	[ "$hits" -gt "$n" ] || fail "$bug: $hits hits for $n findings: no duplicate was counted"
	# --seconds N ends within N + 2 s (process start and exit included).
	awk -v s="$secs" 'BEGIN { exit !(s < 17) }' || fail "$bug: the 15 s campaign took $secs s"
	# Every finding is blamed on a rule, except one a failure hit right
	# at the deadline may leave: blame and reduction were cut short, so
	# it keeps the shape signature, marked .partial (docs/fuzzing.md).
	ls "$D/$bug/findings" | grep -q "^$bug.refuted.rules." ||
		fail "$bug: no finding blamed on a rule: $(ls "$D/$bug/findings")"
	for f in "$D/$bug/findings"/*; do
		case "$(basename "$f")" in
		$bug.refuted.rules.*) ;;
		$bug.*.partial) ;;
		*) fail "$bug: signature $(basename "$f") is not a rule signature" ;;
		esac
		# The optimized traces say which rule made each op it
		# rewrote or created (removals leave no op to mark).
		for o in "$f/opt.trace" "$f/reduced.opt.trace"; do
			grep -q '# rule: ' "$o" || continue
			annotated=$((annotated + 1))
			"$J" fmt "$o" | grep -q '# rule: ' ||
				fail "$o: the rule comment does not survive fmt"
		done
	done
done
[ $annotated -gt 0 ] || fail "no optimized trace of a bundle has a rule comment"
# ovf-cse is a rewrite with no wrong fact behind it: its rule.
ls "$D/ovf-cse/findings" | grep -q '^ovf-cse.refuted.rules.simplify-ovf$' ||
	fail "ovf-cse not blamed on simplify.ovf: $(ls "$D/ovf-cse/findings")"
echo "fuzz_dedup: ok"
