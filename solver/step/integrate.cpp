#include "solver/step/integrate.hpp"

#include <algorithm>
#include <cmath>

#include "solver/core/rotation.hpp"

namespace strut {

void integrate_rigid_velocity_scalar(const RigidSpans& s, int begin, int end, float h) {
  const float h2 = h * h;
  for (int i = begin; i < end; ++i) {
    const float d = s.damping[i];
    s.dx[i] = s.dx[i] * d + s.ax[i] * h2;
    s.dy[i] = s.dy[i] * d + s.ay[i] * h2;
    s.da[i] = s.da[i] * s.angular_damping[i] + s.alpha[i] * h2;
  }
}

void integrate_rigid_position_scalar(const RigidSpans& s, int begin, int end) {
  for (int i = begin; i < end; ++i) {
    const float dx = std::min(std::max(s.dx[i], -s.max_move), s.max_move);
    const float dy = std::min(std::max(s.dy[i], -s.max_move), s.max_move);
    const float a = std::min(std::max(s.da[i], -s.max_turn), s.max_turn);
    s.dx[i] = dx, s.dy[i] = dy, s.da[i] = a;
    s.px[i] = s.px[i] + dx;
    s.py[i] = s.py[i] + dy;
    float ec, es;
    cos_sin(a, ec, es);
    const float c = s.qc[i], sn = s.qs[i];
    const float nc = ec * c - es * sn, ns = es * c + ec * sn;
    // Renormalise so rounding never accumulates into a scale.
    const float inv = 1.0f / std::sqrt(nc * nc + ns * ns);
    s.qc[i] = nc * inv;
    s.qs[i] = ns * inv;
  }
}

void integrate_particles_velocity(const ParticleSpans& s, int begin, int end, float h) {
  const float h2 = h * h;
  for (int i = begin; i < end; ++i) {
    s.dx[i] = s.dx[i] * s.damping[i] + s.ax[i] * h2;
    s.dy[i] = s.dy[i] * s.damping[i] + s.ay[i] * h2;
  }
}

void integrate_particles_position(const ParticleSpans& s, int begin, int end) {
  for (int i = begin; i < end; ++i) {
    s.dx[i] = std::min(std::max(s.dx[i], -s.max_move), s.max_move);
    s.dy[i] = std::min(std::max(s.dy[i], -s.max_move), s.max_move);
    s.x[i] = s.x[i] + s.dx[i];
    s.y[i] = s.y[i] + s.dy[i];
  }
}

}  // namespace strut
