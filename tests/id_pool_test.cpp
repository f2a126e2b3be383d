// The one id pool (solver/core/id_pool.hpp) behind bodies, shapes, joints and collider keys: slot
// reuse order, retired slots, and the errors for null, unknown and stale ids, directly and
// through the World calls that name each kind of id.
#include "solver/core/id_pool.hpp"

#include <gtest/gtest.h>

#include "test_util.hpp"

namespace strut {
namespace {

TEST(IdPool, ReleasedSlotsAreReusedLastFirstWithANewGeneration) {
  IdPool pool("body");
  EXPECT_EQ(pool.allocate(), 0u);
  EXPECT_EQ(pool.allocate(), 1u);
  EXPECT_EQ(pool.allocate(), 2u);
  const BodyId first = pool.id_of<BodyId>(0), third = pool.id_of<BodyId>(2);
  EXPECT_EQ(first, (BodyId{1, 1}));
  pool.release(0);
  pool.release(2);
  EXPECT_EQ(pool.live_count(), 1u);
  EXPECT_FALSE(pool.is_live(first));
  EXPECT_FALSE(pool.is_live(third));
  EXPECT_EQ(pool.allocate(), 2u);  // the last released first
  EXPECT_EQ(pool.allocate(), 0u);
  EXPECT_EQ(pool.allocate(), 3u);  // then new slots
  EXPECT_EQ(pool.id_of<BodyId>(2), (BodyId{3, 2}));
  EXPECT_FALSE(pool.is_live(third));  // same slot, old generation
  EXPECT_TRUE(pool.is_live(pool.id_of<BodyId>(2)));
  EXPECT_EQ(pool.size(), 4u);
  EXPECT_EQ(pool.live_count(), 4u);
}

TEST(IdPool, RetiredSlotsWaitForRecycling) {
  IdPool pool("collider");
  pool.allocate(), pool.allocate();
  pool.retire(1);
  EXPECT_FALSE(pool[1].alive);
  EXPECT_EQ(pool.live_count(), 1u);
  EXPECT_EQ(pool.allocate(), 2u);  // not the retired slot
  pool.recycle_retired();
  EXPECT_EQ(pool.allocate(), 1u);
  EXPECT_EQ(pool[1].generation, 2u);
}

TEST(IdPool, NullUnknownAndStaleIdsAreErrorsNamingTheKind) {
  IdPool pool("shape");
  pool.allocate();
  EXPECT_EQ(pool.slot_of(ShapeId{1, 1}, "f"), 0u);
  EXPECT_EQ(test::error_of([&] { pool.slot_of(ShapeId{}, "f"); }), "f: null shape id");
  EXPECT_EQ(test::error_of([&] {
              pool.slot_of(ShapeId{7, 1}, "f");
            }),
            "f: stale or unknown shape 7/1");
  pool.release(0);
  EXPECT_EQ(test::error_of([&] {
              pool.slot_of(ShapeId{1, 1}, "f");
            }),
            "f: stale or unknown shape 1/1");
}

// The World's messages for each kind of id, as they were before the pool.
TEST(IdPool, WorldRejectsStaleIdsOfEveryKind) {
  World world;
  BodyDef def;
  def.shapes = {ShapeDef{BoxShape{}}};
  const BodyId a = world.create_body(def);
  def.center = {3, 0};
  const BodyId b = world.create_body(def);
  const ShapeId extra = world.add_shape(a, ShapeDef{.shape = CircleShape{0.5f}});
  const JointId j = world.create_joint(DistanceJointDef{.a = a, .b = b});
  world.remove_shape(extra);
  world.destroy_joint(j);
  world.destroy_body(b);
  EXPECT_EQ(test::error_of([&] { world.transform(b); }), "transform: stale or unknown body 2/1");
  EXPECT_EQ(test::error_of([&] { world.transform(BodyId{}); }), "transform: null body id");
  EXPECT_EQ(test::error_of([&] { world.definition(extra); }),
            "definition: stale or unknown shape 3/1");
  EXPECT_EQ(test::error_of([&] { world.destroy_joint(j); }),
            "destroy_joint: stale or unknown joint 1/1");
  EXPECT_FALSE(world.is_valid(b));
  EXPECT_FALSE(world.is_valid(extra));
  EXPECT_FALSE(world.is_valid(j));
  EXPECT_EQ(world.body_count(), 1u);
  EXPECT_EQ(world.joint_count(), 0u);
  // The freed slots come back with a new generation, the last freed first: the shape slots were
  // freed as 3 (remove_shape) then 2 (destroy_body).
  const BodyId c = world.create_body(def);
  EXPECT_EQ(c, (BodyId{2, 2}));
  EXPECT_EQ(world.shapes(c).front(), (ShapeId{2, 2}));
}

}  // namespace
}  // namespace strut
