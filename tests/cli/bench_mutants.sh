#!/bin/bash
# The mutants of the mutation benchmark (bench/mutants/, run by
# bench/mutation.sh and jitprove bench --sections mutants) still fit the
# sources: at least 30, numbered once each, each with its header comment
# (what the bug is), each applying cleanly to passes/ (checked on a copy),
# every pass file mutated, and each of the five shapes of issue 29 named by
# one.  A patch that stops applying after an edit of passes/ fails here,
# not half an hour into the benchmark.  The benchmark itself rebuilds
# jitprove once per mutant: too slow for a test (docs/performance.md has
# its numbers).
set -eu
: "${JP_SRC:?}"
command -v patch >/dev/null 2>&1 || { echo "patch not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$JP_SRC/passes" "$tmp/passes"

n=0
for p in "$JP_SRC"/bench/mutants/*.patch; do
	n=$((n + 1))
	name=$(basename "$p")
	case $name in
	[0-9][0-9][0-9]-*.patch) ;;
	*) echo "bad mutant name: $name"; exit 1 ;;
	esac
	head -1 "$p" | grep -q "^# mutant ${name%%-*} " ||
		{ echo "$name: no header line '# mutant NNN ...'"; exit 1; }
	[ "$(sed -n 2p "$p" | cut -c1-2)" = "# " ] ||
		{ echo "$name: no description line"; exit 1; }
	grep -q '^--- a/passes/' "$p" || { echo "$name: does not patch passes/"; exit 1; }
	patch -p1 -s --dry-run -d "$tmp" <"$p" >"$tmp/log" 2>&1 ||
		{ echo "$name does not apply (python3 bench/mutants/make_patches.py regenerates the patches):"; cat "$tmp/log"; exit 1; }
done
[ "$n" -ge 30 ] || { echo "only $n mutants"; exit 1; }
dups=$(ls "$JP_SRC"/bench/mutants/*.patch | sed 's|.*/||; s|-.*||' | sort | uniq -d)
[ -z "$dups" ] || { echo "numbers used twice: $dups"; exit 1; }

# Every pass file that has rules of its own is mutated.
for f in bounds.c bounds_back.c opt_bounds.c simplify.c fold.c cse.c \
	heapcache.c virtualize.c dce.c; do
	grep -lq "^--- a/passes/$f\$" "$JP_SRC"/bench/mutants/*.patch ||
		{ echo "no mutant of passes/$f"; exit 1; }
done
# The five shapes of issue 29, each with a mutant.
for shape in "shift count ending at W" "int_mul_ovf factors within" \
	"sign-extended" "upper bound == y's lower bound" \
	"escaped fresh object, loaded ref"; do
	grep -lq "^# shape: .*$shape" "$JP_SRC"/bench/mutants/*.patch ||
		{ echo "no mutant of the shape '$shape'"; exit 1; }
done
echo "$n mutants apply"
