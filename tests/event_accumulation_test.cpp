// Contact events accumulate over every step since the program last read them, begin events
// carry the manifold and hit events the approach speed (issue 15: FixedStepDriver::advance
// running three steps used to drop two steps of events, and events carried only the bodies).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

#include "strut/scene.hpp"
#include "test_util.hpp"

namespace strut {
namespace {

using Pair = std::tuple<std::uint32_t, std::uint32_t>;

Pair key(const ContactEvent& e) { return {e.a.index, e.b.index}; }

// Boxes dropped from staggered heights onto the ground, and one thrown up again later, so the
// run has begin and end events in many different steps.
World make_world() {
  World world;
  world.create_body(test::ground_def());
  for (int i = 0; i < 6; ++i) world.create_body(test::box_def({-5.0f + 2 * i, 1.0f + 0.7f * i}));
  return world;
}

TEST(EventAccumulation, ThreeStepsPerAdvanceLoseNothing) {
  const float dt = 1.0f / 60;
  World each = make_world();
  World batched = make_world();
  FixedStepDriver driver(batched, dt);
  std::vector<Pair> begins_each, ends_each, begins_batched, ends_batched;
  for (int frame = 0; frame < 60; ++frame) {  // 3 s: the thrown box flies 1.2 s
    if (frame == 20) {
      each.set_linear_velocity(each.bodies()[1], {0, 6});
      batched.set_linear_velocity(batched.bodies()[1], {0, 6});
    }
    for (int s = 0; s < 3; ++s) {
      each.step(dt);
      for (const ContactEvent& e : each.contact_begin_events()) begins_each.push_back(key(e));
      for (const ContactEvent& e : each.contact_end_events()) ends_each.push_back(key(e));
    }
    driver.advance(3 * dt + 1e-6f);  // three whole steps
    ASSERT_EQ(driver.steps_last_advance(), 3);
    for (const ContactEvent& e : batched.contact_begin_events()) begins_batched.push_back(key(e));
    for (const ContactEvent& e : batched.contact_end_events()) ends_batched.push_back(key(e));
  }
  EXPECT_EQ(each.state_hash(), batched.state_hash());
  EXPECT_EQ(begins_each.size(), 6u + 1u);  // six landings, and the thrown box lands again
  EXPECT_EQ(ends_each.size(), 1u);         // the thrown box leaves the ground
  EXPECT_EQ(begins_batched, begins_each);
  EXPECT_EQ(ends_batched, ends_each);
}

TEST(EventAccumulation, UnreadEventsStayUntilRead) {
  World world = make_world();
  for (int i = 0; i < 120; ++i) world.step(1.0f / 60);  // nobody reads
  EXPECT_EQ(world.contact_begin_events().size(), 6u);
  world.step(1.0f / 60);  // read above: this step starts afresh, and nothing new begins
  EXPECT_TRUE(world.contact_begin_events().empty());
}

// Events can be turned off (nothing recorded), and a SceneInstance keeps only the last step's,
// so runners that never read them (strut run, the benchmarks) do not pile them up.
TEST(EventAccumulation, OffOrReadEveryStepTheyDoNotPileUp) {
  World off({.contact_events = false});
  off.create_body(test::ground_def());
  off.create_body(test::box_def({0, 1}));
  for (int i = 0; i < 60; ++i) off.step(1.0f / 60);
  EXPECT_TRUE(off.contact_begin_events().empty());
  Scene scene;
  SceneBody ground, box;
  ground.def = test::ground_def();
  box.def = test::box_def({0, 1});
  scene.bodies = {ground, box};
  SceneInstance instance = build_scene(scene, 1);
  for (int i = 0; i < 60; ++i) instance.step();  // the box landed long ago
  EXPECT_TRUE(instance.world.contact_begin_events().empty());
}

// A box landing flat: the begin event's manifold is its two bottom corners on the ground's top
// (y = 0), normal from the ground (a, created first) up to the box.
TEST(EventAccumulation, BeginEventsCarryTheManifold) {
  World world;
  const BodyId ground = world.create_body(test::ground_def());
  const BodyId box = world.create_body(test::box_def({3, 0.6f}));
  std::vector<ContactEvent> begins;
  for (int i = 0; i < 60 && begins.empty(); ++i) {
    world.step(1.0f / 60);
    for (const ContactEvent& e : world.contact_begin_events()) begins.push_back(e);
  }
  ASSERT_EQ(begins.size(), 1u);
  const ContactEvent& e = begins[0];
  EXPECT_EQ(e.a, ground);
  EXPECT_EQ(e.b, box);
  // Tolerance: the normal is exact for a flat landing to float rounding (1e-5); the points sit
  // on the box's corners, within the contact slop (5 mm) of the ground's surface.
  EXPECT_NEAR(e.normal.x, 0.0f, 1e-5f);
  EXPECT_NEAR(e.normal.y, 1.0f, 1e-5f);
  ASSERT_EQ(e.point_count, 2);
  std::vector<float> xs{e.points[0].x, e.points[1].x};
  std::sort(xs.begin(), xs.end());
  EXPECT_NEAR(xs[0], 2.5f, 5e-3f);
  EXPECT_NEAR(xs[1], 3.5f, 5e-3f);
  for (const Vec2 p : {e.points[0], e.points[1]}) EXPECT_NEAR(p.y, 0.0f, 5e-3f);
}

// A ball dropped from height H hits at sqrt(2 g H); a box set down at rest makes no hit event.
TEST(EventAccumulation, HitEventsCarryTheApproachSpeed) {
  World world({.gravity = {0, -10}});
  world.create_body(test::ground_def());
  BodyDef ball;
  ball.shapes = {ShapeDef{CircleShape{0.25f}}};
  const float drop = 2.0f;  // height of the ball's bottom above the ground
  ball.center = {0, drop + 0.25f};
  const BodyId b = world.create_body(ball);
  const BodyId resting = world.create_body(test::box_def({5, 0.5f}));
  std::vector<ContactHitEvent> hits;
  for (int i = 0; i < 60; ++i) {
    world.step(1.0f / 60);
    for (const ContactHitEvent& h : world.contact_hit_events()) hits.push_back(h);
  }
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].b, b);
  const float expected = std::sqrt(2 * 10.0f * drop);  // 6.32 m/s
  // Tolerance: the speed is the one before the impact step, which may start up to one step's
  // fall (g dt = 0.17 m/s) before the contact; the point is on the ball within 5 mm of y = 0.
  EXPECT_NEAR(hits[0].approach_speed, expected, 10.0f / 60);
  EXPECT_NEAR(hits[0].point.x, 0.0f, 1e-4f);
  EXPECT_NEAR(hits[0].point.y, 0.0f, 5e-3f);
  EXPECT_NEAR(hits[0].normal.y, 1.0f, 1e-5f);
  (void)resting;  // began touching at rest: a begin event, no hit
}

// Sleep does not end a contact: a box resting until its island sleeps makes no end event, waking
// it while it still rests makes no begin event, and throwing it up ends the contact once.
TEST(EventAccumulation, SleepNeitherEndsNorBeginsContacts) {
  World world;
  world.create_body(test::ground_def());
  const BodyId box = world.create_body(test::box_def({0, 0.5f}));
  int begins = 0, ends = 0;
  auto run = [&](int steps) {
    for (int i = 0; i < steps; ++i) {
      world.step(1.0f / 60);
      begins += int(world.contact_begin_events().size());
      ends += int(world.contact_end_events().size());
    }
  };
  run(120);
  ASSERT_TRUE(world.is_sleeping(box));
  EXPECT_EQ(begins, 1);
  EXPECT_EQ(ends, 0);
  world.wake(box);  // still resting
  run(5);
  EXPECT_EQ(begins, 1);
  EXPECT_EQ(ends, 0);
  run(120);  // asleep again
  ASSERT_TRUE(world.is_sleeping(box));
  world.set_linear_velocity(box, {0, 5});  // wakes it and throws it up
  run(10);
  EXPECT_EQ(ends, 1);
  run(60);  // lands again
  EXPECT_EQ(begins, 2);
}

}  // namespace
}  // namespace strut

namespace strut {

// Each list keeps its events until it is read itself: a program that reads the begin events
// every step and the end events every 30 steps gets every begin and every end (issue 31's trial
// got 5 begins and 0 ends when reading one list cleared them all), and likewise the sensor lists.
TEST(EventAccumulation, EachListKeepsItsEventsUntilItIsRead) {
  World world;
  world.create_body(test::ground_def());
  BodyDef zone;
  zone.is_static = true;
  zone.center = {0, 3};
  zone.shapes.push_back({.shape = BoxShape{{2, 0.5f}}, .sensor = true});
  world.create_body(zone);
  // Five balls dropped one after another from 6 m: each passes the sensor and lands.
  std::vector<BodyId> balls;
  int begins = 0, ends = 0, sensor_begins = 0, sensor_ends = 0;
  for (int step = 0; step < 360; ++step) {
    if (step % 30 == 0 && balls.size() < 5) {
      BodyDef ball;
      ball.shapes = {ShapeDef{CircleShape{0.2f}}};
      ball.center = {-1.5f + 0.75f * float(balls.size()), 6};
      balls.push_back(world.create_body(ball));
    }
    if (step == 240)  // all resting: each thrown up 0.8 m, below the sensor
      for (BodyId b : balls) world.set_linear_velocity(b, {0, 4});
    world.step(1.0f / 60);
    begins += int(world.contact_begin_events().size());
    sensor_begins += int(world.sensor_begin_events().size());
    if (step % 30 == 29) {
      ends += int(world.contact_end_events().size());
      sensor_ends += int(world.sensor_end_events().size());
    }
  }
  EXPECT_EQ(begins, 5 + 5);  // each ball lands, and lands again after the kick
  EXPECT_EQ(ends, 5);        // each ball leaves the ground once, kicked up
  EXPECT_EQ(sensor_begins, 5);
  EXPECT_EQ(sensor_ends, 5);
}

}  // namespace strut

namespace strut {

// Every begin event carries its manifold: in a 20-box column placed at rest the upper pairs
// touch before the solver presses them, and their first step's events still give points on the
// boxes' shared face and the normal between them (issue 31's trial: pairs 15 to 19 reported no
// point and the normal (0, 0)).
TEST(EventAccumulation, BeginEventsOfTouchingPairsCarryPoints) {
  World world;
  world.create_body(test::ground_def());
  for (int i = 0; i < 20; ++i) world.create_body(test::box_def({0, 0.5f + float(i)}));
  world.step(1.0f / 60);
  const auto begins = world.contact_begin_events();
  ASSERT_EQ(begins.size(), 20u);  // the ground and 19 pairs of boxes
  for (const ContactEvent& e : begins) {
    ASSERT_GE(e.point_count, 1);
    EXPECT_NEAR(std::fabs(e.normal.y), 1.0f, 1e-3f);
    // On a shared face: y a whole number of metres (0 for the ground), within the slop.
    for (int k = 0; k < e.point_count; ++k)
      EXPECT_NEAR(e.points[k].y, std::round(e.points[k].y), 0.006f);
  }
}

}  // namespace strut
