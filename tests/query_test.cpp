// Scene queries on small hand-built worlds, with layers.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.hpp"

namespace strut {
namespace {

struct QueryWorld {
  World world{WorldConfig{.gravity = {0, 0}}};
  BodyId box_a, box_b, ball, wall;
  QueryWorld() {
    BodyDef d = test::box_def({0, 0});
    d.shapes[0].filter.category = 1;
    box_a = world.create_body(d);
    d = test::box_def({3, 0});
    d.shapes[0].filter.category = 2;
    box_b = world.create_body(d);
    BodyDef c;
    c.shapes = {ShapeDef{.shape = CircleShape{0.5f}, .filter = {.category = 4}}};
    c.center = {6, 0};
    ball = world.create_body(c);
    BodyDef s = test::box_def({10, 0}, {0.5f, 3.0f});
    s.is_static = true;
    s.shapes[0].filter.category = 8;
    wall = world.create_body(s);
  }
};

bool contains(const std::vector<BodyId>& v, BodyId id) {
  return std::find(v.begin(), v.end(), id) != v.end();
}

}  // namespace

TEST(Query, AabbFindsOverlappingBodiesRespectingTheMask) {
  QueryWorld q;
  const auto all = q.world.query_aabb({{-1, -1}, {6, 1}});
  EXPECT_EQ(all.size(), 3u);
  EXPECT_TRUE(contains(all, q.box_a) && contains(all, q.box_b) && contains(all, q.ball));
  const auto only_b = q.world.query_aabb({{-1, -1}, {6, 1}}, 2);
  ASSERT_EQ(only_b.size(), 1u);
  EXPECT_EQ(only_b[0], q.box_b);
  EXPECT_TRUE(q.world.query_aabb({{20, 20}, {21, 21}}).empty());
}

TEST(Query, PointFindsTheBodiesContainingIt) {
  QueryWorld q;
  EXPECT_EQ(q.world.query_point({0.2f, 0.3f}), std::vector<BodyId>{q.box_a});
  EXPECT_EQ(q.world.query_point({6.3f, 0.3f}), std::vector<BodyId>{q.ball});
  // Inside the ball's box but outside the circle.
  EXPECT_TRUE(q.world.query_point({6.45f, 0.45f}).empty());
  EXPECT_TRUE(q.world.query_point({0.2f, 0.3f}, ~1u).empty());
}

TEST(Query, RayReportsTheFirstHitWithPointNormalAndFraction) {
  QueryWorld q;
  const auto hit = q.world.ray_cast({-5, 0}, {15, 0});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->body, q.box_a);
  EXPECT_NEAR(hit->fraction, 4.5f / 20.0f, 1e-5f);
  EXPECT_NEAR(hit->point.x, -0.5f, 1e-5f);
  EXPECT_NEAR(hit->normal.x, -1.0f, 1e-5f);
  // Masking out boxes 1 and 2, the ray reaches the ball first.
  const auto masked = q.world.ray_cast({-5, 0}, {15, 0}, 4 | 8);
  ASSERT_TRUE(masked.has_value());
  EXPECT_EQ(masked->body, q.ball);
  EXPECT_NEAR(masked->point.x, 5.5f, 1e-4f);
  EXPECT_FALSE(q.world.ray_cast({-5, 5}, {15, 5}, ~8u).has_value());
}

TEST(Query, RayCastAllReportsEveryHitNearestFirst) {
  QueryWorld q;
  const auto hits = q.world.ray_cast_all({-5, 0}, {15, 0});
  ASSERT_EQ(hits.size(), 4u);
  EXPECT_EQ(hits[0].body, q.box_a);
  EXPECT_EQ(hits[1].body, q.box_b);
  EXPECT_EQ(hits[2].body, q.ball);
  EXPECT_EQ(hits[3].body, q.wall);
  for (std::size_t i = 1; i < hits.size(); ++i) EXPECT_LT(hits[i - 1].fraction, hits[i].fraction);
  EXPECT_EQ(q.world.ray_cast_all({-5, 0}, {15, 0}, 1 | 8).size(), 2u);
}

TEST(Query, DestroyedBodiesAreNotReported) {
  QueryWorld q;
  q.world.destroy_body(q.box_a);
  EXPECT_TRUE(q.world.query_point({0.2f, 0.3f}).empty());
  EXPECT_NE(q.world.ray_cast({-5, 0}, {15, 0})->body, q.box_a);
}

TEST(Query, BadArgumentsAreRejected) {
  QueryWorld q;
  EXPECT_EQ(test::error_of([&] {
              q.world.query_point({std::nanf(""), 0});
            }),
            "query_point: point is not finite");
  EXPECT_EQ(test::error_of([&] {
              q.world.ray_cast({0, 0}, {INFINITY, 0});
            }),
            "ray_cast: from/to is not finite");
}

}  // namespace strut
