// The dispatched kernels for AVX-512 (16 lanes), compiled with -march=x86-64-v4
// (cmake/simd_dispatch.cmake).
#include "solver/simd/simd_kernels.hpp"

namespace strut {

const SimdKernels kSimdKernelsAvx512 = simd::kernels_for<xsimd::avx512bw>(SimdLevel::Avx512);

}  // namespace strut
