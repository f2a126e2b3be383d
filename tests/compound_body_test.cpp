// Compound bodies: several shapes on one body, each with its placement, material and filter;
// mass from all of them; shapes added and removed at run time; groups and sensors.
#include <gtest/gtest.h>

#include <cmath>

#include "test_util.hpp"

namespace strut {
namespace {

ShapeDef box_shape(Vec2 half, Vec2 offset, float angle = 0.0f, float density = 1.0f) {
  ShapeDef s;
  s.shape = BoxShape{half};
  s.offset = offset;
  s.angle = angle;
  s.material.density = density;
  return s;
}

ShapeDef circle_shape(float radius, Vec2 offset) {
  ShapeDef s;
  s.shape = CircleShape{radius};
  s.offset = offset;
  return s;
}

// Mass, centre of mass (body frame) and inertia about it of boxes (w x h, centre c, density rho)
// by the formulas: m = rho w h, I = m (w^2 + h^2) / 12, parallel axis m d^2.
struct Part {
  float w, h, cx, cy, rho;
};
void expect_mass_of(const World& world, BodyId id, std::vector<Part> parts, Vec2 origin) {
  double m = 0, mx = 0, my = 0;
  for (const Part& p : parts) {
    const double pm = p.rho * p.w * p.h;
    m += pm, mx += pm * p.cx, my += pm * p.cy;
  }
  const double cx = mx / m, cy = my / m;
  double inertia = 0;
  for (const Part& p : parts) {
    const double pm = p.rho * p.w * p.h;
    inertia += pm * (p.w * p.w + p.h * p.h) / 12 +
               pm * ((p.cx - cx) * (p.cx - cx) + (p.cy - cy) * (p.cy - cy));
  }
  EXPECT_NEAR(world.mass(id), m, 1e-5 * m);
  EXPECT_NEAR(world.inertia(id), inertia, 1e-4 * inertia);
  const Transform t = world.transform(id);  // the centre of mass (angle 0 here)
  EXPECT_NEAR(t.position.x, origin.x + cx, 1e-5);
  EXPECT_NEAR(t.position.y, origin.y + cy, 1e-5);
}

}  // namespace

TEST(CompoundBody, MassCentreAndInertiaFollowTheParallelAxisTheorem) {
  World world;
  BodyDef d;
  d.center = {3, 4};
  d.shapes = {box_shape({1.0f, 0.25f}, {0, 0}), box_shape({0.25f, 0.5f}, {2, 1}, 0.0f, 3.0f)};
  const BodyId id = world.create_body(d);
  expect_mass_of(world, id, {{2, 0.5f, 0, 0, 1}, {0.5f, 1, 2, 1, 3}}, d.center);
  EXPECT_EQ(world.shapes(id).size(), 2u);
  // A box turned by 90 degrees inside the body is the same box with its sides swapped.
  World turned;
  d.shapes = {box_shape({1.0f, 0.25f}, {0, 0}),
              box_shape({0.5f, 0.25f}, {2, 1}, float(M_PI / 2), 3.0f)};
  expect_mass_of(turned, turned.create_body(d), {{2, 0.5f, 0, 0, 1}, {0.5f, 1, 2, 1, 3}}, d.center);
}

// Free rotation: with no gravity and nothing to hit, the centre of mass moves on a straight line
// at constant speed and the body turns at a constant rate, wherever its shapes are.
TEST(CompoundBody, SpinningInZeroGravityKeepsItsCentreOfMassOnAStraightLine) {
  World world(WorldConfig{.gravity = {0, 0}});
  BodyDef d;
  d.shapes = {box_shape({1, 0.2f}, {0, 0}), circle_shape(0.5f, {2, 1}),
              box_shape({0.3f, 0.3f}, {-1.5f, -0.5f}, 0.4f)};
  d.velocity = {1.5f, -0.5f};
  d.angular_velocity = 7.0f;
  const BodyId id = world.create_body(d);
  const Vec2 start = world.transform(id).position;
  const float dt = 1.0f / 60.0f;
  for (int i = 1; i <= 120; ++i) {
    world.step(dt);
    const Vec2 expected = start + float(i) * dt * d.velocity;
    const Vec2 at = world.transform(id).position;
    ASSERT_NEAR(at.x, expected.x, 1e-4f) << "step " << i;
    ASSERT_NEAR(at.y, expected.y, 1e-4f) << "step " << i;
  }
  EXPECT_NEAR(world.angular_velocity(id), 7.0f, 1e-4f);
}

// An L of a foot and a post stands; a long heavy arm at the top puts the combined centre of mass
// beyond the foot's edge and it tips over.
TEST(CompoundBody, LShapeTipsOrStandsByWhereItsCentreOfMassLies) {
  auto final_angle = [](Part arm) {
    World world;
    world.create_body(test::ground_def());
    BodyDef d;
    d.center = {0, 0};
    d.shapes = {box_shape({0.3f, 0.1f}, {0, 0.1f}), box_shape({0.1f, 1.0f}, {0, 1.2f}),
                box_shape({arm.w / 2, arm.h / 2}, {arm.cx, arm.cy}, 0.0f, arm.rho)};
    const BodyId id = world.create_body(d);
    for (int i = 0; i < 240; ++i) world.step(1.0f / 60.0f);
    return world.transform(id).angle;
  };
  // Short arm: the centre of mass is 0.02 m right of the post, well inside the 0.3 m foot.
  EXPECT_NEAR(final_angle({0.5f, 0.2f, 0.15f, 2.3f, 1}), 0.0f, 0.01f);
  // Long arm: x of the centre of mass = 0.4 x 1.1 / 1.04 = 0.42 m, beyond the foot's 0.3 m.
  EXPECT_LT(final_angle({2.0f, 0.2f, 1.1f, 2.3f, 1}), -0.5f);
}

TEST(CompoundBody, RestsOnEveryShapeAtItsOwnHeight) {
  World world;
  world.create_body(test::ground_def());
  BodyDef d;
  d.center = {0, 2};
  // A table: two legs (boxes) under a top; it must come to rest on both legs, level.
  d.shapes = {box_shape({1.5f, 0.1f}, {0, 1.0f}), box_shape({0.1f, 0.5f}, {-1.2f, 0.4f}),
              box_shape({0.1f, 0.5f}, {1.2f, 0.4f})};
  const BodyId id = world.create_body(d);
  for (int i = 0; i < 180; ++i) world.step(1.0f / 60.0f);
  const BodyState s = world.state(id);
  ASSERT_EQ(s.shapes.size(), 3u);
  for (int leg : {1, 2}) {
    float lowest = 1e9f;
    for (Vec2 v : s.shapes[std::size_t(leg)].vertices) lowest = std::min(lowest, v.y);
    EXPECT_NEAR(lowest, 0.0f, 0.01f) << "leg " << leg;  // on the ground, within the slop
  }
  EXPECT_NEAR(s.transform.angle, 0.0f, 1e-3f);
}

TEST(CompoundBody, AddAndRemoveShapesAtRunTime) {
  World world(WorldConfig{.gravity = {0, 0}});
  const BodyId id = world.create_body(test::box_def({0, 0}, {0.5f, 0.5f}));
  ASSERT_EQ(world.shapes(id).size(), 1u);
  const ShapeId first = world.shapes(id)[0];
  EXPECT_EQ(world.body_of(first), id);
  const ShapeId added = world.add_shape(id, box_shape({0.5f, 0.5f}, {2, 0}));
  EXPECT_TRUE(world.is_valid(added));
  expect_mass_of(world, id, {{1, 1, 0, 0, 1}, {1, 1, 2, 0, 1}}, {0, 0});
  world.step(1.0f / 60.0f);
  world.remove_shape(first);
  EXPECT_FALSE(world.is_valid(first));
  EXPECT_EQ(world.shapes(id).size(), 1u);
  expect_mass_of(world, id, {{1, 1, 2, 0, 1}}, {0, 0});
  EXPECT_NE(test::error_of([&] { world.remove_shape(first); }).find("stale"), std::string::npos);
  EXPECT_NE(test::error_of([&] { world.remove_shape(added); }).find("only shape"),
            std::string::npos);
  EXPECT_NE(test::error_of([&] { world.definition(ShapeId{}); }).find("null shape"),
            std::string::npos);
  world.destroy_body(id);
  EXPECT_FALSE(world.is_valid(added));
}

// A compound falls onto a plain box: its second shape lands on it, the first hangs over the edge.
TEST(CompoundBody, EveryShapeCollides) {
  World world;
  world.create_body(test::ground_def());
  BodyDef pedestal = test::box_def({3, 1}, {0.5f, 1.0f});
  pedestal.is_static = true;
  world.create_body(pedestal);
  BodyDef d;
  d.center = {0, 3};
  d.shapes = {box_shape({0.4f, 0.4f}, {0, 0}), box_shape({0.4f, 0.4f}, {3, 0})};
  d.fixed_rotation = true;
  const BodyId id = world.create_body(d);
  for (int i = 0; i < 120; ++i) world.step(1.0f / 60.0f);
  // Resting on the pedestal (top at 2) by the second shape: the centre of mass (x 1.5) at 2.4.
  EXPECT_NEAR(world.transform(id).position.y, 2.4f, 0.01f);
}

TEST(Groups, SameNegativeGroupNeverCollidesSamePositiveGroupAlwaysDoes) {
  auto rest_height = [](std::int32_t group, std::uint32_t mask) {
    World world;
    world.create_body(test::ground_def());
    BodyDef low = test::box_def({0, 0.5f});
    low.shapes[0].filter.group = group, low.shapes[0].filter.mask = mask;
    world.create_body(low);
    BodyDef high = test::box_def({0, 2.0f});
    high.shapes[0].filter.group = group, high.shapes[0].filter.mask = mask;
    const BodyId id = world.create_body(high);
    for (int i = 0; i < 120; ++i) world.step(1.0f / 60.0f);
    return world.transform(id).position.y;
  };
  EXPECT_NEAR(rest_height(0, ~0u), 1.5f, 0.01f);   // stacked
  EXPECT_NEAR(rest_height(-3, ~0u), 0.5f, 0.01f);  // fell through its group mate
  World world;
  world.create_body(test::ground_def());
  BodyDef low = test::box_def({0, 0.5f});
  low.shapes[0].filter.group = 5;
  world.create_body(low);
  BodyDef high = test::box_def({0, 2.0f});
  high.shapes[0].filter.group = 5,
  high.shapes[0].filter.mask = 0;  // the mask says nothing, the shared positive group says collide
  const BodyId id = world.create_body(high);
  for (int i = 0; i < 120; ++i) world.step(1.0f / 60.0f);
  EXPECT_NEAR(world.transform(id).position.y, 1.5f, 0.01f);
}

// A ball falls through a sensor: exactly the trajectory of a ball in a world without the sensor
// (bit for bit), one begin event and one end event naming the sensor first.
TEST(Sensor, BallFallsThroughOnTheFreeFallTrajectoryWithOneBeginAndOneEnd) {
  World with, without;
  BodyDef zone = test::box_def({0, 0}, {2, 0.5f});
  zone.is_static = true;
  zone.shapes[0].sensor = true;
  const BodyId sensor = with.create_body(zone);
  BodyDef ball;
  ball.shapes = {ShapeDef{CircleShape{0.25f}}};
  ball.center = {0.3f, 3};
  const BodyId a = with.create_body(ball);
  const BodyId b = without.create_body(ball);
  int begins = 0, ends = 0, begin_step = -1, end_step = -1;
  for (int i = 1; i <= 90; ++i) {
    with.step(1.0f / 60.0f);
    without.step(1.0f / 60.0f);
    ASSERT_EQ(test::bits(with.transform(a).position.y), test::bits(without.transform(b).position.y))
        << "step " << i;
    for (const SensorEvent& e : with.sensor_begin_events()) {
      EXPECT_EQ(e.sensor_body, sensor);
      EXPECT_EQ(e.visitor_body, a);
      EXPECT_EQ(e.sensor, with.shapes(sensor)[0]);
      EXPECT_EQ(e.visitor, with.shapes(a)[0]);
      ++begins, begin_step = i;
    }
    for (const SensorEvent& e : with.sensor_end_events()) {
      EXPECT_EQ(e.visitor_body, a);
      ++ends, end_step = i;
    }
  }
  EXPECT_EQ(begins, 1);
  EXPECT_EQ(ends, 1);
  // Free fall from 3 m: the ball's bottom (y - 0.25) passes the zone's top (0.5) at
  // t = sqrt(2 x 2.25 / 10) = 0.67 s (step 41), its top the zone's bottom at
  // t = sqrt(2 x 3.75 / 10) = 0.87 s (step 52). Discrete steps land within one step.
  EXPECT_NEAR(begin_step, 41, 1);
  EXPECT_NEAR(end_step, 52, 1);
  EXPECT_TRUE(with.contact_begin_events().empty());  // a sensor never touches
}

// (More in sensor_events_test.cpp.)
TEST(Sensor, SensorsOnMovingBodiesSeeStaticBodies) {
  World world(WorldConfig{.gravity = {0, 0}});
  const BodyId ground = world.create_body(test::ground_def());
  BodyDef probe = test::box_def({0, 0.2f}, {0.5f, 0.5f});  // overlapping the ground
  probe.shapes[0].sensor = true;
  probe.is_kinematic = true;
  world.create_body(probe);
  world.step(1.0f / 60.0f);
  ASSERT_EQ(world.sensor_begin_events().size(), 1u);
  EXPECT_EQ(world.sensor_begin_events()[0].visitor_body, ground);
}

TEST(Determinism, MixedShapesAndCompoundsGiveTheSameBitsAtAnyThreadCount) {
  auto run = [](int threads) {
    World world(WorldConfig{.threads = threads});
    // A chain floor with a bump, a segment ramp, and every kind of dynamic shape.
    BodyDef floor;
    floor.is_static = true;
    ChainShape chain;
    for (int i = 0; i <= 40; ++i)
      chain.points.push_back({float(i) * 0.5f - 10.0f, i == 20 ? 0.3f : 0.0f});
    floor.shapes = {ShapeDef{chain}};
    world.create_body(floor);
    BodyDef ramp;
    ramp.is_static = true;
    ramp.shapes = {ShapeDef{SegmentShape{{-10.0f, 4.0f}, {-4.0f, 1.0f}}}};
    world.create_body(ramp);
    for (int i = 0; i < 60; ++i) {
      BodyDef d;
      d.shapes = {ShapeDef{BoxShape{}}};
      d.center = {float(i % 10) * 1.3f - 6.0f, 1.0f + float(i / 10) * 2.5f};
      switch (i % 5) {
        case 0:
          d.shapes = {box_shape({0.4f, 0.2f}, {0, 0}), circle_shape(0.3f, {0.5f, 0.3f})};
          break;
        case 1:
          d.shapes[0].shape = CircleShape{0.4f};
          break;
        case 2:
          d.shapes[0].shape = CapsuleShape{0.3f, 0.2f};
          d.angle = 0.7f;
          break;
        case 3:
          d.shapes[0].shape = BoxShape{{0.3f, 0.2f}, 0.1f};
          break;
        default:
          d.shapes[0].shape = BoxShape{{0.3f, 0.5f}};
          d.angle = 0.3f;
      }
      world.create_body(d);
    }
    BodyDef zone = test::box_def({0, 3}, {3, 1});
    zone.is_static = true, zone.shapes[0].sensor = true;
    world.create_body(zone);
    for (int s = 0; s < 200; ++s) world.step(1.0f / 60.0f);
    return world.state_hash();
  };
  const std::uint64_t one = run(1);
  EXPECT_EQ(run(2), one);
  EXPECT_EQ(run(4), one);
}

}  // namespace strut
