// Bodies: mass properties against the solid-shape formulas, ids, and rejected input.
#include <gtest/gtest.h>

#include <cmath>

#include "solver/shapes/polygon_geometry.hpp"
#include "strut/limits.hpp"
#include "strut/scenes.hpp"
#include "test_util.hpp"

namespace strut {
using test::error_of;

TEST(Body, BoxMassAndInertiaMatchTheSolidBox) {
  World world;
  BodyDef d = test::box_def({1, 2}, {1.0f, 0.5f});
  d.shapes[0].material.density = 3.0f;
  const BodyId id = world.create_body(d);
  const float m = 3.0f * 2.0f * 1.0f;
  EXPECT_FLOAT_EQ(world.mass(id), m);
  EXPECT_NEAR(world.inertia(id), m * (4.0f + 1.0f) / 12.0f, 1e-5f);
  EXPECT_FLOAT_EQ(world.transform(id).position.x, 1.0f);
  EXPECT_FLOAT_EQ(world.transform(id).position.y, 2.0f);
}

TEST(Body, TriangleMassCentroidAndInertia) {
  World world;
  BodyDef d;
  // Right triangle legs 3 and 6: area 9, centroid (1, 2) from the right angle,
  // polar inertia about the centroid = m (a^2 + b^2) / 18 for legs a, b.
  d.shapes = {ShapeDef{PolygonShape{{{0, 0}, {3, 0}, {0, 6}}}}};
  d.center = {10, 0};
  const BodyId id = world.create_body(d);
  EXPECT_NEAR(world.mass(id), 9.0f, 1e-5f);
  EXPECT_NEAR(world.inertia(id), 9.0f * (9.0f + 36.0f) / 18.0f, 1e-3f);
  EXPECT_NEAR(world.transform(id).position.x, 11.0f, 1e-5f);
  EXPECT_NEAR(world.transform(id).position.y, 2.0f, 1e-5f);
}

TEST(Body, ClockwiseVerticesGiveTheSameBody) {
  World world;
  BodyDef ccw, cw;
  ccw.shapes = {ShapeDef{PolygonShape{{{0, 0}, {2, 0}, {2, 1}, {0, 1}}}}};
  cw.shapes = {ShapeDef{PolygonShape{{{0, 1}, {2, 1}, {2, 0}, {0, 0}}}}};
  const BodyId a = world.create_body(ccw), b = world.create_body(cw);
  EXPECT_FLOAT_EQ(world.mass(a), world.mass(b));
  EXPECT_FLOAT_EQ(world.inertia(a), world.inertia(b));
}

TEST(Body, CircleMassAndInertia) {
  World world;
  BodyDef d;
  d.shapes = {ShapeDef{.shape = CircleShape{0.5f}, .material = {.density = 2.0f}}};
  const BodyId id = world.create_body(d);
  const float m = 2.0f * float(M_PI) * 0.25f;
  EXPECT_NEAR(world.mass(id), m, 1e-5f);
  EXPECT_NEAR(world.inertia(id), 0.5f * m * 0.25f, 1e-6f);
}

TEST(Body, ParticleMassSplitReproducesMassCentreAndInertia) {
  // A lopsided pentagon: the split must keep total mass, centre of mass and inertia.
  std::vector<Vec2> v =
      make_convex_ccw(std::vector<Vec2>{{0, 0}, {4, 0}, {5, 1}, {2, 3}, {-0.5f, 1.5f}}, "v");
  const PolygonMass pm = polygon_mass(v);
  for (Vec2& p : v) p -= pm.centroid;
  const float m = pm.area, inertia = pm.inertia;
  const ParticleMassSplit s = split_polygon_mass(v, m, inertia);
  double total = s.centre_mass, cx = s.centre_mass * s.centre.x, cy = s.centre_mass * s.centre.y;
  double i_sum = s.centre_mass * dot(s.centre, s.centre);
  for (Vec2 p : v) {
    total += s.vertex_mass;
    cx += s.vertex_mass * p.x, cy += s.vertex_mass * p.y;
    i_sum += s.vertex_mass * dot(p, p);
  }
  EXPECT_NEAR(total, m, 1e-4 * m);
  EXPECT_NEAR(cx, 0.0, 1e-4);
  EXPECT_NEAR(cy, 0.0, 1e-4);
  EXPECT_NEAR(i_sum, inertia, 1e-4 * inertia);
  EXPECT_GT(s.centre_mass, 0.0f);
}

TEST(Body, StaticBodiesHaveNoInverseMassAndNeverMove) {
  World world;
  const BodyId g = world.create_body(test::ground_def());
  for (int i = 0; i < 10; ++i) world.step(1.0f / 60);
  EXPECT_EQ(world.transform(g).position.y, -1.0f);
  EXPECT_EQ(world.linear_velocity(g).y, 0.0f);
}

TEST(Body, BuiltinMaterials) {
  EXPECT_FLOAT_EQ(material_named("rock").density, 0.6f);
  EXPECT_FLOAT_EQ(material_named("rock").restitution, 0.1f);
  EXPECT_FLOAT_EQ(material_named("wood").density, 0.3f);
  EXPECT_FLOAT_EQ(material_named("metal").restitution, 0.05f);
  EXPECT_FLOAT_EQ(material_named("super_ball").restitution, 0.95f);
  EXPECT_FLOAT_EQ(material_named("pillow").density, 0.1f);
  EXPECT_FLOAT_EQ(material_named("static").density, 0.0f);
  EXPECT_FLOAT_EQ(material_named("default").friction, 0.6f);
  EXPECT_EQ(error_of([] { material_named("plutonium"); }), "unknown material 'plutonium'");
}

TEST(BodyIds, StaleAndNullIdsAreRejected) {
  World world;
  const BodyId a = world.create_body(test::box_def({0, 0}));
  world.destroy_body(a);
  EXPECT_FALSE(world.is_valid(a));
  EXPECT_NE(error_of([&] { world.transform(a); }).find("stale or unknown body 1/1"),
            std::string::npos);
  EXPECT_NE(error_of([&] { world.destroy_body(a); }).find("destroy_body"), std::string::npos);
  EXPECT_NE(error_of([&] { world.transform(BodyId{}); }).find("null body id"), std::string::npos);
  // The slot is reused with a new generation; the old id stays stale.
  const BodyId b = world.create_body(test::box_def({0, 0}));
  EXPECT_EQ(b.index, a.index);
  EXPECT_NE(b.generation, a.generation);
  EXPECT_FALSE(world.is_valid(a));
  EXPECT_TRUE(world.is_valid(b));
  EXPECT_NE(error_of([&] {
              world.set_linear_velocity(a, {1, 0});
            }).find("stale"),
            std::string::npos);
}

TEST(BodyIds, DestroyedBodiesLeaveTheOthersIntact) {
  World world(WorldConfig{.gravity = {0, 0}});
  std::vector<BodyId> ids;
  for (int i = 0; i < 10; ++i) ids.push_back(world.create_body(test::box_def({float(i) * 3, 0})));
  for (int i = 0; i < 10; i += 3) world.destroy_body(ids[i]);
  world.step(1.0f / 60);
  EXPECT_EQ(world.body_count(), 6u);
  for (int i = 0; i < 10; ++i) {
    if (i % 3 == 0) continue;
    EXPECT_FLOAT_EQ(world.transform(ids[i]).position.x, float(i) * 3);
  }
}

// Each bad input is rejected with a message naming it, and the world is unchanged.
struct BadBody {
  const char* name;
  BodyDef def;
  const char* message;
};

TEST(BadInput, RejectedWithAMessageAndTheWorldUnchanged) {
  const float nan = std::nanf(""), inf = INFINITY;
  auto box = [](Vec2 h) {
    BodyDef d;
    d.shapes = {ShapeDef{BoxShape{h}}};
    return d;
  };
  auto poly = [](std::vector<Vec2> v) {
    BodyDef d;
    d.shapes = {ShapeDef{PolygonShape{std::move(v)}}};
    return d;
  };
  auto circle = [](float r) {
    BodyDef d;
    d.shapes = {ShapeDef{CircleShape{r}}};
    return d;
  };
  std::vector<BadBody> cases;
  {
    BodyDef d = box({1, 1});
    d.center = {nan, 0};
    cases.push_back({"nan centre", d, "create_body: center: not a finite number"});
  }
  {
    BodyDef d = box({1, 1});
    d.velocity = {0, inf};
    cases.push_back({"infinite velocity", d, "create_body: velocity: not a finite number"});
  }
  cases.push_back({"zero half extent", box({0, 1}),
                   "create_body: shapes[0].shape.half_extents.x: 0 m is outside [0.001, 100000] m "
                   "(strut/limits.hpp)"});
  cases.push_back({"negative half extent", box({1, -2}),
                   "create_body: shapes[0].shape.half_extents.y: -2 m is outside [0.001, 100000] m "
                   "(strut/limits.hpp)"});
  cases.push_back(
      {"zero radius", circle(0),
       "create_body: shapes[0].shape.radius: 0 m is outside [0.001, 100000] m (strut/limits.hpp)"});
  cases.push_back({"negative radius", circle(-1),
                   "create_body: shapes[0].shape.radius: -1 m is outside [0.001, 100000] m "
                   "(strut/limits.hpp)"});
  cases.push_back(
      {"nan radius", circle(nan), "create_body: shapes[0].shape.radius: not a finite number"});
  {
    BodyDef d = box({1, 1});
    d.shapes[0].material.density = 0;
    cases.push_back({"zero density", d,
                     "create_body: shapes: mass 0 kg (the shapes' density x area, summed) is "
                     "outside [1e-09, 1e+15] kg (strut/limits.hpp)"});
  }
  {
    BodyDef d = box({1, 1});
    d.shapes[0].material.density = -1;
    cases.push_back({"negative density", d,
                     "create_body: shapes[0].material.density: -1 is out of range [0, 1e+09]"});
  }
  cases.push_back({"concave", poly({{0, 0}, {2, 0}, {1, 0.5f}, {2, 2}, {0, 2}}),
                   "create_body: shapes[0].shape.vertices: polygon is not convex at vertex 2"});
  cases.push_back(
      {"collinear", poly({{0, 0}, {1, 0}, {2, 0}, {1, 1}}),
       "create_body: shapes[0].shape.vertices: polygon has collinear edges at vertex 1"});
  cases.push_back({"zero area", poly({{0, 0}, {1, 1}, {2, 2}}),
                   "create_body: shapes[0].shape.vertices: polygon has zero area"});
  cases.push_back({"self intersecting", poly({{0, 0}, {2, 2}, {2, 0}, {0, 2}}),
                   "create_body: shapes[0].shape.vertices: polygon is self-intersecting"});
  cases.push_back(
      {"pentagram",
       poly({{0, 1}, {0.588f, -0.809f}, {-0.951f, 0.309f}, {0.951f, 0.309f}, {-0.588f, -0.809f}}),
       "create_body: shapes[0].shape.vertices: polygon is self-intersecting"});
  cases.push_back(
      {"two vertices", poly({{0, 0}, {1, 0}}),
       "create_body: shapes[0].shape.vertices: a polygon needs at least 3 vertices, got 2"});
  {
    std::vector<Vec2> v;
    for (int i = 0; i < 17; ++i) v.push_back({std::cos(i * 0.3695f), std::sin(i * 0.3695f)});
    cases.push_back(
        {"17 vertices", poly(v),
         "create_body: shapes[0].shape.vertices: a polygon has at most 16 vertices, got 17"});
  }
  cases.push_back({"duplicate vertex", poly({{0, 0}, {1, 0}, {1, 0}, {0, 1}}),
                   "create_body: shapes[0].shape.vertices: zero-length edge at vertex 1"});
  cases.push_back({"nan vertex", poly({{0, 0}, {1, nan}, {0, 1}}),
                   "create_body: shapes[0].shape.vertices[1]: not a finite number"});
  {
    BodyDef d = circle(1);
    d.soft = 0.1f;
    cases.push_back(
        {"soft circle", d, "create_body: soft: a soft body has exactly one polygon shape"});
  }
  World world;
  const BodyId keep = world.create_body(test::box_def({0, 5}));
  const std::uint64_t hash = world.state_hash();
  for (const BadBody& c : cases) {
    EXPECT_EQ(error_of([&] { world.create_body(c.def); }), c.message) << c.name;
  }
  EXPECT_EQ(world.body_count(), 1u);
  EXPECT_EQ(world.state_hash(), hash);
  EXPECT_TRUE(world.is_valid(keep));
}

// Numbers in error messages take the short form (%g) of the rest of the messages, never %f
// (issue 31: "-1.000000 is out of range [0.000000, 1000000000.000000]").
TEST(BadInput, NumbersInMessagesAreShort) {
  World world;
  const BodyId keep = world.create_body(test::box_def({0, 5}));
  const std::uint64_t hash = world.state_hash();
  BodyDef d = test::box_def({3, 0});
  d.shapes[0].material.friction = 1000.5f;
  EXPECT_EQ(error_of([&] { world.create_body(d); }),
            "create_body: shapes[0].material.friction: 1000.5 is out of range [0, 1000]");
  d.shapes[0].material.friction = 0.5f, d.shapes[0].material.restitution = 1.25f;
  EXPECT_EQ(error_of([&] { world.create_body(d); }),
            "create_body: shapes[0].material.restitution: 1.25 is out of range [0, 1]");
  EXPECT_EQ(error_of([&] {
              world.set_target_transform(keep, {{0, 5}, 0}, -0.25f);
            }),
            "set_target_transform: dt must be a positive finite number, got -0.25");
  EXPECT_EQ(world.body_count(), 1u);
  EXPECT_EQ(world.state_hash(), hash);
  EXPECT_EQ(error_of([] { builtin_scene("rain", 1500.5f); }),
            "builtin_scene: size must be in (0, 1000], got 1500.5");
}

// A number just past a limit is printed exactly (%g's six digits said 4000 for 4000.0002, so the
// message read "4000 exceeds the limit of 4000 m"), a round one as short as before, and the sign
// is kept.
TEST(BadInput, NumbersAtTheLimitsAreExact) {
  World world;
  const std::uint64_t hash = world.state_hash();
  const float past = std::nextafter(limits::kMaxCoordinate, 1e9f);  // 4000.00024 as a float
  EXPECT_EQ(error_of([&] {
              world.create_body(test::box_def({past, 0}));
            }),
            "create_body: center: 4000.0002 exceeds the limit of 4000 m (strut/limits.hpp)");
  EXPECT_EQ(error_of([&] {
              world.create_body(test::box_def({0, -past}));
            }),
            "create_body: center: -4000.0002 exceeds the limit of 4000 m (strut/limits.hpp)");
  BodyDef d = test::box_def({0, 0});
  d.shapes[0].material.friction = std::nextafter(1000.0f, 2000.0f);
  EXPECT_EQ(error_of([&] { world.create_body(d); }),
            "create_body: shapes[0].material.friction: 1000.00006 is out of range [0, 1000]");
  EXPECT_EQ(error_of([&] { world.step(std::nextafter(limits::kMaxDt, 1.0f)); }),
            "step: dt must be in [1e-05, 0.1] s (strut/limits.hpp), got 0.10000001");
  EXPECT_EQ(world.body_count(), 0u);
  EXPECT_EQ(world.state_hash(), hash);
}

TEST(BadInput, WorldAndStepArguments) {
  EXPECT_EQ(error_of([] { World w(WorldConfig{.substeps = 0}); }),
            "WorldConfig: substeps must be in [1, 1000], got 0");
  EXPECT_EQ(error_of([] {
              World w(WorldConfig{.gravity = {0, std::nanf("")}});
            }),
            "WorldConfig: gravity is not a finite number");
  World world;
  EXPECT_EQ(error_of([&] { world.step(0); }),
            "step: dt must be in [1e-05, 0.1] s (strut/limits.hpp), got 0");
  EXPECT_EQ(error_of([&] { world.step(-1); }),
            "step: dt must be in [1e-05, 0.1] s (strut/limits.hpp), got -1");
  EXPECT_NE(error_of([&] { world.step(std::nanf("")); }).find("step: dt"), std::string::npos);
  EXPECT_EQ(error_of([&] { world.set_substeps(-2); }),
            "set_substeps: substeps must be in [1, 1000], got -2");
  const BodyId b = world.create_body(test::box_def({0, 0}));
  EXPECT_EQ(error_of([&] {
              world.apply_force(b, {INFINITY, 0});
            }),
            "apply_force: force is not a finite number");
  EXPECT_EQ(error_of([&] {
              world.set_linear_velocity(b, {std::nanf(""), 0});
            }),
            "set_linear_velocity: velocity is not a finite number");
}

}  // namespace strut

namespace strut {
namespace {

// get_positions: the centres transform() gives, for many bodies in one call; a stale id is
// named by its index and nothing is written.
TEST(GetPositions, EqualTransformsCentresAndNameStaleIds) {
  World w(WorldConfig{.threads = 1});
  std::vector<BodyId> ids;
  for (int k = 0; k < 5; ++k) {
    BodyDef d;
    d.shapes = {ShapeDef{CircleShape{0.3f}}};
    d.center = {float(k), 2.0f * float(k)};
    ids.push_back(w.create_body(d));
  }
  w.step(1.0f / 60);
  std::vector<Vec2> out(5);
  w.get_positions(ids, out);
  for (int k = 0; k < 5; ++k) {
    EXPECT_EQ(out[std::size_t(k)].x, w.transform(ids[std::size_t(k)]).position.x);
    EXPECT_EQ(out[std::size_t(k)].y, w.transform(ids[std::size_t(k)]).position.y);
  }
  w.destroy_body(ids[3]);
  std::vector<Vec2> untouched(5, Vec2{7, 7});
  try {
    w.get_positions(ids, untouched);
    ADD_FAILURE() << "read a destroyed body";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("get_positions: ids[3]"), std::string::npos) << e.what();
  }
  EXPECT_EQ(untouched[0].x, 7.0f);
  std::vector<Vec2> short_out(2);
  EXPECT_THROW(w.get_positions(ids, short_out), Error);
}

}  // namespace
}  // namespace strut

namespace strut {
namespace {

// A body's origin apart from its centre of mass: a static chain from x = 10 to 20 created at the
// origin keeps its origin at (0, 0), its centre (transform) local_center away; placing its
// origin where it is moves nothing; a turned box with an offset shape reports the origin it was
// created with.
TEST(BodyOrigin, OriginIsApartFromTheCentreOfMass) {
  World w(WorldConfig{.threads = 1});
  BodyDef chain;
  chain.is_static = true;
  chain.shapes = {ShapeDef{ChainShape{{{10, 0}, {15, 0}, {20, 0}}}}};
  const BodyId c = w.create_body(chain);
  const float centre = w.transform(c).position.x;
  EXPECT_GT(centre, 10.0f);
  EXPECT_NEAR(w.local_center(c).x, centre, 1e-5f);
  EXPECT_NEAR(w.origin_transform(c).position.x, 0.0f, 1e-5f);
  w.set_origin_transform(c, {0, 0}, 0);
  EXPECT_NEAR(w.transform(c).position.x, centre, 1e-5f);  // not shifted by the offset
  BodyDef box;
  ShapeDef piece;
  piece.shape = BoxShape{{0.5f, 0.5f}};
  piece.offset = {2, 0};
  box.shapes = {piece};
  box.center = {1, 3};
  box.angle = 0.5f;
  const BodyId b = w.create_body(box);
  EXPECT_NEAR(w.local_center(b).x, 2.0f, 1e-5f);
  const Transform o = w.origin_transform(b);
  EXPECT_NEAR(o.position.x, 1.0f, 1e-5f);
  EXPECT_NEAR(o.position.y, 3.0f, 1e-5f);
  EXPECT_NEAR(o.angle, 0.5f, 1e-6f);
  EXPECT_NEAR(w.transform(b).position.x, 1.0f + 2.0f * std::cos(0.5f), 1e-5f);
  w.set_origin_transform(b, {-4, 0}, 0);
  EXPECT_NEAR(w.transform(b).position.x, -2.0f, 1e-5f);
  EXPECT_NEAR(w.origin_transform(b).position.x, -4.0f, 1e-5f);
  // Bad input names the field, and the body stays where it was.
  const auto refused = [&](Vec2 origin, float angle) {
    try {
      w.set_origin_transform(b, origin, angle);
    } catch (const Error& e) {
      EXPECT_NEAR(w.origin_transform(b).position.x, -4.0f, 1e-5f);
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refused({std::nanf(""), 0}, 0), "set_origin_transform: origin is not a finite number");
  EXPECT_EQ(refused({0, 0}, INFINITY), "set_origin_transform: angle is not a finite number");
  // The box's centre lies 2 m along its x axis from the origin: 3999 + 2 is beyond 4000 m.
  EXPECT_EQ(refused({3999, 0}, 0),
            "set_origin_transform: origin puts the centre of mass at (4001, 0), beyond the limit "
            "of 4000 m (strut/limits.hpp)");
  w.destroy_body(b);
  EXPECT_THROW(w.origin_transform(b), Error);
}

}  // namespace
}  // namespace strut
