// The polygon-capsule routine in SIMD lanes (solver/collide/polygon_segment_lanes.hpp) against its
// scalar twin, byte for byte: random polygons of 3 to 16 vertices (sharp and rounded, some with
// a repeated vertex, some axis-aligned so that normals carry signed zeros) against capsules and
// segments placed from deep overlap to beyond the margin, resting boxes and capsules that the
// spinner and rain scenes are made of, and ties between faces. Whether the answers are right is
// the brute-force tests' job (collide_pairs_test.cpp), which run the lane routine.
#include "solver/collide/polygon_segment_lanes.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "solver/collide/manifold.hpp"

namespace strut::collide {
namespace {

struct Shape {
  std::vector<float> x, y;
  PolygonView view() const { return {x.data(), y.data(), int(x.size()), 0}; }
};

// A convex polygon of n vertices on an ellipse, counter-clockwise, turned by `angle` (0 keeps
// axis-aligned faces exactly axis-aligned when n is 4); `repeat` doubles one vertex (a face of
// length zero).
Shape polygon(int n, Vec2 centre, float rx, float ry, float angle, bool repeat) {
  Shape s;
  for (int i = 0; i < n; ++i) {
    const float t = angle + 2.0f * std::numbers::pi_v<float> * float(i) / float(n);
    s.x.push_back(centre.x + rx * std::cos(t)), s.y.push_back(centre.y + ry * std::sin(t));
    if (repeat && i == n / 2 && n < kMaxPolygonVertices)
      s.x.push_back(s.x.back()), s.y.push_back(s.y.back());
  }
  return s;
}

Shape box(Vec2 centre, float hx, float hy) {
  return {{centre.x - hx, centre.x + hx, centre.x + hx, centre.x - hx},
          {centre.y - hy, centre.y - hy, centre.y + hy, centre.y + hy}};
}

Shape segment(Vec2 p, Vec2 q) { return {{p.x, q.x}, {p.y, q.y}}; }

// The manifolds' bytes: the count and the points reported (ContactFeature has no padding).
bool same_bytes(const Manifold& m, const Manifold& n) {
  static_assert(sizeof(ContactFeature) == 4 + sizeof(float) + 2 * sizeof(Vec2));
  return m.count == n.count &&
         std::memcmp(m.points, n.points, sizeof(ContactFeature) * std::size_t(m.count)) == 0;
}

struct Coverage {
  int pairs = 0, empty = 0, one = 0, two = 0, vertex_pairs = 0;
};

// Both routines on a placement; false (with a message) if they differ.
bool check(const Shape& a, float ra, const Shape& b, float rb, float margin, Coverage& c,
           const std::string& what) {
  const Manifold lanes = collide_polygon_capsule(a.view(), ra, b.view(), rb, margin);
  const Manifold twin = collide_polygon_capsule_scalar(a.view(), ra, b.view(), rb, margin);
  ++c.pairs;
  c.empty += lanes.count == 0, c.one += lanes.count == 1, c.two += lanes.count == 2;
  for (int i = 0; i < lanes.count; ++i)
    c.vertex_pairs += lanes.points[i].kind == FeatureKind::VertexVertex;
  EXPECT_TRUE(same_bytes(lanes, twin))
      << what << ": " << lanes.count << " points against " << twin.count;
  return !::testing::Test::HasFailure();
}

TEST(PolygonSegmentLanes, RandomPlacementsMatchTheScalarTwinByteForByte) {
  std::mt19937 rng(20261124);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f), size(0.1f, 2.0f), turn(0.0f, 6.3f);
  std::uniform_int_distribution<int> count(3, kMaxPolygonVertices);
  Coverage c;
  for (int pair = 0; pair < 40000; ++pair) {
    const Vec2 centre = {20.0f * unit(rng), 20.0f * unit(rng)};
    const int n = count(rng);
    const bool axis_aligned = pair % 5 == 0;
    const Shape a =
        polygon(n, centre, size(rng), size(rng), axis_aligned ? 0.0f : turn(rng), pair % 7 == 0);
    const float ra = pair % 3 == 0 ? 0.0f : 0.2f * (unit(rng) + 1.0f);
    const float rb = pair % 4 == 0 ? 0.0f : 0.3f * (unit(rng) + 1.0f);
    // The capsule's middle from inside A to about two sizes away, any direction (a quarter of
    // them axis-aligned, so separations tie between faces and zeros meet).
    const Vec2 mid = centre + Vec2{3.0f * unit(rng), 3.0f * unit(rng)};
    const float h = size(rng), t = pair % 4 == 1 ? 0.0f : turn(rng);
    const Vec2 half = {h * std::cos(t), h * std::sin(t)};
    const Shape b = segment(mid - half, mid + half);
    const float margin = pair % 2 == 0 ? 0.0f : 0.5f;
    if (!check(a, ra, b, rb, margin, c, "pair " + std::to_string(pair))) break;
  }
  std::printf("[ lanes ] %d pairs: %d empty, %d one point, %d two points, %d vertex pairs\n",
              c.pairs, c.empty, c.one, c.two, c.vertex_pairs);
  // Every branch of the routine was reached: no contact, face contacts, corners meeting.
  EXPECT_GT(c.empty, c.pairs / 10);
  EXPECT_GT(c.one, c.pairs / 20);
  EXPECT_GT(c.two, c.pairs / 20);
  EXPECT_GT(c.vertex_pairs, 100);
}

// The spinner's and rain's pairs: capsules resting on, leaning on and sliding off boxes and
// floors, where faces tie (a capsule lying flat on a face sees both its ends at one height).
TEST(PolygonSegmentLanes, CapsulesOnBoxesMatchTheScalarTwinByteForByte) {
  Coverage c;
  const Shape floor = box({0.0f, -1.0f}, 20.0f, 1.0f);
  const Shape crate = box({3.0f, 0.5f}, 0.5f, 0.5f);
  for (int i = 0; i <= 200; ++i) {
    const float s = float(i) / 200.0f;
    for (const float tilt : {0.0f, 0.01f, -0.3f, 1.5707964f}) {
      const Vec2 half = {0.4f * std::cos(tilt), 0.4f * std::sin(tilt)};
      for (const Vec2 mid : {Vec2{-5.0f + 10.0f * s, 0.25f}, Vec2{3.0f + 1.5f * (s - 0.5f), 1.2f},
                             Vec2{3.6f, -0.5f + 2.0f * s}}) {
        const Shape cap = segment(mid - half, mid + half);
        const std::string what = "step " + std::to_string(i) + " tilt " + std::to_string(tilt);
        if (!check(floor, 0.0f, cap, 0.3f, 0.1f, c, "floor, " + what)) return;
        if (!check(crate, 0.0f, cap, 0.3f, 0.1f, c, "crate, " + what)) return;
        if (!check(crate, 0.2f, cap, 0.0f, 0.1f, c, "rounded crate on a segment, " + what)) return;
      }
    }
  }
  EXPECT_GT(c.two, 100);
}

// The reduction over lanes keeps the scalar loop's choice, the first index of the best value,
// and the value of that index's own lane (a -0 before a +0 stays -0).
TEST(PolygonSegmentLanes, ReductionKeepsTheFirstIndexOfTheBestValue) {
  constexpr int W = lanes::kWidth<lanes::Wide>;
  alignas(64) float value[W], index[W];
  for (int best_lane = 0; best_lane < W; ++best_lane) {
    for (int l = 0; l < W; ++l) value[l] = l == best_lane ? 2.0f : 1.0f, index[l] = float(l + W);
    // The best value again in the next lane, at a later index.
    value[(best_lane + 1) % W] = 2.0f, index[(best_lane + 1) % W] = float(3 * W);
    lanes::LaneBest<lanes::Wide> b{lanes::load<lanes::Wide>(value),
                                   lanes::load<lanes::Wide>(index)};
    const auto [v, i] = lanes::reduce<true>(b);
    EXPECT_EQ(v, 2.0f);
    EXPECT_EQ(i, best_lane + W) << "best lane " << best_lane;
  }
  for (int l = 0; l < W; ++l) value[l] = 0.0f, index[l] = float(l);
  value[0] = -0.0f;
  lanes::LaneBest<lanes::Wide> zeros{lanes::load<lanes::Wide>(value),
                                     lanes::load<lanes::Wide>(index)};
  const auto [v, i] = lanes::reduce<false>(zeros);
  EXPECT_EQ(i, 0);
  EXPECT_TRUE(std::signbit(v));
}

}  // namespace
}  // namespace strut::collide
