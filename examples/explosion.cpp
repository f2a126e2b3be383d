// An explosion in a pile of crates (World::explode): eight columns of four 1 m wooden crates stand
// 10 cm apart between two walls, the top row steel crates of another collision category. A charge
// goes off in the gap between the middle columns. Every crate of category 1 within reach is
// pushed straight away from the blast, at its point nearest to it, by 8 N s for each metre of
// width it shows the blast: in full within 1 m, then falling linearly to nothing at 3 m. The
// steel crates are left out by the blast's mask. The program works out each crate's impulse from
// that rule and checks it against the crate's change of momentum, then lets the pile settle.
// `--record FILE` writes a recording that `strut view FILE -o page.html` plays.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <strut/world.hpp>
#include <vector>

#include "examples/example_recording.hpp"

namespace {

constexpr float kDt = 1.0f / 60;
constexpr std::uint32_t kWood = 1, kSteel = 2;  // collision categories
constexpr int kColumns = 8;

struct Crate {
  strut::BodyId id;
  bool steel = false;
  strut::Vec2 velocity_before;
};

strut::Vec2 rotate(float angle, strut::Vec2 v) {
  const float c = std::cos(angle), s = std::sin(angle);
  return {c * v.x - s * v.y, s * v.x + c * v.y};
}

// The impulse the rule gives a square crate of side `side` at `pose`: along the direction from
// the blast to the crate's nearest point, of impulse_per_length x the crate's width across that
// direction x the strength at that point's distance (1 within the radius, 0 beyond the
// fall-off).
struct Push {
  strut::Vec2 impulse;
  float strength;
};
Push expected_push(const strut::ExplosionDef& blast, strut::Transform pose, float side) {
  const strut::Vec2 local = rotate(-pose.angle, blast.position - pose.position);
  const float h = 0.5f * side;
  const strut::Vec2 nearest_local{std::clamp(local.x, -h, h), std::clamp(local.y, -h, h)};
  const strut::Vec2 away = pose.position + rotate(pose.angle, nearest_local) - blast.position;
  const float distance = std::hypot(away.x, away.y);
  const strut::Vec2 n = (1.0f / distance) * away;
  // A square seen along n (n_local in its frame) is side x (|n_local.x| + |n_local.y|) wide.
  const strut::Vec2 n_local = rotate(-pose.angle, n);
  const float width = side * (std::fabs(n_local.x) + std::fabs(n_local.y));
  const float strength = std::clamp(1.0f - (distance - blast.radius) / blast.falloff, 0.0f, 1.0f);
  return {(blast.impulse_per_length * width * strength) * n, strength};
}

}  // namespace

int main(int argc, char** argv) {
  examples::ExampleRecording recording(argc, argv, "explosion", kDt);
  if (!recording.ok()) return 2;
  strut::World world({.gravity = {0, -10}});

  strut::BodyDef ground;  // the floor, its top at y = 0, and a wall at each end
  ground.is_static = true;
  ground.shapes = {strut::ShapeDef{.shape = strut::BoxShape{{14, 1}}, .offset = {0, -1}},
                   strut::ShapeDef{.shape = strut::BoxShape{{0.5f, 5}}, .offset = {-13.5f, 5}},
                   strut::ShapeDef{.shape = strut::BoxShape{{0.5f, 5}}, .offset = {13.5f, 5}}};
  world.create_body(ground);

  std::vector<Crate> crates;
  for (int column = 0; column < kColumns; ++column)
    for (int row = 0; row < 4; ++row) {
      const bool steel = row == 3;
      strut::BodyDef crate;
      crate.shapes = {strut::ShapeDef{.shape = strut::BoxShape{{0.5f, 0.5f}},
                                      .material = strut::material_named(steel ? "metal" : "wood"),
                                      .filter = {.category = steel ? kSteel : kWood}}};
      crate.center = {1.1f * (column - 0.5f * (kColumns - 1)), 0.5f + row};
      crates.push_back({world.create_body(crate), steel});
    }

  int step = 0;
  const auto advance = [&] {
    world.step(kDt);
    recording.capture(world, ++step);
  };
  recording.capture(world, 0);
  for (int k = 0; k < 60; ++k) advance();  // the pile settles

  const strut::ExplosionDef blast{
      .position = {0, 1.5f}, .radius = 1, .falloff = 2, .impulse_per_length = 8, .mask = kWood};
  std::vector<Push> expected;
  for (Crate& c : crates) {
    c.velocity_before = world.linear_velocity(c.id);
    expected.push_back(expected_push(blast, world.transform(c.id), 1.0f));
  }
  world.explode(blast);

  // Each crate's change of momentum against the rule's impulse (within 0.1 % of the largest:
  // float rounding), and the steel crates' velocity unchanged, bit for bit.
  int full = 0, partial = 0, beyond = 0, spared = 0;
  bool pushed_right = true;
  float largest = 0;
  for (const Push& p : expected) largest = std::max(largest, std::hypot(p.impulse.x, p.impulse.y));
  for (std::size_t i = 0; i < crates.size(); ++i) {
    const Crate& c = crates[i];
    const strut::Vec2 v = world.linear_velocity(c.id);
    if (c.steel) {
      spared += v.x == c.velocity_before.x && v.y == c.velocity_before.y;
      continue;
    }
    const strut::Vec2 momentum = world.mass(c.id) * (v - c.velocity_before);
    const strut::Vec2 want = expected[i].impulse;
    const float strength = expected[i].strength;
    const bool right = std::hypot(momentum.x - want.x, momentum.y - want.y) <= 1e-3f * largest;
    pushed_right = pushed_right && right;
    (strength == 0 ? beyond : strength == 1 ? full : partial) += 1;
    const strut::Vec2 at = world.transform(c.id).position;
    std::printf(
        "crate at (%5.2f, %4.2f): strength %.3f, momentum (%6.3f, %6.3f) N s, rule "
        "(%6.3f, %6.3f)%s\n",
        double(at.x), double(at.y), double(strength), double(momentum.x), double(momentum.y),
        double(want.x), double(want.y), right ? "" : "  WRONG");
  }
  std::printf(
      "%d crates pushed in full, %d less with distance, %d beyond reach, %d of %d steel "
      "crates untouched\n",
      full, partial, beyond, spared, kColumns);

  // Then the pile comes down and settles: within 10 s every crate is asleep, inside the walls,
  // above the floor.
  int settled_at = -1;
  for (int k = 0; k < 600 && settled_at < 0; ++k) {
    advance();
    const bool asleep = std::all_of(crates.begin(), crates.end(),
                                    [&](const Crate& c) { return world.is_sleeping(c.id); });
    if (asleep) settled_at = step;
  }
  bool inside = true;
  for (const Crate& c : crates) {
    const strut::Vec2 p = world.transform(c.id).position;
    inside = inside && std::fabs(p.x) < 13 && p.y > 0.45f;
  }
  std::printf("the pile %s\n", settled_at >= 0 ? "settled" : "did not settle");
  if (settled_at >= 0) std::printf("asleep %.2f s after the blast\n", (settled_at - 60) * kDt);

  const bool ok = pushed_right && full > 0 && partial > 0 && beyond > 0 && spared == kColumns &&
                  settled_at >= 0 && inside && recording.finish();
  std::printf(ok ? "the blast pushed the crates as the rule says and the pile settled\n"
                 : "the explosion did not behave as expected\n");
  return ok ? 0 : 1;
}
