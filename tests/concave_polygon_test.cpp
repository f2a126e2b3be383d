// decompose_polygon and concave_polygon_shapes: concave outlines as convex pieces, checked
// against geometry (every piece convex, within the vertex cap, made of outline points, the areas
// adding up), against the outline's own mass properties (shoelace and second-moment formulas over
// the whole outline, never over the pieces), and against physics (small circles resting in every
// notch), plus the errors that name the problem and leave the world as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "strut/shape.hpp"
#include "strut/world.hpp"
#include "test_util.hpp"

namespace strut::concave_test {
namespace {

using test::kPi;

// The outline's area, centroid and polar second moment about the centroid, per unit density,
// from the edge sums of the shoelace formula (signed: positive when counter-clockwise).
struct OutlineMass {
  double area = 0, cx = 0, cy = 0, inertia = 0;
};
OutlineMass outline_mass(const std::vector<Vec2>& v) {
  double a = 0, mx = 0, my = 0, polar = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double x0 = v[i].x, y0 = v[i].y;
    const double x1 = v[(i + 1) % v.size()].x, y1 = v[(i + 1) % v.size()].y;
    const double c = x0 * y1 - x1 * y0;
    a += c / 2;
    mx += c * (x0 + x1) / 6;
    my += c * (y0 + y1) / 6;
    polar += c * (x0 * x0 + x0 * x1 + x1 * x1 + y0 * y0 + y0 * y1 + y1 * y1) / 12;
  }
  OutlineMass m;
  m.area = a;
  m.cx = mx / a, m.cy = my / a;
  m.inertia = polar - a * (m.cx * m.cx + m.cy * m.cy);
  return m;
}

// Every turn strictly left by make_convex_ccw's margin (sine above 1e-6).
bool strictly_convex_ccw(const std::vector<Vec2>& v) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Vec2 a = v[i], b = v[(i + 1) % v.size()], c = v[(i + 2) % v.size()];
    const double ex = double(b.x) - a.x, ey = double(b.y) - a.y;
    const double fx = double(c.x) - b.x, fy = double(c.y) - b.y;
    if (ex * fy - ey * fx <= 1e-6 * std::hypot(ex, ey) * std::hypot(fx, fy)) return false;
  }
  return true;
}

// Even-odd point in polygon.
bool inside(const std::vector<Vec2>& v, double px, double py) {
  bool in = false;
  for (std::size_t i = 0, j = v.size() - 1; i < v.size(); j = i++) {
    const double xi = v[i].x, yi = v[i].y, xj = v[j].x, yj = v[j].y;
    if ((yi > py) != (yj > py) && px < (xj - xi) * (py - yi) / (yj - yi) + xi) in = !in;
  }
  return in;
}

// A five-pointed star: outer radius 2, inner 0.8, first tip straight up.
std::vector<Vec2> star() {
  std::vector<Vec2> v;
  for (int k = 0; k < 10; ++k) {
    const float r = k % 2 == 0 ? 2.0f : 0.8f, t = kPi / 2 + float(k) * kPi / 5;
    v.push_back({r * std::cos(t), r * std::sin(t)});
  }
  return v;
}

// 2 x 2 with the upper right 1 x 1 cut away (area 3).
std::vector<Vec2> l_shape() { return {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}; }

// A strip of ground 18.5 m wide with 18 V-shaped dips of depths 0.2 to 0.55 m between level
// points 1 m apart, on a flat bottom: 38 top points and 2 bottom corners, 40 vertices.
constexpr int kTerrainDips = 18;
float dip_depth(int d) { return 0.2f + 0.05f * float(d % 8); }
std::vector<Vec2> terrain() {
  std::vector<Vec2> v = {{9.25f, -2.0f}};
  for (int k = 37; k >= 0; --k) {  // right to left keeps the outline counter-clockwise
    const bool dip = k % 2 == 1 && k <= 35;
    v.push_back({-9.25f + 0.5f * float(k), dip ? -dip_depth(k / 2) : 0.0f});
  }
  v.push_back({-9.25f, -2.0f});
  return v;
}

// Star-shaped about the origin with random radii in [0.3, 2] at evenly spaced angles.
std::vector<Vec2> random_star(std::mt19937& rng, int n) {
  std::uniform_real_distribution<float> radius(0.3f, 2.0f);
  std::vector<Vec2> v;
  for (int k = 0; k < n; ++k) {
    const float r = radius(rng), t = 2 * kPi * float(k) / float(n);
    v.push_back({r * std::cos(t), r * std::sin(t)});
  }
  return v;
}

// The checks every decomposition must pass; `outline` counter-clockwise.
void expect_tiles(const std::vector<Vec2>& outline, const std::vector<PolygonShape>& pieces,
                  double area_tolerance) {
  const double area = outline_mass(outline).area;
  double sum = 0;
  for (const PolygonShape& p : pieces) {
    ASSERT_GE(p.vertices.size(), 3u);
    ASSERT_LE(p.vertices.size(), std::size_t(kMaxPolygonVertices));
    EXPECT_TRUE(strictly_convex_ccw(p.vertices));
    EXPECT_EQ(p.radius, 0.0f);
    for (const Vec2 q : p.vertices)  // no new points: pieces share whole edges
      EXPECT_NE(std::find(outline.begin(), outline.end(), q), outline.end());
    const OutlineMass m = outline_mass(p.vertices);
    EXPECT_GT(m.area, 0);
    EXPECT_TRUE(inside(outline, m.cx, m.cy));
    sum += m.area;
  }
  EXPECT_NEAR(sum, area, area_tolerance * area);
}

TEST(ConcavePolygon, StarLAndTerrainTileTheirOutlines) {
  // Exact tiling: the only error is double rounding of float points (relative 1e-12).
  const std::vector<PolygonShape> s = decompose_polygon(star());
  expect_tiles(star(), s, 1e-12);
  // 5 notches need at least 3 convex pieces; Hertel-Mehlhorn gives at most 4 x optimum.
  EXPECT_GE(s.size(), 3u);
  EXPECT_LE(s.size(), 12u);
  const std::vector<PolygonShape> l = decompose_polygon(l_shape());
  expect_tiles(l_shape(), l, 1e-12);
  EXPECT_EQ(l.size(), 2u);  // one notch: two rectangles, or two quads meeting at the corner
  EXPECT_NEAR(outline_mass(l_shape()).area, 3.0, 1e-12);
  const std::vector<PolygonShape> t = decompose_polygon(terrain());
  ASSERT_EQ(terrain().size(), 40u);
  expect_tiles(terrain(), t, 1e-12);
}

// A convex outline of more vertices than a polygon may have: cut into pieces of at most 16.
TEST(ConcavePolygon, LargeConvexOutlineIsCutToTheVertexCap) {
  std::vector<Vec2> circle;
  for (int k = 0; k < 40; ++k)
    circle.push_back(
        {2 * std::cos(2 * kPi * float(k) / 40), 2 * std::sin(2 * kPi * float(k) / 40)});
  const std::vector<PolygonShape> pieces = decompose_polygon(circle);
  expect_tiles(circle, pieces, 1e-12);
  EXPECT_GE(pieces.size(), 3u);  // 38 triangles, at most 14 to a piece of 16 vertices
}

TEST(ConcavePolygon, RandomStarShapedPolygonsTileThemselves) {
  std::mt19937 rng(31);
  std::uniform_int_distribution<int> count(3, 80);
  for (int trial = 0; trial < 60; ++trial) {
    const int n = trial < 2 ? (trial == 0 ? 400 : kMaxConcaveVertices) : count(rng);
    const std::vector<Vec2> outline = random_star(rng, n);
    SCOPED_TRACE("trial " + std::to_string(trial) + ", " + std::to_string(n) + " vertices");
    // Straight points (turn sine within 1e-5) are dropped, which may shave a sliver of that
    // order off the area; 1e-6 of the area covers it.
    expect_tiles(outline, decompose_polygon(outline), 1e-6);
  }
}

// The pieces depend on the outline only: the same for either winding, any first vertex, and
// with repeated and straight points added.
TEST(ConcavePolygon, PiecesDependOnTheOutlineOnly) {
  const std::vector<PolygonShape> base = decompose_polygon(star());
  auto same = [&](const std::vector<Vec2>& outline) {
    const std::vector<PolygonShape> p = decompose_polygon(outline);
    ASSERT_EQ(p.size(), base.size());
    for (std::size_t i = 0; i < p.size(); ++i) EXPECT_EQ(p[i].vertices, base[i].vertices);
  };
  std::vector<Vec2> reversed = star();
  std::reverse(reversed.begin(), reversed.end());
  same(reversed);
  std::vector<Vec2> rotated = star();
  std::rotate(rotated.begin(), rotated.begin() + 3, rotated.end());
  same(rotated);
  std::vector<Vec2> messy = star();
  messy.insert(messy.begin() + 4, messy[4]);                      // a repeat
  messy.insert(messy.begin() + 2, (messy[1] + messy[2]) * 0.5f);  // a point on an edge
  messy.push_back(messy[0]);                                      // closed explicitly
  same(messy);
}

// A body of the pieces has the outline's mass, centre of mass and rotational inertia.
TEST(ConcavePolygon, BodyHasTheOutlinesMassProperties) {
  std::mt19937 rng(5);
  std::vector<std::vector<Vec2>> outlines = {star(), l_shape(), terrain()};
  for (int k = 0; k < 5; ++k) outlines.push_back(random_star(rng, 30 + 20 * k));
  for (std::size_t k = 0; k < outlines.size(); ++k) {
    SCOPED_TRACE("outline " + std::to_string(k));
    const std::vector<Vec2>& outline = outlines[k];
    World world;
    BodyDef def;
    def.center = {3, 1};
    ShapeDef like;
    like.material.density = 2.5f;
    def.shapes = concave_polygon_shapes(outline, like);
    const BodyId id = world.create_body(def);
    const OutlineMass m = outline_mass(outline);
    // Float sums over the pieces against the double formula: relative 1e-5 (the body adds
    // pieces of a few to a few hundred float products).
    EXPECT_NEAR(world.mass(id), 2.5 * m.area, 1e-5 * 2.5 * m.area);
    const Vec2 com = world.transform(id).position;
    const double size = std::sqrt(m.area);
    EXPECT_NEAR(com.x, 3 + m.cx, 1e-5 * size);
    EXPECT_NEAR(com.y, 1 + m.cy, 1e-5 * size);
    EXPECT_NEAR(world.inertia(id), 2.5 * m.inertia, 1e-4 * 2.5 * m.inertia);
    // Each piece keeps `like`'s material.
    for (const ShapeId s : world.shapes(id)) EXPECT_EQ(world.definition(s).material.density, 2.5f);
  }
}

Vec2 unit(Vec2 v) { return v * (1.0f / length(v)); }

// A circle of radius r in a V whose sides meet at apex q with half-angle a about the unit
// bisector u rests at q + u r / sin(a).
Vec2 rest_in_notch(Vec2 q, Vec2 side1, Vec2 side2, float r) {
  const Vec2 d1 = unit(side1 - q), d2 = unit(side2 - q);
  const Vec2 u = unit(d1 + d2);
  const float half = 0.5f * std::acos(std::clamp(dot(d1, d2), -1.0f, 1.0f));
  return q + u * (r / std::sin(half));
}

// Drops a circle of radius r from `start` in a world whose gravity (10 m/s^2) points along
// `down`, onto the static concave body `outline`, and runs 4 s. Expects it at `expected` at
// rest, touching the outline's body.
void expect_rests_in_notch(const std::vector<Vec2>& outline, Vec2 down, Vec2 start, Vec2 expected,
                           float r, const std::string& label) {
  SCOPED_TRACE(label);
  WorldConfig config;
  config.gravity = down * test::kG;
  config.enable_sleep = false;  // a sleeping body reports no contacts
  World world(config);
  BodyDef ground;
  ground.is_static = true;
  ground.shapes = concave_polygon_shapes(outline);
  const BodyId g = world.create_body(ground);
  BodyDef ball;
  ball.shapes = {ShapeDef{CircleShape{r}}};
  ball.center = start;
  const BodyId b = world.create_body(ball);
  for (int i = 0; i < 240; ++i) world.step(test::kDt);
  const BodyState s = world.state(b);
  // Measured within 0.054 mm of the tangent position (soft contacts settle that deep) in every
  // notch of the star, the L and the terrain; 0.5 mm leaves room and is still far below a notch's
  // depth (0.2 m and more): a circle pushed out or fallen through misses it by centimetres.
  EXPECT_NEAR(s.transform.position.x, expected.x, 5e-4f);
  EXPECT_NEAR(s.transform.position.y, expected.y, 5e-4f);
  EXPECT_LT(length(s.velocity), 0.01f);  // at rest (sleep speed is 0.05 m/s)
  bool touches = false;
  for (const ContactData& c : world.body_contacts(b)) touches = touches || c.a == g || c.b == g;
  EXPECT_TRUE(touches);
}

TEST(ConcavePolygon, CirclesRestInEveryNotchOfTheStar) {
  // Gravity points at the centre through each notch: the circle falls in from 1.5 m out and
  // settles touching both sides of the notch.
  const std::vector<Vec2> v = star();
  for (int k = 1; k < 10; k += 2) {
    const Vec2 q = v[k], u = unit(q);
    const float r = 0.1f;
    expect_rests_in_notch(v, -u, q + u * 1.5f, rest_in_notch(q, v[k - 1], v[(k + 1) % 10], r), r,
                          "notch at vertex " + std::to_string(k));
  }
}

TEST(ConcavePolygon, CircleRestsInTheLsCorner) {
  // Gravity towards (-1, -1): the circle settles into the inner corner (1, 1), touching both
  // walls, at (1 + r, 1 + r).
  const float r = 0.2f;
  expect_rests_in_notch(l_shape(), unit(Vec2{-1, -1}), {1.8f, 1.8f}, {1 + r, 1 + r}, r, "L corner");
}

TEST(ConcavePolygon, CirclesRestInEveryDipOfTheTerrain) {
  const std::vector<Vec2> v = terrain();
  const float r = 0.15f;
  for (int d = 0; d < kTerrainDips; ++d) {
    const float x = -9.25f + 0.5f * float(2 * d + 1), depth = dip_depth(d);
    const Vec2 q{x, -depth};
    expect_rests_in_notch(v, {0, -1}, {x, 1.0f}, rest_in_notch(q, {x - 0.5f, 0}, {x + 0.5f, 0}, r),
                          r, "dip " + std::to_string(d));
  }
}

TEST(ConcavePolygon, BadOutlinesAreRejectedNamingTheProblem) {
  auto error = [](std::vector<Vec2> v) { return test::error_of([&] { decompose_polygon(v); }); };
  EXPECT_EQ(error({{0, 0}, {1, 0}}),
            "decompose_polygon: vertices: a polygon needs at least 3 vertices, got 2");
  EXPECT_EQ(error({{0, 0}, {1, 0}, {NAN, 1}}),
            "decompose_polygon: vertices[2]: not a finite number");
  EXPECT_EQ(error({{0, 0}, {INFINITY, 0}, {0, 1}}),
            "decompose_polygon: vertices[1]: not a finite number");
  EXPECT_EQ(error({{0, 0}, {2, 2}, {2, 0}, {0, 2}}),
            "decompose_polygon: vertices: self-intersecting: the edge from vertices[0] to "
            "vertices[1] crosses the edge from vertices[2] to vertices[3]");
  // Vertex 3 sits on edge 0: touching is refused too (the pieces would meet in a point).
  EXPECT_EQ(error({{0, 0}, {4, 0}, {4, 3}, {2, 0}, {0, 3}}),
            "decompose_polygon: vertices: self-intersecting: the edge from vertices[0] to "
            "vertices[1] touches the edge from vertices[2] to vertices[3]");
  EXPECT_EQ(error({{0, 0}, {1, 1}, {2, 2}, {1, 1}}),
            "decompose_polygon: vertices: the polygon has zero area (its 4 points repeat or lie "
            "on one line)");
  EXPECT_EQ(error(std::vector<Vec2>(std::size_t(kMaxConcaveVertices) + 1, Vec2{})),
            "decompose_polygon: vertices: at most 1024 vertices (kMaxConcaveVertices), got 1025");
  EXPECT_EQ(error({{0, 0}, {2e5f, 0}, {0, 1}}),
            "decompose_polygon: vertices[1]: 200000 exceeds the limit of 100000 m "
            "(strut/limits.hpp)");
  EXPECT_NE(error({{0, 0}, {1e-4f, 0}, {0, 1e-4f}}).find("smaller than 0.001 m square"),
            std::string::npos);
  EXPECT_NE(test::error_of([] {
              concave_polygon_shapes(std::vector<Vec2>{{0, 0}, {1, 0}});
            }).find("decompose_polygon: vertices: a polygon needs at least 3"),
            std::string::npos);
}

// A concave outline given to the world as one polygon is refused as before, and neither that nor
// a refused decomposition changes the world.
TEST(ConcavePolygon, RefusedCallsLeaveTheWorldUnchanged) {
  World world;
  BodyDef box;
  box.shapes = {ShapeDef{BoxShape{}}};
  box.center = {0, 2};
  world.create_body(box);
  world.step(test::kDt);
  const std::uint64_t before = world.state_hash();
  BodyDef concave;
  concave.shapes = {ShapeDef{PolygonShape{l_shape()}}};
  EXPECT_NE(test::error_of([&] { world.create_body(concave); }).find("not convex at vertex 3"),
            std::string::npos);
  EXPECT_FALSE(
      test::error_of([&] {
        BodyDef d;
        d.shapes = concave_polygon_shapes(std::vector<Vec2>{{0, 0}, {2, 2}, {2, 0}, {0, 2}});
        world.create_body(d);
      }).empty());
  EXPECT_EQ(world.bodies().size(), 1u);
  EXPECT_EQ(world.state_hash(), before);
}

}  // namespace
}  // namespace strut::concave_test
