// The push-out cap (WorldConfig::contact_push_max, 3 m/s) holds per body: bodies created on top
// of each other separate at about the cap however many overlap, where each contact's own cap
// used to add up (2,000 boxes created at one point flew apart at 156 m/s after five steps and up
// to 239 m/s later). The share is in prepare_contacts.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "test_util.hpp"

namespace strut {
namespace {

struct Spread {
  float fastest = 0;  // m/s, over every body and step
  bool finite = true;
};

// n boxes of 1 m created at one point (with gravity, on a ground, when `ground`), stepped
// `steps` times.
Spread pile_at_one_point(int n, int steps, bool ground) {
  World world({.gravity = ground ? Vec2{0, -10} : Vec2{0, 0}});
  if (ground) world.create_body(test::ground_def(100));
  std::vector<BodyId> boxes;
  for (int i = 0; i < n; ++i) boxes.push_back(world.create_body(test::box_def({0, 0.5f})));
  Spread s;
  for (int step = 0; step < steps; ++step) {
    world.step(1.0f / 60);
    for (const BodyId id : boxes) {
      const Vec2 v = world.linear_velocity(id);
      s.finite = s.finite && is_finite(v);
      s.fastest = std::max(s.fastest, length(v));
    }
  }
  return s;
}

// The bound is twice the cap plus one step of gravity: a body is pushed by its pairs' shares
// (together at most the cap) and on by neighbours that move away at up to the cap themselves.
// Measured, fastest body over 20 steps (m/s), shared cap against the cap per contact it
// replaced: 10 boxes 0.79 (7.1 before), 100 boxes 0.64 (41), 300 boxes 0.41 (75), 300 boxes on
// a ground 0.13 (95).
float bound() { return 2 * WorldConfig{}.contact_push_max + 10.0f / 60; }

TEST(PushOut, BodiesCreatedAtOnePointSeparateAtAboutTheCap) {
  for (const int n : {10, 100, 300}) {
    const Spread s = pile_at_one_point(n, 20, false);
    EXPECT_TRUE(s.finite) << n;
    EXPECT_GT(s.fastest, 0.1f) << n << " boxes: they do separate";
    EXPECT_LE(s.fastest, bound()) << n << " boxes";
  }
  const Spread on_ground = pile_at_one_point(300, 20, true);
  EXPECT_TRUE(on_ground.finite);
  EXPECT_LE(on_ground.fastest, bound());
}

// The case of issue 15: 2,000 boxes at one point, every pair of them overlapping (two million
// contact pairs, about 3 s of CPU a step here), so slow: runs with STRUT_SLOW=1.
// Measured: 0.088 m/s, 13 s of CPU in all (with the cap per contact: 156 m/s, docs/api.md of
// the previous session).
TEST(PushOut, TwoThousandBoxesAtOnePointStayUnderTheBound) {
  if (std::getenv("STRUT_SLOW") == nullptr) GTEST_SKIP() << "slow: set STRUT_SLOW=1";
  const Spread s = pile_at_one_point(2000, 5, false);
  EXPECT_TRUE(s.finite);
  EXPECT_GT(s.fastest, 0.01f);
  EXPECT_LE(s.fastest, bound());
}

}  // namespace
}  // namespace strut
