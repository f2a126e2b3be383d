#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang under AddressSanitizer and UBSan in build-fuzz,
# then fuzzes each for SECONDS seconds starting from the committed seed corpus. New inputs go to
# build-fuzz/corpus/<target> (copy interesting ones to fuzz/corpus/<target>); a crash leaves
# crash-* files in build-fuzz/ and fails the script.
#   tools/fuzz.sh [SECONDS]            build, then fuzz (default 60 s a target)
#   tools/fuzz.sh --run-only SECONDS   fuzz without building; exit 77 (skip) if not built
# Needs Debian's clang and libclang-rt-14-dev (tools/install_deps.sh --fuzz installs them).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build-fuzz"
run_only=0
if [[ "${1:-}" == "--run-only" ]]; then run_only=1; shift; fi
seconds="${1:-60}"
targets=(scene api)
if [[ $run_only == 0 ]]; then
  CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSTRUT_SANITIZE=fuzz -DSTRUT_BUILD_TESTS=OFF -DSTRUT_BUILD_BENCH=OFF -DSTRUT_BUILD_TOOLS=OFF
  cmake --build "$build" --target "${targets[@]/#/fuzz_}"
fi
for t in "${targets[@]}"; do
  if [[ ! -x "$build/fuzz_$t" ]]; then
    echo "fuzz_$t is not built (run tools/fuzz.sh first): skipped"
    exit 77
  fi
done
for t in "${targets[@]}"; do
  mkdir -p "$build/corpus/$t"
  (cd "$build" && ./fuzz_$t -max_total_time="$seconds" -max_len=4096 -timeout=10 -error_exitcode=1 \
     -print_final_stats=1 "corpus/$t" "$root/fuzz/corpus/$t")
done
