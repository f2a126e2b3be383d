// The dispatched kernels for SSE4.2 (4 lanes), compiled with -march=x86-64-v2
// (cmake/simd_dispatch.cmake).
#include "solver/simd/simd_kernels.hpp"

namespace strut {

const SimdKernels kSimdKernelsSse42 = simd::kernels_for<xsimd::sse4_2>(SimdLevel::Sse42);

}  // namespace strut
