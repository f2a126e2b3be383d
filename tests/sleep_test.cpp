// Sleeping: settled islands sleep and cost (almost) nothing; touching, forces and joints wake.
#include <gtest/gtest.h>

#include "test_util.hpp"

namespace strut {

namespace {
std::vector<BodyId> small_pyramid(World& world, int rows) {
  world.create_body(test::ground_def());
  std::vector<BodyId> ids;
  for (int r = 0; r < rows; ++r)
    for (int i = 0; i < rows - r; ++i)
      ids.push_back(world.create_body(
          test::box_def({float(i) - 0.5f * float(rows - r - 1), 0.5f + float(r)})));
  return ids;
}
// A heavy ball of radius 0.3 m thrown at the given velocity.
BodyId throw_ball(World& world, Vec2 at, Vec2 velocity) {
  BodyDef ball;
  ball.shapes = {ShapeDef{.shape = CircleShape{0.3f}, .material = {.density = 5}}};
  ball.center = at;
  ball.velocity = velocity;
  return world.create_body(ball);
}
bool all_asleep(const World& world, const std::vector<BodyId>& ids) {
  for (BodyId id : ids)
    if (!world.is_sleeping(id)) return false;
  return true;
}
}  // namespace

TEST(Sleep, SettledPyramidFallsAsleepAndStopsMoving) {
  World world;
  const auto ids = small_pyramid(world, 10);
  int steps = 0;
  while (!all_asleep(world, ids) && steps < 600) world.step(1.0f / 60), ++steps;
  EXPECT_LT(steps, 180);  // asleep within three seconds
  const std::uint64_t hash = world.state_hash();
  for (int i = 0; i < 60; ++i) world.step(1.0f / 60);
  EXPECT_EQ(world.state_hash(), hash);  // nothing moves while asleep
  EXPECT_EQ(world.linear_velocity(ids[0]).x, 0.0f);
  EXPECT_EQ(world.contact_count(), 0u);  // no pairs between sleeping and static bodies
}

TEST(Sleep, ABallHittingASleepingPyramidWakesIt) {
  World world;
  const auto ids = small_pyramid(world, 6);
  for (int i = 0; i < 240; ++i) world.step(1.0f / 60);
  ASSERT_TRUE(all_asleep(world, ids));
  throw_ball(world, {-8, 2.5f}, {20, 0});
  bool woke = false;
  for (int i = 0; i < 60 && !woke; ++i) {
    world.step(1.0f / 60);
    for (BodyId id : ids) woke = woke || !world.is_sleeping(id);
  }
  ASSERT_TRUE(woke);
  // The island wakes as a whole, in the step the ball touches its first box: a sleeping body
  // keeps the island it fell asleep in (waking one body per step would take 6 steps to reach
  // the top of this pyramid).
  for (BodyId id : ids) EXPECT_FALSE(world.is_sleeping(id));
}

TEST(Sleep, ForcesVelocitiesAndJointPartnersWake) {
  World world;
  world.create_body(test::ground_def());
  const BodyId a = world.create_body(test::box_def({0, 0.5f}));
  const BodyId b = world.create_body(test::box_def({3, 0.5f}));
  DistanceJointDef j;
  j.a = a, j.b = b, j.anchor_a = {0, 0.5f}, j.anchor_b = {3, 0.5f};
  world.create_joint(j);
  for (int i = 0; i < 120; ++i) world.step(1.0f / 60);
  ASSERT_TRUE(world.is_sleeping(a));
  ASSERT_TRUE(world.is_sleeping(b));
  world.apply_force(a, {0, 50});
  EXPECT_FALSE(world.is_sleeping(a));
  EXPECT_FALSE(world.is_sleeping(b));  // same island through the joint
  world.step(1.0f / 60);
  EXPECT_GT(world.linear_velocity(a).y, 0.0f);
}

// A wall built asleep (BodyDef::awake = false, Box2D's smash scene): untouched, it costs nothing
// and does not move (no gravity here: it floats in place); a box flying into it at 10 m/s (it
// arrives after 54 steps) wakes the boxes it hits, and they are pushed.
TEST(Sleep, BodiesCreatedAsleepStayStillUntilTouched) {
  World world(WorldConfig{.gravity = {0, 0}});
  std::vector<BodyId> wall;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      BodyDef d = test::box_def({10.0f + float(i), float(j)});
      d.awake = false;
      wall.push_back(world.create_body(d));
    }
  for (BodyId id : wall) EXPECT_TRUE(world.is_sleeping(id));
  BodyDef ball = test::box_def({0, 1.5f});
  ball.velocity = {10, 0};
  const BodyId mover = world.create_body(ball);
  for (int i = 0; i < 30; ++i) world.step(1.0f / 60);  // 5 m: still 4 m short of the wall
  EXPECT_EQ(world.contact_count(), 0u);
  for (BodyId id : wall) {
    EXPECT_TRUE(world.is_sleeping(id));
    EXPECT_EQ(world.linear_velocity(id).x, 0.0f);
  }
  for (int i = 0; i < 60; ++i) world.step(1.0f / 60);
  EXPECT_FALSE(world.is_sleeping(wall[1]));  // the boxes in its way at y = 1 and 2
  EXPECT_GT(world.transform(wall[1]).position.x, 10.05f) << "pushed by the box that hit it";
  EXPECT_LT(world.linear_velocity(mover).x, 5.0f) << "slowed by the wall it pushes";
}

TEST(Sleep, CreatingAsleepIsCheckedAndLeavesTheWorldAsItWas) {
  World world;
  BodyDef moving = test::box_def({0, 0.5f});
  moving.awake = false;
  moving.velocity = {1, 0};
  EXPECT_NE(test::error_of([&] {
              world.create_body(moving);
            }).find("awake: a body created asleep must be at rest"),
            std::string::npos);
  BodyDef fixed = test::ground_def();
  fixed.awake = false;
  EXPECT_NE(test::error_of([&] { world.create_body(fixed); }).find("awake: only a dynamic body"),
            std::string::npos);
  BodyDef never = test::box_def({0, 0.5f});
  never.awake = false, never.enable_sleep = false;
  EXPECT_NE(test::error_of([&] {
              world.create_body(never);
            }).find("awake: false with enable_sleep false"),
            std::string::npos);
  World no_sleep(WorldConfig{.enable_sleep = false});
  BodyDef asleep = test::box_def({0, 0.5f});
  asleep.awake = false;
  EXPECT_NE(test::error_of([&] { no_sleep.create_body(asleep); }).find("sleep disabled"),
            std::string::npos);
  EXPECT_EQ(world.body_count(), 0u);
  EXPECT_EQ(no_sleep.body_count(), 0u);
}

TEST(Sleep, DisabledSleepKeepsEverythingAwake) {
  World world(WorldConfig{.enable_sleep = false});
  const auto ids = small_pyramid(world, 4);
  for (int i = 0; i < 240; ++i) world.step(1.0f / 60);
  for (BodyId id : ids) EXPECT_FALSE(world.is_sleeping(id));
}

}  // namespace strut

namespace strut {
// Between the substeps only the awake bodies' solver rows go back and forth to the body arrays
// (integrate_stages.cpp): a sleeping body the solver pushes during the step keeps its motion in
// its solver row and gets it once, after the last substep. Checked against the same hit with a
// distant pendulum in the world, whose joint makes every contact pass gather and scatter every
// body: the ball and the pyramid must end with the same bits.
TEST(Sleep, ASleepingBodyHitDuringAStepGetsTheSolversMotion) {
  const auto run = [](bool with_pendulum) {
    World world(WorldConfig{.threads = 1});
    const auto ids = small_pyramid(world, 4);
    for (int i = 0; i < 240; ++i) world.step(1.0f / 60);
    EXPECT_TRUE(all_asleep(world, ids));
    const BodyId hit = throw_ball(world, {-2.5f, 0.5f}, {30, 0});
    if (with_pendulum) {
      BodyDef pivot = test::box_def({500, 10}, {0.1f, 0.1f});
      pivot.is_static = true;
      BodyDef bob = test::box_def({502, 10}, {0.2f, 0.2f});
      RevoluteJointDef j;
      j.a = world.create_body(pivot), j.b = world.create_body(bob);
      j.anchor = {500, 10};
      world.create_joint(j);
    }
    std::vector<std::uint32_t> bits;
    bool moved_while_asleep = false;
    for (int i = 0; i < 30; ++i) {
      const bool asleep_before = world.is_sleeping(ids[0]);
      world.step(1.0f / 60);
      // The step the ball reaches the pyramid: its first box, asleep when the step began, is
      // pushed by the solver in that step.
      if (asleep_before && world.linear_velocity(ids[0]).x != 0.0f) moved_while_asleep = true;
    }
    for (BodyId id : ids) {
      const Transform t = world.transform(id);
      bits.push_back(test::bits(t.position.x)), bits.push_back(test::bits(t.position.y));
      bits.push_back(test::bits(world.linear_velocity(id).x));
    }
    bits.push_back(test::bits(world.transform(hit).position.x));
    EXPECT_TRUE(moved_while_asleep);
    return bits;
  };
  EXPECT_EQ(run(false), run(true));
}
}  // namespace strut
