// Motion locks (BodyDef::lock_x, lock_y; World::set_motion_locks): a locked axis never moves.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>

#include "test_util.hpp"

namespace strut {
namespace {

using test::kDt;

// A static slope of `degrees` (frictionless unless told) through the origin, its surface at y = x
// tan(angle).
BodyId make_slope(World& w, float degrees, float friction = 0) {
  BodyDef d;
  d.is_static = true;
  const float a = degrees * std::numbers::pi_v<float> / 180.0f;
  d.shapes = {ShapeDef{.shape = BoxShape{{20.0f, 0.5f}}, .material = {.friction = friction}}};
  d.angle = a;
  d.center = {0.5f * std::sin(a), -0.5f * std::cos(a)};  // top face through the origin
  return w.create_body(d);
}

}  // namespace

// A box locked in x dropped onto a frictionless 30 degree slope falls straight down and stays
// where it lands: its x never changes (exactly: the lock holds the coordinate) and it comes to
// rest (over the last second y moves < 1 mm), pressed into the slope by at most 2 mm (measured
// 0.77 mm, against 0.06 mm for the same box held by friction 1 without the lock; printed).
// Unlocked and frictionless, the same box slides more than 1 m.
TEST(MotionLocks, LockXOnASlopeKeepsXExactly) {
  enum Case { kLocked, kSliding, kHeld };
  for (const Case c : {kLocked, kSliding, kHeld}) {
    World w(WorldConfig{.gravity = {0, -10}, .enable_sleep = false});
    make_slope(w, 30, c == kHeld ? 1.0f : 0.0f);
    BodyDef d = test::box_def({0.0f, 2.0f}, {0.25f, 0.25f});
    d.shapes[0].material.friction = c == kHeld ? 1.0f : 0.0f;
    d.fixed_rotation = true;
    d.lock_x = c == kLocked;
    if (c == kLocked) d.velocity = {3, 0};  // dropped along the locked axis: dropped
    const BodyId b = w.create_body(d);
    const float x0 = w.transform(b).position.x;
    float y_before = 0;
    for (int i = 0; i < 180; ++i) {
      w.step(kDt);
      if (c == kLocked) {
        ASSERT_EQ(w.transform(b).position.x, x0) << "step " << i;
      }
      if (i == 119) y_before = w.transform(b).position.y;
    }
    const Vec2 at = w.transform(b).position;
    if (c == kSliding) {
      EXPECT_GT(std::fabs(at.x - x0), 1.0f);
      continue;
    }
    // Resting on its lower right corner (x + 0.25, y - 0.25): its depth below the surface
    // y = x tan 30, along the normal.
    const float a = std::numbers::pi_v<float> / 6;
    const float overlap = ((at.x + 0.25f) * std::tan(a) - (at.y - 0.25f)) * std::cos(a);
    std::printf("%s box on the slope: overlap %.6f m\n", c == kLocked ? "lock_x" : "held",
                double(overlap));
    EXPECT_LT(std::fabs(overlap), 2e-3f);
    EXPECT_LT(std::fabs(at.y - y_before), 1e-3f);
    if (c == kLocked) {
      EXPECT_EQ(w.linear_velocity(b).x, 0.0f);
      EXPECT_TRUE(w.definition(b).lock_x);
    }
  }
}

// A box locked in y on a kinematic platform moving sideways at 1 m/s: friction (0.6) carries it
// up to the platform's speed (within 1 % after 2 s), and its y never changes.
TEST(MotionLocks, LockYOnAMovingPlatformOnlyMovesSideways) {
  World w(WorldConfig{.gravity = {0, -10}, .enable_sleep = false});
  BodyDef p = test::box_def({0, 0}, {20.0f, 0.25f});
  p.is_kinematic = true;
  p.velocity = {1, 0};
  w.create_body(p);
  BodyDef d = test::box_def({0, 0.75f});
  d.lock_y = true;
  const BodyId b = w.create_body(d);
  const float y0 = w.transform(b).position.y;
  for (int i = 0; i < 120; ++i) {
    w.step(kDt);
    ASSERT_EQ(w.transform(b).position.y, y0) << "step " << i;
  }
  std::printf("lock_y box on the platform: vx %.6f m/s\n", double(w.linear_velocity(b).x));
  EXPECT_NEAR(w.linear_velocity(b).x, 1.0f, 0.01f);
  EXPECT_EQ(w.linear_velocity(b).y, 0.0f);
}

// A cart locked in y (and rotation) with a pendulum bob on a rigid distance joint, released
// horizontally: nothing pushes the pair along x, so their centre of mass keeps its x (within
// 0.1 mm over 2 s; measured below 1e-6 m) while the cart runs back and forth (more than 10 cm;
// 1.66 m), its y never changes, and the bob swings through the bottom on its 1.5 m rod (within
// 5 mm; 0.4 mm).
TEST(MotionLocks, CartLockedInYCarriesAPendulum) {
  World w(WorldConfig{.gravity = {0, -10}, .enable_sleep = false});
  BodyDef cart = test::box_def({0, 5}, {0.5f, 0.25f});
  cart.lock_y = true;
  cart.fixed_rotation = true;
  cart.shapes[0].filter.mask = 0;
  const BodyId c = w.create_body(cart);
  BodyDef bob;
  bob.shapes = {
      ShapeDef{.shape = CircleShape{0.2f}, .material = {.density = 5}, .filter = {.mask = 0}}};
  bob.center = {1.5f, 5};
  const BodyId b = w.create_body(bob);
  w.create_joint(DistanceJointDef{.a = c, .b = b, .anchor_a = {0, 5}, .anchor_b = {1.5f, 5}});
  const float mc = w.mass(c), mb = w.mass(b);
  const auto com_x = [&] {
    return (mc * w.transform(c).position.x + mb * w.transform(b).position.x) / (mc + mb);
  };
  const float com0 = com_x();
  float widest = 0, lowest = 5, drift = 0;
  for (int i = 0; i < 120; ++i) {
    w.step(kDt);
    ASSERT_EQ(w.transform(c).position.y, 5.0f) << "step " << i;
    EXPECT_NEAR(com_x(), com0, 1e-4f) << "step " << i;
    drift = std::max(drift, std::fabs(com_x() - com0));
    widest = std::max(widest, std::fabs(w.transform(c).position.x));
    lowest = std::min(lowest, w.transform(b).position.y);
  }
  std::printf("cart: centre of mass drift %.6f m, cart travel %.4f m, bob lowest %.4f m\n",
              double(drift), double(widest), double(lowest));
  EXPECT_GT(widest, 0.1f);
  EXPECT_NEAR(lowest, 5.0f - 1.5f, 0.005f);  // it swings through the bottom, the rod held
}

// set_motion_locks at run time: a falling box locked in y stops where it is; unlocked, it falls
// again. Rotation: locked, it stops turning and no torque turns it; unlocked, it turns again.
// Read back through definition(); errors name the call.
TEST(MotionLocks, SetMotionLocksAtRunTime) {
  World w(WorldConfig{.gravity = {0, -10}, .enable_sleep = false});
  BodyDef d = test::box_def({0, 10});
  d.angular_velocity = 2;
  const BodyId b = w.create_body(d);
  for (int i = 0; i < 10; ++i) w.step(kDt);
  w.set_motion_locks(b, false, true, true);
  EXPECT_EQ(w.linear_velocity(b).y, 0.0f);
  EXPECT_EQ(w.angular_velocity(b), 0.0f);
  const Transform held = w.transform(b);
  for (int i = 0; i < 30; ++i) {
    w.apply_torque(b, 5);
    w.apply_force(b, {0, -100});
    w.step(kDt);
  }
  EXPECT_EQ(w.transform(b).position.y, held.position.y);
  EXPECT_EQ(w.transform(b).angle, held.angle);
  const BodyDef now = w.definition(b);
  EXPECT_FALSE(now.lock_x);
  EXPECT_TRUE(now.lock_y);
  EXPECT_TRUE(now.fixed_rotation);
  w.set_motion_locks(b, false, false, false);
  w.apply_torque(b, 5);
  for (int i = 0; i < 10; ++i) w.step(kDt);
  EXPECT_LT(w.transform(b).position.y, held.position.y - 0.1f);
  EXPECT_GT(w.angular_velocity(b), 0.0f);
  EXPECT_FALSE(w.definition(b).lock_y);
  // A recreated body keeps its locks.
  w.set_motion_locks(b, true, false, false);
  World copy = w.copy();
  copy.step(kDt);
  w.step(kDt);
  EXPECT_EQ(copy.state_hash(), w.state_hash());
  BodyDef soft = test::box_def({3, 2});
  soft.soft = 1e-6f;
  const BodyId s = w.create_body(soft);
  EXPECT_EQ(test::error_of([&] { w.set_motion_locks(s, true, false, false); }),
            "set_motion_locks: x: a soft body cannot be locked (rigid only)");
  soft.lock_y = true;
  EXPECT_EQ(test::error_of([&] { w.create_body(soft); }),
            "create_body: lock_y: a soft body cannot be locked (rigid only)");
  EXPECT_EQ(test::error_of([&] {
              w.set_motion_locks(BodyId{}, true, false, false);
            }).rfind("set_motion_locks: ", 0),
            0u);
}

}  // namespace strut
