// The push-out cap (WorldConfig::contact_push_max) for crowded bodies: a body whose overlapping
// pairs would push it at more than kCrowdedPushes caps gives each pair a share of the cap
// (push_out_scale, solver/contacts/contact_solver.hpp); an ordinary contact keeps the full cap.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "solver/contacts/contact_solver.hpp"
#include "solver/world_impl.hpp"
#include "test_util.hpp"

namespace strut {

struct WorldAccess {
  static World::Impl& impl(World& w) { return *w.impl_; }
};

namespace {

using test::finite_state;

// The fastest speed of n unit boxes created at the origin without gravity, over five steps.
float fastest_of_boxes_at_one_point(int n) {
  World world({.gravity = {0, 0}});
  std::vector<BodyId> boxes;
  for (int i = 0; i < n; ++i) boxes.push_back(world.create_body(test::box_def({0, 0})));
  float fastest = 0;
  for (int step = 0; step < 5; ++step) {
    world.step(1.0f / 60);
    for (const BodyId id : boxes) fastest = std::max(fastest, length(world.linear_velocity(id)));
  }
  EXPECT_TRUE(finite_state(world)) << n << " boxes";
  return fastest;
}

}  // namespace

TEST(PushOut, CrowdedBodiesShareTheCap) {
  EXPECT_EQ(push_out_scale(0), 1.0f);
  EXPECT_EQ(push_out_scale(kCrowdedPushes), 1.0f);
  EXPECT_EQ(push_out_scale(2 * kCrowdedPushes), 0.5f);
}

// n equal boxes at one point: every pair overlaps and gives each of its boxes half its push, so a
// box receives (n - 1) / 2 pushes, each at most the cap times push_out_scale of that sum. In a
// substep a box's pairs together therefore ask for at most min((n - 1) / 2, kCrowdedPushes) caps
// of speed, and the relax pass takes back what the overlap still holds, so the first steps do not
// add up: that product bounds the speed. Measured (5 steps, fastest box): 10 boxes 7.0 m/s (bound
// 13.5), 100 boxes 19.2 m/s (bound 72; 37.4 with the cap per contact alone), 2,000 boxes 3.6 m/s
// (bound 72; 163 before). Over 60 steps, as the crowd thins below kCrowdedPushes, chains of
// overlapping boxes add their pushes again (docs/api.md, "Limitations").
TEST(PushOut, BoxesCreatedAtOnePointLeaveNoFasterThanTheSharedCap) {
  const float cap = WorldConfig{}.contact_push_max;
  for (const int n : {10, 100, 2000}) {
    const float pushes = 0.5f * float(n - 1);
    const float fastest = fastest_of_boxes_at_one_point(n);
    EXPECT_GT(fastest, 0.0f) << n << " boxes";  // they do separate
    EXPECT_LE(fastest, std::min(pushes, kCrowdedPushes) * cap) << n << " boxes";
  }
}

// How far a box sunk 0.3 m into a static floor rises in one step, with `others` more boxes
// resting on that floor.
float rise_out_of_floor(int others) {
  World world;
  world.create_body(test::ground_def(40));
  for (int i = 0; i < others; ++i)
    world.create_body(test::box_def({-30.0f + 1.5f * float(i), 0.5f}));
  const float start = 0.5f - 0.3f;
  const BodyId box = world.create_body(test::box_def({32.0f, start}));
  world.step(1.0f / 60);
  return world.transform(box).position.y - start;
}

// A static body is never counted, so a box sunk into a floor that carries 40 other boxes still
// pushes out at the full cap: exactly as fast as on a bare floor, and at most contact_push_max x
// dt in a step (each substep asks for cap x h). The soft contact reaches 87% of that (measured
// 0.0437 m against 0.05 at 60 Hz, with or without gravity, the same before the shared cap):
// tolerance 85 to 100%.
TEST(PushOut, ABoxOnACrowdedFloorPushesOutAtTheFullCap) {
  const float rise = rise_out_of_floor(40);
  EXPECT_EQ(rise, rise_out_of_floor(0));
  const float full = WorldConfig{}.contact_push_max / 60;
  EXPECT_LE(rise, full);
  EXPECT_GE(rise, 0.85f * full);
}

// The shared cap takes the scaled lanes through the SIMD kernel and its scalar twin, at 1 and 2
// threads: the same bits every way (the lanes of a crowded pile are most of its constraints).
TEST(PushOut, CrowdedPileHasTheSameBitsForEveryKernelAndThreadCount) {
  const auto run = [](bool scalar, int threads) {
    World world(WorldConfig{.gravity = {0, 0}, .threads = threads, .enable_sleep = false});
    WorldAccess::impl(world).scalar_contacts = scalar;
    for (int i = 0; i < 150; ++i)
      world.create_body(test::box_def({0.01f * float(i % 7), 0.01f * float(i % 5)}));
    world.step(1.0f / 60);
    const auto& pushes = WorldAccess::impl(world).scratch.body_pushes;
    EXPECT_TRUE(std::any_of(pushes.begin(), pushes.end(),
                            [](float p) { return p > kCrowdedPushes; }));  // shared caps
    for (int i = 0; i < 20; ++i) world.step(1.0f / 60);
    EXPECT_TRUE(finite_state(world));
    return world.state_hash();
  };
  const std::uint64_t simd = run(false, 1);
  EXPECT_EQ(run(true, 1), simd);
  EXPECT_EQ(run(false, 2), simd);
  EXPECT_EQ(run(true, 2), simd);
}

}  // namespace strut
