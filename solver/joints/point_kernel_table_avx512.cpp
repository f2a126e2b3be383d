// The joint point kernel table for AVX-512 (16 lanes), compiled with -march=x86-64-v4
// (cmake/simd_dispatch.cmake).
#include "solver/joints/point_group_kernels.hpp"
#include "solver/joints/point_kernel_table.hpp"

namespace strut {

const PointKernels kPointKernelsAvx512 = {
    int(xsimd::batch<float, xsimd::avx512bw>::size), &simd::refresh_point_groups<xsimd::avx512bw>,
    &simd::solve_point_groups<xsimd::avx512bw>, &simd::project_point_groups<xsimd::avx512bw>};

}  // namespace strut
