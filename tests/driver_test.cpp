// The fixed-step clock, the driver that runs a world on it, and render interpolation.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

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

TEST(Driver, RunsTheClocksStepsAsWorldStepDoes) {
  // The driver is the clock plus World::step: driven by the same frame times, a world on the
  // driver and one stepped by hand on a clock of its own end in the same bits.
  auto make = [] {
    auto world = std::make_unique<World>();
    for (int k = 0; k < 5; ++k) world->create_body(test::box_def({0.3f * k, 1.2f * k + 0.5f}));
    BodyDef ground;
    ground.shapes = {ShapeDef{BoxShape{{10, 0.5f}}}};
    ground.center = {0, -0.5f}, ground.is_static = true;
    world->create_body(ground);
    return world;
  };
  const auto driven = make(), by_hand = make();
  FixedStepDriver driver(*driven, 1.0f / 60, 3);
  StepClock clock(1.0f / 60, 3);
  const float frames[] = {0.016f, 0.017f, 0.1f, 0.0f, 0.033f, 0.008f, 0.5f, 0.02f};
  for (int round = 0; round < 10; ++round)
    for (const float frame : frames) {
      const float alpha = driver.advance(frame);
      const int due = clock.take_due_steps(frame);
      for (int k = 0; k < due; ++k) by_hand->step(clock.dt());
      ASSERT_EQ(driver.steps_last_advance(), due);
      ASSERT_EQ(alpha, clock.alpha());
    }
  EXPECT_EQ(driven->state_hash(), by_hand->state_hash());
}

TEST(StepClock, CountsWholeStepsAndDropsTheBacklogBeyondItsLimit) {
  StepClock clock(0.01f, 4);
  EXPECT_EQ(clock.take_due_steps(0.025f), 2);
  EXPECT_NEAR(clock.alpha(), 0.5f, 1e-4f);
  EXPECT_EQ(clock.take_due_steps(0.0f), 0);  // nothing new is due
  EXPECT_EQ(clock.take_due_steps(1.0f), 4);  // 100.5 steps owed, 4 run
  EXPECT_GE(clock.alpha(), 0.0f);
  EXPECT_LT(clock.alpha(), 1.0f);
  EXPECT_EQ(clock.take_due_steps(0.0f), 0);  // the rest was dropped, not carried
}

TEST(Driver, RejectsBadArguments) {
  World world;
  EXPECT_EQ(test::error_of([&] { FixedStepDriver d(world, 0.0f); }),
            "fixed-step clock: dt must be in [1e-05, 0.1] s (strut/limits.hpp), got 0");
  EXPECT_EQ(test::error_of([&] { FixedStepDriver d(world, 0.01f, 0); }),
            "fixed-step clock: max_steps must be positive, got 0");
  FixedStepDriver d(world, 0.01f);
  EXPECT_EQ(test::error_of([&] { d.advance(-1.0f); }),
            "fixed-step clock: elapsed time must be finite and >= 0, got -1");
  EXPECT_EQ(test::error_of([&] { d.advance(std::nanf("")); }),
            "fixed-step clock: elapsed time must be finite and >= 0, got nan");
  EXPECT_EQ(d.steps_last_advance(), 0);
  EXPECT_EQ(d.alpha(), 0.0f);
}

}  // namespace strut
