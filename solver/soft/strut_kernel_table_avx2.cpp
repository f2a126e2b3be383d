// The strut kernel table for AVX2 (8 lanes), compiled with -march=x86-64-v3
// (cmake/simd_dispatch.cmake).
#include "solver/soft/strut_kernel.hpp"
#include "solver/soft/strut_kernel_table.hpp"
#include "solver/soft/strut_lanes.hpp"

namespace strut {

const StrutKernels kStrutKernelsAvx2 = {
    int(xsimd::batch<float, xsimd::avx2>::size),
    &wide::solve_lane_group_simd<xsimd::batch<float, xsimd::avx2>>,
    &wide::solve_strut_group_simd<xsimd::batch<float, xsimd::avx2>>};

}  // namespace strut
