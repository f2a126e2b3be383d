// Sensor events beyond a ball falling through a zone (compound_body_test.cpp): static visitors,
// sensors and visitors that sleep, shapes removed and bodies destroyed while overlapping, and a
// chain (one shape of many colliders) visiting once.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "test_util.hpp"

namespace strut {
namespace {

using test::kDt;

ShapeDef box_shape(Vec2 half, Vec2 offset, bool sensor = false) {
  ShapeDef s;
  s.shape = BoxShape{half};
  s.offset = offset;
  s.sensor = sensor;
  return s;
}

// Every event of one step, in the world's order.
struct StepEvents {
  std::vector<SensorEvent> begins, ends;
};
StepEvents step(World& world) {
  world.step(kDt);
  const auto b = world.sensor_begin_events(), e = world.sensor_end_events();
  return {{b.begin(), b.end()}, {e.begin(), e.end()}};
}

bool same(const SensorEvent& a, const SensorEvent& b) {
  return a.sensor == b.sensor && a.visitor == b.visitor && a.sensor_body == b.sensor_body &&
         a.visitor_body == b.visitor_body;
}

// A sensor-only ball dropped through a static box sees it: one begin when its bottom reaches the
// box's top, one end when its top leaves the box's bottom, on the free-fall steps.
TEST(SensorEvents, AFallingSensorSeesTheStaticBoxItPassesThrough) {
  World world;
  BodyDef slab = test::box_def({0.0f, 0.0f}, {2.0f, 0.5f});
  slab.is_static = true;
  const BodyId box = world.create_body(slab);
  BodyDef probe;
  probe.shapes = {ShapeDef{.shape = CircleShape{0.25f}, .sensor = true}};
  probe.center = {0.3f, 3.0f};
  const BodyId ball = world.create_body(probe);
  int begin_step = -1, end_step = -1, begins = 0, ends = 0;
  for (int i = 1; i <= 90; ++i) {
    const StepEvents ev = step(world);
    for (const SensorEvent& e : ev.begins) {
      EXPECT_EQ(e.sensor_body, ball);
      EXPECT_EQ(e.visitor_body, box);
      EXPECT_EQ(e.visitor, world.shapes(box)[0]);
      ++begins, begin_step = i;
    }
    for (const SensorEvent& e : ev.ends) {
      EXPECT_EQ(e.visitor_body, box);
      ++ends, end_step = i;
    }
  }
  EXPECT_EQ(begins, 1);
  EXPECT_EQ(ends, 1);
  // As in Sensor.BallFallsThroughOnTheFreeFallTrajectoryWithOneBeginAndOneEnd: the bottom
  // passes y = 0.5 at t = sqrt(2 x 2.25 / 10) = 0.67 s (step 41), the top y = -0.5 at
  // t = sqrt(2 x 3.75 / 10) = 0.87 s (step 52).
  EXPECT_NEAR(begin_step, 41, 1);
  EXPECT_NEAR(end_step, 52, 1);
  EXPECT_TRUE(world.contact_begin_events().empty());
}

// A kinematic probe starting inside the ground sees it at once and leaves it when moved up; the
// filter is how a sensor leaves static shapes out.
TEST(SensorEvents, AKinematicProbeSeesTheGroundUnlessItsFilterExcludesIt) {
  for (const bool excluded : {false, true}) {
    World world(WorldConfig{.gravity = {0.0f, 0.0f}});
    BodyDef ground = test::ground_def();
    ground.shapes[0].filter.category = 2;
    const BodyId floor = world.create_body(ground);
    BodyDef probe = test::box_def({0.0f, 0.2f}, {0.5f, 0.5f});  // 0.3 m into the ground
    probe.shapes[0].sensor = true;
    probe.is_kinematic = true;
    if (excluded) probe.shapes[0].filter.mask = ~2u;
    const BodyId id = world.create_body(probe);
    StepEvents ev = step(world);
    ASSERT_EQ(ev.begins.size(), excluded ? 0u : 1u);
    if (!excluded) {
      EXPECT_EQ(ev.begins[0].sensor_body, id);
      EXPECT_EQ(ev.begins[0].visitor_body, floor);
    }
    world.set_linear_velocity(id, {0.0f, 6.0f});  // clear of the ground (top 0) within 3 steps
    int ends = 0;
    for (int i = 0; i < 10; ++i) ends += int(step(world).ends.size());
    EXPECT_EQ(ends, excluded ? 0 : 1);
  }
}

// A box carrying a sensor foot that reaches into the ground settles and falls asleep: the foot
// stays on the ground (one begin, no end) although the broad phase stops pairing them.
TEST(SensorEvents, ASleepingSensorStaysOnTheStaticGround) {
  World world;
  world.create_body(test::ground_def());
  BodyDef crate;
  crate.center = {0.0f, 0.5f};
  crate.shapes = {box_shape({0.5f, 0.5f}, {0.0f, 0.0f}),
                  box_shape({0.2f, 0.1f}, {0.0f, -0.55f}, true)};
  const BodyId id = world.create_body(crate);
  int begins = 0, ends = 0;
  for (int i = 0; i < 600; ++i) {
    const StepEvents ev = step(world);
    begins += int(ev.begins.size()), ends += int(ev.ends.size());
  }
  EXPECT_TRUE(world.is_sleeping(id));
  EXPECT_EQ(begins, 1);
  EXPECT_EQ(ends, 0);
}

// A static zone of two sensor shapes and a ball resting inside both (no gravity): removing one
// sensor shape ends its overlap with the next step's events, naming the removed shape by its
// (now stale) id; the other sensor keeps its overlap.
TEST(SensorEvents, RemovingASensorShapeEndsItsOverlaps) {
  World world(WorldConfig{.gravity = {0.0f, 0.0f}});
  BodyDef zone;
  zone.is_static = true;
  zone.shapes = {box_shape({1.0f, 1.0f}, {0.0f, 0.0f}, true),
                 box_shape({1.0f, 1.0f}, {0.5f, 0.0f}, true)};
  const BodyId zone_id = world.create_body(zone);
  const std::vector<ShapeId> sensors = world.shapes(zone_id);
  BodyDef ball;
  ball.shapes = {ShapeDef{CircleShape{0.2f}}};
  ball.center = {0.2f, 0.0f};
  const BodyId ball_id = world.create_body(ball);
  EXPECT_EQ(step(world).begins.size(), 2u);
  world.remove_shape(sensors[0]);
  EXPECT_FALSE(world.is_valid(sensors[0]));
  const StepEvents ev = step(world);
  EXPECT_TRUE(ev.begins.empty());
  ASSERT_EQ(ev.ends.size(), 1u);
  EXPECT_TRUE(
      same(ev.ends[0], SensorEvent{sensors[0], world.shapes(ball_id)[0], zone_id, ball_id}));
  for (int i = 0; i < 30; ++i) {
    const StepEvents later = step(world);
    EXPECT_TRUE(later.begins.empty() && later.ends.empty()) << i;
  }
}

// A visitor of two shapes inside a static sensor: removing one of its shapes ends that shape's
// overlap; adding a shape (which lays the body out again) neither ends nor restarts the other's;
// destroying the body ends what is left, naming the body by its stale id.
TEST(SensorEvents, RemovingAVisitorShapeOrItsBodyEndsItsOverlaps) {
  World world(WorldConfig{.gravity = {0.0f, 0.0f}});
  BodyDef zone = test::box_def({0.0f, 0.0f}, {2.0f, 2.0f});
  zone.is_static = true;
  zone.shapes[0].sensor = true;
  const BodyId zone_id = world.create_body(zone);
  const ShapeId sensor = world.shapes(zone_id)[0];
  BodyDef visitor;
  visitor.shapes = {box_shape({0.2f, 0.2f}, {-0.5f, 0.0f}), box_shape({0.2f, 0.2f}, {0.5f, 0.0f})};
  const BodyId body = world.create_body(visitor);
  const std::vector<ShapeId> parts = world.shapes(body);
  EXPECT_EQ(step(world).begins.size(), 2u);

  world.remove_shape(parts[0]);
  StepEvents ev = step(world);
  EXPECT_TRUE(ev.begins.empty());
  ASSERT_EQ(ev.ends.size(), 1u);
  EXPECT_TRUE(same(ev.ends[0], SensorEvent{sensor, parts[0], zone_id, body}));

  world.add_shape(body, box_shape({0.1f, 0.1f}, {5.0f, 0.0f}));  // outside the zone
  ev = step(world);
  EXPECT_TRUE(ev.begins.empty());
  EXPECT_TRUE(ev.ends.empty());

  world.destroy_body(body);
  ev = step(world);
  EXPECT_TRUE(ev.begins.empty());
  ASSERT_EQ(ev.ends.size(), 1u);
  EXPECT_TRUE(same(ev.ends[0], SensorEvent{sensor, parts[1], zone_id, body}));
  EXPECT_FALSE(world.is_valid(body));
  EXPECT_TRUE(step(world).ends.empty());
}

// Destroying a sensor's body ends every overlap it had, once.
TEST(SensorEvents, DestroyingASensorBodyEndsItsOverlaps) {
  World world(WorldConfig{.gravity = {0.0f, 0.0f}});
  BodyDef zone = test::box_def({0.0f, 0.0f}, {2.0f, 2.0f});
  zone.shapes[0].sensor = true;
  zone.is_kinematic = true;
  const BodyId zone_id = world.create_body(zone);
  std::vector<BodyId> balls;
  for (const float x : {-1.0f, 0.0f, 1.0f}) {
    BodyDef ball;
    ball.shapes = {ShapeDef{CircleShape{0.2f}}};
    ball.center = {x, 0.0f};
    balls.push_back(world.create_body(ball));
  }
  EXPECT_EQ(step(world).begins.size(), 3u);
  world.destroy_body(zone_id);
  const StepEvents ev = step(world);
  ASSERT_EQ(ev.ends.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(ev.ends[i].sensor_body, zone_id);
    EXPECT_EQ(ev.ends[i].visitor_body, balls[i]);
  }
  EXPECT_TRUE(step(world).ends.empty());
}

// A static chain is one shape of many links: a sensor box lying across five links sees it once.
TEST(SensorEvents, AChainCrossingASensorIsOneVisitor) {
  World world(WorldConfig{.gravity = {0.0f, 0.0f}});
  BodyDef floor;
  floor.is_static = true;
  ChainShape chain;
  for (int i = 0; i <= 20; ++i) chain.points.push_back({float(i) * 0.5f - 5.0f, 0.0f});
  floor.shapes = {ShapeDef{chain}};
  const BodyId floor_id = world.create_body(floor);
  BodyDef probe = test::box_def({0.1f, 0.0f}, {1.2f, 0.3f});
  probe.shapes[0].sensor = true;
  probe.is_kinematic = true;
  world.create_body(probe);
  const StepEvents ev = step(world);
  ASSERT_EQ(ev.begins.size(), 1u);
  EXPECT_EQ(ev.begins[0].visitor_body, floor_id);
}

}  // namespace
}  // namespace strut
