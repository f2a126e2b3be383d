// Robustness cases of long joint chains under heavy loads and of springs of very different
// stiffness: the AVBD demo's hanging rope and spring ratio, Solver2D's ball and chain and bridge;
// and a lander resting on a slope with its motors holding its legs at their limits. Every
// scene runs at the default settings (dt 1/60, 4 substeps, gravity (0, -10)) unless its
// description says otherwise.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "tools/robustness/case_building.hpp"

namespace strut::robustness {
namespace {

// --- the AVBD demo's hanging rope ----------------------------------------------------------------

// 49 links of 0.5 x 1 m (0.5 kg) below a static link, the last holding a 10 x 10 m box
// (100 kg, 200:1), all hanging straight at rest from the start.
constexpr int kHangingLinks = 49;

Scene hanging_rope() {
  Scene s = base("hanging_rope",
                 "the AVBD demo's hanging rope: 49 box links (0.5 x 1 m, 0.5 kg) hanging at rest "
                 "below a static link, the last holding a 10 x 10 m box (100 kg, 200:1), sleep "
                 "off",
                 600, false);
  BodyDef top = box({0, 10}, {0.25f, 0.5f});
  top.is_static = true;
  top.shapes[0].filter.group = -1;
  add(s, top, "link0");
  std::string previous = "link0";
  for (int i = 1; i <= kHangingLinks; ++i) {
    BodyDef link = box({0, 10.0f - float(i)}, {0.25f, 0.5f});
    link.shapes[0].filter.group = -1;
    const std::string name = "link" + std::to_string(i);
    add(s, link, name);
    pin(s, previous, name, {0, 10.5f - float(i)});
    previous = name;
  }
  const float top_of_box = 9.5f - float(kHangingLinks);
  BodyDef weight = box({0, top_of_box - 5.0f}, {5, 5});
  weight.shapes[0].filter.group = -1;
  add(s, weight, "weight");
  pin(s, previous, "weight", {0, top_of_box});
  return s;
}

double hanging_stretch(Engine& e, int steps) {
  for (int i = 0; i < steps; ++i) e.step();
  const float top_of_box = 9.5f - float(kHangingLinks);
  return double(top_of_box - (e.position(kHangingLinks + 1).y + 5.0f));
}

// --- springs of 1000:1 stiffness ----------------------------------------------------------------

// After the AVBD demo's spring ratio: six 0.5 kg blocks hang in a vertical chain from a static
// anchor, joined centre to centre by springs of rest length 1 m that alternate between
// k = 1,000 and 1,000,000 N/m (the top one soft), critically damped. A spring here is given by
// its frequency: k = m_eff (2 pi f)^2 with m_eff the mass it acts on (0.5 kg below the anchor,
// 0.25 kg between two blocks), so f is chosen for each k. At rest spring i carries the blocks
// below it, (6 - i) 5 N, and stretches by that over its k.
constexpr int kSpringBlocks = 6;
constexpr double kBlockMass = 0.5;

double spring_stiffness(int i) { return i % 2 == 0 ? 1.0e3 : 1.0e6; }

Scene springs_ratio() {
  Scene s = base("springs_ratio",
                 "six 0.5 kg blocks hanging in a chain from a static anchor by critically damped "
                 "springs of rest length 1 m alternating k = 1,000 and 1,000,000 N/m (after the "
                 "AVBD demo's spring ratio), released at the springs' rest lengths, sleep off",
                 600, false);
  BodyDef anchor = box({0, 0}, {0.5f, 0.25f});
  anchor.is_static = true;
  anchor.shapes[0].filter.group = -1;
  add(s, anchor, "anchor");
  std::string previous = "anchor";
  for (int i = 0; i < kSpringBlocks; ++i) {
    BodyDef block = box({0, -1.0f - float(i)}, {0.5f, 0.25f});  // 1 x 0.5 m, 0.5 kg
    block.shapes[0].filter.group = -1;
    const std::string name = "block" + std::to_string(i);
    add(s, block, name);
    const double effective_mass = i == 0 ? kBlockMass : 0.5 * kBlockMass;
    DistanceJointDef spring;
    spring.anchor_a = {0, -float(i)};
    spring.anchor_b = {0, -1.0f - float(i)};
    spring.spring.enabled = true;
    spring.spring.hertz =
        float(std::sqrt(spring_stiffness(i) / effective_mass) / (2.0 * std::numbers::pi));
    spring.spring.damping_ratio = 1.0f;
    s.joints.push_back(SceneJoint{{}, previous, name, spring});
    previous = name;
  }
  return s;
}

// The largest distance of a block from its analytic rest height after `steps` steps (m).
double spring_rest_error(Engine& e, int steps) {
  for (int i = 0; i < steps; ++i) e.step();
  double expected = 0, worst = 0;
  for (int i = 0; i < kSpringBlocks; ++i) {
    const double load = double(kSpringBlocks - i) * kBlockMass * 10.0;
    expected -= 1.0 + load / spring_stiffness(i);
    worst = std::max(worst, std::fabs(double(e.position(i + 1).y) - expected));
  }
  return worst;
}

// --- Solver2D's ball and chain ------------------------------------------------------------------

// 40 capsule links (1 m, radius 0.125, density 20: 6 kg) from a static pivot, laid out
// horizontally, the last holding a circle of radius 8 (density 20: 4,021 kg, 670:1); linear and
// angular damping 0.1 as in Solver2D.
constexpr int kChainLinks = 40;

Scene ball_and_chain() {
  Scene s = base("ball_and_chain",
                 "Solver2D's Ball & Chain: 40 capsule links (1 m, radius 0.125, density 20) "
                 "laid out horizontally from a static pivot, the last holding a circle of radius "
                 "8 (670:1), damping 0.1, swinging down; sleep off",
                 180, false);
  add_pivot(s, {0, 20});
  std::string previous = "pivot";
  for (int i = 0; i < kChainLinks; ++i) {
    BodyDef link;
    link.shapes = {ShapeDef{.shape = CapsuleShape{0.5f, 0.125f},
                            .material = {.density = 20.0f},
                            .filter = {.group = -1}}};
    link.center = {0.5f + float(i), 20};
    link.linear_drag = 0.1f;
    link.angular_drag = 0.1f;
    const std::string name = "link" + std::to_string(i);
    add(s, link, name);
    pin(s, previous, name, {float(i), 20});
    previous = name;
  }
  BodyDef ball;
  ball.shapes = {ShapeDef{
      .shape = CircleShape{8.0f}, .material = {.density = 20.0f}, .filter = {.group = -1}}};
  ball.center = {float(kChainLinks) + 8.0f, 20};
  ball.linear_drag = 0.1f;
  ball.angular_drag = 0.1f;
  add(s, ball, "ball");
  pin(s, previous, "ball", {float(kChainLinks), 20});
  return s;
}

// How much longer than 48 m the pivot-to-ball distance gets in the first `steps` steps (m).
double chain_stretch(Engine& e, int steps) {
  return max_over(e, steps, [&] {
    return double(length(e.position(kChainLinks + 1) - Vec2{0, 20})) - (kChainLinks + 8.0);
  });
}

// --- Solver2D's bridge
// ----------------------------------------------------------------------------

// Solver2D's Bridge: 160 planks of 1 x 0.25 m (density 20, 5 kg), drag 0.1, pinned end to end in
// a straight line from a static pivot at (-80, 20) to one at (80, 20): the bridge is exactly as
// long as its span, so rigid planks hold it straight and any sag is the joints giving.
constexpr int kBridgePlanks = 160;

Scene bridge() {
  Scene s = base("bridge",
                 "Solver2D's Bridge: 160 planks of 1 x 0.25 m (density 20), drag 0.1, pinned end "
                 "to end between static pivots 160 m apart at their height; sleep off",
                 600, false);
  add_pivot(s, {-80, 20}, "left");
  add_pivot(s, {80, 20}, "right");
  std::string previous = "left";
  for (int i = 0; i < kBridgePlanks; ++i) {
    BodyDef plank = box({-79.5f + float(i), 20}, {0.5f, 0.125f}, 20.0f);
    plank.linear_drag = 0.1f;
    plank.angular_drag = 0.1f;
    plank.shapes[0].filter.group = -1;
    const std::string name = "plank" + std::to_string(i);
    add(s, plank, name);
    pin(s, previous, name, {-80.0f + float(i), 20});
    previous = name;
  }
  pin(s, previous, "right", {80, 20});
  return s;
}

// The widest gap between the ends the bridge's pins join (neighbouring planks, and the end
// planks and their pivots) after `steps` steps (m).
double bridge_gap(Engine& e, int steps) {
  for (int i = 0; i < steps; ++i) e.step();
  const auto end_of = [&](int body, float side) {
    const float a = e.angle(body);
    return e.position(body) + Vec2{side * 0.5f * std::cos(a), side * 0.5f * std::sin(a)};
  };
  double widest = 0;
  Vec2 previous = e.position(0);  // the left pivot
  for (int k = 2; k < 2 + kBridgePlanks; ++k) {
    widest = std::max(widest, double(length(end_of(k, -1) - previous)));
    previous = end_of(k, 1);
  }
  return std::max(widest, double(length(e.position(1) - previous)));
}

// --- motors held at their limits --------------------------------------------------------------

// The small-world lander (../shared/smallworlds: a hexagonal hull of density 5 on two box legs,
// revolute hips limited to +-0.4 rad whose motors turn the legs outward at 0.3 rad/s with up to
// 40 N m, so each leg is held at a limit) set down on a 0.3 rad slope, engines off.
Scene lander_rest() {
  Scene s = base("lander_rest",
                 "a lander (hull of density 5, two legs on revolute hips limited to +-0.4 rad, "
                 "motors turning them outward at 0.3 rad/s with up to 40 N m) set down on a "
                 "0.3 rad slope, engines off, sleep off",
                 600, false);
  BodyDef ground = ground_box({0, -1}, {20, 1});
  ground.angle = 0.3f;
  add(s, ground);
  BodyDef hull;
  hull.center = {0, 1.2f};
  hull.shapes = {ShapeDef{
      .shape =
          PolygonShape{
              {{-0.9f, 0}, {-0.7f, -0.5f}, {0.7f, -0.5f}, {0.9f, 0}, {0.7f, 0.8f}, {-0.7f, 0.8f}}},
      .material = {.density = 5}}};
  add(s, hull, "hull");
  for (const float side : {-1.0f, 1.0f}) {
    BodyDef leg = box({0.9f * side, 0.5f}, {0.1f, 0.4f});
    leg.angle = 0.4f * side;
    const std::string name = side < 0 ? "leg_l" : "leg_r";
    add(s, leg, name);
    RevoluteJointDef hip;
    hip.anchor = {0.7f * side, 0.9f};
    hip.limit = {true, -0.4f, 0.4f};
    hip.motor = {true, 0.3f * side, 40.0f};
    s.joints.push_back(SceneJoint{{}, "hull", name, hip});
  }
  return s;
}

}  // namespace

void add_rope_and_spring_cases(std::vector<Case>& c) {
  c.push_back({"hanging_rope", "stretch of the 49 m rope after 10 s (m)", 0.49, true,
               "links joined rigidly do not stretch (1% of its length allowed)", hanging_rope,
               [](Engine& e) { return hanging_stretch(e, 600); }});
  c.push_back({"springs_ratio", "largest error of a block's rest height after 10 s (m)", 0.001,
               true,
               "each spring stretches by its load over its stiffness, stiff beside soft alike "
               "(the soft ones 1 to 3 cm)",
               springs_ratio, [](Engine& e) { return spring_rest_error(e, 600); }});
  c.push_back({"springs_ratio_quiet", "fastest block in the 10th second (m/s)", kSleepSpeed, true,
               "critically damped springs come to rest", springs_ratio, [](Engine& e) {
                 for (int i = 0; i < 540; ++i) e.step();
                 return max_over(e, 60, [&] { return fastest(e, 1, kSpringBlocks + 1, 0.56f); });
               }});
  c.push_back({"ball_and_chain", "largest stretch of the 48 m chain in its first 3 s (m)", 0.48,
               true, "links joined rigidly do not stretch (1% of its length allowed)",
               ball_and_chain, [](Engine& e) { return chain_stretch(e, 180); }});
  c.push_back({"bridge", "widest gap at a pin of Solver2D's bridge after 10 s (m)", 0.01, true,
               "planks joined rigidly meet at their pins (1 cm allowed)", bridge,
               [](Engine& e) { return bridge_gap(e, 600); }});
  // Open: the motors pressing the legs against their limits keep it rocking at 0.077 m/s
  // (Box2D v3 0.30); see has_motor_or_limit in solver/joints/tree_motion.cpp.
  c.push_back({"lander_rest", "fastest point of the lander from 5 s to 10 s (m/s)", kSleepSpeed,
               true,
               "friction holds it on the slope (tan 0.3 = 0.31 < 0.6) and the motors only press "
               "the legs against their limits: it comes to rest",
               lander_rest,
               [](Engine& e) {
                 for (int i = 0; i < 300; ++i) e.step();
                 return max_over(e, 300, [&] { return fastest(e, 1, 4, 0.9f); });
               },
               true, 0.1});
}

}  // namespace strut::robustness
