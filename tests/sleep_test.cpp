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
  BodyDef ball;
  ball.shape = CircleShape{0.3f};
  ball.center = {-8, 2.5f};
  ball.velocity = {20, 0};
  ball.material.density = 5;
  world.create_body(ball);
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

TEST(Sleep, DisabledSleepKeepsEverythingAwake) {
  World world(WorldConfig{.enable_sleep = false});
  const auto ids = small_pyramid(world, 4);
  for (int i = 0; i < 240; ++i) world.step(1.0f / 60);
  for (BodyId id : ids) EXPECT_FALSE(world.is_sleeping(id));
}

}  // namespace strut
