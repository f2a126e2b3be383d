// Joints: constraints between material points of two bodies. The settings live in the public
// per-type definition (strut/joint.hpp); what creation derives from the bodies' poses (anchors
// in body frames, axes, reference angles, resolved lengths) and what the solver accumulates
// lives here, the same few fields for every type.
#pragma once

#include <cstdint>
#include <vector>

#include "strut/joint.hpp"

namespace strut {

// A point fixed in a body: for a rigid body an offset from the centre of mass in body
// coordinates; for a soft body the particle nearest to it (offset within the body's range).
struct BodyAnchor {
  Vec2 local;
  std::uint32_t particle = 0;
};

// Most multipliers a joint keeps (a wheel: perpendicular, spring, two limits, motor).
inline constexpr int kJointMultipliers = 6;

struct Joint {
  JointType type = JointType::Distance;
  std::uint32_t slot_a = 0, slot_b = 0;  // body slots (stable across compaction); a mouse: b, b
  BodyAnchor anchor_a, anchor_b;
  // Derived at creation. axis: in a's frame (prismatic, wheel). reference: the relative
  // rotation (cos, sin) that is joint angle 0 (revolute, prismatic, weld, motor with its
  // offset). length: a distance joint's rest length. target: a mouse joint's world target, a
  // motor joint's target point in a's frame.
  Vec2 axis;
  Rot reference;
  float length = 0;
  Vec2 target;
  bool collide = false;
  bool enabled = true;
  // Position impulses (N s^2) accumulated over the current substep: each joint row's
  // multiplier, which makes a soft row's stiffness the same at any iteration count, and the
  // reaction they add up to on b (read back as force = impulse / h^2).
  float lambda[kJointMultipliers] = {};
  Vec2 lambda_point;  // of the point (two-row) constraint
  // The force the point constraint bore in the last substep (revolute between rigid bodies),
  // carried across steps to warm start its velocity passes (solver/joints/point_motion.hpp).
  Vec2 carried_force;
  Vec2 reaction_force;
  float reaction_torque = 0;
  float motor_impulse = 0;
  std::uint32_t slot = 0;  // joint id slot
  JointDef def;            // settings: as created, then as changed by the run-time setters
  bool dead = false;       // destroyed; removed from World::Impl::joints before the next step
};

// A joint's point constraint at the velocity level, packed for the step (48 bytes): the bodies
// (dense), their inverse masses, the anchors' world arms and the inverse of the 2x2 effective
// mass (refreshed when the poses change), and the position impulse (N s^2) carried from
// substep to substep.
struct PointMotionRow {
  std::uint32_t a = 0, b = 0;
  float ma = 0, mb = 0, ia = 0, ib = 0;
  Vec2 ra, rb;
  float k11 = 0, k12 = 0, k22 = 0;  // inverse effective mass
  Vec2 impulse;
  std::uint32_t joint = 0;  // index in World::Impl::joints
};

// The rows of a step in colour order: colour c is rows[begin[c] .. begin[c + 1]) (the joint
// colouring's colours; below its threshold all rows are in the serial overflow colour).
struct PointMotion {
  std::vector<PointMotionRow> rows;
  std::vector<std::uint32_t> begin;
};

}  // namespace strut
