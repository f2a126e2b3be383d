// A conveyor line: one static body of two belts, each a box shape with its own tangent_speed (the
// surface runs along the shape, and friction drags what rests on it up to that speed): 2 m/s for
// the first 8 m, 3 m/s for the next 6 m. Crates are set down at rest on the first belt's left
// end, one a second; the belts carry them along and off the end into a bin. The program checks
// the crates' speeds and travel time against friction's law and that all of them end in the bin.
// `--record FILE` writes a recording that `strut view FILE -o page.html` plays.
#include <cmath>
#include <cstdio>
#include <strut/world.hpp>
#include <vector>

#include "examples/example_recording.hpp"

namespace {

constexpr float kDt = 1.0f / 60;
constexpr float kG = 10.0f;
constexpr float kFriction = 0.6f;  // crates and belts alike: 0.6 between them
constexpr float kSlowSpeed = 2.0f, kFastSpeed = 3.0f;
constexpr float kStartX = -7.5f;  // where crates are set down

struct Crate {
  strut::BodyId id;
  float slow_speed = 0, fast_speed = 0;  // vx measured in the middle of each belt
  float reached_at = -1;                 // s after it was set down, when it passed x = -1 m
};

}  // namespace

int main(int argc, char** argv) {
  examples::ExampleRecording recording(argc, argv, "conveyor", kDt);
  if (!recording.ok()) return 2;
  strut::World world({.gravity = {0, -kG}});

  // The belts, tops at y = 1: x from -8 to 0 at 2 m/s, from 0 to 6 at 3 m/s. A positive speed
  // runs clockwise round the shape, so the top surface moves towards +x.
  strut::BodyDef line;
  line.is_static = true;
  strut::ShapeDef belt;
  belt.material.friction = kFriction;
  belt.shape = strut::BoxShape{{4, 0.25f}};
  belt.offset = {-4, 0.75f};
  belt.tangent_speed = kSlowSpeed;
  line.shapes.push_back(belt);
  belt.shape = strut::BoxShape{{3, 0.25f}};
  belt.offset = {3, 0.75f};
  belt.tangent_speed = kFastSpeed;
  line.shapes.push_back(belt);
  world.create_body(line);

  // The bin below the far end: a floor at y = -3 from x = 6.5 to 11.5 and two walls.
  strut::BodyDef bin;
  bin.is_static = true;
  const auto wall = [&](strut::Vec2 half, strut::Vec2 at) {
    strut::ShapeDef s;
    s.shape = strut::BoxShape{half};
    s.offset = at;
    bin.shapes.push_back(s);
  };
  wall({2.75f, 0.25f}, {9, -3.25f});
  wall({0.25f, 1.25f}, {6.5f, -2.0f});
  wall({0.25f, 1.25f}, {11.5f, -2.0f});
  world.create_body(bin);

  std::vector<Crate> crates;
  std::vector<int> set_down_at;
  recording.capture(world, 0);
  for (int step = 1; step <= 900; ++step) {  // 15 s
    if (step % 60 == 1 && crates.size() < 6) {
      strut::BodyDef crate;
      crate.shapes = {strut::ShapeDef{.shape = strut::BoxShape{{0.3f, 0.3f}},
                                      .material = {.friction = kFriction}}};
      crate.center = {kStartX, 1.3f};  // resting on the belt
      crates.push_back({world.create_body(crate)});
      set_down_at.push_back(step - 1);
    }
    world.step(kDt);
    recording.capture(world, step);
    for (std::size_t i = 0; i < crates.size(); ++i) {
      Crate& c = crates[i];
      const float x = world.transform(c.id).position.x;
      const float vx = world.linear_velocity(c.id).x;
      if (std::fabs(x + 3) < 0.05f) c.slow_speed = vx;  // middle of the first belt
      if (std::fabs(x - 3) < 0.05f) c.fast_speed = vx;  // middle of the second
      if (c.reached_at < 0 && x > -1) c.reached_at = (step - set_down_at[i]) * kDt;
    }
  }

  // Set down at rest, a crate slides on the belt, friction accelerating it at mu g until it rides
  // at the belt's speed v (after v / (mu g) s, having lagged v^2 / (2 mu g) behind the belt),
  // then rides along: it covers d in d / v + v / (2 mu g) s. To x = -1 (6.5 m): 3.4167 s.
  const float a = kFriction * kG;
  const float expected = 6.5f / kSlowSpeed + kSlowSpeed / (2 * a);
  bool ok = true;
  for (std::size_t i = 0; i < crates.size(); ++i) {
    const Crate& c = crates[i];
    const strut::Vec2 p = world.transform(c.id).position;
    const float speed = std::hypot(world.linear_velocity(c.id).x, world.linear_velocity(c.id).y);
    std::printf(
        "crate %zu: %.3f m/s on the first belt, %.3f m/s on the second, at x = -1 after "
        "%.3f s (%.3f expected); ends at (%.2f, %.2f)\n",
        i, double(c.slow_speed), double(c.fast_speed), double(c.reached_at), double(expected),
        double(p.x), double(p.y));
    // Belt speeds within 1 %, the travel time within a step (it is read at whole steps), in the bin
    // at the end, at rest (below the sleep speed).
    ok = ok && std::fabs(c.slow_speed - kSlowSpeed) < 0.01f * kSlowSpeed &&
         std::fabs(c.fast_speed - kFastSpeed) < 0.01f * kFastSpeed &&
         std::fabs(c.reached_at - expected) < kDt && p.x > 6.75f && p.x < 11.25f && p.y < -2.0f &&
         speed < 0.05f;
  }
  ok = ok && crates.size() == 6 && recording.finish();
  std::printf(ok ? "the belts carry every crate at their speed into the bin\n"
                 : "the conveyor did not work as expected\n");
  return ok ? 0 : 1;
}
