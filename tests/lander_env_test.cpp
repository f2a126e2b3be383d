// LanderEnv (tools/worlds/lander_env.hpp): the observation follows the world, the engine pushes
// as hard as it says, episodes end and restart, the same seed gives the same bits at any thread
// count, and bad actions are refused before anything moves.
#include "tools/worlds/lander_env.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace strut::envs {
namespace {

struct Buffers {
  explicit Buffers(std::size_t n)
      : obs(n * kLanderObservations),
        actions(n * kLanderActions),
        rewards(n),
        terminated(n),
        truncated(n) {}
  std::vector<float> obs, actions, rewards;
  std::vector<std::uint8_t> terminated, truncated;
  void step(LanderEnv& env) { env.step(actions, obs, rewards, terminated, truncated); }
};

// Full throttle against none for one step: the hull's upward speed differs by F dt / M, M the
// lander's whole mass (the legs hang on the hull's joints), within 3 % (the joints are soft for
// a substep or two, and the legs turn a little).
TEST(LanderEnv, TheMainEngineAcceleratesTheWholeLander) {
  LanderEnv env({.envs = 2, .threads = 1, .seed = 5});
  Buffers b(2);
  env.reset(b.obs);
  std::vector<float> start = b.obs;
  b.actions = {1, 0, 0, 0};
  b.step(env);
  const float dv_full = b.obs[3] - start[3];
  const float dv_none = b.obs[kLanderObservations + 3] - start[kLanderObservations + 3];
  const float lander_mass = 10.7f;  // hull 2.08 m^2 x 5 + two legs 0.16 m^2 x 1
  const float dt = 1.0f / 60;
  // Without thrust both fall at about g; the difference is the thrust's share.
  EXPECT_NEAR(dv_full - dv_none, LanderEnv::kMainForce * dt / lander_mass,
              0.03f * LanderEnv::kMainForce * dt / lander_mass);
  EXPECT_NEAR(dv_none, -10.0f * dt, 0.02f);
}

// The shaping an observation shows (lander_env.hpp): the reward is its change less the fuel.
float shaping(const float* o) {
  return -100.0f * std::hypot(o[0], o[1]) - 100.0f * std::hypot(o[2], o[3]) -
         100.0f * std::fabs(o[4]) + 10.0f * (o[6] + o[7]);
}

TEST(LanderEnv, TheRewardIsTheShapingsChangeLessTheFuel) {
  LanderEnv env({.envs = 3, .threads = 1, .seed = 2});
  Buffers b(3);
  env.reset(b.obs);
  b.actions = {0.5f, 0.0f, 2.0f, -1.0f, -1.0f, 0.25f};  // throttles 0.5, 1 (clipped), 0
  const std::vector<float> before = b.obs;
  b.step(env);
  const float fuel[3] = {0.3f * 0.5f, 0.3f * 1.0f + 0.03f, 0.03f * 0.25f};
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_FALSE(b.terminated[i]);
    EXPECT_NEAR(b.rewards[i],
                shaping(&b.obs[i * kLanderObservations]) -
                    shaping(&before[i * kLanderObservations]) - fuel[i],
                1e-3f)
        << i;
  }
}

// Falling with the engines off, every lander's first episode ends (lands or crashes) well
// before the step limit, with the return its rewards summed and a fresh episode after it.
TEST(LanderEnv, EpisodesEndAndRestartAtOnce) {
  const int n = 16;
  LanderEnv env({.envs = n, .threads = 2, .seed = 1});
  Buffers b(n);
  env.reset(b.obs);
  const float start_height = b.obs[1];
  std::vector<double> sums(n, 0.0);
  std::vector<int> ended_at(n, -1);
  for (int s = 1; s <= 600; ++s) {
    b.step(env);
    for (int i = 0; i < n; ++i) {
      if (ended_at[i] >= 0) continue;
      sums[i] += b.rewards[std::size_t(i)];
      if (b.terminated[std::size_t(i)] || b.truncated[std::size_t(i)]) {
        ended_at[i] = s;
        EXPECT_TRUE(b.terminated[std::size_t(i)]) << i;
        EXPECT_EQ(env.last_lengths()[std::size_t(i)], s);
        EXPECT_NEAR(env.last_returns()[std::size_t(i)], sums[i], 1e-3 * std::fabs(sums[i]) + 1e-3);
        // The observation is the next episode's first: high above the pad again.
        EXPECT_NEAR(b.obs[std::size_t(i) * kLanderObservations + 1], start_height, 0.05f);
      } else {
        EXPECT_EQ(env.last_lengths()[std::size_t(i)], 0);
      }
    }
  }
  for (int i = 0; i < n; ++i) EXPECT_GT(ended_at[i], 0) << i;
}

TEST(LanderEnv, SameSeedSameBitsAtAnyThreadCount) {
  std::vector<float> trace[2];
  for (int t = 0; t < 2; ++t) {
    LanderEnv env({.envs = 8, .threads = 1 + 2 * t, .seed = 9, .max_steps = 50});
    Buffers b(8);
    env.reset(b.obs);
    for (int s = 0; s < 120; ++s) {
      for (std::size_t i = 0; i < 8; ++i) {
        b.actions[2 * i] = float((s + int(i)) % 3) * 0.5f;
        b.actions[2 * i + 1] = float(int(i % 3) - 1);
      }
      b.step(env);
      trace[t].insert(trace[t].end(), b.obs.begin(), b.obs.end());
      trace[t].insert(trace[t].end(), b.rewards.begin(), b.rewards.end());
    }
  }
  EXPECT_EQ(trace[0], trace[1]);
  LanderEnv other({.envs = 8, .threads = 1, .seed = 10});
  Buffers b(8);
  other.reset(b.obs);
  EXPECT_NE(std::vector<float>(trace[0].begin(), trace[0].begin() + 8),
            std::vector<float>(b.obs.begin(), b.obs.begin() + 8));
}

TEST(LanderEnv, BadInputIsRefusedBeforeAnythingMoves) {
  LanderEnv env({.envs = 4, .threads = 1});
  Buffers b(4);
  env.reset(b.obs);
  const std::vector<float> before = b.obs;
  b.actions[7] = std::numeric_limits<float>::quiet_NaN();
  try {
    b.step(env);
    ADD_FAILURE() << "stepped a NaN action";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "LanderEnv::step: actions[3][1] is not a finite number");
  }
  EXPECT_EQ(b.obs, before);
  std::vector<float> short_actions(3);
  EXPECT_THROW(env.step(short_actions, b.obs, b.rewards, b.terminated, b.truncated), Error);
  EXPECT_THROW(LanderEnv({.envs = 0}), Error);
  EXPECT_THROW(LanderEnv({.envs = 1, .max_steps = 0}), Error);
}

}  // namespace
}  // namespace strut::envs
