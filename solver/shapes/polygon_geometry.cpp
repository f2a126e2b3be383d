#include "solver/shapes/polygon_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "strut/body.hpp"
#include "strut/error.hpp"

namespace strut {

std::vector<Vec2> make_convex_ccw(std::span<const Vec2> in, const char* field) {
  const std::string f = field;
  const int n = static_cast<int>(in.size());
  if (n < 3) throw Error(f + ": a polygon needs at least 3 vertices, got " + std::to_string(n));
  if (n > kMaxPolygonVertices)
    throw Error(f + ": a polygon has at most " + std::to_string(kMaxPolygonVertices) +
                " vertices, got " + std::to_string(n));
  for (int i = 0; i < n; ++i)
    if (!is_finite(in[i])) throw Error(f + "[" + std::to_string(i) + "]: not a finite number");
  std::vector<Vec2> v(in.begin(), in.end());
  // Signed area (shoelace) decides the winding.
  double area2 = 0;
  float scale = 0;
  for (int i = 0; i < n; ++i) {
    const Vec2 a = v[i], b = v[(i + 1) % n];
    area2 += double(a.x) * b.y - double(b.x) * a.y;
    scale = std::max(scale, std::max(std::fabs(a.x), std::fabs(a.y)));
  }
  if (area2 < 0) std::reverse(v.begin(), v.end());
  for (int i = 0; i < n; ++i) {
    const Vec2 e = v[(i + 1) % n] - v[i];
    if (length(e) <= 1e-6f * std::max(scale, 1e-3f))
      throw Error(f + ": zero-length edge at vertex " + std::to_string(i));
  }
  // Two non-adjacent edges that cross make a bow tie or a star.
  auto orient = [](Vec2 a, Vec2 b, Vec2 c) { return cross(b - a, c - a); };
  for (int i = 0; i < n; ++i) {
    for (int j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;  // adjacent through the wrap-around
      const Vec2 a = v[i], b = v[(i + 1) % n], c = v[j], d = v[(j + 1) % n];
      const float o1 = orient(a, b, c), o2 = orient(a, b, d);
      const float o3 = orient(c, d, a), o4 = orient(c, d, b);
      if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)))
        throw Error(f + ": polygon is self-intersecting");
    }
  }
  if (std::fabs(area2) <= 1e-9 * double(scale) * scale) throw Error(f + ": polygon has zero area");
  // Strictly left turns at every vertex (one full turn in total then follows).
  for (int i = 0; i < n; ++i) {
    const Vec2 e0 = v[i] - v[(i + n - 1) % n];
    const Vec2 e1 = v[(i + 1) % n] - v[i];
    const float c = cross(e0, e1);
    const int original = area2 < 0 ? (n - 1 - i) : i;
    if (std::fabs(c) <= 1e-6f * length(e0) * length(e1))
      throw Error(f + ": polygon has collinear edges at vertex " + std::to_string(original));
    if (c < 0) throw Error(f + ": polygon is not convex at vertex " + std::to_string(original));
  }
  return v;
}

PolygonMass polygon_mass(std::span<const Vec2> v) {
  // Triangle fan about the first vertex, accumulated in double for thin shapes.
  const int n = static_cast<int>(v.size());
  const Vec2 o = v[0];
  double area = 0, cx = 0, cy = 0, inertia_o = 0;
  for (int i = 1; i + 1 < n; ++i) {
    const double ax = v[i].x - o.x, ay = v[i].y - o.y;
    const double bx = v[i + 1].x - o.x, by = v[i + 1].y - o.y;
    const double a = 0.5 * (ax * by - ay * bx);
    area += a;
    cx += a * (ax + bx) / 3.0;
    cy += a * (ay + by) / 3.0;
    // Polar moment of triangle (0, a, b) about the origin, per unit density.
    inertia_o += a / 6.0 * (ax * ax + ax * bx + bx * bx + ay * ay + ay * by + by * by);
  }
  cx /= area;
  cy /= area;
  PolygonMass m;
  m.area = static_cast<float>(area);
  m.centroid = {static_cast<float>(o.x + cx), static_cast<float>(o.y + cy)};
  m.inertia = static_cast<float>(inertia_o - area * (cx * cx + cy * cy));
  return m;
}

ParticleMassSplit split_polygon_mass(std::span<const Vec2> r, float mass, float inertia) {
  // With n vertices of mass mv at r_i and the remainder mc = m - n mv at c, the centre of mass
  // stays at the centroid when c = -mv S1 / mc (S1 = sum r_i), and the inertia is
  // f(mv) = mv S2 + mv^2 |S1|^2 / mc (S2 = sum |r_i|^2). f grows from 0 to at least the
  // all-at-vertices inertia, which exceeds the solid one for any convex polygon, so bisection
  // finds the unique mv with f(mv) = I.
  const int n = static_cast<int>(r.size());
  double s1x = 0, s1y = 0, s2 = 0;
  for (const Vec2 p : r) {
    s1x += p.x;
    s1y += p.y;
    s2 += double(p.x) * p.x + double(p.y) * p.y;
  }
  const double s1sq = s1x * s1x + s1y * s1y;
  auto f = [&](double mv) {
    const double mc = mass - n * mv;
    return mv * s2 + (mc > 0 ? mv * mv * s1sq / mc : 1e30);
  };
  double lo = 0, hi = double(mass) / n;
  for (int it = 0; it < 100; ++it) {
    const double mid = 0.5 * (lo + hi);
    (f(mid) < inertia ? lo : hi) = mid;
  }
  ParticleMassSplit out;
  out.vertex_mass = static_cast<float>(lo);
  const double mc = mass - n * lo;
  out.centre_mass = static_cast<float>(mc);
  if (mc > 0) out.centre = {static_cast<float>(-lo * s1x / mc), static_cast<float>(-lo * s1y / mc)};
  return out;
}

}  // namespace strut
