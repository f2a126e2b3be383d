// The step's SIMD kernels over plain arrays, rigid integration (velocity and position halves,
// integrate.hpp) and the collide phase's bounds (bounds_kernel.hpp), in one table per SIMD level
// (solver/simd/simd_dispatch.hpp): the scalar twins (step_kernel_table.cpp) and the xsimd
// kernels of step_kernels_wide.hpp, compiled for each level in step_kernel_table_<level>.cpp.
// Each kernel handles [begin, end) and leaves the tail to the scalar kernel.
#pragma once

#include "solver/simd/simd_dispatch.hpp"

namespace strut {

struct RigidSpans;
struct BoundsSpans;

struct StepKernels {
  int lanes;  // floats a register holds at this level (1: the scalar twins)
  void (*rigid_velocity)(const RigidSpans& s, int begin, int end, float h);
  void (*rigid_position)(const RigidSpans& s, int begin, int end);
  void (*fatten_bounds)(const BoundsSpans& s, int begin, int end, float half_slop);
};
extern const StepKernels kStepKernelsScalar;
extern const StepKernels kStepKernelsSse42;
extern const StepKernels kStepKernelsAvx2;
extern const StepKernels kStepKernelsAvx512;
extern const SimdTables<StepKernels> kStepKernelTables;

// The table of the level in use.
inline const StepKernels& step_kernels() { return kStepKernelTables.current(); }

}  // namespace strut
