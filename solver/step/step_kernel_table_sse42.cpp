// The step kernel table for SSE4.2 (4 lanes), compiled with -march=x86-64-v2
// (cmake/simd_dispatch.cmake).
#include "solver/step/step_kernel_table.hpp"
#include "solver/step/step_kernels_wide.hpp"

namespace strut {

const StepKernels kStepKernelsSse42 = {
    int(xsimd::batch<float, xsimd::sse4_2>::size), &simd::rigid_velocity<xsimd::sse4_2>,
    &simd::rigid_position<xsimd::sse4_2>, &simd::fatten_bounds<xsimd::sse4_2>};

}  // namespace strut
