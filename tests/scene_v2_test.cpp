// Scene format version 2, shapes: compound bodies, capsules, segments, chains, rounded boxes and
// polygons, groups and sensors are read to the right values, written only when used (as version
// 2, defaults left out) and read back bit for bit. The rejections are in scene_error_cases.hpp;
// building and running such scenes is in scene_v2_world_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "strut/scene.hpp"
#include "test_util.hpp"

namespace strut {
namespace {

using test::bits;

void expect_same(float a, float b) { EXPECT_EQ(bits(a), bits(b)) << a << " vs " << b; }
void expect_same(Vec2 a, Vec2 b) {
  expect_same(a.x, b.x);
  expect_same(a.y, b.y);
}
void expect_same(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) expect_same(a[i], b[i]);
}
void expect_same(const Material& a, const Material& b) {
  expect_same(a.density, b.density);
  expect_same(a.friction, b.friction);
  EXPECT_EQ(a.static_friction.has_value(), b.static_friction.has_value());
  expect_same(static_friction_of(a), static_friction_of(b));
  expect_same(a.restitution, b.restitution);
  EXPECT_EQ(a.friction_mix, b.friction_mix);
  EXPECT_EQ(a.restitution_mix, b.restitution_mix);
}
void expect_same(const ShapeFilter& a, const ShapeFilter& b) {
  EXPECT_EQ(a.category, b.category);
  EXPECT_EQ(a.mask, b.mask);
  EXPECT_EQ(a.group, b.group);
}

// Every field of every kind, bit for bit.
void expect_same(const Shape& a, const Shape& b) {
  ASSERT_EQ(a.index(), b.index());
  if (const auto* box = std::get_if<BoxShape>(&a)) {
    expect_same(box->half_extents, std::get<BoxShape>(b).half_extents);
    expect_same(box->radius, std::get<BoxShape>(b).radius);
  } else if (const auto* poly = std::get_if<PolygonShape>(&a)) {
    expect_same(poly->vertices, std::get<PolygonShape>(b).vertices);
    expect_same(poly->radius, std::get<PolygonShape>(b).radius);
  } else if (const auto* circle = std::get_if<CircleShape>(&a)) {
    expect_same(circle->radius, std::get<CircleShape>(b).radius);
  } else if (const auto* capsule = std::get_if<CapsuleShape>(&a)) {
    expect_same(capsule->half_length, std::get<CapsuleShape>(b).half_length);
    expect_same(capsule->radius, std::get<CapsuleShape>(b).radius);
  } else if (const auto* segment = std::get_if<SegmentShape>(&a)) {
    expect_same(segment->a, std::get<SegmentShape>(b).a);
    expect_same(segment->b, std::get<SegmentShape>(b).b);
  } else {
    expect_same(std::get<ChainShape>(a).points, std::get<ChainShape>(b).points);
    EXPECT_EQ(std::get<ChainShape>(a).loop, std::get<ChainShape>(b).loop);
  }
}

void expect_same(const BodyDef& a, const BodyDef& b) {
  expect_same(a.shapes[0].shape, b.shapes[0].shape);
  ASSERT_EQ(a.shapes.size(), b.shapes.size());
  for (std::size_t i = 0; i < a.shapes.size(); ++i) {
    SCOPED_TRACE("shape " + std::to_string(i));
    const ShapeDef &s = a.shapes[i], &t = b.shapes[i];
    expect_same(s.shape, t.shape);
    expect_same(s.offset, t.offset);
    expect_same(s.angle, t.angle);
    expect_same(s.material, t.material);
    expect_same(s.filter, t.filter);
    EXPECT_EQ(s.sensor, t.sensor);
    expect_same(s.tangent_speed, t.tangent_speed);
    expect_same(s.rolling_resistance, t.rolling_resistance);
    EXPECT_EQ(s.custom_filter, t.custom_filter);
    EXPECT_EQ(s.pre_solve, t.pre_solve);
  }
  expect_same(a.center, b.center);
  expect_same(a.angle, b.angle);
  expect_same(a.velocity, b.velocity);
  expect_same(a.angular_velocity, b.angular_velocity);
  expect_same(a.shapes[0].material, b.shapes[0].material);
  EXPECT_EQ(a.is_static, b.is_static);
  EXPECT_EQ(a.is_kinematic, b.is_kinematic);
  expect_same(a.gravity_scale, b.gravity_scale);
  expect_same(a.linear_drag, b.linear_drag);
  expect_same(a.angular_drag, b.angular_drag);
  EXPECT_EQ(a.fixed_rotation, b.fixed_rotation);
  EXPECT_EQ(a.lock_x, b.lock_x);
  EXPECT_EQ(a.lock_y, b.lock_y);
  EXPECT_EQ(a.awake, b.awake);
  expect_same(
      ShapeFilter{a.shapes[0].filter.category, a.shapes[0].filter.mask, a.shapes[0].filter.group},
      ShapeFilter{b.shapes[0].filter.category, b.shapes[0].filter.mask, b.shapes[0].filter.group});
  EXPECT_EQ(a.shapes[0].sensor, b.shapes[0].sensor);
  EXPECT_EQ(a.bullet, b.bullet);
  expect_same(a.soft, b.soft);
}

void expect_same(const Scene& a, const Scene& b) {
  ASSERT_EQ(a.bodies.size(), b.bodies.size());
  for (std::size_t i = 0; i < a.bodies.size(); ++i) {
    SCOPED_TRACE("body " + std::to_string(i));
    EXPECT_EQ(a.bodies[i].name, b.bodies[i].name);
    expect_same(a.bodies[i].def, b.bodies[i].def);
  }
}

constexpr const char* kEveryKind = R"({
  "format": "strut-scene", "version": 2,
  "materials": {"rubber": {"density": 2, "friction": 0.9, "restitution": 0.5}},
  "bodies": [
    {"name": "arena", "shape": "chain", "center": [0, 0], "static": true,
     "points": [[-10, 0], [10, 0], [10, 10], [-10, 10]], "loop": true},
    {"name": "terrain", "shape": "chain", "center": [0, -5], "static": true,
     "points": [[-3, 0], [0, -0.5], [3, 0]]},
    {"name": "rail", "shape": "segment", "center": [1, 2], "kinematic": true,
     "points": [[-1, 0], [1, 0.5]], "velocity": [0.5, 0]},
    {"name": "pill", "shape": "capsule", "center": [0, 3], "half_length": 0.75, "radius": 0.25,
     "angle": 0.5, "material": "wood", "category": 2, "mask": 5, "group": -3},
    {"name": "zone", "shape": "box", "center": [4, 4], "half_extents": [1, 2], "radius": 0.125,
     "static": true, "sensor": true, "group": 7},
    {"shape": "polygon", "center": [-4, 4], "vertices": [[0, 0], [1, 0], [0, 1]], "radius": 0.1,
     "awake": false},
    {"name": "cart", "center": [2, 6], "angle": 0.25, "fixed_rotation": true, "angular_drag": 0.5,
     "shapes": [
       {"shape": "box", "half_extents": [1, 0.25], "offset": [0, 0.5], "angle": 0.125,
        "material": "rubber", "category": 4, "mask": 3, "group": 2, "sensor": true},
       {"shape": "capsule", "half_length": 0, "radius": 0.5, "offset": [-1, 0]},
       {"shape": "circle", "radius": 0.5, "offset": [1, 0], "material": "metal"},
       {"shape": "polygon", "vertices": [[0, 0], [1, 0], [0, 1]], "radius": 0.05}]},
    {"name": "frame", "center": [0, 8], "static": true,
     "shapes": [{"shape": "segment", "points": [[0, 0], [1, 0]]},
                {"shape": "chain", "points": [[0, 1], [1, 1], [2, 2]], "offset": [0, 1]}]}
  ]
})";

TEST(SceneV2, EveryShapeKindLoadsWithItsValues) {
  const Scene s = parse_scene(kEveryKind, "kinds.json");
  ASSERT_EQ(s.bodies.size(), 8u);

  const BodyDef& arena = s.bodies[0].def;
  const auto& loop = std::get<ChainShape>(arena.shapes[0].shape);
  EXPECT_TRUE(loop.loop);
  ASSERT_EQ(loop.points.size(), 4u);
  EXPECT_EQ(loop.points[2], (Vec2{10, 10}));
  const auto& open = std::get<ChainShape>(s.bodies[1].def.shapes[0].shape);
  EXPECT_FALSE(open.loop);
  EXPECT_EQ(open.points[1], (Vec2{0, -0.5f}));

  const BodyDef& rail = s.bodies[2].def;
  EXPECT_TRUE(rail.is_kinematic);
  EXPECT_EQ(std::get<SegmentShape>(rail.shapes[0].shape).a, (Vec2{-1, 0}));
  EXPECT_EQ(std::get<SegmentShape>(rail.shapes[0].shape).b, (Vec2{1, 0.5f}));

  const BodyDef& pill = s.bodies[3].def;
  EXPECT_EQ(std::get<CapsuleShape>(pill.shapes[0].shape).half_length, 0.75f);
  EXPECT_EQ(std::get<CapsuleShape>(pill.shapes[0].shape).radius, 0.25f);
  EXPECT_EQ(pill.angle, 0.5f);
  EXPECT_EQ(pill.shapes[0].material.density, material_named("wood").density);
  EXPECT_EQ(pill.shapes[0].filter.category, 2u);
  EXPECT_EQ(pill.shapes[0].filter.mask, 5u);
  EXPECT_EQ(pill.shapes[0].filter.group, -3);
  EXPECT_FALSE(pill.shapes[0].sensor);
  EXPECT_EQ(pill.shapes.size(), 1u);  // its one shape, given on the body

  const BodyDef& zone = s.bodies[4].def;
  EXPECT_EQ(std::get<BoxShape>(zone.shapes[0].shape).half_extents, (Vec2{1, 2}));
  EXPECT_EQ(std::get<BoxShape>(zone.shapes[0].shape).radius, 0.125f);
  EXPECT_TRUE(zone.shapes[0].sensor);
  EXPECT_EQ(zone.shapes[0].filter.group, 7);
  EXPECT_EQ(std::get<PolygonShape>(s.bodies[5].def.shapes[0].shape).radius, 0.1f);
  EXPECT_EQ(s.bodies[5].name, "");
  EXPECT_FALSE(s.bodies[5].def.awake);  // created asleep
  EXPECT_TRUE(s.bodies[6].def.awake);

  const BodyDef& cart = s.bodies[6].def;
  EXPECT_EQ(cart.center, (Vec2{2, 6}));
  EXPECT_EQ(cart.angle, 0.25f);
  EXPECT_TRUE(cart.fixed_rotation);
  EXPECT_EQ(cart.angular_drag, 0.5f);
  ASSERT_EQ(cart.shapes.size(), 4u);
  const ShapeDef& deck = cart.shapes[0];
  EXPECT_EQ(std::get<BoxShape>(deck.shape).half_extents, (Vec2{1, 0.25f}));
  EXPECT_EQ(std::get<BoxShape>(deck.shape).radius, 0.0f);
  EXPECT_EQ(deck.offset, (Vec2{0, 0.5f}));
  EXPECT_EQ(deck.angle, 0.125f);
  EXPECT_EQ(deck.material.density, 2.0f);
  EXPECT_EQ(deck.material.friction, 0.9f);
  EXPECT_EQ(deck.material.restitution, 0.5f);
  EXPECT_EQ(deck.filter.category, 4u);
  EXPECT_EQ(deck.filter.mask, 3u);
  EXPECT_EQ(deck.filter.group, 2);
  EXPECT_TRUE(deck.sensor);
  const ShapeDef& wheel = cart.shapes[1];
  EXPECT_EQ(std::get<CapsuleShape>(wheel.shape).half_length, 0.0f);
  EXPECT_EQ(wheel.offset, (Vec2{-1, 0}));
  EXPECT_EQ(wheel.angle, 0.0f);
  EXPECT_EQ(wheel.material.density, Material{}.density);  // default material
  EXPECT_EQ(wheel.filter.category, 1u);
  EXPECT_EQ(wheel.filter.mask, 0xFFFFFFFFu);
  EXPECT_EQ(wheel.filter.group, 0);
  EXPECT_FALSE(wheel.sensor);
  EXPECT_EQ(cart.shapes[2].material.density, material_named("metal").density);
  EXPECT_EQ(std::get<PolygonShape>(cart.shapes[3].shape).radius, 0.05f);

  const BodyDef& frame = s.bodies[7].def;
  ASSERT_EQ(frame.shapes.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<SegmentShape>(frame.shapes[0].shape));
  EXPECT_EQ(std::get<ChainShape>(frame.shapes[1].shape).points.size(), 3u);
}

TEST(SceneV2, AVersion1FileReadsTheSameAsVersion2) {
  // Version 2 only adds: a version-1 body means the same in a version-2 file.
  const std::string body =
      R"({"name": "crate", "shape": "polygon", "center": [1, 2], "vertices": [[0, 0], [1, 0],
          [0, 1]], "angle": 0.5, "velocity": [1, -1], "material": "wood", "category": 6,
          "mask": 9, "bullet": true, "linear_drag": 0.25, "gravity_scale": 2, "soft": 0.001})";
  const Scene v1 = parse_scene(R"({"version": 1, "bodies": [)" + body + "]}", "v1.json");
  const Scene v2 = parse_scene(R"({"version": 2, "bodies": [)" + body + "]}", "v2.json");
  expect_same(v1, v2);
  EXPECT_EQ(v2.bodies[0].def.shapes[0].filter.group, 0);
  EXPECT_FALSE(v2.bodies[0].def.shapes[0].sensor);
}

TEST(SceneV2, ChainsHoldUpTo100000Points) {
  auto chain = [](int n, bool loop) {
    std::string points;
    for (int i = 0; i < n; ++i)
      points += (i ? ", [" : "[") + std::to_string(i) + ", " + std::to_string(i % 7) + "]";
    return R"({"version": 2, "bodies": [{"shape": "chain", "center": [0, 0], "static": true,
             "loop": )" +
           std::string(loop ? "true" : "false") + R"(, "points": [)" + points + "]}]}";
  };
  const Scene big = parse_scene(chain(kMaxChainPoints, false), "big.json");
  const auto& points = std::get<ChainShape>(big.bodies[0].def.shapes[0].shape).points;
  ASSERT_EQ(points.size(), std::size_t(kMaxChainPoints));
  EXPECT_EQ(points.back(), (Vec2{kMaxChainPoints - 1.0f, float((kMaxChainPoints - 1) % 7)}));
  EXPECT_EQ(test::error_of([&] { parse_scene(chain(kMaxChainPoints + 1, false), "c.json"); }),
            "c.json: bodies[0].points: a chain has at most 100000 points, got 100001");
  // The fewest points: 2 open, 3 in a loop.
  EXPECT_EQ(
      std::get<ChainShape>(parse_scene(chain(2, false), "c.json").bodies[0].def.shapes[0].shape)
          .points.size(),
      2u);
  EXPECT_EQ(
      std::get<ChainShape>(parse_scene(chain(3, true), "c.json").bodies[0].def.shapes[0].shape)
          .points.size(),
      3u);
}

TEST(SceneV2, SixtyFourShapesPerBody) {
  std::string items;
  for (int i = 0; i < kMaxShapesPerBody; ++i)
    items += std::string(i ? ", " : "") + R"({"shape": "circle", "radius": 0.25, "offset": [)" +
             std::to_string(i) + ", 0]}";
  const Scene s = parse_scene(
      R"({"version": 2, "bodies": [{"center": [0, 0], "shapes": [)" + items + "]}]}", "c.json");
  ASSERT_EQ(s.bodies[0].def.shapes.size(), std::size_t(kMaxShapesPerBody));
  EXPECT_EQ(s.bodies[0].def.shapes[63].offset, (Vec2{63, 0}));
}

TEST(SceneV2, SegmentsTakeStaticAndKinematicBodiesChainsStaticOnes) {
  const char* segment = R"("shape": "segment", "center": [0, 0], "points": [[0, 0], [1, 0]])";
  for (const char* type : {R"("static": true)", R"("kinematic": true)"}) {
    const Scene s = parse_scene(
        std::string(R"({"version": 2, "bodies": [{)") + segment + ", " + type + "}]}", "s.json");
    EXPECT_TRUE(std::holds_alternative<SegmentShape>(s.bodies[0].def.shapes[0].shape)) << type;
  }
}

TEST(SceneV2, ADynamicCompoundMayHoldShapesWithoutDensity) {
  // Mass comes from all shapes together: one massless shape (a sensor, say) is fine.
  const Scene s = parse_scene(R"({"version": 2, "bodies": [{"center": [0, 0], "shapes": [
      {"shape": "box", "half_extents": [1, 1]},
      {"shape": "circle", "radius": 2, "material": "static", "sensor": true}]}]})",
                              "c.json");
  EXPECT_EQ(s.bodies[0].def.shapes[1].material.density, 0.0f);
  EXPECT_TRUE(s.bodies[0].def.shapes[1].sensor);
}

// A scene made in code with every kind, compounds, filters and sensors, and awkward floats.
Scene every_kind() {
  Scene s;
  s.materials.emplace_back("rubber", Material{1.1f, 0.8f, 1.0f, 0.9f});
  auto add = [&](std::string name, BodyDef d) { s.bodies.push_back({std::move(name), d}); };
  BodyDef arena;
  arena.is_static = true;
  arena.shapes = {ShapeDef{ChainShape{{{-10, 0}, {10, 1.0f / 3.0f}, {10, 10}, {-10, 10}}, true}}};
  add("arena", arena);
  BodyDef terrain;
  terrain.is_static = true;
  terrain.center = {5e-8f, -5};
  terrain.shapes = {ShapeDef{ChainShape{{{-3, 0}, {0.1f, -0.7f}, {3, 2.7182817f}}, false}}};
  add("", terrain);
  BodyDef rail;
  rail.is_kinematic = true;
  rail.shapes = {ShapeDef{SegmentShape{{-1, 0}, {1, 1e-7f}}}};
  rail.velocity = {0.5f, 0};
  add("rail", rail);
  BodyDef pill;
  pill.shapes = {
      ShapeDef{.shape = CapsuleShape{0.7f, 0.3f},
               .material = material_named("wood"),
               .filter = {.category = 0x80000000u, .mask = 5, .group = -2147483647 - 1}}};
  pill.center = {0, 3};
  pill.angle = 3.14159265f;
  add("pill", pill);
  BodyDef zone;
  zone.is_static = true;
  zone.shapes = {ShapeDef{
      .shape = BoxShape{{1, 2}, 0.0625f}, .filter = {.group = 2147483647}, .sensor = true}};
  add("zone", zone);
  BodyDef wedge;
  wedge.shapes = {
      ShapeDef{PolygonShape{{{0.5f, 0}, {-0.5f, 0}, {0, 0.8f}}, 1.0f / 7.0f}}};  // clockwise
  wedge.center = {-4, 4};
  add("", wedge);
  BodyDef cart;
  cart.center = {2, 6};
  cart.angle = -0.1f;
  cart.velocity = {1, 2};
  cart.angular_velocity = 0.3f;
  cart.fixed_rotation = true;
  cart.lock_x = true;  // motion locks (extension)
  cart.angular_drag = 0.5f;
  cart.linear_drag = 0.1f;
  cart.gravity_scale = 0.5f;
  cart.bullet = true;
  ShapeDef deck;
  deck.shape = BoxShape{{1, 0.25f}, 0.01f};
  deck.offset = {0, 0.5f};
  deck.angle = 0.125f;
  deck.material = s.materials[0].second;
  deck.filter = {4, 3, 2};
  deck.sensor = true;
  ShapeDef wheel;
  wheel.shape = CapsuleShape{0, 0.5f};
  wheel.offset = {-1, 1.0f / 3.0f};
  wheel.material = Material{0.7f, 0.3f, 0.35f, 0.05f};  // in no table: gets a made-up name
  ShapeDef hub;
  hub.shape = CircleShape{0.5f};
  hub.offset = {1, 0};
  hub.filter.group = -5;
  hub.rolling_resistance = 0.125f;  // surface (extension)
  wheel.tangent_speed = -1.0f / 3.0f;
  ShapeDef fin;
  fin.shape = PolygonShape{{{0, 0}, {1, 0}, {0, 1}}, 0};
  fin.angle = -2;
  cart.shapes = {deck, wheel, hub, fin};
  add("cart", cart);
  BodyDef frame;
  frame.is_static = true;
  ShapeDef bar;
  bar.shape = SegmentShape{{0, 0}, {1, 0}};
  ShapeDef track;
  track.shape = ChainShape{{{0, 1}, {1, 1}, {2, 2}}, false};
  track.offset = {0, 1};
  track.material = material_named("metal");
  frame.shapes = {bar, track};
  add("frame", frame);
  return s;
}

TEST(SceneV2, EveryShapeKindSurvivesWriteAndReadBitForBit) {
  const Scene s = every_kind();
  const std::string json = scene_to_json(s);
  EXPECT_NE(json.find("\"version\": 2"), std::string::npos);
  const Scene back = parse_scene(json, "kinds.json");
  expect_same(s, back);
  // The item's unnamed material was named and saved with the scene's own.
  ASSERT_EQ(back.materials.size(), 2u);
  EXPECT_EQ(back.materials[1].first, "material_2");
  EXPECT_EQ(scene_to_json(back), json);  // deterministic and idempotent
}

TEST(SceneV2, TheContractExampleSurvivesReadWriteRead) {
  const Scene first = parse_scene(kEveryKind, "kinds.json");
  const Scene second = parse_scene(scene_to_json(first), "again.json");
  expect_same(first, second);
}

// The body's line in scene_to_json's output (bodies are one per line).
std::string body_line(const Scene& s, std::size_t index) {
  const std::string json = scene_to_json(s);
  std::size_t at = json.find("\"bodies\": [\n");
  for (std::size_t i = 0; i <= index; ++i) at = json.find("\n    ", at) + 5;
  return json.substr(at, json.find('\n', at) - at - (index + 1 < s.bodies.size() ? 1 : 0));
}

TEST(SceneV2, WritesExactlyTheContractsKeysWithDefaultsLeftOut) {
  Scene s;
  BodyDef plain;
  plain.center = {1, 2};
  ShapeDef ball;
  ball.shape = CircleShape{0.5f};
  ShapeDef pill;
  pill.shape = CapsuleShape{1, 0.25f};
  pill.offset = {0, 1};
  pill.angle = 0.5f;
  pill.material = material_named("wood");
  pill.filter = {2, 3, -1};
  pill.sensor = true;
  plain.shapes = {ball, pill};
  s.bodies.push_back({"c", plain});
  BodyDef chain;
  chain.is_static = true;
  chain.shapes = {ShapeDef{ChainShape{{{0, 0}, {1, 0}, {1, 1}}, true}}};
  s.bodies.push_back({"", chain});
  BodyDef capsule;
  capsule.shapes = {ShapeDef{.shape = CapsuleShape{0.5f, 0.25f}, .filter = {.group = 3}}};
  s.bodies.push_back({"", capsule});
  BodyDef rounded;
  rounded.shapes = {ShapeDef{.shape = BoxShape{{1, 1}, 0.5f}, .sensor = true}};
  rounded.is_static = true;
  s.bodies.push_back({"", rounded});
  EXPECT_EQ(body_line(s, 0),
            R"({"name": "c", "center": [1, 2], "shapes": [{"shape": "circle", "radius": 0.5}, )"
            R"({"shape": "capsule", "half_length": 1, "radius": 0.25, "offset": [0, 1], )"
            R"("angle": 0.5, "material": "wood", "category": 2, "mask": 3, "group": -1, )"
            R"("sensor": true}]})");
  EXPECT_EQ(body_line(s, 1),
            R"({"shape": "chain", "center": [0, 0], "points": [[0, 0], [1, 0], [1, 1]], )"
            R"("loop": true, "static": true})");
  EXPECT_EQ(body_line(s, 2),
            R"({"shape": "capsule", "center": [0, 0], "half_length": 0.5, "radius": 0.25, )"
            R"("group": 3})");
  EXPECT_EQ(body_line(s, 3),
            R"({"shape": "box", "center": [0, 0], "half_extents": [1, 1], "radius": 0.5, )"
            R"("static": true, "sensor": true})");
}

TEST(SceneV2, EachVersion2FeatureAloneSelectsVersion2) {
  auto version_of = [](const BodyDef& d) {
    Scene s;
    s.bodies.push_back({"", d});
    const std::string json = scene_to_json(s);
    return json.find("\"version\": 2") != std::string::npos   ? 2
           : json.find("\"version\": 1") != std::string::npos ? 1
                                                              : 0;
  };
  BodyDef d;
  d.shapes = {ShapeDef{BoxShape{}}};
  EXPECT_EQ(version_of(d), 1);  // a plain box
  d.shapes = {ShapeDef{CircleShape{1}}};
  EXPECT_EQ(version_of(d), 1);
  d.shapes[0].shape = PolygonShape{{{0, 0}, {1, 0}, {0, 1}}, 0};
  EXPECT_EQ(version_of(d), 1);
  d.shapes[0].shape = BoxShape{{1, 1}, 0.1f};
  EXPECT_EQ(version_of(d), 2);
  d.shapes[0].shape = PolygonShape{{{0, 0}, {1, 0}, {0, 1}}, 0.1f};
  EXPECT_EQ(version_of(d), 2);
  d.shapes[0].shape = CapsuleShape{};
  EXPECT_EQ(version_of(d), 2);
  BodyDef fixed;
  fixed.is_static = true;
  fixed.shapes = {ShapeDef{SegmentShape{}}};
  EXPECT_EQ(version_of(fixed), 2);
  fixed.shapes[0].shape = ChainShape{{{0, 0}, {1, 0}}, false};
  EXPECT_EQ(version_of(fixed), 2);
  BodyDef grouped;
  grouped.shapes = {ShapeDef{.filter = {.group = -1}}};
  EXPECT_EQ(version_of(grouped), 2);
  BodyDef sensor;
  sensor.shapes = {ShapeDef{.sensor = true}};
  EXPECT_EQ(version_of(sensor), 2);
  BodyDef compound;  // one placed shape is written as an item of `shapes`
  compound.shapes.push_back(ShapeDef{.offset = {1, 0}});
  EXPECT_EQ(version_of(compound), 2);
  compound.shapes = {ShapeDef{}, ShapeDef{.offset = {1, 0}}};
  EXPECT_EQ(version_of(compound), 2);
}

TEST(SceneV2, WrittenVersion1ReadsBackAsVersion1) {
  // A scene without version-2 features is written as version 1, which rejects version-2 keys:
  // nothing of version 2 may slip into it.
  Scene s;
  BodyDef box;
  box.shapes = {ShapeDef{.shape = BoxShape{{1, 2}}, .filter = {.category = 3}}};
  s.bodies.push_back({"box", box});
  const std::string json = scene_to_json(s);
  ASSERT_NE(json.find("\"version\": 1"), std::string::npos);
  for (const char* key : {"radius", "group", "sensor", "shapes", "offset"})
    EXPECT_EQ(json.find(key), std::string::npos) << key;
  expect_same(s, parse_scene(json, "v1.json"));
}

// A body's one shape sits on the body in the file when it can (unplaced, no item-only key), and
// is an item of `shapes` otherwise; either way it reads back as the same shapes[0]. A captured
// world writes its one-shape bodies the same way, with the shape's filter and material as the
// world has them now.
TEST(SceneV2, AOneShapeBodyIsWrittenOnTheBodyUnlessItNeedsAnItem) {
  Scene s;
  BodyDef plain;
  plain.shapes = {ShapeDef{CircleShape{0.5f}}};
  BodyDef placed;
  placed.shapes = {ShapeDef{.shape = CircleShape{0.5f}, .offset = {0.25f, 0}}};
  BodyDef belt;
  belt.is_static = true;
  belt.shapes = {ShapeDef{.shape = BoxShape{{2, 0.1f}}, .tangent_speed = 1.5f}};
  s.bodies = {{"plain", plain}, {"placed", placed}, {"belt", belt}};
  const std::string json = scene_to_json(s);
  EXPECT_NE(json.find(R"({"name": "plain", "shape": "circle", "center": [0, 0], "radius": 0.5})"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find(R"("shapes": [{"shape": "circle", "radius": 0.5, "offset": [0.25, 0]}])"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find(R"("tangent_speed": 1.5}])"), std::string::npos) << json;
  const Scene back = parse_scene(json, "one.json");
  ASSERT_EQ(back.bodies.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_EQ(back.bodies[i].def.shapes.size(), 1u);
    EXPECT_EQ(back.bodies[i].def.shapes[0].offset, s.bodies[i].def.shapes[0].offset);
    EXPECT_EQ(back.bodies[i].def.shapes[0].tangent_speed, s.bodies[i].def.shapes[0].tangent_speed);
  }

  SceneInstance inst = build_scene(back, 1);
  inst.world.set_filter(inst.bodies[0], 4, 6);
  inst.world.set_material(inst.bodies[0], material_named("rock"));
  const std::string captured = scene_to_json(capture_scene(inst));
  EXPECT_NE(captured.find(R"("shape": "circle", "center": [0, 0], "radius": 0.5, "material": )"
                          R"("rock", "category": 4, "mask": 6)"),
            std::string::npos)
      << captured;
}

}  // namespace
}  // namespace strut
