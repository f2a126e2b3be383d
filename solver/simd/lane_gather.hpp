// One float per lane from a column indexed by the lanes' particles or bodies, for the dispatched
// lane kernels of struts and joint points (strut_kernel.hpp, joints/point_group_kernels.hpp):
// the lanes loaded one by one into an aligned row, then one vector load. xsimd 8.1's own gather
// loads lane by lane through a call (20% of joint_grid's instructions at 4 passes, callgrind).
// The AVX2 and AVX-512 hardware gathers were tried and rejected on this project's machine (AMD
// Zen 4), where they are slow: `strut run joint_grid --steps 100 --threads 1`, portable build,
// user CPU, minimum of 3 interleaved runs, 1.04 s with them against 0.93 s without at the AVX-512
// level, 1.08 against 0.92 s at AVX2; `cloth` 200 steps a tie (1.54 against 1.53 s). Same bits.
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
