// A material point of a body, as the constraint solvers see it. Contacts and joints are all
// written once against this: "where is the point now and one substep ago, how hard is it to
// move along n, and move it by a position impulse". For a rigid body the point is an offset r
// from the centre of mass and the response is the rigid-body one (1/m + (r x n)^2 / I); for a
// soft body it is a particle or a point on an edge between two particles with weights
// (1 - t, t), which is the seed's vertex-edge rule generalised to unequal masses.
#pragma once

#include <cmath>

#include "solver/core/rotation.hpp"
#include "solver/core/stores.hpp"
#include "solver/world_state.hpp"

namespace strut {

struct PointRef {
  std::uint32_t body = 0;
  bool rigid = true;
  Vec2 local;                    // rigid: offset from the centre of mass, body coordinates
  std::uint32_t i1 = 0, i2 = 0;  // soft: particles; the point is (1 - t) x[i1] + t x[i2]
  float t = 0;
};

inline Vec2 body_point(const BodyArrays& b, std::uint32_t k, Vec2 local) {
  return Vec2{b.px[k], b.py[k]} + rotate(Rot{b.qc[k], b.qs[k]}, local);
}

inline Vec2 point_now(Stores<ReadsBodies, ReadsParticles> w, const PointRef& p) {
  if (p.rigid) return body_point(w.bodies, p.body, p.local);
  const auto& q = w.particles;
  return Vec2{(1 - p.t) * q.x[p.i1] + p.t * q.x[p.i2], (1 - p.t) * q.y[p.i1] + p.t * q.y[p.i2]};
}

// How far the point moved during the current substep (its velocity times h), computed from the
// stored motion, never as a difference of two large positions.
inline Vec2 point_motion(Stores<ReadsBodies, ReadsParticles> w, const PointRef& p) {
  if (p.rigid) {
    const auto& b = w.bodies;
    const std::uint32_t k = p.body;
    const Vec2 r = rotate(Rot{b.qc[k], b.qs[k]}, p.local);
    // r - conj(dq) r: the rotation's share of the displacement.
    const Vec2 back = inv_rotate(rot_of_small_angle(b.da[k]), r);
    return Vec2{b.dx[k], b.dy[k]} + (r - back);
  }
  const auto& q = w.particles;
  return Vec2{(1 - p.t) * q.dx[p.i1] + p.t * q.dx[p.i2], (1 - p.t) * q.dy[p.i1] + p.t * q.dy[p.i2]};
}

// World-space offset of a rigid point from its body's centre of mass.
inline Vec2 arm(Stores<ReadsBodies> w, const PointRef& p) {
  return rotate(Rot{w.bodies.qc[p.body], w.bodies.qs[p.body]}, p.local);
}

// The point's motion this substep to first order in its body's turn, d + da x r: its velocity
// times h, and the Jacobian the rows' effective masses (inv_mass_along) are built from, as the
// rigid contact lanes solve it. Rows that drive a relative motion to a target use this, not
// point_motion: point_motion's rotation series grows as da^5, so a body turning radians a
// substep answered each impulse with a larger one until NaN (found by fuzz_api in the soft
// contact rows and the distance joint's spring damping).
inline Vec2 point_motion_linear(Stores<ReadsBodies, ReadsParticles> w, const PointRef& p) {
  if (!p.rigid) return point_motion(w, p);
  const Vec2 r = arm(w, p);
  const auto& b = w.bodies;
  return Vec2{b.dx[p.body] - b.da[p.body] * r.y, b.dy[p.body] + b.da[p.body] * r.x};
}

// Generalised inverse mass of the point along unit direction n.
inline float inv_mass_along(Stores<ReadsBodies, ReadsParticles> w, const PointRef& p, Vec2 n) {
  if (p.rigid) {
    const float rn = cross(arm(w, p), n);
    return w.bodies.inv_mass[p.body] + w.bodies.inv_inertia[p.body] * rn * rn;
  }
  const float a = 1 - p.t, b = p.t;
  return a * a * w.particles.w[p.i1] + b * b * w.particles.w[p.i2];
}

// Rotates a unit complex number by a small angle and renormalises.
inline void rotate_small(float& c, float& s, float angle) {
  const float nc = c - angle * s, ns = s + angle * c;
  const float inv = 1.0f / std::sqrt(nc * nc + ns * ns);
  c = nc * inv;
  s = ns * inv;
}

// The turn a correction undoes to find the start arm: the substep's turn so far (da, which
// every correction adds to as it turns the pose), or none beyond kStartArmTurn.
inline float start_arm_turn(float da) { return std::fabs(da) < kStartArmTurn ? -da : 0.0f; }

// The arm of a rigid point as the substep began, for position corrections (kStartArmTurn): the
// arm now turned back by the substep's turn, to first order (r + t x r); the push's direction
// then errs by t^2 / 2, which the energy it keeps does not see (to fourth order in the turn).
inline Vec2 start_arm(const WorldState& w, const PointRef& p) {
  const Vec2 r = arm(w, p);
  const float t = start_arm_turn(w.bodies.da[p.body]);
  return {r.x - t * r.y, r.y + t * r.x};
}

// Moves the point by the position impulse P (its own displacement is inv_mass_along * P); a
// rigid body turns by P about the arm r_rigid (the arm now unless told).
inline void apply_position_impulse(WorldState& w, const PointRef& p, Vec2 P,
                                   const Vec2* r_rigid = nullptr) {
  if (p.rigid) {
    auto& b = w.bodies;
    const float im = b.inv_mass[p.body];
    if (im == 0 && b.inv_inertia[p.body] == 0) return;
    // A correction moves the pose and, through it, the motion of this substep.
    b.px[p.body] += im * P.x;
    b.py[p.body] += im * P.y;
    b.dx[p.body] += im * P.x;
    b.dy[p.body] += im * P.y;
    const float angle = b.inv_inertia[p.body] * cross(r_rigid ? *r_rigid : arm(w, p), P);
    rotate_small(b.qc[p.body], b.qs[p.body], angle);
    b.da[p.body] += angle;
    return;
  }
  auto& q = w.particles;
  const float a = (1 - p.t) * q.w[p.i1], c = p.t * q.w[p.i2];
  q.x[p.i1] += a * P.x;
  q.y[p.i1] += a * P.y;
  q.dx[p.i1] += a * P.x;
  q.dy[p.i1] += a * P.y;
  if (c != 0) {
    q.x[p.i2] += c * P.x;
    q.y[p.i2] += c * P.y;
    q.dx[p.i2] += c * P.x;
    q.dy[p.i2] += c * P.y;
  }
}

// Changes the point's velocity by the velocity impulse J: only the motion changes, which is
// the same as moving the previous position back.
inline void apply_velocity_impulse(Stores<WritesBodies, WritesParticles> w, const PointRef& p,
                                   Vec2 J, float h) {
  if (p.rigid) {
    auto& b = w.bodies;
    const float im = b.inv_mass[p.body];
    // Bodies of infinite mass are shared by constraints of one colour: never written.
    if (im == 0 && b.inv_inertia[p.body] == 0) return;
    b.dx[p.body] += im * J.x * h;
    b.dy[p.body] += im * J.y * h;
    b.da[p.body] += b.inv_inertia[p.body] * cross(arm(w, p), J) * h;
    return;
  }
  auto& q = w.particles;
  const float a = (1 - p.t) * q.w[p.i1], c = p.t * q.w[p.i2];
  q.dx[p.i1] += a * J.x * h;
  q.dy[p.i1] += a * J.y * h;
  if (c != 0) {
    q.dx[p.i2] += c * J.x * h;
    q.dy[p.i2] += c * J.y * h;
  }
}

}  // namespace strut
