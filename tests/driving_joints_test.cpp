// Mouse and motor joints against physics: they reach their targets and respect their bounds.
#include <gtest/gtest.h>

#include <cmath>

#include "test_util.hpp"

namespace strut {
namespace {

using test::kDt;

BodyId ball(World& w, Vec2 at, float radius) {
  BodyDef d;
  d.shapes = {ShapeDef{.shape = CircleShape{radius}, .filter = {.mask = 0}}};
  d.center = at;
  return w.create_body(d);
}

}  // namespace

// With force to spare, a mouse joint brings the body to the target (1 mm) and holds it there
// against gravity.
TEST(MouseJoint, BringsTheBodyToItsTarget) {
  World w(WorldConfig{.gravity = {0, -10}, .enable_sleep = false});
  const BodyId b = ball(w, {0, 0}, 0.5f);
  MouseJointDef def{.body = b, .target = {3, 1}, .max_force = 1000};
  def.hertz = 5, def.damping_ratio = 1.0f;
  const JointId j = w.create_joint(def);
  for (int i = 0; i < 240; ++i) w.step(kDt);
  const Vec2 p = w.transform(b).position;
  // The spring holds the weight with a sag of g / (2 pi f)^2 = 1 cm.
  const float sag = 10.0f / std::pow(2 * float(M_PI) * 5.0f, 2.0f);
  EXPECT_NEAR(p.x, 3.0f, 1e-3f);
  EXPECT_NEAR(p.y, 1.0f - sag, 1e-3f);
  w.set_mouse_target(j, {-1, 2});
  for (int i = 0; i < 240; ++i) w.step(kDt);
  EXPECT_NEAR(w.transform(b).position.x, -1.0f, 1e-3f);
}

// Far from its target, a mouse joint pulls at exactly max_force: a 1 kg ball accelerates at
// max_force / m (within 1%), and the reading never exceeds max_force.
TEST(MouseJoint, NeverPullsHarderThanItsMaxForce) {
  World w(WorldConfig{.gravity = {0, 0}, .enable_sleep = false});
  const float radius = std::sqrt(1.0f / float(M_PI));  // 1 kg at density 1
  const BodyId b = ball(w, {0, 0}, radius);
  ASSERT_NEAR(w.mass(b), 1.0f, 1e-5f);
  const JointId j = w.create_joint(MouseJointDef{.body = b, .target = {100, 0}, .max_force = 2});
  float strongest = 0;
  for (int i = 0; i < 60; ++i) {
    w.step(kDt);
    strongest = std::max(strongest, length(w.joint_reading(j).force));
  }
  EXPECT_NEAR(w.linear_velocity(b).x, 2.0f, 0.02f);  // a = 2 m/s^2 for 1 s
  EXPECT_LE(strongest, 2.0f * 1.0001f);
}

// A motor joint moves b to a's pose shifted by its offsets, within 1 mm and 1 mrad, and spends
// at most its force getting there: the time it takes is at least what max_force allows.
TEST(MotorJoint, ReachesItsOffsetWithinItsForce) {
  World w(WorldConfig{.gravity = {0, 0}, .enable_sleep = false});
  BodyDef base = test::box_def({0, 0}, {0.2f, 0.2f});
  base.is_static = true;
  base.shapes[0].filter.mask = 0;
  const BodyId a = w.create_body(base);
  BodyDef d = test::box_def({0, 0}, {0.5f, 0.5f});
  d.shapes[0].filter.mask = 0;
  const BodyId b = w.create_body(d);
  MotorJointDef def{.a = a, .b = b, .linear_offset = {2, 1}, .angular_offset = 0.5f};
  def.max_force = 4, def.max_torque = 2;
  const JointId j = w.create_joint(def);
  // From rest, a force F moves 1 kg at most F t^2 / 2: 2.24 m needs at least 1.06 s at 4 N.
  for (int i = 0; i < 60; ++i) w.step(kDt);
  EXPECT_GT(length(w.transform(b).position - Vec2{2, 1}), 0.1f);
  for (int i = 0; i < 420; ++i) w.step(kDt);
  const Transform t = w.transform(b);
  EXPECT_NEAR(t.position.x, 2.0f, 1e-3f);
  EXPECT_NEAR(t.position.y, 1.0f, 1e-3f);
  EXPECT_NEAR(t.angle, 0.5f, 1e-3f);
  EXPECT_NEAR(w.joint_reading(j).angle, 0.0f, 1e-3f);
}

}  // namespace strut
