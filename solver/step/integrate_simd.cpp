// The rigid integration kernels' SIMD entry points: the table of the SIMD level in use
// (step_kernel_table.hpp); the kernels themselves are in step_kernels_wide.hpp.
#include <algorithm>

#include "solver/step/integrate.hpp"
#include "solver/step/step_kernel_table.hpp"

namespace strut {

void integrate_rigid_velocity_simd(const RigidSpans& s, int begin, int end, float h) {
  step_kernels().rigid_velocity(s, begin, end, h);
}

void integrate_rigid_position_simd(const RigidSpans& s, int begin, int end) {
  step_kernels().rigid_position(s, begin, end);
}

// Here, not in integrate.cpp (whose scalar reference kernels are compiled without
// vectorisation): over every body of a world it is a min and a max per value, which GCC
// vectorises (the same bits: min and max round nothing). Scalar, it weighs on a step of a few
// moving bodies beside many static ones.
void clamp_motion(float* dx, float* dy, float* da, std::size_t n, float max_move, float max_turn) {
  for (std::size_t i = 0; i < n; ++i) {
    dx[i] = std::min(std::max(dx[i], -max_move), max_move);
    dy[i] = std::min(std::max(dy[i], -max_move), max_move);
    if (da) da[i] = std::min(std::max(da[i], -max_turn), max_turn);
  }
}

}  // namespace strut
