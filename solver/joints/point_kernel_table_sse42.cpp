// The joint point kernel table for SSE4.2 (4 lanes), compiled with -march=x86-64-v2
// (cmake/simd_dispatch.cmake).
#include "solver/joints/point_group_kernels.hpp"
#include "solver/joints/point_kernel_table.hpp"

namespace strut {

const PointKernels kPointKernelsSse42 = {
    int(xsimd::batch<float, xsimd::sse4_2>::size), &simd::refresh_point_groups<xsimd::sse4_2>,
    &simd::solve_point_groups<xsimd::sse4_2>, &simd::project_point_groups<xsimd::sse4_2>};

}  // namespace strut
