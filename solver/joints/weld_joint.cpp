// Weld joint: b keeps its pose relative to a. Rigid, the point and the angle are solved as one
// 3x3 block (solved one after the other they undo each other: a cantilever sagged 12 cm on a
// 1 m beam); soft, the angle and the point are springs of their own frequencies.
#include "solver/joint_solver.hpp"
#include "solver/joints/joint_ops.hpp"
#include "solver/joints/joint_rows.hpp"

namespace strut {
namespace {

const WeldJointDef& def_of(const Joint& j) { return std::get<WeldJointDef>(j.def); }

void validate(const World::Impl& w, const JointDef& any, std::uint32_t a, std::uint32_t b) {
  const auto& d = std::get<WeldJointDef>(any);
  check_finite_field(d.anchor, "anchor");
  if (d.reference_angle) check_finite_field(*d.reference_angle, "reference_angle");
  check_hertz(d.linear_hertz, "linear_hertz");
  check_hertz(d.angular_hertz, "angular_hertz");
  check_damping_ratio(d.damping_ratio, "damping_ratio");
  require_rigid(w, a, b, "a weld joint");
}

void init(const World::Impl& w, Joint& j, std::uint32_t a, std::uint32_t b) {
  init_shared_anchor(w, j, a, b, def_of(j).anchor, def_of(j).reference_angle);
}

void solve(World::Impl& w, Joint& j, std::uint32_t a, std::uint32_t b, float h) {
  const auto& d = def_of(j);
  const JointBodies q = joint_bodies(w, a, b);
  auto point = [&](Row rows[2], float c[2]) {
    const Vec2 ra = world_arm(w, a, j.anchor_a.local), rb = world_arm(w, b, j.anchor_b.local);
    const Vec2 gap = body_center(w, b) + rb - body_center(w, a) - ra;
    rows[0] = point_row({1, 0}, ra, rb), rows[1] = point_row({0, 1}, ra, rb);
    c[0] = gap.x, c[1] = gap.y;
  };
  if (d.linear_hertz == 0 && d.angular_hertz == 0) {
    Row rows[3];
    float c[3];
    point(rows, c);
    rows[2] = angle_row();
    c[2] = joint_angle(w, q, j.reference);
    float lambda[3] = {j.lambda_point.x, j.lambda_point.y, j.lambda[0]}, applied[3];
    solve_block(w, q, rows, 3, c, {}, lambda, applied);
    j.lambda_point = {lambda[0], lambda[1]};
    j.lambda[0] = lambda[2];
    j.reaction_force += Vec2{applied[0], applied[1]};
    j.reaction_torque += applied[2];
    return;
  }
  // Soft: the point first, then the angle, so that the angular spring's damper sees the
  // substep's final turn; the other way round it saw the turn the point was about to undo and
  // a 5 Hz weld bent 28% further than its stiffness says (4 substeps).
  Row rows[2];
  float c[2];
  point(rows, c);
  const Softness1 linear =
      d.linear_hertz > 0 ? spring_softness(d.linear_hertz, d.damping_ratio, h) : Softness1{};
  float lambda[2] = {j.lambda_point.x, j.lambda_point.y}, applied[2];
  solve_block(w, q, rows, 2, c, linear, lambda, applied);
  j.lambda_point = {lambda[0], lambda[1]};
  j.reaction_force += Vec2{applied[0], applied[1]};
  const Softness1 angular =
      d.angular_hertz > 0 ? spring_softness(d.angular_hertz, d.damping_ratio, h) : Softness1{};
  j.reaction_torque +=
      solve_row(w, q, angle_row(), joint_angle(w, q, j.reference), angular, j.lambda[0]);
}

void read(const World::Impl& w, const Joint& j, std::uint32_t a, std::uint32_t b, float h,
          JointReading& out) {
  out.angle = joint_angle(w, joint_bodies(w, a, b), j.reference);
  out.speed = (w.bodies.da[b] - w.bodies.da[a]) / h;
}

}  // namespace

const JointOps kWeldJointOps{validate, init, solve, read, false};

}  // namespace strut
