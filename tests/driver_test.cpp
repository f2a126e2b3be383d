// The fixed-step driver and render interpolation.
#include <gtest/gtest.h>

#include "test_util.hpp"

namespace strut {

TEST(Driver, RunsWholeStepsAndReturnsTheRemainderAsAlpha) {
  World world(WorldConfig{.gravity = {0, 0}});
  FixedStepDriver driver(world, 0.01f, 5);
  EXPECT_NEAR(driver.advance(0.025f), 0.5f, 1e-4f);
  EXPECT_EQ(driver.steps_last_advance(), 2);
  EXPECT_NEAR(driver.advance(0.005f), 0.0f, 1e-4f);
  EXPECT_EQ(driver.steps_last_advance(), 1);
}

TEST(Driver, ClampsTheBacklogOfASlowFrame) {
  World world;
  FixedStepDriver driver(world, 0.01f, 4);
  const float alpha = driver.advance(1.0f);  // 100 steps owed
  EXPECT_EQ(driver.steps_last_advance(), 4);
  EXPECT_GE(alpha, 0.0f);
  EXPECT_LT(alpha, 1.0f);
  driver.advance(0.0f);
  EXPECT_EQ(driver.steps_last_advance(), 0);  // the backlog was dropped, not carried
}

TEST(Driver, InterpolationGivesThePreviousAndCurrentTransformsAtZeroAndOne) {
  World world(WorldConfig{.gravity = {0, 0}});
  BodyDef d = test::box_def({0, 0});
  d.velocity = {6, 0};
  d.angular_velocity = 3;
  const BodyId id = world.create_body(d);
  world.step(0.1f);
  const Transform before{{0, 0}, 0}, now = world.transform(id);
  const Transform t0 = world.interpolated_transform(id, 0.0f);
  const Transform t1 = world.interpolated_transform(id, 1.0f);
  const Transform th = world.interpolated_transform(id, 0.5f);
  EXPECT_NEAR(t0.position.x, before.position.x, 1e-6f);
  EXPECT_NEAR(t0.angle, before.angle, 1e-6f);
  EXPECT_EQ(t1.position.x, now.position.x);
  EXPECT_EQ(t1.angle, now.angle);
  EXPECT_NEAR(th.position.x, 0.3f, 1e-5f);
  EXPECT_NEAR(th.angle, 0.15f, 1e-4f);
}

TEST(Driver, RejectsBadArguments) {
  World world;
  EXPECT_EQ(test::error_of([&] { FixedStepDriver d(world, 0.0f); }),
            "FixedStepDriver: dt must be in [1e-05, 0.1] s (strut/limits.hpp), got 0");
  FixedStepDriver d(world, 0.01f);
  EXPECT_EQ(test::error_of([&] { d.advance(-1.0f); }),
            "FixedStepDriver::advance: elapsed time must be finite and >= 0, got -1.000000");
}

}  // namespace strut
