// The rigid integration kernels' SIMD entry points: the widest level this CPU runs
// (solver/simd_dispatch.hpp); the kernels themselves are in solver/simd_kernels.hpp.
#include "solver/integrate.hpp"
#include "solver/simd_dispatch.hpp"

namespace strut {

void integrate_rigid_velocity_simd(const RigidSpans& s, int begin, int end, float h) {
  simd_kernels().rigid_velocity(s, begin, end, h);
}

void integrate_rigid_position_simd(const RigidSpans& s, int begin, int end) {
  simd_kernels().rigid_position(s, begin, end);
}

}  // namespace strut
