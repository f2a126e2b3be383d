// The solves of joint_rows.hpp that are too large to inline: small dense systems, the block
// of coupled rows, and the point-to-point constraint between rigid or soft bodies.
#include "solver/joints/joint_rows.hpp"

#include <cmath>

namespace strut {

bool solve_small(int n, const double k[3][3], const double rhs[3], double x[3]) {
  if (n == 1) {
    if (!(k[0][0] > 1e-30)) return false;
    x[0] = rhs[0] / k[0][0];
    return true;
  }
  if (n == 2) {
    const double det = k[0][0] * k[1][1] - k[0][1] * k[1][0];
    if (!(std::fabs(det) > 1e-30)) return false;
    x[0] = (k[1][1] * rhs[0] - k[0][1] * rhs[1]) / det;
    x[1] = (k[0][0] * rhs[1] - k[1][0] * rhs[0]) / det;
    return true;
  }
  // Cramer's rule.
  auto det3 = [](const double m[3][3]) {
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
           m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  };
  const double det = det3(k);
  if (!(std::fabs(det) > 1e-30)) return false;
  for (int col = 0; col < 3; ++col) {
    double m[3][3];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) m[r][c] = c == col ? rhs[r] : k[r][c];
    x[col] = det3(m) / det;
  }
  return true;
}

Vec2 solve_coincidence(WorldState& w, const PointRef& a, const PointRef& b) {
  const Vec2 c = point_now(w, b) - point_now(w, a);
  float k11 = 0, k12 = 0, k22 = 0;
  Vec2 arm_a, arm_b;
  for (const PointRef* p : {&a, &b}) {
    if (p->rigid) {
      const float im = w.bodies.inv_mass[p->body], ii = w.bodies.inv_inertia[p->body];
      const Vec2 r = start_arm(w, *p);
      (p == &a ? arm_a : arm_b) = r;
      k11 += im + ii * r.y * r.y;
      k12 -= ii * r.x * r.y;
      k22 += im + ii * r.x * r.x;
    } else {
      const float wi = inv_mass_along(w, *p, {1, 0});
      k11 += wi;
      k22 += wi;
    }
  }
  const float det = k11 * k22 - k12 * k12;
  if (!(det > 1e-20f)) return {};
  const float inv = 1.0f / det;
  const Vec2 P{-(k22 * c.x - k12 * c.y) * inv, -(-k12 * c.x + k11 * c.y) * inv};
  apply_position_impulse(w, b, P, &arm_b);
  apply_position_impulse(w, a, -P, &arm_a);
  return P;
}

void solve_block(WorldState& w, const JointBodies& q, const Row* rows, int n, const float* c,
                 const Softness1& s, float* lambda, float* applied, float max_norm, Moves moves) {
  double k[3][3] = {}, rhs[3] = {}, x[3] = {};
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      k[i][j] = double(q.ma + q.mb) * dot(rows[i].n, rows[j].n) +
                double(q.ia) * rows[i].ang_a * rows[j].ang_a +
                double(q.ib) * rows[i].ang_b * rows[j].ang_b;
    rhs[i] = c[i] + (s.gamma != 0 ? s.gamma * row_motion(w, q, rows[i]) : 0.0f);
  }
  for (int i = 0; i < n; ++i) applied[i] = 0;
  if (!solve_small(n, k, rhs, x)) return;
  float next[3];
  float* dl = applied;
  double norm2 = 0;
  for (int i = 0; i < n; ++i) {
    next[i] = lambda[i] + float((-x[i] - s.per_mass * lambda[i]) / (1 + s.gamma + s.per_mass));
    norm2 += double(next[i]) * next[i];
  }
  // A bounded block (a mouse or motor joint's force) scales the sum back onto the bound.
  const float scale = norm2 > double(max_norm) * max_norm ? float(max_norm / std::sqrt(norm2)) : 1;
  for (int i = 0; i < n; ++i) {
    next[i] *= scale;
    dl[i] = next[i] - lambda[i];
    lambda[i] = next[i];
  }
  apply_rows(w, q, rows, dl, n, moves);
}

}  // namespace strut
