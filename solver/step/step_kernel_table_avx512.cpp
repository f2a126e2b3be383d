// The step kernel table for AVX-512 (16 lanes), compiled with -march=x86-64-v4
// (cmake/simd_dispatch.cmake).
#include "solver/step/step_kernel_table.hpp"
#include "solver/step/step_kernels_wide.hpp"

namespace strut {

const StepKernels kStepKernelsAvx512 = {
    int(xsimd::batch<float, xsimd::avx512bw>::size), &simd::rigid_velocity<xsimd::avx512bw>,
    &simd::rigid_position<xsimd::avx512bw>, &simd::fatten_bounds<xsimd::avx512bw>};

}  // namespace strut
