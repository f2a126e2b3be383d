// Circles: one vertex (the centre) and a radius.
#include <cmath>

#include "solver/collide/shape_queries.hpp"
#include "solver/shapes/shape_checks.hpp"
#include "solver/shapes/shape_kinds.hpp"

namespace strut::shapes {

void validate_circle(const CircleShape& s, const std::string& prefix) {
  check_size(s.radius, prefix + "radius");
}

LocalCollider circle_collider(const CircleShape& s, const Placement& at) {
  LocalCollider c;
  c.kind = collide::ColliderKind::Circle;
  c.count = 1;
  c.radius = s.radius;
  c.vertices[0] = at.apply({0.0f, 0.0f});
  return c;
}

// The same float operations body storage has always used for a circle, so a world that moves
// to these functions keeps its state hashes: m = rho pi r^2, I = m r^2 / 2.
MassData circle_mass(const LocalCollider& c, float density) {
  MassData m;
  m.mass = density * float(M_PI) * c.radius * c.radius;
  m.center = c.vertices[0];
  m.inertia = 0.5f * m.mass * c.radius * c.radius;
  return m;
}

bool circle_contains(const collide::ShapeView& s, Vec2 p) {
  return collide::circle_contains({{s.x[0], s.y[0]}, s.radius}, p);
}

std::optional<RayResult> circle_ray_cast(const collide::ShapeView& s, Vec2 from, Vec2 to) {
  const auto hit = collide::ray_cast_circle({{s.x[0], s.y[0]}, s.radius}, from, to);
  if (!hit) return std::nullopt;
  return RayResult{hit->fraction, hit->normal};
}

}  // namespace strut::shapes
