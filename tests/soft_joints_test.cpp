// Soft joints: stiffness from hertz and compliance, the same at any iteration count.
#include <gtest/gtest.h>

#include <cmath>
#include <utility>

#include "test_util.hpp"

namespace strut {
namespace {

using test::kDt;
using test::kPi;

BodyId hanging_ball(World& w, Vec2 at) {
  BodyDef d;
  d.shapes = {ShapeDef{.shape = CircleShape{0.2f}, .filter = {.mask = 0}}};
  d.center = at;
  return w.create_body(d);
}

// The stretch of a ball hanging on a compliant distance joint, after it settled.
float compliant_stretch(int iterations, float compliance) {
  World w(WorldConfig{.gravity = {0, -10}, .iterations = iterations, .enable_sleep = false});
  const BodyId top = test::fixed_point(w, {0, 0});
  BodyDef d;
  d.shapes = {ShapeDef{.shape = CircleShape{0.2f}, .filter = {.mask = 0}}};
  d.center = {0, -1};
  d.linear_drag = 2;  // settles
  const BodyId ball = w.create_body(d);
  const JointId j = w.create_joint(DistanceJointDef{
      .a = top, .b = ball, .anchor_a = {0, 0}, .anchor_b = {0, -1}, .compliance = compliance});
  for (int i = 0; i < 600; ++i) w.step(kDt);
  return w.joint_length(j) - 1.0f;
}

}  // namespace

// A compliance is a spring of stiffness 1 / compliance: the ball stretches its joint by
// m g x compliance, the same at 1 and 4 iterations (the joint keeps its multiplier; without
// it, 4 iterations were 4 times stiffer). Tolerance 1%.
TEST(SoftJoints, ComplianceStretchIsTheSameAtOneAndFourIterations) {
  World probe(WorldConfig{.enable_sleep = false});
  BodyDef d;
  d.shapes = {ShapeDef{CircleShape{0.2f}}};
  const float weight = probe.mass(probe.create_body(d)) * 10.0f;
  const float compliance = 0.05f / weight;  // 5 cm
  for (const int iterations : {1, 4}) {
    SCOPED_TRACE(iterations);
    EXPECT_NEAR(compliant_stretch(iterations, compliance), weight * compliance,
                0.01f * weight * compliance);
  }
}

// A distance spring: the ball oscillates with period 1 / hertz (2%) and, damped, hangs
// g / (2 pi f)^2 below the rest length (1%), at 1 and at 4 iterations.
TEST(SoftJoints, DistanceSpringOscillatesAtItsFrequencyAndSagsByItsStiffness) {
  const float hertz = 1.5f;
  for (const int iterations : {1, 4}) {
    SCOPED_TRACE(iterations);
    World w(WorldConfig{.gravity = {0, 0}, .iterations = iterations, .enable_sleep = false});
    const BodyId top = test::fixed_point(w, {0, 0});
    const BodyId ball = hanging_ball(w, {0, -1});
    DistanceJointDef def{.a = top, .b = ball, .anchor_a = {0, 0}, .anchor_b = {0, -1}};
    def.spring = {true, hertz, 0.0f};
    const JointId j = w.create_joint(def);
    w.set_linear_velocity(ball, {0, -0.5f});
    std::vector<float> crossings;
    float prev = 0, t = 0;
    for (int i = 0; i < 300; ++i) {
      w.step(kDt);
      t += kDt;
      const float x = w.joint_length(j) - 1.0f;
      if (prev > 0 && x <= 0) crossings.push_back(t - kDt * x / (x - prev));
      prev = x;
    }
    ASSERT_GE(crossings.size(), 4u);
    const float period = (crossings.back() - crossings.front()) / float(crossings.size() - 1);
    EXPECT_NEAR(period, 1.0f / hertz, 0.02f / hertz);

    World g(WorldConfig{.gravity = {0, -10}, .iterations = iterations, .enable_sleep = false});
    const BodyId top2 = test::fixed_point(g, {0, 0});
    const BodyId ball2 = hanging_ball(g, {0, -1});
    def.a = top2, def.b = ball2, def.spring.damping_ratio = 1.0f;
    const JointId j2 = g.create_joint(def);
    for (int i = 0; i < 300; ++i) g.step(kDt);
    const float sag = 10.0f / std::pow(2 * kPi * hertz, 2.0f);
    EXPECT_NEAR(g.joint_length(j2) - 1.0f, sag, 0.01f * sag);
  }
}

// A distance spring inside a range: the range still holds the ball (a spring of 0.5 Hz would
// sag 1 m; the max_length stops it at 0.3 m).
TEST(SoftJoints, DistanceSpringStaysInsideItsRange) {
  World w(WorldConfig{.gravity = {0, -10}, .enable_sleep = false});
  const BodyId top = test::fixed_point(w, {0, 0});
  const BodyId ball = hanging_ball(w, {0, -1});
  DistanceJointDef def{.a = top, .b = ball, .anchor_a = {0, 0}, .anchor_b = {0, -1}};
  def.spring = {true, 0.5f, 0.5f};
  def.min_length = 0.5f, def.max_length = 1.3f;
  const JointId j = w.create_joint(def);
  float longest = 0;
  for (int i = 0; i < 300; ++i) {
    w.step(kDt);
    longest = std::max(longest, w.joint_length(j));
  }
  EXPECT_LT(longest, 1.3f + 5e-3f);
  EXPECT_NEAR(w.joint_length(j), 1.3f, 2e-3f);
}

// A static wall and a 1 m x 0.1 m beam whose left end touches it at the origin, neither
// colliding: a cantilever for the weld tests.
std::pair<BodyId, BodyId> wall_and_beam(World& w) {
  BodyDef wall = test::box_def({-0.1f, 0}, {0.1f, 0.5f});
  wall.is_static = true;
  wall.shapes[0].filter.mask = 0;
  BodyDef beam = test::box_def({0.5f, 0}, {0.5f, 0.05f});
  beam.shapes[0].filter.mask = 0;
  const BodyId a = w.create_body(wall);
  return {a, w.create_body(beam)};
}

// A soft weld bends until its angular spring, stiffness I (2 pi f)^2, balances the beam's
// weight about the weld: k theta = m g (L / 2) cos(theta), within 2% (the angular row sees the
// beam's inertia about its centre, as Box2D's weld does).
TEST(SoftJoints, SoftWeldBendsByTheAmountItsHertzImplies) {
  World w(WorldConfig{.gravity = {0, -10}, .enable_sleep = false});
  const auto [a, b] = wall_and_beam(w);
  WeldJointDef def{.a = a, .b = b, .anchor = {0, 0}};
  def.angular_hertz = 5, def.damping_ratio = 1;
  const JointId j = w.create_joint(def);
  for (int i = 0; i < 300; ++i) w.step(kDt);
  const float k = w.inertia(b) * std::pow(2 * kPi * 5.0f, 2.0f);
  const float mgl = w.mass(b) * 10.0f * 0.5f;
  // Solve k theta = mgl cos(theta) by fixed-point iteration.
  float theta = 0;
  for (int i = 0; i < 20; ++i) theta = mgl * std::cos(theta) / k;
  EXPECT_NEAR(-w.joint_reading(j).angle, theta, 0.02f * theta);
  // The rigid point holds: the beam's end stays on the weld's anchor.
  const Transform t = w.transform(b);
  EXPECT_LT(length(t.position + rotate(make_rot(t.angle), {-0.5f, 0})), 1e-3f);
  // And the weld carries the beam's weight.
  EXPECT_NEAR(w.joint_reading(j).force.y, w.mass(b) * 10.0f, 0.01f * w.mass(b) * 10.0f);
}

// A rigid weld holds a cantilever level and carries its weight and its moment.
TEST(SoftJoints, RigidWeldCarriesWeightAndMoment) {
  World w(WorldConfig{.gravity = {0, -10}, .enable_sleep = false});
  const auto [a, b] = wall_and_beam(w);
  const JointId j = w.create_joint(WeldJointDef{.a = a, .b = b, .anchor = {0, 0}});
  for (int i = 0; i < 120; ++i) w.step(kDt);
  const JointReading r = w.joint_reading(j);
  const float weight = w.mass(b) * 10.0f;
  EXPECT_NEAR(r.angle, 0.0f, 1e-3f);
  EXPECT_NEAR(r.force.y, weight, 0.01f * weight);
  // The weld's torque on the beam about its centre balances the weld force's moment: the force
  // acts 0.5 m to the left of the centre, so the torque is +weight x 0.5.
  EXPECT_NEAR(r.torque, weight * 0.5f, 0.01f * weight * 0.5f);
}

}  // namespace strut
