// Point test and ray cast against a vertex set grown by a radius (circle, capsule, segment,
// rounded polygon): the surface is every point at distance `radius` from the core (the vertex,
// the segment or the polygon), so both reduce to distances to the core's edges and vertices.
#include <algorithm>
#include <cmath>

#include "solver/collide/shape_queries.hpp"
#include "solver/shapes/shape_kinds.hpp"

namespace strut::shapes {
namespace {

Vec2 at(const collide::ShapeView& s, int i) { return {s.x[i], s.y[i]}; }

// Distance from p to the core: 0 inside a polygon core.
float core_distance(const collide::ShapeView& s, Vec2 p) {
  return length(p - nearest_core_point(s, p));
}

}  // namespace

Vec2 point_segment_nearest(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 ab = b - a;
  const float ll = dot(ab, ab);
  float t = ll > 0.0f ? dot(p - a, ab) / ll : 0.0f;
  t = std::clamp(t, 0.0f, 1.0f);
  return a + t * ab;
}

Vec2 nearest_core_point(const collide::ShapeView& s, Vec2 p) {
  if (s.count == 1) return at(s, 0);
  if (s.count == 2) return point_segment_nearest(p, at(s, 0), at(s, 1));
  if (collide::polygon_contains({s.x, s.y, s.count, 0}, p)) return p;
  Vec2 best = at(s, 0);
  float best_distance = INFINITY;
  for (int e = 0; e < s.count; ++e) {
    const Vec2 q = point_segment_nearest(p, at(s, e), at(s, (e + 1) % s.count));
    const float d = length(p - q);
    if (d < best_distance) best = q, best_distance = d;
  }
  return best;
}

float point_segment_distance(Vec2 p, Vec2 a, Vec2 b) {
  return length(p - point_segment_nearest(p, a, b));
}

bool rounded_contains(const collide::ShapeView& s, Vec2 p) {
  return core_distance(s, p) <= s.radius;
}

// The surface is made of each edge moved out by r along its normal (only entered from the
// normal's side) and the disc of radius r around each vertex; the first entry over all of them
// is the hit. For a two-vertex core, edges 0 and 1 are the segment's two sides.
std::optional<RayResult> rounded_ray_cast(const collide::ShapeView& s, Vec2 from, Vec2 to) {
  const Vec2 d = to - from;
  if (d.x == 0.0f && d.y == 0.0f) return std::nullopt;
  const float r = s.radius;
  if (core_distance(s, from) < r) return std::nullopt;  // starts strictly inside
  std::optional<RayResult> best;
  const int edges = s.count == 1 ? 0 : s.count;
  for (int e = 0; e < edges; ++e) {
    const Vec2 v0 = at(s, e), v1 = at(s, (e + 1) % s.count);
    const Vec2 along = v1 - v0;
    const float len = length(along);
    if (len == 0.0f) continue;
    const Vec2 n = {along.y / len, -along.x / len};
    const float denominator = dot(n, d);
    if (!(denominator < 0.0f)) continue;  // leaving or parallel: not an entry through this side
    const Vec2 p0 = v0 + r * n;
    const float t = dot(n, p0 - from) / denominator;
    if (t < 0.0f || t > 1.0f || (best && t >= best->fraction)) continue;
    const float u = dot(from + t * d - p0, along) / len;
    if (u < 0.0f || u > len) continue;
    best = RayResult{t, n};
  }
  if (r > 0.0f) {
    for (int i = 0; i < s.count; ++i) {
      const auto hit = collide::ray_cast_circle({at(s, i), r}, from, to);
      if (hit && (!best || hit->fraction < best->fraction))
        best = RayResult{hit->fraction, hit->normal};
    }
  }
  return best;
}

}  // namespace strut::shapes
