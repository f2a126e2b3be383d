// Soak: 10,000 mixed bodies (boxes, circles, triangles; light and heavy; bouncy and not) dropped
// into a closed box and run for a long time. Every value must stay finite and the total energy
// (kinetic + potential) must never exceed the starting energy by more than 0.5 % of it: contacts
// and friction only take energy out, so a gain is a solver error. Prints the energy every 500
// steps and the largest relative gain.
//
// Slow (minutes), so excluded by default: the ctest test `soak` skips unless STRUT_SOAK=1, e.g.
//   STRUT_SOAK=1 ctest --test-dir build -R soak --output-on-failure
//   build/strut_soak [steps]          (default 6000 steps = 100 s at 60 Hz)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "strut/world.hpp"

using namespace strut;

namespace {

constexpr float kGravity = 10.0f;

double energy(const World& world, const std::vector<BodyId>& bodies) {
  double e = 0;
  for (const BodyId id : bodies) {
    const double m = world.mass(id), inertia = world.inertia(id);
    const Vec2 v = world.linear_velocity(id);
    const double w = world.angular_velocity(id);
    e += 0.5 * m * (double(v.x) * v.x + double(v.y) * v.y) + 0.5 * inertia * w * w +
         m * kGravity * world.transform(id).position.y;
  }
  return e;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 && std::getenv("STRUT_SOAK") == nullptr) {
    std::printf("soak: skipped (set STRUT_SOAK=1 or pass a step count)\n");
    return 77;
  }
  const int steps = argc >= 2 ? std::atoi(argv[1]) : 6000;
  World world({.gravity = {0, -kGravity}});
  auto wall = [&](Vec2 center, Vec2 half) {
    BodyDef d;
    d.shape = BoxShape{half};
    d.center = center;
    d.is_static = true;
    world.create_body(d);
  };
  wall({0, -1}, {62, 1});    // floor, top at y = 0
  wall({0, 161}, {62, 1});   // lid
  wall({-61, 80}, {1, 80});  // sides
  wall({61, 80}, {1, 80});
  std::mt19937 rng(2026);
  std::uniform_real_distribution<float> unit(0, 1);
  std::vector<BodyId> bodies;
  for (int i = 0; i < 10000; ++i) {
    BodyDef d;
    const float size = 0.2f + 0.25f * unit(rng);
    switch (i % 3) {
      case 0:
        d.shape = BoxShape{{size, size * (0.5f + unit(rng))}};
        break;
      case 1:
        d.shape = CircleShape{size};
        break;
      default:
        d.shape = PolygonShape{{{-size, -size}, {size, -size}, {0, size}}};
        break;
    }
    d.center = {-59.0f + 1.18f * float(i % 100), 1.0f + 1.5f * float(i / 100)};
    d.angle = 6.28f * unit(rng);
    d.velocity = {4 * unit(rng) - 2, 4 * unit(rng) - 2};
    d.material.density = i % 7 == 0 ? 5.0f : 1.0f;
    d.material.restitution = i % 5 == 0 ? 0.8f : 0.1f;
    bodies.push_back(world.create_body(d));
  }
  const double e0 = energy(world, bodies);
  double worst_gain = 0;
  for (int s = 1; s <= steps; ++s) {
    world.step(1.0f / 60);
    if (s % 100 != 0 && s != steps) continue;
    const double e = energy(world, bodies);
    if (!std::isfinite(e)) {
      std::printf("step %d: non-finite energy\n", s);
      return 1;
    }
    worst_gain = std::max(worst_gain, (e - e0) / std::fabs(e0));
    if (s % 500 == 0 || s == steps)
      std::printf("step %5d  energy %.6g J (start %.6g)  awake bodies %zu\n", s, e, e0,
                  std::size_t(std::count_if(bodies.begin(), bodies.end(),
                                            [&](BodyId id) { return world.is_awake(id); })));
  }
  std::printf("largest energy gain over the start: %.3g %% (tolerance 0.5 %%)\n", 100 * worst_gain);
  return worst_gain <= 0.005 ? 0 : 1;
}
