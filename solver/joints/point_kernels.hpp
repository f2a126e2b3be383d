// The kernels of the joint points' SIMD lanes (point_lanes.hpp), templates over the number type:
// float for the scalar twin, an xsimd batch for a register of lanes at each SIMD level
// (point_group_kernels.hpp). Included by point_lanes.cpp, the per-level kernel files and the
// tests only, so that changing them rebuilds little. Negation is written 0 - x, never -x: xsimd's
// AVX-512 negation turns +0 into +0 where the scalar twin's gives -0 (padding lanes came out with
// k12 = +0 against -0), and every width must give the twin's bits.
#pragma once

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

// One pass: the anchors' relative motion over the substep (to first order in the turn:
// d + da x r) driven to zero by P = -K^-1 c, added to the carried impulse.
template <class F>
[[gnu::always_inline]] inline void solve_point_lanes(Motion<F>& A, Motion<F>& B, PointGroup& g,
                                                     int lane) {
  const F rax = load<F>(g.rax + lane), ray = load<F>(g.ray + lane);
  const F rbx = load<F>(g.rbx + lane), rby = load<F>(g.rby + lane);
  const F cx = (B.dx - rby * B.da) - (A.dx - ray * A.da);
  const F cy = (B.dy + rbx * B.da) - (A.dy + rax * A.da);
  const F k11 = load<F>(g.k11 + lane), k12 = load<F>(g.k12 + lane), k22 = load<F>(g.k22 + lane);
  const F px = F(0.0f) - (k11 * cx + k12 * cy), py = F(0.0f) - (k12 * cx + k22 * cy);
  store(g.px + lane, load<F>(g.px + lane) + px);
  store(g.py + lane, load<F>(g.py + lane) + py);
  push_point(A, B, g, lane, px, py, rax, ray, rbx, rby);
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
// together by P = -K^-1 C, +P on b and -P on a. Returns 1 where it acted, 0 where K is singular
// (nothing may be written there).
template <class F>
[[gnu::always_inline]] inline F project_point_lanes(Pose<F>& A, Pose<F>& B, const PointGroup& g,
                                                    int lane) {
  const F lax = load<F>(g.lax + lane), lay = load<F>(g.lay + lane);
  const F lbx = load<F>(g.lbx + lane), lby = load<F>(g.lby + lane);
  const F rax = A.qc * lax - A.qs * lay, ray = A.qs * lax + A.qc * lay;
  const F rbx = B.qc * lbx - B.qs * lby, rby = B.qs * lbx + B.qc * lby;
  const F cx = (B.px + rbx) - (A.px + rax), cy = (B.py + rby) - (A.py + ray);
  const F ma = load<F>(g.ma + lane), ia = load<F>(g.ia + lane);
  const F mb = load<F>(g.mb + lane), ib = load<F>(g.ib + lane);
  const F zero(0.0f);
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

}  // namespace wide

}  // namespace strut
