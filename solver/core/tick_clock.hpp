// The step profile's clock. A step reads it about 25 times (each phase, each run of a phase's
// stages in the substeps); the x86-64 time-stamp counter reads in about half the time of
// steady_clock::now, a saving a small world's step notices. Ticks have no
// fixed unit: the step converts its phases' ticks to milliseconds with the ratio of its own
// length in steady_clock time to its length in ticks (two steady_clock reads a step). Other
// architectures count steady_clock nanoseconds.
#pragma once

#include <chrono>
#include <cstdint>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace strut {

inline std::uint64_t read_ticks() {
#if defined(__x86_64__)
  return __rdtsc();
#else
  return std::uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::steady_clock::now().time_since_epoch())
                           .count());
#endif
}

}  // namespace strut
