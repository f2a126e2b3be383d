// Scene loading: the contract's example loads to the right values, and every bad input of the
// contract is rejected with "<file>: <path>: <problem>".
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "strut/scene.hpp"
#include "tests/scene_error_cases.hpp"

namespace strut {
namespace {

// The example of the contract (SCENE_FORMAT.md), verbatim.
constexpr const char* kContractExample = R"({
  "format": "strut-scene",
  "version": 1,
  "description": "A crate, a wedge and a ball on a rope",
  "world": { "gravity": [0, -10], "dt": 0.016666667, "substeps": 4, "iterations": 1 },
  "materials": {
    "rubber": { "density": 1.0, "friction": 0.8, "static_friction": 1.0, "restitution": 0.9 }
  },
  "bodies": [
    { "name": "ground", "shape": "box", "center": [0, -1], "half_extents": [50, 1], "static": true },
    { "name": "crate", "shape": "box", "center": [0, 0.5], "half_extents": [0.5, 0.5],
      "angle": 0.0, "material": "wood" },
    { "shape": "polygon", "center": [3, 2], "vertices": [[-0.5, 0], [0.5, 0], [0, 0.8]] },
    { "name": "ball", "shape": "circle", "center": [0, 5], "radius": 0.25, "material": "bouncy_ball",
      "velocity": [3, 0], "bullet": true, "category": 2, "mask": 5 }
  ],
  "joints": [
    { "type": "distance", "a": "crate", "b": "ball", "anchor_a": [0, 1], "anchor_b": [0, 5],
      "min_length": 0.0, "max_length": 4.0 }
  ]
})";

TEST(SceneParse, ContractExampleLoadsWithItsValues) {
  const Scene s = parse_scene(kContractExample, "example.json");
  EXPECT_EQ(s.source, "example.json");
  EXPECT_EQ(s.description, "A crate, a wedge and a ball on a rope");
  EXPECT_EQ(s.config.gravity, (Vec2{0, -10}));
  EXPECT_EQ(s.dt, 0.016666667f);
  EXPECT_EQ(s.config.substeps, 4);
  EXPECT_EQ(s.config.iterations, 1);
  EXPECT_EQ(s.steps, 600);  // 10 s at 60 Hz when the file does not say
  ASSERT_EQ(s.materials.size(), 1u);
  EXPECT_EQ(s.materials[0].first, "rubber");
  EXPECT_EQ(s.materials[0].second.friction, 0.8f);
  EXPECT_EQ(s.materials[0].second.static_friction, 1.0f);
  EXPECT_EQ(s.materials[0].second.restitution, 0.9f);

  ASSERT_EQ(s.bodies.size(), 4u);
  const SceneBody& ground = s.bodies[0];
  EXPECT_EQ(ground.name, "ground");
  EXPECT_TRUE(ground.def.is_static);
  EXPECT_EQ(std::get<BoxShape>(ground.def.shapes[0].shape).half_extents, (Vec2{50, 1}));
  EXPECT_EQ(ground.def.center, (Vec2{0, -1}));
  const SceneBody& crate = s.bodies[1];
  EXPECT_EQ(crate.def.shapes[0].material.density, material_named("wood").density);
  EXPECT_EQ(crate.def.shapes[0].material.restitution, material_named("wood").restitution);
  EXPECT_FALSE(crate.def.is_static);
  const SceneBody& wedge = s.bodies[2];
  EXPECT_TRUE(wedge.name.empty());
  EXPECT_EQ(std::get<PolygonShape>(wedge.def.shapes[0].shape).vertices.size(), 3u);
  EXPECT_EQ(wedge.def.shapes[0].material.density, 1.0f);  // `default`
  const SceneBody& ball = s.bodies[3];
  EXPECT_EQ(std::get<CircleShape>(ball.def.shapes[0].shape).radius, 0.25f);
  EXPECT_EQ(ball.def.velocity, (Vec2{3, 0}));
  EXPECT_TRUE(ball.def.bullet);
  EXPECT_EQ(ball.def.shapes[0].filter.category, 2u);
  EXPECT_EQ(ball.def.shapes[0].filter.mask, 5u);
  EXPECT_EQ(ball.def.shapes[0].material.restitution, material_named("bouncy_ball").restitution);

  ASSERT_EQ(s.joints.size(), 1u);
  const SceneJoint& rope = s.joints[0];
  EXPECT_EQ(rope.a, "crate");
  EXPECT_EQ(rope.b, "ball");
  ASSERT_EQ(type_of(rope.def), JointType::Distance);
  const auto& d = std::get<DistanceJointDef>(rope.def);
  EXPECT_EQ(d.anchor_a, (Vec2{0, 1}));
  EXPECT_EQ(d.anchor_b, (Vec2{0, 5}));
  EXPECT_EQ(d.length, -1.0f);  // "their distance"
  EXPECT_EQ(d.min_length, 0.0f);
  EXPECT_EQ(d.max_length, 4.0f);
  EXPECT_FALSE(d.collide);
  EXPECT_FALSE(s.make_step_hook);
}

TEST(SceneParse, DefaultsOfAnEmptyScene) {
  const Scene s = parse_scene("{}", "empty.json");
  const WorldConfig defaults;
  EXPECT_EQ(s.config.gravity, defaults.gravity);
  EXPECT_EQ(s.config.substeps, defaults.substeps);
  EXPECT_EQ(s.config.enable_sleep, defaults.enable_sleep);
  EXPECT_EQ(s.dt, 1.0f / 60.0f);
  EXPECT_EQ(s.steps, 600);
  EXPECT_TRUE(s.bodies.empty());
  EXPECT_TRUE(s.joints.empty());
}

TEST(SceneParse, DefaultStepsAreTenSecondsOfTheFilesStep) {
  EXPECT_EQ(parse_scene(R"({"world": {"dt": 0.01}})", "a.json").steps, 1000);
  EXPECT_EQ(parse_scene(R"({"world": {"dt": 0.01, "steps": 7}})", "a.json").steps, 7);
}

TEST(SceneParse, MaterialDefaultsFollowTheDefaultMaterial) {
  const Scene s = parse_scene(R"({"materials": {"ice": {"friction": 0.05}}})", "m.json");
  ASSERT_EQ(s.materials.size(), 1u);
  const Material& ice = s.materials[0].second;
  EXPECT_EQ(ice.density, 1.0f);
  EXPECT_EQ(ice.friction, 0.05f);
  EXPECT_EQ(static_friction_of(ice), 0.05f);  // equal to friction unless given
  EXPECT_EQ(ice.restitution, 0.0f);
}

TEST(SceneParse, EveryBuiltInMaterialName) {
  for (const std::string& name : builtin_material_names()) {
    const std::string json = R"({"bodies": [{"shape": "circle", "center": [0, 0], "radius": 1,
        "static": true, "material": ")" +
                             name + "\"}]}";
    const Scene s = parse_scene(json, "m.json");
    EXPECT_EQ(s.bodies[0].def.shapes[0].material.density, material_named(name).density) << name;
    EXPECT_EQ(s.bodies[0].def.shapes[0].material.restitution, material_named(name).restitution)
        << name;
  }
}

TEST(SceneParse, PolygonsInEitherWinding) {
  for (const char* vertices : {"[[-1, 0], [1, 0], [0, 1]]", "[[0, 1], [1, 0], [-1, 0]]"}) {
    const Scene s = parse_scene(std::string(R"({"bodies": [{"shape": "polygon", "center": [0, 0],
        "vertices": )") + vertices + "}]}",
                                "p.json");
    EXPECT_EQ(std::get<PolygonShape>(s.bodies[0].def.shapes[0].shape).vertices.size(), 3u);
  }
}

TEST(SceneParse, ExtensionsKinematicSleepAndJointCompliance) {
  const Scene s = parse_scene(R"({
    "world": {"sleep": false, "sleep_time": 1.5, "contact_slop": 0.01, "steps": 50},
    "bodies": [
      {"name": "motor", "shape": "box", "center": [0, 0], "half_extents": [2, 0.1],
       "kinematic": true, "angular_velocity": 3, "linear_drag": 0.5, "gravity_scale": 0},
      {"name": "bob", "shape": "circle", "center": [0, 3], "radius": 0.2}],
    "joints": [
      {"type": "distance", "a": "motor", "b": "bob", "anchor_a": [0, 0], "anchor_b": [0, 3],
       "length": 2.5, "compliance": 0.001, "collide": true},
      {"type": "weld", "a": "motor", "b": "bob"}]})",
                              "x.json");
  EXPECT_FALSE(s.config.enable_sleep);
  EXPECT_EQ(s.config.sleep_time, 1.5f);
  EXPECT_EQ(s.config.contact_slop, 0.01f);
  EXPECT_EQ(s.steps, 50);
  EXPECT_TRUE(s.bodies[0].def.is_kinematic);
  EXPECT_EQ(s.bodies[0].def.angular_velocity, 3.0f);
  EXPECT_EQ(s.bodies[0].def.linear_drag, 0.5f);
  EXPECT_EQ(s.bodies[0].def.gravity_scale, 0.0f);
  const auto& d = std::get<DistanceJointDef>(s.joints[0].def);
  EXPECT_EQ(d.length, 2.5f);
  EXPECT_EQ(d.compliance, 0.001f);
  EXPECT_TRUE(d.collide);
  ASSERT_EQ(type_of(s.joints[1].def), JointType::Weld);
  // A weld without anchor: a's centre.
  EXPECT_EQ(std::get<WeldJointDef>(s.joints[1].def).anchor, (Vec2{0, 0}));
}

TEST(SceneParse, ZeroDensityIsFineOnStaticAndKinematicBodies) {
  EXPECT_NO_THROW(parse_scene(R"({"bodies": [
      {"shape": "box", "center": [0, 0], "half_extents": [1, 1], "static": true, "material": "static"},
      {"shape": "box", "center": [0, 5], "half_extents": [1, 1], "kinematic": true, "material": "static"}]})",
                              "z.json"));
}

TEST(SceneParse, LayerBitsUseAll32Bits) {
  const Scene s = parse_scene(R"({"bodies": [{"shape": "circle", "center": [0, 0], "radius": 1,
      "category": 2147483648, "mask": 4294967295}]})",
                              "l.json");
  EXPECT_EQ(s.bodies[0].def.shapes[0].filter.category, 0x80000000u);
  EXPECT_EQ(s.bodies[0].def.shapes[0].filter.mask, 0xFFFFFFFFu);
}

TEST(SceneParse, ErrorsAreOneLineWithFilePathAndProblem) {
  for (const test::SceneErrorCase& c : test::scene_error_cases()) {
    SCOPED_TRACE(c.name);
    try {
      parse_scene(c.json, "pile.json");
      ADD_FAILURE() << "accepted";
    } catch (const SceneError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      EXPECT_EQ(e.file(), "pile.json");
      if (c.prefix)
        EXPECT_EQ(what.rfind("pile.json: " + c.message, 0), 0u) << what;
      else
        EXPECT_EQ(what, "pile.json: " + c.message);
      EXPECT_EQ(what, e.file() + ": " + e.path() + ": " + e.problem());
    }
  }
}

TEST(SceneParse, SceneErrorIsAStrutError) {
  EXPECT_THROW(parse_scene("{\"bodies\": 1}", "a.json"), Error);
}

TEST(SceneParse, MissingFileNamesTheFile) {
  try {
    load_scene_file("/nonexistent/dir/pile.json");
    FAIL() << "loaded a missing file";
  } catch (const SceneError& e) {
    EXPECT_EQ(std::string(e.what()),
              "/nonexistent/dir/pile.json: cannot open the file: No such file or directory");
  }
}

TEST(SceneParse, LoadSceneFileUsesThePathAsLabel) {
  const std::string path = ::testing::TempDir() + "strut_scene_parse_label.json";
  std::ofstream(path) << R"({"bodies": [{"shape": "circle", "center": [0, 0], "radius": -1}]})";
  try {
    load_scene_file(path);
    FAIL() << "accepted";
  } catch (const SceneError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": bodies[0].radius: must be positive, got -1");
  }
}

}  // namespace
}  // namespace strut
