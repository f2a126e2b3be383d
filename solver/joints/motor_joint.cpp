// Motor joint: drives b's pose relative to a toward a target (the creation-time relative pose
// shifted by the offsets) with bounded force and torque, as rigid rows whose multipliers are
// clamped: it closes the gap as fast as its force allows and then holds the pose.
#include "solver/joint_solver.hpp"
#include "solver/joints/joint_ops.hpp"
#include "solver/joints/joint_rows.hpp"

namespace strut {
namespace {

const MotorJointDef& def_of(const Joint& j) { return std::get<MotorJointDef>(j.def); }

void validate(const World::Impl& w, const JointDef& any, std::uint32_t a, std::uint32_t b) {
  const auto& d = std::get<MotorJointDef>(any);
  check_finite_field(d.linear_offset, "linear_offset");
  check_finite_field(d.angular_offset, "angular_offset");
  check_finite_field(d.max_force, "max_force");
  check_finite_field(d.max_torque, "max_torque");
  if (!(d.max_force > 0)) throw Error("max_force must be positive");
  if (!(d.max_torque > 0)) throw Error("max_torque must be positive");
  require_rigid(w, a, b, "a motor joint");
}

void init(const World::Impl& w, Joint& j, std::uint32_t a, std::uint32_t b) {
  const auto& d = def_of(j);
  const Rot qa{w.bodies.qc[a], w.bodies.qs[a]};
  // b's centre of mass in a's frame, shifted; the relative rotation, turned by the offset.
  j.target = inv_rotate(qa, body_center(w, b) - body_center(w, a)) + d.linear_offset;
  const Rot now = relative_rot(w, a, b), turn = make_rot(d.angular_offset);
  j.reference = {now.c * turn.c - now.s * turn.s, now.s * turn.c + now.c * turn.s};
}

void solve(World::Impl& w, Joint& j, std::uint32_t a, std::uint32_t b, float h) {
  const auto& d = def_of(j);
  const JointBodies q = joint_bodies(w, a, b);
  const float torque_bound = d.max_torque * h * h;
  j.reaction_torque += solve_row(w, q, angle_row(), joint_angle(w, q, j.reference), {}, j.lambda[0],
                                 -torque_bound, torque_bound);
  const Vec2 ra = world_arm(w, a, j.target);
  const Vec2 c = body_center(w, b) - body_center(w, a) - ra;
  const Row rows[2] = {point_row({1, 0}, ra, {}), point_row({0, 1}, ra, {})};
  const float cs[2] = {c.x, c.y};
  float lambda[2] = {j.lambda_point.x, j.lambda_point.y}, applied[2];
  solve_block(w, q, rows, 2, cs, {}, lambda, applied, d.max_force * h * h);
  j.lambda_point = {lambda[0], lambda[1]};
  j.reaction_force += Vec2{applied[0], applied[1]};
}

void read(const World::Impl& w, const Joint& j, std::uint32_t a, std::uint32_t b, float h,
          JointReading& out) {
  const JointBodies q = joint_bodies(w, a, b);
  out.angle = joint_angle(w, q, j.reference);
  const Vec2 c = body_center(w, b) - body_center(w, a) - world_arm(w, a, j.target);
  out.translation = length(c);  // distance from the target position
  out.speed = (w.bodies.da[b] - w.bodies.da[a]) / h;
}

}  // namespace

const JointOps kMotorJointOps{validate, init, solve, read};

}  // namespace strut
