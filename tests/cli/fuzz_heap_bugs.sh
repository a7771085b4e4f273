#!/bin/bash
# labels: soak
# For every heap bug of `jitprove bugs`, a `--profile heap` campaign (one
# job, --seconds 60, fixed seeds) must find it, the reduced reproducer must
# have at most 8 ops, and `jitprove check` must refute the saved reduced
# pair (exit 1).  Prints the time to the first finding (reduction
# included) and the reduced size per seed, as the markdown table in
# docs/fuzzing.md.
#
#   FUZZ_BUG_SEEDS="1 2 3 4 5"   seeds to run (default: 1 2 3)
#   FUZZ_BUGS="virtual-cycle ..." bugs to run (default: the heap bugs)
#   FUZZ_SECONDS=60               time limit of each campaign
set -u
J=${JITPROVE:?set JITPROVE to the jitprove binary}
SEEDS=${FUZZ_BUG_SEEDS:-1 2 3}
SECONDS_LIMIT=${FUZZ_SECONDS:-60}
BUGS=${FUZZ_BUGS:-materialize-drops-fields materialize-twice virtual-cycle alias-exact-only dse-across-escape virtual-fail-args}
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail=0

printf '| bug |%s median | reduced ops |\n' "$(for s in $SEEDS; do printf ' seed %s |' "$s"; done)"
printf '|---|%s---|---|\n' "$(for s in $SEEDS; do printf -- '---|'; done)"
for bug in $BUGS; do
	if ! "$J" bugs | awk '{print $1}' | grep -qx -- "$bug"; then
		echo "FAIL: $bug is not an injectable bug" >&2
		fail=1
		continue
	fi
	times=() row="" maxops=0
	for seed in $SEEDS; do
		out="$D/$bug-$seed"
		"$J" fuzz --profile heap --seconds "$SECONDS_LIMIT" --seed "$seed" \
			--inject "$bug" --max-findings 1 --json --out "$out" \
			>"$out.json" 2>"$out.err"
		rc=$?
		read -r t ops sig < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = d["findings"]
print("%.1f %d %s" % (f[0]["first_after_s"], f[0]["ops_reduced"], f[0]["signature"]) if f else "- 0 -")
' "$out.json" 2>/dev/null || echo "- 0 -")
		if [ "$rc" != 1 ] || [ "$t" = "-" ]; then
			echo "FAIL: $bug not found with seed $seed (exit $rc)" >&2
			fail=1
			row="$row not found |"
			continue
		fi
		if [ "$ops" -gt 8 ]; then
			echo "FAIL: $bug seed $seed: reproducer has $ops ops (> 8)" >&2
			fail=1
		fi
		# The saved reduced pair must stand on its own: check refutes it.
		fd="$out/findings/$sig"
		"$J" check --failargs "$fd/reduced.trace" "$fd/reduced.opt.trace" \
			>"$out.check" 2>&1
		crc=$?
		if [ "$crc" != 1 ]; then
			echo "FAIL: $bug seed $seed: check on the reduced pair exits $crc, not 1" >&2
			cat "$out.check" >&2
			fail=1
		fi
		[ "$ops" -gt "$maxops" ] && maxops=$ops
		times+=("$t")
		row="$row $t s ($ops ops) |"
	done
	med=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)] " s"; else print "-"}')
	echo "| $bug |$row $med | <= $maxops |"
done
exit $fail
