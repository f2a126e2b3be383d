#include "solver/bounds_kernel.hpp"

#include <xsimd/xsimd.hpp>

namespace strut {

// Kept scalar (GCC would vectorise it at -O3) so the benchmark compares against real scalar code.
__attribute__((optimize("no-tree-vectorize"))) void fatten_bounds_scalar(const BoundsSpans& s,
                                                                           int begin, int end,
                                                                           float half_slop) {
  for (int i = begin; i < end; ++i) {
    const float grow = half_slop + s.motion[i];
    s.out_lx[i] = s.lx[i] - grow;
    s.out_ly[i] = s.ly[i] - grow;
    s.out_ux[i] = s.ux[i] + grow;
    s.out_uy[i] = s.uy[i] + grow;
  }
}

void fatten_bounds_simd(const BoundsSpans& s, int begin, int end, float half_slop) {
  using Batch = xsimd::batch<float>;
  constexpr int kWidth = int(Batch::size);
  const Batch slop(half_slop);
  int i = begin;
  for (; i + kWidth <= end; i += kWidth) {
    const Batch grow = slop + Batch::load_unaligned(s.motion + i);
    (Batch::load_unaligned(s.lx + i) - grow).store_unaligned(s.out_lx + i);
    (Batch::load_unaligned(s.ly + i) - grow).store_unaligned(s.out_ly + i);
    (Batch::load_unaligned(s.ux + i) + grow).store_unaligned(s.out_ux + i);
    (Batch::load_unaligned(s.uy + i) + grow).store_unaligned(s.out_uy + i);
  }
  fatten_bounds_scalar(s, i, end, half_slop);
}

}  // namespace strut
