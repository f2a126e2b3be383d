// The coordinate limit (strut/limits.hpp, kMaxCoordinate) is where float positions still hold a
// resting stack: a 3-box stack built by the limit rests as it does at the origin, and a body
// placed beyond it is refused, naming the field, with the world left as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "strut/limits.hpp"
#include "strut/world.hpp"
#include "test_util.hpp"

namespace strut {
namespace {

struct StackAtRest {
  std::vector<Vec2> offsets;  // each box's centre less the stack's origin, after 10 s
  float fastest = 0;          // the fastest box point in the 10th second (m/s)
};

// Unit boxes stacked on a 40 m ground box whose top centre is `origin`, 10 s, sleep off.
StackAtRest rest_stack(Vec2 origin) {
  WorldConfig config;
  config.threads = 1;
  config.enable_sleep = false;
  World world(config);
  BodyDef ground;
  ground.is_static = true;
  ground.shapes = {ShapeDef{BoxShape{{20, 1}}}};
  ground.center = origin + Vec2{0, -1};
  world.create_body(ground);
  std::vector<BodyId> boxes;
  for (int i = 0; i < 3; ++i) {
    BodyDef box;
    box.shapes = {ShapeDef{BoxShape{{0.5f, 0.5f}}}};
    box.center = origin + Vec2{0, 0.5f + float(i)};
    boxes.push_back(world.create_body(box));
  }
  StackAtRest out;
  for (int step = 0; step < 600; ++step) {
    world.step(test::kDt);
    if (step < 540) continue;
    for (const BodyId b : boxes)
      out.fastest = std::max(out.fastest, length(world.linear_velocity(b)) +
                                              0.71f * std::fabs(world.angular_velocity(b)));
  }
  for (const BodyId b : boxes) {
    const Vec2 p = world.transform(b).position;
    // The difference in double: p and origin are floats near 4,000, their difference exact.
    out.offsets.push_back(
        {float(double(p.x) - double(origin.x)), float(double(p.y) - double(origin.y))});
  }
  return out;
}

}  // namespace

// At the origin the stack rests at 2e-5 m/s. By the limit (the top box's centre at 3,999.5 m on
// both axes) it rests below the sleep speed (measured 0.008 m/s) with every box within 1 mm of
// where it rests at the origin (measured 0.5 mm; a position's step there is 0.49 mm). Beyond
// 4,096 m, where that step is 1 mm, the same stack jittered at 0.11 m/s and drifted 1.5 cm.
TEST(FarStack, RestsByTheCoordinateLimitAsAtTheOrigin) {
  const StackAtRest home = rest_stack({0, 0});
  const float far = limits::kMaxCoordinate - 2.5f;
  const StackAtRest away = rest_stack({far, far});
  EXPECT_LT(home.fastest, 1e-3f);
  EXPECT_LT(away.fastest, 0.05f);  // WorldConfig's sleep speed
  for (std::size_t i = 0; i < home.offsets.size(); ++i) {
    EXPECT_NEAR(away.offsets[i].x, home.offsets[i].x, 1e-3f) << i;
    EXPECT_NEAR(away.offsets[i].y, home.offsets[i].y, 1e-3f) << i;
  }
}

TEST(FarStack, BeyondTheLimitABodyIsRefusedNamingTheField) {
  World world;
  world.create_body(test::box_def({0, 0}));
  const std::uint64_t before = world.state_hash();
  BodyDef far = test::box_def({0, limits::kMaxCoordinate + 1});
  try {
    world.create_body(far);
    FAIL() << "a centre beyond the limit was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "create_body: center: 4001 exceeds the limit of 4000 m (strut/limits.hpp)");
  }
  EXPECT_EQ(world.state_hash(), before);
}

}  // namespace strut
