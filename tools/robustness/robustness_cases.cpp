// The robustness cases (robustness.hpp): the scenes and how each figure is measured. Every
// scene runs at the default settings (dt 1/60, 4 substeps, gravity (0, -10), friction 0.6,
// density 1) unless its description says otherwise.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <utility>

#include "tools/robustness/case_building.hpp"

namespace strut::robustness {
namespace {

// --- stacks ---------------------------------------------------------------------------------

Scene column(bool sleep) {
  Scene s = base(sleep ? "column20_sleep" : "column20",
                 std::string("20 unit boxes (half extent 0.5) in a column on a static ground") +
                     (sleep ? ", sleep on" : ", sleep off"),
                 1200, sleep);
  add(s, ground_box());
  for (int i = 0; i < 20; ++i) add(s, box({0, 0.5f + float(i)}, {0.5f, 0.5f}));
  return s;
}

double column_drift(Engine& e) {
  return max_over(e, 1200, [&] { return std::fabs(e.position(20).x); });
}

// Box2D's HighMassRatio1: three pyramids of 2 m boxes with a base of 10, each topped by one box
// of density 100, 200 and 300.
Scene high_mass_ratio_1() {
  Scene s = base("high_mass_ratio_1",
                 "Box2D's HighMassRatio1: three pyramids of 2 m boxes (base 10) topped by boxes of "
                 "density 100, 200 and 300, sleep off",
                 600, false);
  add(s, ground_box());
  const float extent = 1.0f;
  for (int j = 0; j < 3; ++j) {
    int count = 10;
    const float offset = -20.0f * extent + 2.0f * (count + 1.0f) * extent * float(j);
    float y = extent;
    while (count > 0) {
      for (int i = 0; i < count; ++i) {
        const float coeff = float(i) - 0.5f * float(count);
        const float yy = count == 1 ? y + 2.0f : y;
        add(s, box({2.0f * coeff * extent + offset, yy}, {extent, extent},
                   count == 1 ? (float(j) + 1.0f) * 100.0f : 1.0f));
      }
      --count;
      y += 2.0f * extent;
    }
  }
  return s;
}

// The largest drop of any box below its place after `steps` steps: where it was created, and for
// the heavy tops (created 2 m above the pyramid, as in Box2D's sample) 2 m lower, on the
// pyramid. Bodies [1, bodies): 55 a pyramid, its top last.
double largest_drop(Engine& e, int steps, int bodies) {
  std::vector<float> place;
  for (int k = 1; k < bodies; ++k) place.push_back(e.position(k).y - (k % 55 == 0 ? 2.0f : 0.0f));
  for (int i = 0; i < steps; ++i) e.step();
  double worst = 0;
  for (int k = 1; k < bodies; ++k) worst = std::max(worst, double(place[k - 1] - e.position(k).y));
  return worst;
}

// Box2D's HighMassRatio2: a 20 x 20 box (half extent 10) resting on two unit boxes, 400:1.
Scene high_mass_ratio_2() {
  Scene s = base("high_mass_ratio_2",
                 "Box2D's HighMassRatio2 placed at rest: a 20 x 20 box on two 1 x 1 boxes (400:1), "
                 "sleep off",
                 1800, false);
  add(s, ground_box());
  add(s, box({-9.5f, 0.5f}, {0.5f, 0.5f}));
  add(s, box({9.5f, 0.5f}, {0.5f, 0.5f}));
  add(s, box({0, 11.0f}, {10.0f, 10.0f}));
  return s;
}

// Six boxes whose side doubles from 1 to 32 m, each centred on the one below.
Scene doubling_stack() {
  Scene s =
      base("doubling_stack",
           "6 boxes whose side doubles each level (1, 2, 4, 8, 16, 32 m), sleep on", 1800, true);
  add(s, ground_box({0, -1}, {100, 1}));
  float y = 0;
  for (int i = 0; i < 6; ++i) {
    const float half = 0.5f * float(1 << i);
    add(s, box({0, y + half}, {half, half}));
    y += 2 * half;
  }
  return s;
}

Scene stack3_drop() {
  Scene s =
      base("stack3_drop", "a 3-box stack of unit boxes dropped from 10 cm, sleep on", 600, true);
  add(s, ground_box());
  for (int i = 0; i < 3; ++i) add(s, box({0, 0.6f + float(i)}, {0.5f, 0.5f}));
  return s;
}

Scene boxes_at_one_point() {
  Scene s = base("boxes_at_one_point",
                 "three unit boxes created at one point on the ground (overlap recovery), sleep "
                 "off",
                 600, false);
  add(s, ground_box());
  for (int i = 0; i < 3; ++i) add(s, box({0, 0.5f}, {0.5f, 0.5f}));
  return s;
}

// Box2D's Overlap Recovery: a pyramid of 10 unit boxes (a base of 4) placed 0.25 m into each
// neighbour and 0.125 m into the ground, sleep off.
Scene overlap_recovery() {
  Scene s = base("overlap_recovery",
                 "Box2D's Overlap Recovery: a pyramid of 10 unit boxes (base 4) placed 0.25 m into "
                 "each neighbour and 0.125 m into the ground, sleep off",
                 600, false);
  add(s, ground_box());
  const int base_count = 4;
  const float extent = 0.5f, fraction = 1.0f - 0.25f;
  float y = extent * fraction;
  for (int i = 0; i < base_count; ++i) {
    float x = fraction * extent * float(i - base_count + 1);
    for (int j = i; j < base_count; ++j) {
      add(s, box({x, y}, {extent, extent}));
      x += 2.0f * fraction * extent;
    }
    y += 2.0f * fraction * extent;
  }
  return s;
}

Scene far_stack() {
  Scene s = base("far_stack",
                 "a 3-box stack of unit boxes on a ground box at (3996, 3996), by the coordinate "
                 "limit of 4,000 m (strut/limits.hpp), sleep off",
                 600, false);
  const Vec2 o{3996.0f, 3996.0f};
  add(s, ground_box(o + Vec2{0, -1}, {20, 1}));
  for (int i = 0; i < 3; ++i) add(s, box(o + Vec2{0, 0.5f + float(i)}, {0.5f, 0.5f}));
  return s;
}

// Box2D's Card House (after PEEL): cards of 0.4 m by 2 mm (200:1) leaning in pairs, five levels
// on a box ground, friction 0.7.
Scene card_house() {
  Scene s = base("card_house",
                 "Box2D's Card House: cards 0.4 m x 2 mm (200:1) leaning in pairs at 25 degrees, "
                 "flat cards between, 5 levels, friction 0.7, sleep off",
                 600, false);
  Material card;
  card.friction = 0.7f;
  BodyDef ground = ground_box({0, -2}, {40, 2});
  ground.shapes[0].material = card;
  add(s, ground);
  const float height = 0.2f, thickness = 0.001f;
  const float lean = 25.0f * std::numbers::pi_v<float> / 180.0f;
  const auto put = [&](Vec2 c, float angle) {
    BodyDef d = box(c, {thickness, height});
    d.angle = angle;
    d.shapes[0].material = card;
    add(s, d);
  };
  float z0 = 0, y = height - 0.02f;
  for (int n = 5; n > 0; --n) {
    float z = z0;
    for (int i = 0; i < n; ++i) {
      if (i != n - 1) put({z + 0.25f, y + height - 0.015f}, 0.5f * std::numbers::pi_v<float>);
      put({z, y}, -lean);
      z += 0.175f;
      put({z, y}, lean);
      z += 0.175f;
    }
    y += 2 * height - 0.03f;
    z0 += 0.175f;
  }
  return s;
}

// Box2D's Double Domino sample: 15 dominoes (0.25 x 1 m, friction 0.6) a metre apart on the
// ground, the first given the motion of an impulse of (0.2, 0) N s at its top (v = J / m,
// omega = (r x J) / I), sleep on.
Scene double_domino() {
  Scene s = base("double_domino",
                 "15 dominoes of 0.25 x 1 m, 1 m apart, friction 0.6; the first pushed at its "
                 "top by 0.2 N s (Box2D's Double Domino)",
                 600, true);
  BodyDef ground = ground_box({0, -1}, {100, 1});
  ground.shapes[0].material.friction = 0.6f;
  add(s, ground);
  const Vec2 half{0.125f, 0.5f};
  const float mass = 4.0f * half.x * half.y,
              inertia = mass * (half.x * half.x + half.y * half.y) / 3.0f;
  for (int i = 0; i < 15; ++i) {
    BodyDef d = box({-7.5f + float(i), 0.5f}, half);
    d.shapes[0].material.friction = 0.6f;
    if (i == 0) {
      const Vec2 impulse{0.2f, 0.0f}, arm{0.0f, 0.5f};
      d.velocity = (1.0f / mass) * impulse;
      d.angular_velocity = (arm.x * impulse.y - arm.y * impulse.x) / inertia;
    }
    add(s, d);
  }
  return s;
}

// How many of bodies [first, last) still stand (turned less than 0.3 rad) after `steps`.
double still_standing(Engine& e, int steps, int first, int last) {
  for (int i = 0; i < steps; ++i) e.step();
  int standing = 0;
  for (int k = first; k < last; ++k) standing += std::fabs(e.angle(k)) < 0.3f;
  return standing;
}

// Box2D's Arch sample: 17 blocks without mortar (the quadrilaterals between two curves, scaled
// by 0.25, the sample's figures) on a segment ground, four 4 x 1 m boxes on the keystone,
// friction 0.6, sleep on.
Scene arch() {
  Scene s = base("arch",
                 "an arch of 17 blocks held by friction alone (0.6) with four boxes on its top "
                 "(Box2D's Arch)",
                 600, true);
  const Vec2 inner[9] = {{16.0f, 0.0f},
                         {14.93803712795643f, 5.133601056842984f},
                         {13.79871746027416f, 10.24928069555078f},
                         {12.56252963284711f, 15.34107019122473f},
                         {11.20040987372525f, 20.39856541571217f},
                         {9.66521217819836f, 25.40369899225096f},
                         {7.87179930638133f, 30.3179337000085f},
                         {5.635199558196225f, 35.03820717801641f},
                         {2.405937953536585f, 39.09554102558315f}};
  const Vec2 outer[9] = {{24.0f, 0.0f},
                         {22.33619528222415f, 6.02299846205841f},
                         {20.54936888969905f, 12.00964361211476f},
                         {18.60854610798073f, 17.9470321677465f},
                         {16.46769273811807f, 23.81367936585418f},
                         {14.05325025774858f, 29.57079353071012f},
                         {11.23551045834022f, 35.13775818285372f},
                         {7.752568160730571f, 40.30450679009583f},
                         {3.016931552701656f, 44.28891593799322f}};
  const auto at = [](Vec2 p, float side) { return Vec2{side * 0.25f * p.x, 0.25f * p.y}; };
  BodyDef ground;
  ground.is_static = true;
  ground.shapes = {ShapeDef{.shape = SegmentShape{{-100.0f, 0.0f}, {100.0f, 0.0f}},
                            .material = {.friction = 0.6f}}};
  add(s, ground);
  const auto block = [&](std::vector<Vec2> points) {
    BodyDef d;
    d.shapes = {ShapeDef{.shape = PolygonShape{std::move(points)}, .material = {.friction = 0.6f}}};
    add(s, d);
  };
  for (const float side : {1.0f, -1.0f})
    for (int i = 0; i < 8; ++i)
      block(
          {at(inner[i], side), at(outer[i], side), at(outer[i + 1], side), at(inner[i + 1], side)});
  block({at(inner[8], 1), at(outer[8], 1), at(outer[8], -1), at(inner[8], -1)});
  for (int i = 0; i < 4; ++i) {
    BodyDef d = box({0.0f, 0.5f + 0.25f * outer[8].y + float(i)}, {2.0f, 0.5f});
    d.shapes[0].material.friction = 0.6f;
    add(s, d);
  }
  return s;
}

// Box2D's HighMassRatio3: a 20 x 20 m box (400 kg) dropped 2.5 m onto the tips of two small
// triangles (0.5 kg each: 800:1) 18 m apart, sleep on.
Scene high_mass_ratio_3() {
  Scene s = base("high_mass_ratio_3",
                 "a 20 x 20 m box dropped 2.5 m onto the tips of two triangles of 1 x 1 m, 18 m "
                 "apart (800:1; Box2D's HighMassRatio3)",
                 600, true);
  add(s, ground_box());
  for (const float x : {-9.0f, 9.0f}) {
    BodyDef d;
    d.shapes = {ShapeDef{PolygonShape{{{-0.5f, 0.0f}, {0.5f, 0.0f}, {0.0f, 1.0f}}}}};
    d.center = {x, 0.5f};
    add(s, d);
  }
  add(s, box({0.0f, 14.0f}, {10.0f, 10.0f}));
  return s;
}

// Box2D's Confined: 625 circles of radius 0.5 without gravity, created 0.72 m apart (each
// overlapping its neighbours by 0.28 m) in a 21 x 20.5 m box of capsule walls, sleep on.
Scene confined() {
  Scene s = base("confined",
                 "625 circles of radius 0.5 without gravity, created overlapping 0.28 m in a "
                 "21 m box of capsule walls (Box2D's Confined)",
                 600, true);
  BodyDef walls;
  walls.is_static = true;
  const auto wall = [](Vec2 a, Vec2 b) {
    ShapeDef d;
    const Vec2 mid = 0.5f * (a + b), along = b - a;
    d.shape = CapsuleShape{0.5f * length(along), 0.5f};
    d.offset = mid;
    d.angle = std::atan2(along.y, along.x);
    return d;
  };
  walls.shapes = {wall({-10.5f, 0.0f}, {10.5f, 0.0f}), wall({-10.5f, 0.0f}, {-10.5f, 20.5f}),
                  wall({10.5f, 0.0f}, {10.5f, 20.5f}), wall({-10.5f, 20.5f}, {10.5f, 20.5f})};
  add(s, walls);
  for (int column = 0; column < 25; ++column)
    for (int row = 0; row < 25; ++row) {
      BodyDef d;
      d.shapes = {ShapeDef{CircleShape{0.5f}}};
      d.center = {-8.75f + float(column) * 18.0f / 25.0f, 1.5f + float(row) * 18.0f / 25.0f};
      d.gravity_scale = 0.0f;
      add(s, d);
    }
  return s;
}

// Circles of bodies [first, last) whose centres left the box [lo, hi] less their radius.
double escaped(Engine& e, int steps, int first, int last, Vec2 lo, Vec2 hi) {
  int out = 0;
  for (int i = 0; i < steps; ++i) e.step();
  for (int k = first; k < last; ++k) {
    const Vec2 p = e.position(k);
    out += p.x < lo.x || p.y < lo.y || p.x > hi.x || p.y > hi.y;
  }
  return out;
}

// The AVBD demo's heavy rope: 20 capsule links of 1 m hanging from a static pivot, the last
// holding a 30 x 30 m box (density 1, 900 kg against 0.1 kg a link).
Scene heavy_rope() {
  Scene s = base("heavy_rope",
                 "a rope of 20 capsule links (1 m, radius 0.1) hanging from a static pivot, "
                 "holding a 30 x 30 m box at its end (9,000:1), sleep off",
                 180, false);
  add_pivot(s, {0, 60});
  std::string previous = "pivot";
  for (int i = 0; i < 20; ++i) {
    BodyDef link;
    link.shapes = {ShapeDef{.shape = CapsuleShape{0.4f, 0.1f}, .filter = {.group = -1}}};
    link.center = {0, 59.5f - float(i)};
    link.angle = 0.5f * std::numbers::pi_v<float>;
    const std::string name = "link" + std::to_string(i);
    add(s, link, name);
    pin(s, previous, name, {0, 60.0f - float(i)});
    previous = name;
  }
  BodyDef weight = box({0, 40.0f - 15.0f}, {15, 15});
  weight.shapes[0].filter.group = -1;
  add(s, weight, "weight");
  pin(s, previous, "weight", {0, 40});
  return s;
}

// --- energy ---------------------------------------------------------------------------------

Scene elastic_circles() {
  Scene s = base("elastic_circles",
                 "2,000 circles (radius 0.25, restitution 1, no friction) falling in a closed "
                 "30 x 40 m box, sleep off",
                 600, false);
  Material bouncy;
  bouncy.friction = 0.0f;
  bouncy.restitution = 1.0f;
  const auto wall = [&](Vec2 c, Vec2 h) {
    BodyDef d = ground_box(c, h);
    d.shapes[0].material = bouncy;
    add(s, d);
  };
  wall({0, -1}, {16, 1});
  wall({0, 41}, {16, 1});
  wall({-16, 20}, {1, 22});
  wall({16, 20}, {1, 22});
  for (int i = 0; i < 2000; ++i) {
    BodyDef d;
    d.shapes = {ShapeDef{.shape = CircleShape{0.25f}, .material = bouncy}};
    d.center = {-14.5f + 0.6f * float(i % 49), 1.0f + 0.6f * float(i / 49)};
    add(s, d);
  }
  return s;
}

double energy_gain(Engine& e, int steps, int first, int last) {
  const Vec2 g{0, -10};
  const double start = energy(e, first, last, g);
  double worst = start;
  for (int i = 0; i < steps; ++i) {
    e.step();
    worst = std::max(worst, energy(e, first, last, g));
  }
  // Relative to the energy above the lowest it could reach (every circle at rest at y = 0).
  double floor = 0;
  for (int k = first; k < last; ++k) floor -= e.mass(k) * double(dot(g, Vec2{0, 0.25f}));
  return (worst - floor) / (start - floor);
}

Scene spinning_circle(float spin) {
  const std::string rate = std::to_string(int(spin));
  Scene s = base("spinning_circle_" + rate,
                 "a circle of radius 0.5 resting on a long ground, spinning at " + rate +
                     " rad/s (friction makes it roll off)",
                 120, false);
  add(s, ground_box({0, -1}, {5000, 1}));
  BodyDef d;
  d.shapes = {ShapeDef{CircleShape{0.5f}}};
  d.center = {0, 0.5f};
  d.angular_velocity = spin;
  add(s, d);
  return s;
}

double deepest_sink(Engine& e, int steps, int body, float rest_y) {
  return max_over(e, steps, [&] { return rest_y - e.position(body).y; });
}

// --- joints ---------------------------------------------------------------------------------

// Capsules along x, joined end to end where they meet, in one negative group.
Scene ragdoll() {
  Scene s = base("ragdoll",
                 "a ragdoll of 7 capsules (6 revolute joints with limits of +-0.6 rad and 1 N m "
                 "friction motors) dropped 1 m onto flat ground, lying, sleep off",
                 1200, false);
  add(s, ground_box());
  struct Part {
    const char* name;
    Vec2 center;
    float half_length;
  };
  const Part parts[] = {{"pelvis", {0, 1.5f}, 0.2f},     {"chest", {0.7f, 1.5f}, 0.25f},
                        {"head", {1.3f, 1.5f}, 0.1f},    {"arm_l", {0.7f, 2.0f}, 0.3f},
                        {"arm_r", {0.7f, 1.0f}, 0.3f},   {"leg_l", {-0.75f, 1.75f}, 0.4f},
                        {"leg_r", {-0.75f, 1.25f}, 0.4f}};
  for (const Part& p : parts) {
    BodyDef d;
    d.shapes = {ShapeDef{.shape = CapsuleShape{p.half_length, 0.15f}, .filter = {.group = -1}}};
    d.center = p.center;
    add(s, d, p.name);
  }
  const auto joint = [&](const char* a, const char* b, Vec2 anchor) {
    RevoluteJointDef j;
    j.anchor = anchor;
    j.limit = {true, -0.6f, 0.6f};
    j.motor = {true, 0.0f, 1.0f};
    s.joints.push_back(SceneJoint{{}, a, b, j});
  };
  joint("pelvis", "chest", {0.35f, 1.5f});
  joint("chest", "head", {1.1f, 1.5f});
  joint("chest", "arm_l", {0.7f, 1.6f});
  joint("chest", "arm_r", {0.7f, 1.4f});
  joint("pelvis", "leg_l", {-0.2f, 1.6f});
  joint("pelvis", "leg_r", {-0.2f, 1.4f});
  return s;
}

// A hammer: a handle (0.1 x 2 m) and a head (0.6 x 0.4 m) in one body, pinned to the ground
// at the handle's far end, released horizontal.
// A scene of one body `swing`, named `body`, pinned by a free revolute joint to a static pivot
// at (0, 10).
Scene pinned_to_pivot(std::string scene, std::string body, std::string description, int steps,
                      BodyDef swing) {
  Scene s = base(std::move(scene), std::move(description), steps, false);
  add_pivot(s, {0, 10});
  add(s, std::move(swing), body);
  pin(s, "pivot", body, {0, 10});
  return s;
}

Scene hammer() {
  BodyDef h;
  h.center = {0, 10};
  ShapeDef handle, head;
  handle.shape = PolygonShape{{{0.0f, -0.05f}, {2.0f, -0.05f}, {2.0f, 0.05f}, {0.0f, 0.05f}}};
  head.shape = PolygonShape{{{1.8f, -0.3f}, {2.2f, -0.3f}, {2.2f, 0.3f}, {1.8f, 0.3f}}};
  h.shapes = {handle, head};
  return pinned_to_pivot("hammer", "hammer",
                         "a compound hammer (handle 2 m x 0.1 m, head 0.4 x 0.6 m, density 1) on "
                         "a revolute joint to the ground at the handle's end, released "
                         "horizontally",
                         150, h);
}

// The share of the swing's energy lost in the first half swing, from how far past the bottom
// it turns: a lossless swing turns at -pi, a lossy one at -pi + d, losing sin(d) of m g L.
double half_swing_loss(Engine& e) {
  double lowest = 0;
  for (int i = 0; i < 150; ++i) {
    e.step();
    lowest = std::min(lowest, double(e.joint_coordinate(0)));
  }
  return std::sin(std::numbers::pi + lowest);
}

Scene pendulum() {
  BodyDef bob;
  bob.shapes = {ShapeDef{CircleShape{0.2f}}};
  const float a = 0.25f * std::numbers::pi_v<float>;
  bob.center = Vec2{0, 10} + 2.0f * Vec2{std::sin(a), -std::cos(a)};
  return pinned_to_pivot("pendulum", "bob",
                         "a circle (radius 0.2) on a 2 m revolute arm from a static pivot, "
                         "released at 45 degrees, no damping; 20 swings",
                         3500, bob);
}

// 1 - the amplitude of the 20th swing over the first (amplitudes as the bob's angle from the
// vertical at its turning points on the release side).
double amplitude_loss(Engine& e) {
  const auto swing = [&] {
    const Vec2 p = e.position(1) - Vec2{0, 10};
    return double(std::atan2(p.x, -p.y));
  };
  const double first = swing();
  double last = first, previous = first, before = first;
  int turns = 0;
  for (int i = 0; i < 3500 && turns < 20; ++i) {
    e.step();
    const double now = swing();
    if (previous > before && previous >= now && previous > 0) {  // a turning point on this side
      last = previous;
      ++turns;
    }
    before = previous, previous = now;
  }
  return 1.0 - last / first;
}

// A unit box on a horizontal prismatic joint to the ground, no gravity, driven by its motor
// (1,000 N) at `speed`, with a limit of +-1.5 m when `limited`.
Scene slider(std::string name, std::string description, int steps, float speed, bool limited) {
  Scene s = base(std::move(name), std::move(description), steps, false);
  s.config.gravity = {0, 0};
  add(s, ground_box(), "ground");
  add(s, box({0, 5}, {0.5f, 0.5f}), "slider");
  PrismaticJointDef j;
  j.anchor = {0, 5};
  j.axis = {1, 0};
  if (limited) j.limit = {true, -1.5f, 1.5f};
  j.motor = {true, speed, 1000.0f};
  s.joints.push_back(SceneJoint{{}, "ground", "slider", j});
  return s;
}

Scene prismatic_limit() {
  return slider("prismatic_limit",
                "a unit box on a horizontal prismatic joint to the ground, driven by a motor at "
                "3 m/s (1,000 N) into its upper limit of 1.5 m, no gravity",
                120, 3.0f, true);
}

Scene prismatic_motor() {
  return slider("prismatic_motor",
                "a unit box on a horizontal prismatic joint, its motor at 2 m/s (1,000 N) from "
                "rest, no gravity; distance after 1 s",
                60, 2.0f, false);
}

double translation_after(Engine& e, int steps) {
  for (int i = 0; i < steps; ++i) e.step();
  return e.joint_coordinate(0);
}

}  // namespace

std::vector<Case> cases() {
  std::vector<Case> c;
  c.push_back({"column20", "largest sideways move of the top box in 20 s (m)", 0.02, true,
               "a column of rigid boxes on a flat floor stands: only the contacts' give moves it; "
               "Box2D v3 holds it within 1.2 cm",
               [] { return column(false); }, column_drift});
  c.push_back({"column20_sleep", "largest sideways move of the top box in 20 s (m)", 0.02, true,
               "as column20: it must not fall asleep leaning", [] { return column(true); },
               column_drift});
  c.push_back({"high_mass_ratio_1", "largest drop of a box below its place after 10 s (m)", 0.25,
               true,
               "pyramids of rigid boxes stand; the heavy tops sink only by the contacts' give "
               "(Box2D v3: 0.07, 0.16, 0.21 m)",
               high_mass_ratio_1, [](Engine& e) { return largest_drop(e, 600, e.body_count()); }});
  c.push_back({"high_mass_ratio_1_quiet", "fastest box point in the 10th second (m/s)", kSleepSpeed,
               true, "a standing pile comes to rest (below the sleep speed)", high_mass_ratio_1,
               [](Engine& e) {
                 for (int i = 0; i < 540; ++i) e.step();
                 return max_over(e, 60, [&] { return fastest(e, 1, e.body_count(), 1.5f); });
               }});
  c.push_back(
      {"high_mass_ratio_2", "sideways walk of the big box in 30 s (m)", 0.02, true,
       "a box resting on two supports does not walk (Box2D v3: 1.5 mm)", high_mass_ratio_2,
       [](Engine& e) { return max_over(e, 1800, [&] { return std::fabs(e.position(3).x); }); }});
  c.push_back({"high_mass_ratio_2_quiet", "fastest box point in the last 10 s of 30 s (m/s)",
               kSleepSpeed, true, "it comes to rest", high_mass_ratio_2, [](Engine& e) {
                 for (int i = 0; i < 1200; ++i) e.step();
                 return max_over(e, 600, [&] { return fastest(e, 1, 4, 14.2f); });
               }});
  c.push_back({"doubling_stack", "largest sideways move of the top box in 30 s (m)", 0.1, true,
               "it stands (Box2D v3 stands and sleeps)", doubling_stack, [](Engine& e) {
                 return max_over(e, 1800, [&] { return std::fabs(e.position(6).x); });
               }});
  c.push_back({"doubling_stack_sleep", "time until every box sleeps (s, 30 if never)", 10.0, true,
               "a standing stack comes to rest and sleeps", doubling_stack,
               [](Engine& e) { return time_to_sleep(e, 1800, 1, 7); }, false, 0, true});
  c.push_back({"elastic_circles",
               "largest energy over the start, both above the floor's rest (ratio)", 1.01, true,
               "collisions of restitution 1 may keep energy, never add it (+1% allowed)",
               elastic_circles, [](Engine& e) { return energy_gain(e, 600, 4, e.body_count()); }});
  for (const float spin : {100.0f, 1000.0f}) {
    c.push_back({"spinning_circle_" + std::to_string(int(spin)),
                 "deepest sink into the ground in 2 s (m)", 0.01, true,
                 "spinning on the spot does not press a wheel into the ground",
                 [spin] { return spinning_circle(spin); },
                 [](Engine& e) { return deepest_sink(e, 120, 1, 0.5f); }});
  }
  c.push_back({"ragdoll", "fastest limb point from 5 s to 20 s (m/s)", kSleepSpeed, true,
               "joint friction and ground friction bring it to rest within 5 s; nothing drives it",
               ragdoll, [](Engine& e) {
                 for (int i = 0; i < 300; ++i) e.step();
                 return max_over(e, 900, [&] { return fastest(e, 1, 8, 0.55f); });
               }});
  c.push_back({"boxes_at_one_point",
               "time until every box moves slower than the sleep speed for good (s)", 5.0, true,
               "pushed apart, they settle into a pile", boxes_at_one_point,
               [](Engine& e) { return time_to_rest(e, 600, 1, 4, 0.71f); }});
  c.push_back({"overlap_recovery",
               "time until every box moves slower than the sleep speed for good (s)", 5.0, true,
               "pushed apart, the boxes settle into a pyramid", overlap_recovery,
               [](Engine& e) { return time_to_rest(e, 600, 1, 11, 0.71f); }});
  c.push_back({"stack3_drop", "time until all three sleep (s)", 2.0, true,
               "a short drop onto a flat floor ends at rest (Box2D v3: asleep within 2 s)",
               stack3_drop, [](Engine& e) { return time_to_sleep(e, 600, 1, 4); }, false, 0, true});
  c.push_back({"hammer", "energy lost in the first half swing (share)", 0.005, true,
               "an undamped revolute joint conserves energy", hammer, half_swing_loss});
  c.push_back({"pendulum", "amplitude lost over 20 swings (share of the first)", 0.01, true,
               "an undamped pendulum keeps its amplitude", pendulum, amplitude_loss});
  c.push_back(
      {"prismatic_limit", "overshoot past the 1.5 m limit (m)", 0.02, true,
       "a limit is a wall: what passes it is error (Box2D v3: within 0.02 m)", prismatic_limit,
       [](Engine& e) { return max_over(e, 120, [&] { return e.joint_coordinate(0) - 1.5f; }); }});
  c.push_back({"prismatic_motor",
               "distance after 1 s (m; 2 at the motor's speed from the first step)", 1.99, false,
               "a motor strong enough reaches its speed in the first step", prismatic_motor,
               [](Engine& e) { return translation_after(e, 60); }});
  c.push_back({"card_house", "largest move of a card from 1 s to 10 s (m)", 0.01, true,
               "once settled, a card house whose cards hold by friction stands still", card_house,
               [](Engine& e) {
                 for (int i = 0; i < 60; ++i) e.step();
                 return largest_move(e, 540);
               }});
  c.push_back({
      "heavy_rope",
      "stretch of the 20 m rope after 3 s (m: the box's top from the pivot, less 20)",
      0.2,
      true,
      "links joined rigidly do not stretch (1% of its length allowed)",
      heavy_rope,
      [](Engine& e) {
        for (int i = 0; i < 180; ++i) e.step();
        const Vec2 top = e.position(21) + Vec2{0, 15.0f};
        return double(length(top - Vec2{0, 60})) - 20.0;
      },
  });
  c.push_back({"double_domino", "dominoes still standing after 10 s", 0.0, true,
               "each falling domino topples the next: the push travels down the whole row",
               double_domino, [](Engine& e) { return still_standing(e, 600, 1, 16); }});
  c.push_back({"arch", "largest move of a block from 2 s to 10 s (m)", 0.01, true,
               "once its blocks have seated, an arch held by friction stands still", arch,
               [](Engine& e) {
                 for (int i = 0; i < 120; ++i) e.step();
                 return largest_move(e, 480);
               }});
  c.push_back({"arch_sag", "drop of the keystone in 10 s (m)", 0.5, true,
               "the blocks seat by the contacts' give and a little sliding, and stop (Box2D v3: "
               "0.30 m, asleep within 2 s)",
               arch, [](Engine& e) {
                 const float start = e.position(17).y;
                 for (int i = 0; i < 600; ++i) e.step();
                 return double(start - e.position(17).y);
               }});
  c.push_back(
      {"high_mass_ratio_3", "sink of the big box below the triangles' tips after 10 s (m)", 0.2,
       true,
       "two small triangles hold an 800:1 box on their tips: only the contacts' give, under "
       "800 times a triangle's weight on a point and on its base, lets it sink (Box2D v3 "
       "0.164 m)",
       high_mass_ratio_3, [](Engine& e) {
         for (int i = 0; i < 600; ++i) e.step();
         return double(11.0f - e.position(3).y);
       }});
  c.push_back({"high_mass_ratio_3_level", "largest tilt of the big box in 10 s (rad)", 0.05, true,
               "dropped level onto two equal supports, it stays level", high_mass_ratio_3,
               [](Engine& e) { return max_over(e, 600, [&] { return std::fabs(e.angle(3)); }); }});
  c.push_back({"confined", "circles outside the box after 10 s", 0.0, true,
               "overlaps pushed apart inside a closed box stay inside it", confined, [](Engine& e) {
                 return escaped(e, 600, 1, e.body_count(), {-10.0f, 0.5f}, {10.0f, 20.0f});
               }});
  c.push_back({"confined_quiet", "fastest circle in the 10th second (m/s)", 0.5, true,
               "pushing overlaps apart adds no lasting energy: with nothing driving them, the "
               "circles slow down",
               confined, [](Engine& e) {
                 for (int i = 0; i < 540; ++i) e.step();
                 return max_over(e, 60, [&] { return fastest(e, 1, e.body_count(), 0.5f); });
               }});
  c.push_back({"far_stack", "fastest box point in the 10th second (m/s)", kSleepSpeed, true,
               "a stack far from the origin rests as it does at the origin", far_stack,
               [](Engine& e) {
                 for (int i = 0; i < 540; ++i) e.step();
                 return max_over(e, 60, [&] { return fastest(e, 1, 4, 0.71f); });
               }});
  add_statics_cases(c);
  add_rope_and_spring_cases(c);
  return c;
}

}  // namespace strut::robustness
