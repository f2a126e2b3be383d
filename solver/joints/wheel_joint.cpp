// Wheel joint: b's centre moves along a suspension axis fixed in a, on a spring, within optional
// limits, and b turns freely or driven by a motor. Off the axis it is rigid: that row also gets
// velocity passes warm started across substeps (row_motion.hpp).
#include "solver/joints/joint_ops.hpp"
#include "solver/joints/joint_rows.hpp"
#include "solver/joints/joint_solver.hpp"

namespace strut {
namespace {

const WheelJointDef& def_of(const Joint& j) { return std::get<WheelJointDef>(j.def); }

void validate(const WorldState& w, const JointDef& any, std::uint32_t a, std::uint32_t b) {
  validate_axis_joint(w, std::get<WheelJointDef>(any), a, b, "a wheel joint");
}

void init(const WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b) {
  init_axis_joint(w, j, a, b, def_of(j).anchor, def_of(j).axis);
}

// Off the axis.
int rigid_rows(const WorldState& w, const Joint& j, const JointBodies& q, Row* out, RowSpring&) {
  const AxisFrame f = axis_frame(w, j, q);
  out[0] = sliding_row(f, f.normal);
  return 1;
}

void solve(WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b, float h) {
  const auto& d = def_of(j);
  const JointBodies q = joint_bodies(w, a, b);
  if (d.motor.enabled) {
    const float dl =
        solve_motor_row(w, q, angle_row(), d.motor.speed, d.motor.max_effort, h, j.lambda[1]);
    j.reaction_torque += dl;
    j.motor_impulse += dl;
  }
  solve_axis_spring(w, j, q, d.spring, h, false);  // b turns about the anchor
  solve_axis_limit(w, j, q, d.limit, false);
  // Off the axis: held at the velocity level (row_motion.hpp), it only corrects the pose here (as
  // the weld's rigid rows; see there).
  const AxisFrame f = axis_frame(w, j, q);
  solve_row(w, q, sliding_row(f, f.normal), dot(f.normal, f.d), {}, j.lambda[4], -kUnbounded,
            kUnbounded, Moves::PoseOnly);
}

void read(const WorldState& w, const Joint& j, std::uint32_t a, std::uint32_t b, float h,
          JointReading& out) {
  const JointBodies q = joint_bodies(w, a, b);
  out.translation = axis_frame(w, j, q).translation;
  out.angle = joint_angle(w, q, j.reference);
  out.speed = (w.bodies.da[b] - w.bodies.da[a]) / h;
}

}  // namespace

const JointOps kWheelJointOps{validate, init, solve, read, false, nullptr, rigid_rows};

}  // namespace strut
