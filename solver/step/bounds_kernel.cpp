#include "solver/step/bounds_kernel.hpp"

#include "solver/step/step_kernel_table.hpp"

namespace strut {

// Kept scalar (GCC would vectorise it at -O3) so the benchmark compares against real scalar code.
__attribute__((optimize("no-tree-vectorize"))) void fatten_bounds_scalar(const BoundsSpans& s,
                                                                         int begin, int end,
                                                                         float half_slop) {
  for (int i = begin; i < end; ++i) {
    float box[4] = {s.lx[i], s.ly[i], s.ux[i], s.uy[i]};
    sweep_box(box, s.sweep_x[i], s.sweep_y[i], s.spread[i], half_slop);
    s.out_lx[i] = box[0], s.out_ly[i] = box[1], s.out_ux[i] = box[2], s.out_uy[i] = box[3];
  }
}

// The table of the SIMD level in use (step_kernel_table.hpp, kernel in step_kernels_wide.hpp).
void fatten_bounds_simd(const BoundsSpans& s, int begin, int end, float half_slop) {
  step_kernels().fatten_bounds(s, begin, end, half_slop);
}

}  // namespace strut
