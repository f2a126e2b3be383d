// Contact begin/end events and layer filtering in the step.
#include <gtest/gtest.h>

#include "test_util.hpp"

namespace strut {

TEST(Events, BeginWhenABoxLandsAndEndWhenItLeaves) {
  World world;
  const BodyId ground = world.create_body(test::ground_def());
  const BodyId box = world.create_body(test::box_def({0, 2}));
  int begins = 0, ends = 0;
  for (int i = 0; i < 60 && begins == 0; ++i) {
    world.step(1.0f / 60);
    for (const ContactEvent& e : world.contact_begin_events()) {
      EXPECT_TRUE((e.a == ground && e.b == box) || (e.a == box && e.b == ground));
      ++begins;
    }
  }
  EXPECT_EQ(begins, 1);
  // Resting: no more events.
  for (int i = 0; i < 30; ++i) {
    world.step(1.0f / 60);
    EXPECT_TRUE(world.contact_begin_events().empty());
    EXPECT_TRUE(world.contact_end_events().empty());
  }
  world.set_linear_velocity(box, {0, 8});
  for (int i = 0; i < 10; ++i) {
    world.step(1.0f / 60);
    ends += int(world.contact_end_events().size());
  }
  EXPECT_EQ(ends, 1);
}

TEST(Layers, BodiesWhoseMasksExcludeEachOtherPassThrough) {
  World world;
  world.create_body(test::ground_def());
  BodyDef lower = test::box_def({0, 0.5f});
  lower.shapes[0].filter.category = 1;
  lower.shapes[0].filter.mask = ~2u;
  world.create_body(lower);
  BodyDef ghost = test::box_def({0, 3});
  ghost.shapes[0].filter.category = 2;
  const BodyId g = world.create_body(ghost);  // collides with the ground, not with `lower`
  for (int i = 0; i < 120; ++i) world.step(1.0f / 60);
  EXPECT_NEAR(world.transform(g).position.y, 0.5f, 0.01f);
}

TEST(Layers, JointedBodiesDoNotCollideUnlessAsked) {
  for (bool collide : {false, true}) {
    World world(WorldConfig{.gravity = {0, 0}});
    const BodyId a = world.create_body(test::box_def({0, 0}));
    BodyDef d = test::box_def({0.8f, 0});  // overlapping a by 0.2
    const BodyId b = world.create_body(d);
    RevoluteJointDef j;
    j.a = a, j.b = b, j.anchor = {0.4f, 0}, j.collide = collide;
    world.create_joint(j);
    for (int i = 0; i < 30; ++i) world.step(1.0f / 60);
    EXPECT_EQ(world.contact_count() > 0, collide);
  }
}

}  // namespace strut
