// Narrow phase: SAT against a brute-force reference, hand-made manifolds, circles, dispatch and
// tile-map seams.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>
#include <utility>
#include <vector>

#include "solver/collide/manifold.hpp"

namespace strut::collide {
namespace {

// Owns the SoA arrays a PolygonView points into.
struct Polygon {
  std::vector<float> x;
  std::vector<float> y;
  std::uint16_t internal_edges = 0;
  PolygonView view() const {
    return {x.data(), y.data(), static_cast<int>(x.size()), internal_edges};
  }
};

// Box with vertices (-h, -h'), (h, -h'), (h, h'), (-h, h') rotated by `angle` about its centre:
// edge 0 bottom, 1 right, 2 top, 3 left (before rotation).
Polygon box(float cx, float cy, float hx, float hy, float angle = 0.0f) {
  const Rot q = make_rot(angle);
  const Vec2 local[4] = {{-hx, -hy}, {hx, -hy}, {hx, hy}, {-hx, hy}};
  Polygon p;
  for (const Vec2 v : local) {
    const Vec2 w = Vec2{cx, cy} + rotate(q, v);
    p.x.push_back(w.x);
    p.y.push_back(w.y);
  }
  return p;
}

ShapeView polygon_shape(const Polygon& p) {
  ShapeView v;
  v.kind = ColliderKind::Polygon;
  v.x = p.x.data(), v.y = p.y.data(), v.count = int(p.x.size()), v.internal_edges = p.view().internal_edges;
  return v;
}
// A ShapeView points at its vertices: `c` must outlive it.
ShapeView circle_shape(const Vec2& c, float r) {
  ShapeView v;
  v.kind = ColliderKind::Circle;
  v.x = &c.x, v.y = &c.y, v.count = 1, v.radius = r;
  return v;
}

constexpr float kTol = 1e-5f;

void expect_vec(Vec2 actual, Vec2 expected, float tol = kTol) {
  EXPECT_NEAR(actual.x, expected.x, tol);
  EXPECT_NEAR(actual.y, expected.y, tol);
}

// Re-evaluates a polygon-polygon feature from its definition (what the solver does every
// substep) and checks it matches what the narrow phase reported.
void expect_feature_consistent(const ContactFeature& f, const PolygonView& a, const PolygonView& b,
                               float tol) {
  ASSERT_EQ(f.kind, FeatureKind::VertexEdge);
  const PolygonView& vp = f.vertex_on_a ? a : b;
  const PolygonView& ep = f.vertex_on_a ? b : a;
  ASSERT_LT(f.vertex, vp.count);
  ASSERT_LT(f.other, ep.count);
  const Vec2 n = edge_normal(ep, f.other);
  const float sep = dot(n, vertex(vp, f.vertex) - vertex(ep, f.other));
  EXPECT_NEAR(f.separation, sep, tol);
  const Vec2 expected_normal = f.vertex_on_a ? -n : n;  // A to B
  expect_vec(f.normal, expected_normal, 1e-6f);
  EXPECT_NEAR(length(f.normal), 1.0f, 1e-5f);
}

// ---------------------------------------------------------------------------------------------
// Polygon vs polygon, hand-made cases.

TEST(CollidePolygons, BoxOnBoxFaceToFaceGivesTwoPoints) {
  const Polygon ground = box(0.0f, -0.5f, 2.0f, 0.5f);  // top face y = 0, edge 2
  const Polygon crate = box(0.0f, 0.49f, 0.5f, 0.5f);   // bottom at y = -0.01
  const Manifold m = collide_polygons(ground.view(), crate.view(), 0.0f);
  ASSERT_EQ(m.count, 2);
  for (int i = 0; i < 2; ++i) {
    const ContactFeature& f = m.points[i];
    EXPECT_EQ(f.kind, FeatureKind::VertexEdge);
    EXPECT_FALSE(f.vertex_on_a);  // crate's corners against the ground's top edge
    EXPECT_EQ(f.vertex, i);       // bottom-left, bottom-right in incident-edge order
    EXPECT_EQ(f.other, 2);
    EXPECT_NEAR(f.separation, -0.01f, kTol);
    EXPECT_EQ(f.normal, (Vec2{0.0f, 1.0f}));
    expect_feature_consistent(f, ground.view(), crate.view(), 1e-6f);
  }
  expect_vec(m.points[0].point, {-0.5f, -0.005f});
  expect_vec(m.points[1].point, {0.5f, -0.005f});

  // Swapped: the small box is A, its bottom face wins the tie (A preferred), and the ground's
  // top edge, longer than the reference face, is cut at both side planes: both points are the
  // crate's corners (reference vertices) against the ground's edge, normal now pointing down.
  const Manifold s = collide_polygons(crate.view(), ground.view(), 0.0f);
  ASSERT_EQ(s.count, 2);
  for (int i = 0; i < 2; ++i) {
    const ContactFeature& f = s.points[i];
    EXPECT_TRUE(f.vertex_on_a);
    EXPECT_EQ(f.other, 2);
    EXPECT_NEAR(f.separation, -0.01f, kTol);
    EXPECT_EQ(f.normal, (Vec2{0.0f, -1.0f}));
    expect_feature_consistent(f, crate.view(), ground.view(), 1e-6f);
  }
  EXPECT_NE(s.points[0].vertex, s.points[1].vertex);
}

TEST(CollidePolygons, PlankOnNarrowSupportUsesSupportCornersAgainstPlankEdge) {
  const Polygon support = box(0.0f, -0.5f, 0.25f, 0.5f);  // top y = 0 from x = -0.25 to 0.25
  const Polygon plank = box(0.0f, 0.09f, 2.0f, 0.1f);     // bottom y = -0.01
  const Manifold m = collide_polygons(support.view(), plank.view(), 0.0f);
  ASSERT_EQ(m.count, 2);
  // Reference = support's top (tie, A preferred); the plank's bottom edge (0) is cut at both
  // side planes, through the support's top-right (2) and top-left (3) corners.
  EXPECT_TRUE(m.points[0].vertex_on_a);
  EXPECT_TRUE(m.points[1].vertex_on_a);
  EXPECT_EQ(m.points[0].other, 0);
  EXPECT_EQ(m.points[1].other, 0);
  EXPECT_EQ(m.points[0].vertex + m.points[1].vertex, 5);
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(m.points[i].separation, -0.01f, kTol);
    EXPECT_EQ(m.points[i].normal, (Vec2{0.0f, 1.0f}));
    EXPECT_NEAR(m.points[i].point.y, -0.005f, kTol);
    EXPECT_NEAR(std::fabs(m.points[i].point.x), 0.25f, kTol);
    expect_feature_consistent(m.points[i], support.view(), plank.view(), 1e-6f);
  }
}

TEST(CollidePolygons, BoxCornerOnFaceGivesOnePoint) {
  const Polygon ground = box(0.0f, -0.5f, 2.0f, 0.5f);
  const float half_diagonal = 0.5f * std::numbers::sqrt2_v<float>;
  const Polygon diamond =
      box(0.3f, half_diagonal - 0.01f, 0.5f, 0.5f, 0.25f * std::numbers::pi_v<float>);
  const Manifold m = collide_polygons(ground.view(), diamond.view(), 0.0f);
  ASSERT_EQ(m.count, 1);
  const ContactFeature& f = m.points[0];
  EXPECT_FALSE(f.vertex_on_a);
  EXPECT_EQ(f.vertex, 0);  // rotating by 45 degrees brings the bottom-left corner to the bottom
  EXPECT_EQ(f.other, 2);
  EXPECT_NEAR(f.separation, -0.01f, kTol);
  expect_vec(f.normal, {0.0f, 1.0f}, 1e-6f);
  expect_vec(f.point, {0.3f, -0.005f});
  expect_feature_consistent(f, ground.view(), diamond.view(), 1e-6f);

  // Seen from the diamond (A), the ground's face separates far more than any diamond face:
  // B's face is the reference and the normal points from the diamond down to the ground.
  const Manifold s = collide_polygons(diamond.view(), ground.view(), 0.0f);
  ASSERT_EQ(s.count, 1);
  EXPECT_TRUE(s.points[0].vertex_on_a);
  EXPECT_EQ(s.points[0].vertex, 0);
  EXPECT_EQ(s.points[0].other, 2);
  EXPECT_NEAR(s.points[0].separation, -0.01f, kTol);
  expect_vec(s.points[0].normal, {0.0f, -1.0f}, 1e-6f);
  EXPECT_FALSE(find_polygon_separation(diamond.view(), ground.view()).reference_on_a);
}

TEST(CollidePolygons, RotatedStackKeepsFaceNormal) {
  // Two boxes sharing a rotated frame, B sunk 0.02 into A's top face along the rotated up axis.
  const float angle = 0.3f;
  const Rot q = make_rot(angle);
  const Vec2 up = rotate(q, {0.0f, 1.0f});
  const Vec2 cb = (1.0f - 0.02f) * up + 0.1f * rotate(q, {1.0f, 0.0f});
  const Polygon a = box(0.0f, 0.0f, 1.0f, 0.5f, angle);
  const Polygon b = box(cb.x, cb.y, 0.4f, 0.5f, angle);
  const Manifold m = collide_polygons(a.view(), b.view(), 0.0f);
  ASSERT_EQ(m.count, 2);
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(m.points[i].separation, -0.02f, kTol);
    expect_vec(m.points[i].normal, up, 1e-5f);
    expect_feature_consistent(m.points[i], a.view(), b.view(), 1e-6f);
  }
}

TEST(CollidePolygons, RotatedCornerOnRotatedFace) {
  // Ground tilted by 0.2 rad; a box tilted by 0.2 + pi/4 so one corner points into the slope.
  const float tilt = 0.2f;
  const Rot q = make_rot(tilt);
  const Vec2 up = rotate(q, {0.0f, 1.0f});
  const Polygon ground = box(0.0f, 0.0f, 3.0f, 0.5f, tilt);
  const Vec2 top_centre = 0.5f * up;
  const float half_diagonal = 0.5f * std::numbers::sqrt2_v<float>;
  const Vec2 c = top_centre + (half_diagonal - 0.03f) * up;
  const Polygon b = box(c.x, c.y, 0.5f, 0.5f, tilt + 0.25f * std::numbers::pi_v<float>);
  const Manifold m = collide_polygons(ground.view(), b.view(), 0.0f);
  ASSERT_EQ(m.count, 1);
  EXPECT_NEAR(m.points[0].separation, -0.03f, kTol);
  expect_vec(m.points[0].normal, up, 1e-5f);
  expect_vec(m.points[0].point, top_centre - 0.015f * up, 1e-5f);
  expect_feature_consistent(m.points[0], ground.view(), b.view(), 1e-6f);
}

TEST(CollidePolygons, SpeculativeContactsRespectMargin) {
  const Polygon ground = box(0.0f, -0.5f, 2.0f, 0.5f);
  const Polygon crate = box(0.0f, 0.51f, 0.5f, 0.5f);  // 0.01 above the ground
  const Manifold near = collide_polygons(ground.view(), crate.view(), 0.02f);
  ASSERT_EQ(near.count, 2);
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(near.points[i].separation, 0.01f, kTol);
    EXPECT_EQ(near.points[i].normal, (Vec2{0.0f, 1.0f}));
    expect_vec(near.points[i].point, {i == 0 ? -0.5f : 0.5f, 0.005f});
  }
  EXPECT_EQ(collide_polygons(ground.view(), crate.view(), 0.005f).count, 0);
  EXPECT_EQ(collide_polygons(ground.view(), crate.view(), 0.0f).count, 0);

  // Tilted crate: only its lower corner is within the margin.
  const Polygon tilted =
      box(0.0f, 0.01f + 0.5f * (std::cos(0.1f) + std::sin(0.1f)), 0.5f, 0.5f, 0.1f);
  const Manifold one = collide_polygons(ground.view(), tilted.view(), 0.02f);
  ASSERT_EQ(one.count, 1);
  EXPECT_NEAR(one.points[0].separation, 0.01f, 1e-4f);
}

TEST(CollidePolygons, ReferenceFacePrefersAOnNearTies) {
  // A narrow support under a wider box: B's bottom face, tilted by 1e-4 rad, separates a hair
  // (2.5e-5) more than A's top face. Within the tie tolerance (1e-3 x 0.5 here) A keeps the
  // reference; tilted by 0.01 rad (difference 2.5e-3) B's face clearly wins.
  const Polygon a = box(0.0f, -0.5f, 0.25f, 0.5f);
  const Polygon nearly = box(0.0f, 0.499f, 0.5f, 0.5f, 1e-4f);
  const PolygonSeparation tie = find_polygon_separation(a.view(), nearly.view());
  EXPECT_GT(tie.separation_b, tie.separation_a);
  EXPECT_TRUE(tie.reference_on_a);
  const Polygon tilted = box(0.0f, 0.49f, 0.5f, 0.5f, 0.01f);
  const PolygonSeparation clear = find_polygon_separation(a.view(), tilted.view());
  EXPECT_FALSE(clear.reference_on_a);
  EXPECT_EQ(clear.edge_b, 0);
}

TEST(CollidePolygons, Deterministic) {
  const Polygon a = box(0.1f, -0.2f, 0.7f, 0.3f, 0.4f);
  const Polygon b = box(0.5f, 0.4f, 0.4f, 0.6f, -0.7f);
  const Manifold m1 = collide_polygons(a.view(), b.view(), 0.05f);
  const Manifold m2 = collide_polygons(a.view(), b.view(), 0.05f);
  ASSERT_GT(m1.count, 0);
  ASSERT_EQ(m1.count, m2.count);
  for (int i = 0; i < m1.count; ++i) {
    EXPECT_EQ(m1.points[i].vertex, m2.points[i].vertex);
    EXPECT_EQ(m1.points[i].other, m2.points[i].other);
    EXPECT_EQ(m1.points[i].vertex_on_a, m2.points[i].vertex_on_a);
    EXPECT_EQ(std::bit_cast<std::uint32_t>(m1.points[i].separation),
              std::bit_cast<std::uint32_t>(m2.points[i].separation));
    EXPECT_EQ(m1.points[i].normal, m2.points[i].normal);
    EXPECT_EQ(m1.points[i].point, m2.points[i].point);
  }
}

// ---------------------------------------------------------------------------------------------
// SAT against a brute-force reference on random convex polygon pairs.

// Convex hull (Andrew's monotone chain), counter-clockwise, collinear points dropped.
Polygon convex_hull(std::vector<Vec2> pts) {
  std::sort(pts.begin(), pts.end(),
            [](Vec2 p, Vec2 q) { return p.x < q.x || (p.x == q.x && p.y < q.y); });
  std::vector<Vec2> hull(2 * pts.size());
  std::size_t k = 0;
  auto turn = [](Vec2 o, Vec2 p, Vec2 q) {
    return (double(p.x) - o.x) * (double(q.y) - o.y) - (double(p.y) - o.y) * (double(q.x) - o.x);
  };
  for (std::size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && turn(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  for (std::size_t i = pts.size() - 1, t = k + 1; i-- > 0;) {
    while (k >= t && turn(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  hull.resize(k > 0 ? k - 1 : 0);
  Polygon p;
  for (const Vec2 v : hull) {
    p.x.push_back(v.x);
    p.y.push_back(v.y);
  }
  return p;
}

Polygon random_polygon(std::mt19937& rng, Vec2 centre) {
  std::uniform_int_distribution<int> count(3, 16);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_real_distribution<float> size(0.05f, 3.0f);
  std::uniform_real_distribution<float> angle(0.0f, 2.0f * std::numbers::pi_v<float>);
  for (;;) {
    const int n = count(rng);
    const float sx = size(rng);
    const float sy = size(rng);
    const Rot q = make_rot(angle(rng));
    std::vector<Vec2> pts;
    for (int i = 0; i < n; ++i) pts.push_back(centre + rotate(q, {sx * unit(rng), sy * unit(rng)}));
    Polygon p = convex_hull(pts);
    // Reject slivers whose edges are shorter than float can resolve comfortably.
    bool ok = p.x.size() >= 3;
    for (std::size_t i = 0; ok && i < p.x.size(); ++i) {
      const std::size_t j = (i + 1) % p.x.size();
      ok = std::hypot(p.x[j] - p.x[i], p.y[j] - p.y[i]) > 1e-3f;
    }
    if (ok) return p;
  }
}

struct Projection {
  double lo, hi;
};
Projection project(const Polygon& p, double dx, double dy) {
  Projection r{1e300, -1e300};
  for (std::size_t i = 0; i < p.x.size(); ++i) {
    const double s = dx * p.x[i] + dy * p.y[i];
    r.lo = std::min(r.lo, s);
    r.hi = std::max(r.hi, s);
  }
  return r;
}
// Overlap of the projections on a unit direction (negative: a gap of that size).
double overlap_along(const Polygon& a, const Polygon& b, double dx, double dy) {
  const Projection pa = project(a, dx, dy);
  const Projection pb = project(b, dx, dy);
  return std::min(pa.hi - pb.lo, pb.hi - pa.lo);
}

// Area of the intersection by clipping A against each edge half-plane of B (in double).
double intersection_area(const Polygon& a, const Polygon& b) {
  std::vector<std::pair<double, double>> poly;
  for (std::size_t i = 0; i < a.x.size(); ++i) poly.emplace_back(a.x[i], a.y[i]);
  for (std::size_t e = 0; e < b.x.size() && !poly.empty(); ++e) {
    const std::size_t f = (e + 1) % b.x.size();
    const double ex = double(b.x[f]) - b.x[e], ey = double(b.y[f]) - b.y[e];
    auto side = [&](std::pair<double, double> p) {  // > 0 inside (left of the edge)
      return ex * (p.second - b.y[e]) - ey * (p.first - b.x[e]);
    };
    std::vector<std::pair<double, double>> out;
    for (std::size_t i = 0; i < poly.size(); ++i) {
      const auto p = poly[i];
      const auto q = poly[(i + 1) % poly.size()];
      const double sp = side(p), sq = side(q);
      if (sp >= 0) out.push_back(p);
      if ((sp >= 0) != (sq >= 0)) {
        const double t = sp / (sp - sq);
        out.emplace_back(p.first + t * (q.first - p.first), p.second + t * (q.second - p.second));
      }
    }
    poly = std::move(out);
  }
  double area = 0;
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const auto p = poly[i];
    const auto q = poly[(i + 1) % poly.size()];
    area += p.first * q.second - q.first * p.second;
  }
  return 0.5 * area;
}

TEST(CollidePolygons, SatMatchesBruteForceOnRandomPairs) {
  constexpr int kPairs = 6000;
  constexpr int kDirections = 3600;
  std::vector<double> dir_x(kDirections), dir_y(kDirections);
  for (int k = 0; k < kDirections; ++k) {
    const double t = 2.0 * std::numbers::pi * k / kDirections;
    dir_x[k] = std::cos(t);
    dir_y[k] = std::sin(t);
  }
  std::mt19937 rng(20240601);
  std::uniform_real_distribution<float> place(-20.0f, 20.0f);
  std::uniform_real_distribution<float> unit01(0.0f, 1.0f);
  std::uniform_real_distribution<float> angle(0.0f, 2.0f * std::numbers::pi_v<float>);

  int overlapping = 0, separated = 0, borderline = 0;
  int bool_agree = 0, depth_agree = 0, dense_ok = 0, gap_ok = 0, manifold_ok = 0;
  double worst_depth_error = 0.0;
  int compared_bool = 0;
  for (int pair = 0; pair < kPairs; ++pair) {
    const Vec2 ca = {place(rng), place(rng)};
    const Polygon a = random_polygon(rng, ca);
    // Offset B from A by up to 1.2x the sum of their radii: about half the pairs overlap.
    auto radius = [](const Polygon& p, Vec2 c) {
      float r = 0;
      for (std::size_t i = 0; i < p.x.size(); ++i)
        r = std::max(r, std::hypot(p.x[i] - c.x, p.y[i] - c.y));
      return r;
    };
    const Polygon b0 = random_polygon(rng, {0.0f, 0.0f});
    const float reach = radius(a, ca) + radius(b0, {0.0f, 0.0f});
    const Rot dir = make_rot(angle(rng));
    const Vec2 cb = ca + (1.2f * reach * unit01(rng)) * Vec2{dir.c, dir.s};
    Polygon b = b0;
    for (std::size_t i = 0; i < b.x.size(); ++i) {
      b.x[i] += cb.x;
      b.y[i] += cb.y;
    }

    const PolygonSeparation sat = find_polygon_separation(a.view(), b.view());
    const float sep = std::max(sat.separation_a, sat.separation_b);

    // Reference: minimum projection overlap over the edge normals of both (exact SAT axes) and,
    // separately, over 3600 evenly spread directions.
    double ref_edges = 1e300;
    for (const Polygon* p : {&a, static_cast<const Polygon*>(&b)}) {
      for (std::size_t e = 0; e < p->x.size(); ++e) {
        const std::size_t f = (e + 1) % p->x.size();
        const double ex = double(p->x[f]) - p->x[e], ey = double(p->y[f]) - p->y[e];
        const double len = std::hypot(ex, ey);
        ref_edges = std::min(ref_edges, overlap_along(a, b, ey / len, -ex / len));
      }
    }
    double ref_dense = 1e300;
    for (int k = 0; k < kDirections; ++k) {
      ref_dense = std::min(ref_dense, overlap_along(a, b, dir_x[k], dir_y[k]));
    }
    // Float tolerance: a few ulps of the coordinates (up to ~25 here).
    const double tol = 2e-5 * (1.0 + std::max(std::fabs(ca.x), std::fabs(ca.y)));

    const double area = intersection_area(a, b);
    if (std::fabs(sep) <= tol) {
      ++borderline;  // touching within rounding: either answer is right
    } else {
      ++compared_bool;
      const bool sat_overlap = sep < 0.0f;
      const bool ref_overlap = area > 0.0;
      bool_agree += sat_overlap == ref_overlap;
      EXPECT_EQ(sat_overlap, ref_overlap) << "pair " << pair << " sep " << sep << " area " << area;
      const Manifold m0 = collide_polygons(a.view(), b.view(), 0.0f);
      manifold_ok += (m0.count > 0) == sat_overlap;
      EXPECT_EQ(m0.count > 0, sat_overlap) << "pair " << pair << " sep " << sep;
    }
    if (sep < 0.0f) {
      ++overlapping;
      // Penetration depth: SAT's -sep equals the minimum overlap over all directions, which is
      // attained at an edge normal; the dense sweep can never find less.
      const double err = std::fabs(-double(sep) - ref_edges);
      worst_depth_error = std::max(worst_depth_error, err);
      depth_agree += err <= tol;
      EXPECT_LE(err, tol) << "pair " << pair;
      // ... and finds nearly as little: the support function of the Minkowski difference A - B
      // changes by at most R x angle between neighbouring directions (R = its largest vertex
      // norm), and some direction lies within pi / 3600 of the best face normal.
      double r_mink = 0.0;
      for (std::size_t i = 0; i < a.x.size(); ++i) {
        for (std::size_t j = 0; j < b.x.size(); ++j) {
          r_mink = std::max(r_mink, std::hypot(double(a.x[i]) - b.x[j], double(a.y[i]) - b.y[j]));
        }
      }
      const double dense_slack = r_mink * std::numbers::pi / kDirections;
      const bool dense_good =
          ref_dense >= -double(sep) - tol && ref_dense <= -double(sep) + dense_slack + tol;
      dense_ok += dense_good;
      EXPECT_TRUE(dense_good) << "pair " << pair << " dense " << ref_dense << " sat " << -sep;
    } else {
      ++separated;
      // The gap along SAT's axis cannot exceed the largest projection gap over all directions.
      const double max_gap = -std::min(ref_edges, ref_dense);
      // (SAT's face separation is one-sided, n . (b - a_face) >= 0 for all of B, so it may be
      // less than the two-sided projection gap; it is a lower bound on the distance.)
      gap_ok += double(sep) <= max_gap + tol;
      EXPECT_LE(double(sep), max_gap + tol) << "pair " << pair;
    }

    // Every reported feature re-evaluates to its reported separation and normal.
    const Manifold m = collide_polygons(a.view(), b.view(), 0.1f);
    for (int i = 0; i < m.count; ++i) {
      EXPECT_LT(m.points[i].separation, 0.1f);
      expect_feature_consistent(m.points[i], a.view(), b.view(), 2.0f * float(tol));
    }
    if (::testing::Test::HasFailure()) break;
  }

  std::printf(
      "[ SAT ] %d random pairs (%d overlapping, %d separated, %d borderline |sep| <= tol): "
      "overlap bool agrees with clipping area %d/%d, manifold non-empty iff overlap %d/%d, "
      "depth agrees with edge-normal reference %d/%d (worst error %.3g), dense 3600-direction "
      "reference within [depth, depth + R pi/3600] %d/%d, separated gap bound %d/%d\n",
      kPairs, overlapping, separated, borderline, bool_agree, compared_bool, manifold_ok,
      compared_bool, depth_agree, overlapping, worst_depth_error, dense_ok, overlapping, gap_ok,
      separated);
  RecordProperty("pairs", kPairs);
  RecordProperty("overlapping", overlapping);
  RecordProperty("bool_agreement", bool_agree);
  RecordProperty("bool_compared", compared_bool);
  RecordProperty("depth_agreement", depth_agree);
  EXPECT_GE(overlapping, kPairs / 4);
  EXPECT_GE(separated, kPairs / 4);
}

// Polygon vs circle against the exact point-to-polygon distance on random pairs: outside, the
// separation is distance - radius along (centre - closest point); inside, it is minus the
// centre's depth below the nearest face line, minus the radius.
TEST(CollideCircles, MatchesExactDistanceOnRandomPairs) {
  constexpr int kPairs = 5000;
  std::mt19937 rng(77);
  std::uniform_real_distribution<float> place(-20.0f, 20.0f);
  std::uniform_real_distribution<float> offset(-4.0f, 4.0f);
  std::uniform_real_distribution<float> rad(0.01f, 2.0f);
  int agree = 0, inside = 0, vertex_regions = 0;
  for (int pair = 0; pair < kPairs; ++pair) {
    const Vec2 ca = {place(rng), place(rng)};
    const Polygon a = random_polygon(rng, ca);
    const CircleView c = {ca + Vec2{offset(rng), offset(rng)}, rad(rng)};
    // Exact reference in double.
    double best_dist = 1e300, cx = 0, cy = 0, depth = 1e300;
    bool is_inside = true;
    const std::size_t n = a.x.size();
    for (std::size_t e = 0; e < n; ++e) {
      const std::size_t f = (e + 1) % n;
      const double ex = double(a.x[f]) - a.x[e], ey = double(a.y[f]) - a.y[e];
      const double px = double(c.center.x) - a.x[e], py = double(c.center.y) - a.y[e];
      const double len2 = ex * ex + ey * ey;
      const double u = std::clamp((px * ex + py * ey) / len2, 0.0, 1.0);
      const double qx = a.x[e] + u * ex, qy = a.y[e] + u * ey;
      const double d = std::hypot(c.center.x - qx, c.center.y - qy);
      if (d < best_dist) {
        best_dist = d;
        cx = qx;
        cy = qy;
      }
      const double s = (px * ey - py * ex) / std::sqrt(len2);  // outward signed distance
      if (s > 0) is_inside = false;
      depth = std::min(depth, -s);
    }
    const double expected = is_inside ? -depth - c.radius : best_dist - c.radius;
    const double tol = 2e-5 * (1.0 + std::max(std::fabs(ca.x), std::fabs(ca.y)));
    const Manifold m = collide_polygon_circle(a.view(), c, 10.0f);
    ASSERT_EQ(m.count, 1) << "pair " << pair;
    const ContactFeature& f = m.points[0];
    bool ok = std::fabs(f.separation - expected) <= tol;
    if (!is_inside && best_dist > 1e-3) {
      // Normal along centre - closest point; the midpoint half the gap beyond the closest point.
      const double nx = (c.center.x - cx) / best_dist, ny = (c.center.y - cy) / best_dist;
      ok = ok && std::fabs(f.normal.x - nx) <= 1e-3 && std::fabs(f.normal.y - ny) <= 1e-3;
      ok = ok && std::fabs(f.point.x - (cx + 0.5 * f.separation * nx)) <= 1e-3 &&
           std::fabs(f.point.y - (cy + 0.5 * f.separation * ny)) <= 1e-3;
    }
    inside += is_inside;
    vertex_regions += f.kind == FeatureKind::VertexVertex;
    agree += ok;
    EXPECT_TRUE(ok) << "pair " << pair << " sep " << f.separation << " expected " << expected;
    // The margin filters exactly: the point is reported iff its separation is below it.
    EXPECT_EQ(collide_polygon_circle(a.view(), c, f.separation).count, 0);
    if (::testing::Test::HasFailure()) break;
  }
  std::printf(
      "[ circle ] %d random polygon-circle pairs (%d centres inside, %d vertex regions): "
      "%d/%d agree with the exact distance\n",
      kPairs, inside, vertex_regions, agree, kPairs);
  RecordProperty("circle_pairs", kPairs);
  RecordProperty("circle_agreement", agree);
  EXPECT_GT(inside, kPairs / 50);
  EXPECT_GT(vertex_regions, kPairs / 20);
}

// ---------------------------------------------------------------------------------------------
// Circles.

TEST(CollideCircles, EdgeRegion) {
  const Polygon square = box(0.0f, 0.0f, 1.0f, 1.0f);
  const Manifold m = collide_polygon_circle(square.view(), {{0.3f, 1.4f}, 0.5f}, 0.0f);
  ASSERT_EQ(m.count, 1);
  const ContactFeature& f = m.points[0];
  EXPECT_EQ(f.kind, FeatureKind::VertexEdge);
  EXPECT_FALSE(f.vertex_on_a);
  EXPECT_EQ(f.vertex, 0);
  EXPECT_EQ(f.other, 2);  // top edge
  EXPECT_NEAR(f.separation, -0.1f, kTol);
  EXPECT_EQ(f.normal, (Vec2{0.0f, 1.0f}));
  expect_vec(f.point, {0.3f, 0.95f});
}

TEST(CollideCircles, VertexRegion) {
  const Polygon square = box(0.0f, 0.0f, 1.0f, 1.0f);
  // Centre 0.5 from corner (1, 1) in direction (0.6, 0.8).
  const Manifold m = collide_polygon_circle(square.view(), {{1.3f, 1.4f}, 0.6f}, 0.0f);
  ASSERT_EQ(m.count, 1);
  const ContactFeature& f = m.points[0];
  EXPECT_EQ(f.kind, FeatureKind::VertexVertex);
  EXPECT_FALSE(f.vertex_on_a);
  EXPECT_EQ(f.vertex, 0);
  EXPECT_EQ(f.other, 2);  // vertex (1, 1)
  EXPECT_NEAR(f.separation, -0.1f, kTol);
  expect_vec(f.normal, {0.6f, 0.8f});
  expect_vec(f.point, Vec2{1.0f, 1.0f} + (-0.05f) * Vec2{0.6f, 0.8f});
  // Beyond the margin: nothing.
  EXPECT_EQ(collide_polygon_circle(square.view(), {{1.3f, 1.4f}, 0.45f}, 0.04f).count, 0);
  EXPECT_EQ(collide_polygon_circle(square.view(), {{1.3f, 1.4f}, 0.45f}, 0.06f).count, 1);
}

TEST(CollideCircles, CentreInsideUsesLeastPenetrationEdge) {
  const Polygon square = box(0.0f, 0.0f, 1.0f, 1.0f);
  const Manifold m = collide_polygon_circle(square.view(), {{0.2f, 0.7f}, 0.5f}, 0.0f);
  ASSERT_EQ(m.count, 1);
  EXPECT_EQ(m.points[0].kind, FeatureKind::VertexEdge);
  EXPECT_EQ(m.points[0].other, 2);
  EXPECT_NEAR(m.points[0].separation, -0.8f, kTol);
  EXPECT_EQ(m.points[0].normal, (Vec2{0.0f, 1.0f}));
  expect_vec(m.points[0].point, {0.2f, 0.6f});  // surfaces at y = 0.2 and y = 1
  // Nearer the left face.
  const Manifold l = collide_polygon_circle(square.view(), {{-0.9f, 0.0f}, 0.25f}, 0.0f);
  ASSERT_EQ(l.count, 1);
  EXPECT_EQ(l.points[0].other, 3);
  EXPECT_NEAR(l.points[0].separation, -0.35f, kTol);
  EXPECT_EQ(l.points[0].normal, (Vec2{-1.0f, 0.0f}));
}

TEST(CollideCircles, CircleCircle) {
  const Manifold m = collide_circles({{0.0f, 0.0f}, 1.0f}, {{1.5f, 0.0f}, 1.0f}, 0.0f);
  ASSERT_EQ(m.count, 1);
  EXPECT_EQ(m.points[0].kind, FeatureKind::VertexVertex);
  EXPECT_TRUE(m.points[0].vertex_on_a);
  EXPECT_EQ(m.points[0].vertex, 0);
  EXPECT_EQ(m.points[0].other, 0);
  EXPECT_FLOAT_EQ(m.points[0].separation, -0.5f);
  EXPECT_EQ(m.points[0].normal, (Vec2{1.0f, 0.0f}));
  expect_vec(m.points[0].point, {0.75f, 0.0f});
  // Different radii, diagonal: surfaces at distance 1 and 4 - 2 = 2 along (0.6, 0.8).
  const Manifold d = collide_circles({{1.0f, 1.0f}, 1.0f}, {{4.0f, 5.0f}, 2.0f}, 2.5f);
  ASSERT_EQ(d.count, 1);
  EXPECT_NEAR(d.points[0].separation, 2.0f, kTol);
  expect_vec(d.points[0].normal, {0.6f, 0.8f});
  expect_vec(d.points[0].point, Vec2{1.0f, 1.0f} + 2.0f * Vec2{0.6f, 0.8f});
  EXPECT_EQ(collide_circles({{1.0f, 1.0f}, 1.0f}, {{4.0f, 5.0f}, 2.0f}, 1.5f).count, 0);
}

TEST(CollideCircles, CoincidentCentresPickUp) {
  const Manifold m = collide_circles({{2.0f, 3.0f}, 1.0f}, {{2.0f, 3.0f}, 0.5f}, 0.0f);
  ASSERT_EQ(m.count, 1);
  EXPECT_EQ(m.points[0].normal, (Vec2{0.0f, 1.0f}));
  EXPECT_FLOAT_EQ(m.points[0].separation, -1.5f);
  expect_vec(m.points[0].point, {2.0f, 3.25f});
}

TEST(CollideDispatch, TableMatchesDirectCallsAndFlipsCirclePolygon) {
  const Polygon square = box(0.0f, 0.0f, 1.0f, 1.0f);
  const Polygon other = box(0.5f, 1.45f, 0.5f, 0.5f, 0.1f);
  const ShapeView sq = polygon_shape(square);
  const ShapeView ot = polygon_shape(other);
  const Vec2 ci_centre{1.3f, 1.4f}, c2_centre{2.0f, 1.4f};
  const ShapeView ci = circle_shape(ci_centre, 0.6f);
  const ShapeView c2 = circle_shape(c2_centre, 0.3f);

  const Manifold pp = collide(sq, ot, 0.0f);
  const Manifold pp_direct = collide_polygons(square.view(), other.view(), 0.0f);
  ASSERT_EQ(pp.count, pp_direct.count);
  ASSERT_GT(pp.count, 0);
  EXPECT_EQ(pp.points[0].normal, pp_direct.points[0].normal);

  const Manifold cc = collide(ci, c2, 0.0f);
  ASSERT_EQ(cc.count, 1);
  EXPECT_EQ(cc.points[0].normal, collide_circles({{ci.x[0], ci.y[0]}, ci.radius}, {{c2.x[0], c2.y[0]}, c2.radius}, 0.0f).points[0].normal);

  const Manifold pc = collide(sq, ci, 0.0f);
  const Manifold cp = collide(ci, sq, 0.0f);
  ASSERT_EQ(pc.count, 1);
  ASSERT_EQ(cp.count, 1);
  // Polygon first: circle is B and the vertex side. Circle first: circle is A, still the vertex
  // side, and the normal points from the circle to the polygon.
  EXPECT_FALSE(pc.points[0].vertex_on_a);
  EXPECT_TRUE(cp.points[0].vertex_on_a);
  expect_vec(pc.points[0].normal, {0.6f, 0.8f});
  expect_vec(cp.points[0].normal, {-0.6f, -0.8f});
  EXPECT_EQ(cp.points[0].kind, pc.points[0].kind);
  EXPECT_EQ(cp.points[0].vertex, 0);
  EXPECT_EQ(cp.points[0].other, pc.points[0].other);
  EXPECT_EQ(cp.points[0].separation, pc.points[0].separation);
  EXPECT_EQ(cp.points[0].point, pc.points[0].point);

  // Edge region through the dispatcher, circle first.
  const Vec2 ce_centre{0.3f, 1.4f};
  const Manifold ce = collide(circle_shape(ce_centre, 0.5f), sq, 0.0f);
  ASSERT_EQ(ce.count, 1);
  EXPECT_TRUE(ce.points[0].vertex_on_a);
  EXPECT_EQ(ce.points[0].other, 2);
  EXPECT_EQ(ce.points[0].normal, (Vec2{0.0f, -1.0f}));
}

// ---------------------------------------------------------------------------------------------
// Tile maps: internal edges.

constexpr std::uint16_t kBottom = 1u << 0, kRight = 1u << 1, kTop = 1u << 2, kLeft = 1u << 3;

// Four flush unit tiles [k, k+1] x [-1, 0]; shared vertical edges flagged unless `flag` is false.
std::vector<Polygon> floor_row(bool flag) {
  std::vector<Polygon> tiles;
  for (int k = 0; k < 4; ++k) {
    Polygon t = box(k + 0.5f, -0.5f, 0.5f, 0.5f);
    if (flag) t.internal_edges = (k < 3 ? kRight : 0) | (k > 0 ? kLeft : 0);
    tiles.push_back(t);
  }
  return tiles;
}

// Four flush unit tiles [0, 1] x [k, k+1] stacked into a wall; shared horizontal edges flagged.
std::vector<Polygon> wall_column(bool flag) {
  std::vector<Polygon> tiles;
  for (int k = 0; k < 4; ++k) {
    Polygon t = box(0.5f, k + 0.5f, 0.5f, 0.5f);
    if (flag) t.internal_edges = (k < 3 ? kTop : 0) | (k > 0 ? kBottom : 0);
    tiles.push_back(t);
  }
  return tiles;
}

struct SweepStats {
  int configurations = 0;
  int points = 0;
  float min_along = 2.0f;   // smallest normal . expected over all points (1 = exactly expected)
  int under_supported = 0;  // configurations with fewer than 2 penetrating points in total
  int sideways = 0;         // points whose normal is more than 60 degrees off the expected one
};

// Collides `body` with every tile in both argument orders and folds each normal (made to point
// from tile to body) into the statistics.
void sweep_one(const std::vector<Polygon>& tiles, const ShapeView& body, Vec2 expected,
               SweepStats& stats) {
  ++stats.configurations;
  int penetrating = 0;
  for (const Polygon& t : tiles) {
    for (const bool tile_first : {true, false}) {
      const ShapeView ts = polygon_shape(t);
      const Manifold m = tile_first ? collide(ts, body, 0.01f) : collide(body, ts, 0.01f);
      for (int i = 0; i < m.count; ++i) {
        const Vec2 n = tile_first ? m.points[i].normal : -m.points[i].normal;
        stats.min_along = std::min(stats.min_along, dot(n, expected));
        stats.sideways += dot(n, expected) < 0.5f;
        ++stats.points;
        if (tile_first && m.points[i].separation < 0.0f) ++penetrating;
      }
    }
  }
  if (penetrating < (body.kind == ColliderKind::Polygon ? 2 : 1)) ++stats.under_supported;
}

// Positions along a row or column of unit tiles with seams at 1, 2, 3: every 1e-3 from 0.6 to 3.4
// (the exposed ends of the row are real corners, so stay clear of them), plus, for each seam,
// a unit box's near face (at centre -+ 0.5) and its centre exactly on the seam and within 1e-3
// of it in 1e-4 steps: a corner less than the sink depth past a seam is what used to catch.
std::vector<float> seam_positions() {
  std::vector<float> out;
  for (int i = 0; i <= 2800; ++i) out.push_back(0.6f + 1e-3f * i);
  for (const float seam : {1.0f, 2.0f, 3.0f}) {
    for (int k = -10; k <= 10; ++k) {
      const float d = 1e-4f * k;
      out.push_back(seam + d);
      if (seam - 0.5f + d >= 0.6f) out.push_back(seam - 0.5f + d);
      if (seam + 0.5f + d <= 3.4f) out.push_back(seam + 0.5f + d);
    }
  }
  return out;
}

SweepStats sweep_box_along_floor(bool flag, float angle) {
  const std::vector<Polygon> tiles = floor_row(flag);
  SweepStats stats;
  // Sunk 1e-3 into the floor: the lowest corner of the (possibly tilted) box sits at y = -1e-3.
  const float lift = 0.5f * (std::cos(angle) + std::sin(std::fabs(angle)));
  for (const float x : seam_positions()) {
    const Polygon b = box(x, lift - 1e-3f, 0.5f, 0.5f, angle);
    sweep_one(tiles, polygon_shape(b), {0.0f, 1.0f}, stats);
  }
  return stats;
}

TEST(CollideTiles, BoxSlidingAlongFloorOnlyGetsUpwardNormals) {
  const SweepStats s = sweep_box_along_floor(true, 0.0f);
  std::printf("[ tiles ] floor sweep: %d positions, %d points, %d sideways, min normal.y %.7f\n",
              s.configurations, s.points, s.sideways, s.min_along);
  EXPECT_EQ(s.min_along, 1.0f);  // every normal exactly +y (from tile to box)
  EXPECT_EQ(s.under_supported, 0);
  // Slightly rotated boxes: normals may tilt with the box's own face but never sideways.
  for (const float angle : {0.02f, -0.02f}) {
    const SweepStats r = sweep_box_along_floor(true, angle);
    EXPECT_GE(r.min_along, std::cos(angle) - 1e-6f) << "angle " << angle;
    EXPECT_GT(r.points, 0);
  }
}

TEST(CollideTiles, WithoutInternalEdgesTheSeamCatches) {
  // Control: the same sweep with no flags finds sideways normals, so the test above has teeth.
  const SweepStats s = sweep_box_along_floor(false, 0.0f);
  std::printf("[ tiles ] without flags: %d of %d points sideways\n", s.sideways, s.points);
  EXPECT_GT(s.sideways, 0);
}

TEST(CollideTiles, BoxPressedAgainstWallOnlyGetsHorizontalNormals) {
  for (const bool flag : {true, false}) {
    const std::vector<Polygon> tiles = wall_column(flag);
    SweepStats s;
    // Box to the left of the wall, pushed 1e-3 into it, sliding up past the seams.
    for (const float y : seam_positions()) {
      const Polygon b = box(-0.5f + 1e-3f, y, 0.5f, 0.5f);
      sweep_one(tiles, polygon_shape(b), {-1.0f, 0.0f}, s);
    }
    if (flag) {
      EXPECT_EQ(s.min_along, 1.0f);  // every normal exactly -x (from wall to box)
      EXPECT_EQ(s.under_supported, 0);
    } else {
      EXPECT_LT(s.min_along, 0.5f);  // control: catches on a seam without the flags
    }
  }
}

TEST(CollideTiles, CircleRollingOverSeamsOnlyGetsUpwardNormals) {
  for (const bool flag : {true, false}) {
    const std::vector<Polygon> tiles = floor_row(flag);
    SweepStats s;
    for (const float x : seam_positions()) {
      const Vec2 centre{x, 0.5f - 1e-3f};
      sweep_one(tiles, circle_shape(centre, 0.5f), {0.0f, 1.0f}, s);
    }
    if (flag) {
      EXPECT_EQ(s.min_along, 1.0f);
      EXPECT_EQ(s.under_supported, 0);
    } else {
      EXPECT_LT(s.min_along, 0.9999f);  // control: seam vertices tilt the normal
    }
  }
}

TEST(CollideTiles, ExposedFacesStillCollide) {
  const std::vector<Polygon> tiles = floor_row(true);
  // Against the exposed right end of the row, from the side: horizontal normal.
  const Polygon b = box(4.5f - 1e-3f, -0.5f, 0.5f, 0.3f);
  const Manifold m = collide_polygons(tiles[3].view(), b.view(), 0.0f);
  ASSERT_EQ(m.count, 2);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(m.points[i].normal, (Vec2{1.0f, 0.0f}));
    EXPECT_NEAR(m.points[i].separation, -1e-3f, kTol);
  }
  // A box tilted by -0.3 rad, its bottom face resting on the row's exposed end corner (4, 0) and
  // sunk 0.01: the corner is a real corner, so the box's own face is the reference (rule 2).
  const Rot q = make_rot(-0.3f);
  const Vec2 up = rotate(q, {0.0f, 1.0f});
  const Vec2 c0 = Vec2{4.0f, 0.0f} + 0.49f * up + 0.2f * rotate(q, {1.0f, 0.0f});
  const Polygon tilted = box(c0.x, c0.y, 0.5f, 0.5f, -0.3f);
  const Manifold t = collide_polygons(tiles[3].view(), tilted.view(), 0.0f);
  ASSERT_EQ(t.count, 1);
  EXPECT_TRUE(t.points[0].vertex_on_a);
  EXPECT_EQ(t.points[0].vertex, 2);  // the tile's top-right corner
  EXPECT_EQ(t.points[0].other, 0);   // against the box's bottom edge
  EXPECT_NEAR(t.points[0].separation, -0.01f, kTol);
  expect_vec(t.points[0].normal, up, 1e-5f);
  // Circle on the exposed top-right corner: vertex region still a vertex.
  const Manifold c = collide_polygon_circle(tiles[3].view(), {{4.3f, 0.4f}, 0.6f}, 0.0f);
  ASSERT_EQ(c.count, 1);
  EXPECT_EQ(c.points[0].kind, FeatureKind::VertexVertex);
  expect_vec(c.points[0].normal, {0.6f, 0.8f});
  // A circle under a seam vertex of the row's bottom face is still measured against the face.
  const Manifold u = collide_polygon_circle(tiles[1].view(), {{2.2f, -1.3f}, 0.4f}, 0.0f);
  ASSERT_EQ(u.count, 1);
  EXPECT_EQ(u.points[0].kind, FeatureKind::VertexEdge);
  EXPECT_EQ(u.points[0].other, 0);
  EXPECT_EQ(u.points[0].normal, (Vec2{0.0f, -1.0f}));
  EXPECT_NEAR(u.points[0].separation, -0.1f, kTol);
}

TEST(CollideTiles, BuriedTileReportsNothing) {
  Polygon t = box(0.5f, 0.5f, 0.5f, 0.5f);
  t.internal_edges = kBottom | kRight | kTop | kLeft;
  const Polygon b = box(0.5f, 0.5f, 0.3f, 0.3f);
  EXPECT_EQ(collide_polygons(t.view(), b.view(), 0.1f).count, 0);
  EXPECT_EQ(collide_polygons(b.view(), t.view(), 0.1f).count, 0);
  EXPECT_EQ(collide_polygon_circle(t.view(), {{0.5f, 0.5f}, 0.3f}, 0.1f).count, 0);
  EXPECT_EQ(collide_polygon_circle(t.view(), {{1.2f, 0.5f}, 0.3f}, 0.1f).count, 0);
}

}  // namespace
}  // namespace strut::collide
