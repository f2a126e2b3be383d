// The wide (SIMD) contact kernel against its scalar twin (the scalar SIMD level): a whole
// simulation of boxes, circles and triangles, with restitution and friction, gives the same bits
// either way.
#include <gtest/gtest.h>

#include <random>

#include "simd_level.hpp"
#include "test_util.hpp"

namespace strut {

namespace {
std::uint64_t simulate(bool scalar, int threads) {
  test::SimdLevelScope level(scalar ? SimdLevel::Scalar : simd_level());
  World world(WorldConfig{.threads = threads, .enable_sleep = false});
  world.create_body(test::ground_def(30));
  for (int r = 0; r < 12; ++r)
    for (int i = 0; i < 12 - r; ++i)
      world.create_body(test::box_def({float(i) - 0.5f * float(11 - r), 0.5f + float(r)}));
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> x(-10, 10), s(0.15f, 0.4f);
  for (int i = 0; i < 150; ++i) {
    BodyDef d;
    d.shapes = {ShapeDef{BoxShape{}}};
    d.center = {x(rng), 14.0f + 0.5f * float(i)};
    if (i % 3 == 0)
      d.shapes[0].shape = CircleShape{s(rng)};
    else if (i % 3 == 1)
      d.shapes[0].shape = BoxShape{{s(rng), s(rng)}};
    else
      d.shapes[0].shape = PolygonShape{{{-0.3f, 0}, {0.3f, 0}, {0, 0.4f}}};
    d.shapes[0].material.restitution = (i % 4 == 0) ? 0.6f : 0.0f;
    d.shapes[0].material.friction = (i % 5 == 0) ? 0.1f : 0.6f;
    d.shapes[0].material.static_friction = (i % 5 == 0) ? 0.1f : 0.6f;
    world.create_body(d);
  }
  for (int i = 0; i < 240; ++i) world.step(1.0f / 60);
  return world.state_hash();
}
}  // namespace

// A plank carrying 60 boxes takes part in more contact constraints than there are colours: the
// rest go to the overflow colour, whose lanes share the plank. Solved as one SIMD group, every
// lane would read the plank's old velocity and the last lane's write would win, so the SIMD run
// would part from the scalar twin (which solves lane after lane); it must not.
std::uint64_t plank(bool scalar) {
  test::SimdLevelScope level(scalar ? SimdLevel::Scalar : simd_level());
  World world(WorldConfig{.threads = 2, .enable_sleep = false});
  world.create_body(test::ground_def(40));
  world.create_body(test::box_def({0, 0.25f}, {16.0f, 0.25f}));
  for (int i = 0; i < 60; ++i)
    world.create_body(test::box_def({-15.0f + 0.5f * float(i), 0.7f}, {0.2f, 0.2f}));
  for (int i = 0; i < 120; ++i) world.step(1.0f / 60);
  return world.state_hash();
}

TEST(ContactWide, OverflowColourLanesSharingABodyAreSolvedOneAfterAnother) {
  EXPECT_EQ(plank(false), plank(true));
}

TEST(ContactWide, SimdKernelMatchesItsScalarTwinOverAWholeSimulation) {
  const std::uint64_t simd = simulate(false, 1);
  EXPECT_EQ(simulate(true, 1), simd);
  EXPECT_EQ(simulate(false, 2), simd);
}

}  // namespace strut
