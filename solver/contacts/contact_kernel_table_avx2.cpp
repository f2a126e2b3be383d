// The contact kernel table for AVX2 (8 lanes), compiled with -march=x86-64-v3
// (cmake/simd_dispatch.cmake).
#include "solver/contacts/contact_kernel_table.hpp"
#include "solver/contacts/contact_kernels.hpp"

namespace strut {

const ContactKernels kContactKernelsAvx2 = {
    int(xsimd::batch<float, xsimd::avx2>::size), &simd::contact_warm_start<xsimd::avx2>,
    &simd::contact_warm_start_rolling<xsimd::avx2>, &simd::contact_solve<xsimd::avx2>,
    &simd::contact_prepare<xsimd::avx2>};

}  // namespace strut
