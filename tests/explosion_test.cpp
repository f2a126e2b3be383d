// World::explode: a radial impulse by each shape's width facing the blast, full out to the
// radius, falling linearly to zero over the falloff; the rules of momentum give every figure.
#include <gtest/gtest.h>

#include <cmath>

#include "test_util.hpp"

namespace strut {
namespace {

using test::error_of;

World zero_gravity() { return World(WorldConfig{.gravity = {0, 0}}); }

// A unit box (1 x 1 m, density 1: mass 1 kg) 3 m to the right of the blast, within its radius:
// its near face is 1 m wide, so it takes impulse_per_length x 1 m straight away from the centre.
// Tolerance: float rounding of one velocity update.
TEST(Explosion, PushesAShapeByItsWidthAwayFromTheCentre) {
  World world = zero_gravity();
  const BodyId box = world.create_body(test::box_def({3, 0}));
  world.explode({.position = {0, 0}, .radius = 5, .falloff = 0, .impulse_per_length = 2});
  const Vec2 v = world.linear_velocity(box);
  EXPECT_NEAR(v.x, 2.0f / world.mass(box), 1e-5f);
  EXPECT_NEAR(v.y, 0.0f, 1e-6f);
  EXPECT_NEAR(world.angular_velocity(box), 0.0f, 1e-6f);  // pushed through its centre
}

// Past the radius the strength falls linearly: a box whose near face is halfway through the
// falloff takes half the impulse, one beyond radius + falloff none; a box seen across its
// diagonal shows its diagonal's width (sqrt 2).
TEST(Explosion, FallsOffLinearlyAndWeighsTheWidthFacingTheBlast) {
  World world = zero_gravity();
  // Near faces at x = 2 (inside), x = 4 (half of the 4 m falloff past radius 2), x = 7 (beyond).
  const BodyId inside = world.create_body(test::box_def({2.5f, 0}));
  const BodyId halfway = world.create_body(test::box_def({0, 4.5f}));
  const BodyId beyond = world.create_body(test::box_def({-7.5f, 0}));
  BodyDef turned = test::box_def({0, -3});
  turned.angle = 0.25f * float(M_PI);
  const BodyId diagonal = world.create_body(turned);
  world.explode({.position = {0, 0}, .radius = 2, .falloff = 4, .impulse_per_length = 1});
  EXPECT_NEAR(world.linear_velocity(inside).x, 1.0f, 1e-5f);
  EXPECT_NEAR(world.linear_velocity(halfway).y, 0.5f, 1e-5f);
  EXPECT_EQ(world.linear_velocity(beyond).x, 0.0f);
  // The diamond's lowest corner is 3 - sqrt(0.5) = 2.29 m away: 1 - 0.29 / 4 of the strength.
  const float strength = 1.0f - (3.0f - std::sqrt(0.5f) - 2.0f) / 4.0f;
  EXPECT_NEAR(world.linear_velocity(diagonal).y, -std::sqrt(2.0f) * strength, 1e-5f);
  EXPECT_NEAR(world.linear_velocity(diagonal).x, 0.0f, 1e-6f);
}

// A blast beside a bar's end turns it: the impulse at the near end's point carries torque,
// with momentum and angular momentum about the bar's centre as the impulse gives them.
TEST(Explosion, OffCentreBlastTurnsABodyAsItsImpulseAtTheNearPointDoes) {
  World world = zero_gravity();
  const BodyId bar = world.create_body(test::box_def({0, 0}, {2.0f, 0.1f}));
  world.explode({.position = {1.5f, 1.0f}, .radius = 3, .impulse_per_length = 1});
  // Nearest point of the bar's top face to (1.5, 1): (1.5, 0.1); pushed straight down, 4 m wide.
  const float impulse = 4.0f;
  EXPECT_NEAR(world.linear_velocity(bar).y, -impulse / world.mass(bar), 1e-5f);
  EXPECT_NEAR(world.angular_velocity(bar), -1.5f * impulse / world.inertia(bar), 1e-4f);
}

// Only dynamic rigid bodies whose shapes meet the mask are pushed; sleeping ones are woken;
// sensors and static or kinematic bodies are not touched; a negative impulse pulls.
TEST(Explosion, MaskTypesSleepAndImplosion) {
  World world = zero_gravity();
  BodyDef masked = test::box_def({2, 0});
  masked.shapes[0].filter.category = 2;
  const BodyId other_layer = world.create_body(masked);
  BodyDef fixed = test::box_def({0, 2});
  fixed.is_static = true;
  const BodyId ground = world.create_body(fixed);
  const BodyId sleeper = world.create_body(test::box_def({-2, 0}));
  world.put_to_sleep(sleeper);
  ASSERT_TRUE(world.is_sleeping(sleeper));
  const BodyId pulled = world.create_body(test::box_def({0, -2}));
  world.explode({.position = {0, 0}, .radius = 3, .impulse_per_length = 1, .mask = 1});
  EXPECT_EQ(world.linear_velocity(other_layer).x, 0.0f);
  EXPECT_EQ(world.transform(ground).position.y, 2.0f);
  EXPECT_FALSE(world.is_sleeping(sleeper));
  EXPECT_NEAR(world.linear_velocity(sleeper).x, -1.0f, 1e-5f);
  EXPECT_NEAR(world.linear_velocity(pulled).y, -1.0f, 1e-5f);
  world.explode({.position = {0, 0}, .radius = 3, .impulse_per_length = -1, .mask = 1});
  EXPECT_NEAR(world.linear_velocity(pulled).y, 0.0f, 1e-5f);  // pulled back as hard
}

// Bad definitions are refused by field, and a blast that would break the speed limit changes no
// body at all.
TEST(Explosion, BadInputIsRefusedAndLeavesTheWorldAsItWas) {
  World world = zero_gravity();
  const BodyId near = world.create_body(test::box_def({1.5f, 0}));
  const BodyId pebble = world.create_body(test::box_def({-1.5f, 0}, {0.01f, 0.01f}));
  EXPECT_EQ(error_of([&] {
              world.explode({.position = {NAN, 0}});
            }),
            "explode: position is not a finite number");
  EXPECT_EQ(error_of([&] { world.explode({.radius = -1}); }),
            "explode: radius must not be negative");
  EXPECT_EQ(error_of([&] { world.explode({.falloff = INFINITY}); }),
            "explode: falloff is not a finite number");
  EXPECT_EQ(error_of([&] { world.explode({.impulse_per_length = NAN}); }),
            "explode: impulse_per_length is not a finite number");
  EXPECT_NE(error_of([&] {
              world.explode({.position = {2e7f, 0}});
            }).find("position exceeds"),
            std::string::npos);
  const std::uint64_t before = world.state_hash();
  // 1e4 N s/m on the pebble (2 cm wide, 4e-4 kg) is 5e5 m/s, above the 1e4 m/s limit.
  const std::string e = error_of([&] { world.explode({.radius = 3, .impulse_per_length = 1e4f}); });
  const std::string named = "explode: body " + std::to_string(pebble.index) + "/" +
                            std::to_string(pebble.generation) + " would get: velocity";
  EXPECT_EQ(e.rfind(named, 0), 0u) << e;
  EXPECT_NE(e.find("exceeds the limit of 10000 m/s"), std::string::npos) << e;
  EXPECT_EQ(world.linear_velocity(near).x, 0.0f);
  EXPECT_EQ(world.linear_velocity(pebble).x, 0.0f);
  EXPECT_EQ(world.state_hash(), before);
}

}  // namespace
}  // namespace strut
