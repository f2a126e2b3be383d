// Shape casts and shape overlaps (World::cast_shape, World::overlap_shape): exact answers on
// hand-built cases, and on random worlds the same answers as a brute-force scan over every shape
// of every body (no query index), with each cast's fraction, point and normal checked against
// the engine's own collision test (collide::collide) just before and just after the hit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "solver/collide/manifold.hpp"
#include "solver/query/shape_cast.hpp"
#include "solver/shapes/shape_ops.hpp"
#include "test_util.hpp"

namespace strut {
namespace {

// A shape in world space as the collision code sees it, with its own vertex storage.
struct View {
  std::vector<float> x, y;
  collide::ShapeView view;
  View(const std::vector<Vec2>& vertices, float radius) {
    for (const Vec2 v : vertices) x.push_back(v.x), y.push_back(v.y);
    const int n = int(vertices.size());
    view.kind = n == 1   ? collide::ColliderKind::Circle
                : n == 2 ? collide::ColliderKind::Capsule
                         : collide::ColliderKind::Polygon;
    view.x = x.data(), view.y = y.data(), view.count = n, view.radius = radius;
  }
  View(const View&) = delete;
};

// Every live shape of the world, bodies in creation order, shapes in the order they were added.
struct Brute {
  BodyId body;
  ShapeId shape;
  ShapeFilter filter;
  bool sensor;
  std::vector<Vec2> vertices;
  float radius;
};
std::vector<Brute> brute_shapes(const World& world) {
  std::vector<Brute> all;
  for (const BodyId id : world.bodies())
    for (const ShapeState& s : world.state(id).shapes) {
      const ShapeDef def = world.definition(s.id);
      all.push_back({id, s.id, def.filter, s.sensor, s.vertices, s.radius});
    }
  return all;
}

// The query shape's world vertices and radius at `pose`, made as the World makes them.
struct Placed {
  std::vector<Vec2> vertices;
  float radius;
};
Placed placed(const Shape& shape, Transform pose) {
  ShapeDef def;
  def.shape = shape, def.offset = pose.position, def.angle = pose.angle;
  const shapes::LocalCollider piece = shapes::make_colliders(def).at(0);
  return {std::vector<Vec2>(piece.vertices, piece.vertices + piece.count), piece.radius};
}

bool overlaps(const collide::ShapeView& a, const collide::ShapeView& b) {
  return collide::collide(a, b, 0.0f).count > 0;
}

float distance_to(const collide::ShapeView& s, Vec2 p) {
  // The point as a tiny circle: its separation from the shape.
  const float x = p.x, y = p.y;
  collide::ShapeView dot_view;
  dot_view.kind = collide::ColliderKind::Circle, dot_view.x = &x, dot_view.y = &y;
  dot_view.count = 1, dot_view.radius = 0.0f;
  const collide::Manifold m = collide::collide(s, dot_view, 1.0f);
  float best = 1.0f;
  for (int i = 0; i < m.count; ++i) best = std::min(best, std::fabs(m.points[i].separation));
  return best;
}

World random_world(std::mt19937& rng, int n) {
  World world({.gravity = {0, 0}});
  std::uniform_real_distribution<float> pos(-30, 30), unit(0, 1);
  world.create_body(test::ground_def(40, -30));
  for (int i = 0; i < n; ++i) {
    BodyDef d;
    d.shapes = {ShapeDef{BoxShape{}}};
    const float size = 0.1f + 1.2f * unit(rng);
    const float pick = unit(rng);
    if (pick < 0.3f)
      d.shapes[0].shape = CircleShape{size};
    else if (pick < 0.6f)
      d.shapes[0].shape = BoxShape{{size, 0.5f * size + 0.05f}, pick < 0.45f ? 0.1f : 0.0f};
    else if (pick < 0.8f)
      d.shapes[0].shape = CapsuleShape{size, 0.3f * size + 0.02f};
    else
      d.shapes[0].shape = PolygonShape{{{-size, 0}, {size, -0.3f * size}, {0.2f * size, size}}};
    d.center = {pos(rng), pos(rng)};
    d.angle = 6 * unit(rng);
    d.shapes[0].filter.category = 1u << (i % 3);
    d.shapes[0].filter.mask = i % 5 == 0 ? ~2u : ~0u;
    d.shapes[0].filter.group = i % 7 == 0 ? -1 : 0;
    d.shapes[0].sensor = i % 11 == 0;
    d.is_static = i % 4 == 0;
    world.create_body(d);
  }
  return world;
}

TEST(ShapeCast, BoxSlidingIntoABoxStopsAtItsFace) {
  World world({.gravity = {0, 0}});
  const BodyId wall = world.create_body(test::box_def({5, 0}, {0.5f, 2}));
  const auto hit = world.cast_shape(BoxShape{{0.5f, 0.5f}}, {{0, 0.25f}, 0}, {10, 0});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->body, wall);
  EXPECT_EQ(hit->shape, world.shapes(wall)[0]);
  // Faces meet when the box has moved 5 - 0.5 - 0.5 = 4 m of 10.
  EXPECT_NEAR(hit->fraction, 0.4f, 1e-6f);
  EXPECT_NEAR(hit->normal.x, -1.0f, 1e-6f);
  EXPECT_NEAR(hit->normal.y, 0.0f, 1e-6f);
  // The middle of the face-to-face overlap: y from -0.25 to 0.75.
  EXPECT_NEAR(hit->point.x, 4.5f, 1e-5f);
  EXPECT_NEAR(hit->point.y, 0.25f, 1e-5f);
  // Too short a cast, or one that passes above, hits nothing.
  EXPECT_FALSE(world.cast_shape(BoxShape{{0.5f, 0.5f}}, {{0, 0}, 0}, {3.9f, 0}).has_value());
  EXPECT_FALSE(world.cast_shape(BoxShape{{0.5f, 0.5f}}, {{0, 3}, 0}, {10, 0}).has_value());
}

TEST(ShapeCast, CircleDroppedOnATiltedBoxTouchesItsFace) {
  World world({.gravity = {0, 0}});
  BodyDef slope = test::box_def({0, 0}, {4, 0.5f});
  slope.angle = 0.3f;
  slope.is_static = true;
  world.create_body(slope);
  const float r = 0.25f;
  const auto hit = world.cast_shape(CircleShape{r}, {{0.5f, 5}, 0}, {0, -10});
  ASSERT_TRUE(hit.has_value());
  // The top face: n . (p - c) = 0.5 with n = (-sin 0.3, cos 0.3); the centre stops r above it.
  const Vec2 n{-std::sin(0.3f), std::cos(0.3f)};
  const float y = (0.5f + r - n.x * 0.5f) / n.y;
  EXPECT_NEAR(hit->fraction, (5 - y) / 10, 1e-5f);
  EXPECT_NEAR(hit->normal.x, n.x, 1e-5f);
  EXPECT_NEAR(hit->normal.y, n.y, 1e-5f);
  const Vec2 touch = Vec2{0.5f, y} - r * n;
  EXPECT_NEAR(hit->point.x, touch.x, 1e-4f);
  EXPECT_NEAR(hit->point.y, touch.y, 1e-4f);
}

TEST(ShapeCast, OverlapAtTheStartIsAHitAtZeroAndBadInputIsRejected) {
  World world({.gravity = {0, 0}});
  const BodyId box = world.create_body(test::box_def({0, 0}));
  const auto hit = world.cast_shape(CircleShape{0.3f}, {{0.6f, 0}, 0}, {1, 0});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->body, box);
  EXPECT_EQ(hit->fraction, 0.0f);
  EXPECT_NEAR(hit->normal.x, 1.0f, 1e-6f);  // the way out
  EXPECT_EQ(world.overlap_shape(CircleShape{0.3f}, {{0.6f, 0}, 0}),
            std::vector<ShapeId>{world.shapes(box)[0]});
  // Touching is not overlapping; moving away from a touch is no hit.
  EXPECT_TRUE(world.overlap_shape(CircleShape{0.5f}, {{1.0f, 0}, 0}).empty());
  EXPECT_FALSE(world.cast_shape(CircleShape{0.5f}, {{1.0f, 0}, 0}, {1, 0}).has_value());
  EXPECT_EQ(test::error_of([&] {
              world.cast_shape(CircleShape{0.5f}, {{0, 0}, 0}, {std::nanf(""), 0});
            }),
            "cast_shape: translation is not finite");
  EXPECT_NE(test::error_of([&] {
              world.cast_shape(CircleShape{0.5f}, {{0, 0}, 0}, {3e7f, 0});
            }).find("cast_shape (end pose): "),
            std::string::npos);
  EXPECT_NE(test::error_of([&] {
              world.overlap_shape(CircleShape{-1}, {{0, 0}, 0});
            }).find("overlap_shape: "),
            std::string::npos);
}

TEST(ShapeCast, FiltersChooseWhatIsFound) {
  World world({.gravity = {0, 0}});
  BodyDef near_def = test::box_def({2, 0});
  near_def.shapes[0].filter.category = 2;
  const BodyId near_box = world.create_body(near_def);
  const BodyId far_box = world.create_body(test::box_def({5, 0}));
  BodyDef sensor_def = test::box_def({1, 0}, {0.1f, 0.1f});
  sensor_def.shapes[0].sensor = true;
  world.create_body(sensor_def);
  const CircleShape ball{0.25f};
  // Default filter (category 1, every mask bit): the nearer box, past the sensor.
  EXPECT_EQ(world.cast_shape(ball, {{0, 0}, 0}, {10, 0})->body, near_box);
  // A mask without category 2 passes it by.
  EXPECT_EQ(world.cast_shape(ball, {{0, 0}, 0}, {10, 0}, {.category = 1, .mask = ~2u})->body,
            far_box);
  // A shared negative group never collides.
  world.set_filter(world.shapes(far_box)[0], {.category = 1, .mask = ~0u, .group = -3});
  EXPECT_FALSE(world.cast_shape(ball, {{0, 0}, 0}, {10, 0}, {.mask = ~2u, .group = -3}));
  EXPECT_EQ(world.overlap_shape(BoxShape{{3, 1}}, {{3, 0}, 0}, {.mask = ~2u}).size(), 1u);
}

// The pose's angle turns the cast shape for the whole cast (it does not turn as it moves): a
// long thin box dropped flat, on end and at 45 degrees meets the floor when its lowest point does.
TEST(ShapeCast, ThePoseAngleTurnsTheCastShape) {
  World world({.gravity = {0, 0}});
  world.create_body(test::ground_def(20, 0));
  const BoxShape stick{{1.0f, 0.1f}};
  // From y = 5 down 5 m: the lowest point is 0.1, 1 and (1 + 0.1) / sqrt 2 below the centre.
  const float half_pi = 1.5707963f, quarter_pi = 0.7853982f;
  const struct {
    float angle, drop;
  } cases[] = {{0, 5 - 0.1f}, {half_pi, 5 - 1.0f}, {quarter_pi, 5 - 1.1f / std::sqrt(2.0f)}};
  for (const auto& c : cases) {
    const auto hit = world.cast_shape(stick, {{0, 5}, c.angle}, {0, -5});
    ASSERT_TRUE(hit.has_value()) << "angle " << c.angle;
    EXPECT_NEAR(hit->fraction, c.drop / 5, 2e-6f) << "angle " << c.angle;
    EXPECT_NEAR(hit->normal.y, 1.0f, 1e-6f) << "angle " << c.angle;
  }
}

// fuzz_api: a capsule 6,300 m long turned by 1e-25 rad, overlapping the ground at the start. Its
// hull with the ground had an edge 6e-22 m long whose squared length was subnormal, and the cast
// returned a normal of length 1.001. Every normal is now unit, however short the edge.
TEST(ShapeCast, NormalsStayUnitWhenAHullEdgeIsTiny) {
  World world({.gravity = {0, 0}});
  BodyDef ground = test::box_def({0, -0.5f}, {20, 0.5f});
  ground.is_static = true;
  world.create_body(ground);
  const CapsuleShape capsule{3156.32935f, 3155.82935f};
  const auto hit = world.cast_shape(capsule, {{3156.32935f, -1e-25f}, -1e-25f}, {-1e-25f, -1e-25f});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->fraction, 0.0f);
  EXPECT_NEAR(length(hit->normal), 1.0f, 1e-6f);
  EXPECT_NEAR(hit->normal.y, 1.0f, 1e-6f);  // out of the ground's top face
}

// Against brute force along the path: turned shapes cast through a random world, each cast
// compared with the first of 2,000 evenly spaced poses along the translation at which the shape,
// turned by the pose's angle, overlaps any shape the filter admits (the collision test on every
// shape, no index, no cast code). The hit lies in the sample interval just before that first
// overlap; a hit earlier than that is a graze (the shapes touch there without overlapping).
TEST(ShapeCast, TurnedCastsAgreeWithOverlapsSampledAlongThePath) {
  std::mt19937 rng(11);
  World world = random_world(rng, 150);
  const std::vector<Brute> all = brute_shapes(world);
  // Each shape's collision view and box, made once.
  std::vector<std::unique_ptr<View>> views;
  std::vector<Aabb> boxes;
  for (const Brute& b : all) {
    views.push_back(std::make_unique<View>(b.vertices, b.radius));
    Aabb box{b.vertices[0], b.vertices[0]};
    for (const Vec2 v : b.vertices)
      box = {{std::min(box.lower.x, v.x), std::min(box.lower.y, v.y)},
             {std::max(box.upper.x, v.x), std::max(box.upper.y, v.y)}};
    boxes.push_back({box.lower - Vec2{b.radius, b.radius}, box.upper + Vec2{b.radius, b.radius}});
  }
  std::uniform_real_distribution<float> pos(-32, 32), unit(0, 1), reach(-20, 20);
  constexpr int kSamples = 2000;
  int hits = 0, grazes = 0, misses = 0;
  for (int q = 0; q < 120; ++q) {
    const float s = 0.2f + unit(rng);
    const Shape shapes_by_query[] = {BoxShape{{s, 0.25f * s}}, CapsuleShape{s, 0.2f * s},
                                     PolygonShape{{{-s, 0}, {s, -0.5f * s}, {0, 0.3f * s}}}};
    const Shape& shape = shapes_by_query[q % 3];
    const Transform pose{{pos(rng), pos(rng)}, 6.2831853f * unit(rng)};
    const Vec2 d{reach(rng), reach(rng)};
    const ShapeFilter filter = q % 2 ? ShapeFilter{} : ShapeFilter{.category = 2, .mask = ~4u};
    // The shapes the filter admits near the path (the query shape reaches at most 1.2 s from
    // its centre); the rest can never overlap it.
    const float r = 1.2f * s;
    const Aabb swept{{std::min(pose.position.x, pose.position.x + d.x) - r,
                      std::min(pose.position.y, pose.position.y + d.y) - r},
                     {std::max(pose.position.x, pose.position.x + d.x) + r,
                      std::max(pose.position.y, pose.position.y + d.y) + r}};
    std::vector<std::size_t> near;
    for (std::size_t k = 0; k < all.size(); ++k)
      if (!all[k].sensor && should_collide(filter, all[k].filter) &&
          boxes[k].lower.x <= swept.upper.x && boxes[k].upper.x >= swept.lower.x &&
          boxes[k].lower.y <= swept.upper.y && boxes[k].upper.y >= swept.lower.y)
        near.push_back(k);
    // The query shape's vertices about its centre, turned by the pose's angle.
    const Placed local = placed(shape, {{0, 0}, pose.angle});
    auto overlaps_anything = [&](float t) {
      std::vector<Vec2> moved = local.vertices;
      for (Vec2& v : moved) v = v + (pose.position + t * d);
      const View moving(moved, local.radius);
      for (const std::size_t k : near)
        if (overlaps(moving.view, views[k]->view)) return true;
      return false;
    };
    int first = -1;
    for (int i = 0; i <= kSamples && first < 0; ++i)
      if (overlaps_anything(float(i) / kSamples)) first = i;
    const auto hit = world.cast_shape(shape, pose, d, filter);
    if (first == 0) {
      ASSERT_TRUE(hit.has_value()) << "query " << q;
      EXPECT_EQ(hit->fraction, 0.0f) << "query " << q;
    } else if (first > 0) {
      ASSERT_TRUE(hit.has_value()) << "query " << q << " first overlap at " << first;
      const float t_first = float(first) / kSamples, t_before = float(first - 1) / kSamples;
      // 1e-5 of the translation (at most 0.3 mm here) for rounding in the samples' poses.
      EXPECT_LE(hit->fraction, t_first + 1e-5f) << "query " << q;
      if (hit->fraction < t_before - 1e-5f) ++grazes;
    } else if (hit) {
      ++grazes;  // touches somewhere without ever overlapping at a sample
    } else {
      ++misses;
    }
    if (hit && hit->fraction > 0) {
      ++hits;
      // Every hit is a touch: at its fraction the turned shape is within 0.5 mm of the shape hit,
      // and 1 mm before it (along the path) it overlaps nothing.
      const Placed p = placed(shape, {pose.position + hit->fraction * d, pose.angle});
      const View at(p.vertices, p.radius);
      EXPECT_LT(distance_to(at.view, hit->point), 5e-4f) << "query " << q;
      const float back = 1e-3f / length(d);
      if (hit->fraction > back) {
        EXPECT_FALSE(overlaps_anything(hit->fraction - back)) << "query " << q;
      }
    }
  }
  // Measured: most casts hit something and grazes are rare; both outcomes occur.
  EXPECT_GT(hits, 40);
  EXPECT_GT(misses, 5);
  EXPECT_LE(grazes, 6);
}

// The index answers as a scan of every shape does, and each answer is right by the collision
// test: just before the hit the cast shape overlaps nothing, just after it overlaps the shape hit.
TEST(ShapeCast, CastsAndOverlapsAgreeWithBruteForceOnRandomWorlds) {
  std::mt19937 rng(7);
  World world = random_world(rng, 600);
  for (int i = 0; i < 5; ++i) world.step(1.0f / 60);
  const std::vector<BodyId> ids = world.bodies();
  for (std::size_t i = 3; i < ids.size(); i += 41) world.destroy_body(ids[i]);
  const std::vector<Brute> all = brute_shapes(world);
  std::uniform_real_distribution<float> pos(-32, 32), unit(0, 1), reach(-15, 15);
  const ShapeFilter filters[] = {{},
                                 {.category = 2, .mask = ~0u},
                                 {.category = 1, .mask = 5u},
                                 {.category = 1, .mask = ~0u, .group = -1}};
  int hits = 0, overlaps_found = 0, checked_after = 0;
  for (int q = 0; q < 400; ++q) {
    const float s = 0.1f + unit(rng);
    const Shape shapes_by_query[] = {BoxShape{{s, 0.6f * s}}, CircleShape{s},
                                     CapsuleShape{s, 0.4f * s},
                                     PolygonShape{{{-s, 0}, {s, -0.5f * s}, {0, s}}}};
    const Shape& shape = shapes_by_query[q % 4];
    const Transform pose{{pos(rng), pos(rng)}, 6 * unit(rng)};
    const Vec2 d{reach(rng), reach(rng)};
    const ShapeFilter& filter = filters[q % 4];
    const Placed start = placed(shape, pose);
    const View moving(start.vertices, start.radius);
    // Overlap: every shape the filter admits whose collision test reports overlap.
    std::vector<ShapeId> expected_overlap;
    std::optional<std::pair<float, std::size_t>> expected_hit;
    for (std::size_t k = 0; k < all.size(); ++k) {
      const Brute& b = all[k];
      if (b.sensor || !should_collide(filter, b.filter)) continue;
      const View target(b.vertices, b.radius);
      if (overlaps(moving.view, target.view)) expected_overlap.push_back(b.shape);
      if (const auto c = cast_collider(moving.view, d, target.view))
        if (!expected_hit || c->fraction < expected_hit->first) expected_hit = {c->fraction, k};
    }
    EXPECT_EQ(world.overlap_shape(shape, pose, filter), expected_overlap) << "query " << q;
    overlaps_found += int(expected_overlap.size());
    const auto hit = world.cast_shape(shape, pose, d, filter);
    ASSERT_EQ(hit.has_value(), expected_hit.has_value()) << "query " << q;
    if (!hit) continue;
    ++hits;
    const Brute& b = all[expected_hit->second];
    EXPECT_EQ(hit->shape, b.shape) << "query " << q;
    EXPECT_EQ(hit->body, b.body) << "query " << q;
    EXPECT_EQ(hit->fraction, expected_hit->first) << "query " << q;
    EXPECT_NEAR(length(hit->normal), 1.0f, 1e-5f);
    // 2 mm before the hit the cast shape overlaps nothing (unless it overlapped from the start).
    const float step = 2e-3f / length(d);
    if (hit->fraction > step) {
      const Transform before{pose.position + (hit->fraction - step) * d, pose.angle};
      EXPECT_TRUE(world.overlap_shape(shape, before, filter).empty()) << "query " << q;
    }
    // 2 mm past it, unless the cast only grazes the shape, the two overlap.
    const View target(b.vertices, b.radius);
    const float approach = -dot(hit->normal, d) / length(d);
    if (hit->fraction + step <= 1 && approach > 0.1f) {
      const Placed p = placed(shape, {pose.position + (hit->fraction + step) * d, pose.angle});
      const View after(p.vertices, p.radius);
      EXPECT_TRUE(overlaps(after.view, target.view)) << "query " << q;
      ++checked_after;
    }
    const Placed p = placed(shape, {pose.position + hit->fraction * d, pose.angle});
    const View at(p.vertices, p.radius);
    // The point is where the two touch: on the target's surface and the moved shape's (when
    // they overlapped from the start, only on the target's).
    EXPECT_LT(distance_to(target.view, hit->point), 1e-3f)
        << "query " << q << " target " << b.vertices.size() << " r " << b.radius << " normal "
        << hit->normal.x << "," << hit->normal.y << " point " << hit->point.x << "," << hit->point.y
        << " moving " << p.vertices.size() << " r " << p.radius;
    if (hit->fraction > 0) {
      EXPECT_LT(distance_to(at.view, hit->point), 1e-3f)
          << "query " << q << " fraction " << hit->fraction;
    }
  }
  // The queries found something (measured: in the hundreds).
  EXPECT_GT(hits, 100);
  EXPECT_GT(overlaps_found, 20);
  EXPECT_GT(checked_after, 50);
}

}  // namespace
}  // namespace strut
