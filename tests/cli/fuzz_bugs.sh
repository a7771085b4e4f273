#!/bin/bash
# labels: soak
# For every injected bug of `jitprove bugs`, a default campaign (one job,
# --seconds 60, fixed seeds) must find it, and the reduced reproducer must
# have at most 8 ops.  Prints the time to the first finding per seed and
# the median, as the markdown table in docs/fuzzing.md.
#
#   FUZZ_BUG_SEEDS="1 2 3 4 5"   seeds to run (default: 1 2 3)
#   FUZZ_BUGS="neg-minint ..."    bugs to run (default: all)
#   FUZZ_SECONDS=60               time limit of each campaign
set -u
J=${JITPROVE:?set JITPROVE to the jitprove binary}
SEEDS=${FUZZ_BUG_SEEDS:-1 2 3}
SECONDS_LIMIT=${FUZZ_SECONDS:-60}
BUGS=${FUZZ_BUGS:-$("$J" bugs | awk 'NF {print $1}')}
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail=0

# Bugs in the optimizer's heap passes need heap traces, which campaigns
# only generate when the verifier models the heap; they are reported as
# skipped (not failed) while it does not.
HEAP_BUGS=" materialize-drops-fields materialize-twice virtual-cycle alias-exact-only dse-across-escape virtual-fail-args "
heap_ok=1
"$J" fuzz --count 1 --seed 1 --out "$D/probe" >/dev/null 2>"$D/probe.err"
grep -q "does not model the heap" "$D/probe.err" && heap_ok=0

printf '| bug | %s | median | reduced ops |\n' "$(echo $SEEDS | sed 's/ / | /g; s/[0-9][0-9]*/seed &/g')"
printf '|---|%s---|---|\n' "$(for s in $SEEDS; do printf -- '---|'; done)"
for bug in $BUGS; do
	times=() row="" maxops=0
	if [ "$heap_ok" = 0 ] && [[ "$HEAP_BUGS" == *" $bug "* ]]; then
		echo "| $bug | skipped: the verifier does not model the heap |"
		continue
	fi
	for seed in $SEEDS; do
		out="$D/$bug-$seed"
		"$J" fuzz --seconds "$SECONDS_LIMIT" --seed "$seed" --inject "$bug" \
			--max-findings 1 --json --out "$out" >"$out.json" 2>"$out.err"
		rc=$?
		read -r t ops < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = d["findings"]
print("%.1f %d" % (f[0]["first_after_s"], f[0]["ops_reduced"]) if f else "- 0")
' "$out.json" 2>/dev/null || echo "- 0")
		if [ "$rc" != 1 ] || [ "$t" = "-" ]; then
			echo "FAIL: $bug not found with seed $seed (exit $rc)" >&2
			fail=1
			row="$row | not found"
			continue
		fi
		if [ "$ops" -gt 8 ]; then
			echo "FAIL: $bug seed $seed: reproducer has $ops ops (> 8)" >&2
			fail=1
		fi
		[ "$ops" -gt "$maxops" ] && maxops=$ops
		times+=("$t")
		row="$row | $t s"
	done
	med=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)] " s"; else print "-"}')
	echo "| $bug$row | $med | <= $maxops |"
done
exit $fail
