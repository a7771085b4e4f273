#!/bin/sh
# bench/mutation.sh - the mutation-score benchmark (issue 29, item 3).
#
# For every mutant of passes/ in bench/mutants/ (NNN-name.patch, written by
# the project, never tuned against): apply it to a COPY of the sources,
# rebuild jitprove there (incrementally), run a fixed-seed one-job campaign
# of --seconds seconds against the built-in optimizer, and record whether
# the campaign found anything (killed) and how long its first finding took
# (first_after_s of the campaign JSON).  The unmutated copy runs the same
# campaign first: a finding there would make every kill suspect, and the
# report says so.  Never touches the working tree's sources or build.
#
#   sh bench/mutation.sh [--seconds N] [--seed S] [--only REGEX]
#                        [--json FILE] [--keep] [--src DIR]
#
# Prints a table (one line per mutant, then the kill rate and the median
# time to kill of the killed ones) and, with --json, writes it as JSON.
# Exit status: 0 ran (whatever the score), 2 usage or setup error.
# Needs: cmake, a C compiler, libz3-dev, patch, awk.  jitprove bench
# --sections mutants calls this script.
set -eu

seconds=60
seed=1
only=.
json=
keep=0
src=$(cd "$(dirname "$0")/.." && pwd)

usage() {
	echo "usage: sh bench/mutation.sh [--seconds N] [--seed S] [--only REGEX] [--json FILE] [--keep] [--src DIR]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) [ $# -ge 2 ] || usage; seconds=$2; shift 2 ;;
	--seed) [ $# -ge 2 ] || usage; seed=$2; shift 2 ;;
	--only) [ $# -ge 2 ] || usage; only=$2; shift 2 ;;
	--json) [ $# -ge 2 ] || usage; json=$2; shift 2 ;;
	--src) [ $# -ge 2 ] || usage; src=$(cd "$2" && pwd); shift 2 ;;
	--keep) keep=1; shift ;;
	*) usage ;;
	esac
done
case $seconds in '' | *[!0-9.]*) echo "mutation.sh: --seconds: expected a number, found '$seconds'" >&2; exit 2 ;; esac
[ -d "$src/bench/mutants" ] || { echo "mutation.sh: no bench/mutants in $src" >&2; exit 2; }
for tool in cmake patch awk; do
	command -v $tool >/dev/null 2>&1 || { echo "mutation.sh: $tool not found" >&2; exit 2; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/jp-mutants.XXXXXX")
cleanup() { [ $keep = 1 ] || rm -rf "$work"; }
trap cleanup EXIT INT TERM

# The copy: the sources as they are (uncommitted edits included), without
# builds and git metadata.
mkdir "$work/src"
(cd "$src" && tar cf - --exclude=./build --exclude=./.git --exclude=./jp-out .) |
	(cd "$work/src" && tar xf -)
log="$work/build.log"
echo "mutation: configuring a Release build of a copy in $work" >&2
if ! cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release >"$log" 2>&1 ||
	! cmake --build "$work/build" --target jitprove -j2 >>"$log" 2>&1; then
	echo "mutation.sh: the unmutated copy does not build (log: $log)" >&2
	keep=1
	exit 2
fi
jp="$work/build/jitprove"

# run NAME: one campaign; prints "found kind first_after_s signature".
run() {
	out="$work/out/$1"
	rm -rf "$out"
	mkdir -p "$work/out"
	"$jp" fuzz --seconds "$seconds" --jobs 1 --seed "$seed" --max-findings 1 \
		--json --out "$out" >"$work/$1.json" 2>"$work/$1.err" || true
	awk '
	{ s = s $0 }
	END {
		n = 0; kind = "-"; t = "-"; sig = "-"
		if (match(s, /"first_after_s": [0-9.]+/)) {
			t = substr(s, RSTART + 17, RLENGTH - 17); n = 1
		}
		if (match(s, /"signature": "[^"]*"/))
			sig = substr(s, RSTART + 14, RLENGTH - 15)
		if (match(s, /"kind": "[^"]*"/))
			kind = substr(s, RSTART + 9, RLENGTH - 10)
		tr = "-"
		if (match(s, /"traces": [0-9]+/))
			tr = substr(s, RSTART + 10, RLENGTH - 10)
		print n, kind, t, sig, tr
	}' "$work/$1.json"
}

results="$work/results.txt"
: >"$results"
echo "mutation: baseline (no mutant), $seconds s, seed $seed" >&2
set -- $(run baseline)
base_found=$1 base_sig=$4 base_traces=$5

for p in "$src"/bench/mutants/*.patch; do
	name=$(basename "$p" .patch)
	echo "$name" | grep -Eq -- "$only" || continue
	shape=$(sed -n 's/^# shape: \(.*\) (issue 29)$/\1/p' "$p")
	if ! patch -p1 -s -d "$work/src" <"$p" >"$work/$name.patch.log" 2>&1; then
		echo "$name not-applied - - - - ${shape:--}" >>"$results"
		echo "mutation: $name: the patch does not apply" >&2
		continue
	fi
	start=$(date +%s)
	if cmake --build "$work/build" --target jitprove -j2 >"$work/$name.build.log" 2>&1; then
		built=$(($(date +%s) - start))
		set -- $(run "$name")
		status=survived
		[ "$1" = 1 ] && status=killed
		echo "$name $status $3 $2 $4 $5 ${shape:--}" >>"$results"
		echo "mutation: $name: $status ${3} s (build ${built} s)" >&2
	else
		echo "$name build-failed - - - - ${shape:--}" >>"$results"
		echo "mutation: $name: does not build" >&2
	fi
	patch -p1 -R -s -d "$work/src" <"$p" >/dev/null
done
# Leave the copy's binary unmutated (a --keep user may run it).
cmake --build "$work/build" --target jitprove -j2 >>"$log" 2>&1 || true

# The table and the summary.
awk -v secs="$seconds" -v seed="$seed" -v bf="$base_found" -v bs="$base_sig" \
	-v bt="$base_traces" -v json="$json" '
function q(s) { gsub(/"/, "\\\"", s); return "\"" s "\"" }
{
	name[NR] = $1; st[NR] = $2; t[NR] = $3; kind[NR] = $4; sig[NR] = $5
	tr[NR] = $6; sh = $7; for (i = 8; i <= NF; i++) sh = sh " " $i
	shape[NR] = sh
	if ($2 == "killed") { nk++; times[nk] = $3 + 0 }
	if ($2 == "killed" || $2 == "survived") nr++
}
END {
	# insertion sort of the kill times for the median
	for (i = 2; i <= nk; i++)
		for (j = i; j > 1 && times[j - 1] > times[j]; j--) {
			x = times[j]; times[j] = times[j - 1]; times[j - 1] = x
		}
	med = -1
	if (nk % 2) med = times[(nk + 1) / 2]
	else if (nk) med = (times[nk / 2] + times[nk / 2 + 1]) / 2
	printf "%-28s %-12s %10s  %-10s %s\n", "mutant", "status", "kill (s)", "kind", "signature"
	for (i = 1; i <= NR; i++) {
		shs = shape[i] == "-" ? "" : "  [shape: " shape[i] "]"
		printf "%-28s %-12s %10s  %-10s %s%s\n", name[i], st[i], t[i], kind[i], sig[i], shs
	}
	bnote = bf == 1 ? " (" bs "): kills are suspect" : ""
	printf "\nbaseline (no mutant): %s finding(s) in %s s, %s traces%s\n", bf, secs, bt, bnote
	pc = nr ? 100 * nk / nr : 0
	printf "killed %d of %d mutants run (%.1f%%) by a %s s one-job campaign, seed %s\n", nk, nr, pc, secs, seed
	if (nk) printf "median time to kill %.3f s\n", med
	if (json != "") {
		btj = bt == "-" ? "null" : bt
		medj = nk ? sprintf("%.3f", med) : "null"
		rate = nr ? nk / nr : 0
		printf "{\"seconds\": %s, \"seed\": %s, \"baseline_findings\": %d, \"baseline_traces\": %s, ", secs, q(seed), bf, btj > json
		printf "\"run\": %d, \"killed\": %d, \"kill_rate\": %.4f, \"median_kill_s\": %s, \"mutants\": [", nr, nk, rate, medj > json
		for (i = 1; i <= NR; i++) {
			tj = t[i] == "-" ? "null" : t[i]
			kj = kind[i] == "-" ? "null" : q(kind[i])
			sj = sig[i] == "-" ? "null" : q(sig[i])
			trj = tr[i] == "-" ? "null" : tr[i]
			shj = shape[i] == "-" ? "null" : q(shape[i])
			sep = i > 1 ? ", " : ""
			printf "%s{\"name\": %s, \"status\": %s, \"kill_s\": %s, \"kind\": %s, \"signature\": %s, \"traces\": %s, \"shape\": %s}", sep, q(name[i]), q(st[i]), tj, kj, sj, trj, shj > json
		}
		print "]}" > json
	}
}' "$results"
