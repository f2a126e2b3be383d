// Chains in a running world: bodies slide across the inner points of a chain as smoothly as along
// one long segment (no ghost collisions), chains collide from both sides, and a loop holds bodies.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "test_util.hpp"

namespace strut {
namespace {

using test::kDt;

// A static chain of `links` links of 1 m along y = 0, from x = -links / 2.
BodyId add_floor_chain(World& world, int links) {
  BodyDef d;
  d.is_static = true;
  ChainShape chain;
  for (int i = 0; i <= links; ++i) chain.points.push_back({float(i) - 0.5f * float(links), 0.0f});
  d.shapes = {ShapeDef{.shape = chain, .material = {.friction = 0.0f}}};
  return world.create_body(d);
}

struct Slide {
  float worst_speed_error = 0;  // relative, over every step
  float end_x = 0;
  float worst_height_error = 0;
};

// A frictionless body resting on the chain, given `speed` along +x, followed for `steps` steps.
Slide slide(Shape shape, float rest_height, float speed, int steps) {
  World world;
  add_floor_chain(world, 200);
  BodyDef d;
  d.shapes = {ShapeDef{.shape = std::move(shape), .material = {.friction = 0.0f}}};
  d.center = {-90.0f, rest_height};
  d.velocity = {speed, 0.0f};
  const BodyId id = world.create_body(d);
  Slide out;
  for (int i = 0; i < steps; ++i) {
    world.step(kDt);
    const Vec2 v = world.linear_velocity(id);
    out.worst_speed_error = std::max(out.worst_speed_error, std::fabs(v.x - speed) / speed);
    out.worst_height_error =
        std::max(out.worst_height_error, std::fabs(world.transform(id).position.y - rest_height));
  }
  out.end_x = world.transform(id).position.x;
  return out;
}

}  // namespace

// 5 m/s for 6 s: 30 m, across 30 inner points of the chain. Speed within 1% at every step, the end
// where x0 + v t says within 1 cm, and the body never lifted or sunk by more than the slop.
TEST(ChainWorld, BodiesSlideAcrossTheInnerPointsAsAlongOneSegment) {
  struct Case {
    const char* name;
    Shape shape;
    float rest_height;
  };
  const Case cases[] = {
      {"box", BoxShape{{0.5f, 0.5f}}, 0.5f},
      {"rounded box", BoxShape{{0.4f, 0.4f}, 0.1f}, 0.5f},
      {"capsule", CapsuleShape{0.6f, 0.25f}, 0.25f},
      {"small box", BoxShape{{0.2f, 0.1f}}, 0.1f},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Slide s = slide(c.shape, c.rest_height, 5.0f, 360);
    EXPECT_LT(s.worst_speed_error, 0.01f);
    EXPECT_NEAR(s.end_x, -90.0f + 5.0f * 360 * kDt, 0.01f);
    EXPECT_LT(s.worst_height_error, 0.01f);
  }
}

// Faster, so the body crosses a joint in a few substeps: still no catch.
TEST(ChainWorld, FastSlideAcrossJointsKeepsItsSpeed) {
  const Slide s = slide(BoxShape{{0.5f, 0.25f}}, 0.25f, 20.0f, 240);
  EXPECT_LT(s.worst_speed_error, 0.01f);
  EXPECT_NEAR(s.end_x, -90.0f + 20.0f * 240 * kDt, 0.05f);
}

// Chains collide from both sides: a box pressed up against the chain from below by an upward
// gravity rests under it.
TEST(ChainWorld, CollidesFromBothSides) {
  World world(WorldConfig{.gravity = {0.0f, 10.0f}});
  add_floor_chain(world, 20);
  const BodyId box = world.create_body(test::box_def({0.3f, -1.0f}));
  for (int i = 0; i < 120; ++i) world.step(kDt);
  EXPECT_NEAR(world.transform(box).position.y, -0.5f, 0.01f);
}

// A loop of 360 points on a circle of radius 10 holds balls and boxes dropped inside it.
TEST(ChainWorld, LoopHoldsWhatIsInside) {
  World world;
  BodyDef d;
  d.is_static = true;
  ChainShape loop;
  loop.loop = true;
  for (int i = 0; i < 360; ++i) {
    const double a = 2.0 * std::numbers::pi * i / 360;
    loop.points.push_back({float(10 * std::cos(a)), float(10 * std::sin(a))});
  }
  d.shapes = {ShapeDef{loop}};
  world.create_body(d);
  std::vector<BodyId> bodies;
  for (int i = 0; i < 40; ++i) {
    BodyDef b;
    b.shapes = {ShapeDef{BoxShape{}}};
    b.center = {float(i % 8) * 1.5f - 5.0f, float(i / 8) * 1.5f - 3.0f};
    if (i % 2) b.shapes[0].shape = CircleShape{0.4f};
    b.velocity = {float(i % 5) - 2.0f, 3.0f};
    bodies.push_back(world.create_body(b));
  }
  for (int i = 0; i < 300; ++i) world.step(kDt);
  for (const BodyId id : bodies) EXPECT_LT(length(world.transform(id).position), 9.7f);
}

}  // namespace strut
