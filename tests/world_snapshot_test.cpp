// World::snapshot / from_snapshot / restore(bytes): a world made from a snapshot continues
// bit-identically to the original for every built-in scene and thread count; a damaged,
// truncated or foreign snapshot is rejected whole with an error naming the bytes and the field,
// and leaves the world it was restored into as it was.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "strut/scene.hpp"
#include "strut/scenes.hpp"
#include "test_util.hpp"
#include "tools/worlds/small_worlds.hpp"
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace strut {
namespace {

using Bytes = std::vector<std::uint8_t>;

// The instance around `world` with s's lists and a copy of its step hook (scenes that create
// bodies as they go go on doing so).
SceneInstance instance_around(World world, const SceneInstance& s) {
  SceneInstance c = s.copy();
  c.world = std::move(world);
  return c;
}

TEST(WorldSnapshot, EveryBuiltInSceneContinuesBitIdentically) {
  for (const std::string& name : builtin_scene_names())
    for (int threads : {1, 2, 3}) {
      SceneInstance original = build_scene(builtin_scene(name, 0.3f), threads);
      for (int k = 0; k < 30; ++k) original.step();
      const Bytes bytes = original.world.snapshot();
      // Loaded at another thread count than it was made at: results do not depend on threads.
      SceneInstance twin = instance_around(World::from_snapshot(bytes, 4 - threads), original);
      EXPECT_EQ(twin.world.snapshot(), bytes) << name << ": a loaded world saves the same bytes";
      test::expect_continue_alike(original, twin, 40,
                                  name + ", " + std::to_string(threads) + " threads");
    }
}

// restore(bytes) into a world that went its own way; ids, user data, pending forces and unread
// events come back with the state.
TEST(WorldSnapshot, RestoreIntoAWorldThatDiverged) {
  World start(WorldConfig{.threads = 2});
  const worlds::Lander l = worlds::build_lander(start, 1);
  for (int s = 0; s < 40; ++s) start.step(1.0f / 60);
  start.set_user_data(l.hull, 7);
  start.apply_force(l.hull, {10, 300});
  start.set_joint_force_threshold(l.hips[0], 0.01f);  // events every step, left unread
  start.step(1.0f / 60);
  start.step(1.0f / 60);
  const Bytes saved = start.snapshot();
  World reference = start.copy();
  start.destroy_body(l.legs[1]);
  start.set_gravity({0, -3});
  for (int s = 0; s < 10; ++s) start.step(1.0f / 60);
  start.restore(saved);
  EXPECT_TRUE(start.is_valid(l.legs[1]));
  EXPECT_EQ(start.user_data(l.hull), 7u);
  ASSERT_EQ(start.joint_events().size(), reference.joint_events().size());
  EXPECT_EQ(start.joint_events().size(), 2u);
  EXPECT_EQ(start.config().gravity.y, reference.config().gravity.y);
  EXPECT_EQ(start.config().threads, 2);  // keeps its own threads
  for (int s = 0; s < 50; ++s) {
    start.step(1.0f / 60);
    reference.step(1.0f / 60);
  }
  EXPECT_EQ(start.state_hash(), reference.state_hash());
}

// The bytes of a lander world after a few steps, and the world they came from.
struct Saved {
  World world{WorldConfig{.threads = 1}};
  Bytes bytes;
  Saved() {
    worlds::build_lander(world, 0);
    for (int s = 0; s < 20; ++s) world.step(1.0f / 60);
    bytes = world.snapshot();
  }
};

// The checksum after the payload was edited (a file made to pass it).
void reseal(Bytes& b) {
  const std::uint64_t sum = XXH3_64bits(b.data() + 32, b.size() - 32);
  std::memcpy(b.data() + 24, &sum, sizeof sum);
}

std::string load_error(const Bytes& b) {
  try {
    World::from_snapshot(b, 1);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(WorldSnapshot, DamagedSnapshotsAreRejectedNamingTheBytes) {
  const Saved s;
  EXPECT_EQ(load_error({}), "bytes 0-0: header: a snapshot is at least 32 bytes, got 0");
  Bytes foreign = s.bytes;
  foreign[0] = 'X';
  EXPECT_EQ(load_error(foreign),
            "bytes 0-8: header: not a strut snapshot (it does not start with STRUTSNP)");
  Bytes version = s.bytes;
  version[8] = 9;
  EXPECT_EQ(load_error(version),
            "bytes 8-12: header: format version 9, this build reads version 3");
  Bytes layout = s.bytes;
  layout[12] ^= 1;
  EXPECT_EQ(load_error(layout),
            "bytes 12-16: header: made by a build of strut with another memory layout");
  // Cut anywhere: the header's length no longer matches.
  for (std::size_t keep : {32ul, 100ul, s.bytes.size() / 2, s.bytes.size() - 1}) {
    const Bytes cut(s.bytes.begin(), s.bytes.begin() + std::ptrdiff_t(keep));
    EXPECT_NE(load_error(cut).find("bytes 16-24: header: payload length"), std::string::npos)
        << keep;
  }
  // One byte changed anywhere in the payload: the checksum.
  for (std::size_t at : {32ul, 500ul, s.bytes.size() - 1}) {
    Bytes flipped = s.bytes;
    flipped[at] ^= 0x40;
    EXPECT_EQ(load_error(flipped), "bytes 32-" + std::to_string(s.bytes.size()) +
                                       ": payload: checksum mismatch: the snapshot is damaged")
        << at;
  }
}

// Files that pass the checksum but not the structure: a section length or an element count
// beyond the file, a setting out of range, stores that disagree.
TEST(WorldSnapshot, ResealedDamageIsFoundByTheStructureChecks) {
  const Saved s;
  const std::size_t config_end = 32 + sizeof(WorldConfig);
  // The first section (last_h): its length.
  Bytes length = s.bytes;
  const std::uint64_t huge = 1ull << 40;
  std::memcpy(length.data() + config_end, &huge, sizeof huge);
  reseal(length);
  EXPECT_EQ(load_error(length).find("bytes " + std::to_string(config_end) + "-" +
                                    std::to_string(config_end + 8) +
                                    ": last_h: count 1099511627776 exceeds the file"),
            0u)
      << load_error(length);
  // A NaN gravity in the settings.
  Bytes gravity = s.bytes;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(gravity.data() + 32 + offsetof(WorldConfig, gravity), &nan, sizeof nan);
  reseal(gravity);
  EXPECT_NE(load_error(gravity).find("config: WorldConfig: gravity"), std::string::npos)
      << load_error(gravity);
  // Every byte of the payload zeroed in turn would be slow; every 61st, resealed: each either
  // loads (a value the checks cannot tell from a real one) or is rejected with a message, and
  // never crashes.
  int rejected = 0;
  for (std::size_t at = 32; at < s.bytes.size(); at += 61) {
    Bytes b = s.bytes;
    b[at] = std::uint8_t(b[at] + 0x81);
    reseal(b);
    if (!load_error(b).empty()) ++rejected;
  }
  EXPECT_GT(rejected, 0);
}

TEST(WorldSnapshot, AFailedRestoreLeavesTheWorldAsItWas) {
  Saved s;
  World other(WorldConfig{.threads = 1});
  worlds::build_pile30(other, 0);
  for (int k = 0; k < 5; ++k) other.step(1.0f / 60);
  const std::uint64_t before = other.state_hash();
  Bytes bad = s.bytes;
  bad.back() ^= 1;
  EXPECT_THROW(other.restore(bad), Error);
  EXPECT_EQ(other.state_hash(), before);
  other.step(1.0f / 60);  // still a working world
  EXPECT_THROW(World::from_snapshot(s.bytes, -1), Error);
}

// A snapshot taken right after a body was destroyed or its shapes changed, before the next step
// compacts the stores (the dead entries wait there, their slots free or naming the body's new
// entry), loads and continues bit-identically; the shapes' user data comes along.
TEST(WorldSnapshot, TakenBetweenAShapeChangeAndTheNextStep) {
  World world(WorldConfig{.threads = 1});
  worlds::build_pile30(world, 0);
  for (int k = 0; k < 20; ++k) world.step(1.0f / 60);
  const std::vector<BodyId> bodies = world.bodies();
  world.destroy_body(bodies[3]);
  const ShapeId added = world.add_shape(
      bodies[5], ShapeDef{.shape = CircleShape{0.2f}, .offset = {0, 0.5f}, .user_data = 42});
  world.add_shape(bodies[7], ShapeDef{.shape = BoxShape{{0.3f, 0.3f}}});
  world.remove_shape(world.shapes(bodies[7])[0]);
  const Bytes bytes = world.snapshot();
  World twin = World::from_snapshot(bytes, 2);
  EXPECT_EQ(twin.snapshot(), bytes);
  EXPECT_EQ(twin.user_data(added), 42u);
  EXPECT_EQ(twin.body_count(), world.body_count());
  for (int k = 0; k < 40; ++k) {
    world.step(1.0f / 60);
    twin.step(1.0f / 60);
    ASSERT_EQ(twin.state_hash(), world.state_hash()) << "step " << k;
  }
}

// Scene snapshots (save_scene_snapshot): the world, the instance's lists and the step hook's
// state, for every built-in scene, loaded at another thread count.
TEST(SceneSnapshot, EveryBuiltInSceneContinuesWithItsListsAndHook) {
  for (const std::string& name : builtin_scene_names()) {
    SceneInstance original = build_scene(builtin_scene(name, 0.3f), 2);
    for (int k = 0; k < 25; ++k) original.step();
    SceneInstance twin = load_scene_snapshot(save_scene_snapshot(original), "t.snap", 1);
    EXPECT_EQ(twin.steps_done, original.steps_done);
    EXPECT_EQ(twin.bodies, original.bodies);
    EXPECT_EQ(twin.names, original.names);
    EXPECT_EQ(twin.joint_names, original.joint_names);
    EXPECT_EQ(bool(twin.hook), bool(original.hook)) << name;
    for (int k = 0; k < 35; ++k) {
      original.step();
      twin.step();
    }
    EXPECT_EQ(twin.world.state_hash(), original.world.state_hash()) << name;
    EXPECT_EQ(twin.bodies, original.bodies) << name << ": the hook made the same bodies";
  }
}

// A bare World::snapshot loads as an instance of its bodies in creation order; a hook made
// from a function cannot be saved; a hook state that does not fit is rejected.
TEST(SceneSnapshot, BareWorldsFunctionHooksAndBadHookStates) {
  Saved s;
  const SceneInstance bare = load_scene_snapshot(s.bytes, "w.snap", 1);
  EXPECT_EQ(bare.bodies, s.world.bodies());
  SceneInstance inst = build_scene(builtin_scene("tumbler", 0.3f), 1);
  inst.hook = StepHook([](SceneInstance&, int) {});
  try {
    save_scene_snapshot(inst);
    ADD_FAILURE() << "saved a function hook";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("step hook is a function"), std::string::npos);
  }
  SceneInstance rain = build_scene(builtin_scene("rain", 0.3f), 1);
  for (int k = 0; k < 9; ++k) rain.step();
  Bytes bytes = save_scene_snapshot(rain);
  // The hook's state is last: its column index (4 bytes) is the file's end. Out of range, resealed.
  const std::int32_t column = 1000;
  std::memcpy(bytes.data() + bytes.size() - 4, &column, 4);
  const std::size_t scene_part = rain.world.snapshot().size();
  const std::uint64_t sum =
      XXH3_64bits(bytes.data() + scene_part + 32, bytes.size() - scene_part - 32);
  std::memcpy(bytes.data() + scene_part + 24, &sum, 8);
  try {
    load_scene_snapshot(bytes, "r.snap", 1);
    ADD_FAILURE() << "loaded a rain hook at column 1000";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("rain: not a state of the rain step hook"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace strut
