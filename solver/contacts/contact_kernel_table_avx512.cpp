// The contact kernel table for AVX-512 (16 lanes), compiled with -march=x86-64-v4
// (cmake/simd_dispatch.cmake).
#include "solver/contacts/contact_kernel_table.hpp"
#include "solver/contacts/contact_kernels.hpp"

namespace strut {

const ContactKernels kContactKernelsAvx512 = {
    int(xsimd::batch<float, xsimd::avx512bw>::size), &simd::contact_warm_start<xsimd::avx512bw>,
    &simd::contact_warm_start_rolling<xsimd::avx512bw>, &simd::contact_solve<xsimd::avx512bw>,
    &simd::contact_prepare<xsimd::avx512bw>};

}  // namespace strut
