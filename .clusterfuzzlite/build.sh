#!/bin/bash -eu
# build.sh - builds jitprove's fuzz targets for ClusterFuzzLite / OSS-Fuzz.
#
# Runs inside the builder image (see Dockerfile) from the source directory,
# with the environment OSS-Fuzz defines:
#   CC, CXX, CFLAGS, CXXFLAGS  compiler and sanitizer/coverage flags
#   LIB_FUZZING_ENGINE         link flags or archive of the engine
#                              (-fsanitize=fuzzer for libFuzzer)
#   OUT                        where targets, .dict, .options, seed corpora go
#   SRC, WORK                  source root, scratch space
# It can be run outside Docker with those variables set by hand
# (tests/cli/libfuzzer_buildsh.sh does so).  Optional: JP_ROOT (the source
# tree; default the current directory), JOBS (parallel compiles).
#
# Everything but the targets' own files is compiled once into an archive.
# Z3 is linked dynamically (Debian and Ubuntu ship no static libz3), so
# libz3.so is copied into $OUT and every target gets rpath $ORIGIN: the
# runner images do not have Z3 installed.

ROOT=${JP_ROOT:-$PWD}
WORK=${WORK:-/tmp}
JOBS=${JOBS:-$(nproc)}
BUILD=$WORK/jitprove-fuzz-build
TARGETS="fuzz_parse fuzz_pipeline fuzz_check"

if [ ! -f "$ROOT/ir/ops.def" ]; then
  echo "build.sh: $ROOT is not the jitprove source tree (set JP_ROOT)" >&2
  exit 2
fi

version=$(sed -n 's/^project(jitprove VERSION \([0-9.]*\).*/\1/p' "$ROOT/CMakeLists.txt")
z3_cflags=$(pkg-config --cflags z3 2>/dev/null || true)
z3_libs=$(pkg-config --libs z3 2>/dev/null || echo -lz3)
common=(-std=c11 -I"$ROOT" -I"$ROOT/fuzz/targets" "-DJP_VERSION=\"${version:-0}\"")

rm -rf "$BUILD"
mkdir -p "$BUILD/obj" "$OUT"

# The library: every layer the targets need (not tools/).
srcs=()
for layer in util ir passes verify fuzz; do
  for f in "$ROOT/$layer"/*.c; do
    [ -e "$f" ] && srcs+=("$f")
  done
done
srcs+=("$ROOT/fuzz/targets/ft_common.c")

export BUILD CC CFLAGS z3_cflags
printf '%s\n' "${srcs[@]}" | xargs -P "$JOBS" -I{} sh -c '
  src="$1"; shift
  obj="$BUILD/obj/$(basename "$(dirname "$src")")_$(basename "$src" .c).o"
  $CC $CFLAGS $z3_cflags "$@" -c "$src" -o "$obj"
' sh {} "${common[@]}"
ar rcs "$BUILD/libjitprove.a" "$BUILD"/obj/*.o

# The targets.  The engine is C++, so link with the C++ driver.
for t in $TARGETS; do
  $CC $CFLAGS $z3_cflags "${common[@]}" -c "$ROOT/fuzz/targets/$t.c" -o "$BUILD/$t.o"
  $CXX $CXXFLAGS "$BUILD/$t.o" "$BUILD/libjitprove.a" $LIB_FUZZING_ENGINE \
    $z3_libs -lpthread -lm -Wl,-rpath,'$ORIGIN' -o "$OUT/$t"
done

# Z3 beside the targets (the rpath above finds it there).
z3so=$(ldd "$OUT/fuzz_check" | awk '/libz3/ { print $3; exit }')
if [ -n "$z3so" ] && [ -f "$z3so" ]; then
  cp -L "$z3so" "$OUT/"
else
  echo "build.sh: warning: libz3 not found by ldd; the targets need it at run time" >&2
fi

# Dictionaries, options and seed corpora, named as OSS-Fuzz expects.
zip_dir() { # zip_dir DIR ZIPFILE: the files of DIR, flat
  if command -v zip >/dev/null 2>&1; then
    (cd "$1" && zip -q -j -r "$2" .)
  else
    python3 - "$1" "$2" <<'PY'
import os, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if os.path.isfile(path):
            z.write(path, name)
PY
  fi
}
for t in $TARGETS; do
  for ext in dict options; do
    if [ -f "$ROOT/fuzz/targets/$t.$ext" ]; then
      cp "$ROOT/fuzz/targets/$t.$ext" "$OUT/"
    fi
  done
  if [ -d "$ROOT/fuzz/corpus/$t" ]; then
    rm -f "$OUT/${t}_seed_corpus.zip"
    zip_dir "$ROOT/fuzz/corpus/$t" "$OUT/${t}_seed_corpus.zip"
  fi
done
echo "build.sh: built $TARGETS into $OUT"
