// Revolute joint: both bodies share one point and turn freely about it, or within angle
// limits, driven by a motor, pulled toward the reference angle by a spring. Order within an
// iteration of the projection: the point, then spring and limits, so that the angular rows have
// the last word on the relative turn.
// Between rigid bodies the point is also held at the velocity level, warm started across
// substeps (point_motion.hpp): `solve` here then only corrects its position (with the angular
// rows, in SIMD lanes instead when the joints are coloured: lane_rows), and the reaction read
// back is the carried impulse. The motor is held there only, and the limits there too (before
// the point, as Box2D orders them; AngleMotion in solver/joints/joint.hpp): a motor projected here,
// from zero every substep, was a load the velocity passes and the contacts never saw. A ragdoll's
// friction motors (speed 0, 1 N m) held its lying limbs against the turns the contacts gave
// them in every substep's velocity solve, the projection turning them back, and it crept at
// 0.107 m/s (with the contacts warm started before the joints, world_step.cpp); held at the
// velocity level, with the limits too, it rests at 1e-5 m/s (Box2D v3 1e-5).
#include "solver/joints/joint_ops.hpp"
#include "solver/joints/joint_rows.hpp"
#include "solver/joints/joint_solver.hpp"

namespace strut {
namespace {

const RevoluteJointDef& def_of(const Joint& j) { return std::get<RevoluteJointDef>(j.def); }

bool has_angular_rows(const RevoluteJointDef& d) {
  return d.limit.enabled || d.motor.enabled || d.spring.enabled;
}
// The angular rows the projection solves (the motor is held at the velocity level only).
bool has_projected_rows(const RevoluteJointDef& d) {
  return d.limit.enabled || (d.spring.enabled && d.spring.hertz > 0);
}

void validate(const WorldState& w, const JointDef& any, std::uint32_t a, std::uint32_t b) {
  const auto& d = std::get<RevoluteJointDef>(any);
  check_finite_field(d.anchor, "anchor");
  if (d.reference_angle) check_finite_field(*d.reference_angle, "reference_angle");
  check_limit(d.limit, kLimitMeasure<RevoluteJointDef>);
  check_motor(d.motor, kMotorMeasure<RevoluteJointDef>);
  check_spring(d.spring);
  if (has_angular_rows(d)) require_rigid(w, a, b, "a revolute joint with a limit, motor or spring");
}

void init(const WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b) {
  init_shared_anchor(w, j, a, b, def_of(j).anchor, def_of(j).reference_angle);
}

void solve(WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b, float h) {
  const auto& d = def_of(j);
  const Vec2 p = solve_coincidence(w, anchor_ref(w, a, j.anchor_a), anchor_ref(w, b, j.anchor_b));
  j.lambda_point += p;
  j.reaction_force += p;
  if (has_projected_rows(d)) {
    const JointBodies q = joint_bodies(w, a, b);
    const Row r = angle_row();
    if (d.spring.enabled && d.spring.hertz > 0)
      j.reaction_torque +=
          solve_row(w, q, r, joint_angle(w, q, j.reference),
                    spring_softness(d.spring.hertz, d.spring.damping_ratio, h), j.lambda[0]);
    if (d.limit.enabled)
      j.reaction_torque += solve_limit_rows(w, q, r, joint_angle(w, q, j.reference), d.limit,
                                            j.lambda[2], j.lambda[3]);
  }
}

void read(const WorldState& w, const Joint& j, std::uint32_t a, std::uint32_t b, float h,
          JointReading& out) {
  if (!w.bodies.is_rigid(a) || !w.bodies.is_rigid(b)) return;  // soft bodies have no angle
  out.angle = joint_angle(w, joint_bodies(w, a, b), j.reference);
  out.speed = (w.bodies.da[b] - w.bodies.da[a]) / h;
}

// The rows `solve` projects after the point, as it computes them (point_kernels.hpp runs them),
// and the motor and limits of the velocity passes (point_motion.cpp).
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
