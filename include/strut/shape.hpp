// Shapes: what a body is made of. A body has one shape (BodyDef::shape) or several
// (BodyDef::shapes, a compound body); World::add_shape and World::remove_shape change them later.
// Sizes obey strut/limits.hpp; bad definitions are rejected with strut::Error naming the field.
#pragma once

#include <cstdint>
#include <span>
#include <variant>
#include <vector>

#include "strut/ids.hpp"
#include "strut/material.hpp"
#include "strut/math.hpp"

namespace strut {

inline constexpr int kMaxPolygonVertices = 16;
inline constexpr int kMaxShapesPerBody = 64;  // in scene files; the C++ API allows as many
inline constexpr int kMaxChainPoints = 100000;
inline constexpr int kMaxConcaveVertices = 1024;  // of an outline for decompose_polygon

// A box centred on the shape's origin; `radius` > 0 rounds it (its Minkowski sum with a disc),
// so a box of half-extent h and radius r rests at height h + r.
struct BoxShape {
  Vec2 half_extents{0.5f, 0.5f};
  float radius = 0.0f;
};
// Convex polygon, vertices relative to the shape's origin, either winding, 3 to 16 of them;
// `radius` rounds it as for a box.
struct PolygonShape {
  std::vector<Vec2> vertices;
  float radius = 0.0f;
};
struct CircleShape {
  float radius = 0.5f;
};
// The segment from (-half_length, 0) to (half_length, 0) thickened by `radius`.
struct CapsuleShape {
  float half_length = 0.5f;
  float radius = 0.25f;
};
// A line segment with no thickness: static and kinematic bodies only (it has no area).
struct SegmentShape {
  Vec2 a{-0.5f, 0.0f};
  Vec2 b{0.5f, 0.0f};
};
// A polyline of 2 to kMaxChainPoints points (3 or more with `loop`, which joins the last point
// to the first), on static bodies only. It collides from both sides, and a body sliding along it
// crosses its inner points as smoothly as it would slide along one long segment.
struct ChainShape {
  std::vector<Vec2> points;
  bool loop = false;
};
using Shape =
    std::variant<BoxShape, PolygonShape, CircleShape, CapsuleShape, SegmentShape, ChainShape>;

enum class ShapeKind : std::uint8_t {
  Circle = 0,
  Polygon = 1,  // boxes too
  Capsule = 2,
  Segment = 3,
  Chain = 4,
};
ShapeKind kind_of(const Shape& shape);

// Which shapes collide: two shapes with the same non-zero group always collide when it is
// positive and never when it is negative; otherwise both (category & other's mask) must be
// non-zero.
struct ShapeFilter {
  std::uint32_t category = 1;
  std::uint32_t mask = 0xFFFFFFFFu;
  std::int32_t group = 0;
};
bool should_collide(const ShapeFilter& a, const ShapeFilter& b);

// One shape of a body: its geometry placed in the body's frame by `offset` and `angle`, its
// material, filter and sensor flag.
struct ShapeDef {
  Shape shape = BoxShape{};
  Vec2 offset;
  float angle = 0.0f;
  Material material;
  ShapeFilter filter;
  // A sensor reports shapes entering and leaving it (World::sensor_begin_events) and never
  // pushes or is pushed. It detects every non-sensor shape of another body that its filter lets
  // it collide with, static ones included (a sensor on a static body: moving ones only); leave
  // the static shapes out through the filter where they are not wanted.
  bool sensor = false;
  // Surface speed (Box2D v3's b2SurfaceMaterial::tangentSpeed, Chipmunk's surface velocity), m/s:
  // the surface runs along itself clockwise round the shape (on top of a floor towards +x;
  // negative: the other way), and friction drives what touches it towards that speed relative to
  // the shape, as a conveyor belt does. A touching pair's speeds add. |tangent_speed| obeys
  // limits::kMaxSpeed.
  float tangent_speed = 0.0f;
  // Rolling resistance (b2SurfaceMaterial::rollingResistance), >= 0: a torque against the two
  // bodies' relative turning, at most rolling_resistance x normal force x radius, the radius
  // being the larger rounding of the pair (a circle's or capsule's radius; 0 for sharp boxes), so
  // a ball rolling on the ground slows down and stops. A pair takes the larger coefficient.
  // Both surface fields act between rigid bodies; pairs touching a soft body ignore them.
  float rolling_resistance = 0.0f;
  // Contact callbacks (strut/contact_callbacks.hpp), asked only about shapes that set these:
  // custom_filter, whether a new pair of this shape and another may collide at all
  // (World::set_custom_filter); pre_solve, whether each of its contacts acts this step, after
  // the narrow phase and before the solver (World::set_pre_solve), as one-way platforms need.
  bool custom_filter = false;
  bool pre_solve = false;
  std::uint64_t user_data = 0;  // the embedding program's own value; strut only stores it
};

// The convex hull of `points` (any number, any order, repeats and collinear points allowed) as
// a counter-clockwise PolygonShape rounded by `radius`: for concave outlines (their hull) and for
// outlines of more than kMaxPolygonVertices, where the vertices that lose the least area are
// dropped until 16 remain (a 40-gon circle keeps 96.8% of its area). Throws strut::Error naming
// the problem for non-finite points, points with no area, or a hull outside the size limits.
PolygonShape convex_hull(std::span<const Vec2> points, float radius = 0.0f);

// A simple polygon (its edges neither cross nor touch), concave or convex, of 3 to
// kMaxConcaveVertices vertices in either winding, as convex counter-clockwise pieces of 3 to
// kMaxPolygonVertices vertices that tile it exactly: every piece's vertices are outline points,
// neighbouring pieces share whole edges, and the pieces' areas add up to the polygon's. Points
// repeated (within 2e-6 of the outline's size) and points where the outline runs straight on
// (turn sine within 1e-5) are dropped first. The pieces depend on the outline only, not on its
// winding or first vertex. They are sharp (radius 0): rounded, they would bulge along the cuts.
// Throws strut::Error "decompose_polygon: vertices...: <problem>" for fewer than 3 or more than
// kMaxConcaveVertices vertices, a point that is not finite or beyond limits::kMaxSize, crossing or
// touching edges (naming them), no area, or a piece below limits::kMinSize (a detail of the
// outline finer than a millimetre).
std::vector<PolygonShape> decompose_polygon(std::span<const Vec2> vertices);
// The pieces of decompose_polygon(vertices) as shapes of one body: each a copy of `like`
// (placement, material, filter, sensor, surface fields; its `shape` is replaced by the piece).
// BodyDef::shapes = concave_polygon_shapes(outline) makes a concave body, whose mass, centre of
// mass and inertia are the outline's.
std::vector<ShapeDef> concave_polygon_shapes(std::span<const Vec2> vertices,
                                             const ShapeDef& like = {});

// Checks a shape definition without creating anything. Throws strut::Error whose message starts
// with the offending field, e.g. "shape.radius: must be > 0" or "shape.points[3]: equal to its
// neighbour". On a dynamic body (`dynamic_body`) segments and chains are rejected: they have
// no area, so no mass; chains need a static body (`static_body`).
void validate_shape_def(const ShapeDef& def, bool dynamic_body, bool static_body);

// A sensor saw a visitor shape begin or stop overlapping it.
struct SensorEvent {
  ShapeId sensor;
  ShapeId visitor;
  BodyId sensor_body;
  BodyId visitor_body;
};

}  // namespace strut
