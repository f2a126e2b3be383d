// Mouse joint: pulls a point of one body toward a world target like a damped spring whose
// force never exceeds max_force. It has no body a.
#include "solver/joints/joint_ops.hpp"
#include "solver/joints/joint_rows.hpp"
#include "solver/joints/joint_solver.hpp"

namespace strut {
namespace {

const MouseJointDef& def_of(const Joint& j) { return std::get<MouseJointDef>(j.def); }

void validate(const WorldState& w, const JointDef& any, std::uint32_t, std::uint32_t b) {
  const auto& d = std::get<MouseJointDef>(any);
  check_finite_field(d.target, "target");
  if (d.anchor) check_finite_field(*d.anchor, "anchor");
  check_finite_field(d.max_force, "max_force");
  if (!(d.max_force > 0)) throw Error("max_force must be positive");
  check_hertz(d.hertz, "hertz");
  check_damping_ratio(d.damping_ratio, "damping_ratio");
  require_rigid(w, b, b, "a mouse joint");
}

void init(const WorldState& w, Joint& j, std::uint32_t, std::uint32_t b) {
  const auto& d = def_of(j);
  j.anchor_b = make_anchor(w, b, d.anchor ? *d.anchor : body_center(w, b));
  j.target = d.target;
}

JointBodies bodies_of(const WorldState& w, std::uint32_t b) {
  JointBodies q = joint_bodies(w, b, b);
  q.ma = q.ia = 0;
  q.has_a = false;
  return q;
}

void solve(WorldState& w, Joint& j, std::uint32_t, std::uint32_t b, float h) {
  const auto& d = def_of(j);
  const JointBodies q = bodies_of(w, b);
  const Vec2 rb = world_arm(w, b, j.anchor_b.local);
  const Vec2 c = body_center(w, b) + rb - j.target;
  const Row rows[2] = {point_row({1, 0}, {}, rb), point_row({0, 1}, {}, rb)};
  const float cs[2] = {c.x, c.y};
  float lambda[2] = {j.lambda_point.x, j.lambda_point.y}, applied[2];
  const Softness1 s = d.hertz > 0 ? spring_softness(d.hertz, d.damping_ratio, h) : Softness1{};
  solve_block(w, q, rows, 2, cs, s, lambda, applied, d.max_force * h * h);
  j.lambda_point = {lambda[0], lambda[1]};
  j.reaction_force += Vec2{applied[0], applied[1]};
}

void read(const WorldState& w, const Joint& j, std::uint32_t, std::uint32_t b, float h,
          JointReading& out) {
  const Vec2 c = body_center(w, b) + world_arm(w, b, j.anchor_b.local) - j.target;
  out.translation = length(c);  // how far the anchor is from the target
  out.speed = length(Vec2{w.bodies.dx[b], w.bodies.dy[b]}) / h;
}

}  // namespace

const JointOps kMouseJointOps{validate, init, solve, read, false};

}  // namespace strut
