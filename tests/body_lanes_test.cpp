// Moving solver bodies into SIMD lanes and back (solver/contacts/body_lanes.hpp): the register
// transpose against the field-by-field reference, bit for bit.
#include "solver/contacts/body_lanes.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

namespace strut {
namespace {

// The baseline build's batch (the dispatched levels run these through the contact kernels,
// tests/simd_dispatch_test.cpp).
using WideFloat = xsimd::batch<float>;
constexpr int kWidth = int(WideFloat::size);

std::vector<SolverBody> random_bodies(std::mt19937& rng, int n) {
  std::uniform_real_distribution<float> u(-10.0f, 10.0f);
  std::vector<SolverBody> bodies(std::size_t(n) + 1);
  for (SolverBody& b : bodies) b = {u(rng), u(rng), u(rng), 0.0f, u(rng), u(rng), u(rng), u(rng)};
  bodies.back() = SolverBody{};  // the spare zero body of padding lanes
  return bodies;
}

// Every field of every lane: lanes point at random bodies, some at the spare body, some twice.
std::vector<float> lanes_of(const wide::Body<WideFloat>& b) {
  std::vector<float> out(7 * kWidth);
  const WideFloat* f[7] = {&b.dx, &b.dy, &b.da, &b.dpx, &b.dpy, &b.dqc, &b.dqs};
  for (int k = 0; k < 7; ++k) f[k]->store_unaligned(out.data() + k * kWidth);
  return out;
}

TEST(BodyLanes, GatherMatchesTheFieldByFieldReference) {
  std::mt19937 rng(7);
  const int n = 100;
  const std::vector<SolverBody> bodies = random_bodies(rng, n);
  std::uniform_int_distribution<std::uint32_t> pick(0, n);  // n: the spare body
  for (int round = 0; round < 50; ++round) {
    alignas(64) std::uint32_t idx[kWidth];
    for (auto& i : idx) i = pick(rng);
    const auto fast = lanes_of(gather_lanes<WideFloat>(bodies.data(), idx));
    const auto slow = lanes_of(gather_lanes_reference<WideFloat>(bodies.data(), idx));
    ASSERT_EQ(0, std::memcmp(fast.data(), slow.data(), fast.size() * sizeof(float)));
    // And each lane really holds its body (the reference itself, checked field by field).
    for (int lane = 0; lane < kWidth; ++lane) {
      const SolverBody& b = bodies[idx[lane]];
      EXPECT_EQ(slow[0 * kWidth + lane], b.dx);
      EXPECT_EQ(slow[2 * kWidth + lane], b.da);
      EXPECT_EQ(slow[4 * kWidth + lane], b.dpy);
      EXPECT_EQ(slow[6 * kWidth + lane], b.dqs);
    }
  }
}

TEST(BodyLanes, ScatterWritesTheMotionOfMaskedLanesOnly) {
  std::mt19937 rng(11);
  const int n = 64;
  const std::vector<SolverBody> start = random_bodies(rng, n);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int round = 0; round < 50; ++round) {
    // Distinct bodies per lane (as in a colour), a random subset movable.
    std::vector<std::uint32_t> order(n);
    for (int i = 0; i < n; ++i) order[std::size_t(i)] = std::uint32_t(i);
    std::shuffle(order.begin(), order.end(), rng);
    alignas(64) std::uint32_t idx[kWidth];
    std::copy_n(order.begin(), kWidth, idx);
    const std::uint32_t mask = std::uint32_t(rng()) & ((1u << kWidth) - 1u);
    alignas(64) float v[3][kWidth];
    for (auto& row : v)
      for (float& x : row) x = u(rng);
    const wide::Body<WideFloat> b{WideFloat::load_aligned(v[0]),
                                  WideFloat::load_aligned(v[1]),
                                  WideFloat::load_aligned(v[2]),
                                  WideFloat(0.0f),
                                  WideFloat(0.0f),
                                  WideFloat(1.0f),
                                  WideFloat(0.0f)};
    std::vector<SolverBody> fast = start, slow = start;
    scatter_lanes(fast.data(), idx, b, mask);
    scatter_lanes_reference(slow.data(), idx, b, mask);
    ASSERT_EQ(0, std::memcmp(fast.data(), slow.data(), fast.size() * sizeof(SolverBody)));
    int written = 0;
    for (std::size_t k = 0; k < start.size(); ++k)
      written += std::memcmp(&fast[k], &start[k], sizeof(SolverBody)) != 0;
    EXPECT_EQ(written, __builtin_popcount(mask));
  }
}

}  // namespace
}  // namespace strut
