// The step kernel table for AVX2 (8 lanes), compiled with -march=x86-64-v3
// (cmake/simd_dispatch.cmake).
#include "solver/step/step_kernel_table.hpp"
#include "solver/step/step_kernels_wide.hpp"

namespace strut {

const StepKernels kStepKernelsAvx2 = {
    int(xsimd::batch<float, xsimd::avx2>::size), &simd::rigid_velocity<xsimd::avx2>,
    &simd::rigid_position<xsimd::avx2>, &simd::fatten_bounds<xsimd::avx2>};

}  // namespace strut
