// Motor joint: drives b's pose relative to a toward a target (the creation-time relative pose
// shifted by the offsets) with bounded force and torque. Its rows ask for a speed toward the
// target, not for the target itself: a rigid position row with a bounded force pushed at full
// force right up to the target and swung through it, back and forth (measured: between 0.1 and
// 4 m around a 2.2 m offset, undamped). The speed asked for closes a share of the gap each
// substep (Box2D's correction factor, 0.3) but never more than the bounded force can still
// brake before the target, sqrt(2 a gap), so the body arrives and stays.
#include "solver/joints/joint_ops.hpp"
#include "solver/joints/joint_rows.hpp"
#include "solver/joints/joint_solver.hpp"

namespace strut {
namespace {

const MotorJointDef& def_of(const Joint& j) { return std::get<MotorJointDef>(j.def); }

void validate(const WorldState& w, const JointDef& any, std::uint32_t a, std::uint32_t b) {
  const auto& d = std::get<MotorJointDef>(any);
  check_finite_field(d.linear_offset, "linear_offset");
  check_finite_field(d.angular_offset, "angular_offset");
  check_finite_field(d.max_force, "max_force");
  check_finite_field(d.max_torque, "max_torque");
  if (!(d.max_force > 0)) throw Error("max_force must be positive");
  if (!(d.max_torque > 0)) throw Error("max_torque must be positive");
  require_rigid(w, a, b, "a motor joint");
}

void init(const WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b) {
  const auto& d = def_of(j);
  const Rot qa{w.bodies.qc[a], w.bodies.qs[a]};
  // b's centre of mass in a's frame, shifted; the relative rotation, turned by the offset.
  j.target = inv_rotate(qa, body_center(w, b) - body_center(w, a)) + d.linear_offset;
  const Rot now = relative_rot(w, a, b), turn = make_rot(d.angular_offset);
  j.reference = {now.c * turn.c - now.s * turn.s, now.s * turn.c + now.c * turn.s};
}

constexpr float kCorrection = 0.3f;

// The motion (speed x h) that closes a gap of `gap` at most at the speed from which the
// acceleration `accel` still stops at the target, with the sign that closes it.
float closing_motion(float gap, float accel, float h) {
  const float size = std::fabs(gap);
  const float motion = std::min(kCorrection * size, std::sqrt(2 * accel * size) * h);
  return gap > 0 ? -motion : motion;
}

void solve(WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b, float h) {
  const auto& d = def_of(j);
  const JointBodies q = joint_bodies(w, a, b);
  const float torque_bound = d.max_torque * h * h;
  // Each row's value to drive to zero is (motion this substep) - (motion asked for), where the
  // gap is the one the substep started with (now minus this substep's motion).
  const Row turn = angle_row();
  const float turned = row_motion(w, q, turn);
  const float turn_gap = joint_angle(w, q, j.reference) - turned;
  const float turn_accel = d.max_torque * row_inv_mass(q, turn);
  j.reaction_torque += solve_row(w, q, turn, turned - closing_motion(turn_gap, turn_accel, h), {},
                                 j.lambda[0], -torque_bound, torque_bound);
  const Vec2 ra = world_arm(w, a, j.target);
  const Row rows[2] = {point_row({1, 0}, ra, {}), point_row({0, 1}, ra, {})};
  const Vec2 moved{row_motion(w, q, rows[0]), row_motion(w, q, rows[1])};
  const Vec2 gap = body_center(w, b) - body_center(w, a) - ra - moved;
  // Along the gap: the largest acceleration the force gives b relative to a in that direction.
  const float size = length(gap);
  const Vec2 dir = size > 0 ? (1.0f / size) * gap : Vec2{1, 0};
  const float accel = d.max_force * row_inv_mass(q, point_row(dir, ra, {}));
  const Vec2 asked = closing_motion(size, accel, h) * dir;
  const float cs[2] = {moved.x - asked.x, moved.y - asked.y};
  float lambda[2] = {j.lambda_point.x, j.lambda_point.y}, applied[2];
  solve_block(w, q, rows, 2, cs, {}, lambda, applied, d.max_force * h * h);
  j.lambda_point = {lambda[0], lambda[1]};
  j.reaction_force += Vec2{applied[0], applied[1]};
}

void read(const WorldState& w, const Joint& j, std::uint32_t a, std::uint32_t b, float h,
          JointReading& out) {
  const JointBodies q = joint_bodies(w, a, b);
  out.angle = joint_angle(w, q, j.reference);
  const Vec2 c = body_center(w, b) - body_center(w, a) - world_arm(w, a, j.target);
  out.translation = length(c);  // distance from the target position
  out.speed = (w.bodies.da[b] - w.bodies.da[a]) / h;
}

}  // namespace

const JointOps kMotorJointOps{validate, init, solve, read, false};

}  // namespace strut
