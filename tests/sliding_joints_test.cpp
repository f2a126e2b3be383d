// Prismatic and wheel joints against physics: the axis holds, limits stop, springs sag by
// m g / k, motors drive.
#include <gtest/gtest.h>

#include <cmath>

#include "test_util.hpp"

namespace strut {
namespace {

using test::kDt;
using test::kPi;

BodyId free_box(World& w, Vec2 at, float angle = 0) {
  BodyDef d = test::box_def(at, {0.5f, 0.25f});
  d.angle = angle;
  d.shapes[0].filter.mask = 0;
  return w.create_body(d);
}

}  // namespace

// A box on a 45-degree axis slides down under gravity to the lower limit (1 m down the axis)
// and stays there, never leaving the axis or turning (measured: off the axis < 1e-5 m, angle
// < 1e-6 rad; tolerances 1 mm, 1 mrad, limit 5 mm).
TEST(PrismaticJoint, KeepsTheBodyOnItsAxisWithItsAngleAndStopsAtItsLimits) {
  World w(WorldConfig{.gravity = {0, -10}, .enable_sleep = false});
  const BodyId ground = test::fixed_point(w, {0, 0});
  const BodyId box = free_box(w, {0, 0}, 0.3f);
  PrismaticJointDef def{.a = ground, .b = box, .anchor = {0, 0}, .axis = {1, 1}};
  def.limit = {true, -1.0f, 0.5f};
  const JointId j = w.create_joint(def);
  const Vec2 axis{std::sqrt(0.5f), std::sqrt(0.5f)};
  float worst_off = 0, worst_turn = 0;
  for (int i = 0; i < 120; ++i) {
    w.step(kDt);
    const Transform t = w.transform(box);
    worst_off = std::max(worst_off, std::fabs(cross(axis, t.position)));
    worst_turn = std::max(worst_turn, std::fabs(t.angle - 0.3f));
  }
  EXPECT_LT(worst_off, 1e-3f);
  EXPECT_LT(worst_turn, 1e-3f);
  EXPECT_NEAR(w.joint_reading(j).translation, -1.0f, 5e-3f);
  // Thrown up the axis, it stops at the upper limit.
  w.set_linear_velocity(box, 8.0f * axis);
  float highest = -1;
  for (int i = 0; i < 30; ++i) {
    w.step(kDt);
    highest = std::max(highest, w.joint_reading(j).translation);
  }
  EXPECT_NEAR(highest, 0.5f, 0.02f);
}

// A motor with force to spare drives the box along the axis at its speed; the reading's speed
// agrees (0.1%).
TEST(PrismaticJoint, MotorDrivesAtItsSpeed) {
  World w(WorldConfig{.gravity = {0, 0}, .enable_sleep = false});
  const BodyId ground = test::fixed_point(w, {0, 0});
  const BodyId box = free_box(w, {0, 0});
  PrismaticJointDef def{.a = ground, .b = box, .anchor = {0, 0}, .axis = {0, 1}};
  def.motor = {true, -2.0f, 100.0f};
  const JointId j = w.create_joint(def);
  for (int i = 0; i < 60; ++i) w.step(kDt);
  EXPECT_NEAR(w.linear_velocity(box).y, -2.0f, 2e-3f);
  EXPECT_NEAR(w.joint_reading(j).speed, -2.0f, 2e-3f);
  EXPECT_NEAR(w.linear_velocity(box).x, 0.0f, 1e-5f);
}

// Undamped, the spring's period along the axis is 1 / hertz within 2%.
TEST(PrismaticJoint, SpringOscillatesAtItsFrequency) {
  World w(WorldConfig{.gravity = {0, 0}, .enable_sleep = false});
  const BodyId ground = test::fixed_point(w, {0, 0});
  const BodyId box = free_box(w, {0, 0});
  PrismaticJointDef def{.a = ground, .b = box, .anchor = {0, 0}, .axis = {1, 0}};
  def.spring = {true, 2.0f, 0.0f};
  const JointId j = w.create_joint(def);
  w.set_linear_velocity(box, {1, 0});
  std::vector<float> crossings;
  float prev = 0, t = 0;
  for (int i = 0; i < 240; ++i) {
    w.step(kDt);
    t += kDt;
    const float x = w.joint_reading(j).translation;
    if (prev < 0 && x >= 0) crossings.push_back(t - kDt * x / (x - prev));
    prev = x;
  }
  ASSERT_GE(crossings.size(), 4u);
  const float period = (crossings.back() - crossings.front()) / float(crossings.size() - 1);
  EXPECT_NEAR(period, 0.5f, 0.02f * 0.5f);
}

// A wheel hanging on its suspension sags by its static deflection m g / k, with the spring's
// stiffness k = m (2 pi f)^2: g / (2 pi f)^2 (6.33 cm at 2 Hz), within 1%; the joint carries
// the wheel's weight. Its motor spins it at the motor's speed.
TEST(WheelJoint, SagsByTheStaticDeflectionOfItsSpringAndItsMotorSpinsIt) {
  World w(WorldConfig{.gravity = {0, -10}, .enable_sleep = false});
  const BodyId chassis = test::fixed_point(w, {0, 0});
  BodyDef d;
  d.shapes = {ShapeDef{.shape = CircleShape{0.4f}, .filter = {.mask = 0}}};
  d.center = {0, -1};
  const BodyId wheel = w.create_body(d);
  WheelJointDef def{.a = chassis, .b = wheel, .anchor = {0, -1}, .axis = {0, 1}};
  def.spring = {true, 2.0f, 0.7f};
  def.motor = {true, -5.0f, 50.0f};
  const JointId j = w.create_joint(def);
  for (int i = 0; i < 300; ++i) w.step(kDt);
  const float omega = 2 * kPi * 2.0f;
  const float sag = 10.0f / (omega * omega);
  const JointReading r = w.joint_reading(j);
  EXPECT_NEAR(r.translation, -sag, 0.01f * sag);
  EXPECT_NEAR(r.force.y, w.mass(wheel) * 10.0f, 0.01f * w.mass(wheel) * 10.0f);
  EXPECT_NEAR(w.angular_velocity(wheel), -5.0f, 5e-3f);
  EXPECT_NEAR(w.transform(wheel).position.x, 0.0f, 1e-4f);  // rigid off the axis
}

}  // namespace strut
