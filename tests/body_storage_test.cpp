// Body storage (solver/bodies/body_storage.cpp): each of BodyArrays, ColliderArrays and
// ParticleArrays lists its columns once (for_each_column), and adding and compacting bodies go
// through that list. Checked two ways: the list names every member (a column added to the struct
// but not to the list fails the size check), and after removals every column still lines up: each
// surviving body moves exactly as it does in a world where the removed bodies never existed.
#include <gtest/gtest.h>

#include <vector>

#include "solver/world_state.hpp"
#include "test_util.hpp"

namespace strut {

namespace {

// The bytes of the columns the list visits; every column is a std::vector, and every
// std::vector<T> with the default allocator has the same size.
template <class Arrays>
std::size_t listed_bytes() {
  Arrays arrays;
  std::size_t bytes = 0;
  arrays.for_each_column([&](auto& column) { bytes += sizeof(column); });
  return bytes;
}

TEST(BodyStorage, ColumnListsNameEveryMember) {
  EXPECT_EQ(listed_bytes<BodyArrays>(), sizeof(BodyArrays));
  EXPECT_EQ(listed_bytes<ColliderArrays>(), sizeof(ColliderArrays));
  EXPECT_EQ(listed_bytes<ParticleArrays>(), sizeof(ParticleArrays));
}

template <class Arrays>
void expect_columns_of_size(Arrays& arrays, std::size_t n, const char* what) {
  int column = 0;
  arrays.for_each_column([&](auto& v) {
    EXPECT_EQ(v.size(), n) << what << " column " << column;
    ++column;
  });
}

// Bodies of every storage kind, each with its own gravity scale and drag, far enough apart that
// none touches another: what happens to one never depends on the others.
std::vector<BodyDef> mixed_bodies() {
  std::vector<BodyDef> defs;
  for (int i = 0; i < 24; ++i) {
    BodyDef d;
    d.shapes = {ShapeDef{BoxShape{}}};
    d.center = {10.0f * float(i), 5.0f};
    d.angle = 0.1f * float(i);
    d.velocity = {0.5f * float(i % 5), -0.3f * float(i % 3)};
    d.angular_velocity = 0.2f * float(i % 4) - 0.3f;
    d.gravity_scale = 0.5f + 0.1f * float(i);
    d.linear_drag = 0.05f * float(i % 6);
    d.angular_drag = 0.1f * float(i % 4);
    switch (i % 6) {
      case 0:
        d.is_static = true;
        d.velocity = {}, d.angular_velocity = 0;
        break;
      case 1:
        d.is_kinematic = true;
        break;
      case 2:
        d.shapes[0].shape = CircleShape{0.4f};
        break;
      case 3:  // soft: particles and struts
        d.shapes[0].shape =
            PolygonShape{{{-0.5f, -0.5f}, {0.5f, -0.5f}, {0.6f, 0.4f}, {-0.4f, 0.5f}}};
        d.soft = 1e-4f;
        break;
      case 4:  // compound: several colliders
        d.shapes = {ShapeDef{.shape = BoxShape{{0.5f, 0.2f}}},
                    ShapeDef{.shape = CircleShape{0.3f}, .offset = {0.8f, 0}},
                    ShapeDef{.shape = CapsuleShape{0.3f, 0.1f}, .offset = {-0.6f, 0.3f}}};
        break;
      default:
        d.shapes[0].shape = CapsuleShape{0.5f, 0.2f};
        d.fixed_rotation = true;
    }
    defs.push_back(d);
  }
  return defs;
}

// Destroys the bodies `removed` picks among mixed_bodies() after a step and compares 30 more
// steps with a world that never had them: every column of the survivors kept.
template <class Removed>
void expect_compaction_keeps_the_survivors(Removed removed) {
  const std::vector<BodyDef> defs = mixed_bodies();
  World all({.gravity = {0, -10}}), survivors({.gravity = {0, -10}});
  std::vector<BodyId> kept_in_all, kept;
  std::vector<BodyId> ids;
  for (std::size_t i = 0; i < defs.size(); ++i) {
    ids.push_back(all.create_body(defs[i]));
    if (!removed(i))
      kept_in_all.push_back(ids.back()), kept.push_back(survivors.create_body(defs[i]));
  }
  all.step(1.0f / 60);
  survivors.step(1.0f / 60);
  for (std::size_t i = 0; i < defs.size(); ++i)
    if (removed(i)) all.destroy_body(ids[i]);
  for (int s = 0; s < 30; ++s) all.step(1.0f / 60), survivors.step(1.0f / 60);

  WorldState& w = state_of(all);
  ASSERT_EQ(w.bodies.size(), kept.size());
  expect_columns_of_size(w.bodies, kept.size(), "body");
  expect_columns_of_size(w.colliders, state_of(survivors).colliders.size(), "collider");
  expect_columns_of_size(w.particles, state_of(survivors).particles.size(), "particle");
  EXPECT_EQ(w.soft.struts.size(), state_of(survivors).soft.struts.size());
  for (std::size_t i = 0; i < kept.size(); ++i) {
    const BodyState a = all.state(kept_in_all[i]), b = survivors.state(kept[i]);
    EXPECT_EQ(a.transform.position, b.transform.position) << "body " << i;
    EXPECT_EQ(a.transform.angle, b.transform.angle) << "body " << i;
    EXPECT_EQ(a.velocity, b.velocity) << "body " << i;
    EXPECT_EQ(a.angular_velocity, b.angular_velocity) << "body " << i;
    ASSERT_EQ(a.shapes.size(), b.shapes.size()) << "body " << i;
    for (std::size_t s = 0; s < a.shapes.size(); ++s)
      EXPECT_EQ(a.shapes[s].vertices, b.shapes[s].vertices) << "body " << i << " shape " << s;
  }
  // The survivors did move (the comparison is not of bodies standing still): the circle of
  // mixed_bodies() at index 2 falls from y 5.
  EXPECT_LT(all.state(ids[2]).transform.position.y, 4.0f);
}

TEST(BodyStorage, CompactionKeepsEveryColumnOfTheSurvivors) {
  expect_compaction_keeps_the_survivors([](std::size_t i) { return i % 4 == 1 || i % 7 == 3; });
}

// Only the bodies from the first destroyed one on move: destroying late ones leaves the others
// where they are, and the result is the same.
TEST(BodyStorage, CompactionOfTheLaterBodiesKeepsEveryColumnOfTheSurvivors) {
  const std::size_t half = mixed_bodies().size() / 2;
  expect_compaction_keeps_the_survivors([half](std::size_t i) { return i > half && i % 3 != 0; });
}

}  // namespace
}  // namespace strut
