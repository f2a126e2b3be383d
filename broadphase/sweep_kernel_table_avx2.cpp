// The sweep kernel table for AVX2 (8 lanes), compiled with -march=x86-64-v3
// (cmake/simd_dispatch.cmake).
#include "broadphase/sweep_kernel_table.hpp"
#include "broadphase/sweep_queries.hpp"

namespace strut::broadphase {

const SweepKernels kSweepKernelsAvx2 = {int(xsimd::batch<float, xsimd::avx2>::size),
                                        &sweep_queries<xsimd::batch<float, xsimd::avx2>>};

}  // namespace strut::broadphase
