// The joint points' lane-group kernels (refresh, velocity pass, position projection over groups
// [lo, hi) of one colour) in one table per SIMD level (solver/simd/simd_dispatch.hpp): the scalar
// twins of point_lanes.hpp (point_kernel_table.cpp) and the kernels of point_group_kernels.hpp,
// compiled for each level in point_kernel_table_<level>.cpp.
#pragma once

#include <cstdint>

#include "solver/simd/simd_dispatch.hpp"

namespace strut {

struct PointSpans;
struct PointGroup;
struct AngleGroup;

struct PointKernels {
  int lanes;  // floats a register holds at this level (1: the scalar twins)
  void (*refresh)(const PointSpans& s, PointGroup* groups, std::uint32_t lo, std::uint32_t hi,
                  bool warm_start);
  void (*solve)(const PointSpans& s, PointGroup* groups, std::uint32_t lo, std::uint32_t hi);
  void (*project)(const PointSpans& s, const PointGroup* groups, AngleGroup* angles,
                  std::uint32_t lo, std::uint32_t hi, bool first);
};
extern const PointKernels kPointKernelsScalar;
extern const PointKernels kPointKernelsSse42;
extern const PointKernels kPointKernelsAvx2;
extern const PointKernels kPointKernelsAvx512;
extern const SimdTables<PointKernels> kPointKernelTables;

// The table of the level in use.
inline const PointKernels& point_kernels() { return kPointKernelTables.current(); }

}  // namespace strut
