// Debug drawing: World::draw describes what the world holds through the callbacks of a
// DebugDraw, and the caller turns them into pixels, a recording or anything else. strut itself
// has no renderer. Every callback has an empty default, so a sink overrides only what it uses.
#pragma once

#include <cstdint>
#include <span>

#include "strut/body.hpp"
#include "strut/ids.hpp"
#include "strut/joint.hpp"
#include "strut/math.hpp"

namespace strut {

// What a body is doing, which is what a viewer colours it by. Sensor is reserved for sensor
// shapes (strut has none yet), so recordings and palettes already have a place for it.
enum class BodyDrawState : std::uint8_t {
  Awake = 0,
  Asleep = 1,
  Static = 2,
  Kinematic = 3,
  Sensor = 4,
};

// What World::draw reports: a bitwise or of these in DebugDraw::flags.
enum DrawFlag : std::uint32_t {
  kDrawShapes = 1u << 0,
  kDrawJoints = 1u << 1,
  kDrawContacts = 1u << 2,  // contact points with their normals
  kDrawAabbs = 1u << 3,     // each body's box around its current shape
};

// The body a shape belongs to, passed with every shape callback.
struct DrawBody {
  BodyId id;
  BodyDrawState state = BodyDrawState::Awake;
  Transform transform;  // centre of mass and angle
  Vec2 velocity;
  float angular_velocity = 0.0f;
  // The body's island at the last step, named by its root body (stable while the island
  // lasts); null for static and kinematic bodies, which join no island.
  BodyId island;
};

// A joint between two bodies: where the bodies' centres and the joint's anchors are now.
struct DrawJoint {
  JointId id;
  JointType type = JointType::Distance;
  BodyId a, b;
  Vec2 center_a, center_b;  // centres of mass
  Vec2 anchor_a, anchor_b;  // world points
};

// A contact point of the last step, evaluated at the current poses. The normal points from
// body a towards body b; separation < 0 is overlap, > 0 a speculative point not yet touching.
struct DrawContact {
  BodyId a, b;
  Vec2 point;  // on b's surface
  Vec2 normal;
  float separation = 0.0f;
};

class DebugDraw {
 public:
  virtual ~DebugDraw() = default;

  std::uint32_t flags = kDrawShapes | kDrawJoints;
  // When set, only what overlaps `view` is reported (bodies by their box, joints by the box of
  // their anchors, contacts by their point).
  bool cull_to_view = false;
  Aabb view;

  // A convex polygon (world vertices, counter-clockwise) rounded by `radius` (0: sharp).
  virtual void draw_polygon(const DrawBody&, std::span<const Vec2> /*vertices*/, float /*radius*/) {
  }
  // The body's angle is in DrawBody::transform, for a mark that shows the circle turn.
  virtual void draw_circle(const DrawBody&, Vec2 /*center*/, float /*radius*/) {}
  // A segment from p1 to p2 swept by a circle of `radius`.
  virtual void draw_capsule(const DrawBody&, Vec2 /*p1*/, Vec2 /*p2*/, float /*radius*/) {}
  virtual void draw_segment(const DrawBody&, Vec2 /*p1*/, Vec2 /*p2*/) {}
  virtual void draw_joint(const DrawJoint&) {}
  virtual void draw_contact(const DrawContact&) {}
  virtual void draw_aabb(const DrawBody&, Aabb) {}
};

}  // namespace strut
