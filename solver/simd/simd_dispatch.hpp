// Runtime dispatch of the SIMD kernels that work on plain arrays: rigid integration (velocity and
// position halves), the collide phase's bounds, the wide contact kernels (prepare, warm start,
// solve and relax over wide constraints of a fixed 16 lanes, which a level covers in registers
// of its width), the joint points' lane groups and the coloured struts' groups (16 lanes each,
// covered the same way), the soft bodies' strut lanes (groups of a fixed 32 bodies) and the
// broad phase's sweep queries. Each is compiled once per x86-64 level, SSE4.2, AVX2 and AVX-512
// (cmake/simd_dispatch.cmake gives each copy its own -march), and the widest level this CPU and
// its OS run is chosen on first use, so one binary runs on any x86-64 with SSE4.2 and uses the
// wide registers where they exist. The kernels treat every lane alike, so every level gives the
// same bits (tests/simd_dispatch_test.cpp), those of the scalar level: each kernel's scalar twin,
// lane after lane (simd_kernels_scalar.cpp), which every CPU runs.
// STRUT_SIMD=scalar|sse4.2|avx2|avx512 in the environment forces a level the CPU runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "solver/step/bounds_kernel.hpp"
#include "solver/step/integrate.hpp"

namespace strut {

struct SolverBody;
struct PrepareBody;
struct WideConstraint;
struct WideSurface;
struct WidePass;
struct LanePositions;
struct WideFeatures;
struct StrutSpans;
struct LaneShape;
struct LaneGroup;
struct LaneStrut;
struct WideStrut;
struct PointSpans;
struct PointGroup;
struct AngleGroup;
namespace broadphase {
struct SweepView;
struct HitBuffer;
}  // namespace broadphase

enum class SimdLevel : std::uint8_t { Sse42 = 0, Avx2 = 1, Avx512 = 2, Scalar = 3 };

// One level's kernels; each handles [begin, end) and leaves the tail to the scalar kernel.
struct SimdKernels {
  SimdLevel level;
  int lanes;
  void (*rigid_velocity)(const RigidSpans& s, int begin, int end, float h);
  void (*rigid_position)(const RigidSpans& s, int begin, int end);
  void (*fatten_bounds)(const BoundsSpans& s, int begin, int end, float half_slop);
  // The wide contact kernels over one work item, cs[0 .. count)
  // (solver/contacts/contact_kernels.hpp).
  // flags: each constraint's WideFlag bits; surface: their surface rows (null when none has any).
  void (*contact_warm_start)(SolverBody* bodies, WideConstraint* cs, std::uint32_t count);
  void (*contact_warm_start_rolling)(SolverBody* bodies, WideConstraint* cs, std::uint32_t count,
                                     const std::uint8_t* flags, const WideSurface* surface);
  void (*contact_solve)(SolverBody* bodies, WideConstraint* cs, std::uint32_t count,
                        const WidePass& pass, const std::uint8_t* flags, WideSurface* surface);
  void (*contact_prepare)(const PrepareBody* bodies, const LanePositions& positions,
                          WideFeatures& features, WideConstraint& c);
  // One lane group of soft bodies (solver/soft/strut_lanes.hpp).
  void (*strut_lane_group)(const StrutSpans& p, const LaneShape& t, const LaneGroup& g,
                           LaneStrut* rows, float inv_h2);
  // One group of a strut colour (solver/soft/strut_kernel.hpp).
  void (*strut_group)(const StrutSpans& p, WideStrut& g, float inv_h2);
  // Joint-point groups [lo, hi) of one colour (solver/joints/point_group_kernels.hpp).
  void (*point_refresh)(const PointSpans& s, PointGroup* groups, std::uint32_t lo, std::uint32_t hi,
                        bool warm_start);
  void (*point_solve)(const PointSpans& s, PointGroup* groups, std::uint32_t lo, std::uint32_t hi);
  void (*point_project)(const PointSpans& s, const PointGroup* groups, AngleGroup* angles,
                        std::uint32_t lo, std::uint32_t hi, bool first);
  // The broad phase's queries of one chunk of moving boxes (broadphase/sweep_queries.hpp).
  void (*sweep_queries)(const broadphase::SweepView& v, std::size_t begin, std::size_t end,
                        void (*flush)(void* context, broadphase::HitBuffer& hits), void* context);
};
extern const SimdKernels kSimdKernelsSse42;
extern const SimdKernels kSimdKernelsAvx2;
extern const SimdKernels kSimdKernelsAvx512;
extern const SimdKernels kSimdKernelsScalar;

const char* simd_level_name(SimdLevel level);  // "scalar", "sse4.2", "avx2", "avx512"
// The levels this CPU (and its OS, which must save the wide registers) runs, narrowest first:
// the scalar level, then the SIMD ones.
std::vector<SimdLevel> runnable_simd_levels();
// Whether this CPU (and its OS) runs `level`.
bool simd_level_runs(SimdLevel level);
// The kernels in use: the widest runnable level, or STRUT_SIMD's (read once).
const SimdKernels& simd_kernels();
// Switches every world of the process to `level` (tests compare the levels' results); throws
// strut::Error if this CPU cannot run it.
void set_simd_level(SimdLevel level);

}  // namespace strut
