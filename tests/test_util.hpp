// Small helpers shared by the tests.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "strut/scene.hpp"
#include "strut/world.hpp"

namespace strut::test {

// The step the tests take unless they say otherwise, the gravity many of them set, and pi as a
// float; a test file names them with using test::kDt (and so on), so files compiled in one unity
// batch share one definition.
inline constexpr float kDt = 1.0f / 60.0f;
inline constexpr float kG = 10.0f;
inline constexpr float kPi = std::numbers::pi_v<float>;
static_assert(kPi == float(M_PI));

// Steps two instances alike (their step hooks included) and expects them to end with the same
// hash and the same count of begin events: a copy, restore or snapshot continued exactly.
inline void expect_continue_alike(SceneInstance& original, SceneInstance& twin, int steps,
                                  const std::string& label) {
  EXPECT_EQ(twin.world.state_hash(), original.world.state_hash()) << label << ", at the start";
  for (int k = 0; k < steps; ++k) {
    original.step();
    twin.step();
  }
  EXPECT_EQ(twin.world.state_hash(), original.world.state_hash()) << label;
  EXPECT_EQ(twin.world.contact_begin_events().size(), original.world.contact_begin_events().size())
      << label;
}

// The whole file as bytes ("" when it cannot be read).
inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs a shell command; its exit status, or -1 when it did not exit normally.
inline int exit_status(const std::string& command) {
  const int raw = std::system(command.c_str());
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

// A float's bits, for comparisons that must tell -0 from +0 and see every last bit.
inline std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Runs fn and returns the strut::Error message it threw ("" and a test failure if none).
template <class F>
std::string error_of(F&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected strut::Error";
  return "";
}

// Whether every body's pose and velocity is finite.
inline bool finite_state(const World& world) {
  for (const BodyId id : world.bodies()) {
    const BodyState s = world.state(id);
    if (!is_finite(s.transform.position) || !std::isfinite(s.transform.angle) ||
        !is_finite(s.velocity) || !std::isfinite(s.angular_velocity))
      return false;
  }
  return true;
}

inline BodyDef box_def(Vec2 center, Vec2 half = {0.5f, 0.5f}) {
  BodyDef d;
  d.shapes = {ShapeDef{BoxShape{half}}};
  d.center = center;
  return d;
}

// A box of `box` material at rest on a static slope of `angle` radians and `ramp` material
// (gravity kG, 4 substeps): the distance it has travelled along the slope (downhill positive)
// after each of `steps` steps of kDt.
inline std::vector<float> slide_on_slope(float angle, const Material& ramp_material,
                                         const Material& box_material, int steps) {
  World world(WorldConfig{.gravity = {0, -kG}, .substeps = 4});
  const Rot r = make_rot(angle);
  BodyDef ramp;
  ramp.shapes = {ShapeDef{.shape = BoxShape{{50, 1}}, .material = ramp_material}};
  ramp.angle = angle;
  ramp.center = rotate(r, {0, -1});
  ramp.is_static = true;
  world.create_body(ramp);
  BodyDef box = box_def(rotate(r, {0, 0.5f}), {0.5f, 0.5f});
  box.angle = angle;
  box.shapes[0].material = box_material;
  const BodyId id = world.create_body(box);
  const Vec2 downhill = rotate(r, {-1, 0});
  const Vec2 start = world.transform(id).position;
  std::vector<float> out;
  for (int i = 1; i <= steps; ++i) {
    world.step(kDt);
    out.push_back(dot(world.transform(id).position - start, downhill));
  }
  return out;
}

// A small static box that collides with nothing: a point to hang joints from.
inline BodyId fixed_point(World& w, Vec2 at) {
  BodyDef d = box_def(at, {0.05f, 0.05f});
  d.is_static = true;
  d.shapes[0].filter.mask = 0;
  return w.create_body(d);
}

inline BodyDef ground_def(float half_width = 50.0f, float top = 0.0f) {
  BodyDef d;
  d.shapes = {ShapeDef{BoxShape{{half_width, 1.0f}}}};
  d.center = {0.0f, top - 1.0f};
  d.is_static = true;
  return d;
}

// A soft box of 10 kg (half-size 0.5, centre (cx, -1)) hung by its two top corners from
// static pins at (cx -+ 0.5, 0.5), damped so it settles to its static stretch.
inline BodyId hang_soft_box(World& world, float cx, float compliance) {
  BodyDef d = box_def({cx, -1}, {0.5f, 0.5f});
  d.soft = compliance;
  d.shapes[0].material.density = 10;
  d.linear_drag = 3;
  d.shapes[0].filter.mask = 0;
  const BodyId box = world.create_body(d);
  for (float x : {cx - 0.5f, cx + 0.5f}) {
    BodyDef hook;
    hook.shapes = {ShapeDef{.shape = CircleShape{0.05f}, .filter = {.mask = 0}}};
    hook.is_static = true;
    hook.center = {x, 0.5f};
    RevoluteJointDef j;
    j.a = world.create_body(hook), j.b = box, j.anchor = {x, -0.5f};
    world.create_joint(j);
  }
  return box;
}

}  // namespace strut::test
