// Revolute joint: both bodies share one point and turn freely about it, or within angle
// limits, driven by a motor, pulled toward the reference angle by a spring. Order within an
// iteration: the point, then spring, motor and limits, so that the angular rows have the last
// word on the relative turn. Box2D's order (point last) undid part of a motor's work here,
// where the rows do not warm start across substeps: a motor lifting a pinned bar reached 88%
// of its speed (4 substeps, 1 iteration); point first, it reaches it (error < 1e-4) and the
// pin opens by 0.5 mm at most while it lifts (tests/revolute_joint_test.cpp). Warm starting the
// rows with the last substep's multipliers fixed the motor too but made a limit bounce the bar back
// elastically: the pin's re-applied impact impulse turned it back up.
// Between rigid bodies the point is also held at the velocity level, warm started across
// substeps (point_motion.hpp): `solve` here then only corrects its position (with the angular
// rows, in SIMD lanes instead when the joints are coloured: lane_rows), and the reaction read
// back is the carried impulse.
#include "solver/joint_solver.hpp"
#include "solver/joints/joint_ops.hpp"
#include "solver/joints/joint_rows.hpp"

namespace strut {
namespace {

const RevoluteJointDef& def_of(const Joint& j) { return std::get<RevoluteJointDef>(j.def); }

bool has_angular_rows(const RevoluteJointDef& d) {
  return d.limit.enabled || d.motor.enabled || d.spring.enabled;
}

void validate(const World::Impl& w, const JointDef& any, std::uint32_t a, std::uint32_t b) {
  const auto& d = std::get<RevoluteJointDef>(any);
  check_finite_field(d.anchor, "anchor");
  if (d.reference_angle) check_finite_field(*d.reference_angle, "reference_angle");
  check_limit(d.limit, kLimitMeasure<RevoluteJointDef>);
  check_motor(d.motor, kMotorMeasure<RevoluteJointDef>);
  check_spring(d.spring);
  if (has_angular_rows(d)) require_rigid(w, a, b, "a revolute joint with a limit, motor or spring");
}

void init(const World::Impl& w, Joint& j, std::uint32_t a, std::uint32_t b) {
  init_shared_anchor(w, j, a, b, def_of(j).anchor, def_of(j).reference_angle);
}

void solve(World::Impl& w, Joint& j, std::uint32_t a, std::uint32_t b, float h) {
  const auto& d = def_of(j);
  const Vec2 p = solve_coincidence(w, anchor_ref(w, a, j.anchor_a), anchor_ref(w, b, j.anchor_b));
  j.lambda_point += p;
  j.reaction_force += p;
  if (has_angular_rows(d)) {
    const JointBodies q = joint_bodies(w, a, b);
    const Row r = angle_row();
    if (d.spring.enabled && d.spring.hertz > 0)
      j.reaction_torque +=
          solve_row(w, q, r, joint_angle(w, q, j.reference),
                    spring_softness(d.spring.hertz, d.spring.damping_ratio, h), j.lambda[0]);
    if (d.motor.enabled) {
      const float dl = solve_motor_row(w, q, r, d.motor.speed, d.motor.max_effort, h, j.lambda[1]);
      j.reaction_torque += dl;
      j.motor_impulse += dl;
    }
    if (d.limit.enabled)
      j.reaction_torque += solve_limit_rows(w, q, r, joint_angle(w, q, j.reference), d.limit,
                                            j.lambda[2], j.lambda[3]);
  }
}

void read(const World::Impl& w, const Joint& j, std::uint32_t a, std::uint32_t b, float h,
          JointReading& out) {
  if (!w.is_rigid(a) || !w.is_rigid(b)) return;  // soft bodies have no angle
  out.angle = joint_angle(w, joint_bodies(w, a, b), j.reference);
  out.speed = (w.bodies.da[b] - w.bodies.da[a]) / h;
}

// The rows `solve` projects after the point, as it computes them (point_kernels.hpp runs them).
bool lane_rows(const Joint& j, float h, AngleRows& rows) {
  const auto& d = def_of(j);
  rows = {};
  rows.reference = j.reference;
  if (d.spring.enabled && d.spring.hertz > 0) {
    const Softness1 s = spring_softness(d.spring.hertz, d.spring.damping_ratio, h);
    rows.spring = true, rows.spring_per_mass = s.per_mass, rows.spring_gamma = s.gamma;
  }
  if (d.motor.enabled) {
    rows.motor = true;
    rows.motor_shift = d.motor.speed * h, rows.motor_bound = d.motor.max_effort * h * h;
  }
  if (d.limit.enabled) rows.limit = true, rows.lower = d.limit.lower, rows.upper = d.limit.upper;
  return true;
}

}  // namespace

const JointOps kRevoluteJointOps{validate, init, solve, read, true, lane_rows};

}  // namespace strut
