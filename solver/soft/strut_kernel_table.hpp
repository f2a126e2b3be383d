// The struts' SIMD kernels, one lane group of soft bodies (strut_lanes.hpp, groups of a fixed 32
// bodies) and one group of a strut colour (strut_kernel.hpp, 16 lanes), in one table per SIMD
// level (solver/simd/simd_dispatch.hpp): the scalar twins (strut_kernel_table.cpp) and the
// kernels compiled for each level in strut_kernel_table_<level>.cpp.
#pragma once

#include "solver/simd/simd_dispatch.hpp"

namespace strut {

struct StrutSpans;
struct LaneShape;
struct LaneGroup;
struct LaneStrut;
struct WideStrut;

struct StrutKernels {
  int lanes;  // floats a register holds at this level (1: the scalar twins)
  void (*lane_group)(const StrutSpans& p, const LaneShape& t, const LaneGroup& g, LaneStrut* rows,
                     float inv_h2);
  void (*group)(const StrutSpans& p, WideStrut& g, float inv_h2);
};
extern const StrutKernels kStrutKernelsScalar;
extern const StrutKernels kStrutKernelsSse42;
extern const StrutKernels kStrutKernelsAvx2;
extern const StrutKernels kStrutKernelsAvx512;
extern const SimdTables<StrutKernels> kStrutKernelTables;

// The table of the level in use.
inline const StrutKernels& strut_kernels() { return kStrutKernelTables.current(); }

}  // namespace strut
