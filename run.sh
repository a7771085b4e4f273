#!/usr/bin/env bash
# run.sh - the quick start.  Installs what is missing, builds, then:
#   ./run.sh fuzz   a short fuzz campaign against the built-in optimizer
#   ./run.sh test   the whole test suite (what CI runs)
# Extra arguments after "fuzz" are passed to `jitprove fuzz`.
set -euo pipefail
cd "$(dirname "$0")"

# Debian packages the build and the tests need.  z3 and cvc5 are the
# command-line solvers the verifier's --smt2/--solver-cmd tests run;
# python3-jsonschema validates SARIF reports; clang builds the libFuzzer
# targets; pypy3 writes the JIT logs the `pypy` label checks (jitprove log).
PACKAGES=(build-essential cmake pkg-config libz3-dev z3 cvc5 clang
          libclang-rt-14-dev python3 python3-jsonschema pypy3)

install_missing() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "run.sh: installing ${missing[*]}" >&2
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
}

build() {
  local preset=$1
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$(nproc)"
}

case "${1:-}" in
  fuzz)
    shift
    install_missing
    build default >/dev/null
    exec build/default/jitprove fuzz "$@"
    ;;
  test)
    install_missing
    build dev
    exec ctest --preset dev -j "$(nproc)"
    ;;
  *)
    echo "usage: ./run.sh fuzz [jitprove fuzz options] | ./run.sh test" >&2
    exit 2
    ;;
esac
