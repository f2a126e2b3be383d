// The contact kernel table for SSE4.2 (4 lanes), compiled with -march=x86-64-v2
// (cmake/simd_dispatch.cmake).
#include "solver/contacts/contact_kernel_table.hpp"
#include "solver/contacts/contact_kernels.hpp"

namespace strut {

const ContactKernels kContactKernelsSse42 = {
    int(xsimd::batch<float, xsimd::sse4_2>::size), &simd::contact_warm_start<xsimd::sse4_2>,
    &simd::contact_warm_start_rolling<xsimd::sse4_2>, &simd::contact_solve<xsimd::sse4_2>,
    &simd::contact_prepare<xsimd::sse4_2>};

}  // namespace strut
