// Boxes and convex polygons, optionally rounded: the polygon's Minkowski sum with a disc of
// `radius`, so its surface lies `radius` outside the vertices and edges.
#include <cmath>
#include <span>

#include "solver/collide/shape_queries.hpp"
#include "solver/shapes/polygon_geometry.hpp"
#include "solver/shapes/shape_checks.hpp"
#include "solver/shapes/shape_kinds.hpp"
#include "strut/error.hpp"
#include "strut/limits.hpp"

namespace strut::shapes {
namespace {

void check_rounding(float radius, const std::string& prefix) {
  check_finite(radius, prefix + "radius");
  if (radius < 0.0f) throw Error(prefix + "radius: must be >= 0, got " + number_text(radius));
  check_at_most(radius, limits::kMaxSize, prefix + "radius", "m");
}

LocalCollider polygon_from(std::span<const Vec2> ccw, float radius, const Placement& at) {
  LocalCollider c;
  c.kind = collide::ColliderKind::Polygon;
  c.count = static_cast<int>(ccw.size());
  c.radius = radius;
  for (int i = 0; i < c.count; ++i) c.vertices[i] = at.apply(ccw[i]);
  return c;
}

// Area, first moment and polar second moment about the origin of a region, in double.
struct Moments {
  double area = 0, mx = 0, my = 0, polar = 0;
  void add(const Moments& o) { area += o.area, mx += o.mx, my += o.my, polar += o.polar; }
};

// Triangle fan from the origin over a counter-clockwise polygon: triangle (0, p, q) has area
// cross(p, q) / 2, first moment area (p + q) / 3 and polar moment area (p.p + p.q + q.q) / 6.
Moments polygon_moments(const Vec2* v, int n) {
  Moments m;
  for (int i = 0; i < n; ++i) {
    const double px = v[i].x, py = v[i].y;
    const double qx = v[(i + 1) % n].x, qy = v[(i + 1) % n].y;
    const double a = 0.5 * (px * qy - py * qx);
    m.area += a;
    m.mx += a * (px + qx) / 3.0;
    m.my += a * (py + qy) / 3.0;
    m.polar += a / 6.0 * (px * px + px * qx + qx * qx + py * py + py * qy + qy * qy);
  }
  return m;
}

// The rounded polygon is exactly: the core polygon, one rectangle of width r outside each edge,
// and at each vertex the disc sector between its two edges' normals (the sectors' angles add
// up to one full turn). A sector of angle t and radius r at apex v has area t r^2 / 2, its
// centroid 4 r sin(t/2) / (3 t) from v along the bisector, and polar moment area r^2 / 2 about v.
Moments rounded_moments(const LocalCollider& c) {
  const Vec2* v = c.vertices;
  const int n = c.count;
  const double r = c.radius;
  Moments total = polygon_moments(v, n);
  if (r == 0.0) return total;
  for (int e = 0; e < n; ++e) {
    const Vec2 p = v[e], q = v[(e + 1) % n];
    const double dx = double(q.x) - p.x, dy = double(q.y) - p.y;
    const double len = std::hypot(dx, dy);
    const double nx = dy / len, ny = -dx / len;  // outward: the polygon is counter-clockwise
    // A rectangle with corner p, sides len along the edge and r along the normal.
    Moments m;
    m.area = len * r;
    const double cx = p.x + 0.5 * dx + 0.5 * r * nx, cy = p.y + 0.5 * dy + 0.5 * r * ny;
    m.mx = m.area * cx;
    m.my = m.area * cy;
    m.polar = m.area * ((len * len + r * r) / 12.0 + cx * cx + cy * cy);
    total.add(m);
  }
  for (int i = 0; i < n; ++i) {
    const Vec2 p = v[(i + n - 1) % n], o = v[i], q = v[(i + 1) % n];
    const double ax = double(o.x) - p.x, ay = double(o.y) - p.y;
    const double bx = double(q.x) - o.x, by = double(q.y) - o.y;
    // Exterior angle between the incoming and outgoing edge directions.
    const double t = std::atan2(ax * by - ay * bx, ax * bx + ay * by);
    double ux = (ay / std::hypot(ax, ay)) + (by / std::hypot(bx, by));
    double uy = (-ax / std::hypot(ax, ay)) + (-bx / std::hypot(bx, by));
    const double ul = std::hypot(ux, uy);
    ux /= ul, uy /= ul;
    Moments m;
    m.area = 0.5 * t * r * r;
    const double d = t > 0.0 ? 4.0 * r * std::sin(0.5 * t) / (3.0 * t) : 0.0;
    const double cx = o.x + d * ux, cy = o.y + d * uy;
    m.mx = m.area * cx;
    m.my = m.area * cy;
    // About the origin: area |o|^2 + 2 o . (first moment about o) + polar moment about o.
    m.polar = m.area * (double(o.x) * o.x + double(o.y) * o.y +
                        2.0 * (o.x * d * ux + o.y * d * uy) + 0.5 * r * r);
    total.add(m);
  }
  return total;
}

}  // namespace

void validate_box(const BoxShape& s, const std::string& prefix) {
  check_size(s.half_extents.x, prefix + "half_extents.x");
  check_size(s.half_extents.y, prefix + "half_extents.y");
  check_rounding(s.radius, prefix);
}

void validate_polygon(const PolygonShape& s, const std::string& prefix) {
  const std::string field = prefix + "vertices";
  for (const Vec2 v : s.vertices)
    check_at_most(std::fmax(std::fabs(v.x), std::fabs(v.y)), limits::kMaxSize, field, "m");
  const float area = polygon_mass(make_convex_ccw(s.vertices, field.c_str())).area;
  if (!(std::sqrt(area) >= limits::kMinSize))
    throw Error(field + ": polygon of area " + number_text(area) + " m^2 is smaller than " +
                number_text(limits::kMinSize) + " m square (strut/limits.hpp)");
  check_rounding(s.radius, prefix);
}

LocalCollider box_collider(const BoxShape& s, const Placement& at) {
  const Vec2 h = s.half_extents;
  const Vec2 v[4] = {{-h.x, -h.y}, {h.x, -h.y}, {h.x, h.y}, {-h.x, h.y}};
  return polygon_from(v, s.radius, at);
}

LocalCollider polygon_collider(const PolygonShape& s, const Placement& at) {
  return polygon_from(make_convex_ccw(s.vertices, "vertices"), s.radius, at);
}

double rounded_polygon_area(const LocalCollider& c) { return rounded_moments(c).area; }

// Radius 0 uses the same float operations body storage has always used for polygons, so the
// world's state hashes survive the move to these functions.
MassData polygon_mass_of(const LocalCollider& c, float density) {
  MassData m;
  if (c.radius == 0.0f) {
    const PolygonMass pm = polygon_mass(std::span<const Vec2>(c.vertices, c.count));
    m.mass = density * pm.area;
    m.center = pm.centroid;
    m.inertia = density * pm.inertia;
    return m;
  }
  const Moments mo = rounded_moments(c);
  const double cx = mo.mx / mo.area, cy = mo.my / mo.area;
  m.mass = float(density * mo.area);
  m.center = {float(cx), float(cy)};
  m.inertia = float(density * (mo.polar - mo.area * (cx * cx + cy * cy)));
  return m;
}

bool polygon_contains_point(const collide::ShapeView& s, Vec2 p) {
  if (s.radius == 0.0f) return collide::polygon_contains({s.x, s.y, s.count, 0}, p);
  return rounded_contains(s, p);
}

std::optional<RayResult> polygon_ray_cast(const collide::ShapeView& s, Vec2 from, Vec2 to) {
  if (s.radius == 0.0f) {
    const auto hit = collide::ray_cast_polygon({s.x, s.y, s.count, 0}, from, to);
    if (!hit) return std::nullopt;
    return RayResult{hit->fraction, hit->normal};
  }
  return rounded_ray_cast(s, from, to);
}

}  // namespace strut::shapes
