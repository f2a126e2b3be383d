// The dispatched kernels for AVX2 (8 lanes), compiled with -march=x86-64-v3
// (cmake/simd_dispatch.cmake).
#include "solver/simd/simd_kernels.hpp"

namespace strut {

const SimdKernels kSimdKernelsAvx2 = simd::kernels_for<xsimd::avx2>(SimdLevel::Avx2);

}  // namespace strut
