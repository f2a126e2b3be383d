// Runtime dispatch of the SIMD kernels that work on plain arrays: rigid integration (velocity and
// position halves), the collide phase's bounds, the wide contact kernels (prepare, warm start,
// solve and relax over wide constraints of a fixed 16 lanes, which a level covers in registers
// of its width) and the soft bodies' strut lanes (groups of a fixed 32 bodies). Each is compiled
// once per x86-64 level, SSE4.2, AVX2 and AVX-512 (cmake/simd_dispatch.cmake gives each copy its
// own -march), and the widest level this CPU and its OS run is chosen on first use, so one binary
// runs on any x86-64 with SSE4.2 and uses the wide registers where they exist. The kernels treat
// every lane alike, so every level gives the same bits (tests/simd_dispatch_test.cpp).
// STRUT_SIMD=sse4.2|avx2|avx512 in the environment forces a level the CPU runs.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/bounds_kernel.hpp"
#include "solver/integrate.hpp"

namespace strut {

struct SolverBody;
struct PrepareBody;
struct WideConstraint;
struct WidePass;
struct PrepareInput;
struct PrepareLanes;
struct StrutSpans;
struct LaneShape;
struct LaneGroup;
struct LaneStrut;

enum class SimdLevel : std::uint8_t { Sse42 = 0, Avx2 = 1, Avx512 = 2 };

// One level's kernels; each handles [begin, end) and leaves the tail to the scalar kernel.
struct SimdKernels {
  SimdLevel level;
  int lanes;
  void (*rigid_velocity)(const RigidSpans& s, int begin, int end, float h);
  void (*rigid_position)(const RigidSpans& s, int begin, int end);
  void (*fatten_bounds)(const BoundsSpans& s, int begin, int end, float half_slop);
  // The wide contact kernels over one work item, cs[0 .. count)
  // (solver/contacts/contact_kernels.hpp).
  void (*contact_warm_start)(SolverBody* bodies, WideConstraint* cs, std::uint32_t count);
  void (*contact_solve)(SolverBody* bodies, WideConstraint* cs, std::uint32_t count,
                        const WidePass& pass);
  void (*contact_prepare)(const PrepareBody* bodies, WideConstraint& c, PrepareInput* in,
                          const PrepareLanes& lanes);
  // One lane group of soft bodies (solver/strut_lanes.hpp).
  void (*strut_lane_group)(const StrutSpans& p, const LaneShape& t, const LaneGroup& g,
                           LaneStrut* rows, float inv_h2);
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
