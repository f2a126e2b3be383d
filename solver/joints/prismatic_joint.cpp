// Prismatic joint: b slides along an axis fixed in a and keeps its angle relative to a; the
// translation along the axis may be limited, driven by a motor and sprung toward 0. The rows off
// the axis and of the angle are rigid: they also get velocity passes warm started across
// substeps (row_motion.hpp).
#include "solver/joints/joint_ops.hpp"
#include "solver/joints/joint_rows.hpp"
#include "solver/joints/joint_solver.hpp"

namespace strut {
namespace {

const PrismaticJointDef& def_of(const Joint& j) { return std::get<PrismaticJointDef>(j.def); }

void validate(const WorldState& w, const JointDef& any, std::uint32_t a, std::uint32_t b) {
  validate_axis_joint(w, std::get<PrismaticJointDef>(any), a, b, "a prismatic joint");
}

// The angle is held, so the line b's anchor slides on may be taken through any point of b: the
// rows are anchored between the centres (rows_between_centres; at an anchor 290 km away,
// fuzz_api, a box on the ground turned NaN). The translation along the axis is the same from
// either point while the angle holds.
void init(const WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b) {
  init_axis_joint(w, j, a, b, rows_between_centres(w, j, a, b, def_of(j).anchor), def_of(j).axis);
}

// Off the axis and the relative angle.
int rigid_rows(const WorldState& w, const Joint& j, const JointBodies& q, Row* out, RowSpring&) {
  const AxisFrame f = axis_frame(w, j, q);
  out[0] = sliding_row(f, f.normal), out[1] = angle_row();
  return 2;
}

void solve(WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b, float h) {
  const auto& d = def_of(j);
  const JointBodies q = joint_bodies(w, a, b);
  // The rows along the axis go through b's centre (centre_row): the angle is held.
  solve_axis_spring(w, j, q, d.spring, h, true);
  if (d.motor.enabled) {
    const AxisFrame f = axis_frame(w, j, q);
    const float dl = solve_motor_row(w, q, centre_row(f, f.axis), d.motor.speed, d.motor.max_effort,
                                     h, j.lambda[1]);
    j.reaction_force += dl * f.axis;
    j.motor_impulse += dl;
  }
  solve_axis_limit(w, j, q, d.limit, true);
  // Off the axis and the relative angle, together (two coupled rows): held at the velocity level
  // (row_motion.hpp), they only correct the pose here (as the weld's rigid rows; see there).
  const AxisFrame f = axis_frame(w, j, q);
  const Row rows[2] = {sliding_row(f, f.normal), angle_row()};
  const float c[2] = {dot(f.normal, f.d), joint_angle(w, q, j.reference)};
  float lambda[2] = {j.lambda_point.x, j.lambda_point.y}, applied[2];
  solve_block(w, q, rows, 2, c, {}, lambda, applied, kUnbounded, Moves::PoseOnly);
  j.lambda_point = {lambda[0], lambda[1]};
}

void read(const WorldState& w, const Joint& j, std::uint32_t a, std::uint32_t b, float h,
          JointReading& out) {
  const JointBodies q = joint_bodies(w, a, b);
  const AxisFrame f = axis_frame(w, j, q);
  out.translation = f.translation;
  out.angle = joint_angle(w, q, j.reference);
  out.speed = row_motion(w, q, sliding_row(f, f.axis)) / h;
  torque_about_given_anchor(w, j, b, out);
}

}  // namespace

const JointOps kPrismaticJointOps{validate, init, solve, read, false, nullptr, rigid_rows};

}  // namespace strut
