// Surface materials of shapes: tangent speed (conveyor belts) and rolling resistance
// (ShapeDef::tangent_speed, rolling_resistance; solver/contacts/contact_wide.hpp, WideSurface).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "simd_level.hpp"
#include "test_util.hpp"

namespace strut {
namespace {

using test::kDt;

// A static floor whose top is y = 0: a box of half-extents (20, 0.5), or a segment from a to b.
BodyId make_floor(World& w, float tangent_speed, float friction, bool segment = false,
                  bool reversed = false) {
  BodyDef d;
  d.is_static = true;
  const Vec2 left{-20, 0}, right{20, 0};
  ShapeDef s =
      segment ? ShapeDef{.shape = SegmentShape{reversed ? right : left, reversed ? left : right}}
              : ShapeDef{.shape = BoxShape{{20.0f, 0.5f}}, .offset = {0, -0.5f}};
  s.material.friction = friction;
  s.tangent_speed = tangent_speed;
  d.shapes.push_back(s);
  return w.create_body(d);
}

BodyId make_box(World& w, float friction) {
  BodyDef d = test::box_def({0, 0.5f});
  d.shapes[0].material.friction = friction;
  return w.create_body(d);
}

}  // namespace

// A box at rest on a static conveyor of tangent speed 2 m/s (friction 0.6: it could accelerate
// at 6 m/s^2) rides at 2 m/s within 1 % after 1 s (measured 2.000000); -2 carries it the other way.
// A segment conveyor runs the same way whichever way its ends are given (clockwise round the shape:
// on top, towards +x).
TEST(Surface, BoxOnAConveyorReachesTheBeltSpeed) {
  struct Case {
    float speed;
    bool segment, reversed;
  };
  for (const Case c :
       {Case{2, false, false}, Case{-2, false, false}, Case{2, true, false}, Case{2, true, true}}) {
    World w(WorldConfig{.gravity = {0, -10}});
    make_floor(w, c.speed, 0.6f, c.segment, c.reversed);
    const BodyId b = make_box(w, 0.6f);
    for (int i = 0; i < 60; ++i) w.step(kDt);
    const Vec2 v = w.linear_velocity(b);
    std::printf("conveyor %g m/s (%s%s): box at %.6f m/s\n", double(c.speed),
                c.segment ? "segment" : "box", c.reversed ? ", reversed" : "", double(v.x));
    EXPECT_NEAR(v.x, c.speed, 0.01f * std::fabs(c.speed));
    EXPECT_NEAR(v.y, 0.0f, 0.01f);
    EXPECT_NEAR(w.transform(b).angle, 0.0f, 1e-3f);
  }
}

// With friction 0.1 the belt (2 m/s) accelerates the box at mu g = 1 m/s^2 until it rides at the
// belt's speed: 0.5 and 1.5 m/s after 0.5 and 1.5 s (within 0.5 %; measured 0.500000 and
// 1.500008), 2 m/s after 3 s (within 1 %; 2.000000).
// The speed is also the box's own tangent speed on plain ground (a tank tread: the pair's
// speeds add, and the box's surface runs clockwise round it).
TEST(Surface, LowFrictionAcceleratesAtMuGUntilTheBeltSpeed) {
  for (const bool tread : {false, true}) {
    World w(WorldConfig{.gravity = {0, -10}, .enable_sleep = false});
    make_floor(w, tread ? 0.0f : 2.0f, 0.1f);
    BodyDef d = test::box_def({0, 0.5f});
    d.shapes = {ShapeDef{.shape = BoxShape{}}};
    d.shapes[0].shape = BoxShape{};
    d.shapes[0].material.friction = 0.1f;
    d.shapes[0].tangent_speed = tread ? 2.0f : 0.0f;
    const BodyId b = w.create_body(d);
    for (int i = 1; i <= 180; ++i) {
      w.step(kDt);
      const float v = w.linear_velocity(b).x;
      if (i == 30 || i == 90) {
        std::printf("%s, t = %.1f s: %.6f m/s\n", tread ? "tread" : "belt", i * double(kDt),
                    double(v));
        EXPECT_NEAR(v, i * kDt, 0.005f * i * kDt);
      }
    }
    std::printf("%s, t = 3 s: %.6f m/s\n", tread ? "tread" : "belt",
                double(w.linear_velocity(b).x));
    EXPECT_NEAR(w.linear_velocity(b).x, 2.0f, 0.02f);
  }
}

// A ball (radius 0.5, a disc: I = m r^2 / 2) rolling at 3 m/s on flat ground with rolling
// resistance 0.1 feels a torque of at most 0.1 m g r; rolling without slipping it decelerates at
// rr g / (1 + I / (m r^2)) = 2/3 m/s^2 and stops after 4.5 s and v^2 / (2 a) = 6.75 m (within
// 0.5 %; measured 6.7469 m). Without rolling resistance it keeps rolling (3 m/s within 1e-3 after
// 6 s; 3.000000), and its bits are those of a ball in a world whose only surface collider
// touches nothing.
TEST(Surface, RollingResistanceStopsABallAtTheAnalyticDistance) {
  const auto run = [](float rolling, bool elsewhere, Vec2& at, Vec2& v) {
    World w(WorldConfig{.gravity = {0, -10}, .enable_sleep = false});
    w.create_body(test::ground_def());
    if (elsewhere) {  // a surface collider that touches nothing
      BodyDef far;
      far.is_static = true;
      far.center = {0, 100};
      far.shapes = {ShapeDef{.shape = BoxShape{}, .tangent_speed = 1, .rolling_resistance = 1}};
      w.create_body(far);
    }
    BodyDef d;
    d.center = {0, 0.5f};
    d.velocity = {3, 0};
    d.angular_velocity = -6;  // rolling: v = -omega r
    d.shapes = {ShapeDef{.shape = CircleShape{0.5f}, .rolling_resistance = rolling}};
    const BodyId b = w.create_body(d);
    for (int i = 0; i < 360; ++i) w.step(kDt);
    at = w.transform(b).position;
    v = w.linear_velocity(b);
    return w.angular_velocity(b);
  };
  Vec2 at, v;
  const float omega = run(0.1f, false, at, v);
  std::printf("rolling resistance 0.1: stopped after %.6f m (analytic 6.75), v %.2e, w %.2e\n",
              double(at.x), double(v.x), double(omega));
  EXPECT_NEAR(at.x, 6.75f, 0.005f * 6.75f);
  EXPECT_LT(std::fabs(v.x), 1e-3f);
  EXPECT_LT(std::fabs(omega), 2e-3f);
  Vec2 free_at, free_v, other_at, other_v;
  const float free_omega = run(0.0f, false, free_at, free_v);
  const float other_omega = run(0.0f, true, other_at, other_v);
  std::printf("no rolling resistance: %.6f m/s after 6 s\n", double(free_v.x));
  EXPECT_NEAR(free_v.x, 3.0f, 1e-3f);
  EXPECT_EQ(free_at.x, other_at.x);
  EXPECT_EQ(free_at.y, other_at.y);
  EXPECT_EQ(free_v.x, other_v.x);
  EXPECT_EQ(free_omega, other_omega);
}

namespace {

// A conveyor floor under a pile of circles (every other one with rolling resistance), boxes
// (some with their own tangent speed) and capsules, at the scalar level (the kernels' scalar
// twins) or the SIMD level in use, on `threads` threads; a snapshot taken half way continues to the
// same bits (returned second).
std::pair<std::uint64_t, std::uint64_t> surface_pile(bool scalar, int threads) {
  test::SimdLevelScope level(scalar ? SimdLevel::Scalar : simd_level());
  World w(WorldConfig{.threads = threads, .enable_sleep = false});
  make_floor(w, 1.5f, 0.6f);
  for (int i = 0; i < 90; ++i) {
    BodyDef d;
    d.center = {-6.0f + 0.4f * float(i % 30), 0.6f + 0.8f * float(i / 30)};
    ShapeDef shape;
    if (i % 3 == 0)
      shape.shape = CircleShape{0.18f}, shape.rolling_resistance = i % 2 ? 0.2f : 0.0f;
    else if (i % 3 == 1)
      shape.shape = BoxShape{{0.15f, 0.15f}}, shape.tangent_speed = i % 4 == 1 ? -1.0f : 0.0f;
    else
      shape.shape = CapsuleShape{0.1f, 0.08f}, shape.rolling_resistance = 0.05f;
    d.shapes.push_back(shape);
    w.create_body(d);
  }
  for (int i = 0; i < 60; ++i) w.step(kDt);
  World loaded = World::from_snapshot(w.snapshot(), threads);
  for (int i = 0; i < 60; ++i) w.step(kDt), loaded.step(kDt);
  return {w.state_hash(), loaded.state_hash()};
}

}  // namespace

// With surface rows the SIMD kernels still give the scalar twin's bits, at any thread count, and
// a snapshot (which stores the colliders' surface columns and the rows) continues exactly.
TEST(Surface, SimdAndScalarTwinAgreeWithSurfaceRows) {
  const auto reference = surface_pile(true, 1);
  EXPECT_EQ(reference.first, reference.second);
  EXPECT_EQ(surface_pile(false, 1), reference);
  EXPECT_EQ(surface_pile(false, 2), reference);
  EXPECT_EQ(surface_pile(true, 2), reference);
}

// The fields are validated with the others, naming them; definition() reads them back.
TEST(Surface, FieldsAreValidatedAndReadBack) {
  World w;
  BodyDef d;
  d.shapes = {
      ShapeDef{.shape = CircleShape{0.5f}, .tangent_speed = 1.5f, .rolling_resistance = 0.25f}};
  const BodyId b = w.create_body(d);
  const ShapeDef back = w.definition(w.shapes(b)[0]);
  EXPECT_EQ(back.tangent_speed, 1.5f);
  EXPECT_EQ(back.rolling_resistance, 0.25f);
  d.shapes[0].tangent_speed = NAN;
  EXPECT_EQ(test::error_of([&] { w.create_body(d); }),
            "create_body: shapes[0].tangent_speed: not a finite number");
  d.shapes[0].tangent_speed = 2e4f;
  EXPECT_EQ(test::error_of([&] { w.create_body(d); }),
            "create_body: shapes[0].tangent_speed: 20000 exceeds the limit of 10000 m/s "
            "(strut/limits.hpp)");
  d.shapes[0].tangent_speed = 0;
  d.shapes[0].rolling_resistance = -1;
  EXPECT_EQ(test::error_of([&] { w.create_body(d); }),
            "create_body: shapes[0].rolling_resistance: must not be negative, got -1");
  d.shapes[0].rolling_resistance = INFINITY;
  EXPECT_EQ(test::error_of([&] { w.create_body(d); }),
            "create_body: shapes[0].rolling_resistance: not a finite number");
  EXPECT_EQ(test::error_of(
                [&] { w.add_shape(b, ShapeDef{.shape = BoxShape{}, .rolling_resistance = -2}); }),
            "add_shape: rolling_resistance: must not be negative, got -2");
  EXPECT_EQ(w.shapes(b).size(), 1u);
}

}  // namespace strut
