// Scene format version 3's material mixing rules and contact-callback flags: written only when
// a scene uses them (then as version 3), read back to equal values, and loaded into a world that
// has them. The rejections are in scene_error_cases.hpp.
#include <gtest/gtest.h>

#include <string>

#include "strut/scene.hpp"
#include "strut/world.hpp"

namespace strut {
namespace {

// A slope of friction 0.2 (rule Min, named "ice") with a box of friction 0.8 (rule Max,
// unnamed: it gets a made-up name) on it, a one-way platform and a filtered floor.
Scene rules_and_flags() {
  Scene s;
  s.materials.emplace_back("ice", Material{.friction = 0.2f,
                                           .friction_mix = MixRule::Min,
                                           .restitution_mix = MixRule::Multiply});
  BodyDef slope;
  slope.is_static = true;
  slope.shapes = {ShapeDef{.shape = BoxShape{{10, 1}}, .material = s.materials[0].second}};
  slope.center = {0, -1};
  s.bodies.push_back({"slope", slope});
  BodyDef box;
  box.center = {0, 0.5f};
  box.shapes = {ShapeDef{.material = Material{.friction = 0.8f,
                                              .restitution = 0.25f,
                                              .friction_mix = MixRule::Max,
                                              .restitution_mix = MixRule::Average}}};
  s.bodies.push_back({"box", box});
  BodyDef platform;
  platform.is_static = true;
  platform.center = {0, 3};
  platform.shapes = {
      ShapeDef{.shape = BoxShape{{2, 0.1f}}, .pre_solve = true},
      ShapeDef{.shape = BoxShape{{0.1f, 1}}, .offset = {3, 0}, .custom_filter = true}};
  s.bodies.push_back({"platform", platform});
  return s;
}

TEST(SceneV3, RulesAndFlagsAreWrittenAsVersion3AndReadBack) {
  const Scene s = rules_and_flags();
  const std::string json = scene_to_json(s);
  EXPECT_NE(json.find("\"version\": 3"), std::string::npos);
  EXPECT_NE(json.find(R"("ice": {"density": 1, "friction": 0.2, "restitution": 0, )"
                      R"("friction_mix": "min", "restitution_mix": "multiply"})"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find(R"("friction_mix": "max", "restitution_mix": "average")"), std::string::npos);
  EXPECT_NE(json.find(R"("pre_solve": true)"), std::string::npos);
  EXPECT_NE(json.find(R"("custom_filter": true)"), std::string::npos);
  const Scene back = parse_scene(json, "rules.json");
  ASSERT_EQ(back.bodies.size(), 3u);
  EXPECT_EQ(back.bodies[0].def.shapes[0].material, s.bodies[0].def.shapes[0].material);
  EXPECT_EQ(back.bodies[1].def.shapes[0].material, s.bodies[1].def.shapes[0].material);
  ASSERT_EQ(back.bodies[2].def.shapes.size(), 2u);
  EXPECT_TRUE(back.bodies[2].def.shapes[0].pre_solve);
  EXPECT_FALSE(back.bodies[2].def.shapes[0].custom_filter);
  EXPECT_TRUE(back.bodies[2].def.shapes[1].custom_filter);
  EXPECT_FALSE(back.bodies[2].def.shapes[1].pre_solve);
  EXPECT_EQ(scene_to_json(back), json);  // deterministic and idempotent
}

// Without rules or flags nothing changes: the scene stays at the version it needs.
TEST(SceneV3, PlainScenesStayBelowVersion3) {
  Scene s = rules_and_flags();
  s.materials.clear();
  s.bodies[0].def.shapes[0].material = Material{};
  s.bodies[1].def.shapes[0].material = Material{.friction = 0.8f};
  for (ShapeDef& shape : s.bodies[2].def.shapes) shape.custom_filter = shape.pre_solve = false;
  const std::string json = scene_to_json(s);
  EXPECT_NE(json.find("\"version\": 2"), std::string::npos);  // the compound needs 2
  EXPECT_EQ(json.find("_mix"), std::string::npos);
}

// A loaded scene's world has the rules and flags, and a captured one writes them again.
TEST(SceneV3, ABuiltWorldKeepsRulesAndFlagsThroughCapture) {
  const Scene s = rules_and_flags();
  SceneInstance inst = build_scene(parse_scene(scene_to_json(s), "rules.json"), 1);
  const World& w = inst.world;
  EXPECT_EQ(w.definition(inst.bodies[1]).shapes[0].material.friction_mix, MixRule::Max);
  const std::vector<ShapeId> shapes = w.shapes(inst.bodies[2]);
  EXPECT_TRUE(w.definition(shapes[0]).pre_solve);
  EXPECT_TRUE(w.definition(shapes[1]).custom_filter);
  inst.step();
  EXPECT_EQ(scene_to_json(parse_scene(scene_to_json(capture_scene(inst)), "again.json")),
            scene_to_json(capture_scene(inst)));
  EXPECT_NE(scene_to_json(capture_scene(inst)).find("\"version\": 3"), std::string::npos);
}

}  // namespace
}  // namespace strut
