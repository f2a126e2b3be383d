#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang under AddressSanitizer and UBSan, then fuzzes
# each starting from the committed seed corpus. New inputs go to <build>/corpus/<target> (copy
# interesting ones to fuzz/corpus/<target>); a crash leaves crash-* files in <build> and fails.
#   tools/fuzz.sh [SECONDS]            build, then fuzz each target for SECONDS (default 60)
#   tools/fuzz.sh --build-only         build the fuzzers only
#   tools/fuzz.sh --run-only SECONDS   fuzz without building
#   tools/fuzz.sh --ci RUNS            fuzz each target for RUNS inputs with a fixed seed from a
#                                      fresh corpus: the same inputs on every machine, so a commit
#                                      passes or fails the same way each time (ctest's fuzz_ci)
# The build directory is build-fuzz, or $STRUT_FUZZ_BUILD (ctest uses <build>/fuzz).
# Needs Debian's clang and libclang-rt-14-dev (tools/install_deps.sh installs them).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${STRUT_FUZZ_BUILD:-$root/build-fuzz}"
mode=all
case "${1:-}" in
  --build-only) mode=build ;;
  --run-only) mode=run; shift ;;
  --ci) mode=ci; shift ;;
esac
targets=(scene api snapshot)
if [[ $mode == all || $mode == build ]]; then
  if ! command -v clang++ >/dev/null; then
    echo "tools/fuzz.sh: clang++ not found (bash tools/install_deps.sh installs it)" >&2
    exit 1
  fi
  # -O1 and line tables only: a third less build time than RelWithDebInfo's -O2 -g, and the
  # sanitizer reports still name file and line.
  CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Fuzz \
    -DCMAKE_CXX_FLAGS_FUZZ="-O1 -gline-tables-only" -DSTRUT_SANITIZE=fuzz \
    -DSTRUT_BUILD_TESTS=OFF -DSTRUT_BUILD_BENCH=OFF -DSTRUT_BUILD_TOOLS=OFF >/dev/null
  cmake --build "$build" --target "${targets[@]/#/fuzz_}"
  [[ $mode == build ]] && exit 0
fi
for t in "${targets[@]}"; do
  if [[ ! -x "$build/fuzz_$t" ]]; then
    echo "tools/fuzz.sh: $build/fuzz_$t is not built (run tools/fuzz.sh --build-only)" >&2
    exit 1
  fi
done
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t"
  if [[ $mode == ci ]]; then
    rm -rf "$corpus"
    limit=(-runs="$1" -seed=1)
  else
    limit=(-max_total_time="${1:-60}")
  fi
  mkdir -p "$corpus"
  (cd "$build" && "./fuzz_$t" "${limit[@]}" -max_len=4096 -timeout=10 -error_exitcode=1 \
     -print_final_stats=1 "$corpus" "$root/fuzz/corpus/$t")
done
