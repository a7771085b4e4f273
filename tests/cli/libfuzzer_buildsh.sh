#!/usr/bin/env bash
# libfuzzer_buildsh.sh - runs .clusterfuzzlite/build.sh under the
# environment OSS-Fuzz/ClusterFuzzLite sets (no Docker needed) and checks
# that the targets, dictionaries, options, seed corpora and libz3 land in
# $OUT, that the targets find libz3 through rpath $ORIGIN, replay their
# seed corpora, fuzz briefly, and report an injected bug as a crash.
# Skipped (exit 77, shown as skipped by CTest) when clang or its libFuzzer runtime is missing.
# labels: fuzz slow
set -euo pipefail
: "${JP_SRC:?JP_SRC must name the source tree}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v clang >/dev/null || ! command -v clang++ >/dev/null; then
  echo "SKIP: clang/clang++ not found"
  exit 77
fi
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' >"$tmp/probe.c"
if ! clang -fsanitize=fuzzer "$tmp/probe.c" -o "$tmp/probe" 2>/dev/null; then
  echo "SKIP: clang has no libFuzzer runtime (libclang-rt-dev)"
  exit 77
fi

fail() { echo "FAIL: $*" >&2; exit 1; }

# What the base-builder image sets for an ASan + libFuzzer build.
export SRC=$tmp/src OUT=$tmp/out WORK=$tmp/work
export CC=clang CXX=clang++
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS"
export LIB_FUZZING_ENGINE=-fsanitize=fuzzer
export SANITIZER=address FUZZING_ENGINE=libfuzzer ARCHITECTURE=x86_64
mkdir -p "$SRC" "$OUT" "$WORK"
# As the Dockerfile lays it out: the tree at $SRC/jitprove, the script at
# $SRC/build.sh, run from the tree.  A symlink stands in for the COPY.
ln -s "$JP_SRC" "$SRC/jitprove"
cp "$JP_SRC/.clusterfuzzlite/build.sh" "$SRC/build.sh"
start=$SECONDS
(cd "$SRC/jitprove" && JOBS=2 timeout 600 bash "$SRC/build.sh") >"$tmp/build.log" 2>&1 ||
  { tail -30 "$tmp/build.log"; fail "build.sh failed"; }
echo "build.sh took $((SECONDS - start)) s"

targets="fuzz_parse fuzz_pipeline fuzz_check"
[ -f "$OUT/fuzz_parse.dict" ] || fail "fuzz_parse.dict not in \$OUT"
ls "$OUT"/libz3.so* >/dev/null 2>&1 || fail "libz3 not copied into \$OUT"
for t in $targets; do
  [ -x "$OUT/$t" ] || fail "$t not built"
  [ -f "$OUT/$t.options" ] || fail "$t.options not in \$OUT"
  zip="$OUT/${t}_seed_corpus.zip"
  [ -f "$zip" ] || fail "${t}_seed_corpus.zip not in \$OUT"
  # Every seed file is in the zip, flat (no directories).
  want=$(find "$JP_SRC/fuzz/corpus/$t" -maxdepth 1 -type f | wc -l)
  got=$(python3 -c 'import sys, zipfile; n = zipfile.ZipFile(sys.argv[1]).namelist(); assert all("/" not in x for x in n), n; print(len(n))' "$zip")
  [ "$want" -eq "$got" ] || fail "$t seed corpus has $got files, expected $want"
  # libz3 is found beside the target (rpath $ORIGIN), not only system-wide.
  readelf -d "$OUT/$t" | grep -E 'R(UN)?PATH' | grep -q '\$ORIGIN' ||
    fail "$t lacks rpath \$ORIGIN"
  ldd "$OUT/$t" | grep libz3 | grep -q "$OUT/" || fail "$t does not resolve libz3 in \$OUT"
  mkdir -p "$tmp/seeds/$t"
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$zip" "$tmp/seeds/$t"
  # Replay the seeds, then fuzz a little (a copy: libFuzzer adds files).
  (cd "$tmp" && "$OUT/$t" -runs=0 "$tmp/seeds/$t") >"$tmp/$t.log" 2>&1 ||
    { tail -20 "$tmp/$t.log"; fail "$t fails on its seed corpus"; }
  mkdir -p "$tmp/work/$t"
  (cd "$tmp" && "$OUT/$t" -runs=300 -max_len=512 "$tmp/work/$t" "$tmp/seeds/$t") >"$tmp/$t.log" 2>&1 ||
    { tail -20 "$tmp/$t.log"; fail "$t crashed while fuzzing"; }
  grep -q "Done 300 runs\|DONE" "$tmp/$t.log" || fail "$t did not finish its runs"
done

# An injected bug is reported the libFuzzer way: a crash with a reproducer.
set +e
(cd "$tmp" && JITPROVE_INJECT=mul-backwards JITPROVE_REPRO_DIR="$tmp" \
  "$OUT/fuzz_pipeline" -runs=2000 -artifact_prefix="$tmp/" "$tmp/seeds/fuzz_pipeline") >"$tmp/bug.log" 2>&1
rc=$?
set -e
[ "$rc" -ne 0 ] || fail "fuzz_pipeline did not report the injected bug"
grep -q '^==== jitprove fuzz_pipeline:' "$tmp/bug.log" || fail "no reproducer printed"
ls "$tmp"/crash-* >/dev/null 2>&1 || fail "libFuzzer wrote no crash file"
ls "$tmp"/jitprove-fuzz_pipeline-*.orig.trace >/dev/null 2>&1 || fail "no trace files written"
echo "ok: build.sh output complete; targets run from \$OUT; injected bug reported"
