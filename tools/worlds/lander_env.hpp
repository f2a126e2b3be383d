// A lander task as learning libraries expect an environment (reset, then step(actions) giving
// observations, rewards, terminated, truncated), over a batch of lander worlds
// (tools/worlds/small_worlds.hpp) stepped side by side: the Python package's strut.LanderEnv
// (python/strut_module.cpp) and bench/bench_small_worlds.cpp's BM_LanderEnv. Written here, with
// no dependency on Gymnasium, after the shape of its LunarLander (continuous actions): the
// observation, the shaping reward and the episode's ends are this project's own choices, stated
// with each constant below.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "strut/world.hpp"
#include "strut/world_batch.hpp"

namespace strut::envs {

inline constexpr int kLanderObservations = 8;  // per environment, see LanderEnv::step
inline constexpr int kLanderActions = 2;

struct LanderConfig {
  int envs = 1;
  int threads = 0;  // 0: all cores
  std::uint64_t seed = 0;
  int max_steps = 1000;  // an episode is truncated after this many steps
  float dt = 1.0f / 60.0f;
};

class LanderEnv {
 public:
  // Throws strut::Error naming the setting out of range (envs 1..1,000,000; max_steps >= 1;
  // dt in (0, 0.1]; threads 0..limits::kMaxThreads).
  explicit LanderEnv(const LanderConfig& config);
  ~LanderEnv();
  LanderEnv(LanderEnv&&) noexcept;
  LanderEnv& operator=(LanderEnv&&) noexcept;

  std::size_t size() const;
  const LanderConfig& config() const;

  // Starts every episode afresh (episode k of environment i starts with the velocities drawn
  // from (seed, i, k)) and writes the observations, size() x kLanderObservations.
  void reset(std::span<float> observations);
  // Actions, size() x kLanderActions: [0] the main engine's throttle (clipped to [0, 1]: up to
  // kMainForce along the hull's up axis), [1] the side engines' (clipped to [-1, 1]: up to
  // kSideTorque about the hull). One step of dt for every world; then per environment its
  // observation (hull x and y from the pad, velocity, angle, angular velocity, left and right leg
  // on the ground as 0 or 1), its reward (the change of the shaping, -100 x distance - 100 x
  // speed - 100 x |angle| + 10 per leg down, less the fuel, 0.3 x throttle + 0.03 x |side|; +100
  // when it lands, -100 when it crashes), whether the episode ended (landed: both legs down and
  // still; crashed: the hull on the ground, tipped past 1.5 rad, or off the terrain; or at rest
  // anywhere else for half a second, with no bonus) and whether
  // it was truncated (max_steps). An environment whose episode ended or was truncated starts the
  // next at once: its observation is the new episode's first, and last_returns / last_lengths
  // hold the finished episode's return and length (0 for the others). Throws strut::Error
  // naming the environment and the action for a non-finite action, or for arrays of the wrong
  // size, before anything moves.
  void step(std::span<const float> actions, std::span<float> observations, std::span<float> rewards,
            std::span<std::uint8_t> terminated, std::span<std::uint8_t> truncated);
  std::span<const float> last_returns() const;
  std::span<const int> last_lengths() const;

  static constexpr float kMainForce = 220.0f;  // N: twice the lander's weight (10.7 kg, g 10)
  static constexpr float kSideTorque = 40.0f;  // N m

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace strut::envs
