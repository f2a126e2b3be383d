#include "solver/query/shape_cast.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace strut {
namespace {

constexpr int kMaxHull = kMaxPolygonVertices * kMaxPolygonVertices;

Vec2 vertex_of(const collide::ShapeView& s, int i) { return {s.x[i], s.y[i]}; }

// v / |v| for a nonzero v, scaled by its largest component first so that |v|^2 cannot underflow:
// fuzz_api found a hull edge 6e-22 m long (the ends of a capsule turned by 1e-25 rad) whose
// squared length was subnormal, and a cast normal of length 1.001.
Vec2 direction_of(Vec2 v) {
  const float m = std::max(std::fabs(v.x), std::fabs(v.y));
  const Vec2 u{v.x / m, v.y / m};
  return (1.0f / length(u)) * u;
}

// Convex hull of pts[0 .. n) by Andrew's monotone chain, counter-clockwise, without collinear
// points, written over pts; returns its size (1 when every point is the same, 2 on a line).
int convex_hull(Vec2* pts, int n) {
  std::sort(pts, pts + n, [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  n = int(std::unique(pts, pts + n) - pts);
  if (n < 3) return n;
  Vec2 hull[2 * kMaxHull];
  int k = 0;
  for (int pass = 0; pass < 2; ++pass) {
    const int floor = k;  // the lower chain's points stay when the upper one is built
    for (int i = 0; i < n; ++i) {
      const Vec2 p = pass == 0 ? pts[i] : pts[n - 1 - i];
      while (k >= floor + 2 && cross(hull[k - 1] - hull[k - 2], p - hull[k - 2]) <= 0) --k;
      hull[k++] = p;
    }
    --k;  // each chain's last point starts the other
  }
  std::copy(hull, hull + k, pts);
  return std::max(k, 2);  // every point on one line: the two ends
}

// Outward normal of edge e (vertex e to e + 1) of a counter-clockwise hull: the clockwise
// perpendicular. A two-point hull has edge 0 facing right of p0 -> p1 and edge 1 facing left.
Vec2 edge_normal(const Vec2* k, int n, int e) {
  const Vec2 d = k[e + 1 == n ? 0 : e + 1] - k[e];
  return direction_of({d.y, -d.x});
}

struct Gap {
  float distance;  // from the hull's boundary to the origin, negative inside
  Vec2 normal;     // outward, towards the origin
};

// The origin's signed distance to the hull and the direction it lies in.
Gap gap_of_origin(const Vec2* k, int n) {
  if (n >= 3) {
    Gap inside{-std::numeric_limits<float>::infinity(), {0, 1}};
    for (int e = 0; e < n; ++e) {
      const Vec2 normal = edge_normal(k, n, e);
      const float d = -dot(normal, k[e]);
      if (d > inside.distance) inside = {d, normal};
    }
    if (inside.distance <= 0) return inside;  // the deepest face is the way out
  }
  Gap best{std::numeric_limits<float>::infinity(), {0, 1}};
  const int edges = n == 1 ? 1 : n;
  for (int e = 0; e < edges; ++e) {
    const Vec2 a = k[e], b = k[n == 1 ? 0 : (e + 1) % n];
    const Vec2 ab = b - a;
    const float len2 = dot(ab, ab);
    const float t = len2 > 0 ? std::clamp(-dot(a, ab) / len2, 0.0f, 1.0f) : 0.0f;
    const Vec2 away = -(a + t * ab);
    const float d = length(away);
    const bool apart = away.x != 0 || away.y != 0;  // d may underflow to 0 when they are not
    if (d < best.distance)
      best = {d, apart ? direction_of(away) : (n >= 2 ? edge_normal(k, n, e) : Vec2{0, 1})};
  }
  return best;
}

struct Hit {
  float t = std::numeric_limits<float>::infinity();
  Vec2 normal;
};

// First t in [0, 1] at which t d enters the hull rounded by r (the origin outside it).
Hit ray_cast_rounded(const Vec2* k, int n, float r, Vec2 d) {
  Hit hit;
  if (n >= 2) {
    for (int e = 0; e < n; ++e) {
      const Vec2 normal = edge_normal(k, n, e);
      const float approach = dot(normal, d);
      if (approach >= 0) continue;  // leaving or along this face
      const Vec2 a = k[e] + r * normal, b = k[e + 1 == n ? 0 : e + 1] + r * normal;
      const float t = dot(normal, a) / approach;
      if (!(t >= 0 && t < hit.t && t <= 1)) continue;
      const Vec2 along = b - a;
      const float u = dot(t * d - a, along);
      if (u >= 0 && u <= dot(along, along)) hit = {t, normal};
    }
  }
  if (r > 0) {
    // |t d - v| = r: the rounded corners (a circle for a one-point hull).
    const float dd = dot(d, d);
    for (int i = 0; i < n && dd > 0; ++i) {
      const float half_b = -dot(d, k[i]), c = dot(k[i], k[i]) - r * r;
      const float disc = half_b * half_b - dd * c;
      if (disc < 0) continue;
      const float t = (-half_b - std::sqrt(disc)) / dd;
      if (!(t >= 0 && t < hit.t && t <= 1)) continue;
      hit = {t, direction_of(t * d - k[i])};
    }
  }
  return hit;
}

// Where two shapes touch along `normal` (target's outward normal): the middle of the overlap of
// their supporting features along the tangent, on the target's surface.
Vec2 touch_point(const collide::ShapeView& moving, Vec2 offset, const collide::ShapeView& target,
                 Vec2 normal) {
  const Vec2 tangent = perp(normal);
  auto feature = [&](const collide::ShapeView& s, Vec2 shift, float sign, float& level) {
    float top = -std::numeric_limits<float>::infinity();
    for (int i = 0; i < s.count; ++i)
      top = std::max(top, sign * dot(vertex_of(s, i) + shift, normal));
    // Vertices within a hair of the support plane belong to the supporting feature.
    const float tolerance = 1e-4f * (1.0f + std::fabs(top));
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (int i = 0; i < s.count; ++i) {
      const Vec2 v = vertex_of(s, i) + shift;
      if (sign * dot(v, normal) < top - tolerance) continue;
      lo = std::min(lo, dot(v, tangent)), hi = std::max(hi, dot(v, tangent));
    }
    level = sign * top;
    return std::pair{lo, hi};
  };
  float level_target, level_moving;
  const auto [tl, th] = feature(target, {}, 1.0f, level_target);
  const auto [ml, mh] = feature(moving, offset, -1.0f, level_moving);
  const float middle = 0.5f * (std::max(tl, ml) + std::min(th, mh));
  return (level_target + target.radius) * normal + middle * tangent;
}

// The Minkowski difference target - moving without its rounding: the hull of every vertex
// difference, written to k; returns its size.
int difference_hull(const collide::ShapeView& moving, const collide::ShapeView& target, Vec2* k) {
  int n = 0;
  for (int j = 0; j < target.count; ++j)
    for (int i = 0; i < moving.count; ++i) k[n++] = vertex_of(target, j) - vertex_of(moving, i);
  return convex_hull(k, n);
}

}  // namespace

ColliderGap collider_gap(const collide::ShapeView& moving, const collide::ShapeView& target) {
  Vec2 k[kMaxHull];
  const int n = difference_hull(moving, target, k);
  const Gap gap = gap_of_origin(k, n);
  return {gap.distance - (moving.radius + target.radius),
          touch_point(moving, {}, target, gap.normal), gap.normal};
}

std::optional<CastResult> cast_collider(const collide::ShapeView& moving, Vec2 translation,
                                        const collide::ShapeView& target) {
  Vec2 k[kMaxHull];
  const int n = difference_hull(moving, target, k);
  const float r = moving.radius + target.radius;
  const Gap start = gap_of_origin(k, n);
  const float start_gap = start.distance - r;
  if (start_gap < 0 || (start_gap == 0 && dot(start.normal, translation) < 0))
    return CastResult{0.0f, touch_point(moving, {}, target, start.normal), start.normal};
  const Hit hit = ray_cast_rounded(k, n, r, translation);
  if (!(hit.t <= 1)) return std::nullopt;
  const Vec2 offset = hit.t * translation;
  return CastResult{hit.t, touch_point(moving, offset, target, hit.normal), hit.normal};
}

}  // namespace strut
