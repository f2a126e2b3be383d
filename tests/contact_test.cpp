// Contacts against physics: resting, stacking, Coulomb friction, restitution, elastic impact.
// Every scene runs the real step for the full simulated time.
#include <gtest/gtest.h>

#include <cmath>

#include "test_util.hpp"

namespace strut {
namespace {

using test::kDt;

struct Tracked {
  std::vector<BodyId> ids;
  std::vector<Vec2> start;
};

// Largest distance any tracked body moved between `settle` s and `settle + seconds` s.
float drift_after_settling(World& world, const Tracked& t, float settle, float seconds) {
  for (int i = 0; i < int(settle / kDt); ++i) world.step(kDt);
  std::vector<Vec2> at;
  for (BodyId id : t.ids) at.push_back(world.transform(id).position);
  for (int i = 0; i < int(seconds / kDt); ++i) world.step(kDt);
  float worst = 0;
  for (std::size_t k = 0; k < t.ids.size(); ++k)
    worst = std::max(worst, length(world.transform(t.ids[k]).position - at[k]));
  return worst;
}

float largest_drift_from_start(World& world, const Tracked& t) {
  float worst = 0;
  for (std::size_t k = 0; k < t.ids.size(); ++k)
    worst = std::max(worst, length(world.transform(t.ids[k]).position - t.start[k]));
  return worst;
}

Tracked stack(World& world, int n) {
  Tracked t;
  world.create_body(test::ground_def());
  for (int i = 0; i < n; ++i) {
    const Vec2 c{0, 0.5f + float(i)};
    t.ids.push_back(world.create_body(test::box_def(c)));
    t.start.push_back(c);
  }
  return t;
}

Tracked pyramid(World& world, int rows) {
  Tracked t;
  world.create_body(test::ground_def());
  for (int r = 0; r < rows; ++r)
    for (int i = 0; i < rows - r; ++i) {
      const Vec2 c{float(i) - 0.5f * float(rows - r - 1), 0.5f + float(r)};
      t.ids.push_back(world.create_body(test::box_def(c)));
      t.start.push_back(c);
    }
  return t;
}

}  // namespace

TEST(Contact, BoxRestsWithoutCreepOrJitter) {
  World world;
  Tracked t = stack(world, 1);
  EXPECT_LT(drift_after_settling(world, t, 1.0f, 10.0f), 1e-4f);
  EXPECT_LT(length(world.linear_velocity(t.ids[0])), 1e-3f);
  EXPECT_NEAR(world.transform(t.ids[0]).position.y, 0.5f, 2e-3f);  // resting on the surface
}

class Stacking : public ::testing::TestWithParam<int> {};

// Ten boxes stand for 10 s. In the first second the soft contacts take up the load (the column
// shortens by 3 cm: 3.5 mm of overlap at the bottom, the steady state of a 30 Hz contact spring
// under nine boxes). After that the column sways a little. Measured over the next 10 s
// (4 / 8 substeps): largest movement of any box 0.45 / 0.71 cm, largest offset from its column
// 1.5 / 0.8 cm, largest tilt 0.003 / 0.001 rad (bounds below leave room for other machines'
// rounding of this chaotic sway).
TEST_P(Stacking, TenBoxStackStandsStill) {
  const bool coarse = GetParam() == 4;
  World world(WorldConfig{.substeps = GetParam(), .enable_sleep = false});
  Tracked t = stack(world, 10);
  EXPECT_LT(drift_after_settling(world, t, 1.0f, 10.0f), coarse ? 0.05f : 0.01f);
  for (BodyId id : t.ids) {
    EXPECT_LT(std::fabs(world.transform(id).position.x), coarse ? 0.06f : 0.015f);
    EXPECT_LT(std::fabs(world.transform(id).angle), 0.01f);
  }
  EXPECT_LT(largest_drift_from_start(world, t), 0.06f);
}

// A 20-row pyramid (210 boxes) stands for 10 s, no box moving more than a few centimetres.
TEST_P(Stacking, TwentyRowPyramidStands) {
  World world(WorldConfig{.substeps = GetParam(), .enable_sleep = false});
  Tracked t = pyramid(world, 20);
  ASSERT_EQ(t.ids.size(), 210u);
  for (int i = 0; i < 600; ++i) world.step(kDt);
  EXPECT_LT(largest_drift_from_start(world, t), 0.05f);
}

INSTANTIATE_TEST_SUITE_P(Substeps, Stacking, ::testing::Values(4, 8));

namespace {
// A box on a static slope of `angle` radians; returns the distance it travelled along the slope
// (downhill positive) after `seconds`, sampled at `samples` times.
std::vector<float> slide(float angle, float mu_static, float mu_dynamic, float seconds) {
  Material ramp;
  ramp.friction = mu_dynamic;
  ramp.static_friction = mu_static;
  Material box = ramp;
  box.density = 1;
  return test::slide_on_slope(angle, ramp, box, int(seconds / kDt));
}
}  // namespace

TEST(Friction, BoxHoldsOnTwentyDegreesWithFrictionPointSix) {
  const std::vector<float> s = slide(20.0f * float(M_PI) / 180, 0.6f, 0.6f, 5.0f);
  EXPECT_LT(std::fabs(s.back()), 1e-3f);  // tan 20 deg = 0.36 < 0.6: it holds
}

// mu = 0.1 on 30 degrees: slides with a = g (sin - mu cos) = 4.134 m/s^2.
TEST(Friction, BoxSlidesWithTheCoulombAcceleration) {
  const float angle = 30.0f * float(M_PI) / 180;
  const std::vector<float> s = slide(angle, 0.1f, 0.1f, 2.0f);
  const float a_expected = 10.0f * (std::sin(angle) - 0.1f * std::cos(angle));
  // Fit s = a t^2 / 2 between 0.5 s and 2 s (the start-up offset cancels in the difference).
  const float t1 = 0.5f, t2 = 2.0f;
  const float s1 = s[std::size_t(t1 / kDt) - 1], s2 = s.back();
  const float a = 2.0f * (s2 - s1) / (t2 * t2 - t1 * t1);
  EXPECT_NEAR(a, a_expected, 0.02f * a_expected);
}

TEST(Friction, StaticAboveDynamicHoldsUntilTheStaticThreshold) {
  // tan 25 deg = 0.466: holds with static 0.5 (dynamic 0.2), slides with static 0.4.
  const float angle = 25.0f * float(M_PI) / 180;
  EXPECT_LT(std::fabs(slide(angle, 0.5f, 0.2f, 3.0f).back()), 1e-3f);
  EXPECT_GT(slide(angle, 0.4f, 0.2f, 3.0f).back(), 1.0f);
}

TEST(Restitution, BallReboundsToRestitutionSquaredOfItsDropHeight) {
  World world(WorldConfig{.gravity = {0, -10}, .substeps = 8});
  world.create_body(test::ground_def());
  BodyDef d;
  d.shapes = {ShapeDef{.shape = CircleShape{0.1f}, .material = {.restitution = 0.8f}}};
  d.center = {0, 2.1f};  // drop height 2 m
  const BodyId ball = world.create_body(d);
  float apex = 0;
  bool bounced = false;
  for (int i = 0; i < 720; ++i) {  // falls 0.63 s, rises 0.5 s
    world.step(1.0f / 240);
    const float vy = world.linear_velocity(ball).y;
    if (vy > 0) bounced = true;
    if (bounced) apex = std::max(apex, world.transform(ball).position.y - 0.1f);
    if (bounced && vy < 0) break;
  }
  EXPECT_NEAR(apex, 0.64f * 2.0f, 0.03f * 1.28f);
}

TEST(Restitution, EqualElasticBallsSwapVelocitiesHeadOn) {
  World world(WorldConfig{.gravity = {0, 0}});
  BodyDef d;
  d.shapes = {ShapeDef{.shape = CircleShape{0.5f}, .material = {.restitution = 1.0f}}};
  d.center = {-2, 0};
  d.velocity = {3, 0};
  const BodyId a = world.create_body(d);
  d.center = {2, 0};
  d.velocity = {-1, 0};
  const BodyId b = world.create_body(d);
  for (int i = 0; i < 120; ++i) world.step(kDt);
  EXPECT_NEAR(world.linear_velocity(a).x, -1.0f, 0.03f);
  EXPECT_NEAR(world.linear_velocity(b).x, 3.0f, 0.03f);
  EXPECT_NEAR(world.linear_velocity(a).y, 0.0f, 1e-4f);
}

TEST(Restitution, RestingBodiesDoNotBuzz) {
  World world;
  world.create_body(test::ground_def());
  BodyDef d = test::box_def({0, 0.5f});
  d.shapes[0].material.restitution = 0.9f;
  const BodyId box = world.create_body(d);
  for (int i = 0; i < 300; ++i) world.step(kDt);
  EXPECT_LT(length(world.linear_velocity(box)), 1e-3f);
}

TEST(Materials, CombineFrictionByGeometricMeanAndRestitutionByMaximum) {
  // A frictionless ice floor makes even a rubber box slide; a bouncy floor bounces a dead ball.
  World world(WorldConfig{.gravity = {0, -10}});
  BodyDef floor = test::ground_def();
  floor.shapes[0].material.friction = 0.0f;
  floor.shapes[0].material.static_friction = 0.0f;
  floor.shapes[0].material.restitution = 0.9f;
  world.create_body(floor);
  BodyDef box = test::box_def({0, 0.5f});
  box.shapes[0].material.friction = 1.0f;
  box.shapes[0].material.static_friction = 1.0f;
  box.velocity = {2, 0};
  const BodyId b = world.create_body(box);
  BodyDef ball;
  ball.shapes = {ShapeDef{.shape = CircleShape{0.2f}, .material = {.restitution = 0.0f}}};
  ball.center = {10, 3};
  const BodyId c = world.create_body(ball);
  bool rose = false;
  for (int i = 0; i < 120; ++i) {
    world.step(kDt);
    rose = rose || world.linear_velocity(c).y > 1.0f;
  }
  EXPECT_NEAR(world.linear_velocity(b).x, 2.0f, 1e-3f);
  EXPECT_TRUE(rose);
}

}  // namespace strut
