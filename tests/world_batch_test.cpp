// A batch of worlds: each world ends bit-identical to being stepped alone, for any thread count
// of the batch; the array calls read and write what the per-body calls do, and reject bad input
// whole, naming the world and the element, with every world left as it was.
#include "strut/world_batch.hpp"

#include <gtest/gtest.h>

#include <array>
#include <string>

#include "strut/scenes.hpp"
#include "test_util.hpp"
#include "tools/worlds/small_worlds.hpp"

namespace strut {
namespace {

using worlds::build_lander;
using worlds::Lander;

// fn throws strut::Error whose message contains `part`.
template <class F>
void expect_error(F&& fn, const std::string& part) {
  const std::string message = test::error_of(fn);
  EXPECT_NE(message.find(part), std::string::npos) << "message: " << message;
}

World one_thread_world() { return World(WorldConfig{.threads = 1}); }

// The thrust of world i at step s, and its hips' motor speeds: inputs that differ by world and
// by step.
Vec2 thrust(int i, int s) {
  return {0.5f * float(i % 3) - 0.5f, (s / 20 + i) % 2 == 0 ? 140.0f : 0.0f};
}
float hip_speed(int i, int s, int hip) {
  return (hip == 0 ? -1.0f : 1.0f) * 0.02f * float((s + i) % 30);
}

TEST(WorldBatch, LandersEndAsEachSteppedAloneWithArrayInputs) {
  constexpr int kWorlds = 24, kSteps = 150;
  // Each world alone, inputs through the per-body calls.
  std::vector<std::uint64_t> alone;
  for (int i = 0; i < kWorlds; ++i) {
    World w = one_thread_world();
    const Lander l = build_lander(w, i);
    for (int s = 0; s < kSteps; ++s) {
      w.apply_force(l.hull, thrust(i, s));
      for (int h = 0; h < 2; ++h)
        w.set_joint_motor_speed(l.hips[std::size_t(h)], hip_speed(i, s, h));
      w.step(1.0f / 60);
    }
    alone.push_back(w.state_hash());
  }
  for (int threads : {1, 2, 3}) {
    WorldBatch batch(threads);
    Lander l{};
    for (int i = 0; i < kWorlds; ++i) {
      World w = one_thread_world();
      l = build_lander(w, i);  // the same ids in every world
      EXPECT_EQ(batch.add(std::move(w)), std::size_t(i));
    }
    const std::array<BodyId, 1> hull{l.hull};
    std::vector<Vec2> forces(kWorlds);
    std::vector<float> speeds(kWorlds * 2);
    for (int s = 0; s < kSteps; ++s) {
      for (int i = 0; i < kWorlds; ++i) {
        forces[std::size_t(i)] = thrust(i, s);
        for (int h = 0; h < 2; ++h) speeds[std::size_t(i * 2 + h)] = hip_speed(i, s, h);
      }
      batch.apply_forces(hull, forces);
      batch.set_motor_speeds(l.hips, speeds);
      batch.step(1.0f / 60);
    }
    for (int i = 0; i < kWorlds; ++i)
      EXPECT_EQ(batch[std::size_t(i)].state_hash(), alone[std::size_t(i)])
          << "world " << i << ", " << threads << " threads";
  }
}

// Every built-in scene, all in one batch, against each stepped alone (step hooks, which create
// and destroy bodies, run between the batch's steps on the world they belong to).
TEST(WorldBatch, BuiltInScenesEndAsEachSteppedAlone) {
  constexpr int kSteps = 40;
  const std::vector<std::string> names = builtin_scene_names();
  std::vector<std::uint64_t> alone;
  for (const std::string& name : names) {
    SceneInstance s = build_scene(builtin_scene(name, 0.5f), 1);
    for (int k = 0; k < kSteps; ++k) s.step();
    alone.push_back(s.world.state_hash());
  }
  for (int threads : {1, 2, 3}) {
    WorldBatch batch(threads);
    std::vector<SceneInstance> scenes;
    for (const std::string& name : names) {
      scenes.push_back(build_scene(builtin_scene(name, 0.5f), 1));
      batch.add(std::move(scenes.back().world));
    }
    for (int k = 0; k < kSteps; ++k) {
      for (std::size_t i = 0; i < scenes.size(); ++i) {
        if (!scenes[i].hook) continue;
        std::swap(scenes[i].world, batch[i]);  // the hook works on its instance's world
        scenes[i].hook(scenes[i], k);
        std::swap(scenes[i].world, batch[i]);
      }
      batch.step(scenes[0].dt);
    }
    for (std::size_t i = 0; i < names.size(); ++i)
      EXPECT_EQ(batch[i].state_hash(), alone[i]) << names[i] << ", " << threads << " threads";
  }
}

TEST(WorldBatch, StepsOnlyTheListedWorlds) {
  WorldBatch batch(2);
  for (int i = 0; i < 4; ++i) {
    World w = one_thread_world();
    build_lander(w, i);
    batch.add(std::move(w));
  }
  std::vector<std::uint64_t> before;
  for (std::size_t i = 0; i < 4; ++i) before.push_back(batch[i].state_hash());
  const std::array<std::size_t, 2> which{3, 1};
  batch.step(1.0f / 60, which);
  EXPECT_EQ(batch[0].state_hash(), before[0]);
  EXPECT_NE(batch[1].state_hash(), before[1]);
  EXPECT_EQ(batch[2].state_hash(), before[2]);
  EXPECT_NE(batch[3].state_hash(), before[3]);
  const std::array<std::size_t, 2> twice{2, 2}, outside{0, 4};
  expect_error([&] { batch.step(1.0f / 60, twice); }, "world 2 is listed twice");
  expect_error([&] { batch.step(1.0f / 60, outside); }, "worlds[1] is 4, but the batch has 4");
}

// Worlds reset to a saved state continue as that state does; the others carry on.
TEST(WorldBatch, ResetWorldsToASavedState) {
  WorldBatch batch(2);
  for (int i = 0; i < 6; ++i) {
    World w = one_thread_world();
    build_lander(w, i);
    batch.add(std::move(w));
  }
  for (int s = 0; s < 20; ++s) batch.step(1.0f / 60);
  const World saved = batch[4].copy();
  const std::uint64_t untouched = batch[1].state_hash();
  const std::array<std::size_t, 3> which{0, 2, 4};  // 4 is the saved world itself
  batch.reset(which, batch[4]);
  EXPECT_EQ(batch[1].state_hash(), untouched);
  World reference = saved.copy();
  for (int s = 0; s < 30; ++s) {
    batch.step(1.0f / 60);
    reference.step(1.0f / 60);
  }
  for (std::size_t i : which) EXPECT_EQ(batch[i].state_hash(), reference.state_hash()) << i;
  EXPECT_NE(batch[1].state_hash(), reference.state_hash());
  expect_error([&] { batch.reset(std::array<std::size_t, 1>{6}, saved); }, "worlds[0] is 6");
  expect_error([&] { batch.reset(which, World()); }, "WorldBatch::reset: the state must be");
}

TEST(WorldBatch, ArraysReadWhatThePerBodyCallsRead) {
  WorldBatch batch(2);
  Lander l{};
  for (int i = 0; i < 5; ++i) {
    World w = one_thread_world();
    l = build_lander(w, i);
    batch.add(std::move(w));
  }
  for (int s = 0; s < 30; ++s) batch.step(1.0f / 60);
  const std::array<BodyId, 3> bodies{l.hull, l.legs[0], l.legs[1]};
  std::vector<Transform> poses(15);
  std::vector<Vec2> linear(15);
  std::vector<float> angular(15);
  batch.get_transforms(bodies, poses);
  batch.get_velocities(bodies, linear, angular);
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t k = 0; k < 3; ++k) {
      const Transform t = batch[i].transform(bodies[k]);
      EXPECT_EQ(test::bits(poses[i * 3 + k].position.x), test::bits(t.position.x));
      EXPECT_EQ(test::bits(poses[i * 3 + k].position.y), test::bits(t.position.y));
      EXPECT_EQ(test::bits(poses[i * 3 + k].angle), test::bits(t.angle));
      EXPECT_EQ(test::bits(linear[i * 3 + k].x), test::bits(batch[i].linear_velocity(bodies[k]).x));
      EXPECT_EQ(test::bits(angular[i * 3 + k]), test::bits(batch[i].angular_velocity(bodies[k])));
    }
  // And set_velocities writes what the per-body setters write.
  std::vector<Vec2> v(15, Vec2{1.5f, -2.0f});
  std::vector<float> w(15, 0.75f);
  batch.set_velocities(bodies, v, w);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_FLOAT_EQ(batch[i].linear_velocity(l.hull).x, 1.5f);
    EXPECT_FLOAT_EQ(batch[i].angular_velocity(l.legs[1]), 0.75f);
  }
}

// Bad input anywhere: an error naming the world, the element and the fault, and no world changed
// (not even the worlds before the bad one).
TEST(WorldBatch, BadInputIsRejectedWholeNamingWorldAndElement) {
  WorldBatch batch(2);
  Lander l{};
  BodyId extra{};
  for (int i = 0; i < 4; ++i) {
    World w = one_thread_world();
    l = build_lander(w, i);
    if (i == 2) w.destroy_body(l.legs[1]);  // world 2 lacks a leg
    if (i == 3) {
      BodyDef light;
      light.shapes = {ShapeDef{CircleShape{0.01f}}};
      light.center = {30, 30};
      extra = w.create_body(light);
    }
    batch.add(std::move(w));
  }
  auto hashes = [&] {
    std::vector<std::uint64_t> h;
    for (std::size_t i = 0; i < batch.size(); ++i) h.push_back(batch[i].state_hash());
    return h;
  };
  const auto before = hashes();
  const std::array<BodyId, 2> legs{l.legs[0], l.legs[1]};
  std::vector<Vec2> forces(8, Vec2{0, 10});
  expect_error([&] { batch.apply_forces(legs, forces); }, "world 2, bodies[1]");
  const std::array<BodyId, 1> hull{l.hull};
  std::vector<Vec2> one_each(4, Vec2{0, 10});
  one_each[3] = {0, NAN};
  expect_error([&] { batch.apply_forces(hull, one_each); },
               "world 3, bodies[0]: apply_force: force is not a finite number");
  one_each[3] = {0, 1e30f};
  expect_error([&] { batch.apply_forces(hull, one_each); },
               "world 3, bodies[0]: apply_force: the force on");
  std::vector<Vec2> short_list(3);
  expect_error([&] { batch.apply_forces(hull, short_list); },
               "forces has 3 elements, expected 4 (4 worlds x 1)");
  const std::array<BodyId, 2> twice{l.hull, l.hull};
  expect_error([&] { batch.apply_forces(twice, forces); }, "bodies[0] and [1] are the same id");
  std::vector<Vec2> v(4, Vec2{0, 0});
  std::vector<float> w(4, 0.0f);
  v[1] = {1e9f, 0};
  expect_error([&] { batch.set_velocities(hull, v, w); },
               "world 1, bodies[0]: set_linear_velocity: velocity 1e+09 exceeds the limit");
  std::vector<float> speeds(8, 0.1f);
  speeds[5] = INFINITY;
  expect_error([&] { batch.set_motor_speeds(l.hips, speeds); }, "world 2, joints[1]");
  const std::array<BodyId, 1> only_in_world_3{extra};
  std::vector<Transform> poses(4);
  expect_error([&] { batch.get_transforms(only_in_world_3, poses); }, "world 0, bodies[0]");
  expect_error([&] { batch.step(-1.0f); }, "WorldBatch::step: dt must be in");
  EXPECT_EQ(hashes(), before);
  // Worlds that would run on threads of their own are refused.
  expect_error([&] { batch.add(World()); }, "WorldBatch::add: the world must run on one thread");
  EXPECT_EQ(batch.size(), 4u);
}

}  // namespace
}  // namespace strut
