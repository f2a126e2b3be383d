// Verlet integration kernels: free functions over SoA spans. Each has a scalar reference; the
// SIMD versions (integrate_simd.hpp) must match them bit for bit.
#pragma once

#include <cstdint>
#include <span>

#include "strut/math.hpp"

namespace strut {

// Rigid-body poses, for bodies [begin, end) (d = p - p_prev, dq = q conj(q_prev)):
//   d' = d * damping + a h^2,  p' = p + d'
//   dq' = dq with its angle scaled by damping plus alpha h^2 (to first order),  q' = dq' q
// Static bodies are skipped by the caller; kinematic ones pass inv_mass = 0 and gravity 0.
struct RigidSpans {
  float* px;
  float* py;
  float* qc;
  float* qs;
  float* dx;
  float* dy;
  float* dqc;
  float* dqs;
  const float* ax;  // acceleration (gravity x scale + force / m)
  const float* ay;
  const float* alpha;    // angular acceleration (torque / I)
  const float* damping;  // exp(-drag h), 1 = none
};
void integrate_rigid_scalar(const RigidSpans& s, int begin, int end, float h);

// Particles [begin, end): d' = d * damping + a h^2, x' = x + d'.
struct ParticleSpans {
  float* x;
  float* y;
  float* dx;
  float* dy;
  const float* ax;
  const float* ay;
  const float* damping;
};
void integrate_particles_scalar(const ParticleSpans& s, int begin, int end, float h);

}  // namespace strut

namespace strut {
// xsimd version of integrate_rigid_scalar, bit-identical to it.
void integrate_rigid_simd(const RigidSpans& s, int begin, int end, float h);
}  // namespace strut
