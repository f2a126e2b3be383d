// Driven machines: a spinner stirring a drum full of bodies, and a tumbling box.
#include <numbers>

#include "tools/scene/builtin_parts.hpp"

namespace strut::builtin {

Scene spinner(float size) {
  const int count = scaled(6076, size);
  Scene s = benchmark_scene(
      "spinner",
      "Box2D benchmark 'spinner': " + std::to_string(count) +
          " bodies cycling box, circle, square inside a circular loop of radius 40, stirred by a "
          "bar turning at 5 rad/s. Substitutions: the loop's 360 segments are static boxes 2 m "
          "thick outside the circle (thick, so a body pushed deep into the wall comes back out on "
          "the inside); the capsules (length 0.5, radius 0.25) are 1 x 0.5 boxes; the "
          "motor-driven rounded bar is a kinematic 0.8 x 40 box turning at 5 rad/s.",
      500);
  s.materials.emplace_back("spinner_wall", Material{1.0f, 0.1f, 0.1f, 0.0f});
  s.materials.emplace_back("spinner_bar", Material{1.0f, 0.0f, 0.0f, 0.0f});
  s.materials.emplace_back("spinner_body", Material{0.25f, 0.1f, 0.1f, 0.1f});
  const Material wall = s.materials[0].second, bar = s.materials[1].second,
                 body = s.materials[2].second;

  // The loop: the inner face of each box is one segment of the 360-gon. Thin walls let a body
  // that the bar drives deeper than half the thickness resolve out of the far side.
  const int segments = 360;
  const float radius = 40.0f, half_thickness = 1.0f;
  const Vec2 centre{0.0f, 32.0f};
  for (int i = 0; i < segments; ++i) {
    const double a0 = -2.0 * std::numbers::pi * i / segments;
    const double a1 = -2.0 * std::numbers::pi * (i + 1) / segments;
    const double mid = 0.5 * (a0 + a1);
    const float chord = float(2.0 * radius * std::sin(std::numbers::pi / segments));
    const float inner = float(radius * std::cos(std::numbers::pi / segments));  // apothem
    const float r = inner + half_thickness;
    SceneBody b = box(centre + Vec2{float(r * std::cos(mid)), float(r * std::sin(mid))},
                      {half_thickness, 0.5f * chord}, true);
    b.def.angle = float(mid);  // the box's x axis points outwards
    b.def.material = wall;
    s.bodies.push_back(b);
  }
  SceneBody spinner = box({0.0f, 12.0f}, {0.4f, 20.0f});
  spinner.name = "spinner";
  spinner.def.is_kinematic = true;
  spinner.def.angular_velocity = 5.0f;
  spinner.def.material = bar;
  s.bodies.push_back(spinner);

  float x = -23.0f, y = 2.0f;
  for (int i = 0; i < count; ++i) {
    SceneBody b = i % 3 == 0   ? box({x, y}, {0.5f, 0.25f})
                  : i % 3 == 1 ? circle({x, y}, 0.35f)
                               : box({x, y}, {0.35f, 0.35f});
    b.def.material = body;
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
  ground.def.mask = 0;
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
