// Stack stiffness: a tall pyramid must stand, not sag. Box2D v3 lets a box of this 60-row
// pyramid move 0.263 m in 10 s (measured beside strut on 2026-11-23 with Box2D's own scene code);
// strut must keep every box within 0.2 m of where it started.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "strut/world.hpp"
#include "tests/test_util.hpp"

namespace strut {
namespace {

// Row i (0-based from the bottom) has 60 - i unit boxes (half-extent 0.5) on a static ground,
// friction 0.6 (the default material), 4 substeps, dt 1/60, sleeping off so nothing can hide
// sag by freezing. 10 s = 600 steps.
TEST(Stiffness, SixtyRowPyramidStandsWithinTwentyCentimetres) {
  constexpr int kRows = 60;
  WorldConfig config;
  config.substeps = 4;
  config.enable_sleep = false;
  config.threads = 0;
  World world(config);
  world.create_body(test::ground_def(100));
  std::vector<BodyId> boxes;
  std::vector<Vec2> start;
  for (int i = 0; i < kRows; ++i)
    for (int j = i; j < kRows; ++j) {
      const Vec2 c{float(i + 1) * 0.5f + float(j - i) - 0.5f * kRows, float(2 * i + 1) * 0.5f};
      boxes.push_back(world.create_body(test::box_def(c)));
      start.push_back(c);
    }
  for (int s = 0; s < 600; ++s) world.step(1.0f / 60.0f);
  float worst = 0;
  for (std::size_t k = 0; k < boxes.size(); ++k)
    worst = std::max(worst, length(world.transform(boxes[k]).position - start[k]));
  RecordProperty("worst_move_m", std::to_string(worst));
  EXPECT_LT(worst, 0.2f) << "a box moved " << worst << " m";
}

}  // namespace
}  // namespace strut
