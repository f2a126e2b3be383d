// What the engine asks of a shape, by kind. A shape definition (strut/shape.hpp) becomes one or
// more colliders: convex pieces with vertices and a radius (a chain becomes one collider per
// link). Each kind's file in this folder supplies its validation, its colliders, their mass and
// the queries; collision functions are registered by pair of kinds in collide_table.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "solver/collide/manifold.hpp"
#include "strut/shape.hpp"

namespace strut::shapes {

// One collider in its body's frame (the body's origin, not its centre of mass): `count` vertices
// (a circle 1, its centre; a capsule, segment or chain link 2; a polygon 3..16,
// counter-clockwise) and the radius around them.
struct LocalCollider {
  collide::ColliderKind kind = collide::ColliderKind::Polygon;
  int count = 0;
  float radius = 0.0f;
  Vec2 vertices[kMaxPolygonVertices];
  // Chain links: the chain's points before vertex 0 and after vertex 1, in the body's frame.
  Vec2 ghost_prev, ghost_next;
  bool has_prev = false, has_next = false;
};

struct MassData {
  float mass = 0.0f;
  Vec2 center;           // centre of mass, body frame
  float inertia = 0.0f;  // rotational inertia about `center`
};

// Throws strut::Error "shape.<field>: <problem>" for a definition the engine cannot simulate
// (see validate_shape_def in strut/shape.hpp).
void validate(const ShapeDef& def, bool dynamic_body, bool static_body);
// The shape's own fields only, each message "<prefix><field>: <problem>" (prefix "" for a body's
// own shape, whose messages name the bare field).
void validate_fields(const Shape& shape, const std::string& prefix);
// Area of a valid shape (0 for segments and chains), in double so that a mass check sees
// underflow and overflow rather than suffering them.
double area_of(const Shape& shape);
// The field that sets the shape's size ("radius", "half_extents", ...), for messages.
const char* size_field_of(const Shape& shape);
// A box or polygon with a radius.
bool is_rounded(const Shape& shape);
// The colliders of a valid definition, placed by its offset and angle.
std::vector<LocalCollider> make_colliders(const ShapeDef& def);
// Mass properties of one collider of uniform density (segments and chain links: zero).
MassData mass_of(const LocalCollider& collider, float density);
// Sum of several (parallel-axis theorem): the body's mass data from its colliders'.
MassData combine(const std::vector<MassData>& parts);

// Queries on a collider in world space (collide::ShapeView). Points on the boundary count as
// inside; a ray starting strictly inside reports no hit; a zero-length ray never hits.
bool contains(const collide::ShapeView& shape, Vec2 point);
struct RayResult {
  float fraction;  // in [0, 1]: the hit point is from + fraction * (to - from)
  Vec2 normal;     // unit outward normal at the hit point
};
std::optional<RayResult> ray_cast(const collide::ShapeView& shape, Vec2 from, Vec2 to);
// The point of the collider's core (its vertices' hull, without the radius) nearest `point`:
// `point` itself inside a polygon's core (rounded_queries.cpp).
Vec2 nearest_core_point(const collide::ShapeView& shape, Vec2 point);

}  // namespace strut::shapes
