// The sweep kernel table for SSE4.2 (4 lanes), compiled with -march=x86-64-v2
// (cmake/simd_dispatch.cmake).
#include "broadphase/sweep_kernel_table.hpp"
#include "broadphase/sweep_queries.hpp"

namespace strut::broadphase {

const SweepKernels kSweepKernelsSse42 = {int(xsimd::batch<float, xsimd::sse4_2>::size),
                                         &sweep_queries<xsimd::batch<float, xsimd::sse4_2>>};

}  // namespace strut::broadphase
