// Runtime dispatch of the SIMD kernels that work on plain arrays: rigid integration (velocity and
// position halves) and the collide phase's bounds. Each is compiled once per x86-64 level,
// SSE4.2, AVX2 and AVX-512 (cmake/simd_dispatch.cmake gives each copy its own -march), and the
// widest level this CPU and its OS run is chosen on first use, so one binary runs on any x86-64
// with SSE4.2 and uses the wide registers where they exist. The kernels treat every lane alike,
// so every level gives the same bits (tests/simd_dispatch_test.cpp).
// STRUT_SIMD=sse4.2|avx2|avx512 in the environment forces a level the CPU runs.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/bounds_kernel.hpp"
#include "solver/integrate.hpp"

namespace strut {

enum class SimdLevel : std::uint8_t { Sse42 = 0, Avx2 = 1, Avx512 = 2 };

// One level's kernels; each handles [begin, end) and leaves the tail to the scalar kernel.
struct SimdKernels {
  SimdLevel level;
  int lanes;
  void (*rigid_velocity)(const RigidSpans& s, int begin, int end, float h);
  void (*rigid_position)(const RigidSpans& s, int begin, int end);
  void (*fatten_bounds)(const BoundsSpans& s, int begin, int end, float half_slop);
};
extern const SimdKernels kSimdKernelsSse42;
extern const SimdKernels kSimdKernelsAvx2;
extern const SimdKernels kSimdKernelsAvx512;

const char* simd_level_name(SimdLevel level);  // "sse4.2", "avx2", "avx512"
// The levels this CPU (and its OS, which must save the wide registers) runs, narrowest first.
std::vector<SimdLevel> runnable_simd_levels();
// The kernels in use: the widest runnable level, or STRUT_SIMD's (read once).
const SimdKernels& simd_kernels();
// Switches every world of the process to `level` (tests compare the levels' results); throws
// strut::Error if this CPU cannot run it.
void set_simd_level(SimdLevel level);

}  // namespace strut
