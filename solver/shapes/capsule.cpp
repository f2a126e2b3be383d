// Capsules and segments. Both are two vertices with a radius around them; a segment's radius is
// 0, so it has no area and no mass (static and kinematic bodies only) but its own rules:
// distinct end points anywhere in the body's frame, rather than a half-length and a radius.
#include <cmath>

#include "solver/shapes/shape_checks.hpp"
#include "solver/shapes/shape_kinds.hpp"
#include "strut/error.hpp"
#include "strut/limits.hpp"

namespace strut::shapes {

void validate_capsule(const CapsuleShape& s, const std::string& prefix) {
  check_finite(s.half_length, prefix + "half_length");
  if (s.half_length < 0.0f)
    throw Error(prefix + "half_length: must be >= 0, got " + number_text(s.half_length));
  check_at_most(s.half_length, limits::kMaxSize, prefix + "half_length", "m");
  check_finite(s.radius, prefix + "radius");
  if (!(s.radius > 0.0f)) throw Error(prefix + "radius: must be > 0, got " + number_text(s.radius));
  check_size(s.radius, prefix + "radius");
}

void validate_segment(const SegmentShape& s, const std::string& prefix) {
  check_extent(s.a, prefix + "a");
  check_extent(s.b, prefix + "b");
  if (!(length(s.b - s.a) >= limits::kMinSize))
    throw Error(prefix + "b: the segment's points must be at least " +
                number_text(limits::kMinSize) + " m apart (strut/limits.hpp), got " +
                number_text(length(s.b - s.a)) + " m");
}

// A capsule of half-length 0 is a disc: it becomes a circle collider, since a two-vertex core
// of zero length has no edge direction for the narrow phase to work with.
LocalCollider capsule_collider(const CapsuleShape& s, const Placement& at) {
  if (s.half_length == 0.0f) return circle_collider(CircleShape{s.radius}, at);
  LocalCollider c;
  c.kind = collide::ColliderKind::Capsule;
  c.count = 2;
  c.radius = s.radius;
  c.vertices[0] = at.apply({-s.half_length, 0.0f});
  c.vertices[1] = at.apply({s.half_length, 0.0f});
  return c;
}

LocalCollider segment_collider(const SegmentShape& s, const Placement& at) {
  LocalCollider c;
  c.kind = collide::ColliderKind::Capsule;
  c.count = 2;
  c.radius = 0.0f;
  c.vertices[0] = at.apply(s.a);
  c.vertices[1] = at.apply(s.b);
  return c;
}

// A capsule of core length L and radius r is a 2r x L rectangle plus two half discs. Each half
// disc (mass m_h = rho pi r^2 / 2) has its centroid c = 4r / (3 pi) beyond the rectangle's end,
// which lies L/2 from the centre; its inertia about its own centroid is m_h (r^2/2 - c^2), so
// about the capsule's centre it is m_h (r^2/2 - c^2 + (L/2 + c)^2) = m_h (r^2/2 + L^2/4 + L c).
// A segment (r = 0) comes out with zero mass and inertia.
MassData capsule_mass(const LocalCollider& c, float density) {
  const double r = c.radius;
  const Vec2 a = c.vertices[0], b = c.vertices[1];
  const double len = std::hypot(double(b.x) - a.x, double(b.y) - a.y);
  const double rect_mass = density * 2.0 * r * len;
  const double rect_inertia = rect_mass * (len * len + 4.0 * r * r) / 12.0;
  const double half_mass = density * M_PI * r * r / 2.0;
  const double cap_offset = 4.0 * r / (3.0 * M_PI);
  const double caps_inertia = 2.0 * half_mass * (r * r / 2.0 + len * len / 4.0 + len * cap_offset);
  MassData m;
  m.mass = float(rect_mass + 2.0 * half_mass);
  m.center = {float(0.5 * (double(a.x) + b.x)), float(0.5 * (double(a.y) + b.y))};
  m.inertia = float(rect_inertia + caps_inertia);
  return m;
}

bool capsule_contains(const collide::ShapeView& s, Vec2 p) { return rounded_contains(s, p); }

std::optional<RayResult> capsule_ray_cast(const collide::ShapeView& s, Vec2 from, Vec2 to) {
  return rounded_ray_cast(s, from, to);
}

}  // namespace strut::shapes
