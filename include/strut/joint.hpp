// Joint definitions, one per type, each holding only what its type reads. Anchors and axes are
// world points and directions at creation time; angles, translations, limits and targets are
// measured from the pose the bodies have at creation (relative angle 0, translation 0), unless
// a revolute or weld joint is given an explicit reference angle.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <variant>

#include "strut/ids.hpp"
#include "strut/math.hpp"

namespace strut {

// Every joint type has a force_threshold and a torque_threshold (>= 0): after a step whose
// reaction force magnitude (or torque magnitude) was above it, the joint is in
// World::joint_events. The default, infinity, makes no events.
inline constexpr float kNoJointEvents = std::numeric_limits<float>::infinity();

// Bounds on a joint's angle (rad) or translation (m), lower <= upper.
struct JointLimit {
  bool enabled = false;
  float lower = 0.0f;
  float upper = 0.0f;
  friend bool operator==(const JointLimit&, const JointLimit&) = default;
};

// Drives the joint's relative speed (rad/s or m/s) toward `speed` with at most `max_effort`
// (N m for angular motors, N for linear ones). A zero speed with a small effort is joint
// friction; a huge effort (1e30) is a motor that never gives.
struct JointMotor {
  bool enabled = false;
  float speed = 0.0f;
  float max_effort = 0.0f;
  friend bool operator==(const JointMotor&, const JointMotor&) = default;
};

// A damped spring toward angle or translation 0 (or a distance joint's length), defined by its
// frequency and damping ratio so it behaves the same whatever the masses it joins.
struct JointSpring {
  bool enabled = false;
  float hertz = 0.0f;
  float damping_ratio = 0.0f;
  friend bool operator==(const JointSpring&, const JointSpring&) = default;
};

// Fixed distance between two anchor points, a rope (slack between min_length and max_length),
// or a spring toward `length` (kept between min_length and max_length when they are given).
struct DistanceJointDef {
  BodyId a, b;
  Vec2 anchor_a, anchor_b;
  float length = -1.0f;      // < 0: the anchors' distance at creation
  float min_length = -1.0f;  // < 0: no lower bound
  float max_length = -1.0f;  // < 0: no upper bound (a rope when only the bounds hold it)
  JointSpring spring;
  float compliance = 0.0f;  // XPBD compliance of the rigid length (m/N), 0 = rigid
  bool collide = false;     // whether the two joined bodies collide with each other
  // A JointEvent after a step whose reaction force (N) or torque (N m) was above these.
  float force_threshold = kNoJointEvents;
  float torque_threshold = kNoJointEvents;
  friend bool operator==(const DistanceJointDef&, const DistanceJointDef&) = default;
};

// Both bodies share `anchor`; the angle of b relative to a may be limited, driven, sprung.
struct RevoluteJointDef {
  BodyId a, b;
  Vec2 anchor;
  // The relative angle (b's minus a's) that counts as joint angle 0; empty: the one at creation.
  std::optional<float> reference_angle;
  JointLimit limit;  // rad
  JointMotor motor;  // rad/s, N m
  JointSpring spring;
  bool collide = false;
  // A JointEvent after a step whose reaction force (N) or torque (N m) was above these.
  float force_threshold = kNoJointEvents;
  float torque_threshold = kNoJointEvents;
  friend bool operator==(const RevoluteJointDef&, const RevoluteJointDef&) = default;
};

// b slides along `axis` (fixed in a's frame) through `anchor` and keeps its angle relative to a.
struct PrismaticJointDef {
  BodyId a, b;
  Vec2 anchor;
  Vec2 axis{1.0f, 0.0f};  // normalised at creation; zero is an error
  JointLimit limit;       // m along the axis
  JointMotor motor;       // m/s, N
  JointSpring spring;
  bool collide = false;
  // A JointEvent after a step whose reaction force (N) or torque (N m) was above these.
  float force_threshold = kNoJointEvents;
  float torque_threshold = kNoJointEvents;
  friend bool operator==(const PrismaticJointDef&, const PrismaticJointDef&) = default;
};

// A vehicle wheel: b's centre (`anchor`) moves along `axis` on a spring and b turns freely,
// optionally driven by a motor.
struct WheelJointDef {
  BodyId a, b;
  Vec2 anchor;
  Vec2 axis{0.0f, 1.0f};  // suspension direction, normalised at creation
  JointSpring spring{true, 4.0f, 0.7f};
  JointLimit limit;  // m along the axis
  JointMotor motor;  // turns b relative to a: rad/s, N m
  bool collide = false;
  // A JointEvent after a step whose reaction force (N) or torque (N m) was above these.
  float force_threshold = kNoJointEvents;
  float torque_threshold = kNoJointEvents;
  friend bool operator==(const WheelJointDef&, const WheelJointDef&) = default;
};

// Pulls a point of `body` toward `target` like a damped spring, never harder than max_force.
struct MouseJointDef {
  BodyId body;
  Vec2 target;
  std::optional<Vec2> anchor;  // world point on the body; empty: its centre of mass
  float max_force = 0.0f;      // N, > 0
  float hertz = 5.0f;
  float damping_ratio = 0.7f;
  // A JointEvent after a step whose reaction force (N) or torque (N m) was above these.
  float force_threshold = kNoJointEvents;
  float torque_threshold = kNoJointEvents;
  friend bool operator==(const MouseJointDef&, const MouseJointDef&) = default;
};

// Drives b's pose relative to a toward the creation-time relative pose shifted by
// `linear_offset` (in a's frame) and `angular_offset`, with bounded force and torque.
struct MotorJointDef {
  BodyId a, b;
  Vec2 linear_offset;
  float angular_offset = 0.0f;
  float max_force = 0.0f;   // N, > 0
  float max_torque = 0.0f;  // N m, > 0
  bool collide = false;
  // A JointEvent after a step whose reaction force (N) or torque (N m) was above these.
  float force_threshold = kNoJointEvents;
  float torque_threshold = kNoJointEvents;
  friend bool operator==(const MotorJointDef&, const MotorJointDef&) = default;
};

// Keeps b's pose relative to a: rigid (hertz 0) or a soft joint that bends like springs of the
// given frequencies. Rigid bodies only.
struct WeldJointDef {
  BodyId a, b;
  Vec2 anchor;  // where the bodies are joined; it matters only when soft
  std::optional<float> reference_angle;
  float linear_hertz = 0.0f;
  float angular_hertz = 0.0f;
  float damping_ratio = 0.0f;
  bool collide = false;
  // A JointEvent after a step whose reaction force (N) or torque (N m) was above these.
  float force_threshold = kNoJointEvents;
  float torque_threshold = kNoJointEvents;
  friend bool operator==(const WeldJointDef&, const WeldJointDef&) = default;
};

// The order of the alternatives is the joint type's number (JointType).
using JointDef = std::variant<DistanceJointDef, RevoluteJointDef, PrismaticJointDef, WheelJointDef,
                              MouseJointDef, MotorJointDef, WeldJointDef>;

enum class JointType : std::uint8_t {
  Distance = 0,
  Revolute = 1,
  Prismatic = 2,
  Wheel = 3,
  Mouse = 4,
  Motor = 5,
  Weld = 6,
};

inline JointType type_of(const JointDef& def) { return JointType(def.index()); }

// The bodies a definition joins (a mouse joint's one body twice), and setting them.
inline std::pair<BodyId, BodyId> joint_bodies(const JointDef& def) {
  return std::visit(
      [](const auto& d) -> std::pair<BodyId, BodyId> {
        if constexpr (requires { d.body; })
          return {d.body, d.body};
        else
          return {d.a, d.b};
      },
      def);
}
inline void set_joint_bodies(JointDef& def, BodyId a, BodyId b) {
  std::visit(
      [&](auto& d) {
        if constexpr (requires { d.body; })
          d.body = b;
        else
          d.a = a, d.b = b;
      },
      def);
}
// "distance", "revolute", ... (the scene format's names).
const char* joint_type_name(JointType type);

// What a joint measures now and what it did in the last step.
struct JointReading {
  JointType type = JointType::Distance;
  bool enabled = true;
  float angle = 0.0f;  // revolute, wheel, weld: b relative to a, 0 at the reference
  // prismatic, wheel: along the axis; distance: the current length; mouse, motor: how far
  // the body is from its target position.
  float translation = 0.0f;
  float speed = 0.0f;         // d(angle)/dt, or d(translation)/dt for prismatic and distance
  Vec2 force;                 // the constraint's reaction on b over the last substep, N
  float torque = 0.0f;        // its angular reaction on b (limits, motor, spring, weld), N m
  float motor_effort = 0.0f;  // what the motor applied in the last substep (N m or N)
};

}  // namespace strut
