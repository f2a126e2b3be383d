#include "solver/bounds_kernel.hpp"

#include <algorithm>

#include "solver/simd_dispatch.hpp"

namespace strut {

// Kept scalar (GCC would vectorise it at -O3) so the benchmark compares against real scalar code.
__attribute__((optimize("no-tree-vectorize"))) void fatten_bounds_scalar(const BoundsSpans& s,
                                                                         int begin, int end,
                                                                         float half_slop) {
  for (int i = begin; i < end; ++i) {
    const float grow = half_slop + s.spread[i];
    const float sx = s.sweep_x[i], sy = s.sweep_y[i];
    s.out_lx[i] = s.lx[i] - (grow + std::max(0.0f, -sx));
    s.out_ly[i] = s.ly[i] - (grow + std::max(0.0f, -sy));
    s.out_ux[i] = s.ux[i] + (grow + std::max(0.0f, sx));
    s.out_uy[i] = s.uy[i] + (grow + std::max(0.0f, sy));
  }
}

// The widest level this CPU runs (solver/simd_dispatch.hpp, kernel in solver/simd_kernels.hpp).
void fatten_bounds_simd(const BoundsSpans& s, int begin, int end, float half_slop) {
  simd_kernels().fatten_bounds(s, begin, end, half_slop);
}

}  // namespace strut
