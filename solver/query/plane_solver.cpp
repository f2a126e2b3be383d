#include "solver/query/plane_solver.hpp"

#include <cmath>

namespace strut {
namespace {

struct Point {
  double x, y;
};

double dot(const HalfPlane& h, Point q) {
  return double(h.normal.x) * q.x + double(h.normal.y) * q.y;
}

// Inside every half-plane, allowing for the rounding of the float offsets (a plane through a
// point p has an offset dot(normal, p) rounded to float, 6e-8 relative): the mover's positions
// are offsets from where the move began, so 1e-6 m at a metre stays far below its skin.
bool inside_all(std::span<const HalfPlane> planes, Point q) {
  for (const HalfPlane& h : planes) {
    const double tolerance = 1e-6 * (1.0 + std::fabs(h.offset) + std::fabs(q.x) + std::fabs(q.y));
    if (dot(h, q) < h.offset - tolerance) return false;
  }
  return true;
}

}  // namespace

std::optional<Vec2> nearest_inside(Vec2 goal, std::span<const HalfPlane> planes) {
  const Point g{goal.x, goal.y};
  if (inside_all(planes, g)) return goal;
  bool found = false;
  Point best{};
  double best_distance = 0;
  auto consider = [&](Point q) {
    const double d = (q.x - g.x) * (q.x - g.x) + (q.y - g.y) * (q.y - g.y);
    if ((!found || d < best_distance) && inside_all(planes, q))
      found = true, best = q, best_distance = d;
  };
  for (const HalfPlane& h : planes) {  // the goal moved onto one boundary line
    const double shortfall = h.offset - dot(h, g);
    consider({g.x + shortfall * h.normal.x, g.y + shortfall * h.normal.y});
  }
  for (std::size_t i = 0; i < planes.size(); ++i) {  // the corners of two
    for (std::size_t j = i + 1; j < planes.size(); ++j) {
      const Vec2 n = planes[i].normal, m = planes[j].normal;
      const double det = double(n.x) * m.y - double(n.y) * m.x;
      if (std::fabs(det) < 1e-9) continue;  // parallel lines meet nowhere (or everywhere)
      const double a = planes[i].offset, b = planes[j].offset;
      consider({(a * m.y - b * n.y) / det, (b * n.x - a * m.x) / det});
    }
  }
  if (!found) return std::nullopt;
  return Vec2{float(best.x), float(best.y)};
}

}  // namespace strut
