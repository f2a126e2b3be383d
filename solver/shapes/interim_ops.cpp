// INTERIM (deleted when the per-kind files land): boxes, polygons and circles only.
#include <cmath>

#include "solver/collide/shape_queries.hpp"
#include "solver/polygon_geometry.hpp"
#include "solver/shapes/shape_ops.hpp"

namespace strut {
ShapeKind kind_of(const Shape& shape) {
  if (std::holds_alternative<CircleShape>(shape)) return ShapeKind::Circle;
  if (std::holds_alternative<CapsuleShape>(shape)) return ShapeKind::Capsule;
  if (std::holds_alternative<SegmentShape>(shape)) return ShapeKind::Segment;
  if (std::holds_alternative<ChainShape>(shape)) return ShapeKind::Chain;
  return ShapeKind::Polygon;
}
}  // namespace strut

namespace strut::shapes {

void validate(const ShapeDef&, bool, bool) {}

std::vector<LocalCollider> make_colliders(const ShapeDef& def) {
  const Rot r = make_rot(def.angle);
  LocalCollider c;
  if (const auto* circle = std::get_if<CircleShape>(&def.shape)) {
    c.kind = collide::ColliderKind::Circle;
    c.count = 1;
    c.radius = circle->radius;
    c.vertices[0] = def.offset;
    return {c};
  }
  std::vector<Vec2> v;
  if (const auto* box = std::get_if<BoxShape>(&def.shape)) {
    const Vec2 h = box->half_extents;
    v = {{-h.x, -h.y}, {h.x, -h.y}, {h.x, h.y}, {-h.x, h.y}};
  } else {
    v = make_convex_ccw(std::get<PolygonShape>(def.shape).vertices, "vertices");
  }
  c.kind = collide::ColliderKind::Polygon;
  c.count = int(v.size());
  for (int i = 0; i < c.count; ++i) c.vertices[i] = def.offset + rotate(r, v[std::size_t(i)]);
  return {c};
}

MassData mass_of(const LocalCollider& c, float density) {
  MassData m;
  if (c.kind == collide::ColliderKind::Circle) {
    m.mass = density * float(M_PI) * c.radius * c.radius;
    m.center = c.vertices[0];
    m.inertia = 0.5f * m.mass * c.radius * c.radius;
    return m;
  }
  const PolygonMass pm = polygon_mass(std::span<const Vec2>(c.vertices, std::size_t(c.count)));
  m.mass = density * pm.area;
  m.center = pm.centroid;
  m.inertia = density * pm.inertia;
  return m;
}

MassData combine(const std::vector<MassData>& parts) {
  if (parts.size() == 1) return parts[0];
  MassData out;
  Vec2 moment;
  for (const MassData& p : parts) out.mass += p.mass, moment += p.mass * p.center;
  if (out.mass > 0) out.center = (1.0f / out.mass) * moment;
  for (const MassData& p : parts) {
    const Vec2 d = p.center - out.center;
    out.inertia += p.inertia + p.mass * dot(d, d);
  }
  return out;
}

bool contains(const collide::ShapeView& s, Vec2 point) {
  if (s.kind == collide::ColliderKind::Circle)
    return collide::circle_contains({{s.x[0], s.y[0]}, s.radius}, point);
  return collide::polygon_contains({s.x, s.y, s.count, 0}, point);
}

std::optional<RayResult> ray_cast(const collide::ShapeView& s, Vec2 from, Vec2 to) {
  std::optional<collide::RayResult> r =
      s.kind == collide::ColliderKind::Circle
          ? collide::ray_cast_circle({{s.x[0], s.y[0]}, s.radius}, from, to)
          : collide::ray_cast_polygon({s.x, s.y, s.count, 0}, from, to);
  if (!r) return std::nullopt;
  return RayResult{r->fraction, r->normal};
}

}  // namespace strut::shapes
