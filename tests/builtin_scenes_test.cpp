// The built-in scenes: their committed files match the code, load, run and stay finite, and
// the scenes do what they are for (a pyramid stands, rain recycles its ragdolls, ...).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "strut/scenes.hpp"
#include "test_util.hpp"

namespace strut {
namespace {

const std::string kScenesDir = std::string(STRUT_SOURCE_DIR) + "/scenes/";

bool all_finite(const SceneInstance& inst) {
  for (const BodyId id : inst.bodies) {
    if (!inst.world.is_valid(id)) continue;
    const Transform t = inst.world.transform(id);
    if (!is_finite(t.position) || !std::isfinite(t.angle) ||
        !is_finite(inst.world.linear_velocity(id)))
      return false;
  }
  return true;
}

TEST(BuiltinScenes, NamesAndDefault) {
  const std::vector<std::string> expected = {
      "large_pyramid", "many_pyramids", "rain",     "smash",  "spinner",   "tumbler",
      "joint_grid",    "compounds",     "junkyard", "washer", "particles", "cloth"};
  EXPECT_EQ(builtin_scene_names(), expected);
  EXPECT_TRUE(is_builtin_scene(kDefaultSceneName));
  EXPECT_FALSE(is_builtin_scene("pyramid"));
  EXPECT_THROW(builtin_scene("pyramid"), Error);
  EXPECT_THROW(builtin_scene("rain", 0.0f), Error);
}

TEST(BuiltinScenes, BenchmarkSizesMatchBox2D) {
  struct Count {
    const char* name;
    std::size_t bodies, joints;
    int steps;
  };
  // Box2D's counts; + the statics strut needs for segments and loops; joint_grid leaves out
  // the 6 joints between static circles.
  const Count counts[] = {
      {"large_pyramid", 1 + 5050, 0, 500},
      {"many_pyramids", 1 + 22000, 0, 200},
      {"rain", 40, 0, 1000},
      {"smash", 1 + 9600, 0, 300},
      {"spinner", 1 + 1 + 6076, 1, 500},
      {"tumbler", 2 + 2025, 1, 750},
      {"compounds", 5 + 3000, 0, 500},
      {"junkyard", 5 + 8000 + 1, 0, 800},
      {"washer", 1 + 8100, 0, 500},
      {"joint_grid", 10000, 19800 - 6, 500},
      {"cloth", 10000 + 1, 19800, 500},
  };
  for (const Count& c : counts) {
    SCOPED_TRACE(c.name);
    const Scene s = builtin_scene(c.name);
    EXPECT_EQ(s.bodies.size(), c.bodies);
    EXPECT_EQ(s.joints.size(), c.joints);
    EXPECT_EQ(s.steps, c.steps);
    EXPECT_EQ(s.dt, 1.0f / 60.0f);
    EXPECT_EQ(s.config.substeps, 4);
    EXPECT_FALSE(s.description.empty());
  }
  for (const char* name : {"large_pyramid", "many_pyramids", "joint_grid"})
    EXPECT_FALSE(builtin_scene(name).config.enable_sleep) << name;
}

TEST(BuiltinScenes, SizeScalesTheBodyCount) {
  for (const std::string& name : builtin_scene_names()) {
    SCOPED_TRACE(name);
    const Scene small = builtin_scene(name, 0.25f), large = builtin_scene(name, 1.0f);
    if (small.make_step_hook) continue;  // their bodies appear as they run (checked below)
    EXPECT_LT(small.bodies.size(), large.bodies.size());
  }
}

TEST(BuiltinScenes, CommittedFilesAreTheCode) {
  for (const std::string& name : builtin_scene_names()) {
    SCOPED_TRACE(name);
    const std::string path = kScenesDir + name + ".json";
    ASSERT_TRUE(std::filesystem::exists(path)) << "regenerate with: strut export --all scenes";
    EXPECT_TRUE(test::read_file(path) == scene_to_json(builtin_scene(name)))
        << path << " differs from the code; regenerate with: strut export --all scenes";
  }
}

// Every scene file loads, builds and runs finite; a built-in scene's file and its code give
// the same hash (the file holds the initial state, so the code runs without its spawning hook).
TEST(BuiltinScenes, EverySceneFileRunsFiniteAndMatchesItsCode) {
  int builtins = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kScenesDir)) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().string());
    SceneInstance file = build_scene(load_scene_file(entry.path().string()), 2);
    for (int i = 0; i < 10; ++i) file.step();
    EXPECT_TRUE(all_finite(file));
    const std::string name = entry.path().stem().string();
    if (!is_builtin_scene(name)) continue;
    ++builtins;
    Scene code = builtin_scene(name);
    code.make_step_hook = nullptr;
    SceneInstance inst = build_scene(code, 1);
    for (int i = 0; i < 10; ++i) inst.step();
    EXPECT_EQ(inst.world.state_hash(), file.world.state_hash());
  }
  EXPECT_EQ(builtins, int(builtin_scene_names().size()));
}

TEST(BuiltinScenes, RainSpawnsAndRecyclesRagdolls) {
  const Scene s = builtin_scene("rain", 0.2f);  // one floor
  SceneInstance inst = build_scene(s, 2);
  const std::size_t floor = s.bodies.size();
  inst.step();
  EXPECT_EQ(inst.world.body_count(), floor + 5 * 11);  // one column of 5 ragdolls
  EXPECT_EQ(inst.world.joint_count(), 5u * 10u);
  while (inst.steps_done < 40 * 8) inst.step();  // all 40 columns exist
  EXPECT_EQ(inst.world.body_count(), floor + 40 * 5 * 11);
  for (int i = 0; i < 20; ++i) inst.step();  // the oldest columns are made again
  EXPECT_EQ(inst.world.body_count(), floor + 40 * 5 * 11);
  EXPECT_EQ(inst.bodies.size(), inst.world.body_count());
  EXPECT_EQ(inst.joints.size(), inst.world.joint_count());
  EXPECT_TRUE(all_finite(inst));
}

TEST(BuiltinScenes, ParticlesArePouredIn) {
  const Scene s = builtin_scene("particles", 0.01f);  // 1000 particles, 40 a row, 10 m wide
  SceneInstance inst = build_scene(s, 2);
  for (int i = 0; i < s.steps; ++i) inst.step();
  EXPECT_EQ(inst.world.body_count(), s.bodies.size() + 1000);
  // All inside the box, none fell through the floor.
  for (std::size_t i = s.bodies.size(); i < inst.bodies.size(); ++i) {
    const Vec2 p = inst.world.transform(inst.bodies[i]).position;
    EXPECT_GT(p.y, 0.0f);
    EXPECT_LT(std::fabs(p.x), 5.0f);
  }
}

TEST(BuiltinScenes, PyramidStands) {
  const Scene s = builtin_scene("large_pyramid", 0.04f);  // base 20, 210 boxes
  SceneInstance inst = build_scene(s, 2);
  for (int i = 0; i < 300; ++i) inst.step();
  const std::size_t top = s.bodies.size() - 1;
  const Vec2 start = s.bodies[top].def.center;
  const Vec2 now = inst.world.transform(inst.bodies[top]).position;
  EXPECT_NEAR(now.x, start.x, 0.05f);
  EXPECT_NEAR(now.y, start.y, 0.1f);
}

// Position of p in the frame of a body at `t`.
Vec2 in_frame(Transform t, Vec2 p) { return inv_rotate(make_rot(t.angle), p - t.position); }

TEST(BuiltinScenes, TumblerTurnsAndKeepsItsBoxesInside) {
  const Scene s = builtin_scene("tumbler", 0.1f);
  SceneInstance inst = build_scene(s, 2);
  ASSERT_EQ(inst.names[1], "drum");
  for (int i = 0; i < 120; ++i) inst.step();  // 2 s at 25 degrees/s
  const Transform drum = inst.world.transform(inst.bodies[1]);
  EXPECT_NEAR(drum.angle, 2.0f * 25.0f * 3.14159265f / 180.0f, 0.02f);
  // The motor turns it about the pivot, where its centre of mass is.
  EXPECT_NEAR(length(drum.position - Vec2{0, 10}), 0.0f, 0.01f);
  for (std::size_t i = 2; i < inst.bodies.size(); ++i) {
    const Vec2 p = in_frame(drum, inst.world.transform(inst.bodies[i]).position);
    EXPECT_LT(std::max(std::fabs(p.x), std::fabs(p.y)), 9.5f) << "box " << i;
  }
}

// The washer's drum turns at 25 degrees/s and its squares tumble inside the ring: none gets
// past the inner radius (16 m), and the pile moves (it is lifted by the paddles).
TEST(BuiltinScenes, WasherTumblesItsPileInsideTheRing) {
  const Scene s = builtin_scene("washer", 0.1f);
  SceneInstance inst = build_scene(s, 2);
  for (int i = 0; i < 240; ++i) inst.step();
  const Transform drum = inst.world.transform(inst.bodies[0]);
  EXPECT_NEAR(inst.world.angular_velocity(inst.bodies[0]), 25.0f * 3.14159265f / 180.0f, 1e-4f);
  int moving = 0;
  for (std::size_t i = 1; i < inst.bodies.size(); ++i) {
    EXPECT_LT(length(inst.world.transform(inst.bodies[i]).position - drum.position), 16.0f);
    moving += length(inst.world.linear_velocity(inst.bodies[i])) > 0.1f;
  }
  EXPECT_GT(moving, int(inst.bodies.size()) / 10);
}

// The junkyard's pusher follows its target, and what is in its way is pushed: no pentagon is
// inside the pusher's box, and some were moved sideways from their columns.
TEST(BuiltinScenes, JunkyardPusherSweepsThePentagons) {
  const Scene s = builtin_scene("junkyard", 0.1f);  // 4 rows
  SceneInstance inst = build_scene(s, 2);
  const std::size_t pusher = inst.bodies.size() - 1;
  ASSERT_EQ(inst.names[pusher], "pusher");
  float largest_shift = 0;
  for (int i = 0; i < 300; ++i) {
    inst.step();
    const float t = float(i + 1) / 60.0f;  // the hook of the next step aims here
    EXPECT_NEAR(inst.world.transform(inst.bodies[pusher]).position.x,
                60.0f * std::sin(0.2f * (t - 1.0f / 60.0f)), 1e-3f);
  }
  const Vec2 at = inst.world.transform(inst.bodies[pusher]).position;
  for (std::size_t i = 0; i < pusher; ++i) {
    if (s.bodies[i].def.is_static) continue;
    const Vec2 p = inst.world.transform(inst.bodies[i]).position;
    EXPECT_FALSE(std::fabs(p.x - at.x) < 2.0f && std::fabs(p.y - at.y) < 4.0f) << "pentagon " << i;
    largest_shift = std::max(largest_shift, std::fabs(p.x - s.bodies[i].def.center.x));
  }
  EXPECT_GT(largest_shift, 5.0f);
}

// The compound bodies fall into the pit and stay in it: none below the floor, none outside.
TEST(BuiltinScenes, CompoundsPileUpInThePit) {
  const Scene s = builtin_scene("compounds", 0.1f);  // 15 rows
  SceneInstance inst = build_scene(s, 2);
  for (int i = 0; i < 300; ++i) inst.step();
  for (std::size_t i = 0; i < inst.bodies.size(); ++i) {
    if (s.bodies[i].def.is_static) continue;
    const Vec2 p = inst.world.transform(inst.bodies[i]).position;
    EXPECT_GT(p.y, 0.4f) << i;
    EXPECT_LT(std::fabs(p.x), 39.5f) << i;
  }
  EXPECT_TRUE(all_finite(inst));
}

// The bar turns at its motor's 5 rad/s about its pivot, and nothing gets out of the loop.
TEST(BuiltinScenes, SpinnerBarTurnsAtFiveRadiansPerSecondAndNothingEscapes) {
  const Scene s = builtin_scene("spinner", 0.1f);
  SceneInstance inst = build_scene(s, 2);
  for (int i = 0; i < 120; ++i) inst.step();
  const BodyId bar = inst.bodies[1];
  ASSERT_EQ(inst.names[1], "spinner");
  EXPECT_NEAR(inst.world.angular_velocity(bar), 5.0f, 0.05f);
  EXPECT_NEAR(length(inst.world.transform(bar).position - Vec2{0, 12}), 0.0f, 0.01f);
  for (std::size_t i = 2; i < inst.bodies.size(); ++i)
    EXPECT_LT(length(inst.world.transform(inst.bodies[i]).position - Vec2{0, 32}), 40.0f) << i;
  EXPECT_TRUE(all_finite(inst));
}

}  // namespace
}  // namespace strut
