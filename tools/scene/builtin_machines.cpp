// Driven machines: a spinner stirring a drum full of bodies, and a tumbling box.
#include <limits>
#include <numbers>

#include "tools/scene/builtin_parts.hpp"

namespace strut::builtin {

Scene spinner(float size) {
  const int count = scaled(6076, size);
  Scene s = benchmark_scene(
      "spinner",
      "Box2D benchmark 'spinner': " + std::to_string(count) +
          " bodies (density 0.25, friction 0.1, restitution 0.1) cycling capsule, circle, square "
          "inside a static loop chain of 360 points on a circle of radius 40, stirred by a "
          "rounded bar (0.4 x 20, corner radius 0.2, frictionless, never sleeping) on a revolute "
          "motor at 5 rad/s of unlimited torque.",
      500);
  s.materials.emplace_back("spinner_wall", Material{1.0f, 0.1f, 0.1f, 0.0f});
  s.materials.emplace_back("spinner_bar", Material{1.0f, 0.0f, 0.0f, 0.0f});
  s.materials.emplace_back("spinner_body", Material{0.25f, 0.1f, 0.1f, 0.1f});
  const Material wall = s.materials[0].second, bar = s.materials[1].second,
                 body = s.materials[2].second;

  // The loop, clockwise from (40, 32) as Box2D makes it.
  const int points = 360;
  ChainShape loop;
  loop.loop = true;
  for (int i = 0; i < points; ++i) {
    const double a = -2.0 * std::numbers::pi * i / points;
    loop.points.push_back({float(40.0 * std::cos(a)), float(40.0 * std::sin(a)) + 32.0f});
  }
  SceneBody ground;
  ground.name = "ground";
  ground.def.is_static = true;
  ground.def.shapes = {ShapeDef{.shape = loop, .material = wall}};
  s.bodies.push_back(ground);
  SceneBody spinner;
  spinner.name = "spinner";
  spinner.def.center = {0.0f, 12.0f};
  spinner.def.shapes = {ShapeDef{.shape = BoxShape{{0.4f, 20.0f}, 0.2f}, .material = bar}};
  spinner.def.enable_sleep = false;
  s.bodies.push_back(spinner);
  RevoluteJointDef motor{.anchor = {0.0f, 12.0f}};
  motor.motor = JointMotor{true, 5.0f, 1e30f};  // Box2D: FLT_MAX
  s.joints.push_back(scene_joint("ground", "spinner", motor));

  float x = -23.0f, y = 2.0f;
  for (int i = 0; i < count; ++i) {
    SceneBody b;
    b.def.center = {x, y};
    const Shape shape = i % 3 == 0   ? Shape{CapsuleShape{0.25f, 0.25f}}
                        : i % 3 == 1 ? Shape{CircleShape{0.35f}}
                                     : Shape{BoxShape{{0.35f, 0.35f}}};
    b.def.shapes = {ShapeDef{.shape = shape, .material = body}};
    s.bodies.push_back(b);
    x += 0.5f;
    if (x >= 23.0f) {
      x = -23.0f;
      y += 0.5f;
    }
  }
  return s;
}

Scene tumbler(float size) {
  // The grid keeps filling the same square; only above size 1 do the boxes shrink to fit.
  const int grid = scaled_side(45, size);
  const float spacing = std::min(0.4f, 18.0f / grid), half = 0.3125f * spacing;
  Scene s = benchmark_scene(
      "tumbler",
      "Box2D benchmark 'tumbler': " + std::to_string(grid * grid) +
          " small boxes in a hollow square drum (one dynamic body of four boxes, density 50) "
          "turned at 25 degrees/s about (0, 10) by a revolute motor of max torque 1e8 N m.",
      750);
  s.materials.emplace_back("drum", Material{50.0f, 0.6f, 0.6f, 0.0f});
  const Vec2 pivot{0.0f, 10.0f};
  // Box2D's ground is a body with no shape; strut's bodies have one, so a tiny box that collides
  // with nothing.
  SceneBody ground = box(pivot, {0.05f, 0.05f}, true);
  ground.name = "ground";
  ground.def.shapes[0].filter.mask = 0;
  s.bodies.push_back(ground);
  SceneBody drum;
  drum.name = "drum";
  drum.def.center = pivot;
  const struct {
    Vec2 offset, half;
  } walls[] = {
      {{10, 0}, {0.5f, 10}}, {{-10, 0}, {0.5f, 10}}, {{0, 10}, {10, 0.5f}}, {{0, -10}, {10, 0.5f}}};
  for (const auto& w : walls) {
    ShapeDef wall;
    wall.shape = BoxShape{w.half};
    wall.offset = w.offset;
    wall.material = s.materials[0].second;
    drum.def.shapes.push_back(wall);
  }
  s.bodies.push_back(drum);
  RevoluteJointDef motor{.anchor = pivot};
  motor.motor = JointMotor{true, float(25.0 * std::numbers::pi / 180.0), 1e8f};
  s.joints.push_back(scene_joint("ground", "drum", motor));
  float y = -0.5f * spacing * grid + 10.0f;
  for (int i = 0; i < grid; ++i) {
    float x = -0.5f * spacing * grid;
    for (int j = 0; j < grid; ++j) {
      s.bodies.push_back(box({x, y}, {half, half}));
      x += spacing;
    }
    y += spacing;
  }
  return s;
}

}  // namespace strut::builtin
