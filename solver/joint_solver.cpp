// Joints are constraints between material points of two bodies (point_ref.hpp), solved by XPBD
// projection so a compliance means the same softness at any substep or iteration count.
#include "solver/joint_solver.hpp"

#include <cmath>

namespace strut {

PointRef anchor_ref(const World::Impl& w, std::uint32_t body, const BodyAnchor& a) {
  PointRef p;
  p.body = body;
  p.rigid = w.is_rigid(body);
  p.local = a.local;
  p.i1 = p.i2 = w.bodies.particle_begin[body] + a.particle;
  return p;
}

BodyAnchor make_anchor(const World::Impl& w, std::uint32_t body, Vec2 world_point) {
  BodyAnchor a;
  const auto& b = w.bodies;
  if (w.is_rigid(body)) {
    a.local = inv_rotate(Rot{b.qc[body], b.qs[body]}, world_point - Vec2{b.px[body], b.py[body]});
    return a;
  }
  float best = 1e30f;
  for (std::uint32_t i = 0; i < b.particle_count[body]; ++i) {
    const std::uint32_t k = b.particle_begin[body] + i;
    const Vec2 d = Vec2{w.particles.x[k], w.particles.y[k]} - world_point;
    if (dot(d, d) < best) {
      best = dot(d, d);
      a.particle = i;
    }
  }
  return a;
}

void reset_joint_lambdas(World::Impl&) {}

namespace {

// Point-to-point constraint (pin, and the positional half of weld): solves the 2x2 system
// K P = -C with K the sum of both points' generalised inverse mass matrices.
void solve_coincidence(World::Impl& w, const PointRef& a, const PointRef& b) {
  const Vec2 c = point_now(w, b) - point_now(w, a);
  float k11 = 0, k12 = 0, k22 = 0;
  for (const PointRef* p : {&a, &b}) {
    if (p->rigid) {
      const float im = w.bodies.inv_mass[p->body], ii = w.bodies.inv_inertia[p->body];
      const Vec2 r = arm(w, *p);
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
  if (!(det > 1e-20f)) return;
  const float inv = 1.0f / det;
  // P = -K^-1 C, applied +P to b and -P to a.
  const Vec2 P{-(k22 * c.x - k12 * c.y) * inv, -(-k12 * c.x + k11 * c.y) * inv};
  apply_position_impulse(w, b, P);
  apply_position_impulse(w, a, -P);
}

float relative_angle(const World::Impl& w, std::uint32_t a, std::uint32_t b) {
  const auto& bd = w.bodies;
  // angle of conj(qa) * qb
  const float c = bd.qc[a] * bd.qc[b] + bd.qs[a] * bd.qs[b];
  const float s = bd.qc[a] * bd.qs[b] - bd.qs[a] * bd.qc[b];
  return std::atan2(s, c);
}

}  // namespace

void solve_joints(World::Impl& w, float h) {
  const float inv_h2 = 1.0f / (h * h);
  for (const Joint& j : w.joints) {
    const std::uint32_t ba = w.slots[j.slot_a].dense, bb = w.slots[j.slot_b].dense;
    if ((w.bodies.flags[ba] | w.bodies.flags[bb]) & kSleeping) continue;
    const PointRef pa = anchor_ref(w, ba, j.anchor_a);
    const PointRef pb = anchor_ref(w, bb, j.anchor_b);
    if (j.type == JointType::Distance) {
      const Vec2 d = point_now(w, pb) - point_now(w, pa);
      const float len = length(d);
      if (len < 1e-9f) continue;
      float c;
      if (j.min_length >= 0 || j.max_length >= 0) {
        if (j.max_length >= 0 && len > j.max_length) c = len - j.max_length;
        else if (j.min_length >= 0 && len < j.min_length) c = len - j.min_length;
        else continue;  // slack rope
      } else {
        c = len - j.length;
      }
      const Vec2 n = (1.0f / len) * d;
      const float wsum = inv_mass_along(w, pa, n) + inv_mass_along(w, pb, n) + j.compliance * inv_h2;
      if (wsum <= 0) continue;
      const float s = -c / wsum;
      apply_position_impulse(w, pb, s * n);
      apply_position_impulse(w, pa, -s * n);
    } else {
      solve_coincidence(w, pa, pb);
      if (j.type == JointType::Weld && pa.rigid && pb.rigid) {
        const float ia = w.bodies.inv_inertia[ba], ib = w.bodies.inv_inertia[bb];
        if (ia + ib <= 0) continue;
        const float c = relative_angle(w, ba, bb) - j.reference_angle;
        const float s = -c / (ia + ib);
        rotate_small(w.bodies.qc[ba], w.bodies.qs[ba], -ia * s);
        rotate_small(w.bodies.qc[bb], w.bodies.qs[bb], ib * s);
      }
    }
  }
}

void solve_struts(World::Impl& w, float h) {
  const float inv_h2 = 1.0f / (h * h);
  auto& q = w.particles;
  for (const Strut& s : w.struts) {
    const float dx = q.x[s.b] - q.x[s.a], dy = q.y[s.b] - q.y[s.a];
    const float len = std::sqrt(dx * dx + dy * dy);
    if (len < 1e-9f) continue;
    const float wsum = q.w[s.a] + q.w[s.b] + s.compliance * inv_h2;
    if (wsum <= 0) continue;
    const float lambda = -(len - s.rest) / wsum / len;
    q.x[s.a] -= q.w[s.a] * lambda * dx;
    q.y[s.a] -= q.w[s.a] * lambda * dy;
    q.x[s.b] += q.w[s.b] * lambda * dx;
    q.y[s.b] += q.w[s.b] * lambda * dy;
  }
}

}  // namespace strut

