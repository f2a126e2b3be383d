// Saving and loading: Scene -> JSON -> Scene gives equal values (floats bit for bit), and a
// World saved mid-run loads back to the same state.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "strut/scene.hpp"
#include "strut/scenes.hpp"

namespace strut {
namespace {

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_same(const Material& a, const Material& b) {
  EXPECT_TRUE(same_bits(a.density, b.density));
  EXPECT_TRUE(same_bits(a.friction, b.friction));
  EXPECT_EQ(a.static_friction.has_value(), b.static_friction.has_value());
  EXPECT_TRUE(same_bits(static_friction_of(a), static_friction_of(b)));
  EXPECT_TRUE(same_bits(a.restitution, b.restitution));
  EXPECT_EQ(a.friction_mix, b.friction_mix);
  EXPECT_EQ(a.restitution_mix, b.restitution_mix);
}

void expect_same(Vec2 a, Vec2 b) {
  EXPECT_TRUE(same_bits(a.x, b.x)) << a.x << " vs " << b.x;
  EXPECT_TRUE(same_bits(a.y, b.y)) << a.y << " vs " << b.y;
}

void expect_same(const BodyDef& a, const BodyDef& b) {
  ASSERT_EQ(a.shapes[0].shape.index(), b.shapes[0].shape.index());
  if (const auto* box = std::get_if<BoxShape>(&a.shapes[0].shape)) {
    expect_same(box->half_extents, std::get<BoxShape>(b.shapes[0].shape).half_extents);
  }
  if (const auto* c = std::get_if<CircleShape>(&a.shapes[0].shape)) {
    EXPECT_TRUE(same_bits(c->radius, std::get<CircleShape>(b.shapes[0].shape).radius));
  }
  if (const auto* p = std::get_if<PolygonShape>(&a.shapes[0].shape)) {
    const auto& q = std::get<PolygonShape>(b.shapes[0].shape);
    ASSERT_EQ(p->vertices.size(), q.vertices.size());
    for (std::size_t i = 0; i < p->vertices.size(); ++i) expect_same(p->vertices[i], q.vertices[i]);
  }
  expect_same(a.center, b.center);
  EXPECT_TRUE(same_bits(a.angle, b.angle));
  expect_same(a.velocity, b.velocity);
  EXPECT_TRUE(same_bits(a.angular_velocity, b.angular_velocity));
  expect_same(a.shapes[0].material, b.shapes[0].material);
  EXPECT_EQ(a.is_static, b.is_static);
  EXPECT_EQ(a.is_kinematic, b.is_kinematic);
  EXPECT_TRUE(same_bits(a.gravity_scale, b.gravity_scale));
  EXPECT_TRUE(same_bits(a.linear_drag, b.linear_drag));
  EXPECT_TRUE(same_bits(a.angular_drag, b.angular_drag));
  EXPECT_EQ(a.fixed_rotation, b.fixed_rotation);
  EXPECT_EQ(a.lock_x, b.lock_x);
  EXPECT_EQ(a.lock_y, b.lock_y);
  EXPECT_EQ(a.awake, b.awake);
  EXPECT_EQ(a.shapes[0].filter.category, b.shapes[0].filter.category);
  EXPECT_EQ(a.shapes[0].filter.mask, b.shapes[0].filter.mask);
  EXPECT_EQ(a.bullet, b.bullet);
  EXPECT_TRUE(same_bits(a.soft, b.soft));
}

void expect_same(const Scene& a, const Scene& b) {
  EXPECT_EQ(a.description, b.description);
  expect_same(a.config.gravity, b.config.gravity);
  EXPECT_EQ(a.config.substeps, b.config.substeps);
  EXPECT_EQ(a.config.iterations, b.config.iterations);
  EXPECT_EQ(a.config.enable_sleep, b.config.enable_sleep);
  EXPECT_EQ(a.config.contact_cache, b.config.contact_cache);
  EXPECT_TRUE(same_bits(a.config.sleep_time, b.config.sleep_time));
  EXPECT_TRUE(same_bits(a.config.sleep_speed, b.config.sleep_speed));
  EXPECT_TRUE(same_bits(a.config.restitution_threshold, b.config.restitution_threshold));
  EXPECT_TRUE(same_bits(a.config.contact_slop, b.config.contact_slop));
  EXPECT_TRUE(same_bits(a.dt, b.dt));
  EXPECT_EQ(a.steps, b.steps);
  ASSERT_EQ(a.bodies.size(), b.bodies.size());
  for (std::size_t i = 0; i < a.bodies.size(); ++i) {
    SCOPED_TRACE("body " + std::to_string(i));
    EXPECT_EQ(a.bodies[i].name, b.bodies[i].name);
    expect_same(a.bodies[i].def, b.bodies[i].def);
  }
  ASSERT_EQ(a.joints.size(), b.joints.size());
  for (std::size_t i = 0; i < a.joints.size(); ++i) {
    SCOPED_TRACE("joint " + std::to_string(i));
    EXPECT_EQ(a.joints[i].name, b.joints[i].name);
    EXPECT_EQ(a.joints[i].a, b.joints[i].a);
    EXPECT_EQ(a.joints[i].b, b.joints[i].b);
    // Every field of the definition, its type included (the values are not NaN or -0).
    EXPECT_TRUE(a.joints[i].def == b.joints[i].def);
  }
}

// A scene that uses every key of the format with awkward values.
Scene everything() {
  Scene s;
  s.description = "quotes \" backslash \\ newline \n tab \t unicode \xC3\xA9";
  s.config.gravity = {0.1f, -9.81f};
  s.config.substeps = 7;
  s.config.iterations = 2;
  s.config.enable_sleep = false;
  s.config.contact_cache = false;
  s.config.sleep_time = 0.3f;
  s.config.sleep_speed = 0.01f;
  s.config.restitution_threshold = 0.5f;
  s.config.contact_slop = 0.002f;
  s.dt = 1.0f / 120.0f;
  s.steps = 123;
  s.materials.emplace_back("rubber", Material{1.1f, 0.8f, 1.0f, 0.9f});
  SceneBody ground;
  ground.name = "ground";
  ground.def.shapes = {ShapeDef{BoxShape{{50, 1}}}};
  ground.def.center = {0, -1};
  ground.def.is_static = true;
  s.bodies.push_back(ground);
  SceneBody wedge;
  wedge.def.shapes = {
      ShapeDef{.shape = PolygonShape{{{0.5f, 0}, {-0.5f, 0}, {0, 0.8f}}},  // clockwise
               .material = material_named("wood")}};
  wedge.def.center = {3, 2};
  wedge.def.angle = 0.1f;
  wedge.def.soft = 1e-6f;
  wedge.def.linear_drag = 0.25f;
  s.bodies.push_back(wedge);
  SceneBody ball;
  ball.name = "ball \"one\"";
  ball.def.shapes = {ShapeDef{.shape = CircleShape{0.25f},
                              .material = s.materials[0].second,
                              .filter = {.category = 0x80000000u, .mask = 5}}};
  ball.def.center = {1.0f / 3.0f, 5e-8f};
  ball.def.velocity = {3.14159265f, -2.7182818f};
  ball.def.angular_velocity = -1e-7f;
  ball.def.bullet = true;
  ball.def.gravity_scale = -0.5f;
  s.bodies.push_back(ball);
  SceneBody motor;
  motor.name = "motor";
  motor.def.shapes = {
      ShapeDef{.shape = BoxShape{{2, 0.1f}},
               .material = Material{0.7f, 0.3f, 0.35f, 0.05f}}};  // unnamed: gets a made-up name
  motor.def.center = {-3, 1};
  motor.def.is_kinematic = true;
  motor.def.angular_velocity = 2;
  s.bodies.push_back(motor);
  DistanceJointDef rope;
  rope.anchor_a = {0, 1};
  rope.anchor_b = {1.0f / 3.0f, 5e-8f};
  rope.min_length = 0.5f;
  rope.max_length = 4;
  rope.compliance = 1e-4f;
  rope.collide = true;
  s.joints.push_back({"", "ground", "ball \"one\"", rope});
  DistanceJointDef fixed = rope;
  fixed.min_length = fixed.max_length = -1;
  fixed.length = 2.5f;
  fixed.collide = false;
  s.joints.push_back({"", "ground", "ball \"one\"", fixed});
  s.joints.push_back({"", "motor", "ball \"one\"", RevoluteJointDef{.anchor = {-1, 1}}});
  s.joints.push_back({"", "motor", "ball \"one\"", WeldJointDef{.anchor = {-1, 1}}});
  return s;
}

// Every joint type of version 2 with every key it has, set away from its default.
Scene every_joint() {
  Scene s = everything();
  s.joints.clear();
  s.bodies[2].def.fixed_rotation = true;  // version 2's body options
  s.bodies[2].def.angular_drag = 0.75f;
  s.bodies[2].def.lock_y = true;  // motion locks (extension)
  const std::string a = "ground", b = "ball \"one\"";
  DistanceJointDef spring{.anchor_a = {0, 1}, .anchor_b = {0.5f, 0.25f}, .length = 1.5f};
  spring.min_length = 0.5f, spring.max_length = 3;
  spring.spring = {true, 2.5f, 0.3f};
  s.joints.push_back({"spring", a, b, spring});
  RevoluteJointDef hinge{.anchor = {-1, 1}};
  hinge.limit = {true, -0.5f, 0.25f};
  hinge.motor = {true, 1.5f, 20};
  hinge.spring = {true, 3, 0.1f};
  hinge.collide = true;
  hinge.force_threshold = 150.5f;  // joint events (extension)
  s.joints.push_back({"hinge", "motor", b, hinge});
  PrismaticJointDef slider{.anchor = {0, 2}, .axis = {0.6f, 0.8f}};
  slider.limit = {true, -1, 2};
  slider.motor = {true, -0.5f, 100};
  slider.spring = {true, 1, 0.5f};
  s.joints.push_back({"slider", a, b, slider});
  WheelJointDef wheel{.anchor = {1, 1}, .axis = {0, 1}};
  wheel.spring = {true, 6, 0.4f};
  wheel.limit = {true, -0.2f, 0.1f};
  wheel.motor = {true, 10, 5};
  s.joints.push_back({"", a, b, wheel});
  MouseJointDef mouse{.target = {2, 3}, .anchor = Vec2{0.25f, 0}, .max_force = 50};
  mouse.hertz = 2, mouse.damping_ratio = 0.9f;
  s.joints.push_back({"mouse", "", b, mouse});
  MotorJointDef motor{
      .linear_offset = {1, -1}, .angular_offset = 0.5f, .max_force = 10, .max_torque = 3};
  motor.force_threshold = 0;
  motor.torque_threshold = 2.25f;
  s.joints.push_back({"drive", a, b, motor});
  WeldJointDef soft{.anchor = {0, 0}, .linear_hertz = 5, .angular_hertz = 2, .damping_ratio = 0.2f};
  s.joints.push_back({"soft weld", a, b, soft});
  return s;
}

TEST(SceneRoundTrip, EveryJointTypeSurvivesWriteAndReadAsVersion2) {
  const Scene s = every_joint();
  const std::string json = scene_to_json(s);
  EXPECT_NE(json.find("\"version\": 2"), std::string::npos);
  expect_same(s, parse_scene(json, "joints.json"));
}

TEST(SceneRoundTrip, PlainJointsStayVersion1) {
  EXPECT_NE(scene_to_json(everything()).find("\"version\": 1"), std::string::npos);
}

// A joint event threshold is a version 2 key: a distance joint with one selects version 2, and
// an infinite one (the default) is left out.
TEST(SceneRoundTrip, JointThresholdsSelectVersion2AndInfinityIsLeftOut) {
  Scene s = everything();
  const std::string plain = scene_to_json(s);
  EXPECT_EQ(plain.find("force_threshold"), std::string::npos);
  EXPECT_EQ(plain.find("torque_threshold"), std::string::npos);
  std::get<DistanceJointDef>(s.joints[0].def).torque_threshold = 7.0f;
  const std::string json = scene_to_json(s);
  EXPECT_NE(json.find("\"version\": 2"), std::string::npos);
  EXPECT_NE(json.find("\"torque_threshold\": 7"), std::string::npos);
  EXPECT_EQ(json.find("force_threshold"), std::string::npos);
  expect_same(s, parse_scene(json, "thresholds.json"));
}

TEST(SceneRoundTrip, EveryKeySurvivesWriteAndRead) {
  const Scene s = everything();
  const std::string json = scene_to_json(s);
  const Scene back = parse_scene(json, "everything.json");
  expect_same(s, back);
  // The unnamed material was given a name and is written with the scene's own.
  ASSERT_EQ(back.materials.size(), 2u);
  EXPECT_EQ(back.materials[0].first, "rubber");
  EXPECT_EQ(back.materials[1].first, "material_2");
  EXPECT_TRUE(scene_to_json(back) == json);  // writing is deterministic and idempotent
}

TEST(SceneRoundTrip, FloatsAreWrittenExactly) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> coord(-1000.0f, 1000.0f);
  // Exponents as wide as the magnitude limits allow (strut/limits.hpp): radii from 2^-8 (>= 1 mm
  // after the factor of 0.5..1.5) to 2^16 m, coordinates up to 1000 x 2^2 m = 4000 m.
  std::uniform_int_distribution<int> size_exponent(-8, 16), coord_exponent(-30, 2);
  Scene s;
  for (int i = 0; i < 2000; ++i) {
    SceneBody b;
    b.def.shapes = {
        ShapeDef{CircleShape{std::ldexp(1.0f + coord(rng) / 2000.0f, size_exponent(rng))}}};
    b.def.center = {coord(rng), std::ldexp(coord(rng), coord_exponent(rng))};
    b.def.angle = std::nextafter(coord(rng), 0.0f);
    s.bodies.push_back(b);
  }
  expect_same(s, parse_scene(scene_to_json(s), "floats.json"));
}

TEST(SceneRoundTrip, BuiltInScenesSurviveWriteAndRead) {
  for (const std::string& name : builtin_scene_names()) {
    SCOPED_TRACE(name);
    const Scene s = builtin_scene(name, 0.05f);
    const std::string json = scene_to_json(s);
    const Scene back = parse_scene(json, name + ".json");
    expect_same(s, back);
    EXPECT_TRUE(scene_to_json(back) == json);
  }
}

std::uint64_t hash_after(SceneInstance& inst, int steps) {
  for (int i = 0; i < steps; ++i) inst.step();
  return inst.world.state_hash();
}

TEST(SceneRoundTrip, SavedAtTheStartRunsIdentically) {
  const Scene s = builtin_scene("many_pyramids", 0.01f);
  SceneInstance original = build_scene(s, 1);
  SceneInstance reloaded =
      build_scene(parse_scene(scene_to_json(capture_scene(original)), "saved.json"), 1);
  EXPECT_EQ(reloaded.world.body_count(), original.world.body_count());
  EXPECT_EQ(hash_after(reloaded, 30), hash_after(original, 30));
}

// Bodies falling, bouncing, spinning, on a rope and driven: the state after 40 steps.
Scene busy_scene() {
  Scene s = parse_scene(R"({"bodies": [
      {"name": "ground", "shape": "box", "center": [0, -1], "half_extents": [30, 1], "static": true},
      {"name": "motor", "shape": "box", "center": [8, 1], "half_extents": [2, 0.1],
       "kinematic": true, "angular_velocity": 2},
      {"name": "anchor", "shape": "circle", "center": [-8, 8], "radius": 0.2, "static": true},
      {"name": "bob", "shape": "polygon", "center": [-5, 8], "vertices": [[0, 0], [0.6, 0], [0.3, 0.5]],
       "material": "bouncy_ball"}],
    "joints": [{"type": "distance", "a": "anchor", "b": "bob", "anchor_a": [-8, 8],
       "anchor_b": [-5, 8], "min_length": 0, "max_length": 3.2}]})",
                        "busy.json");
  for (int i = 0; i < 20; ++i) {
    SceneBody b;
    b.def.shapes = {
        ShapeDef{.shape = i % 2 ? Shape{BoxShape{{0.3f, 0.2f}}} : Shape{CircleShape{0.25f}},
                 .material = material_named(i % 3 ? "wood" : "rock")}};
    b.def.center = {-4.0f + 0.7f * i, 0.5f + 0.3f * i};
    b.def.angle = 0.2f * i;
    b.def.angular_velocity = 1.0f - 0.1f * i;
    s.bodies.push_back(b);
  }
  return s;
}

void expect_close_states(const SceneInstance& a, const SceneInstance& b, float position_tolerance,
                         float velocity_tolerance) {
  ASSERT_EQ(a.bodies.size(), b.bodies.size());
  for (std::size_t i = 0; i < a.bodies.size(); ++i) {
    SCOPED_TRACE("body " + std::to_string(i));
    EXPECT_EQ(a.names[i], b.names[i]);
    const Transform ta = a.world.transform(a.bodies[i]);
    const Transform tb = b.world.transform(b.bodies[i]);
    EXPECT_NEAR(ta.position.x, tb.position.x, position_tolerance);
    EXPECT_NEAR(ta.position.y, tb.position.y, position_tolerance);
    EXPECT_NEAR(std::remainder(ta.angle - tb.angle, 6.2831853f), 0.0f, position_tolerance);
    const Vec2 va = a.world.linear_velocity(a.bodies[i]);
    const Vec2 vb = b.world.linear_velocity(b.bodies[i]);
    EXPECT_NEAR(va.x, vb.x, velocity_tolerance);
    EXPECT_NEAR(va.y, vb.y, velocity_tolerance);
    EXPECT_NEAR(a.world.angular_velocity(a.bodies[i]), b.world.angular_velocity(b.bodies[i]),
                velocity_tolerance);
  }
}

TEST(SceneRoundTrip, SavedMidRunReloadsTheSameState) {
  SceneInstance original = build_scene(busy_scene(), 1);
  hash_after(original, 40);
  const Scene saved = capture_scene(original);
  EXPECT_EQ(saved.bodies.size(), original.bodies.size());
  EXPECT_EQ(saved.joints.size(), 1u);
  SceneInstance reloaded = build_scene(parse_scene(scene_to_json(saved), "saved.json"), 1);
  ASSERT_EQ(reloaded.joints.size(), original.joints.size());
  // A BodyDef holds the pose as (centre, angle) and the velocity, not the solver's exact
  // rotation and previous pose, so the reload agrees to rounding, not bit for bit.
  expect_close_states(original, reloaded, 1e-5f, 1e-3f);
  hash_after(original, 20);
  hash_after(reloaded, 20);
  expect_close_states(original, reloaded, 1e-3f, 2e-2f);
}

TEST(SceneRoundTrip, CaptureNamesUnnamedJointBodies) {
  Scene s;
  for (int i = 0; i < 2; ++i) {
    SceneBody b;
    b.def.shapes = {ShapeDef{CircleShape{0.5f}}};
    b.def.center = {float(2 * i), 0};
    s.bodies.push_back(b);
  }
  s.bodies[0].name = "body1";  // the name capture would pick for body 1 is taken
  SceneInstance inst = build_scene(s, 1);
  DistanceJointDef j;
  j.a = inst.bodies[0];
  j.b = inst.bodies[1];
  j.anchor_a = {0, 0};
  j.anchor_b = {2, 0};
  inst.create_joint(j);
  const Scene saved = capture_scene(inst);
  ASSERT_EQ(saved.joints.size(), 1u);
  EXPECT_EQ(saved.joints[0].a, "body1");
  EXPECT_EQ(saved.joints[0].b, "body1_");
  EXPECT_NO_THROW(parse_scene(scene_to_json(saved), "named.json"));
}

TEST(SceneRoundTrip, BuildReportsWorldRejectionsAsSceneErrors) {
  Scene s;
  s.source = "code";
  SceneBody b;
  b.def.shapes = {ShapeDef{CircleShape{-1.0f}}};  // made in code, never validated by the loader
  s.bodies.push_back(b);
  try {
    build_scene(s, 1);
    FAIL() << "built a circle of negative radius";
  } catch (const SceneError& e) {
    EXPECT_EQ(e.file(), "code");
    EXPECT_EQ(e.path(), "bodies[0]");
  }
}

}  // namespace
}  // namespace strut
