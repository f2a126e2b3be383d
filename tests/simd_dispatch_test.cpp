// The dispatched SIMD kernels (solver/simd_dispatch.hpp): every level this CPU runs gives the
// scalar kernels' bits, and a world stepped at each level ends with the same state hash.
#include "solver/simd_dispatch.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "strut/world.hpp"
#include "test_util.hpp"

namespace strut {
namespace {

// Restores the process's level after a test forces others.
struct LevelGuard {
  SimdLevel saved = simd_kernels().level;
  ~LevelGuard() { set_simd_level(saved); }
};

TEST(SimdDispatch, EachLevelHasItsWidthAndTheWidestRunnableIsChosen) {
  const std::vector<SimdLevel> levels = runnable_simd_levels();
  ASSERT_FALSE(levels.empty());
  if (std::getenv("STRUT_SIMD") == nullptr) {
    EXPECT_EQ(simd_kernels().level, levels.back());
  }
  EXPECT_EQ(kSimdKernelsSse42.lanes, 4);
  EXPECT_EQ(kSimdKernelsAvx2.lanes, 8);
  EXPECT_EQ(kSimdKernelsAvx512.lanes, 16);
  for (const SimdLevel level : levels) std::printf("this CPU runs %s\n", simd_level_name(level));
}

TEST(SimdDispatch, EveryRunnableLevelMatchesTheScalarKernels) {
  const int n = 1003;  // not a multiple of any width: each level's tail is exercised
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-10, 10);
  std::vector<float> start[12];
  for (auto& v : start) v.resize(n);
  for (int i = 0; i < n; ++i) {
    const float a = u(rng);
    start[0][i] = u(rng), start[1][i] = u(rng), start[2][i] = std::cos(a);
    start[3][i] = std::sin(a);
    // Motions up to 30 rad a substep, beyond the turn clamp of 20, so the clamp is exercised.
    start[4][i] = 0.01f * u(rng), start[5][i] = 0.01f * u(rng), start[6][i] = 3 * u(rng);
    start[7][i] = u(rng), start[8][i] = u(rng), start[9][i] = u(rng);
    start[10][i] = 0.99f, start[11][i] = 0.98f;
  }
  auto spans = [](std::vector<float>* v) {
    RigidSpans s{v[0].data(), v[1].data(), v[2].data(), v[3].data(), v[4].data(),  v[5].data(),
                 v[6].data(), v[7].data(), v[8].data(), v[9].data(), v[10].data(), v[11].data()};
    s.max_move = 5.0f, s.max_turn = 20.0f;
    return s;
  };
  std::vector<float> scalar[12];
  std::copy(std::begin(start), std::end(start), std::begin(scalar));
  for (int s = 0; s < 5; ++s) {
    integrate_rigid_velocity_scalar(spans(scalar), 0, n, 1.0f / 240);
    integrate_rigid_position_scalar(spans(scalar), 0, n);
  }
  std::vector<float> box_out[4], box_scalar[4];
  for (auto& v : box_scalar) v.resize(n);
  const BoundsSpans box_in{start[0].data(), start[1].data(), start[7].data(),
                           start[8].data(), start[4].data(), nullptr,
                           nullptr,         nullptr,         nullptr};
  auto bounds = [&](std::vector<float>* out) {
    BoundsSpans s = box_in;
    s.out_lx = out[0].data(), s.out_ly = out[1].data();
    s.out_ux = out[2].data(), s.out_uy = out[3].data();
    return s;
  };
  fatten_bounds_scalar(bounds(box_scalar), 0, n, 0.0025f);
  for (const SimdLevel level : runnable_simd_levels()) {
    const SimdKernels& k = level == SimdLevel::Sse42  ? kSimdKernelsSse42
                           : level == SimdLevel::Avx2 ? kSimdKernelsAvx2
                                                      : kSimdKernelsAvx512;
    std::vector<float> wide[12];
    std::copy(std::begin(start), std::end(start), std::begin(wide));
    for (int s = 0; s < 5; ++s) {
      k.rigid_velocity(spans(wide), 0, n, 1.0f / 240);
      k.rigid_position(spans(wide), 0, n);
    }
    for (int a = 0; a < 7; ++a)
      for (int i = 0; i < n; ++i)
        ASSERT_EQ(test::bits(wide[a][i]), test::bits(scalar[a][i]))
            << simd_level_name(level) << " array " << a << " index " << i;
    for (auto& v : box_out) v.assign(n, 0.0f);
    k.fatten_bounds(bounds(box_out), 0, n, 0.0025f);
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < n; ++i)
        ASSERT_EQ(test::bits(box_out[a][i]), test::bits(box_scalar[a][i]))
            << simd_level_name(level) << " bounds " << a << " index " << i;
  }
}

// A 15-row pyramid (120 boxes) hit by spinning circles, 90 steps at 2 threads: the same hash at
// every level this CPU runs.
std::uint64_t pyramid_hash() {
  World world({.substeps = 4, .threads = 2});
  world.create_body(test::ground_def());
  for (int row = 0; row < 15; ++row)
    for (int i = 0; i <= 14 - row; ++i)
      world.create_body(test::box_def({float(i) - 0.5f * float(14 - row), 0.5f + float(row)}));
  for (int i = 0; i < 5; ++i) {
    BodyDef ball;
    ball.shape = CircleShape{0.3f};
    ball.center = {-12.0f - float(i), 2.0f + float(i)};
    ball.velocity = {20, 0}, ball.angular_velocity = 50;
    world.create_body(ball);
  }
  for (int i = 0; i < 90; ++i) world.step(1.0f / 60);
  return world.state_hash();
}

TEST(SimdDispatch, WorldsGiveTheSameHashAtEveryLevel) {
  LevelGuard guard;
  const std::vector<SimdLevel> levels = runnable_simd_levels();
  set_simd_level(levels.front());
  const std::uint64_t narrowest = pyramid_hash();
  for (const SimdLevel level : levels) {
    set_simd_level(level);
    EXPECT_EQ(pyramid_hash(), narrowest) << simd_level_name(level);
  }
  std::printf("hash %016llx at every level\n", (unsigned long long)narrowest);
}

}  // namespace
}  // namespace strut
