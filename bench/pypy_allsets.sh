#!/usr/bin/env bash
# Runs `jitprove log --jobs 1` on every set of logs that bench/pypy_logs.sh
# wrote to LOGS, in two streams (one per core) balanced by their usual
# time: OUT/SET.txt is each set's output, OUT/times the seconds per set.
# The numbers in docs/performance.md come from it, with nothing else
# running on the machine.  Usage: bench/pypy_allsets.sh JITPROVE LOGS OUT
set -u
jp=${1:?usage: bench/pypy_allsets.sh JITPROVE LOGS OUT}
logs=${2:?no LOGS}; out=${3:?no OUT}
mkdir -p "$out"
stream() {
  for s in "$@"; do
    [ -d "$logs/$s" ] || continue
    t0=$(date +%s.%N)
    "$jp" log --jobs 1 "$logs/$s"/*.log >"$out/$s.txt" 2>&1
    t1=$(date +%s.%N)
    awk -v s="$s" -v a="$t0" -v b="$t1" 'BEGIN { printf "%s %.1f\n", s, b - a }' >>"$out/times"
  done
}
: >"$out/times"
stream h14 h15 h8 h2 pp ho &
stream h11 h12 h13 h9 h10 h3 h4 h5 h6 h7 &
wait
# The summary line of each set.
for f in "$out"/*.txt; do
  printf '%s: %s\n' "$(basename "$f" .txt)" "$(tail -1 "$f")"
done
