// One float per lane from a column indexed by the lanes' particles or bodies, for the dispatched
// lane kernels of struts and joint points (strut_kernel.hpp, joints/point_group_kernels.hpp):
// the lanes loaded one by one into an aligned row, then one vector load. xsimd 8.1's own gather
// loads lane by lane through a call, a large share of the joint passes' instructions. The AVX2
// and AVX-512 hardware gathers give the same bits but are slower than this on AMD Zen 4 for the
// joints and no faster for a cloth (figures in docs/architecture.md).
#pragma once

#include <cstdint>
#include <xsimd/xsimd.hpp>

namespace strut::wide {

// base[idx[0]], ..., base[idx[width - 1]]. Every index must be readable.
template <class F>
F gather_column(const float* base, const std::uint32_t* idx) {
  alignas(64) float v[F::size];
  for (std::size_t i = 0; i < F::size; ++i) v[i] = base[idx[i]];
  return F::load_aligned(v);
}

}  // namespace strut::wide
