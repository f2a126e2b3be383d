// The operations every joint type implements, one file per type in this folder, and the table
// that finds them by JointType. Adding a type: its definition in strut/joint.hpp (JointDef's
// alternatives), its file here, its row in joint_table.cpp, and the scene reader and writer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "solver/joints/joint.hpp"
#include "solver/joints/joint_row.hpp"
#include "solver/world_state.hpp"

namespace strut {

struct JointOps {
  // Checks the type's own settings; throws strut::Error("<field> <problem>"). a and b are the
  // bodies' dense indices (for rules such as "rigid bodies only").
  void (*validate)(const WorldState& w, const JointDef& def, std::uint32_t a, std::uint32_t b);
  // Fills the anchors and derived fields from the definition and the bodies' poses now.
  void (*init)(const WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b);
  // One iteration of the joint's rows in a substep of length h (the multipliers were reset at
  // the substep's first iteration).
  void (*solve)(WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b, float h);
  // Angle, translation and speed now (h: the last substep's length, for speeds). Called after
  // `out` holds the reaction read from the multipliers, which a type may restate.
  void (*read)(const WorldState& w, const Joint& j, std::uint32_t a, std::uint32_t b, float h,
               JointReading& out);
  // The anchors coincide (between rigid bodies): the point also gets velocity passes, warm
  // started across substeps (point_motion.hpp), and `solve` only corrects its position.
  bool point_motion = false;
  // The joint's solve does nothing but project that point and then the angle rows it fills in
  // (none, or a revolute joint's spring, motor and limits, for a substep of length h): the
  // solver may run it in SIMD lanes instead (point_lanes.hpp). Null: never.
  bool (*lane_rows)(const Joint& j, float h, AngleRows& rows) = nullptr;
  // The rows the joint holds at the velocity level (at most kMaxRigidRows; point rows or angle
  // rows, see joint_rows.hpp) at the poses now, between rigid bodies q: they get velocity passes,
  // warm started across substeps (row_motion.hpp), and their reaction is read back from the
  // carried impulses. Rigid rows (`spring` left at hertz 0): `solve` only corrects their
  // position. One row held by a spring (a distance joint's: `spring` set, with the row's value):
  // `solve` leaves it alone. Returns the count (the same at every call in a step: which rows the
  // joint has is set by its definition and setters, between steps). Null: none.
  int (*rigid_rows)(const WorldState& w, const Joint& j, const JointBodies& q, Row* out,
                    RowSpring& spring) = nullptr;
};

extern const JointOps kDistanceJointOps;
extern const JointOps kRevoluteJointOps;
extern const JointOps kPrismaticJointOps;
extern const JointOps kWheelJointOps;
extern const JointOps kMouseJointOps;
extern const JointOps kMotorJointOps;
extern const JointOps kWeldJointOps;

const JointOps& joint_ops(JointType type);

// Shared checks of settings, each throwing "<field> <problem>".
void check_finite_field(float v, const char* field);
void check_finite_field(Vec2 v, const char* field);
// |v| at most the coordinate limit of strut/limits.hpp (the magnitude rule).
void check_coordinate(float v, const char* field);
void check_non_negative(float v, const char* field);
// A joint event threshold: >= 0, infinity (no events) allowed, NaN not.
void check_threshold(float v, const char* field);
// A spring frequency (0 or within the limits of strut/limits.hpp) and a damping ratio.
void check_hertz(float v, const char* field);
void check_damping_ratio(float v, const char* field);
// What a joint's limit or motor acts on: its angle (rad, rad/s, N m) or its translation along its
// axis (m, m/s, N). A wheel joint limits its translation and drives its wheel's angle.
enum class JointMeasure : bool { Angle, Translation };
template <class Def>
inline constexpr JointMeasure kLimitMeasure =
    std::is_same_v<Def, RevoluteJointDef> ? JointMeasure::Angle : JointMeasure::Translation;
template <class Def>
inline constexpr JointMeasure kMotorMeasure =
    std::is_same_v<Def, PrismaticJointDef> ? JointMeasure::Translation : JointMeasure::Angle;
// Finite, ordered and within the magnitude rule's joint limits (strut/limits.hpp).
void check_limit(const JointLimit& limit, JointMeasure measure);
void check_motor(const JointMotor& motor, JointMeasure measure);
void check_spring(const JointSpring& spring);
// Throws (naming `call`) unless joint id is live, has a motor and `speed` is a valid speed for it.
void check_motor_speed(const WorldState& w, JointId id, float speed, const char* call);
void require_rigid(const WorldState& w, std::uint32_t a, std::uint32_t b, const char* what);

// The joints that slide along an axis fixed in a (prismatic, wheel): their anchor, axis, limit,
// motor and spring checked, and the joint's anchors, axis (in a's frame) and reference rotation
// set from the bodies' poses now.
template <class AxisJointDef>
void validate_axis_joint(const WorldState& w, const AxisJointDef& d, std::uint32_t a,
                         std::uint32_t b, const char* what) {
  check_finite_field(d.anchor, "anchor");
  check_finite_field(d.axis, "axis");
  if (!(length(d.axis) > 1e-6f)) throw Error("axis must not be zero");
  check_limit(d.limit, kLimitMeasure<AxisJointDef>);
  check_motor(d.motor, kMotorMeasure<AxisJointDef>);
  check_spring(d.spring);
  require_rigid(w, a, b, what);
}
void init_axis_joint(const WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b, Vec2 anchor,
                     Vec2 axis);
// The joints whose bodies share one anchor point (revolute, weld, and the axis joints): both
// anchors at `anchor`, and angle 0 at `reference_angle` when given, else at the relative
// rotation the bodies have now.
void init_shared_anchor(const WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b,
                        Vec2 anchor, std::optional<float> reference_angle);
// A joint that holds the relative angle (rigid weld, prismatic) holds the same whatever point of
// b its rows are anchored at: they are anchored midway between the bodies' centres, which keeps
// their arms no longer than the bodies are apart (at the given anchor, 131 or 290 km away in
// fuzz_api's inputs, the block of the rows and the angle lost every digit and the bodies turned
// NaN). Returns that point; j.target keeps the given anchor from it, in b's frame.
Vec2 rows_between_centres(const WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b,
                          Vec2 anchor);
// The reaction's torque about the given anchor of such a joint: its force acts at the rows' point.
void torque_about_given_anchor(const WorldState& w, const Joint& j, std::uint32_t b,
                               JointReading& out);
// What World::joint_reading reports for a live joint (the joint events compare the same force
// and torque with their thresholds).
JointReading read_joint(const WorldState& w, const Joint& j);

}  // namespace strut
