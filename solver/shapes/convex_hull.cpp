// convex_hull (strut/shape.hpp): the convex hull of a point cloud as a PolygonShape, for outlines
// that are concave or have more vertices than a polygon may. Andrew's monotone chain in double:
// sort by x then y, build the lower and upper chains, dropping points that do not turn left by
// more than a sliver (collinear and near-duplicate points). Then, while there are more than
// kMaxPolygonVertices, the vertex whose removal loses the least area goes: the result stays
// convex and inside the hull; a 40-gon circle keeps 96.8% of its area at 16 vertices (a regular
// 16-gon in the same circle would keep 97.9%).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "strut/error.hpp"
#include "strut/limits.hpp"
#include "strut/shape.hpp"

namespace strut {
namespace {

struct P {
  double x, y;
};

double cross(const P& o, const P& a, const P& b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

// Area lost by removing vertex i of the counter-clockwise hull h: the triangle it makes with its
// neighbours.
double removal_cost(const std::vector<P>& h, std::size_t i) {
  const std::size_t n = h.size();
  return 0.5 * cross(h[(i + n - 1) % n], h[i], h[(i + 1) % n]);
}

}  // namespace

PolygonShape convex_hull(std::span<const Vec2> points, float radius) {
  for (std::size_t k = 0; k < points.size(); ++k)
    if (!is_finite(points[k]))
      throw Error("convex_hull: points[" + std::to_string(k) + "] is not a finite point");
  std::vector<P> p;
  p.reserve(points.size());
  for (const Vec2 v : points) p.push_back({double(v.x), double(v.y)});
  std::sort(p.begin(), p.end(),
            [](const P& a, const P& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  // A turn counts when the triangle's area is above a sliver of the cloud's size squared (points
  // a micrometre off a line are on it).
  double extent = 0;
  for (const P& q : p)
    extent = std::max({extent, std::fabs(q.x - p[0].x), std::fabs(q.y - p[0].y)});
  const double sliver = 1e-9 * std::max(extent * extent, 1e-12);
  std::vector<P> h;
  for (int pass = 0; pass < 2; ++pass) {  // lower chain left to right, then upper right to left
    const std::size_t start = h.size();
    for (std::size_t k = 0; k < p.size(); ++k) {
      const P& q = pass == 0 ? p[k] : p[p.size() - 1 - k];
      while (h.size() >= start + 2 && cross(h[h.size() - 2], h.back(), q) <= sliver) h.pop_back();
      h.push_back(q);
    }
    h.pop_back();  // the chain's last point starts the other chain
  }
  if (h.size() < 3)
    throw Error("convex_hull: the " + std::to_string(points.size()) +
                " points have no area (fewer than 3 points off one line)");
  while (h.size() > std::size_t(kMaxPolygonVertices)) {
    std::size_t cheapest = 0;
    for (std::size_t i = 1; i < h.size(); ++i)
      if (removal_cost(h, i) < removal_cost(h, cheapest)) cheapest = i;
    h.erase(h.begin() + std::ptrdiff_t(cheapest));
  }
  PolygonShape shape;
  shape.radius = radius;
  for (const P& q : h) shape.vertices.push_back({float(q.x), float(q.y)});
  validate_shape_def(ShapeDef{.shape = shape}, false, false);  // size limits, float degeneracy
  return shape;
}

}  // namespace strut
