// World queries search the query index (solver/query/query_index.hpp) instead of scanning every
// body; here they are held to a brute-force scan over World::state on worlds of mixed sizes
// (a wide ground, tiny and large bodies, a tile map: one static body of 40 boxes), after bodies
// moved, died and teleported. The brute force sees each shape of a body on its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "solver/collide/shape_queries.hpp"
#include "test_util.hpp"

namespace strut {
namespace {

// One shape of a body in world coordinates (a circle's transform.position is its centre).
struct OneShape {
  ShapeKind kind = ShapeKind::Polygon;
  float radius = 0.0f;
  std::vector<Vec2> vertices;
  Transform transform;
};
OneShape one_shape(const BodyState& body, const ShapeState& shape) {
  OneShape s{shape.kind, shape.radius, shape.vertices, {}};
  s.transform.position =
      shape.kind == ShapeKind::Circle ? shape.vertices[0] : body.transform.position;
  return s;
}

struct Brute {
  BodyId id;
  OneShape state;
  std::uint32_t category;
};

// Every live body's shapes, bodies in creation order (a body's shapes next to each other).
std::vector<Brute> brute_shapes(const World& world) {
  std::vector<Brute> all;
  for (const BodyId id : world.bodies()) {
    const BodyState body = world.state(id);
    for (const ShapeState& shape : body.shapes) {
      all.push_back({id, one_shape(body, shape), world.definition(shape.id).filter.category});
    }
  }
  return all;
}

// Adds `id` unless it is the last one listed (a body found by several of its shapes).
void add_once(std::vector<BodyId>& out, BodyId id) {
  if (out.empty() || !(out.back() == id)) out.push_back(id);
}

Aabb box_of(const OneShape& s) {
  if (s.kind == ShapeKind::Circle) {
    const Vec2 c = s.transform.position, r{s.radius, s.radius};
    return {c - r, c + r};
  }
  Aabb b{s.vertices[0], s.vertices[0]};
  for (const Vec2 v : s.vertices) {
    b.lower = {std::min(b.lower.x, v.x), std::min(b.lower.y, v.y)};
    b.upper = {std::max(b.upper.x, v.x), std::max(b.upper.y, v.y)};
  }
  return b;
}

bool overlap(const Aabb& a, const Aabb& b) {
  return a.lower.x <= b.upper.x && b.lower.x <= a.upper.x && a.lower.y <= b.upper.y &&
         b.lower.y <= a.upper.y;
}

World random_world(std::mt19937& rng, int n) {
  World world;
  std::uniform_real_distribution<float> pos(-60, 60), unit(0, 1);
  world.create_body(test::ground_def(80));
  const std::vector<int> tiles(40, 0);
  world.create_tile_map(TileMapDef{
      .origin = {-100, -20}, .rows = 2, .cols = 20, .tiles = tiles, .materials = {TileMaterial{}}});
  for (int i = 0; i < n; ++i) {
    BodyDef d;
    d.shapes = {ShapeDef{BoxShape{}}};
    const float size = unit(rng) < 0.05f ? 3 + 5 * unit(rng) : 0.05f + 0.6f * unit(rng);
    const float pick = unit(rng);
    if (pick < 0.4f)
      d.shapes[0].shape = CircleShape{size};
    else if (pick < 0.8f)
      d.shapes[0].shape = BoxShape{{size, 0.5f * size + 0.01f}};
    else
      d.shapes[0].shape = PolygonShape{{{-size, 0}, {size, -0.3f * size}, {0.2f * size, size}}};
    d.center = {pos(rng), 1 + 60 * unit(rng)};
    d.angle = 6 * unit(rng);
    d.shapes[0].filter.category = 1u << (i % 3);
    world.create_body(d);
  }
  return world;
}

// The engine's own exact shape tests, run on a body's state (world coordinates).
bool contains(const OneShape& s, Vec2 p) {
  if (s.kind == ShapeKind::Circle)
    return collide::circle_contains(collide::CircleView{s.transform.position, s.radius}, p);
  std::vector<float> xs, ys;
  for (const Vec2 v : s.vertices) xs.push_back(v.x), ys.push_back(v.y);
  return collide::polygon_contains(collide::PolygonView{xs.data(), ys.data(), int(xs.size()), 0},
                                   p);
}

std::optional<collide::RayResult> ray(const OneShape& s, Vec2 from, Vec2 to) {
  if (s.kind == ShapeKind::Circle)
    return collide::ray_cast_circle(collide::CircleView{s.transform.position, s.radius}, from, to);
  std::vector<float> xs, ys;
  for (const Vec2 v : s.vertices) xs.push_back(v.x), ys.push_back(v.y);
  return collide::ray_cast_polygon(collide::PolygonView{xs.data(), ys.data(), int(xs.size()), 0},
                                   from, to);
}

TEST(BroadphaseQuery, AabbPointAndRayAgreeWithBruteForce) {
  std::mt19937 rng(11);
  World world = random_world(rng, 1500);
  for (int i = 0; i < 40; ++i) world.step(1.0f / 60);
  ASSERT_FALSE(world.query_aabb(Aabb{{-200, -200}, {200, 200}}).empty());  // builds the index
  // Deaths and teleports after the last step: the index must see them without a step.
  std::vector<BodyId> ids = world.bodies();
  for (std::size_t i = 30; i < ids.size(); i += 97) world.destroy_body(ids[i]);
  for (std::size_t i = 31; i < ids.size(); i += 89)
    if (world.is_valid(ids[i])) world.set_transform(ids[i], {float(i % 50), 90}, 0.3f);
  const std::vector<Brute> all = brute_shapes(world);
  std::uniform_real_distribution<float> pos(-110, 110), height(-25, 95), extent(0, 8);
  const std::uint32_t masks[] = {0xFFFFFFFFu, 1u, 6u, 0u};
  std::size_t found_boxes = 0, found_points = 0, found_rays = 0;  // the test tests something
  for (int q = 0; q < 300; ++q) {
    const std::uint32_t mask = masks[q % 4];
    const Vec2 p{pos(rng), height(rng)};
    const Aabb box{p, p + Vec2{extent(rng), extent(rng)}};
    std::vector<BodyId> expected_box, expected_point;
    for (const Brute& b : all) {
      if (!(b.category & mask)) continue;
      const Aabb bb = box_of(b.state);
      if (overlap(bb, box)) add_once(expected_box, b.id);
      if (overlap(bb, Aabb{p, p}) && contains(b.state, p)) add_once(expected_point, b.id);
    }
    EXPECT_EQ(world.query_aabb(box, mask), expected_box) << "query " << q;
    EXPECT_EQ(world.query_point(p, mask), expected_point) << "query " << q;
    found_boxes += expected_box.size(), found_points += expected_point.size();
    // Rays: the same hits as a scan, nearest first.
    const Vec2 to = p + Vec2{extent(rng) * 10 - 40, extent(rng) * 10 - 40};
    std::vector<std::pair<float, std::uint32_t>> expected_hits;
    for (const Brute& b : all) {
      if (!(b.category & mask)) continue;
      const auto hit = ray(b.state, p, to);
      if (!hit) continue;
      // A body's nearest hit only.
      if (!expected_hits.empty() && expected_hits.back().second == b.id.index)
        expected_hits.back().first = std::min(expected_hits.back().first, hit->fraction);
      else
        expected_hits.push_back({hit->fraction, b.id.index});
    }
    std::stable_sort(expected_hits.begin(), expected_hits.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    const std::vector<RayHit> hits = world.ray_cast_all(p, to, mask);
    ASSERT_EQ(hits.size(), expected_hits.size()) << "query " << q;
    found_rays += hits.size();
    for (std::size_t i = 0; i < hits.size(); ++i) {
      EXPECT_EQ(hits[i].fraction, expected_hits[i].first);
      EXPECT_EQ(hits[i].body.index, expected_hits[i].second);
    }
    const std::optional<RayHit> closest = world.ray_cast(p, to, mask);
    EXPECT_EQ(closest.has_value(), !hits.empty());
    if (closest) {
      EXPECT_EQ(closest->body, hits[0].body);
    }
  }
  EXPECT_GT(found_boxes, 300u);
  EXPECT_GT(found_points, 20u);
  EXPECT_GT(found_rays, 300u);
}

// Signed gap between two states' shapes, computed independently of the engine: for polygon
// pairs the largest separation over both polygons' edge normals (SAT; > 0 apart, < 0 overlap);
// with circles, the distance from the centre to the other shape minus the radius.
float gap_point_polygon(Vec2 p, const std::vector<Vec2>& v) {
  // Signed distance from p to a counter-clockwise convex polygon: < 0 inside.
  float inside = -1e30f, outside = 1e30f;
  bool out = false;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Vec2 a = v[i], b = v[(i + 1) % v.size()], e = b - a;
    const Vec2 n = (1.0f / length(e)) * Vec2{e.y, -e.x};
    inside = std::max(inside, dot(p - a, n));
    if (dot(p - a, n) > 0) out = true;
    const float t = std::clamp(dot(p - a, e) / dot(e, e), 0.0f, 1.0f);
    outside = std::min(outside, length(p - (a + t * e)));
  }
  return out ? outside : inside;
}

float gap(const OneShape& a, const OneShape& b) {
  const bool ca = a.kind == ShapeKind::Circle, cb = b.kind == ShapeKind::Circle;
  if (ca && cb) return length(a.transform.position - b.transform.position) - a.radius - b.radius;
  if (ca) return gap_point_polygon(a.transform.position, b.vertices) - a.radius;
  if (cb) return gap_point_polygon(b.transform.position, a.vertices) - b.radius;
  float best = -1e30f;
  for (const auto* pair : {&a, &b}) {
    const auto& v = pair->vertices;
    const auto& other = pair == &a ? b.vertices : a.vertices;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const Vec2 e = v[(i + 1) % v.size()] - v[i];
      const Vec2 n = (1.0f / length(e)) * Vec2{e.y, -e.x};
      float closest = 1e30f;
      for (const Vec2 o : other) closest = std::min(closest, dot(o - v[i], n));
      best = std::max(best, closest);
    }
  }
  return best;
}

TEST(BroadphaseQuery, ShapeOverlapAgreesWithBruteForce) {
  std::mt19937 rng(12);
  World world = random_world(rng, 800);
  for (int i = 0; i < 30; ++i) world.step(1.0f / 60);
  const std::vector<Brute> all = brute_shapes(world);
  std::uniform_real_distribution<float> pos(-70, 70), height(-5, 60), unit(0, 1);
  std::size_t found = 0;
  for (int q = 0; q < 200; ++q) {
    const std::uint32_t mask = q % 3 == 0 ? 0xFFFFFFFFu : 1u << (q % 3);
    const float size = 0.2f + 3 * unit(rng);
    const Shape shape = q % 2 ? Shape{CircleShape{size}} : Shape{BoxShape{{size, 0.5f * size}}};
    const Transform pose{{pos(rng), height(rng)}, 6 * unit(rng)};
    // The query shape as a body state, for the brute force.
    World probe({.gravity = {0, 0}});
    BodyDef d;
    d.shapes = {ShapeDef{shape}};
    d.center = pose.position;
    d.angle = pose.angle;
    const BodyState probe_state = probe.state(probe.create_body(d));
    const OneShape query = one_shape(probe_state, probe_state.shapes[0]);
    const std::vector<BodyId> got = world.query_shape(shape, pose, mask);
    // A body overlaps when its nearest shape does.
    for (std::size_t i = 0; i < all.size();) {
      const BodyId id = all[i].id;
      float g = 1e30f;
      for (; i < all.size() && all[i].id == id; ++i)
        if (all[i].category & mask) g = std::min(g, gap(query, all[i].state));
      if (g == 1e30f || std::fabs(g) < 1e-4f) continue;  // grazing: rounding may go either way
      const bool reported = std::find(got.begin(), got.end(), id) != got.end();
      EXPECT_EQ(reported, g < 0) << "query " << q << " body " << id.index << " gap " << g;
    }
    found += got.size();
  }
  EXPECT_GT(found, 100u);
  EXPECT_NE(test::error_of([&] {
              world.query_shape(CircleShape{1e-6f}, {});
            }).find("query_shape: radius"),
            std::string::npos);
}

}  // namespace
}  // namespace strut
