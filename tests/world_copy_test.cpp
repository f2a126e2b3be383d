// World::copy: the copy and the original, stepped alike, continue bit-identically, for every
// built-in scene and any thread count; neither disturbs the other.
#include <gtest/gtest.h>

#include <string>

#include "strut/scenes.hpp"
#include "test_util.hpp"
#include "tools/worlds/small_worlds.hpp"

namespace strut {
namespace {

TEST(WorldCopy, EveryBuiltInSceneContinuesBitIdentically) {
  for (const std::string& name : builtin_scene_names())
    for (int threads : {1, 2, 3}) {
      SceneInstance original = build_scene(builtin_scene(name, 0.3f), threads);
      for (int k = 0; k < 30; ++k) original.step();
      SceneInstance twin = original.copy();
      test::expect_continue_alike(original, twin, 40,
                                  name + ", " + std::to_string(threads) + " threads");
    }
}

// The copy is independent: stepping, pushing or destroying in one leaves the other as it was,
// and a copy of a copy continues as the first.
TEST(WorldCopy, CopiesAreIndependent) {
  World original(WorldConfig{.threads = 1});
  const worlds::Lander l = worlds::build_lander(original, 2);
  for (int s = 0; s < 50; ++s) original.step(1.0f / 60);
  World twin = original.copy();
  const std::uint64_t at_copy = original.state_hash();
  twin.apply_force(l.hull, {0, 500});
  twin.destroy_body(l.legs[0]);
  for (int s = 0; s < 20; ++s) twin.step(1.0f / 60);
  EXPECT_EQ(original.state_hash(), at_copy);  // untouched by the copy's steps
  EXPECT_TRUE(original.is_valid(l.legs[0]));
  EXPECT_FALSE(twin.is_valid(l.legs[0]));
  // The same ids name the same things, and new ids come out alike in both.
  World second = original.copy();
  World third = second.copy();
  BodyDef box;
  box.shapes = {ShapeDef{BoxShape{{0.2f, 0.2f}}}};
  box.center = {3, 9};
  EXPECT_EQ(second.create_body(box), third.create_body(box));
  for (int s = 0; s < 60; ++s) {
    second.apply_force(l.hull, worlds::lander_thrust(s));
    third.apply_force(l.hull, worlds::lander_thrust(s));
    second.step(1.0f / 60);
    third.step(1.0f / 60);
  }
  EXPECT_EQ(second.state_hash(), third.state_hash());
  EXPECT_NE(second.state_hash(), at_copy);
}

// restore: a world that went its own way (other bodies, destroyed ones, other settings) becomes
// the saved state and continues as it does; restoring from itself changes nothing.
TEST(WorldCopy, RestoreIntoAWorldThatDiverged) {
  for (int threads : {1, 2}) {
    World start(WorldConfig{.threads = threads});
    const worlds::Lander l = worlds::build_lander(start, 1);
    for (int s = 0; s < 40; ++s) start.step(1.0f / 60);
    const World saved = start.copy();
    World other(WorldConfig{.threads = 3});
    worlds::build_pile30(other, 0);
    for (int s = 0; s < 10; ++s) other.step(1.0f / 60);
    start.destroy_body(l.legs[1]);
    start.set_gravity({0, -3});
    for (int s = 0; s < 10; ++s) start.step(1.0f / 60);
    start.restore(saved);
    other.restore(saved);
    other.restore(other);
    EXPECT_EQ(start.state_hash(), saved.state_hash());
    EXPECT_EQ(other.state_hash(), saved.state_hash());
    EXPECT_TRUE(start.is_valid(l.legs[1]));
    World reference = saved.copy();
    for (int s = 0; s < 50; ++s) {
      start.step(1.0f / 60);
      other.step(1.0f / 60);
      reference.step(1.0f / 60);
    }
    EXPECT_EQ(start.state_hash(), reference.state_hash()) << threads << " threads";
    EXPECT_EQ(other.state_hash(), reference.state_hash()) << threads << " threads";
  }
}

// Forces applied before the copy and not yet stepped are part of the state the copy takes.
TEST(WorldCopy, PendingForcesAndUserDataAreCopied) {
  World a(WorldConfig{.threads = 1});
  const worlds::Lander l = worlds::build_lander(a, 0);
  a.set_user_data(l.hull, 42);
  a.apply_force(l.hull, {30, 200});
  World b = a.copy();
  EXPECT_EQ(b.user_data(l.hull), 42u);
  a.step(1.0f / 60);
  b.step(1.0f / 60);
  EXPECT_EQ(a.state_hash(), b.state_hash());
  World fresh(WorldConfig{.threads = 1});
  worlds::build_lander(fresh, 0);
  fresh.step(1.0f / 60);
  EXPECT_NE(fresh.state_hash(), a.state_hash());  // the force did act
}

}  // namespace
}  // namespace strut
