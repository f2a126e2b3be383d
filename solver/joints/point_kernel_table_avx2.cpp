// The joint point kernel table for AVX2 (8 lanes), compiled with -march=x86-64-v3
// (cmake/simd_dispatch.cmake).
#include "solver/joints/point_group_kernels.hpp"
#include "solver/joints/point_kernel_table.hpp"

namespace strut {

const PointKernels kPointKernelsAvx2 = {
    int(xsimd::batch<float, xsimd::avx2>::size), &simd::refresh_point_groups<xsimd::avx2>,
    &simd::solve_point_groups<xsimd::avx2>, &simd::project_point_groups<xsimd::avx2>};

}  // namespace strut
