// The strut kernel table for SSE4.2 (4 lanes), compiled with -march=x86-64-v2
// (cmake/simd_dispatch.cmake).
#include "solver/soft/strut_kernel.hpp"
#include "solver/soft/strut_kernel_table.hpp"
#include "solver/soft/strut_lanes.hpp"

namespace strut {

const StrutKernels kStrutKernelsSse42 = {
    int(xsimd::batch<float, xsimd::sse4_2>::size),
    &wide::solve_lane_group_simd<xsimd::batch<float, xsimd::sse4_2>>,
    &wide::solve_strut_group_simd<xsimd::batch<float, xsimd::sse4_2>>};

}  // namespace strut
