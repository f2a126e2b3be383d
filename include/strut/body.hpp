// Body definitions: plain values passed to World (joints: strut/joint.hpp).
#pragma once

#include <cstdint>
#include <variant>
#include <vector>

#include "strut/ids.hpp"
#include "strut/material.hpp"
#include "strut/math.hpp"
#include "strut/shape.hpp"

namespace strut {

// The body-level single-shape fields (`shape`, `material`, `category`, `mask`, `group`,
// `sensor`) are deprecated: they are accepted for one release, removed in the next. Write
// `shapes = {ShapeDef{.shape = ..., .material = ..., .filter = {category, mask, group},
// .sensor = ...}}` instead. Until then a body given them (and no `shapes`) is created exactly as
// before (same checks and messages, same world), as the one-item `shapes` they describe.
#define STRUT_BODY_LEVEL_SHAPE_DEPRECATED(what)                                                \
  [[deprecated("BodyDef::" what " is deprecated (removed in the next release): give the body " \
               "its shapes as shapes = {ShapeDef{.shape = ..., .material = ..., .filter = "    \
               "{category, mask, group}, .sensor = ...}}")]]

// The pragmas keep the compiler's own copies, moves and default construction of BodyDef (which
// touch every member) from reporting the deprecated members; a program's uses still do.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
struct BodyDef {
  // The body's shapes: 1 or more, each with its own placement, material, filter and sensor flag.
  std::vector<ShapeDef> shapes;
  // Deprecated (see above): one shape with the body's `material`, `category`, `mask`, `group`
  // and `sensor`, used when `shapes` is empty; with `shapes` they must stay at their defaults.
  STRUT_BODY_LEVEL_SHAPE_DEPRECATED("shape") Shape shape = BoxShape{};
  // The body's origin: for one box, circle or capsule its centre; for a polygon, the point its
  // vertices are relative to; for a compound, the frame its shapes are placed in. The body's
  // reported position is its centre of mass.
  Vec2 center;
  float angle = 0.0f;
  Vec2 velocity;                                                    // of the centre of mass, m/s
  float angular_velocity = 0.0f;                                    // rad/s
  STRUT_BODY_LEVEL_SHAPE_DEPRECATED("material") Material material;  // deprecated: shapes[i]
  bool is_static = false;
  // Kinematic: infinite mass, moves only by its own velocity and angular velocity (motors,
  // conveyor platforms); pushes dynamic bodies, is never pushed. Not with is_static.
  bool is_kinematic = false;
  float gravity_scale = 1.0f;
  float linear_drag = 0.0f;   // 1/s: velocity decays as exp(-drag t)
  float angular_drag = 0.0f;  // 1/s: angular velocity decays as exp(-angular_drag t)
  // The body never turns (infinite inertia); rigid bodies only. Its angular velocity is 0.
  bool fixed_rotation = false;
  // Motion locks (Box2D v3's b2MotionLocks, with fixed_rotation as the rotation lock): the body
  // never moves along the world's x axis (lock_x) or y axis (lock_y). Its velocity along a locked
  // axis stays 0 and its centre of mass keeps that coordinate whatever pushes it (gravity,
  // forces, contacts, joints, impulses); a definition's velocity along it is dropped. Rigid
  // bodies only; they act on dynamic bodies (a static or kinematic body keeps them for when it
  // becomes dynamic). World::set_motion_locks changes them.
  bool lock_x = false;
  bool lock_y = false;
  // Deprecated (see above): shapes[i].filter and shapes[i].sensor.
  STRUT_BODY_LEVEL_SHAPE_DEPRECATED("category") std::uint32_t category = 1;
  STRUT_BODY_LEVEL_SHAPE_DEPRECATED("mask") std::uint32_t mask = 0xFFFFFFFFu;
  STRUT_BODY_LEVEL_SHAPE_DEPRECATED("group") std::int32_t group = 0;
  STRUT_BODY_LEVEL_SHAPE_DEPRECATED("sensor") bool sensor = false;
  bool bullet = false;  // extra continuous collision care for very fast small bodies
  // 0 = rigid. > 0: soft polygon, its struts have this XPBD compliance (m/N). Polygons only.
  float soft = 0.0f;
  // false: the body never falls asleep, nor does its island (a player, a sensor-like body).
  bool enable_sleep = true;
  // false: the body is created asleep (a dynamic body at rest, with sleep enabled), as if it had
  // fallen asleep on its own: it costs nothing until something touches it or a call wakes it.
  // A wall or a pile built in place starts asleep this way, as in Box2D's `isAwake`.
  bool awake = true;
  // The embedding program's own value (an index, a handle, or a pointer stored with
  // reinterpret_cast<std::uintptr_t>): strut only stores it. World::user_data reads it.
  std::uint64_t user_data = 0;
};
#pragma GCC diagnostic pop

#undef STRUT_BODY_LEVEL_SHAPE_DEPRECATED

enum class BodyType : std::uint8_t { Static = 0, Kinematic = 1, Dynamic = 2 };

// Checks a body definition without creating anything. Throws strut::Error whose message starts
// with the offending field, e.g. "shape.vertices: polygon is not convex at vertex 2" or
// "material.density: 0 on a dynamic body". World::create_body prefixes it with the call.
void validate_body_def(const BodyDef& def);

}  // namespace strut
