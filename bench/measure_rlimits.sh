#!/usr/bin/env bash
# For each corpus case that calls the solver, the smallest Z3 resource limit
# (a power of two, per query) with which `jitprove ci` still gets the
# case's expected verdict, measured with no wall-clock limit.  Used to pick
# the `--rlimit` in the shipped options/expect files (docs/ci.md, "Limits").
# Usage: bench/measure_rlimits.sh JITPROVE CASE...   (CASE: a pair directory
# or a .trace file).  Prints "CASE MIN_RLIMIT".
set -u
jp=$1; shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for case in "$@"; do
  rm -rf "$tmp/c"; mkdir -p "$tmp/c"
  if [ -d "$case" ]; then
    cp -r "$case" "$tmp/c/case"; tgt="$tmp/c/case"
    # drop the case's own limits: the CLI ones below must apply
    for f in "$tgt/options" "$tgt/expect"; do
      [ -f "$f" ] && sed -i -E 's/--(timeout-ms|rlimit) [0-9]+//; s/^(timeout-ms|rlimit) [0-9]+$//' "$f"
    done
  else
    base=$(basename "$case" .trace)
    cp "$case" "$tmp/c/$base.trace"; tgt="$tmp/c/$base.trace"
    ex="${case%.trace}.expect"
    [ -f "$ex" ] && sed -E 's/^(timeout-ms|rlimit) [0-9]+$//' "$ex" > "$tmp/c/$base.expect"
  fi
  found=none
  for k in $(seq 10 34); do
    r=$((1 << k))
    if "$jp" ci "$tmp/c" --timeout-ms 0 --rlimit "$r" >/dev/null 2>&1; then
      found=$r; break
    fi
  done
  echo "$case $found"
done
