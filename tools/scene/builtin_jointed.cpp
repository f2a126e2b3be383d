// Jointed grids of circles: Box2D's joint_grid (pin joints at the midpoints, as in Box2D: a
// circle is a rigid body that turns, so it takes off-centre anchors) and a cloth (distance joints
// between the centres of small circles, the classic particle cloth).
#include "tools/scene/builtin_parts.hpp"

namespace strut::builtin {
namespace {

// Bodies of a grid are named by their column and row; joints need names.
std::string cell(int k, int i) {
  std::string name = "c";  // built by appending: GCC 12 misreports "c" + std::string (-Wrestrict)
  name += std::to_string(k);
  name += '_';
  name += std::to_string(i);
  return name;
}

SceneJoint centre_joint(const Scene& s, std::size_t a, std::size_t b, float length) {
  DistanceJointDef d;
  d.anchor_a = s.bodies[a].def.center;
  d.anchor_b = s.bodies[b].def.center;
  d.length = length;
  return scene_joint(s.bodies[a].name, s.bodies[b].name, d);
}

// Box2D's revolute joint halfway between two circles.
SceneJoint midpoint_pin(const Scene& s, std::size_t a, std::size_t b) {
  const Vec2 mid = 0.5f * (s.bodies[a].def.center + s.bodies[b].def.center);
  return scene_joint(s.bodies[a].name, s.bodies[b].name, RevoluteJointDef{.anchor = mid});
}

}  // namespace

Scene joint_grid(float size) {
  const int n = scaled_side(100, size);
  Scene s = benchmark_scene(
      "joint_grid",
      "Box2D benchmark 'joint_grid': a " + std::to_string(n) + " x " + std::to_string(n) +
          " grid of circles (radius 0.4) 1 m apart, each joined to its upper and left neighbour; "
          "the seven top-row circles around the middle are static; circles do not collide with "
          "each other (layer mask). Joints are pins (revolute, no limits) at the midpoints, as in "
          "Box2D; the 6 joints between two static circles are left out (strut rejects them; they "
          "do nothing). Sleeping disabled.",
      500);
  s.config.enable_sleep = false;
  s.bodies.reserve(std::size_t(n) * n);
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < n; ++i) {
      const bool fixed = k >= n / 2 - 3 && k <= n / 2 + 3 && i == 0;
      SceneBody b = circle({float(k), float(-i)}, 0.4f, fixed);
      b.name = cell(k, i);
      b.def.shapes[0].filter.category = 2;
      b.def.shapes[0].filter.mask = ~2u;
      s.bodies.push_back(std::move(b));
      const std::size_t index = s.bodies.size() - 1;
      if (i > 0) s.joints.push_back(midpoint_pin(s, index - 1, index));
      // Box2D also joins the static circles to each other; strut rejects a joint between two
      // static bodies (it would do nothing), so those 6 are left out.
      if (k > 0 && !(fixed && s.bodies[index - n].def.is_static))
        s.joints.push_back(midpoint_pin(s, index - n, index));
    }
  }
  return s;
}

Scene cloth(float size) {
  const int n = scaled_side(100, size);
  const float spacing = 0.2f, radius = 0.05f, top = 20.0f;
  const float left = -0.5f * spacing * (n - 1);
  Scene s = benchmark_scene(
      "cloth",
      "A cloth of " + std::to_string(n) + " x " + std::to_string(n) +
          " particles (circles of radius 0.05, 0.2 m apart) joined to their right and lower "
          "neighbours by distance joints, hanging from its two static top corners and sagging "
          "onto a static ball below it; the particles do not collide with each other (layer mask).",
      500);
  s.bodies.reserve(std::size_t(n) * n + 1);
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < n; ++k) {
      const bool pinned = i == 0 && (k == 0 || k == n - 1);
      SceneBody b = circle({left + k * spacing, top - i * spacing}, radius, pinned);
      b.name = cell(k, i);
      b.def.shapes[0].filter.category = 2;
      b.def.shapes[0].filter.mask = ~2u;
      s.bodies.push_back(std::move(b));
      const std::size_t index = s.bodies.size() - 1;
      if (k > 0) s.joints.push_back(centre_joint(s, index - 1, index, spacing));
      if (i > 0) s.joints.push_back(centre_joint(s, index - n, index, spacing));
    }
  }
  // Below the sheet, where its sagging middle lands.
  const float ball_radius = 0.1f * spacing * n;
  SceneBody ball = circle({0.0f, top - spacing * (n - 1) - 1.0f - ball_radius}, ball_radius, true);
  ball.name = "ball";
  s.bodies.push_back(ball);
  return s;
}

}  // namespace strut::builtin
