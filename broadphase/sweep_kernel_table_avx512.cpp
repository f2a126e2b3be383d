// The sweep kernel table for AVX-512 (16 lanes), compiled with -march=x86-64-v4
// (cmake/simd_dispatch.cmake).
#include "broadphase/sweep_kernel_table.hpp"
#include "broadphase/sweep_queries.hpp"

namespace strut::broadphase {

const SweepKernels kSweepKernelsAvx512 = {int(xsimd::batch<float, xsimd::avx512bw>::size),
                                          &sweep_queries<xsimd::batch<float, xsimd::avx512bw>>};

}  // namespace strut::broadphase
