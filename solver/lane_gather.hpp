// One float per lane from a column indexed by the lanes' particles or bodies, for the dispatched
// lane kernels of struts and joint points (strut_kernel.hpp, joints/point_group_kernels.hpp).
// AVX-512 and AVX2 have a hardware gather; xsimd 8.1's own gather loads lane by lane through a
// call (20% of joint_grid's instructions at 4 passes, callgrind), and SSE4.2 has no gather, so
// it loads the lanes one by one into an aligned row. A template over the batch type: each SIMD
// level's file compiles its own copy (solver/simd_kernels.hpp), and the #if guards follow that
// file's -march.
#pragma once

#include <cstdint>
#include <type_traits>
#include <xsimd/xsimd.hpp>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace strut::wide {

// base[idx[0]], ..., base[idx[width - 1]]. Every index must be readable.
// GCC 12 reports its own AVX-512 gather intrinsic (_mm512_i32gather_ps passes an undefined
// pass-through operand: "__Y may be used uninitialized"), as for max/min in contact_wide.hpp.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
template <class F>
F gather_column(const float* base, const std::uint32_t* idx) {
#if defined(__AVX512F__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, typename F::arch_type>)
    return _mm512_i32gather_ps(_mm512_loadu_si512(idx), base, 4);
#endif
#if defined(__AVX2__)
  if constexpr (std::is_base_of_v<xsimd::avx2, typename F::arch_type>)
    return _mm256_i32gather_ps(base, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx)), 4);
#endif
  alignas(64) float v[F::size];
  for (std::size_t i = 0; i < F::size; ++i) v[i] = base[idx[i]];
  return F::load_aligned(v);
}
#pragma GCC diagnostic pop

}  // namespace strut::wide
