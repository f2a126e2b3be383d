// Integration against analytic motion: free fall, projectiles, spinning bodies, velocity API.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "solver/step/integrate.hpp"
#include "test_util.hpp"

namespace strut {

// Position Verlet started from (x0, v0) gives x_n = x0 + v0 t + g t^2 / 2 + g h t / 2 after
// n substeps of h (t = n h): the last term is the start-up offset of taking x - x_prev as the
// velocity, the same offset as Box2D's symplectic Euler. We check the analytic trajectory
// within that bound (plus float rounding), and the discrete formula tightly.
TEST(Integration, ProjectileFollowsTheAnalyticTrajectory) {
  const float dt = 1.0f / 60, g = -9.81f;
  const int substeps = 4, steps = 120;
  World world(WorldConfig{.gravity = {0, g}, .substeps = substeps});
  BodyDef d = test::box_def({1, 100});
  d.velocity = {3.0f, 12.0f};
  const BodyId id = world.create_body(d);
  for (int i = 0; i < steps; ++i) world.step(dt);
  const float h = dt / substeps, t = dt * steps;
  const float n = float(steps * substeps);
  const Vec2 p = world.transform(id).position;
  const float discrete_y = 100.0f + 12.0f * t + g * h * h * n * (n + 1) / 2;
  EXPECT_NEAR(p.x, 1.0f + 3.0f * t, 1e-3f);
  EXPECT_NEAR(p.y, discrete_y, 2e-3f);
  const float analytic_y = 100.0f + 12.0f * t + 0.5f * g * t * t;
  EXPECT_NEAR(p.y, analytic_y, std::fabs(g) * h * t / 2 + 2e-3f);
  // Velocity after the run: v0 + g t, within one substep's gravity.
  EXPECT_NEAR(world.linear_velocity(id).y, 12.0f + g * t, std::fabs(g) * h);
}

TEST(Integration, FreeFallOfACircleWithGravityScale) {
  World world(WorldConfig{.gravity = {0, -10}, .substeps = 8});
  BodyDef d;
  d.shapes = {ShapeDef{CircleShape{0.25f}}};
  d.center = {0, 50};
  d.gravity_scale = 0.5f;
  const BodyId id = world.create_body(d);
  for (int i = 0; i < 60; ++i) world.step(1.0f / 60);
  const float h = 1.0f / 480, t = 1.0f;
  EXPECT_NEAR(world.transform(id).position.y, 50.0f - 2.5f * t * t, 5.0f * h * t / 2 + 1e-3f);
}

TEST(Integration, SettingVelocityMovesTheBodyByVelocityTimesDt) {
  World world(WorldConfig{.gravity = {0, 0}});
  const BodyId id = world.create_body(test::box_def({0, 0}));
  world.set_linear_velocity(id, {2.0f, -1.0f});
  EXPECT_FLOAT_EQ(world.linear_velocity(id).x, 2.0f);
  world.step(0.1f);
  EXPECT_NEAR(world.transform(id).position.x, 0.2f, 1e-6f);
  EXPECT_NEAR(world.transform(id).position.y, -0.1f, 1e-6f);
  // A different dt keeps the speed (the implicit velocity is rescaled).
  world.step(0.05f);
  EXPECT_NEAR(world.transform(id).position.x, 0.3f, 1e-5f);
  EXPECT_NEAR(world.linear_velocity(id).x, 2.0f, 1e-4f);
}

TEST(Integration, FreeSpinningBoxKeepsItsAngularVelocityAndShape) {
  World world(WorldConfig{.gravity = {0, 0}});
  BodyDef d = test::box_def({0, 0}, {1.0f, 0.25f});
  d.angular_velocity = 10.0f;
  const BodyId id = world.create_body(d);
  for (int i = 0; i < 600; ++i) world.step(1.0f / 60);  // ten seconds, ~16 turns
  EXPECT_NEAR(world.angular_velocity(id), 10.0f, 1e-3f);
  const float expected = std::remainder(100.0f, 2 * float(M_PI));
  EXPECT_NEAR(std::remainder(world.transform(id).angle - expected, 2 * float(M_PI)), 0.0f, 5e-3f);
  // Shape: every edge keeps its length.
  const BodyState s = world.state(id);
  ASSERT_EQ(s.shapes[0].vertices.size(), 4u);
  const float lengths[4] = {2.0f, 0.5f, 2.0f, 0.5f};
  for (int i = 0; i < 4; ++i)
    EXPECT_NEAR(length(s.shapes[0].vertices[(i + 1) % 4] - s.shapes[0].vertices[i]), lengths[i],
                1e-5f);
  EXPECT_NEAR(length(world.transform(id).position), 0.0f, 1e-6f);
}

TEST(Integration, ForcesAndImpulses) {
  World world(WorldConfig{.gravity = {0, 0}, .substeps = 4});
  const BodyId id = world.create_body(test::box_def({0, 0}));  // mass 1
  // A force acts for one step only: v = F / m * dt.
  world.apply_force(id, {30.0f, 0});
  world.step(0.1f);
  EXPECT_NEAR(world.linear_velocity(id).x, 3.0f, 1e-5f);
  world.step(0.1f);
  EXPECT_NEAR(world.linear_velocity(id).x, 3.0f, 1e-5f);
  // An impulse off centre changes both velocities: dv = J / m, dw = (r x J) / I.
  World w2(WorldConfig{.gravity = {0, 0}});
  const BodyId b = w2.create_body(test::box_def({0, 0}));
  w2.apply_impulse(b, {0, 1.0f}, {0.5f, 0});
  EXPECT_NEAR(w2.linear_velocity(b).y, 1.0f, 1e-4f);
  EXPECT_NEAR(w2.angular_velocity(b), 0.5f / (1.0f / 6.0f), 1e-3f);
}

TEST(Integration, LinearDragDecaysVelocityExponentially) {
  World world(WorldConfig{.gravity = {0, 0}, .substeps = 4});
  BodyDef d = test::box_def({0, 0});
  d.velocity = {10, 0};
  d.linear_drag = 0.5f;
  const BodyId id = world.create_body(d);
  for (int i = 0; i < 120; ++i) world.step(1.0f / 60);
  EXPECT_NEAR(world.linear_velocity(id).x, 10.0f * std::exp(-0.5f * 2.0f), 0.02f);
}

TEST(Integration, SimdKernelsMatchScalarBitForBit) {
  const int n = 1003;  // not a multiple of any width: the tail is exercised
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-10, 10);
  std::vector<float> f[12];
  for (auto& v : f) v.resize(n);
  for (int i = 0; i < n; ++i) {
    const float a = u(rng);
    f[0][i] = u(rng), f[1][i] = u(rng), f[2][i] = std::cos(a), f[3][i] = std::sin(a);
    f[4][i] = 0.01f * u(rng), f[5][i] = 0.01f * u(rng), f[6][i] = 0.01f * u(rng);
    f[7][i] = u(rng), f[8][i] = u(rng), f[9][i] = u(rng), f[10][i] = 0.99f;
    f[11][i] = 0.98f;
  }
  auto g = f;
  auto spans = [](std::vector<float>* v) {
    return RigidSpans{v[0].data(), v[1].data(), v[2].data(),  v[3].data(),
                      v[4].data(), v[5].data(), v[6].data(),  v[7].data(),
                      v[8].data(), v[9].data(), v[10].data(), v[11].data()};
  };
  for (int s = 0; s < 10; ++s) {
    integrate_rigid_velocity_scalar(spans(f), 0, n, 1.0f / 240);
    integrate_rigid_position_scalar(spans(f), 0, n);
    integrate_rigid_velocity_simd(spans(g), 0, n, 1.0f / 240);
    integrate_rigid_position_simd(spans(g), 0, n);
  }
  for (int k = 0; k < 7; ++k)
    for (int i = 0; i < n; ++i) ASSERT_EQ(f[k][i], g[k][i]) << "array " << k << " index " << i;
}

}  // namespace strut

#include "solver/step/bounds_kernel.hpp"

namespace strut {

TEST(BoundsKernel, SimdMatchesScalarBitForBit) {
  const int n = 517;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1000, 1000), m(0, 3), v(-3, 3);
  std::vector<float> in[7], out_a[4], out_b[4];
  for (auto& v : in) v.resize(n);
  for (auto& v : out_a) v.resize(n);
  for (auto& v : out_b) v.resize(n);
  for (int i = 0; i < n; ++i) {
    in[0][i] = u(rng), in[1][i] = u(rng);
    in[2][i] = in[0][i] + m(rng), in[3][i] = in[1][i] + m(rng);
    in[4][i] = v(rng), in[5][i] = v(rng), in[6][i] = m(rng);
  }
  auto spans = [&](std::vector<float>* out) {
    return BoundsSpans{in[0].data(),  in[1].data(),  in[2].data(), in[3].data(),
                       in[4].data(),  in[5].data(),  in[6].data(), out[0].data(),
                       out[1].data(), out[2].data(), out[3].data()};
  };
  fatten_bounds_scalar(spans(out_a), 0, n, 0.0025f);
  fatten_bounds_simd(spans(out_b), 0, n, 0.0025f);
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < n; ++i) ASSERT_EQ(out_a[k][i], out_b[k][i]);
  // Swept along the displacement, grown by the spread and the slop on every side.
  for (int i = 0; i < 8; ++i) {
    const float grow = 0.0025f + in[6][i];
    EXPECT_EQ(out_a[0][i], in[0][i] - (grow + std::max(0.0f, -in[4][i])));
    EXPECT_EQ(out_a[2][i], in[2][i] + (grow + std::max(0.0f, in[4][i])));
    EXPECT_EQ(out_a[3][i], in[3][i] + (grow + std::max(0.0f, in[5][i])));
  }
}

}  // namespace strut
