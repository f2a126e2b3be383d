// The strut kernel table for AVX-512 (16 lanes), compiled with -march=x86-64-v4
// (cmake/simd_dispatch.cmake).
#include "solver/soft/strut_kernel.hpp"
#include "solver/soft/strut_kernel_table.hpp"
#include "solver/soft/strut_lanes.hpp"

namespace strut {

const StrutKernels kStrutKernelsAvx512 = {
    int(xsimd::batch<float, xsimd::avx512bw>::size),
    &wide::solve_lane_group_simd<xsimd::batch<float, xsimd::avx512bw>>,
    &wide::solve_strut_group_simd<xsimd::batch<float, xsimd::avx512bw>>};

}  // namespace strut
