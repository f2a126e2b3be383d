// Point containment and ray casts against one polygon or circle.
#include "solver/collide/shape_queries.hpp"

#include <cmath>

namespace strut::collide {

// Counter-clockwise polygon: the point is inside iff it is left of (or on) every edge,
// cross(v_{e+1} - v_e, p - v_e) >= 0.
bool polygon_contains(const PolygonView& polygon, Vec2 point) {
  for (int e = 0; e < polygon.count; ++e) {
    const int f = next_index(e, polygon.count);
    const Vec2 edge = vertex(polygon, f) - vertex(polygon, e);
    if (cross(edge, point - vertex(polygon, e)) < 0.0f) return false;
  }
  return true;
}

bool circle_contains(const CircleView& circle, Vec2 point) {
  const Vec2 d = point - circle.center;
  return dot(d, d) <= circle.radius * circle.radius;
}

// Cyrus-Beck: the polygon is the intersection of the half planes n_e . (p - v_e) <= 0. Along
// p(t) = from + t d, face e gives n_e . (v_e - from) >= t (n_e . d) =: numerator >= t denominator.
// A face with denominator < 0 is entered and raises the lower bound to numerator / denominator,
// one with denominator > 0 is exited and lowers the upper bound; a face parallel to the ray
// (denominator 0) with numerator < 0 has the whole ray outside. The hit is the last entry, if
// the interval [lower, upper] inside [0, 1] is not empty and some face did the entering; when
// none did (lower stays 0 from the start, strictly inside every entered face) the ray began inside.
std::optional<RayResult> ray_cast_polygon(const PolygonView& polygon, Vec2 from, Vec2 to) {
  const Vec2 d = to - from;
  float lower = 0.0f;
  float upper = 1.0f;
  int entry = -1;
  for (int e = 0; e < polygon.count; ++e) {
    const Vec2 n = edge_normal(polygon, e);
    const float numerator = dot(n, vertex(polygon, e) - from);
    const float denominator = dot(n, d);
    if (denominator == 0.0f) {
      if (numerator < 0.0f) return std::nullopt;
      continue;
    }
    // The comparisons avoid dividing before we know the bound moves (numerator / denominator
    // with denominator < 0 is >= lower iff numerator <= lower * denominator). `<=` lets a ray
    // starting on the face (numerator 0) enter it at fraction 0.
    if (denominator < 0.0f && numerator <= lower * denominator) {
      lower = numerator / denominator;
      entry = e;
    } else if (denominator > 0.0f && numerator < upper * denominator) {
      upper = numerator / denominator;
    }
    if (upper < lower) return std::nullopt;
  }
  if (entry < 0) return std::nullopt;
  // A start on the entered face gives 0 / negative = -0; report +0.
  return RayResult{lower == 0.0f ? 0.0f : lower, edge_normal(polygon, entry)};
}

// With u = d / |d| and m = from - c, the closest approach to the centre is at distance
// tc = -m . u along the ray, where the offset from the centre is h = m + tc u. The ray meets the
// circle iff |h| <= r, first at tc - sqrt(r^2 - |h|^2). Computing h explicitly (rather than
// solving the quadratic in t) keeps precision when the ray starts far from a small circle.
std::optional<RayResult> ray_cast_circle(const CircleView& circle, Vec2 from, Vec2 to) {
  const Vec2 d = to - from;
  const float len = length(d);
  if (len == 0.0f) return std::nullopt;
  const Vec2 u = {d.x / len, d.y / len};
  const Vec2 m = from - circle.center;
  const float r2 = circle.radius * circle.radius;
  if (dot(m, m) < r2) return std::nullopt;  // starts strictly inside
  const float tc = -dot(m, u);
  if (tc < 0.0f) return std::nullopt;  // heading away from a circle it is not inside
  const Vec2 h = m + tc * u;
  const float h2 = dot(h, h);
  if (h2 > r2) return std::nullopt;
  // Starting outside, tc - half >= 0 up to rounding; clamp so the fraction stays in [0, 1].
  const float t = std::fmax(tc - std::sqrt(r2 - h2), 0.0f);
  if (t > len) return std::nullopt;
  const Vec2 p = m + t * u;  // hit point relative to the centre
  const float pl = length(p);
  const Vec2 normal = pl > 0.0f ? Vec2{p.x / pl, p.y / pl} : Vec2{-u.x, -u.y};
  return RayResult{std::fmin(t / len, 1.0f), normal};
}

}  // namespace strut::collide
