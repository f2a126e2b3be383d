// Body definitions: plain values passed to World (joints: strut/joint.hpp).
#pragma once

#include <cstdint>
#include <variant>
#include <vector>

#include "strut/ids.hpp"
#include "strut/material.hpp"
#include "strut/math.hpp"

namespace strut {

inline constexpr int kMaxPolygonVertices = 16;

struct BoxShape {
  Vec2 half_extents{0.5f, 0.5f};
};
// Convex polygon, vertices relative to the body's `center`, either winding, 3 to 16 of them.
struct PolygonShape {
  std::vector<Vec2> vertices;
};
struct CircleShape {
  float radius = 0.5f;
};
using Shape = std::variant<BoxShape, PolygonShape, CircleShape>;

enum class ShapeKind : std::uint8_t { Circle = 0, Polygon = 1 };

struct BodyDef {
  Shape shape = BoxShape{};
  // For a box or circle, the centre of the shape; for a polygon, the point its vertices are
  // relative to. The body's reported position is its centre of mass.
  Vec2 center;
  float angle = 0.0f;
  Vec2 velocity;                  // of the centre of mass, m/s
  float angular_velocity = 0.0f;  // rad/s
  Material material;
  bool is_static = false;
  // Kinematic: infinite mass, moves only by its own velocity and angular velocity (motors,
  // conveyor platforms); pushes dynamic bodies, is never pushed. Not with is_static.
  bool is_kinematic = false;
  float gravity_scale = 1.0f;
  float linear_drag = 0.0f;   // 1/s: velocity decays as exp(-drag t)
  float angular_drag = 0.0f;  // 1/s: angular velocity decays as exp(-angular_drag t)
  // The body never turns (infinite inertia); rigid bodies only. Its angular velocity is 0.
  bool fixed_rotation = false;
  std::uint32_t category = 1;
  std::uint32_t mask = 0xFFFFFFFFu;
  bool bullet = false;  // extra continuous collision care for very fast small bodies
  // 0 = rigid. > 0: soft polygon, its struts have this XPBD compliance (m/N). Polygons only.
  float soft = 0.0f;
  // false: the body never falls asleep, nor does its island (a player, a sensor-like body).
  bool enable_sleep = true;
  // The embedding program's own value (an index, a handle, or a pointer stored with
  // reinterpret_cast<std::uintptr_t>): strut only stores it. World::user_data reads it.
  std::uint64_t user_data = 0;
};

enum class BodyType : std::uint8_t { Static = 0, Kinematic = 1, Dynamic = 2 };

// Checks a body definition without creating anything. Throws strut::Error whose message starts
// with the offending field, e.g. "shape.vertices: polygon is not convex at vertex 2" or
// "material.density: 0 on a dynamic body". World::create_body prefixes it with the call.
void validate_body_def(const BodyDef& def);

}  // namespace strut
