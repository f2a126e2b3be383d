// The joint types' table and the checks their definitions share.
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>
#include <utility>
#include <variant>

#include "solver/joints/joint_ops.hpp"
#include "solver/joints/joint_rows.hpp"
#include "solver/joints/joint_solver.hpp"
#include "solver/shapes/shape_checks.hpp"
#include "strut/limits.hpp"

namespace strut {

const JointOps& joint_ops(JointType type) {
  // Indexed by JointType, which is the index of the definition in JointDef.
  static const JointOps* const kTable[] = {
      &kDistanceJointOps, &kRevoluteJointOps, &kPrismaticJointOps, &kWheelJointOps,
      &kMouseJointOps,    &kMotorJointOps,    &kWeldJointOps};
  static_assert(std::size(kTable) == std::variant_size_v<JointDef>);
  return *kTable[std::size_t(type)];
}

JointReading read_joint(const WorldState& w, const Joint& j) {
  JointReading r;
  r.type = j.type;
  r.enabled = j.enabled;
  const float h = w.timing.last_h;
  // The multipliers are position impulses (force x h^2) of the last substep.
  const float to_force = 1.0f / (h * h);
  r.force = to_force * j.reaction_force;
  r.torque = to_force * j.reaction_torque;
  r.motor_effort = to_force * j.motor_impulse;
  joint_ops(j.type).read(w, j, w.bodies.slots[j.slot_a].dense, w.bodies.slots[j.slot_b].dense, h,
                         r);
  return r;
}

const char* joint_type_name(JointType type) {
  static const char* const kNames[] = {"distance", "revolute", "prismatic", "wheel",
                                       "mouse",    "motor",    "weld"};
  static_assert(std::size(kNames) == std::variant_size_v<JointDef>);
  return kNames[std::size_t(type)];
}

void check_finite_field(float v, const char* field) {
  if (!std::isfinite(v)) throw Error(std::string(field) + " is not a finite number");
}
// Points and directions obey the coordinate limit of the magnitude rule (strut/limits.hpp):
// fuzzing found a pin anchored 9.5e21 m away turning both bodies into NaN in one step.
void check_coordinate(float v, const char* field) {
  if (std::fabs(v) <= limits::kMaxCoordinate) return;
  throw Error(std::string(field) + " " + shapes::number_text(v) + " exceeds the limit of " +
              shapes::number_text(limits::kMaxCoordinate) + " m (strut/limits.hpp)");
}
void check_finite_field(Vec2 v, const char* field) {
  if (!is_finite(v)) throw Error(std::string(field) + " is not a finite number");
  check_coordinate(std::fabs(v.x) > std::fabs(v.y) ? v.x : v.y, field);
}
void check_non_negative(float v, const char* field) {
  check_finite_field(v, field);
  if (v < 0) throw Error(std::string(field) + " must not be negative");
}

void check_threshold(float v, const char* field) {
  if (std::isnan(v))
    throw Error(std::string(field) + " is NaN (a number >= 0, or infinity for no events)");
  if (!(v < 0)) return;
  throw Error(std::string(field) + " must not be negative, got " + shapes::number_text(v));
}

void check_hertz(float v, const char* field) {
  check_non_negative(v, field);
  if (v == 0 || (v >= limits::kMinHertz && v <= limits::kMaxHertz)) return;
  throw Error(std::string(field) + " " + shapes::number_text(v) + " Hz is outside [" +
              shapes::number_text(limits::kMinHertz) + ", " +
              shapes::number_text(limits::kMaxHertz) + "] Hz (0: no spring; strut/limits.hpp)");
}
void check_damping_ratio(float v, const char* field) {
  check_non_negative(v, field);
  if (v <= limits::kMaxDampingRatio) return;
  throw Error(std::string(field) + " " + shapes::number_text(v) + " exceeds the limit of " +
              shapes::number_text(limits::kMaxDampingRatio) + " (strut/limits.hpp)");
}

// Fuzzing found limits of 9.5e21 rad and a motor speed of 1.1e22 rad/s, accepted, whose first
// correction turned the bodies into NaN: limits and motors obey the magnitude rule.
void check_limit(const JointLimit& limit, JointMeasure measure) {
  check_finite_field(limit.lower, "limit.lower");
  check_finite_field(limit.upper, "limit.upper");
  if (limit.lower > limit.upper) throw Error("limit.lower is larger than limit.upper");
  if (measure == JointMeasure::Translation) {
    check_coordinate(limit.lower, "limit.lower");
    check_coordinate(limit.upper, "limit.upper");
    return;
  }
  for (const auto& [v, field] :
       {std::pair{limit.lower, "limit.lower"}, {limit.upper, "limit.upper"}}) {
    if (std::fabs(v) <= limits::kMaxJointAngle) continue;
    throw Error(std::string(field) + " " + shapes::number_text(v) +
                " rad is outside [-pi, pi] (the joint angle is measured in (-pi, pi]; "
                "strut/limits.hpp)");
  }
}
void check_motor(const JointMotor& motor, JointMeasure measure) {
  check_finite_field(motor.speed, "motor.speed");
  check_non_negative(motor.max_effort, "motor.max_effort");
  const bool angle = measure == JointMeasure::Angle;
  const float max_speed = angle ? limits::kMaxAngularSpeed : limits::kMaxSpeed;
  if (std::fabs(motor.speed) > max_speed)
    throw Error("motor.speed " + shapes::number_text(motor.speed) + (angle ? " rad/s" : " m/s") +
                " exceeds the limit of " + shapes::number_text(max_speed) + " (strut/limits.hpp)");
  if (motor.max_effort > limits::kMaxMotorEffort)
    throw Error("motor.max_effort " + shapes::number_text(motor.max_effort) +
                " exceeds the limit of " + shapes::number_text(limits::kMaxMotorEffort) +
                " (strut/limits.hpp)");
}
void check_spring(const JointSpring& spring) {
  check_hertz(spring.hertz, "spring.hertz");
  check_damping_ratio(spring.damping_ratio, "spring.damping_ratio");
}

void require_rigid(const WorldState& w, std::uint32_t a, std::uint32_t b, const char* what) {
  if (!w.bodies.is_rigid(a) || !w.bodies.is_rigid(b))
    throw Error(std::string(what) + " needs two rigid bodies (soft bodies have no angle)");
}

void init_shared_anchor(const WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b,
                        Vec2 anchor, std::optional<float> reference_angle) {
  j.anchor_a = make_anchor(w, a, anchor);
  j.anchor_b = make_anchor(w, b, anchor);
  j.reference = reference_angle ? make_rot(*reference_angle) : relative_rot(w, a, b);
}

Vec2 rows_between_centres(const WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b,
                          Vec2 anchor) {
  const Vec2 row_point = 0.5f * (body_center(w, a) + body_center(w, b));
  j.target = inv_rotate(Rot{w.bodies.qc[b], w.bodies.qs[b]}, anchor - row_point);
  return row_point;
}

void torque_about_given_anchor(const WorldState& w, const Joint& j, std::uint32_t b,
                               JointReading& out) {
  out.torque += cross(-world_arm(w, b, j.target), out.force);
}

void init_axis_joint(const WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b, Vec2 anchor,
                     Vec2 axis) {
  init_shared_anchor(w, j, a, b, anchor, std::nullopt);
  j.axis = inv_rotate(Rot{w.bodies.qc[a], w.bodies.qs[a]}, (1.0f / length(axis)) * axis);
}

}  // namespace strut
