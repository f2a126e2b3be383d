// decompose_polygon and concave_polygon_shapes (strut/shape.hpp): a simple polygon of up to
// kMaxConcaveVertices vertices, concave or not, as convex pieces a body can carry.
//
// 1. Clean the outline: points within a hair of the previous one go, and so do points whose
//    turn is nearly straight (or the tip of a spike of no width), until none is left; the rest
//    is made counter-clockwise and starts at its lowest point, so that the pieces depend on the
//    outline alone, not on its winding or its first vertex.
// 2. Refuse crossing or touching edges and outlines with no area.
// 3. Triangulate by ear clipping, cutting first the ear whose smallest angle is largest (fewer
//    slivers, and slivers are what a polygon's own checks reject).
// 4. Merge triangles into convex pieces (Hertel-Mehlhorn): drop the diagonals, longest first,
//    wherever both of its ends stay convex. Dropping one diagonal never makes another droppable,
//    so one pass is enough; the result has at most four times the fewest convex pieces possible.
// 5. Halve every piece of more than kMaxPolygonVertices by a chord until all fit.
// An outline that cannot be cut without a piece too thin or too small for a polygon's own checks
// (a run of nearly straight points facing a far corner, details finer than kMinSize) is refused
// naming that piece.
// The pieces' vertices are the outline's own points (no new points), so the pieces share whole
// edges and tile the polygon: their areas add up to its area, and a body of them has its mass.
// Everything is computed in double from the float points; ear and merge tests keep a margin
// over make_convex_ccw's float tolerance, so every piece passes the polygon checks.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "solver/shapes/shape_checks.hpp"
#include "strut/error.hpp"
#include "strut/limits.hpp"
#include "strut/shape.hpp"

namespace strut {
namespace {

constexpr const char* kCall = "decompose_polygon: ";

// A point of the cleaned outline and its index in the caller's list (for messages).
struct Point {
  Vec2 p;
  int index;
};

double orient(Vec2 a, Vec2 b, Vec2 c) {
  return (double(b.x) - a.x) * (double(c.y) - a.y) - (double(b.y) - a.y) * (double(c.x) - a.x);
}
double distance(Vec2 a, Vec2 b) { return std::hypot(double(b.x) - a.x, double(b.y) - a.y); }
// Sine of the turn a -> b -> c (positive to the left); 0 for a zero-length edge.
double turn_sine(Vec2 a, Vec2 b, Vec2 c) {
  const double l = distance(a, b) * distance(b, c);
  return l > 0 ? orient(a, b, c) / l : 0.0;
}
// Distance from p to the segment a-b.
double segment_distance(Vec2 p, Vec2 a, Vec2 b) {
  const double ex = double(b.x) - a.x, ey = double(b.y) - a.y;
  const double px = double(p.x) - a.x, py = double(p.y) - a.y;
  const double len2 = ex * ex + ey * ey;
  const double t = len2 > 0 ? std::clamp((px * ex + py * ey) / len2, 0.0, 1.0) : 0.0;
  return std::hypot(px - t * ex, py - t * ey);
}

// A turn whose sine is at most this is straight: its point goes. Ten times make_convex_ccw's
// collinearity tolerance, so a point that stays is never near that tolerance.
constexpr double kStraight = 1e-5;
// Ears and merged corners must turn by more than this (sine), four times make_convex_ccw's float
// tolerance (1e-6): float rounding of its cross product is about 1.2e-7 of the edges' product.
constexpr double kMinSine = 4e-6;

std::string vertex_name(int index) { return "vertices[" + std::to_string(index) + "]"; }

// Step 1: repeats and straight points go until none is left (the result is a fixed point, so
// cleaning a cleaned outline changes nothing).
std::vector<Point> clean(std::span<const Vec2> in, double hair) {
  std::vector<Point> v;
  for (int i = 0; i < int(in.size()); ++i) v.push_back({in[std::size_t(i)], i});
  for (bool changed = true; changed;) {
    changed = false;
    std::vector<Point> kept;
    for (const Point& q : v)
      if (kept.empty() || distance(kept.back().p, q.p) > hair) kept.push_back(q);
    while (kept.size() > 1 && distance(kept.back().p, kept.front().p) <= hair) kept.pop_back();
    changed = kept.size() != v.size();
    v = std::move(kept);
    for (std::size_t i = 0; v.size() >= 3 && i < v.size();) {
      const std::size_t n = v.size();
      if (std::fabs(turn_sine(v[(i + n - 1) % n].p, v[i].p, v[(i + 1) % n].p)) <= kStraight) {
        v.erase(v.begin() + std::ptrdiff_t(i));
        changed = true;
      } else {
        ++i;
      }
    }
  }
  return v;
}

// Step 2: two edges that do not share a point must stay more than `hair` apart.
void check_simple(const std::vector<Point>& v, double hair) {
  const int n = int(v.size());
  auto edge_name = [&](int i) {
    return "the edge from " + vertex_name(v[i].index) + " to " + vertex_name(v[(i + 1) % n].index);
  };
  for (int i = 0; i < n; ++i) {
    for (int j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;  // adjacent through the wrap-around
      const Vec2 a = v[i].p, b = v[(i + 1) % n].p, c = v[j].p, d = v[(j + 1) % n].p;
      // Edges whose boxes are more than a hair apart neither cross nor touch.
      if (std::fmin(a.x, b.x) - hair > std::fmax(c.x, d.x) ||
          std::fmin(c.x, d.x) - hair > std::fmax(a.x, b.x) ||
          std::fmin(a.y, b.y) - hair > std::fmax(c.y, d.y) ||
          std::fmin(c.y, d.y) - hair > std::fmax(a.y, b.y))
        continue;
      const double o1 = orient(a, b, c), o2 = orient(a, b, d);
      const double o3 = orient(c, d, a), o4 = orient(c, d, b);
      const bool cross =
          ((o1 < 0 && o2 > 0) || (o1 > 0 && o2 < 0)) && ((o3 < 0 && o4 > 0) || (o3 > 0 && o4 < 0));
      const bool touch = std::min({segment_distance(a, c, d), segment_distance(b, c, d),
                                   segment_distance(c, a, b), segment_distance(d, a, b)}) <= hair;
      if (cross || touch)
        throw Error(std::string(kCall) + "vertices: self-intersecting: " + edge_name(i) +
                    (cross ? " crosses " : " touches ") + edge_name(j));
    }
  }
}

struct Triangle {
  int a, b, c;
};

// Step 3: ear clipping over the cleaned, counter-clockwise outline v.
std::vector<Triangle> triangulate(const std::vector<Point>& v) {
  const int n = int(v.size());
  std::vector<int> prev(v.size()), next(v.size());
  for (int i = 0; i < n; ++i) prev[i] = (i + n - 1) % n, next[i] = (i + 1) % n;
  // The smallest sine of the ear's three angles, or -1 when i is no ear: not convex, another
  // point of the outline inside or on its triangle, or one nearly on the cut a-c (the turn it
  // would make between a and c straight within kStraight), which would be left with a corner
  // too straight to keep.
  auto ear_quality = [&](int i) {
    const int a = prev[i], c = next[i];
    const Vec2 A = v[a].p, B = v[i].p, C = v[c].p;
    const double o = orient(A, B, C);
    if (o <= 0) return -1.0;
    const double ab = distance(A, B), bc = distance(B, C), ca = distance(C, A);
    for (int k = next[c]; k != a; k = next[k]) {
      const Vec2 P = v[k].p;
      const double pa = orient(C, A, P);
      if (orient(A, B, P) >= 0 && orient(B, C, P) >= 0 && pa >= 0) return -1.0;
      const double cx = double(P.x) - C.x, cy = double(P.y) - C.y;  // C to P
      const double ax = double(A.x) - P.x, ay = double(A.y) - P.y;  // P to A
      const double along = cx * (cx + ax) + cy * (cy + ay);         // (P - C) . (A - C)
      if (along > 0 && along < ca * ca &&
          pa * pa <= kStraight * kStraight * (cx * cx + cy * cy) * (ax * ax + ay * ay))
        return -1.0;
    }
    return std::min({o / (ab * bc), o / (bc * ca), o / (ca * ab)});
  };
  std::vector<double> quality(v.size());
  for (int i = 0; i < n; ++i) quality[i] = ear_quality(i);
  std::vector<Triangle> out;
  int first = 0;  // a point still in the outline
  for (int left = n; left > 3; --left) {
    int best = -1;
    int i = first;
    do {
      if (quality[i] > 0 && (best < 0 || quality[i] > quality[best])) best = i;
      i = next[i];
    } while (i != first);
    // A simple polygon always has an ear; here every one is blocked by a point nearly on its
    // cut, as in a thin strip whose one side is a row of points in line.
    if (best < 0)
      throw Error(std::string(kCall) +
                  "vertices: no corner can be cut off without leaving a sliver (points nearly "
                  "in line across a thin part of the polygon)");
    out.push_back({prev[best], best, next[best]});
    next[prev[best]] = next[best];
    prev[next[best]] = prev[best];
    first = next[best];
    quality[prev[best]] = ear_quality(prev[best]);
    quality[next[best]] = ear_quality(next[best]);
  }
  out.push_back({prev[first], first, next[first]});
  return out;
}

// Step 4: Hertel-Mehlhorn merging; pieces as lists of outline indices, counter-clockwise.
std::vector<std::vector<int>> merge(const std::vector<Point>& v,
                                    const std::vector<Triangle>& triangles) {
  const std::int64_t n = std::int64_t(v.size());
  std::vector<std::vector<int>> pieces;
  std::unordered_map<std::int64_t, int> owner;  // directed edge u -> w: the piece holding it
  auto key = [n](int u, int w) { return std::int64_t(u) * n + w; };
  struct Diagonal {
    int u, w;
    double length;
  };
  std::vector<Diagonal> diagonals;
  for (const Triangle& t : triangles) {
    const int id = int(pieces.size());
    pieces.push_back({t.a, t.b, t.c});
    for (int k = 0; k < 3; ++k) {
      const int u = pieces[id][k], w = pieces[id][(k + 1) % 3];
      owner[key(u, w)] = id;
      // An edge that is not the outline's own (u to u + 1) is a diagonal; listed once.
      if ((u + 1) % n != w && u < w) diagonals.push_back({u, w, distance(v[u].p, v[w].p)});
    }
  }
  std::sort(diagonals.begin(), diagonals.end(), [](const Diagonal& x, const Diagonal& y) {
    if (x.length != y.length) return x.length > y.length;
    return x.u != y.u ? x.u < y.u : x.w < y.w;
  });
  for (const Diagonal& d : diagonals) {
    const int a = owner.at(key(d.u, d.w)), b = owner.at(key(d.w, d.u));
    const std::vector<int>&pa = pieces[a], &pb = pieces[b];
    // a runs ... u, w ...; b runs ... w, u .... The union: a from w round to u, then b's points
    // strictly between u and w.
    std::vector<int> joined;
    const auto ia = std::find(pa.begin(), pa.end(), d.w) - pa.begin();
    for (std::size_t k = 0; k < pa.size(); ++k) joined.push_back(pa[(ia + k) % pa.size()]);
    const auto ib = std::find(pb.begin(), pb.end(), d.u) - pb.begin();
    for (std::size_t k = 1; k + 1 < pb.size(); ++k) joined.push_back(pb[(ib + k) % pb.size()]);
    const std::size_t m = joined.size(), at_u = pa.size() - 1;  // joined[0] is w
    auto corner = [&](std::size_t i) {
      return turn_sine(v[joined[(i + m - 1) % m]].p, v[joined[i]].p, v[joined[(i + 1) % m]].p);
    };
    if (corner(0) <= kMinSine || corner(at_u) <= kMinSine) continue;
    pieces[a] = std::move(joined);
    pieces[b].clear();
    owner.erase(key(d.u, d.w));
    owner.erase(key(d.w, d.u));
    for (std::size_t k = 0; k < m; ++k) owner[key(pieces[a][k], pieces[a][(k + 1) % m])] = a;
  }
  std::vector<std::vector<int>> out;
  for (std::vector<int>& p : pieces)
    if (!p.empty()) out.push_back(std::move(p));
  return out;
}

// Step 5: a convex piece of more than kMaxPolygonVertices is cut in two by a chord between
// opposite vertices, again until every piece fits; halving keeps the pieces round where peeling
// off the cap's worth of vertices at a time would leave thin slices of a fine outline.
void split_to_cap(const std::vector<Point>& v, std::vector<int> piece,
                  std::vector<std::vector<int>>& out) {
  const std::size_t m = piece.size();
  if (m <= std::size_t(kMaxPolygonVertices)) {
    out.push_back(std::move(piece));
    return;
  }
  auto sine = [&](int a, int b, int c) { return turn_sine(v[a].p, v[b].p, v[c].p); };
  // Chords from vertex i to its opposite i + m/2, the first whose four new corners all turn.
  for (std::size_t i = 0; i < m; ++i) {
    const std::size_t j = (i + m / 2) % m;
    const int pi = piece[i], pj = piece[j];
    const int before_i = piece[(i + m - 1) % m], after_i = piece[(i + 1) % m];
    const int before_j = piece[(j + m - 1) % m], after_j = piece[(j + 1) % m];
    if (sine(before_i, pi, pj) <= kMinSine || sine(pi, pj, after_j) <= kMinSine ||
        sine(before_j, pj, pi) <= kMinSine || sine(pj, pi, after_i) <= kMinSine)
      continue;
    std::vector<int> first, second;
    for (std::size_t k = i; k != j; k = (k + 1) % m) first.push_back(piece[k]);
    first.push_back(pj);
    for (std::size_t k = j; k != i; k = (k + 1) % m) second.push_back(piece[k]);
    second.push_back(pi);
    split_to_cap(v, std::move(first), out);
    split_to_cap(v, std::move(second), out);
    return;
  }
  out.push_back(std::move(piece));  // no chord turns: the piece's checks will say why
}

}  // namespace

std::vector<PolygonShape> decompose_polygon(std::span<const Vec2> vertices) {
  const int count = int(vertices.size());
  if (count < 3)
    throw Error(std::string(kCall) + "vertices: a polygon needs at least 3 vertices, got " +
                std::to_string(count));
  if (count > kMaxConcaveVertices)
    throw Error(std::string(kCall) + "vertices: at most " + std::to_string(kMaxConcaveVertices) +
                " vertices (kMaxConcaveVertices), got " + std::to_string(count));
  double scale = 0;
  for (int i = 0; i < count; ++i) {
    const Vec2 q = vertices[std::size_t(i)];
    shapes::check_extent(q, kCall + vertex_name(i));
    scale = std::max({scale, std::fabs(double(q.x)), std::fabs(double(q.y))});
  }
  // Closer than this, two points are one (make_convex_ccw refuses edges of half this length).
  const double hair = 2e-6 * std::max(scale, 1e-3);
  std::vector<Point> v = clean(vertices, hair);
  if (v.size() < 3)
    throw Error(std::string(kCall) + "vertices: the polygon has zero area (its " +
                std::to_string(count) + " points repeat or lie on one line)");
  check_simple(v, hair);
  double area2 = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Vec2 a = v[i].p, b = v[(i + 1) % v.size()].p;
    area2 += double(a.x) * b.y - double(b.x) * a.y;
  }
  if (std::fabs(area2) <= 1e-9 * scale * scale)
    throw Error(std::string(kCall) + "vertices: the polygon has zero area");
  if (!(std::sqrt(0.5 * std::fabs(area2)) >= limits::kMinSize))
    throw Error(std::string(kCall) + "vertices: polygon of area " +
                shapes::number_text(0.5 * std::fabs(area2)) + " m^2 is smaller than " +
                shapes::number_text(limits::kMinSize) + " m square (strut/limits.hpp)");
  if (area2 < 0) std::reverse(v.begin(), v.end());
  std::rotate(v.begin(),
              std::min_element(v.begin(), v.end(),
                               [](const Point& a, const Point& b) {
                                 return a.p.y < b.p.y || (a.p.y == b.p.y && a.p.x < b.p.x);
                               }),
              v.end());

  std::vector<std::vector<int>> pieces;
  for (std::vector<int>& piece : merge(v, triangulate(v)))
    split_to_cap(v, std::move(piece), pieces);
  // Each piece from its lowest outline index, the pieces in order of those lists.
  for (std::vector<int>& p : pieces)
    std::rotate(p.begin(), std::min_element(p.begin(), p.end()), p.end());
  std::sort(pieces.begin(), pieces.end());
  std::vector<PolygonShape> out;
  for (const std::vector<int>& piece : pieces) {
    PolygonShape shape;
    for (const int k : piece) shape.vertices.push_back(v[std::size_t(k)].p);
    try {
      validate_shape_def(ShapeDef{.shape = shape}, false, false);
    } catch (const Error& e) {
      std::string at;
      for (const int k : piece) at += (at.empty() ? "" : ", ") + vertex_name(v[k].index);
      const std::string msg = e.what();
      throw Error(std::string(kCall) + "vertices: the piece at " + at +
                  " is not a valid polygon: " + msg.substr(msg.find(": ") + 2));
    }
    out.push_back(std::move(shape));
  }
  return out;
}

std::vector<ShapeDef> concave_polygon_shapes(std::span<const Vec2> vertices, const ShapeDef& like) {
  std::vector<ShapeDef> out;
  for (PolygonShape& piece : decompose_polygon(vertices)) {
    ShapeDef s = like;
    s.shape = std::move(piece);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace strut
