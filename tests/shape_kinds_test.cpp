// Shape kinds (solver/shapes/): validation messages, colliders, mass properties against the
// formulas and against numerical integration, point tests and ray casts against brute force,
// filtering, and the body-level rules of validate_body_def.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "solver/shapes/polygon_geometry.hpp"
#include "solver/shapes/shape_ops.hpp"
#include "strut/body.hpp"
#include "strut/error.hpp"
#include "strut/limits.hpp"

namespace strut::shapes {
namespace {

using test::kPi;

// The message of the strut::Error `f` throws ("" if it does not throw).
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

ShapeDef def_of(Shape s, Vec2 offset = {}, float angle = 0.0f) {
  ShapeDef d;
  d.shape = std::move(s);
  d.offset = offset;
  d.angle = angle;
  return d;
}

LocalCollider only_collider(const ShapeDef& d) {
  const auto cs = make_colliders(d);
  EXPECT_EQ(cs.size(), 1u);
  return cs.at(0);
}

// A collider in world space (identity body transform) owning its vertex arrays.
struct Placed {
  float x[kMaxPolygonVertices], y[kMaxPolygonVertices];
  collide::ShapeView view;
  explicit Placed(const LocalCollider& c) {
    for (int i = 0; i < c.count; ++i) x[i] = c.vertices[i].x, y[i] = c.vertices[i].y;
    view.kind = c.kind;
    view.x = x, view.y = y;
    view.count = c.count;
    view.radius = c.radius;
  }
  Placed(const Placed&) = delete;
};

// Exact signed distance (double) from p to the collider's core: negative inside a polygon core.
double core_distance(const LocalCollider& c, double px, double py) {
  auto seg = [&](Vec2 a, Vec2 b) {
    const double ex = double(b.x) - a.x, ey = double(b.y) - a.y;
    const double ll = ex * ex + ey * ey;
    double t = ll > 0 ? ((px - a.x) * ex + (py - a.y) * ey) / ll : 0;
    t = std::clamp(t, 0.0, 1.0);
    return std::hypot(px - (a.x + t * ex), py - (a.y + t * ey));
  };
  if (c.count == 1) return std::hypot(px - c.vertices[0].x, py - c.vertices[0].y);
  if (c.count == 2) return seg(c.vertices[0], c.vertices[1]);
  bool inside = true;
  double best = 1e300;
  for (int e = 0; e < c.count; ++e) {
    const Vec2 a = c.vertices[e], b = c.vertices[(e + 1) % c.count];
    if ((double(b.x) - a.x) * (py - a.y) - (double(b.y) - a.y) * (px - a.x) < 0) inside = false;
    best = std::min(best, seg(a, b));
  }
  return inside ? -best : best;
}

// Mass properties by integrating over a fine grid (cell centres inside the grown core).
MassData integrate(const LocalCollider& c, double density, int cells = 1000) {
  double lo_x = 1e300, lo_y = 1e300, hi_x = -1e300, hi_y = -1e300;
  for (int i = 0; i < c.count; ++i) {
    lo_x = std::min(lo_x, double(c.vertices[i].x)), hi_x = std::max(hi_x, double(c.vertices[i].x));
    lo_y = std::min(lo_y, double(c.vertices[i].y)), hi_y = std::max(hi_y, double(c.vertices[i].y));
  }
  lo_x -= c.radius, lo_y -= c.radius, hi_x += c.radius, hi_y += c.radius;
  const double h = std::max(hi_x - lo_x, hi_y - lo_y) / cells;
  double m = 0, mx = 0, my = 0, polar = 0;
  for (double y = lo_y + h / 2; y < hi_y; y += h) {
    for (double x = lo_x + h / 2; x < hi_x; x += h) {
      if (core_distance(c, x, y) > c.radius) continue;
      m += 1, mx += x, my += y, polar += x * x + y * y;
    }
  }
  const double cell = h * h * density;
  MassData out;
  out.mass = float(m * cell);
  const double cx = mx / m, cy = my / m;
  out.center = {float(cx), float(cy)};
  // Each cell's own polar moment (h^2 / 6 per unit mass) is added back.
  out.inertia = float(cell * (polar - m * (cx * cx + cy * cy)) + m * cell * h * h / 6.0);
  return out;
}

void expect_mass_near(const MassData& got, const MassData& want, double rel,
                      const std::string& what) {
  EXPECT_NEAR(got.mass, want.mass, rel * want.mass) << what;
  const double size = std::sqrt(want.inertia / want.mass);
  EXPECT_NEAR(got.center.x, want.center.x, rel * size) << what;
  EXPECT_NEAR(got.center.y, want.center.y, rel * size) << what;
  EXPECT_NEAR(got.inertia, want.inertia, rel * want.inertia) << what;
}

// --- kinds and filters -----------------------------------------------------------------------

TEST(ShapeKinds, KindOfEachShape) {
  EXPECT_EQ(kind_of(BoxShape{}), ShapeKind::Polygon);
  EXPECT_EQ(kind_of(PolygonShape{}), ShapeKind::Polygon);
  EXPECT_EQ(kind_of(CircleShape{}), ShapeKind::Circle);
  EXPECT_EQ(kind_of(CapsuleShape{}), ShapeKind::Capsule);
  EXPECT_EQ(kind_of(SegmentShape{}), ShapeKind::Segment);
  EXPECT_EQ(kind_of(ChainShape{}), ShapeKind::Chain);
}

TEST(ShapeKinds, FilterGroupsOverrideCategoryAndMask) {
  const ShapeFilter any;
  EXPECT_TRUE(should_collide(any, any));
  // Categories and masks, both ways.
  const ShapeFilter a{.category = 2, .mask = 4};
  const ShapeFilter b{.category = 4, .mask = 2};
  const ShapeFilter c{.category = 4, .mask = 1};
  EXPECT_TRUE(should_collide(a, b));
  EXPECT_FALSE(should_collide(a, c));  // c does not accept a's category
  EXPECT_FALSE(should_collide(c, a));
  // Same positive group: always, even where the masks say no.
  EXPECT_TRUE(should_collide({.category = 2, .mask = 0, .group = 3},
                             {.category = 4, .mask = 0, .group = 3}));
  // Same negative group: never, even where the masks say yes.
  EXPECT_FALSE(should_collide({.group = -3}, {.group = -3}));
  // Different groups fall back to the masks.
  EXPECT_TRUE(should_collide({.group = -3}, {.group = -4}));
  EXPECT_FALSE(should_collide({.category = 2, .mask = 0, .group = 3},
                              {.category = 4, .mask = 0, .group = 5}));
}

// --- validation ------------------------------------------------------------------------------

TEST(ShapeKinds, ValidationNamesTheField) {
  auto check = [](Shape s, bool dynamic = true, bool is_static = false) {
    return error_of([&] { validate_shape_def(def_of(std::move(s)), dynamic, is_static); });
  };
  EXPECT_EQ(check(CapsuleShape{.half_length = 1.0f, .radius = -1.0f}),
            "shape.radius: must be > 0, got -1");
  EXPECT_EQ(check(CapsuleShape{.half_length = 1.0f, .radius = 0.0f}),
            "shape.radius: must be > 0, got 0");
  EXPECT_EQ(check(CapsuleShape{.half_length = -0.5f, .radius = 0.2f}),
            "shape.half_length: must be >= 0, got -0.5");
  EXPECT_EQ(check(CapsuleShape{.half_length = NAN, .radius = 0.2f}),
            "shape.half_length: not a finite number");
  EXPECT_EQ(check(CapsuleShape{.half_length = 0.0f, .radius = 0.2f}), "");  // a disc
  EXPECT_NE(check(CapsuleShape{.half_length = 1.0f, .radius = 2e5f})
                .find("shape.radius: 200000 m "
                      "is outside"),
            std::string::npos);
  EXPECT_EQ(check(CircleShape{.radius = INFINITY}), "shape.radius: not a finite number");
  EXPECT_EQ(check(BoxShape{.half_extents = {1.0f, 1.0f}, .radius = -0.1f}),
            "shape.radius: must be >= 0, got -0.1");
  EXPECT_EQ(check(BoxShape{.half_extents = {0.0f, 1.0f}})
                .rfind("shape.half_extents.x: 0 m is "
                       "outside",
                       0),
            0u);
  EXPECT_EQ(check(PolygonShape{.vertices = {{0, 0}, {1, 0}, {0.2f, 0.2f}, {0, 1}}}),
            "shape.vertices: polygon is not convex at vertex 2");
  EXPECT_EQ(check(PolygonShape{.vertices = {{0, 0}, {1, 0}}}),
            "shape.vertices: a polygon needs at least 3 vertices, got 2");
  EXPECT_EQ(check(PolygonShape{.vertices = {{0, 0}, {1, 0}, {0, 1}}, .radius = NAN}),
            "shape.radius: not a finite number");
  // Segments: distinct points; static or kinematic only.
  EXPECT_EQ(check(SegmentShape{{1, 1}, {1, 1}}, false),
            "shape.b: the segment's points must be at least 0.001 m apart (strut/limits.hpp), "
            "got 0 m");
  EXPECT_EQ(check(SegmentShape{{0, 0}, {1, 0}}, false), "");
  EXPECT_EQ(check(SegmentShape{{0, 0}, {1, 0}}, true),
            "shape: a segment has no area, so no mass: it needs a static or kinematic body");
  EXPECT_EQ(check(SegmentShape{{NAN, 0}, {1, 0}}, false), "shape.a: not a finite number");
  // Chains: enough points, no two neighbours equal, static bodies only.
  EXPECT_EQ(check(ChainShape{{{0, 0}}}, false, true),
            "shape.points: an open chain needs at least 2 points, got 1");
  EXPECT_EQ(check(ChainShape{{{0, 0}, {1, 0}}, true}, false, true),
            "shape.points: a looped chain needs at least 3 points, got 2");
  EXPECT_EQ(check(ChainShape{{{0, 0}, {1, 0}, {2, 0}, {2, 0}}}, false, true),
            "shape.points[3]: equal to its neighbour");
  EXPECT_EQ(check(ChainShape{{{0, 0}, {1, 0}, {1, 1}, {0, 0}}, true}, false, true),
            "shape.points[0]: equal to its neighbour");  // the loop closes onto the first point
  EXPECT_EQ(check(ChainShape{{{0, 0}, {1, 0}, {1, 1}}}, false, true), "");
  EXPECT_EQ(check(ChainShape{{{0, 0}, {1, 0}}}, false, false),
            "shape: a chain needs a static body");
  // The definition's own fields.
  ShapeDef d = def_of(CircleShape{});
  d.offset = {NAN, 0};
  EXPECT_EQ(error_of([&] { validate_shape_def(d, true, false); }), "offset: not a finite number");
  d = def_of(CircleShape{});
  d.material.friction = -1;
  EXPECT_NE(error_of([&] { validate_shape_def(d, true, false); }).find("material.friction"),
            std::string::npos);
}

TEST(ShapeKinds, BodyValidationAcceptsTheNewKindsWhereTheyBelong) {
  auto check = [](const BodyDef& d) { return error_of([&] { validate_body_def(d); }); };
  BodyDef capsule;
  capsule.shapes = {ShapeDef{CapsuleShape{.half_length = 0.5f, .radius = 0.25f}}};
  EXPECT_EQ(check(capsule), "");
  BodyDef rounded;
  rounded.shapes = {ShapeDef{.shape = BoxShape{.half_extents = {0.5f, 0.5f}, .radius = 0.1f},
                             .filter = {.group = -2},
                             .sensor = true}};
  EXPECT_EQ(check(rounded), "");
  BodyDef segment;
  segment.shapes = {ShapeDef{SegmentShape{{-1, 0}, {1, 0}}}};
  EXPECT_EQ(check(segment),
            "shapes[0].shape: a segment has no area, so no mass: it needs a static or kinematic "
            "body");
  segment.is_kinematic = true;
  EXPECT_EQ(check(segment), "");
  BodyDef chain;
  chain.shapes = {ShapeDef{ChainShape{{{0, 0}, {1, 0}, {2, 1}}}}};
  chain.is_kinematic = true;
  EXPECT_EQ(check(chain), "shapes[0].shape: a chain needs a static body");
  chain.is_kinematic = false;
  chain.is_static = true;
  EXPECT_EQ(check(chain), "");
  BodyDef soft_capsule = capsule;
  soft_capsule.soft = 1e-4f;
  EXPECT_EQ(check(soft_capsule), "soft: a soft body has exactly one polygon shape");
  BodyDef soft_rounded = rounded;
  soft_rounded.soft = 1e-4f;
  EXPECT_EQ(check(soft_rounded), "soft: a rounded polygon cannot be soft");
  // A single shape's fields are named under shapes[0]; the mass limits apply to the shapes
  // together, named `shapes`.
  BodyDef tiny;
  tiny.shapes = {ShapeDef{CircleShape{.radius = 1e-4f}}};
  EXPECT_EQ(check(tiny).rfind("shapes[0].shape.radius: 0.0001 m is outside", 0), 0u);
  BodyDef heavy;
  heavy.shapes = {ShapeDef{.shape = CapsuleShape{.half_length = 1e4f, .radius = 1e4f},
                           .material = {.density = 1e9f}}};
  EXPECT_EQ(check(heavy).rfind("shapes: mass ", 0), 0u) << check(heavy);
}

TEST(ShapeKinds, CompoundBodyRules) {
  auto check = [](const BodyDef& d) { return error_of([&] { validate_body_def(d); }); };
  BodyDef body;
  body.shapes.push_back(def_of(BoxShape{{0.5f, 0.1f}}, {0, 0}));
  body.shapes.push_back(def_of(CapsuleShape{.half_length = 0.3f, .radius = 0.1f}, {0, 0.5f}, 1.0f));
  body.shapes.push_back(def_of(CircleShape{.radius = 0.2f}, {1, 0}));
  EXPECT_EQ(check(body), "");
  // Each shape is checked with its index.
  BodyDef bad = body;
  std::get<CapsuleShape>(bad.shapes[1].shape).radius = -1;
  EXPECT_EQ(check(bad), "shapes[1].shape.radius: must be > 0, got -1");
  bad = body;
  bad.shapes[2].material.restitution = 2;
  EXPECT_EQ(check(bad).rfind("shapes[2].material.restitution", 0), 0u) << check(bad);
  // Segments and chains on a dynamic body: rejected, with the index.
  bad = body;
  bad.shapes.push_back(def_of(SegmentShape{}));
  EXPECT_EQ(check(bad),
            "shapes[3].shape: a segment has no area, so no mass: it needs a static or kinematic "
            "body");
  bad.is_static = true;
  EXPECT_EQ(check(bad), "");
  bad.shapes.push_back(def_of(ChainShape{{{0, 0}, {1, 0}}}));
  EXPECT_EQ(check(bad), "");
  bad.is_static = false;
  bad.is_kinematic = true;
  EXPECT_EQ(check(bad), "shapes[4].shape: a chain needs a static body");
  // Soft: exactly one polygon.
  BodyDef soft;
  soft.soft = 1e-4f;
  soft.shapes.push_back(def_of(BoxShape{}));
  EXPECT_EQ(check(soft), "");
  soft.shapes.push_back(def_of(BoxShape{}, {1, 0}));
  EXPECT_EQ(check(soft), "soft: a soft body has exactly one polygon shape");
  // Mass limits on the sum: each shape alone would be too light.
  BodyDef light;
  for (int i = 0; i < 4; ++i) {
    ShapeDef s = def_of(CircleShape{.radius = 0.01f}, {float(i), 0});
    s.material.density = 1e-6f;  // 3.1e-10 kg each, 1.3e-9 kg together
    light.shapes.push_back(s);
  }
  EXPECT_EQ(check(light), "");
  light.shapes.pop_back();
  light.shapes.pop_back();
  EXPECT_EQ(check(light).rfind("shapes: mass ", 0), 0u) << check(light);
  // A dynamic compound made only of massless shapes is impossible (segments rejected), and a
  // static one needs no mass.
  BodyDef ground;
  ground.is_static = true;
  ground.shapes.push_back(def_of(ChainShape{{{0, 0}, {1, 0}, {2, 0}}}));
  EXPECT_EQ(check(ground), "");
}

// --- colliders -------------------------------------------------------------------------------

TEST(ShapeKinds, CollidersArePlacedByOffsetAndAngle) {
  // A box turned a quarter turn about its own origin, then moved to (2, 1).
  const LocalCollider box = only_collider(def_of(BoxShape{{1.0f, 0.5f}}, {2, 1}, kPi / 2));
  ASSERT_EQ(box.count, 4);
  EXPECT_EQ(box.kind, collide::ColliderKind::Polygon);
  EXPECT_NEAR(box.vertices[0].x, 2.5f, 1e-6f);  // (-1, -0.5) turned: (0.5, -1)
  EXPECT_NEAR(box.vertices[0].y, 0.0f, 1e-6f);
  EXPECT_NEAR(box.vertices[2].x, 1.5f, 1e-6f);
  EXPECT_NEAR(box.vertices[2].y, 2.0f, 1e-6f);
  // Clockwise polygon input comes out counter-clockwise.
  const LocalCollider tri =
      only_collider(def_of(PolygonShape{.vertices = {{0, 0}, {0, 1}, {1, 0}}, .radius = 0.1f}));
  ASSERT_EQ(tri.count, 3);
  EXPECT_EQ(tri.radius, 0.1f);
  EXPECT_GT(cross(tri.vertices[1] - tri.vertices[0], tri.vertices[2] - tri.vertices[0]), 0.0f);
  // Capsule along its frame's x axis; segment as given.
  const LocalCollider cap = only_collider(def_of(CapsuleShape{0.5f, 0.2f}, {0, 3}, kPi / 2));
  EXPECT_EQ(cap.kind, collide::ColliderKind::Capsule);
  EXPECT_NEAR(cap.vertices[0].x, 0.0f, 1e-6f);
  EXPECT_NEAR(cap.vertices[0].y, 2.5f, 1e-6f);
  EXPECT_NEAR(cap.vertices[1].y, 3.5f, 1e-6f);
  const LocalCollider seg = only_collider(def_of(SegmentShape{{1, 2}, {3, 4}}));
  EXPECT_EQ(seg.radius, 0.0f);
  EXPECT_EQ(seg.vertices[1], (Vec2{3, 4}));
  // A loop of 4 points: 4 links, each with both ghosts, wrapping round.
  const auto loop = make_colliders(def_of(ChainShape{{{0, 0}, {1, 0}, {1, 1}, {0, 1}}, true}));
  ASSERT_EQ(loop.size(), 4u);
  for (const LocalCollider& l : loop) {
    EXPECT_EQ(l.kind, collide::ColliderKind::ChainSegment);
    EXPECT_TRUE(l.has_prev && l.has_next);
  }
  EXPECT_EQ(loop[0].ghost_prev, (Vec2{0, 1}));
  EXPECT_EQ(loop[3].vertices[1], (Vec2{0, 0}));
  EXPECT_EQ(loop[3].ghost_next, (Vec2{1, 0}));
  // An open chain's end links have no ghost beyond the end.
  const auto open = make_colliders(def_of(ChainShape{{{0, 0}, {1, 0}, {2, 0}}}));
  ASSERT_EQ(open.size(), 2u);
  EXPECT_FALSE(open[0].has_prev);
  EXPECT_TRUE(open[0].has_next);
  EXPECT_EQ(open[0].ghost_next, (Vec2{2, 0}));
  EXPECT_TRUE(open[1].has_prev);
  EXPECT_FALSE(open[1].has_next);
}

// --- mass --------------------------------------------------------------------------------------

TEST(ShapeKinds, CircleAndPolygonMassKeepTheirBits) {
  // Radius-0 shapes give exactly what body storage has always computed.
  const LocalCollider circle = only_collider(def_of(CircleShape{0.7f}));
  const MassData mc = mass_of(circle, 2.5f);
  const float m = 2.5f * float(M_PI) * 0.7f * 0.7f;
  EXPECT_EQ(std::bit_cast<std::uint32_t>(mc.mass), std::bit_cast<std::uint32_t>(m));
  EXPECT_EQ(std::bit_cast<std::uint32_t>(mc.inertia),
            std::bit_cast<std::uint32_t>(0.5f * m * 0.7f * 0.7f));
  const std::vector<Vec2> v = {{0, 0}, {2, 0}, {2.5f, 1}, {0.5f, 1.5f}};
  const LocalCollider poly = only_collider(def_of(PolygonShape{v}));
  const PolygonMass pm = polygon_mass(make_convex_ccw(v, "vertices"));
  const MassData mp = mass_of(poly, 3.0f);
  EXPECT_EQ(mp.mass, 3.0f * pm.area);
  EXPECT_EQ(mp.inertia, 3.0f * pm.inertia);
  EXPECT_EQ(mp.center, pm.centroid);
}

TEST(ShapeKinds, CapsuleMassMatchesTheFormulaAndIntegration) {
  const float h = 0.8f, r = 0.3f, rho = 2.0f;
  const LocalCollider cap = only_collider(def_of(CapsuleShape{h, r}, {1, -2}, 0.4f));
  const MassData m = mass_of(cap, rho);
  // Rectangle 2r x 2h plus a disc of radius r.
  const double rect = rho * 4.0 * r * h, disc = rho * M_PI * r * r;
  EXPECT_NEAR(m.mass, rect + disc, 1e-5);
  EXPECT_NEAR(m.center.x, 1.0f, 1e-6f);
  EXPECT_NEAR(m.center.y, -2.0f, 1e-6f);
  // Rectangle about its centre, plus each half disc moved from its centroid (4r / 3pi beyond
  // the rectangle's end) to the capsule's centre.
  const double c = 4.0 * r / (3.0 * M_PI);
  const double half = disc / 2;
  const double expected = rect * (4.0 * h * h + 4.0 * r * r) / 12.0 +
                          2.0 * (half * r * r / 2.0 - half * c * c + half * (h + c) * (h + c));
  EXPECT_NEAR(m.inertia, expected, 1e-5 * expected);
  expect_mass_near(m, integrate(cap, rho), 2e-3, "capsule");
  // Half-length 0 is a disc, and collides as a circle.
  const LocalCollider dot_capsule = only_collider(def_of(CapsuleShape{0.0f, r}, {1, 2}));
  EXPECT_EQ(dot_capsule.kind, collide::ColliderKind::Circle);
  EXPECT_EQ(dot_capsule.vertices[0], (Vec2{1, 2}));
  const MassData disc_only = mass_of(dot_capsule, rho);
  EXPECT_NEAR(disc_only.inertia, disc * r * r / 2.0, 1e-6);
}

TEST(ShapeKinds, RoundedPolygonMassIsExact) {
  // Rounded box: area 4 hx hy + 2 r (2 hx + 2 hy) + pi r^2, and its inertia by integration.
  const float hx = 0.6f, hy = 0.3f, r = 0.15f;
  const LocalCollider box = only_collider(def_of(BoxShape{{hx, hy}, r}, {0.5f, 0.2f}, 0.3f));
  const MassData m = mass_of(box, 1.0f);
  EXPECT_NEAR(m.mass, 4 * hx * hy + 4 * r * (hx + hy) + kPi * r * r, 1e-5f);
  EXPECT_NEAR(m.center.x, 0.5f, 1e-6f);
  EXPECT_NEAR(m.center.y, 0.2f, 1e-6f);
  expect_mass_near(m, integrate(box, 1.0), 2e-3, "rounded box");
  // An irregular rounded polygon: its centre is off its vertices' mean.
  const LocalCollider poly = only_collider(
      def_of(PolygonShape{.vertices = {{0, 0}, {3, 0}, {0.5f, 1.0f}}, .radius = 0.4f}));
  expect_mass_near(mass_of(poly, 2.0f), integrate(poly, 2.0), 2e-3, "rounded triangle");
  // Radius 0 through the same integration, as a check on the integrator itself.
  const LocalCollider sharp = only_collider(def_of(PolygonShape{{{0, 0}, {3, 0}, {0.5f, 1.0f}}}));
  expect_mass_near(mass_of(sharp, 2.0f), integrate(sharp, 2.0), 2e-3, "triangle");
}

TEST(ShapeKinds, SegmentsAndChainsHaveNoMass) {
  const MassData s = mass_of(only_collider(def_of(SegmentShape{{0, 0}, {2, 0}})), 5.0f);
  EXPECT_EQ(s.mass, 0.0f);
  EXPECT_EQ(s.inertia, 0.0f);
  for (const LocalCollider& l : make_colliders(def_of(ChainShape{{{0, 0}, {1, 0}, {2, 1}}}))) {
    EXPECT_EQ(mass_of(l, 5.0f).mass, 0.0f);
    EXPECT_EQ(mass_of(l, 5.0f).inertia, 0.0f);
  }
}

TEST(ShapeKinds, CombineUsesTheParallelAxisTheorem) {
  // Two unit squares at x = -1 and x = +1, density 3: centre 0, each adds m d^2 = 3.
  const MassData a = mass_of(only_collider(def_of(BoxShape{}, {-1, 0})), 3.0f);
  const MassData b = mass_of(only_collider(def_of(BoxShape{}, {1, 0})), 3.0f);
  const MassData both = combine({a, b});
  EXPECT_NEAR(both.mass, 6.0f, 1e-6f);
  EXPECT_NEAR(both.center.x, 0.0f, 1e-6f);
  EXPECT_NEAR(both.inertia, 2 * (3.0f * 2.0f / 12.0f + 3.0f), 1e-5f);
  // An L of a box and a capsule and a massless segment, against integrating the union.
  const LocalCollider foot = only_collider(def_of(BoxShape{{1.0f, 0.2f}}, {0.5f, 0}));
  const LocalCollider post =
      only_collider(def_of(CapsuleShape{0.6f, 0.2f}, {-0.3f, 0.9f}, kPi / 2));
  const LocalCollider rail = only_collider(def_of(SegmentShape{{-3, 0}, {3, 0}}));
  const MassData l = combine({mass_of(foot, 2.0f), mass_of(post, 2.0f), mass_of(rail, 2.0f)});
  // The parts do not overlap, so the union's integral is the sum of theirs.
  const MassData fi = integrate(foot, 2.0), pi = integrate(post, 2.0);
  const double mass = fi.mass + pi.mass;
  const double cx = (fi.mass * fi.center.x + pi.mass * pi.center.x) / mass;
  const double cy = (fi.mass * fi.center.y + pi.mass * pi.center.y) / mass;
  auto moved = [&](const MassData& p) {
    return p.inertia + p.mass * (std::pow(p.center.x - cx, 2) + std::pow(p.center.y - cy, 2));
  };
  expect_mass_near(l, {float(mass), {float(cx), float(cy)}, float(moved(fi) + moved(pi))}, 2e-3,
                   "L");
  EXPECT_GT(l.center.y, 0.0f);  // the post lifts it
  // Only massless parts: no mass, no inertia.
  EXPECT_EQ(combine({mass_of(rail, 1.0f), mass_of(rail, 1.0f)}).mass, 0.0f);
}

// --- point tests and ray casts ----------------------------------------------------------------

std::vector<LocalCollider> sample_colliders() {
  std::vector<LocalCollider> out;
  out.push_back(only_collider(def_of(CircleShape{0.7f}, {0.3f, -0.2f})));
  out.push_back(only_collider(def_of(BoxShape{{0.8f, 0.5f}}, {0.1f, 0.1f}, 0.3f)));
  out.push_back(only_collider(def_of(BoxShape{{0.8f, 0.5f}, 0.25f}, {0.1f, 0.1f}, 0.3f)));
  out.push_back(only_collider(
      def_of(PolygonShape{.vertices = {{-1, -0.5f}, {1, -0.7f}, {0.4f, 0.9f}}, .radius = 0.3f})));
  out.push_back(only_collider(def_of(CapsuleShape{0.9f, 0.35f}, {0, 0.2f}, 0.7f)));
  out.push_back(only_collider(def_of(SegmentShape{{-1, -0.4f}, {1.2f, 0.6f}})));
  out.push_back(make_colliders(def_of(ChainShape{{{-2, 0}, {-1, -0.4f}, {1.2f, 0.6f}}}))[1]);
  return out;
}

TEST(ShapeKinds, ContainsMatchesTheDistanceToTheCore) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> coord(-2.0f, 2.0f);
  for (const LocalCollider& c : sample_colliders()) {
    const Placed p(c);
    int inside = 0;
    for (int i = 0; i < 4000; ++i) {
      const Vec2 q = {coord(rng), coord(rng)};
      const double d = core_distance(c, q.x, q.y) - c.radius;
      if (std::fabs(d) < 1e-5) continue;  // on the surface within rounding
      EXPECT_EQ(contains(p.view, q), d < 0) << int(c.kind) << " at " << q.x << ", " << q.y;
      inside += d < 0;
    }
    if (c.radius > 0 || c.count > 2) {
      EXPECT_GT(inside, 100) << int(c.kind);
    }
  }
}

// Rays against marching along them: the first sample inside the grown core is the hit.
TEST(ShapeKinds, RayCastsMatchMarching) {
  std::mt19937 rng(12);
  std::uniform_real_distribution<float> coord(-3.0f, 3.0f);
  int hits = 0, misses = 0;
  for (const LocalCollider& c : sample_colliders()) {
    const Placed p(c);
    const bool thin = c.radius == 0.0f && c.count == 2;  // segments: march by crossing sides
    for (int i = 0; i < 600; ++i) {
      const Vec2 from = {coord(rng), coord(rng)}, to = {coord(rng), coord(rng)};
      if (core_distance(c, from.x, from.y) <= c.radius + 1e-4) continue;  // starts inside
      const auto hit = ray_cast(p.view, from, to);
      // Reference: first fraction where the distance to the core reaches the radius (a thin
      // segment: where the ray crosses its line within its span), by marching and then
      // bisecting the step where it happens.
      constexpr int kSteps = 2000;
      const Vec2 a = c.vertices[0], b = c.vertices[c.count > 1 ? 1 : 0];
      auto point_at = [&](double t) {
        return std::pair{from.x + t * (double(to.x) - from.x),
                         from.y + t * (double(to.y) - from.y)};
      };
      auto side = [&](double t) {
        const auto [x, y] = point_at(t);
        return (double(b.x) - a.x) * (y - a.y) - (double(b.y) - a.y) * (x - a.x) > 0;
      };
      auto inside = [&](double t) {
        const auto [x, y] = point_at(t);
        return core_distance(c, x, y) <= c.radius;
      };
      double first = -1;
      for (int k = 1; k <= kSteps && first < 0; ++k) {
        double lo = double(k - 1) / kSteps, hi = double(k) / kSteps;
        if (thin ? side(lo) == side(hi) : !inside(hi)) continue;
        const bool start_side = side(lo);
        for (int it = 0; it < 60; ++it) {
          const double mid = 0.5 * (lo + hi);
          (thin ? side(mid) == start_side : !inside(mid)) ? lo = mid : hi = mid;
        }
        const auto [x, y] = point_at(hi);
        if (!thin || core_distance(c, x, y) < 1e-5) first = hi;
        if (thin && first < 0) break;  // crossed the line beyond the segment's ends
      }
      const std::string what = "kind " + std::to_string(int(c.kind)) + " ray " + std::to_string(i);
      if (first < 0) {
        // Grazing rays can touch between samples; the hit must then be on the surface.
        if (hit) {
          const Vec2 q = from + hit->fraction * (to - from);
          EXPECT_NEAR(core_distance(c, q.x, q.y), c.radius, 1e-4) << what;
        }
        ++misses;
        continue;
      }
      ASSERT_TRUE(hit.has_value()) << what << " reference " << first;
      ++hits;
      EXPECT_NEAR(hit->fraction, first, 2e-5) << what;
      // The normal: outward at the hit point, from the nearest core point (thin: facing the
      // ray's start).
      const Vec2 q = from + hit->fraction * (to - from);
      EXPECT_NEAR(length(hit->normal), 1.0f, 1e-5f);
      EXPECT_LT(dot(hit->normal, to - from), 0.0f) << what;
      if (c.radius > 0) {
        // Nearest core point: step back along the normal by the radius.
        const Vec2 core = q - c.radius * hit->normal;
        EXPECT_NEAR(core_distance(c, core.x, core.y), 0.0, 2e-4) << what;
      }
    }
  }
  EXPECT_GT(hits, 500);
  EXPECT_GT(misses, 500);
}

TEST(ShapeKinds, RoundedBoxSurfaceIsHalfExtentPlusRadius) {
  const LocalCollider box = only_collider(def_of(BoxShape{{0.5f, 0.4f}, 0.1f}, {0, 2}));
  const Placed p(box);
  // Straight down onto its bottom: the surface at 2 - (0.4 + 0.1).
  const auto below = ray_cast(p.view, {0.2f, 2.0f - 3.0f}, {0.2f, 2.0f});
  ASSERT_TRUE(below.has_value());
  EXPECT_NEAR(-1.0f + 3.0f * below->fraction, 1.5f, 1e-5f);
  EXPECT_EQ(below->normal, (Vec2{0, -1}));
  // Diagonally onto a corner: the disc of radius 0.1 around (0.5, 2.4).
  const float s = std::sqrt(0.5f);
  const Vec2 corner{0.5f, 2.4f};
  const auto diag = ray_cast(p.view, corner + 2.0f * Vec2{s, s}, corner);
  ASSERT_TRUE(diag.has_value());
  EXPECT_NEAR(2.0f * (1.0f - diag->fraction), 0.1f, 1e-5f);
  EXPECT_NEAR(diag->normal.x, s, 1e-5f);
  EXPECT_TRUE(contains(p.view, corner + 0.099f * Vec2{s, s}));
  EXPECT_FALSE(contains(p.view, corner + 0.101f * Vec2{s, s}));
  // Inside the square's corner but outside the rounding: the Minkowski sum, not the bigger box.
  EXPECT_FALSE(contains(p.view, {0.59f, 2.49f}));
  EXPECT_TRUE(contains(p.view, {0.59f, 2.3f}));
}

TEST(ShapeKinds, SegmentRaysHitEitherSide) {
  const LocalCollider seg = only_collider(def_of(SegmentShape{{-1, 0}, {1, 0}}));
  const Placed p(seg);
  const auto from_above = ray_cast(p.view, {0.5f, 1}, {0.5f, -1});
  ASSERT_TRUE(from_above.has_value());
  EXPECT_NEAR(from_above->fraction, 0.5f, 1e-6f);
  EXPECT_EQ(from_above->normal, (Vec2{0, 1}));
  const auto from_below = ray_cast(p.view, {0.5f, -1}, {0.5f, 1});
  ASSERT_TRUE(from_below.has_value());
  EXPECT_EQ(from_below->normal, (Vec2{0, -1}));
  EXPECT_FALSE(ray_cast(p.view, {1.5f, 1}, {1.5f, -1}).has_value());  // beyond its end
  EXPECT_FALSE(ray_cast(p.view, {0, 0.5f}, {0, 0.5f}).has_value());   // zero length
  EXPECT_TRUE(contains(p.view, {0.25f, 0}));
  EXPECT_FALSE(contains(p.view, {0.25f, 1e-3f}));
}

}  // namespace
}  // namespace strut::shapes
