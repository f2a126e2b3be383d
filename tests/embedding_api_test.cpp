// The embedding API (issue 15): ids as map keys, user data on bodies and joints, per-body sleep
// control, and changing a body's material, filter and type at run time.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "test_util.hpp"

namespace strut {
namespace {

using test::error_of;

using test::kDt;

// Height after falling from rest for t seconds at g = 10 and 4 substeps of kDt. Position Verlet
// adds g h^2 to the motion every substep, so n substeps drop g h^2 n (n + 1) / 2 =
// g t (t + h) / 2: half a substep's worth more than the continuous g t^2 / 2. Tests compare to
// it within 1e-4 m (float rounding).
float fallen_from(float y0, float t) {
  const float h = kDt / 4;
  return y0 - 0.5f * 10.0f * t * (t + h);
}

TEST(EmbeddingApi, IdsKeyOrderedAndHashedContainers) {
  World world;
  std::vector<BodyId> ids;
  for (int i = 0; i < 100; ++i) ids.push_back(world.create_body(test::box_def({2.0f * i, 0})));
  // Destroy and recreate: the new ids reuse slots with a new generation and must stay distinct.
  for (int i = 0; i < 100; i += 3) world.destroy_body(ids[std::size_t(i)]);
  for (int i = 0; i < 100; i += 3) ids.push_back(world.create_body(test::box_def({2.0f * i, 5})));
  std::map<BodyId, int> ordered;
  std::unordered_map<BodyId, int> hashed;
  for (std::size_t i = 0; i < ids.size(); ++i) ordered[ids[i]] = int(i), hashed[ids[i]] = int(i);
  EXPECT_EQ(ordered.size(), ids.size());
  EXPECT_EQ(hashed.size(), ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(hashed.at(ids[i]), int(i));
  // The order: by index, then generation.
  EXPECT_LT((BodyId{1, 5}), (BodyId{2, 1}));
  EXPECT_LT((BodyId{2, 1}), (BodyId{2, 2}));
  EXPECT_NE(std::hash<BodyId>{}(BodyId{2, 1}), std::hash<BodyId>{}(BodyId{2, 2}));
  std::set<JointId> joints{JointId{3, 1}, JointId{1, 1}, JointId{3, 1}};
  EXPECT_EQ(joints.size(), 2u);
  std::unordered_set<JointId> joint_hash{JointId{3, 1}, JointId{1, 1}, JointId{3, 2}};
  EXPECT_EQ(joint_hash.size(), 3u);
}

TEST(EmbeddingApi, UserDataOnBodiesAndJoints) {
  World world;
  int payload = 42;
  BodyDef d = test::box_def({0, 0});
  d.user_data = reinterpret_cast<std::uintptr_t>(&payload);
  const BodyId a = world.create_body(d);
  const BodyId b = world.create_body(test::box_def({3, 0}));
  EXPECT_EQ(*reinterpret_cast<int*>(world.user_data(a)), 42);
  EXPECT_EQ(world.user_data(b), 0u);
  world.set_user_data(b, 7);
  EXPECT_EQ(world.user_data(b), 7u);
  EXPECT_EQ(world.definition(b).user_data, 7u);  // recreating the body keeps it
  DistanceJointDef j;
  j.a = a, j.b = b, j.anchor_a = {0, 0}, j.anchor_b = {3, 0};
  const JointId joint = world.create_joint(j);
  EXPECT_EQ(world.user_data(joint), 0u);
  world.set_user_data(joint, 0xFFFFFFFFFFFFFFFFull);
  EXPECT_EQ(world.user_data(joint), 0xFFFFFFFFFFFFFFFFull);
  world.destroy_joint(joint);
  EXPECT_NE(error_of([&] { world.user_data(joint); }).find("stale or unknown joint"),
            std::string::npos);
  const JointId again = world.create_joint(j);  // reuses the slot
  EXPECT_EQ(again.index, joint.index);
  EXPECT_EQ(world.user_data(again), 0u);
  world.destroy_body(a);
  EXPECT_NE(error_of([&] { world.set_user_data(a, 1); }).find("stale or unknown body"),
            std::string::npos);
}

// Shapes have user data as bodies do (issue 31: ShapeDef::user_data had no setter): set at
// add_shape or later, read back by user_data and definition, kept when the body's shapes change
// and by copies and snapshots; a stale or null id is an error naming the call, world unchanged.
TEST(EmbeddingApi, UserDataOnShapes) {
  World world;
  world.create_body(test::ground_def());
  const BodyId body = world.create_body(test::box_def({0, 2}));
  const ShapeId box = world.shapes(body)[0];
  EXPECT_EQ(world.user_data(box), 0u);  // a BodyDef::shape body's one shape starts at 0
  world.set_user_data(box, 11);
  const ShapeId ball = world.add_shape(
      body, {.shape = CircleShape{0.3f}, .offset = {0, 0.8f}, .user_data = 22});  // lays out anew
  EXPECT_EQ(world.user_data(box), 11u);
  EXPECT_EQ(world.user_data(ball), 22u);
  world.set_user_data(ball, 0xFFFFFFFFFFFFFFFFull);
  EXPECT_EQ(world.definition(ball).user_data, 0xFFFFFFFFFFFFFFFFull);
  EXPECT_EQ(world.definition(body).shapes.at(0).user_data, 11u);  // recreating the body keeps it
  for (int i = 0; i < 10; ++i) world.step(kDt);
  const World copy = world.copy();
  const World loaded = World::from_snapshot(world.snapshot(), 1);
  for (const World* w : {&copy, &loaded}) {
    EXPECT_EQ(w->user_data(box), 11u);
    EXPECT_EQ(w->user_data(ball), 0xFFFFFFFFFFFFFFFFull);
  }
  world.remove_shape(ball);
  const std::uint64_t hash = world.state_hash();
  EXPECT_EQ(error_of([&] { world.set_user_data(ball, 1); }),
            "set_user_data: stale or unknown shape " + std::to_string(ball.index) + "/" +
                std::to_string(ball.generation));
  EXPECT_EQ(error_of([&] { world.user_data(ball); }), "user_data: stale or unknown shape " +
                                                          std::to_string(ball.index) + "/" +
                                                          std::to_string(ball.generation));
  EXPECT_EQ(error_of([&] { world.set_user_data(ShapeId{}, 1); }), "set_user_data: null shape id");
  EXPECT_EQ(world.state_hash(), hash);
  EXPECT_EQ(world.user_data(box), 11u);
}

// A box with sleep disabled stays awake on the ground while an identical one falls asleep
// (sleep_time 0.5 s); enabling sleep lets it sleep too.
TEST(EmbeddingApi, SleepCanBeDisabledPerBody) {
  World world;
  world.create_body(test::ground_def());
  const BodyId sleeper = world.create_body(test::box_def({-3, 0.5f}));
  BodyDef d = test::box_def({3, 0.5f});
  d.enable_sleep = false;
  const BodyId awake = world.create_body(d);
  EXPECT_FALSE(world.sleep_enabled(awake));
  for (int i = 0; i < 120; ++i) world.step(kDt);
  EXPECT_TRUE(world.is_sleeping(sleeper));
  EXPECT_TRUE(world.is_awake(awake));
  world.set_sleep_enabled(awake, true);
  for (int i = 0; i < 60; ++i) world.step(kDt);
  EXPECT_TRUE(world.is_sleeping(awake));
  world.set_sleep_enabled(sleeper, false);  // wakes it
  EXPECT_TRUE(world.is_awake(sleeper));
  EXPECT_NE(error_of([&] { world.put_to_sleep(sleeper); }).find("has sleep disabled"),
            std::string::npos);
}

// Found by fuzz_api: destroying one of two sleeping, jointed bodies and then pushing the other
// (which wakes the island) threw from the broad phase (the dead body's proxy was gone).
TEST(EmbeddingApi, WakingAnIslandWithADestroyedSleeperWorks) {
  World world;
  const BodyId a = world.create_body(test::box_def({0, 0}));
  const BodyId b = world.create_body(test::box_def({3, 0}));
  DistanceJointDef j;
  j.a = a, j.b = b, j.anchor_a = {0, 0}, j.anchor_b = {3, 0};
  world.create_joint(j);
  world.step(kDt);
  world.put_to_sleep(a);
  ASSERT_TRUE(world.is_sleeping(b));
  world.destroy_body(b);
  world.apply_force_at(a, {1, 0}, {0, 0});  // wakes a's island
  EXPECT_TRUE(world.is_awake(a));
  world.step(kDt);
  EXPECT_EQ(world.body_count(), 1u);
}

// A box put to sleep in mid-air hangs there until woken, then falls freely: y = y0 - g t^2 / 2.
TEST(EmbeddingApi, PutToSleepHoldsABodyUntilWoken) {
  World world;
  const BodyId ground = world.create_body(test::ground_def());
  const BodyId box = world.create_body(test::box_def({0, 10}));
  world.put_to_sleep(box);
  for (int i = 0; i < 60; ++i) world.step(kDt);
  EXPECT_TRUE(world.is_sleeping(box));
  EXPECT_EQ(world.transform(box).position.y, 10.0f);
  world.wake(box);
  for (int i = 0; i < 30; ++i) world.step(kDt);
  EXPECT_NEAR(world.transform(box).position.y, fallen_from(10.0f, 0.5f), 1e-4f);
  EXPECT_NE(error_of([&] { world.put_to_sleep(ground); }).find("is not dynamic"),
            std::string::npos);
}

// A box resting on a 20 degree slope (tan = 0.36) holds with friction 0.6 and slides once its
// material (and the slope's) is made icy: a = g (sin a - mu cos a).
TEST(EmbeddingApi, MaterialChangesAtRunTime) {
  const float angle = 20.0f * float(M_PI) / 180.0f;
  const Vec2 along{std::cos(angle), std::sin(angle)}, normal{-std::sin(angle), std::cos(angle)};
  World world;
  BodyDef slope;
  slope.shapes = {ShapeDef{BoxShape{{20, 1}}}};
  slope.center = -1.0f * normal;
  slope.angle = angle;
  slope.is_static = true;
  const BodyId ramp = world.create_body(slope);
  BodyDef d = test::box_def(0.5f * normal);
  d.angle = angle;
  const BodyId box = world.create_body(d);
  for (int i = 0; i < 60; ++i) world.step(kDt);
  const Vec2 held = world.transform(box).position;
  EXPECT_LT(length(held - 0.5f * normal), 0.01f);  // held by static friction (1 cm of settling)
  world.set_material(ramp, Material{.density = 0, .friction = 0.1f});
  world.set_material(box, Material{.density = 2, .friction = 0.1f});
  EXPECT_NEAR(world.mass(box), 2.0f, 1e-6f);         // density 2 x area 1
  EXPECT_NEAR(world.inertia(box), 2.0f / 6, 1e-6f);  // m (w^2 + h^2) / 12
  for (int i = 0; i < 60; ++i) world.step(kDt);
  const float slid = -dot(world.transform(box).position - held, along);
  const float expected = 0.5f * 10.0f * (std::sin(angle) - 0.1f * std::cos(angle));  // t = 1 s
  EXPECT_NEAR(slid, expected, 0.1f * expected);  // 10 %: it starts from rest on a soft contact
  EXPECT_NE(error_of([&] { world.set_material(box, Material{.density = 0}); }).find("mass of 0"),
            std::string::npos);
}

// A box resting on the ground falls through it once its mask leaves the ground's category out.
TEST(EmbeddingApi, FilterChangesAtRunTime) {
  World world;
  world.create_body(test::ground_def());
  const BodyId box = world.create_body(test::box_def({0, 0.5f}));
  for (int i = 0; i < 30; ++i) world.step(kDt);
  EXPECT_NEAR(world.transform(box).position.y, 0.5f, 0.01f);
  world.set_filter(box, 2, ~1u);
  EXPECT_EQ(world.definition(box).shapes[0].filter.mask, ~1u);
  for (int i = 0; i < 30; ++i) world.step(kDt);
  EXPECT_LT(world.transform(box).position.y, -0.5f);  // fell 1 m or more through the ground
}

// Static -> dynamic: the box falls freely. Dynamic -> static: it stops, holds another box, and
// cannot be pushed. Kinematic: it moves by its velocity only.
TEST(EmbeddingApi, TypeChangesAtRunTime) {
  World world;
  BodyDef shelf = test::box_def({0, 10});
  shelf.is_static = true;
  const BodyId box = world.create_body(shelf);
  for (int i = 0; i < 10; ++i) world.step(kDt);
  EXPECT_EQ(world.transform(box).position.y, 10.0f);
  world.set_type(box, BodyType::Dynamic);
  EXPECT_EQ(world.type(box), BodyType::Dynamic);
  for (int i = 0; i < 30; ++i) world.step(kDt);
  EXPECT_NEAR(world.transform(box).position.y, fallen_from(10.0f, 0.5f), 1e-4f);
  world.set_type(box, BodyType::Static);
  EXPECT_EQ(world.linear_velocity(box).y, 0.0f);
  const float y = world.transform(box).position.y;
  const BodyId top = world.create_body(test::box_def({0, y + 1.5f}));
  for (int i = 0; i < 60; ++i) world.step(kDt);
  EXPECT_EQ(world.transform(box).position.y, y);
  EXPECT_NEAR(world.transform(top).position.y, y + 1.0f, 0.01f);  // resting on it
  world.set_type(box, BodyType::Kinematic);
  world.set_linear_velocity(box, {1, 0});
  for (int i = 0; i < 60; ++i) world.step(kDt);
  EXPECT_NEAR(world.transform(box).position.x, 1.0f, 1e-4f);
  EXPECT_NEAR(world.transform(box).position.y, y, 1e-6f);
  // A static body of density 0 has no mass to become dynamic with.
  BodyDef massless = test::box_def({5, 0});
  massless.is_static = true;
  massless.shapes[0].material.density = 0;
  const BodyId m = world.create_body(massless);
  EXPECT_NE(error_of([&] { world.set_type(m, BodyType::Dynamic); }).find("would have a mass of 0"),
            std::string::npos);
}

}  // namespace
}  // namespace strut
