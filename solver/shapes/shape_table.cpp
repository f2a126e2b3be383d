// The per-kind dispatch: one row per shape kind for validation and colliders (by the
// definition's variant), one row per collider kind for mass and the queries. Adding a kind adds
// its file and a row here.
#include <cmath>
#include <type_traits>

#include "solver/shapes/polygon_geometry.hpp"
#include "solver/shapes/shape_checks.hpp"
#include "solver/shapes/shape_kinds.hpp"
#include "strut/error.hpp"
#include "strut/limits.hpp"

namespace strut {

ShapeKind kind_of(const Shape& shape) {
  return std::visit(
      [](const auto& s) {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, CircleShape>) return ShapeKind::Circle;
        if constexpr (std::is_same_v<T, BoxShape> || std::is_same_v<T, PolygonShape>)
          return ShapeKind::Polygon;
        if constexpr (std::is_same_v<T, CapsuleShape>) return ShapeKind::Capsule;
        if constexpr (std::is_same_v<T, SegmentShape>) return ShapeKind::Segment;
        if constexpr (std::is_same_v<T, ChainShape>) return ShapeKind::Chain;
      },
      shape);
}

bool should_collide(const ShapeFilter& a, const ShapeFilter& b) {
  if (a.group != 0 && a.group == b.group) return a.group > 0;
  return (a.category & b.mask) != 0 && (b.category & a.mask) != 0;
}

void validate_shape_def(const ShapeDef& def, bool dynamic_body, bool static_body) {
  shapes::validate(def, dynamic_body, static_body);
}

namespace shapes {

Placement placement_of(const ShapeDef& def) {
  Placement p;
  p.identity = def.offset == Vec2{} && def.angle == 0.0f;
  p.offset = def.offset;
  p.rot = make_rot(def.angle);
  return p;
}

void validate(const ShapeDef& def, bool dynamic_body, bool static_body) {
  check_coordinate(def.offset, "offset");
  check_finite(def.angle, "angle");
  validate_material(def.material, "material");
  check_finite(def.tangent_speed, "tangent_speed");
  check_at_most(def.tangent_speed, limits::kMaxSpeed, "tangent_speed", "m/s");
  check_finite(def.rolling_resistance, "rolling_resistance");
  if (def.rolling_resistance < 0)
    throw Error("rolling_resistance: must not be negative, got " +
                number_text(def.rolling_resistance));
  validate_fields(def.shape, "shape.");
  const ShapeKind kind = kind_of(def.shape);
  if (dynamic_body && kind == ShapeKind::Segment)
    throw Error("shape: a segment has no area, so no mass: it needs a static or kinematic body");
  if (kind == ShapeKind::Chain && !static_body) throw Error("shape: a chain needs a static body");
}

void validate_fields(const Shape& shape, const std::string& prefix) {
  std::visit(
      [&](const auto& s) {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, CircleShape>) validate_circle(s, prefix);
        if constexpr (std::is_same_v<T, BoxShape>) validate_box(s, prefix);
        if constexpr (std::is_same_v<T, PolygonShape>) validate_polygon(s, prefix);
        if constexpr (std::is_same_v<T, CapsuleShape>) validate_capsule(s, prefix);
        if constexpr (std::is_same_v<T, SegmentShape>) validate_segment(s, prefix);
        if constexpr (std::is_same_v<T, ChainShape>) validate_chain(s, prefix);
      },
      shape);
}

// Radius-0 boxes, polygons and circles keep the float area the checks have always used, so their
// messages keep their numbers.
double area_of(const Shape& shape) {
  if (const auto* box = std::get_if<BoxShape>(&shape)) {
    if (box->radius == 0.0f) return 4.0f * box->half_extents.x * box->half_extents.y;
  } else if (const auto* poly = std::get_if<PolygonShape>(&shape)) {
    if (poly->radius == 0.0f) return polygon_mass(make_convex_ccw(poly->vertices, "vertices")).area;
  } else if (const auto* circle = std::get_if<CircleShape>(&shape)) {
    return float(M_PI) * circle->radius * circle->radius;
  } else if (const auto* capsule = std::get_if<CapsuleShape>(&shape)) {
    const double r = capsule->radius;
    return 4.0 * capsule->half_length * r + M_PI * r * r;
  } else {
    return 0.0;
  }
  ShapeDef def;
  def.shape = shape;
  return rounded_polygon_area(make_colliders(def)[0]);
}

const char* size_field_of(const Shape& shape) {
  switch (kind_of(shape)) {
    case ShapeKind::Circle:
      return "radius";
    case ShapeKind::Capsule:
      return "half_length";
    case ShapeKind::Segment:
      return "a";
    case ShapeKind::Chain:
      return "points";
    case ShapeKind::Polygon:
      break;
  }
  return std::holds_alternative<BoxShape>(shape) ? "half_extents" : "vertices";
}

bool is_rounded(const Shape& shape) {
  if (const auto* box = std::get_if<BoxShape>(&shape)) return box->radius != 0.0f;
  if (const auto* poly = std::get_if<PolygonShape>(&shape)) return poly->radius != 0.0f;
  return false;
}

std::vector<LocalCollider> make_colliders(const ShapeDef& def) {
  const Placement at = placement_of(def);
  std::vector<LocalCollider> out;
  std::visit(
      [&](const auto& s) {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, CircleShape>) out.push_back(circle_collider(s, at));
        if constexpr (std::is_same_v<T, BoxShape>) out.push_back(box_collider(s, at));
        if constexpr (std::is_same_v<T, PolygonShape>) out.push_back(polygon_collider(s, at));
        if constexpr (std::is_same_v<T, CapsuleShape>) out.push_back(capsule_collider(s, at));
        if constexpr (std::is_same_v<T, SegmentShape>) out.push_back(segment_collider(s, at));
        if constexpr (std::is_same_v<T, ChainShape>) chain_colliders(s, at, out);
      },
      def.shape);
  return out;
}

namespace {

MassData no_mass(const LocalCollider& c, float) {
  MassData m;
  m.center = c.count == 2 ? 0.5f * (c.vertices[0] + c.vertices[1]) : c.vertices[0];
  return m;
}

using MassFn = MassData (*)(const LocalCollider&, float);
using ContainsFn = bool (*)(const collide::ShapeView&, Vec2);
using RayFn = std::optional<RayResult> (*)(const collide::ShapeView&, Vec2, Vec2);

// Indexed by collide::ColliderKind: Circle, Polygon, Capsule (and segments), ChainSegment.
constexpr MassFn kMass[collide::kColliderKinds] = {circle_mass, polygon_mass_of, capsule_mass,
                                                   no_mass};
constexpr ContainsFn kContains[collide::kColliderKinds] = {circle_contains, polygon_contains_point,
                                                           capsule_contains, capsule_contains};
constexpr RayFn kRay[collide::kColliderKinds] = {circle_ray_cast, polygon_ray_cast,
                                                 capsule_ray_cast, capsule_ray_cast};

}  // namespace

MassData mass_of(const LocalCollider& c, float density) {
  return kMass[static_cast<int>(c.kind)](c, density);
}

// Parallel-axis theorem: each part's inertia about its own centre plus m d^2, d its distance
// from the combined centre. Massless parts (segments, chains) add nothing; a body of only
// those keeps zero mass with its centre at the first part's.
MassData combine(const std::vector<MassData>& parts) {
  MassData out;
  if (parts.empty()) return out;
  if (parts.size() == 1) return parts[0];
  double mass = 0, mx = 0, my = 0;
  for (const MassData& p : parts) {
    mass += p.mass;
    mx += double(p.mass) * p.center.x;
    my += double(p.mass) * p.center.y;
  }
  if (!(mass > 0)) {
    out.center = parts[0].center;
    return out;
  }
  const double cx = mx / mass, cy = my / mass;
  double inertia = 0;
  for (const MassData& p : parts) {
    const double dx = p.center.x - cx, dy = p.center.y - cy;
    inertia += p.inertia + p.mass * (dx * dx + dy * dy);
  }
  out.mass = float(mass);
  out.center = {float(cx), float(cy)};
  out.inertia = float(inertia);
  return out;
}

bool contains(const collide::ShapeView& shape, Vec2 point) {
  return kContains[static_cast<int>(shape.kind)](shape, point);
}

std::optional<RayResult> ray_cast(const collide::ShapeView& shape, Vec2 from, Vec2 to) {
  return kRay[static_cast<int>(shape.kind)](shape, from, to);
}

}  // namespace shapes
}  // namespace strut
