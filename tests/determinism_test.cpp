// Determinism: the same scene gives bit-identical results for any thread count and every run.
#include <gtest/gtest.h>

#include <random>

#include "test_util.hpp"

namespace strut {
namespace {

using Builder = void (*)(World&);

void pyramid(World& w) {
  w.create_body(test::ground_def(60));
  const int rows = 30;
  for (int r = 0; r < rows; ++r)
    for (int i = 0; i < rows - r; ++i)
      w.create_body(test::box_def({float(i) - 0.5f * float(rows - r - 1), 0.5f + float(r)}));
}

// Boxes, circles and triangles rained onto the ground from a fixed-seed generator.
void mixed_rain(World& w) {
  w.create_body(test::ground_def(40));
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> x(-20, 20), size(0.2f, 0.6f), spin(-3, 3);
  for (int i = 0; i < 600; ++i) {
    BodyDef d;
    d.shapes = {ShapeDef{BoxShape{}}};
    d.center = {x(rng), 2.0f + 0.35f * float(i)};
    d.angular_velocity = spin(rng);
    const float s = size(rng);
    if (i % 3 == 0)
      d.shapes[0].shape = BoxShape{{s, 0.7f * s}};
    else if (i % 3 == 1)
      d.shapes[0].shape = CircleShape{0.6f * s};
    else
      d.shapes[0].shape = PolygonShape{{{-s, -0.5f * s}, {s, -0.5f * s}, {0, s}}};
    if (i % 7 == 0) d.shapes[0].material.restitution = 0.5f;
    w.create_body(d);
  }
}

// A 30 x 30 grid of circles joined to their upper and left neighbours, top corners fixed.
void joint_grid(World& w) {
  const int n = 30;
  std::vector<BodyId> ids(n * n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      BodyDef d;
      d.shapes = {ShapeDef{.shape = CircleShape{0.4f}, .filter = {.category = 2, .mask = 1}}};
      d.center = {float(c), -float(r)};
      d.is_static = r == 0 && (c == 0 || c == n - 1);
      ids[r * n + c] = w.create_body(d);
    }
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      DistanceJointDef j;
      j.b = ids[r * n + c];
      j.anchor_b = {float(c), -float(r)};
      if (c > 0) {
        j.a = ids[r * n + c - 1], j.anchor_a = {float(c - 1), -float(r)};
        w.create_joint(j);
      }
      if (r > 0) {
        j.a = ids[(r - 1) * n + c], j.anchor_a = {float(c), -float(r - 1)};
        w.create_joint(j);
      }
    }
}

std::uint64_t run(Builder build, int threads, int steps) {
  World world(WorldConfig{.threads = threads, .enable_sleep = false});
  build(world);
  for (int i = 0; i < steps; ++i) world.step(1.0f / 60);
  return world.state_hash();
}

void expect_same_for_all_thread_counts(Builder build, int steps) {
  const std::uint64_t reference = run(build, 1, steps);
  EXPECT_EQ(run(build, 1, steps), reference) << "two runs on one thread differ";
  for (int threads : {2, 3, 8})
    EXPECT_EQ(run(build, threads, steps), reference) << threads << " threads";
}

}  // namespace

TEST(Determinism, PyramidIsBitIdenticalForAnyThreadCount) {
  expect_same_for_all_thread_counts(pyramid, 200);
}
TEST(Determinism, MixedRainIsBitIdenticalForAnyThreadCount) {
  expect_same_for_all_thread_counts(mixed_rain, 300);
}
TEST(Determinism, JointGridIsBitIdenticalForAnyThreadCount) {
  expect_same_for_all_thread_counts(joint_grid, 200);
}

TEST(Determinism, HashChangesWhenTheStateDoes) {
  World a, b;
  a.create_body(test::box_def({0, 0}));
  b.create_body(test::box_def({0, 1e-6f}));
  EXPECT_NE(a.state_hash(), b.state_hash());
}

}  // namespace strut

#include "strut/task_arena.hpp"

namespace strut {

// An embedding program hands strut its own arena; the results are the same bits.
TEST(Determinism, RunsInsideACallerOwnedArena) {
  tbb::task_arena arena(2);
  World inside(in_arena(WorldConfig{.enable_sleep = false}, arena));
  World alone(WorldConfig{.threads = 1, .enable_sleep = false});
  for (World* w : {&inside, &alone}) {
    w->create_body(test::ground_def());
    for (int i = 0; i < 50; ++i)
      w->create_body(test::box_def({float(i % 10) * 1.1f, 0.5f + float(i / 10)}));
    for (int i = 0; i < 120; ++i) w->step(1.0f / 60);
  }
  EXPECT_EQ(inside.state_hash(), alone.state_hash());
}

}  // namespace strut
