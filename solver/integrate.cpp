#include "solver/integrate.hpp"

#include <cmath>

namespace strut {

void integrate_rigid_scalar(const RigidSpans& s, int begin, int end, float h) {
  const float h2 = h * h;
  for (int i = begin; i < end; ++i) {
    const float d = s.damping[i];
    const float dx = s.dx[i] * d + s.ax[i] * h2;
    const float dy = s.dy[i] * d + s.ay[i] * h2;
    s.dx[i] = dx;
    s.dy[i] = dy;
    s.px[i] = s.px[i] + dx;
    s.py[i] = s.py[i] + dy;
    // Damping shrinks the sine of the rotation delta (its angle, to first order); the torque
    // term adds alpha h^2 to the angle. Renormalised, then composed with q.
    const float dc = s.dqc[i];
    const float ds = s.dqs[i] * d + s.alpha[i] * h2 * dc;
    const float inv = 1.0f / std::sqrt(dc * dc + ds * ds);
    const float ec = dc * inv, es = ds * inv;
    s.dqc[i] = ec;
    s.dqs[i] = es;
    const float c = s.qc[i], sn = s.qs[i];
    const float nc = ec * c - es * sn, ns = es * c + ec * sn;
    // Renormalise so rounding never accumulates into a scale.
    const float inv2 = 1.0f / std::sqrt(nc * nc + ns * ns);
    s.qc[i] = nc * inv2;
    s.qs[i] = ns * inv2;
  }
}

void integrate_particles_scalar(const ParticleSpans& s, int begin, int end, float h) {
  const float h2 = h * h;
  for (int i = begin; i < end; ++i) {
    const float d = s.damping[i];
    const float dx = s.dx[i] * d + s.ax[i] * h2;
    const float dy = s.dy[i] * d + s.ay[i] * h2;
    s.dx[i] = dx;
    s.dy[i] = dy;
    s.x[i] = s.x[i] + dx;
    s.y[i] = s.y[i] + dy;
  }
}

}  // namespace strut
