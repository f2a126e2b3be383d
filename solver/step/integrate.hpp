// Verlet integration kernels: free functions over SoA spans, split into the velocity half and
// the position half so the solver can act between them. The state is the pose and the motion of
// the last substep (d = x - x_prev, velocity = d / h). Each kernel has a scalar reference; the
// xsimd versions must match it bit for bit (same operations, same order, -ffp-contract=off).
#pragma once

#include <cmath>
#include <cstdint>
#include <span>

#include "strut/math.hpp"

namespace strut {

// Rigid bodies [begin, end): pose p, q = (cos, sin); motion d and angle da over the substep.
struct RigidSpans {
  float* px;
  float* py;
  float* qc;
  float* qs;
  float* dx;
  float* dy;
  float* da;
  const float* ax;  // acceleration (gravity x scale + force / m)
  const float* ay;
  const float* alpha;            // angular acceleration (torque / I)
  const float* damping;          // exp(-drag h), 1 = none
  const float* angular_damping;  // exp(-angular_drag h)
  // The position kernel clamps each component of d to +-max_move and da to +-max_turn (the
  // speed limits of strut/limits.hpp times the substep), and stores the clamped motion.
  float max_move = INFINITY;
  float max_turn = INFINITY;
};
// d' = d * damping + a h^2; da' = da * angular_damping + alpha h^2.
void integrate_rigid_velocity_scalar(const RigidSpans& s, int begin, int end, float h);
void integrate_rigid_velocity_simd(const RigidSpans& s, int begin, int end, float h);
// d, da clamped; p' = p + d; q' = rot(da) q (exact, solver/core/rotation.hpp), renormalised.
void integrate_rigid_position_scalar(const RigidSpans& s, int begin, int end);
void integrate_rigid_position_simd(const RigidSpans& s, int begin, int end);

// Particles [begin, end).
struct ParticleSpans {
  float* x;
  float* y;
  float* dx;
  float* dy;
  const float* ax;
  const float* ay;
  const float* damping;
  float max_move = INFINITY;  // each component of d is clamped to +-max_move
};
// Clamps each of dx[i], dy[i] to +-max_move and (if da is given) da[i] to +-max_turn, i < n.
void clamp_motion(float* dx, float* dy, float* da, std::size_t n, float max_move, float max_turn);

void integrate_particles_velocity(const ParticleSpans& s, int begin, int end, float h);
void integrate_particles_position(const ParticleSpans& s, int begin, int end);

}  // namespace strut
