// A platformer character on the character mover (World::move_character). The character is a
// capsule the program moves itself: it runs, jumps and falls under its own velocity, and the
// mover slides it along the level. A little controller plays it through a level of static
// ground, a steep slope, a gentle ramp, a low step, a drop, two dynamic crates and a wall too
// tall to jump from the floor. It checks its own physics and returns non-zero when the character
// climbs what it must not, falls through the level, or misses the goal:
//   - walking into a 60 degree slope for a second, it never climbs it (max_slope is 45);
//   - it walks up the 25 degree ramp and steps up the 0.2 m step (step_height 0.3);
//   - it is never inside the level's static shapes, nor below the floor;
//   - standing on a crate it presses it down with its weight: the floor then carries crate and
//     character, which the crate's contact impulses show;
//   - it gets over the wall only by climbing onto the crate beside it, and reaches the goal.
// `--record FILE` writes a recording of the run; `strut view FILE -o page.html` plays it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <strut/world.hpp>

#include "examples/example_recording.hpp"

namespace {

using strut::Vec2;

constexpr float kDt = 1.0f / 60;
constexpr float kGravity = 10.0f;
constexpr float kRadius = 0.3f, kHalfCore = 0.5f;     // a capsule 1.6 m tall
constexpr float kMass = 70.0f;                        // kg, pressed onto what it stands on
constexpr float kRunSpeed = 3.0f, kJumpSpeed = 5.5f;  // a jump rises 5.5^2 / 20 = 1.51 m

// Collision categories: the level, the crates, the character's own (drawn) body.
constexpr std::uint32_t kLevel = 1, kCrates = 2, kCharacter = 4;

constexpr float kWallLeft = 23.0f, kWallTop = 2.0f, kGoal = 30.0f;

struct Level {
  strut::World world{strut::WorldConfig{.gravity = {0, -kGravity}}};
  strut::BodyId crate;  // the one beside the wall
};

void add_static(strut::World& world, const strut::Shape& shape, Vec2 center) {
  strut::BodyDef def;
  def.shapes = {strut::ShapeDef{.shape = shape, .filter = {.category = kLevel}}};
  def.center = center;
  def.is_static = true;
  world.create_body(def);
}

strut::BodyId add_crate(strut::World& world, float half, Vec2 center) {
  strut::BodyDef def;
  def.shapes = {strut::ShapeDef{.shape = strut::BoxShape{{half, half}},
                                .material = {.density = 100},  // kg/m^2: a 1 m crate of 100 kg
                                .filter = {.category = kCrates}}};
  def.center = center;
  return world.create_body(def);
}

// Left to right: a 60 degree slope up to x = -3, flat ground, a 25 degree ramp from x = 6 to 10
// onto a plateau, a 0.2 m step up at x = 13, a drop to the floor at x = 17, a small crate at
// x = 19.5, a 1 m crate against the 2 m wall at x = 23 to 23.4, the goal at x = 30.
void build(Level& level) {
  strut::World& w = level.world;
  const float ramp = 4 * std::tan(25 * 3.14159265f / 180);  // 1.865 m
  add_static(w,
             strut::ChainShape{{{-6, 3 * std::tan(60 * 3.14159265f / 180)},
                                {-3, 0},
                                {6, 0},
                                {10, ramp},
                                {13, ramp},
                                {13, ramp + 0.2f},
                                {17, ramp + 0.2f},
                                {17, 0},
                                {40, 0}}},
             {});
  add_static(w, strut::BoxShape{{0.2f, 0.5f * kWallTop}}, {kWallLeft + 0.2f, 0.5f * kWallTop});
  add_crate(w, 0.3f, {19.5f, 0.3f});
  level.crate = add_crate(w, 0.5f, {kWallLeft - 0.55f, 0.5f});  // 5 cm from the wall
}

strut::Capsule capsule_at(Vec2 feet) {
  return {{feet.x, feet.y + kRadius}, {feet.x, feet.y + kRadius + 2 * kHalfCore}, kRadius};
}
Vec2 feet_of(const strut::Capsule& c) { return {c.a.x, c.a.y - kRadius}; }

// Whether the capsule is inside any of the level's static shapes (touching is not).
bool inside_level(const strut::World& w, const strut::Capsule& c) {
  const strut::ShapeFilter level_only{kCharacter, kLevel, 0};
  return !w.overlap_shape(strut::CapsuleShape{kHalfCore, kRadius},
                          {0.5f * (c.a + c.b), 3.14159265f / 2}, level_only)
              .empty();
}

// The vertical support the floor gives the crate: its contact impulses with the level, N s.
float floor_support(const strut::World& w, strut::BodyId crate) {
  float impulse = 0;
  for (const strut::ContactData& c : w.body_contacts(crate)) {
    const bool crate_is_b = c.b == crate;
    const float up = crate_is_b ? c.normal.y : -c.normal.y;  // the normal pushes b
    if (up < 0.9f) continue;                                 // the floor, not the wall
    for (int k = 0; k < c.point_count; ++k) impulse += up * c.points[k].normal_impulse;
  }
  return impulse;
}

}  // namespace

int main(int argc, char** argv) {
  examples::ExampleRecording recording(argc, argv, "platformer", kDt);
  if (!recording.ok()) return 2;

  Level level;
  build(level);
  strut::World& world = level.world;

  // The character's own body, for drawing and recording only: kinematic, moved to the capsule
  // each frame, colliding with nothing (mask 0) and so unseen by the mover too.
  strut::BodyDef drawn;
  drawn.shapes = {strut::ShapeDef{.shape = strut::CapsuleShape{kHalfCore, kRadius},
                                  .filter = {.category = kCharacter, .mask = 0}}};
  drawn.is_kinematic = true;
  drawn.angle = 3.14159265f / 2;
  strut::Capsule capsule = capsule_at({-1, 0.005f});
  drawn.center = 0.5f * (capsule.a + capsule.b);
  const strut::BodyId character = world.create_body(drawn);

  strut::MoverSettings settings;
  settings.step_height = 0.3f;
  settings.snap_distance = 0.2f;  // follows the ramp down rather than skipping off it
  settings.filter = {kCharacter, kLevel | kCrates, 0};

  Vec2 velocity;
  bool stepped = false, jumped_the_wall_from_the_crate = false, ok = true;
  float highest_on_steep = 0, lowest_feet = 1e9f, ramp_top = 0;
  float crate_support = 0, expected_support = 0;
  int frames_on_crate = 0, frame = 0;
  float previous_x = feet_of(capsule).x;
  strut::MoveResult last;
  for (; frame < 60 * 20 && feet_of(capsule).x < kGoal; ++frame) {
    // The controller: a second running left into the steep slope, then right; a jump when on
    // the ground and facing something steep within half a metre at knee height (a crate's or
    // the wall's face, not the ramp), after standing a second on the crate by the wall.
    const bool warm_up = frame < 60;
    const float run = warm_up ? -kRunSpeed : kRunSpeed;
    const bool on_crate = last.on_ground && last.ground_body == level.crate;
    frames_on_crate = on_crate ? frames_on_crate + 1 : 0;
    const bool waiting = on_crate && frames_on_crate < 60;
    bool jump = false;
    if (!warm_up && last.on_ground && !waiting) {
      const Vec2 knee = {capsule.a.x + kRadius, capsule.a.y};
      const auto ahead = world.ray_cast(knee, knee + Vec2{0.5f, 0}, kLevel | kCrates);
      jump = ahead && ahead->normal.y < 0.7f;
    }
    velocity.x = waiting ? 0 : run;
    velocity.y = jump ? kJumpSpeed : velocity.y - kGravity * kDt;

    last = world.move_character(capsule, kDt * velocity, settings);
    capsule = last.capsule;
    if (last.on_ground && velocity.y < 0) velocity.y = 0;
    stepped = stepped || last.stepped;
    // Standing on a crate it weighs on it: m g at the point it stands on.
    if (last.on_ground && world.type(last.ground_body) == strut::BodyType::Dynamic)
      world.apply_force_at(last.ground_body, {0, -kMass * kGravity}, last.ground_point);
    if (jump && on_crate) jumped_the_wall_from_the_crate = true;

    const Vec2 feet = feet_of(capsule);
    if (warm_up) highest_on_steep = std::max(highest_on_steep, feet.y);
    lowest_feet = std::min(lowest_feet, feet.y);
    if (feet.x < 17) ramp_top = std::max(ramp_top, feet.y);
    if (inside_level(world, capsule)) {
      std::printf("frame %d: the character is inside the level at (%.3f, %.3f)\n", frame, feet.x,
                  feet.y);
      ok = false;
    }
    // Over the wall only above it: feet above its top while over it, and never from one side
    // to the other within a frame.
    const bool over_wall = feet.x >= kWallLeft && feet.x <= kWallLeft + 0.4f;
    if ((over_wall && feet.y < kWallTop) || (previous_x < kWallLeft && feet.x > kWallLeft + 0.4f)) {
      std::printf("frame %d: the character passed through the wall (feet at %.3f, %.3f)\n", frame,
                  feet.x, feet.y);
      ok = false;
    }
    previous_x = feet.x;

    world.set_target_transform(character, {0.5f * (capsule.a + capsule.b), 3.14159265f / 2}, kDt);
    world.step(kDt);
    if (waiting && frames_on_crate == 59) {
      // After most of a second on the crate: the floor holds up crate and character.
      crate_support = floor_support(world, level.crate);
      expected_support = (world.mass(level.crate) + kMass) * kGravity * kDt;
    }
    recording.capture(world, frame + 1);
  }

  const Vec2 feet = feet_of(capsule);
  std::printf("walking into the 60 degree slope, the feet were at most %.4f m high\n",
              highest_on_steep);
  std::printf("highest before the drop %.3f m (plateau after the step: %.3f m), stepped: %s\n",
              ramp_top, 4 * std::tan(25 * 3.14159265f / 180) + 0.2f, stepped ? "yes" : "no");
  std::printf(
      "standing on the crate, the floor carried %.3f N s a step (crate + character: "
      "%.3f)\n",
      crate_support, expected_support);
  std::printf("lowest feet %.4f m; at the end (%.2f, %.3f) after %.2f s\n", lowest_feet, feet.x,
              feet.y, frame * kDt);
  // Not up the steep slope (a skin of slack for the ground's own gap, 0.01 m, and rounding).
  ok = ok && highest_on_steep < 0.02f;
  // Up the ramp and the step: the plateau beyond the step is 2.065 m high (feet within 0.02).
  ok = ok && stepped && ramp_top > 4 * std::tan(25 * 3.14159265f / 180) + 0.2f - 0.02f;
  ok = ok && lowest_feet > -0.01f;  // never below the floor
  // The crate's weight 100 kg and the character's 70 kg on the floor, within 5 % (the solver's
  // impulses of a settled stack match m g dt to well under that).
  ok = ok && expected_support > 0 &&
       std::fabs(crate_support - expected_support) < 0.05f * expected_support;
  ok = ok && jumped_the_wall_from_the_crate && feet.x >= kGoal;

  if (!recording.finish()) return 1;
  std::printf(ok ? "the character ran the level\n" : "the character did not run as expected\n");
  return ok ? 0 : 1;
}
