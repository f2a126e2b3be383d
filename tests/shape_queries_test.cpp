// Point containment and ray casts on hand-made shapes with exact expected answers.
#include "solver/collide/shape_queries.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace strut::collide {
namespace {

// Square [-1, 1]^2, counter-clockwise from the bottom-left: edge 0 bottom, 1 right, 2 top, 3 left.
constexpr float kSquareX[4] = {-1.0f, 1.0f, 1.0f, -1.0f};
constexpr float kSquareY[4] = {-1.0f, -1.0f, 1.0f, 1.0f};
const PolygonView kSquare = {kSquareX, kSquareY, 4};

// Right triangle (0, 0), (2, 0), (0, 2): its hypotenuse x + y = 2 has normal (1, 1) / sqrt 2.
constexpr float kTriX[3] = {0.0f, 2.0f, 0.0f};
constexpr float kTriY[3] = {0.0f, 0.0f, 2.0f};
const PolygonView kTriangle = {kTriX, kTriY, 3};

TEST(PolygonContains, InsideBoundaryOutside) {
  EXPECT_TRUE(polygon_contains(kSquare, {0.0f, 0.0f}));
  EXPECT_TRUE(polygon_contains(kSquare, {0.99f, -0.99f}));
  EXPECT_TRUE(polygon_contains(kSquare, {1.0f, 0.0f}));  // boundary counts as inside
  EXPECT_TRUE(polygon_contains(kSquare, {1.0f, 1.0f}));  // so does a vertex
  EXPECT_FALSE(polygon_contains(kSquare, {1.01f, 0.0f}));
  EXPECT_FALSE(polygon_contains(kSquare, {0.0f, -1.5f}));
  EXPECT_TRUE(polygon_contains(kTriangle, {0.5f, 0.5f}));
  EXPECT_TRUE(polygon_contains(kTriangle, {1.0f, 1.0f}));
  EXPECT_FALSE(polygon_contains(kTriangle, {1.01f, 1.0f}));
  EXPECT_FALSE(polygon_contains(kTriangle, {-0.01f, 1.0f}));
}

TEST(CircleContains, InsideBoundaryOutside) {
  const CircleView c = {{1.0f, 2.0f}, 5.0f};
  EXPECT_TRUE(circle_contains(c, {1.0f, 2.0f}));
  EXPECT_TRUE(circle_contains(c, {6.0f, 2.0f}));  // boundary counts as inside
  EXPECT_TRUE(circle_contains(c, {4.0f, 6.0f}));  // (3, 4) from the centre: exactly on it
  EXPECT_FALSE(circle_contains(c, {4.0f, 6.001f}));
  EXPECT_FALSE(circle_contains(c, {-3.0f, -2.0f}));
}

TEST(RayCastPolygon, HitsFirstEnteredFace) {
  auto h = ray_cast_polygon(kSquare, {-3.0f, 0.0f}, {1.0f, 0.0f});
  ASSERT_TRUE(h);
  EXPECT_EQ(h->fraction, 0.5f);
  EXPECT_EQ(h->normal, (Vec2{-1.0f, 0.0f}));

  h = ray_cast_polygon(kSquare, {0.0f, 5.0f}, {0.0f, -5.0f});
  ASSERT_TRUE(h);
  EXPECT_FLOAT_EQ(h->fraction, 0.4f);
  EXPECT_EQ(h->normal, (Vec2{0.0f, 1.0f}));

  // Diagonal: crosses the bottom face's line outside the square, enters through the left face.
  h = ray_cast_polygon(kSquare, {-3.0f, -2.0f}, {1.0f, 2.0f});
  ASSERT_TRUE(h);
  EXPECT_EQ(h->fraction, 0.5f);
  EXPECT_EQ(h->normal, (Vec2{-1.0f, 0.0f}));

  h = ray_cast_polygon(kTriangle, {2.0f, 2.0f}, {0.0f, 0.0f});
  ASSERT_TRUE(h);
  EXPECT_FLOAT_EQ(h->fraction, 0.5f);
  EXPECT_NEAR(h->normal.x, std::numbers::sqrt2_v<float> / 2, 1e-7f);
  EXPECT_NEAR(h->normal.y, std::numbers::sqrt2_v<float> / 2, 1e-7f);

  // Ending exactly on the face still hits, at fraction 1.
  h = ray_cast_polygon(kSquare, {-3.0f, 0.5f}, {-1.0f, 0.5f});
  ASSERT_TRUE(h);
  EXPECT_EQ(h->fraction, 1.0f);
}

TEST(RayCastPolygon, Misses) {
  EXPECT_FALSE(ray_cast_polygon(kSquare, {-3.0f, 2.0f}, {3.0f, 2.0f}));    // parallel, above
  EXPECT_FALSE(ray_cast_polygon(kSquare, {-3.0f, 0.0f}, {-2.0f, 0.0f}));   // too short
  EXPECT_FALSE(ray_cast_polygon(kSquare, {-3.0f, 0.0f}, {-5.0f, 0.0f}));   // pointing away
  EXPECT_FALSE(ray_cast_polygon(kSquare, {-3.0f, -3.0f}, {3.0f, -1.5f}));  // passes below
  EXPECT_FALSE(ray_cast_polygon(kSquare, {-3.0f, 0.0f}, {-3.0f, 0.0f}));   // zero length
}

TEST(RayCastPolygon, StartInsideOrOnBoundary) {
  // Strictly inside: no hit (documented), whichever way the ray goes.
  EXPECT_FALSE(ray_cast_polygon(kSquare, {0.0f, 0.0f}, {3.0f, 0.0f}));
  EXPECT_FALSE(ray_cast_polygon(kSquare, {0.5f, 0.5f}, {0.6f, 0.6f}));
  // On the boundary heading in: fraction 0 with that face's normal.
  auto h = ray_cast_polygon(kSquare, {-1.0f, 0.0f}, {1.0f, 0.0f});
  ASSERT_TRUE(h);
  EXPECT_EQ(h->fraction, 0.0f);
  EXPECT_FALSE(std::signbit(h->fraction));
  EXPECT_EQ(h->normal, (Vec2{-1.0f, 0.0f}));
  // On the boundary heading out: no hit.
  EXPECT_FALSE(ray_cast_polygon(kSquare, {1.0f, 0.0f}, {3.0f, 0.0f}));
}

TEST(RayCastCircle, HitsAndMisses) {
  const CircleView c = {{0.0f, 0.0f}, 1.0f};
  auto h = ray_cast_circle(c, {-3.0f, 0.0f}, {1.0f, 0.0f});
  ASSERT_TRUE(h);
  EXPECT_EQ(h->fraction, 0.5f);
  EXPECT_EQ(h->normal, (Vec2{-1.0f, 0.0f}));

  // Offset 0.6 from the centre line: half chord 0.8, enters at x = -0.8, normal (-0.8, 0.6).
  h = ray_cast_circle(c, {-3.0f, 0.6f}, {1.0f, 0.6f});
  ASSERT_TRUE(h);
  EXPECT_NEAR(h->fraction, 0.55f, 1e-6f);
  EXPECT_NEAR(h->normal.x, -0.8f, 1e-6f);
  EXPECT_NEAR(h->normal.y, 0.6f, 1e-6f);

  // Off-centre circle, ray along -y.
  h = ray_cast_circle({{5.0f, 5.0f}, 2.0f}, {5.0f, 10.0f}, {5.0f, 0.0f});
  ASSERT_TRUE(h);
  EXPECT_EQ(h->fraction, 0.3f);
  EXPECT_EQ(h->normal, (Vec2{0.0f, 1.0f}));

  EXPECT_FALSE(ray_cast_circle(c, {-3.0f, 1.01f}, {3.0f, 1.01f}));  // passes above
  EXPECT_FALSE(ray_cast_circle(c, {-3.0f, 0.0f}, {-2.5f, 0.0f}));   // too short
  EXPECT_FALSE(ray_cast_circle(c, {-3.0f, 0.0f}, {-5.0f, 0.0f}));   // pointing away
  EXPECT_FALSE(ray_cast_circle(c, {-3.0f, 0.0f}, {-3.0f, 0.0f}));   // zero length
}

TEST(RayCastCircle, StartInsideOrOnBoundary) {
  const CircleView c = {{0.0f, 0.0f}, 1.0f};
  EXPECT_FALSE(ray_cast_circle(c, {0.0f, 0.0f}, {3.0f, 0.0f}));
  EXPECT_FALSE(ray_cast_circle(c, {0.5f, 0.0f}, {-3.0f, 0.0f}));
  auto h = ray_cast_circle(c, {-1.0f, 0.0f}, {1.0f, 0.0f});
  ASSERT_TRUE(h);
  EXPECT_EQ(h->fraction, 0.0f);
  EXPECT_EQ(h->normal, (Vec2{-1.0f, 0.0f}));
  EXPECT_FALSE(ray_cast_circle(c, {1.0f, 0.0f}, {3.0f, 0.0f}));
}

TEST(RayCastCircle, FarFromSmallCircleKeepsPrecision) {
  // 1e4 away from a 1 mm circle: solving the quadratic in t directly loses it to cancellation.
  auto h = ray_cast_circle({{0.0f, 0.0f}, 1e-3f}, {-1e4f, 0.0f}, {1e4f, 0.0f});
  ASSERT_TRUE(h);
  EXPECT_NEAR(h->fraction * 2e4f - 1e4f, -1e-3f, 2e-3f);
  EXPECT_NEAR(h->normal.x, -1.0f, 1e-6f);
}

}  // namespace
}  // namespace strut::collide
