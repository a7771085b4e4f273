#!/bin/bash
# jitprove gen: deterministic per seed, and every printed trace runs to its
# end on the example inputs of its '# args:' line (every guard passes), at
# every width and with every profile.
set -u
J=$(realpath "${JITPROVE:?set JITPROVE to the jitprove binary}")
fail() { echo "FAIL: $*" >&2; exit 1; }

a=$("$J" gen --seed 42) || fail "gen exited with $?"
b=$("$J" gen --seed 42)
[ "$a" = "$b" ] || fail "same seed, different traces"
c=$("$J" gen --seed 43)
[ "$a" != "$c" ] || fail "different seeds, same trace"
echo "$a" | grep -q '^# args: ' || fail "no '# args:' line"
echo "$a" | grep -q '  # = ' || fail "no example values after the ops"
echo "$a" | grep -Eq '^(finish|jump)\(.+\)$' || fail "the trace ends without outputs"

for w in 8 16 32 64; do
	for p in all arithmetic bounds-heavy overflow-heavy heap; do
		for s in 1 2 3 4 5 6; do
			out=$("$J" gen --seed "$s" --width "$w" --profile "$p" |
				"$J" run --width "$w" -) ||
				fail "run failed (seed $s, width $w, profile $p)"
			echo "$out" | tail -1 | grep -Eq '^result: (finish|jump)' ||
				fail "a guard fails on the example values (seed $s, width $w, profile $p)"
		done
	done
done

# Exact length and input count.
t=$("$J" gen --seed 7 --length 12 --inputs 3)
echo "$t" | grep -Eq '^\[[ip][0-9]+, [ip][0-9]+, [ip][0-9]+\]$' ||
	fail "--inputs 3 not honoured"
# --no-heap: integer traces only.
for s in 1 2 3 4 5 6 7 8; do
	"$J" gen --seed "$s" --profile heap --no-heap | grep -Eq 'new|field|escape|p[0-9]' &&
		fail "--no-heap trace has heap ops (seed $s)"
done
"$J" gen --seed 4 --profile heap | grep -q 'setfield_gc' || fail "heap profile without stores"

# Usage errors exit 2.
"$J" gen --length 9-2 >/dev/null 2>&1; [ $? = 2 ] || fail "--length 9-2 accepted"
"$J" gen --profile nope >/dev/null 2>&1; [ $? = 2 ] || fail "--profile nope accepted"
"$J" gen --width 12 >/dev/null 2>&1; [ $? = 2 ] || fail "--width 12 accepted"
echo "gen_examples: ok"
