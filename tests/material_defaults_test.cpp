// Material defaults agree between C++ and scene files: an unset static friction equals the
// dynamic one in both. Before, C++'s Material{.friction = 0.1} kept a static friction of 0.6
// while the scene file's static_friction defaulted to friction, so the same slope held a box
// in C++ and let it slide in JSON (issue 15).
#include <gtest/gtest.h>

#include <cmath>

#include "strut/scene.hpp"
#include "strut/world.hpp"

namespace strut {
namespace {

TEST(MaterialDefaults, UnsetStaticFrictionEqualsFriction) {
  EXPECT_EQ(static_friction_of(Material{.friction = 0.1f}), 0.1f);
  EXPECT_EQ(static_friction_of(Material{.friction = 0.1f, .static_friction = 0.3f}), 0.3f);
  for (const std::string& name : builtin_material_names()) {
    const Material m = material_named(name);
    EXPECT_EQ(static_friction_of(m), m.friction) << name;
  }
  const Scene s = parse_scene(R"({"materials": {"ice": {"friction": 0.1}}})", "ice.json");
  ASSERT_EQ(s.materials.size(), 1u);
  EXPECT_FALSE(s.materials[0].second.static_friction.has_value());
  EXPECT_EQ(static_friction_of(s.materials[0].second), 0.1f);
}

// A box on a 20 degree icy slope (friction 0.1 on both) built in C++ and read from a scene file:
// the two worlds are bit-identical, and the box slides as a block with Coulomb friction does,
// s = g (sin a - mu cos a) t^2 / 2 (tan 20 deg = 0.36 > 0.1: it must slide).
TEST(MaterialDefaults, TheSameSlopeSlidesInCppAndInAScene) {
  const float angle = 20.0f * float(M_PI) / 180.0f;
  const Vec2 down{std::cos(angle), std::sin(angle)};  // along the slope's surface
  const Vec2 normal{-std::sin(angle), std::cos(angle)};
  const Vec2 box_center = 0.5f * normal;  // resting on the slope's surface through the origin
  const Vec2 slope_center = -1.0f * normal;

  World cpp({.gravity = {0, -10}});
  BodyDef slope;
  slope.shapes = {ShapeDef{.shape = BoxShape{{20, 1}}, .material = Material{.friction = 0.1f}}};
  slope.center = slope_center;
  slope.angle = angle;
  slope.is_static = true;
  cpp.create_body(slope);
  BodyDef box;
  box.shapes = {ShapeDef{.shape = BoxShape{{0.5f, 0.5f}}, .material = Material{.friction = 0.1f}}};
  box.center = box_center;
  box.angle = angle;
  const BodyId cpp_box = cpp.create_body(box);

  char text[1024];
  std::snprintf(text, sizeof text, R"({"materials": {"ice": {"friction": 0.1}}, "bodies": [
    {"shape": "box", "center": [%.9g, %.9g], "angle": %.9g, "half_extents": [20, 1],
     "static": true, "material": "ice"},
    {"shape": "box", "center": [%.9g, %.9g], "angle": %.9g, "half_extents": [0.5, 0.5],
     "material": "ice"}]})",
                slope_center.x, slope_center.y, angle, box_center.x, box_center.y, angle);
  SceneInstance scene = build_scene(parse_scene(text, "slope.json"), 1);

  for (int i = 0; i < 60; ++i) {
    cpp.step(1.0f / 60);
    scene.world.step(1.0f / 60);
  }
  EXPECT_EQ(cpp.state_hash(), scene.world.state_hash());
  // Down the slope is -down (the surface rises to the right).
  const float slid = -dot(cpp.transform(cpp_box).position - box_center, down);
  const float expected = 0.5f * 10.0f * (std::sin(angle) - 0.1f * std::cos(angle));  // t = 1 s
  // Tolerance 10 %: the box starts at rest and the soft contact lets it settle a little before
  // it slides (measured within a few percent).
  EXPECT_NEAR(slid, expected, 0.1f * expected);
}

}  // namespace
}  // namespace strut
