// The kernels of the joint points' SIMD lanes (point_lanes.hpp), templates over the number type:
// float for the scalar twin, an xsimd batch for a register of lanes at each SIMD level
// (point_group_kernels.hpp). Included by point_lanes.cpp, the per-level kernel files and the
// tests only, so that changing them rebuilds little. Negation is written 0 - x, never -x: xsimd's
// AVX-512 negation turns +0 into +0 where the scalar twin's gives -0 (padding lanes came out with
// k12 = +0 against -0), and every width must give the twin's bits. Where the scalar code they
// must match negates (the angle rows), rotation_detail::negate flips the sign bit as float
// negation does.
#pragma once

#include <limits>

#include "solver/core/rotation.hpp"
#include "solver/joints/point_lanes.hpp"

namespace strut {

namespace wide {

// The motion of a lane's body over the substep.
template <class F>
struct Motion {
  F dx, dy, da;
};

// Applies P to B at arm rb and -P to A at arm ra: motion only.
template <class F>
[[gnu::always_inline]] inline void push_point(Motion<F>& A, Motion<F>& B, const PointGroup& g,
                                              int lane, F px, F py, F rax, F ray, F rbx, F rby) {
  push(A, B, load<F>(g.ma + lane), load<F>(g.ia + lane), load<F>(g.mb + lane), load<F>(g.ib + lane),
       px, py, rax, ray, rbx, rby);
}

// Arms and inverse effective mass from the bodies' rotations (qca, qsa) and (qcb, qsb) now.
// K = (ma + mb) I + ia [ra.y^2, -ra.x ra.y; ., ra.x^2] + the same for b; its inverse is 0 where
// both bodies are fixed.
template <class F>
[[gnu::always_inline]] inline void refresh_point_lanes(PointGroup& g, int lane, F qca, F qsa, F qcb,
                                                       F qsb) {
  const F lax = load<F>(g.lax + lane), lay = load<F>(g.lay + lane);
  const F lbx = load<F>(g.lbx + lane), lby = load<F>(g.lby + lane);
  const F rax = qca * lax - qsa * lay, ray = qsa * lax + qca * lay;
  const F rbx = qcb * lbx - qsb * lby, rby = qsb * lbx + qcb * lby;
  const F ma = load<F>(g.ma + lane), ia = load<F>(g.ia + lane);
  const F mb = load<F>(g.mb + lane), ib = load<F>(g.ib + lane);
  const F m = ma + mb;
  const F k11 = m + ia * ray * ray + ib * rby * rby;
  const F k12 = (F(0.0f) - ia * rax * ray) - ib * rbx * rby;
  const F k22 = m + ia * rax * rax + ib * rbx * rbx;
  const F det = k11 * k22 - k12 * k12;
  const F inv = select(det > F(1e-20f), F(1.0f) / det, F(0.0f));
  store(g.rax + lane, rax), store(g.ray + lane, ray);
  store(g.rbx + lane, rbx), store(g.rby + lane, rby);
  store(g.k11 + lane, k22 * inv), store(g.k12 + lane, (F(0.0f) - k12) * inv),
      store(g.k22 + lane, k11 * inv);
}

// The carried impulse applied again (after refresh_point_lanes).
template <class F>
[[gnu::always_inline]] inline void warm_start_point_lanes(Motion<F>& A, Motion<F>& B,
                                                          const PointGroup& g, int lane) {
  push_point(A, B, g, lane, load<F>(g.px + lane), load<F>(g.py + lane), load<F>(g.rax + lane),
             load<F>(g.ray + lane), load<F>(g.rbx + lane), load<F>(g.rby + lane));
}

// The relative motion of a lane's two anchors over the substep.
template <class F>
struct AnchorMotion {
  F x, y;
};

// One pass: the anchors' relative motion over the substep (to first order in the turn:
// d + da x r) driven to zero by P = -K^-1 c, added to the carried impulse. Returns c as it was
// before the correction.
template <class F>
[[gnu::always_inline]] inline AnchorMotion<F> solve_point_lanes(Motion<F>& A, Motion<F>& B,
                                                                PointGroup& g, int lane) {
  const F rax = load<F>(g.rax + lane), ray = load<F>(g.ray + lane);
  const F rbx = load<F>(g.rbx + lane), rby = load<F>(g.rby + lane);
  const F cx = (B.dx - rby * B.da) - (A.dx - ray * A.da);
  const F cy = (B.dy + rbx * B.da) - (A.dy + rax * A.da);
  const F k11 = load<F>(g.k11 + lane), k12 = load<F>(g.k12 + lane), k22 = load<F>(g.k22 + lane);
  const F px = F(0.0f) - (k11 * cx + k12 * cy), py = F(0.0f) - (k12 * cx + k22 * cy);
  store(g.px + lane, load<F>(g.px + lane) + px);
  store(g.py + lane, load<F>(g.py + lane) + py);
  push_point(A, B, g, lane, px, py, rax, ray, rbx, rby);
  return {cx, cy};
}

// A lane's body at the position level: pose and motion over the substep.
template <class F>
struct Pose {
  F px, py, qc, qs, dx, dy, da;
};

// Rotates (c, s) by a small angle and renormalises (rotate_small of point_ref.hpp).
template <class F>
[[gnu::always_inline]] inline void turn(F& c, F& s, F angle) {
  const F nc = c - angle * s, ns = s + angle * c;
  const F inv = F(1.0f) / vsqrt(nc * nc + ns * ns);
  c = nc * inv;
  s = ns * inv;
}

// Moves a body by the position impulse (qx, qy) at arm (rx, ry): pose and motion.
template <class F>
[[gnu::always_inline]] inline void move_pose(Pose<F>& X, F m, F i, F qx, F qy, F rx, F ry) {
  X.px = X.px + m * qx;
  X.py = X.py + m * qy;
  X.dx = X.dx + m * qx;
  X.dy = X.dy + m * qy;
  const F angle = i * (rx * qy - ry * qx);
  turn(X.qc, X.qs, angle);
  X.da = X.da + angle;
}

// The position projection of the point (a revolute joint's solve without angular rows; the
// rigid case of solve_coincidence in joint_rows.cpp, operation for operation): the anchors put
// together by P = -K^-1 C, +P on b and -P on a, pushed along the arms of the substep's start
// (joint_rows.hpp says why). Returns 1 where it acted, 0 where K is singular
// (nothing may be written there).
template <class F>
[[gnu::always_inline]] inline F project_point_lanes(Pose<F>& A, Pose<F>& B, const PointGroup& g,
                                                    int lane) {
  using rotation_detail::negate;
  const F lax = load<F>(g.lax + lane), lay = load<F>(g.lay + lane);
  const F lbx = load<F>(g.lbx + lane), lby = load<F>(g.lby + lane);
  const F ax = A.qc * lax - A.qs * lay, ay = A.qs * lax + A.qc * lay;
  const F bx = B.qc * lbx - B.qs * lby, by = B.qs * lbx + B.qc * lby;
  const F cx = (B.px + bx) - (A.px + ax), cy = (B.py + by) - (A.py + ay);
  // The arms as the substep began (start_arm and start_arm_turn in point_ref.hpp).
  const F zero(0.0f), bound(kStartArmTurn);
  const F ta = select(rotation_detail::magnitude(A.da) < bound, negate(A.da), zero);
  const F tb = select(rotation_detail::magnitude(B.da) < bound, negate(B.da), zero);
  const F rax = ax - ta * ay, ray = ay + ta * ax;
  const F rbx = bx - tb * by, rby = by + tb * bx;
  const F ma = load<F>(g.ma + lane), ia = load<F>(g.ia + lane);
  const F mb = load<F>(g.mb + lane), ib = load<F>(g.ib + lane);
  const F k11 = (zero + (ma + ia * ray * ray)) + (mb + ib * rby * rby);
  const F k12 = (zero - ia * rax * ray) - ib * rbx * rby;
  const F k22 = (zero + (ma + ia * rax * rax)) + (mb + ib * rbx * rbx);
  const F det = k11 * k22 - k12 * k12;
  const F inv = F(1.0f) / det;
  const F px = (F(0.0f) - (k22 * cx - k12 * cy)) * inv,
          py = (F(0.0f) - ((F(0.0f) - k12) * cx + k11 * cy)) * inv;
  move_pose(B, mb, ib, px, py, rbx, rby);
  move_pose(A, ma, ia, -px, -py, rax, ray);
  return select(det > F(1e-20f), F(1.0f), zero);
}

// The angle rows after the point (a revolute joint's spring and limits; AngleGroup). Every
// step below is the scalar arithmetic of joint_rows.hpp for an angle row (n = 0, a's share -1,
// b's 1) operation for operation, zero terms included, so that the lanes give the bits of the
// type's own solve (revolute_joint.cpp) and a lane with nothing to do changes nothing.

// A's or B's pose where `moves`, else as it was.
template <class F, class M>
[[gnu::always_inline]] inline void keep_moved(Pose<F>& X, const Pose<F>& moved, const M& moves) {
  X.px = select(moves, moved.px, X.px), X.py = select(moves, moved.py, X.py);
  X.qc = select(moves, moved.qc, X.qc), X.qs = select(moves, moved.qs, X.qs);
  X.dx = select(moves, moved.dx, X.dx), X.dy = select(moves, moved.dy, X.dy);
  X.da = select(moves, moved.da, X.da);
}

// Angle of b relative to a, from the reference (joint_angle).
template <class F>
[[gnu::always_inline]] inline F relative_angle(const Pose<F>& A, const Pose<F>& B, F ref_c,
                                               F ref_s) {
  const F c = A.qc * B.qc + A.qs * B.qs;
  const F s = A.qc * B.qs - A.qs * B.qc;
  return angle_of(ref_c * c + ref_s * s, ref_c * s - ref_s * c);
}

// The angle row's rate times h from the motion (row_motion).
template <class F>
[[gnu::always_inline]] inline F angle_motion(const Pose<F>& A, const Pose<F>& B) {
  const F zero(0.0f);
  const F motion_b = (zero * B.dx + zero * B.dy) + F(1.0f) * B.da;
  return (motion_b - (zero * A.dx + zero * A.dy)) + F(-1.0f) * A.da;
}

// The angle row's inverse mass (row_inv_mass).
template <class F>
[[gnu::always_inline]] inline F angle_inv_mass(F ma, F mb, F ia, F ib) {
  const F zero(0.0f);
  return ((ma + mb) * (zero * zero + zero * zero) + ia * F(-1.0f) * F(-1.0f)) +
         ib * F(1.0f) * F(1.0f);
}

// Moves a body by (m p, i t) with its motion (move_rigid) where `moves`.
template <class F, class M>
[[gnu::always_inline]] inline void move_by_row(Pose<F>& X, F m, F i, F p, F t, const M& moves) {
  const F dp = m * p, dtheta = i * t;
  Pose<F> moved = X;
  moved.px = X.px + dp, moved.py = X.py + dp;
  turn(moved.qc, moved.qs, dtheta);
  moved.dx = X.dx + dp, moved.dy = X.dy + dp, moved.da = X.da + dtheta;
  keep_moved(X, moved, moves);
}

// One angle row's XPBD step (solve_row) with softness (per_mass, gamma), its multiplier kept in
// [lo, hi], where `on`: returns the impulse applied (0 elsewhere).
template <class F, class M>
[[gnu::always_inline]] inline F solve_angle_row(Pose<F>& A, Pose<F>& B, F ma, F mb, F ia, F ib, F c,
                                                F per_mass, F gamma, F& lambda, F lo, F hi,
                                                const M& on) {
  using rotation_detail::negate;
  const F zero(0.0f);
  const F m = angle_inv_mass(ma, mb, ia, ib);
  const auto active = on & (m > zero);
  const F alpha = per_mass * m + zero;
  const F damp = select(gamma != zero, gamma * angle_motion(A, B), zero);
  const F dl = ((negate(c) - alpha * lambda) - damp) / ((F(1.0f) + gamma) * m + alpha);
  const F sum = lambda + dl;
  const F next = select(sum < lo, lo, select(hi < sum, hi, sum));  // std::clamp
  const F applied = select(active, next - lambda, zero);
  lambda = select(active, next, lambda);
  // sum_rows of the one row: p = 0 + applied x 0, ta = 0 + applied x -1, tb = 0 + applied x 1.
  const F p = zero + applied * zero;
  const F ta = zero + applied * F(-1.0f), tb = zero + applied * F(1.0f);
  move_by_row(A, negate(ma), ia, p, ta, active & ((ma != zero) | (ia != zero)));
  move_by_row(B, mb, ib, p, tb, active & ((mb != zero) | (ib != zero)));
  return applied;
}

// A revolute joint's projection in lanes: the point (project_point_lanes, whose moves are kept
// only where it acted and for movable bodies, as solve_coincidence writes them), then the spring
// and the two limit rows (revolute_joint.cpp), each where the lane has it. first: the substep's
// first iteration, which restarts the multipliers and the reaction.
template <class F>
[[gnu::always_inline]] inline void project_revolute_lanes(Pose<F>& A, Pose<F>& B,
                                                          const PointGroup& g, AngleGroup& r,
                                                          int lane, bool first) {
  using rotation_detail::negate;
  const F zero(0.0f);
  const F ma = load<F>(g.ma + lane), mb = load<F>(g.mb + lane);
  const F ia = load<F>(g.ia + lane), ib = load<F>(g.ib + lane);
  {
    Pose<F> a = A, b = B;
    const auto acted = project_point_lanes(a, b, g, lane) != zero;
    keep_moved(A, a, acted & ((ma != zero) | (ia != zero)));
    keep_moved(B, b, acted & ((mb != zero) | (ib != zero)));
  }
  auto multiplier = [&](const float* row) { return first ? zero : load<F>(row + lane); };
  F lambda_spring = multiplier(r.lambda_spring);
  F lambda_lower = multiplier(r.lambda_lower), lambda_upper = multiplier(r.lambda_upper);
  F torque = multiplier(r.torque);
  const F ref_c = load<F>(r.ref_c + lane), ref_s = load<F>(r.ref_s + lane);
  const F unbounded(std::numeric_limits<float>::infinity());

  const auto spring = load<F>(r.spring + lane) != zero;
  const F spring_applied = solve_angle_row(
      A, B, ma, mb, ia, ib, relative_angle(A, B, ref_c, ref_s), load<F>(r.spring_per_mass + lane),
      load<F>(r.spring_gamma + lane), lambda_spring, negate(unbounded), unbounded, spring);
  torque = select(spring, torque + spring_applied, torque);

  const auto limit = load<F>(r.limit + lane) != zero;
  const F angle = relative_angle(A, B, ref_c, ref_s);
  F limit_applied = solve_angle_row(A, B, ma, mb, ia, ib, angle - load<F>(r.lower + lane), zero,
                                    zero, lambda_lower, zero, unbounded, limit);
  const F moved = limit_applied * angle_inv_mass(ma, mb, ia, ib);
  limit_applied = limit_applied +
                  solve_angle_row(A, B, ma, mb, ia, ib, (angle + moved) - load<F>(r.upper + lane),
                                  zero, zero, lambda_upper, negate(unbounded), zero, limit);
  torque = select(limit, torque + limit_applied, torque);

  store(r.lambda_spring + lane, lambda_spring);
  store(r.lambda_lower + lane, lambda_lower), store(r.lambda_upper + lane, lambda_upper);
  store(r.torque + lane, torque);
}

}  // namespace wide

}  // namespace strut
