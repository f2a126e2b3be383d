// The arithmetic every joint type is written with: a joint row is one scalar constraint
// C(pose_a, pose_b) between two rigid bodies, given by its gradient (a direction n moved along
// by b and against by a, plus each body's angular share). Rows are solved XPBD style after the
// position integration of a substep: a position impulse dl moves both poses and, with them, the
// motion of the substep (velocity is implicit). Each row keeps its multiplier (the sum of its
// impulses over the substep) so that a soft row means the same stiffness at any iteration count,
// and inequality rows (limits) and bounded rows (motors) clamp that sum, not each step of it.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "solver/core/rotation.hpp"
#include "solver/core/world_state_fwd.hpp"
#include "solver/joints/joint.hpp"
#include "solver/joints/joint_row.hpp"
#include "solver/joints/point_ref.hpp"

namespace strut {

inline JointBodies joint_bodies(const WorldState& w, std::uint32_t a, std::uint32_t b) {
  const auto& bd = w.bodies;
  return {a, b, bd.inv_mass[a], bd.inv_mass[b], bd.inv_inertia[a], bd.inv_inertia[b]};
}

// The row of a point constraint along world direction n between anchor arms ra (of a) and rb.
inline Row point_row(Vec2 n, Vec2 ra, Vec2 rb) { return {n, -cross(ra, n), cross(rb, n)}; }
// The row of a constraint on b's angle relative to a's.
inline Row angle_row() { return {{0, 0}, -1.0f, 1.0f}; }

inline float row_inv_mass(const JointBodies& q, const Row& r) {
  return (q.ma + q.mb) * dot(r.n, r.n) + q.ia * r.ang_a * r.ang_a + q.ib * r.ang_b * r.ang_b;
}

// How far the row's value moved over this substep (its rate times h), from the stored motion.
inline float row_motion(const WorldState& w, const JointBodies& q, const Row& r) {
  const auto& b = w.bodies;
  const float motion_b = dot(r.n, Vec2{b.dx[q.b], b.dy[q.b]}) + r.ang_b * b.da[q.b];
  if (!q.has_a) return motion_b;
  return motion_b - dot(r.n, Vec2{b.dx[q.a], b.dy[q.a]}) + r.ang_a * b.da[q.a];
}

// What a position impulse moves: the pose and with it the motion over this substep (the
// velocity), or, for rows held at the velocity level too (row_motion.hpp), the pose alone.
enum class Moves : bool { PoseAndMotion, PoseOnly };

// Moves a rigid body by (dp, dtheta), and its motion over this substep with it unless PoseOnly.
inline void move_rigid(WorldState& w, std::uint32_t k, Vec2 dp, float dtheta,
                       Moves moves = Moves::PoseAndMotion) {
  auto& b = w.bodies;
  b.px[k] += dp.x, b.py[k] += dp.y;
  rotate_small(b.qc[k], b.qs[k], dtheta);
  if (moves == Moves::PoseOnly) return;
  b.dx[k] += dp.x, b.dy[k] += dp.y;
  b.da[k] += dtheta;
}

// Applies position impulses dl[i] along rows[i] (i < count) to both bodies at once.
inline void apply_rows(WorldState& w, const JointBodies& q, const Row* rows, const float* dl,
                       int count, Moves moves = Moves::PoseAndMotion) {
  const auto [p, ta, tb] = sum_rows(rows, dl, count);
  if (q.ma != 0 || q.ia != 0) move_rigid(w, q.a, -q.ma * p, q.ia * ta, moves);
  if (q.mb != 0 || q.ib != 0) move_rigid(w, q.b, q.mb * p, q.ib * tb, moves);
}

// Softness of a row. The compliance (over h^2) is per_mass x the row's inverse mass plus
// `absolute`; gamma is XPBD's damping factor. A spring of frequency f and damping ratio z acts
// on the row's effective mass m: stiffness m (2 pi f)^2, damping 2 z m (2 pi f).
struct Softness1 {
  float per_mass = 0, absolute = 0, gamma = 0;
};

inline Softness1 spring_softness(float hertz, float damping_ratio, float h) {
  const float omega_h = 2.0f * float(M_PI) * hertz * h;
  return {1.0f / (omega_h * omega_h), 0.0f, 2.0f * damping_ratio / omega_h};
}
inline Softness1 compliance_softness(float compliance, float h) {
  return {0.0f, compliance / (h * h), 0.0f};
}

inline constexpr float kUnbounded = std::numeric_limits<float>::infinity();

// One row's XPBD step toward C = 0: returns the impulse applied, keeping the multiplier in
// [lo, hi] (a limit pushes one way only; a motor is bounded by its effort x h^2).
inline float solve_row(WorldState& w, const JointBodies& q, const Row& r, float c,
                       const Softness1& s, float& lambda, float lo = -kUnbounded,
                       float hi = kUnbounded, Moves moves = Moves::PoseAndMotion) {
  const float m = row_inv_mass(q, r);
  if (!(m > 0)) return 0;
  const float alpha = s.per_mass * m + s.absolute;
  const float damp = s.gamma != 0 ? s.gamma * row_motion(w, q, r) : 0.0f;
  const float dl = (-c - alpha * lambda - damp) / ((1 + s.gamma) * m + alpha);
  const float next = std::clamp(lambda + dl, lo, hi);
  const float applied = next - lambda;
  lambda = next;
  apply_rows(w, q, &r, &applied, 1, moves);
  return applied;
}

// A motor row: drives the row's rate toward `speed` with at most max_effort.
inline float solve_motor_row(WorldState& w, const JointBodies& q, const Row& r, float speed,
                             float max_effort, float h, float& lambda) {
  const float bound = max_effort * h * h;
  return solve_row(w, q, r, row_motion(w, q, r) - speed * h, {}, lambda, -bound, bound);
}

// Solves K x = rhs for a symmetric positive (semi)definite K of size n <= 3 in double; false
// when K is singular (both bodies fixed along these rows).
bool solve_small(int n, const double k[3][3], const double rhs[3], double x[3]);

// Rows solved together (2 or 3; solved one after the other they undo each other: a welded
// cantilever sagged 12 cm on a 1 m beam). Rigid when per_mass and gamma are 0; otherwise a
// spring on all rows alike whose compliance is proportional to the rows' mass matrix K, which
// keeps the block's solve a single K^-1: dl = (-K^-1 (C + gamma J d) - per_mass lambda) /
// (1 + gamma + per_mass). The multipliers' sum may be bounded in length by max_norm. The
// impulses applied go to applied[0 .. n).
void solve_block(WorldState& w, const JointBodies& q, const Row* rows, int n, const float* c,
                 const Softness1& s, float* lambda, float* applied, float max_norm = kUnbounded,
                 Moves moves = Moves::PoseAndMotion);

// Point-to-point constraint between two material points (rigid or soft): solves the 2x2
// system K P = -C, applies +P to b and -P to a, and returns P. A rigid body is pushed along its
// arm as the substep began (start_arm), as SHAKE pushes along the constraint's gradient at the
// step's start, and K is built from those arms. Pushed along the arm now, a swinging body was
// pulled in along the radius it had reached, which shortened its arc: the projection then took
// (omega h)^2 / 8 of the speed every substep, a loss first order in h that the relax passes made
// no better; along the start arm a pendulum and a hammer keep their energy better than in
// Box2D v3 (figures in docs/architecture.md).
Vec2 solve_coincidence(WorldState& w, const PointRef& a, const PointRef& b);

// Angle of b relative to a, measured from the joint's reference rotation, in (-pi, pi].
inline float joint_angle(const WorldState& w, const JointBodies& q, Rot reference) {
  const auto& bd = w.bodies;
  const float c = bd.qc[q.a] * bd.qc[q.b] + bd.qs[q.a] * bd.qs[q.b];
  const float s = bd.qc[q.a] * bd.qs[q.b] - bd.qs[q.a] * bd.qc[q.b];
  // conj(reference) * (c, s)
  return angle_of(reference.c * c + reference.s * s, reference.c * s - reference.s * c);
}

// The relative rotation of b to a now.
inline Rot relative_rot(const WorldState& w, std::uint32_t a, std::uint32_t b) {
  const auto& bd = w.bodies;
  return {bd.qc[a] * bd.qc[b] + bd.qs[a] * bd.qs[b], bd.qc[a] * bd.qs[b] - bd.qs[a] * bd.qc[b]};
}

// World-space arm of an anchor on a rigid body.
inline Vec2 world_arm(const WorldState& w, std::uint32_t k, Vec2 local) {
  return rotate(Rot{w.bodies.qc[k], w.bodies.qs[k]}, local);
}
inline Vec2 body_center(const WorldState& w, std::uint32_t k) {
  return {w.bodies.px[k], w.bodies.py[k]};
}

// Where a joint that slides along an axis fixed in a (prismatic, wheel) stands now: the
// anchors' arms, the separation d of b's anchor point from a's, the axis and its normal.
struct AxisFrame {
  Vec2 ra, rb, d, axis, normal;
  float translation = 0;  // d along the axis
};

inline AxisFrame axis_frame(const WorldState& w, const Joint& j, const JointBodies& q) {
  AxisFrame f;
  f.ra = world_arm(w, q.a, j.anchor_a.local);
  f.rb = world_arm(w, q.b, j.anchor_b.local);
  f.d = body_center(w, q.b) + f.rb - body_center(w, q.a) - f.ra;
  f.axis = world_arm(w, q.a, j.axis);
  f.normal = perp(f.axis);
  f.translation = dot(f.axis, f.d);
  return f;
}

// The row of d along a direction that turns with a: a's angular share uses the arm d + ra,
// because turning a swings the direction as well as a's anchor.
inline Row sliding_row(const AxisFrame& f, Vec2 dir) {
  return {dir, -cross(f.d + f.ra, dir), cross(f.rb, dir)};
}

// The same row through b's centre of mass, for a joint that holds the angle (prismatic): the
// translation along dir is then the same at every point of b, and pushing b at its centre does
// not turn it. Through the anchor, an arm as long as the distance between the bodies gave the
// row's push mostly to turning, which the angle row then took back: a motor at 2 m/s reached
// 1.56 m in 1 s instead of 2, a limit was overshot by 8 cm (tools/robustness).
inline Row centre_row(const AxisFrame& f, Vec2 dir) {
  return {dir, -cross(f.d + f.ra - f.rb, dir), 0.0f};
}

// The limit rows of a measured value x (an angle or a translation): lower keeps x >= lower,
// upper x <= upper, each with its own multiplier. Returns the impulse applied along `r`.
inline float solve_limit_rows(WorldState& w, const JointBodies& q, const Row& r, float x,
                              const JointLimit& limit, float& lambda_lower, float& lambda_upper) {
  float applied = solve_row(w, q, r, x - limit.lower, {}, lambda_lower, 0.0f, kUnbounded);
  // The lower row moved x by applied x (row's inverse mass).
  const float moved = applied * row_inv_mass(q, r);
  applied += solve_row(w, q, r, x + moved - limit.upper, {}, lambda_upper, -kUnbounded, 0.0f);
  return applied;
}

// An axis joint's (prismatic, wheel) spring toward translation 0 and its translation limits:
// the rows along the axis, their reaction added to j.reaction_force. The spring's multiplier is
// j.lambda[0], the limits' j.lambda[2] and j.lambda[3].
// through_centre: the rows go through b's centre (centre_row), for a joint holding the angle.
inline Row axis_row(const AxisFrame& f, bool through_centre) {
  return through_centre ? centre_row(f, f.axis) : sliding_row(f, f.axis);
}
inline void solve_axis_spring(WorldState& w, Joint& j, const JointBodies& q,
                              const JointSpring& spring, float h, bool through_centre) {
  if (!spring.enabled || !(spring.hertz > 0)) return;
  const AxisFrame f = axis_frame(w, j, q);
  j.reaction_force +=
      solve_row(w, q, axis_row(f, through_centre), f.translation,
                spring_softness(spring.hertz, spring.damping_ratio, h), j.lambda[0]) *
      f.axis;
}
inline void solve_axis_limit(WorldState& w, Joint& j, const JointBodies& q, const JointLimit& limit,
                             bool through_centre) {
  if (!limit.enabled) return;
  const AxisFrame f = axis_frame(w, j, q);
  j.reaction_force += solve_limit_rows(w, q, axis_row(f, through_centre), f.translation, limit,
                                       j.lambda[2], j.lambda[3]) *
                      f.axis;
}

}  // namespace strut
