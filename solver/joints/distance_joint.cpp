// Distance joint: the distance between two material points (rigid or soft bodies) is held at
// `length` (rigid, or XPBD compliant), kept inside [min_length, max_length] (a rope: slack
// inside), or pulled toward `length` by a spring that the range still bounds.
// A spring with no range between two rigid bodies is one row at the velocity level
// (row_motion.hpp), its impulse carried from substep to substep as the other joints' loads are.
// Projected alone, its multiplier restarted from zero every substep: in a chain of springs of
// 1,000 and 1,000,000 N/m (tools/robustness, springs_ratio) Gauss-Seidel never brought the
// load through, and the springs rested 34% (soft) to 36 times (stiff) longer than load / k.
#include <cstdio>

#include "solver/joints/joint_ops.hpp"
#include "solver/joints/joint_rows.hpp"
#include "solver/joints/joint_solver.hpp"
#include "solver/shapes/shape_checks.hpp"
#include "strut/limits.hpp"

namespace strut {
namespace {

const DistanceJointDef& def_of(const Joint& j) { return std::get<DistanceJointDef>(j.def); }

void validate(const WorldState&, const JointDef& any, std::uint32_t, std::uint32_t) {
  const auto& d = std::get<DistanceJointDef>(any);
  check_finite_field(d.anchor_a, "anchor_a");
  check_finite_field(d.anchor_b, "anchor_b");
  check_finite_field(d.length, "length");
  check_finite_field(d.min_length, "min_length");
  check_finite_field(d.max_length, "max_length");
  check_coordinate(d.length, "length");
  check_coordinate(d.min_length, "min_length");
  check_coordinate(d.max_length, "max_length");
  check_non_negative(d.compliance, "compliance");
  if (d.compliance > limits::kMaxCompliance) {
    throw Error("compliance " + shapes::number_text(d.compliance) + " m/N exceeds the limit of " +
                shapes::number_text(limits::kMaxCompliance) + " m/N (strut/limits.hpp)");
  }
  check_spring(d.spring);
  if (d.min_length >= 0 && d.max_length >= 0 && d.min_length > d.max_length)
    throw Error("min_length is larger than max_length");
}

void init(const WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b) {
  const auto& d = def_of(j);
  j.anchor_a = make_anchor(w, a, d.anchor_a);
  j.anchor_b = make_anchor(w, b, d.anchor_b);
  j.length = d.length >= 0 ? d.length : length(d.anchor_b - d.anchor_a);
}

// The joint's one direction, between the anchor points as they are now.
struct Span {
  Vec2 n;
  float length = 0;
};

Span measure(const WorldState& w, const PointRef& pa, const PointRef& pb) {
  const Vec2 d = point_now(w, pb) - point_now(w, pa);
  const float len = length(d);
  return {len > 1e-9f ? (1.0f / len) * d : Vec2{}, len};
}

// One XPBD row along the span toward length - target = 0; the multiplier is kept in [lo, hi].
void push(WorldState& w, Joint& j, const PointRef& pa, const PointRef& pb, float target,
          const Softness1& s, float& lambda, float lo, float hi) {
  const Span sp = measure(w, pa, pb);
  if (sp.length <= 1e-9f) return;
  const float m = inv_mass_along(w, pa, sp.n) + inv_mass_along(w, pb, sp.n);
  if (!(m > 0)) return;
  const float alpha = s.per_mass * m + s.absolute;
  const float damp =
      s.gamma != 0 ? s.gamma * dot(sp.n, point_motion_linear(w, pb) - point_motion_linear(w, pa))
                   : 0.0f;
  const float dl = (-(sp.length - target) - alpha * lambda - damp) / ((1 + s.gamma) * m + alpha);
  const float next = std::clamp(lambda + dl, lo, hi);
  const float applied = next - lambda;
  lambda = next;
  apply_position_impulse(w, pb, applied * sp.n);
  apply_position_impulse(w, pa, -applied * sp.n);
  j.reaction_force += applied * sp.n;
}

bool spring_only(const DistanceJointDef& d) {
  return d.spring.enabled && d.spring.hertz > 0 && d.min_length < 0 && d.max_length < 0;
}

// A spring with no range, between rigid bodies: its row along the span (see the top).
int rigid_rows(const WorldState& w, const Joint& j, const JointBodies& q, Row* out,
               RowSpring& spring) {
  const auto& d = def_of(j);
  if (!spring_only(d)) return 0;
  const Vec2 pa = point_now(w, anchor_ref(w, q.a, j.anchor_a));
  const Vec2 pb = point_now(w, anchor_ref(w, q.b, j.anchor_b));
  const Vec2 span = pb - pa;
  const float len = length(span);
  const Vec2 n = len > 1e-9f ? (1.0f / len) * span : Vec2{};
  out[0] = point_row(n, pa - body_center(w, q.a), pb - body_center(w, q.b));
  spring = {d.spring.hertz, d.spring.damping_ratio, len - j.length};
  return 1;
}

void solve(WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b, float h) {
  const auto& d = def_of(j);
  if (spring_only(d) && w.bodies.is_rigid(a) && w.bodies.is_rigid(b))
    return;  // held by its velocity row
  const PointRef pa = anchor_ref(w, a, j.anchor_a);
  const PointRef pb = anchor_ref(w, b, j.anchor_b);
  const bool spring = d.spring.enabled && d.spring.hertz > 0;
  const bool has_min = d.min_length >= 0, has_max = d.max_length >= 0;
  if (spring)
    push(w, j, pa, pb, j.length, spring_softness(d.spring.hertz, d.spring.damping_ratio, h),
         j.lambda[0], -kUnbounded, kUnbounded);
  else if (!has_min && !has_max)
    push(w, j, pa, pb, j.length, compliance_softness(d.compliance, h), j.lambda[0], -kUnbounded,
         kUnbounded);
  // The range (a rope without a spring): each end pushes one way only.
  if (has_min) push(w, j, pa, pb, d.min_length, {}, j.lambda[1], 0.0f, kUnbounded);
  if (has_max) push(w, j, pa, pb, d.max_length, {}, j.lambda[2], -kUnbounded, 0.0f);
}

void read(const WorldState& w, const Joint& j, std::uint32_t a, std::uint32_t b, float h,
          JointReading& out) {
  const PointRef pa = anchor_ref(w, a, j.anchor_a);
  const PointRef pb = anchor_ref(w, b, j.anchor_b);
  const Span sp = measure(w, pa, pb);
  out.translation = sp.length;
  out.speed = dot(sp.n, point_motion(w, pb) - point_motion(w, pa)) / h;
}

}  // namespace

const JointOps kDistanceJointOps{validate, init, solve, read, false, nullptr, rigid_rows};

}  // namespace strut
