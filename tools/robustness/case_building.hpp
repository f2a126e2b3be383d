// What the robustness cases are built from (robustness_cases.cpp and the other *_cases.cpp
// files): a scene's parts and the figures' common measures. Internal to tools/robustness/.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "tools/robustness/robustness.hpp"

namespace strut::robustness {

inline constexpr float kDt = 1.0f / 60.0f;
inline constexpr float kSleepSpeed =
    0.05f;  // WorldConfig::sleep_speed, also Box2D's sleep threshold

inline Scene base(std::string name, std::string description, int steps, bool sleep) {
  Scene s;
  s.source = std::move(name);
  s.description = std::move(description);
  s.steps = steps;
  s.dt = kDt;
  s.config.enable_sleep = sleep;
  return s;
}

inline int add(Scene& s, BodyDef def, std::string name = {}) {
  s.bodies.push_back(SceneBody{std::move(name), std::move(def)});
  return int(s.bodies.size()) - 1;
}

inline BodyDef box(Vec2 center, Vec2 half, float density = 1.0f) {
  BodyDef d;
  d.shapes = {ShapeDef{.shape = BoxShape{half}, .material = {.density = density}}};
  d.center = center;
  return d;
}

inline BodyDef ground_box(Vec2 center = {0, -1}, Vec2 half = {50, 1}) {
  BodyDef d = box(center, half);
  d.is_static = true;
  return d;
}

// A static pivot (a small circle) named `name` at p, and a free revolute joint between bodies.
inline void add_pivot(Scene& s, Vec2 p, std::string name = "pivot") {
  BodyDef d;
  d.is_static = true;
  d.shapes = {ShapeDef{CircleShape{0.05f}}};
  d.center = p;
  add(s, d, std::move(name));
}
inline void pin(Scene& s, std::string a, std::string b, Vec2 anchor) {
  RevoluteJointDef j;
  j.anchor = anchor;
  s.joints.push_back(SceneJoint{{}, std::move(a), std::move(b), j});
}

// The largest value of f over `steps` steps, read after each.
template <class F>
inline double max_over(Engine& e, int steps, F f) {
  double m = -INFINITY;
  for (int i = 0; i < steps; ++i) {
    e.step();
    m = std::max(m, double(f()));
  }
  return m;
}

// The fastest point of bodies [first, last): linear speed plus angular speed times `reach`.
inline double fastest(const Engine& e, int first, int last, float reach) {
  double m = 0;
  for (int k = first; k < last; ++k)
    m = std::max(m, double(length(e.velocity(k))) + std::fabs(e.angular_velocity(k)) * reach);
  return m;
}

// Seconds until bodies [first, last) move slower than the sleep speed for good (within
// `steps` steps; the whole run if they never settle).
inline double time_to_rest(Engine& e, int steps, int first, int last, float reach) {
  int settled_at = 0;
  for (int i = 1; i <= steps; ++i) {
    e.step();
    if (fastest(e, first, last, reach) >= kSleepSpeed) settled_at = i;
  }
  return settled_at * double(kDt);
}

inline double energy(const Engine& e, int first, int last, Vec2 gravity) {
  double sum = 0;
  for (int k = first; k < last; ++k) {
    const Vec2 v = e.velocity(k);
    const double w = e.angular_velocity(k);
    sum += 0.5 * e.mass(k) * double(dot(v, v)) + 0.5 * e.inertia(k) * w * w -
           e.mass(k) * double(dot(gravity, e.position(k)));
  }
  return sum;
}

inline double time_to_sleep(Engine& e, int steps, int first, int last) {
  for (int i = 1; i <= steps; ++i) {
    e.step();
    bool all = true;
    for (int k = first; k < last; ++k) all = all && e.sleeping(k);
    if (all) return i * double(kDt);
  }
  return steps * double(kDt);
}

inline double largest_move(Engine& e, int steps) {
  std::vector<Vec2> start;
  for (int k = 1; k < e.body_count(); ++k) start.push_back(e.position(k));
  for (int i = 0; i < steps; ++i) e.step();
  double worst = 0;
  for (int k = 1; k < e.body_count(); ++k)
    worst = std::max(worst, double(length(e.position(k) - start[std::size_t(k - 1)])));
  return worst;
}

// The cases of each file beyond robustness_cases.cpp, appended to `out` in the table's order.
void add_statics_cases(std::vector<Case>& out);
void add_rope_and_spring_cases(std::vector<Case>& out);

}  // namespace strut::robustness
