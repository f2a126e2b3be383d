// Angular drag, fixed rotation and kinematic target poses.
#include <gtest/gtest.h>

#include <cmath>

#include "test_util.hpp"

namespace strut {

using test::kDt;

// Angular velocity decays as exp(-drag t): after 1 s at drag 2, within 0.5%; the linear
// velocity is untouched.
TEST(BodyMotion, AngularDragDecaysTheSpinExponentially) {
  World w(WorldConfig{.gravity = {0, 0}, .enable_sleep = false});
  BodyDef d;
  d.shapes = {ShapeDef{CircleShape{0.5f}}};
  d.angular_velocity = 3;
  d.velocity = {1, 0};
  d.angular_drag = 2;
  const BodyId b = w.create_body(d);
  for (int i = 0; i < 60; ++i) w.step(kDt);
  EXPECT_NEAR(w.angular_velocity(b), 3 * std::exp(-2.0f), 0.005f * 3 * std::exp(-2.0f));
  EXPECT_NEAR(w.linear_velocity(b).x, 1.0f, 1e-5f);
  EXPECT_EQ(w.definition(b).angular_drag, 2.0f);
  w.set_angular_drag(b, 0);
  const float spin = w.angular_velocity(b);
  w.step(kDt);
  EXPECT_NEAR(w.angular_velocity(b), spin, 1e-6f);
  EXPECT_EQ(test::error_of([&] { w.set_angular_drag(b, -1); }),
            "set_angular_drag: drag must not be negative");
}

// A box with fixed rotation dropped tilted onto the ground lands on its corner and stays tilted:
// no contact, torque or call turns it.
TEST(BodyMotion, FixedRotationKeepsTheAngle) {
  World w(WorldConfig{.gravity = {0, -10}});
  w.create_body(test::ground_def());
  BodyDef d = test::box_def({0, 2});
  d.angle = 0.5f;
  d.angular_velocity = 4;  // ignored: it never turns
  d.fixed_rotation = true;
  const BodyId b = w.create_body(d);
  for (int i = 0; i < 120; ++i) {
    w.apply_torque(b, 10);
    w.step(kDt);
  }
  w.set_angular_velocity(b, 5);
  w.step(kDt);
  EXPECT_NEAR(w.transform(b).angle, 0.5f, 1e-6f);
  EXPECT_EQ(w.angular_velocity(b), 0.0f);
  // Resting on its lowest corner: that corner is at the ground (within the contact slop).
  EXPECT_LT(w.transform(b).position.y, 1.0f);
  BodyDef soft = test::box_def({3, 2});
  soft.soft = 1e-6f;
  soft.fixed_rotation = true;
  EXPECT_EQ(test::error_of([&] { w.create_body(soft); }),
            "create_body: fixed_rotation: a soft body has no rotation to fix");
}

// A kinematic body set to a target pose reaches it in one step (1e-5 m, 1e-5 rad), turning the
// short way round, and follows a path target after target.
TEST(BodyMotion, KinematicTargetTransformIsReachedInOneStep) {
  World w(WorldConfig{.gravity = {0, -10}});
  BodyDef d = test::box_def({0, 0}, {2, 0.5f});
  d.is_kinematic = true;
  const BodyId pusher = w.create_body(d);
  w.set_target_transform(pusher, {{1, 2}, 0.5f}, kDt);
  w.step(kDt);
  EXPECT_NEAR(w.transform(pusher).position.x, 1.0f, 1e-5f);
  EXPECT_NEAR(w.transform(pusher).position.y, 2.0f, 1e-5f);
  EXPECT_NEAR(w.transform(pusher).angle, 0.5f, 1e-5f);
  // From 3 rad to -3 rad is 0.28 rad counter-clockwise, not 6 rad clockwise.
  w.set_transform(pusher, {1, 2}, 3.0f);
  w.set_target_transform(pusher, {{1, 2}, -3.0f}, kDt);
  EXPECT_NEAR(w.angular_velocity(pusher), (2 * float(M_PI) - 6.0f) / kDt, 1e-2f);
  w.step(kDt);
  float worst = 0;
  for (int i = 1; i <= 120; ++i) {
    const float t = float(i) * kDt;
    const Vec2 target{60 * std::sin(0.2f * t), 0};
    w.set_target_transform(pusher, {target, 0}, kDt);
    w.step(kDt);
    worst = std::max(worst, length(w.transform(pusher).position - target));
  }
  EXPECT_LT(worst, 1e-4f);
  EXPECT_EQ(test::error_of([&] {
              w.set_target_transform(pusher, {{0, 0}, 0}, 0);
            }),
            "set_target_transform: dt must be a positive finite number, got 0");
  EXPECT_EQ(test::error_of([&] {
              w.set_target_transform(pusher, {{NAN, 0}, 0}, kDt);
            }),
            "set_target_transform: target is not a finite transform");
}

}  // namespace strut
