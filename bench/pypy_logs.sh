#!/usr/bin/env bash
# Writes the real PyPy JIT logs of every bench program set: for each
# bench/pypy*/NAME.py, OUT/SET/NAME.log from
# PYPYLOG=jit-log-noopt,jit-log-opt (Debian's pypy3; ./run.sh installs it).
# SET is pp for bench/pypy, ho for bench/pypy_holdout, hN for
# bench/pypy_holdoutN.  Usage: bench/pypy_logs.sh OUT   (from the
# repository root).  A program that fails or runs past 300 s is named on
# stderr and its log left as it is.
set -u
out=${1:?usage: bench/pypy_logs.sh OUT}
command -v pypy3 >/dev/null || { echo "pypy3 not found" >&2; exit 2; }
for dir in bench/pypy bench/pypy_holdout*; do
  case $dir in
    bench/pypy) set_=pp ;;
    bench/pypy_holdout) set_=ho ;;
    *) set_=h${dir#bench/pypy_holdout} ;;
  esac
  mkdir -p "$out/$set_"
  for f in "$dir"/*.py; do
    log="$out/$set_/$(basename "$f" .py).log"
    PYPYLOG=jit-log-noopt,jit-log-opt:"$log" timeout 300 pypy3 "$f" \
      >/dev/null 2>&1 || echo "failed: $f" >&2
  done
done
