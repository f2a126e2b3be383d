// LanderEnv (lander_env.hpp): the per-environment work around the batch's step (actions into
// forces before it, observations and rewards after it, resets of the episodes that ended) runs
// side by side like the step itself, one environment a task on the environment's threads, so that
// a step of 1,024 landers is not one thread's loop between two parallel steps.
#include "tools/worlds/lander_env.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <thread>

#include "solver/shapes/shape_checks.hpp"
#include "strut/limits.hpp"
#include "tools/worlds/small_worlds.hpp"

namespace strut::envs {
namespace {

constexpr int kTerrainPoints = 11;  // small_worlds.hpp's chain: x = -10 + 2k
constexpr float kPadX = 0.0f;
constexpr float kLegHalfLength = 0.4f;
constexpr float kFootContact = 0.08f;     // m: a foot this close to the ground is down
constexpr float kHullCrashHeight = 0.8f;  // m: the hull's centre this low over the ground crashed
constexpr float kTipped = 1.5f;           // rad
constexpr float kLandedSpeed = 0.1f, kLandedSpin = 0.2f;
constexpr float kOffTerrain = 9.5f;  // m from the pad
constexpr int kRestSteps = 30;       // still this long anywhere else, the episode is over

float ground_height(float x) {
  const float u = std::clamp((x + 10.0f) / 2.0f, 0.0f, float(kTerrainPoints - 1) - 1e-4f);
  const int k = int(u);
  const float t = u - float(k);
  return (1.0f - t) * worlds::terrain_y(k) + t * worlds::terrain_y(k + 1);
}

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
float uniform(std::uint64_t& state, float lo, float hi) {
  state = mix(state);
  return lo + (hi - lo) * float(state >> 40) / float(1ull << 24);
}

}  // namespace

struct LanderEnv::Impl {
  LanderConfig config;
  tbb::task_arena arena;
  WorldBatch batch;
  World start{WorldConfig{.threads = 1}};
  worlds::Lander ids;  // the same ids in every world
  std::vector<int> episode, steps, still_steps;
  std::vector<float> shaping, returns;
  std::vector<float> last_returns;
  std::vector<int> last_lengths;

  explicit Impl(const LanderConfig& c, int threads)
      : config(c), arena(threads), batch(threads), ids(worlds::build_lander(start, 3)) {}

  template <class F>
  void each_env(F&& f) {
    arena.execute([&] { tbb::parallel_for(std::size_t(0), batch.size(), f); });
  }

  // Episode episode[i] of environment i from the start state with its drawn velocities.
  void start_episode(std::size_t i) {
    World& w = batch[i];
    w.restore(start);
    std::uint64_t state =
        config.seed * 0x2545F4914F6CDD1Dull ^ mix(i) ^ mix(~std::uint64_t(episode[i]));
    const Vec2 v{uniform(state, -2.0f, 2.0f), uniform(state, -2.0f, 0.0f)};
    w.set_linear_velocity(ids.hull, v);
    w.set_angular_velocity(ids.hull, uniform(state, -0.5f, 0.5f));
    for (const BodyId leg : ids.legs) w.set_linear_velocity(leg, v);
    steps[i] = 0, still_steps[i] = 0, returns[i] = 0.0f;
    shaping[i] = observe(i, nullptr).shaping;
  }

  struct Seen {
    float shaping;
    bool legs_down, still, landed, crashed;
  };
  // Writes environment i's observation (when out is given) and says what it shows.
  Seen observe(std::size_t i, float* out) const {
    const World& w = batch[i];
    const Transform hull = w.transform(ids.hull);
    const Vec2 v = w.linear_velocity(ids.hull);
    const float omega = w.angular_velocity(ids.hull);
    float down[2];
    for (int s = 0; s < 2; ++s) {
      const Transform leg = w.transform(ids.legs[std::size_t(s)]);
      const Vec2 foot = leg.position + rotate(make_rot(leg.angle), Vec2{0, -kLegHalfLength});
      down[s] = foot.y - ground_height(foot.x) < kFootContact ? 1.0f : 0.0f;
    }
    const float pad_y = ground_height(kPadX);
    const Vec2 from_pad{hull.position.x - kPadX, hull.position.y - pad_y};
    if (out) {
      const float o[kLanderObservations] = {from_pad.x, from_pad.y, v.x,     v.y,
                                            hull.angle, omega,      down[0], down[1]};
      std::copy(o, o + kLanderObservations, out);
    }
    Seen seen;
    seen.shaping = -100.0f * length(from_pad) - 100.0f * length(v) -
                   100.0f * std::fabs(hull.angle) + 10.0f * (down[0] + down[1]);
    seen.legs_down = down[0] > 0 && down[1] > 0;
    seen.still = length(v) < kLandedSpeed && std::fabs(omega) < kLandedSpin;
    seen.landed = seen.legs_down && seen.still;
    seen.crashed = hull.position.y - ground_height(hull.position.x) < kHullCrashHeight ||
                   std::fabs(hull.angle) > kTipped || std::fabs(from_pad.x) > kOffTerrain;
    return seen;
  }
};

LanderEnv::LanderEnv(const LanderConfig& c) {
  if (c.envs < 1 || c.envs > 1000000)
    throw Error("LanderEnv: envs must be in [1, 1000000], got " + std::to_string(c.envs));
  if (c.max_steps < 1)
    throw Error("LanderEnv: max_steps must be at least 1, got " + std::to_string(c.max_steps));
  if (!(c.dt > 0.0f && c.dt <= 0.1f))
    throw Error("LanderEnv: dt must be in (0, 0.1] s, got " + shapes::number_text(c.dt));
  if (c.threads < 0 || c.threads > limits::kMaxThreads)
    throw Error("LanderEnv: threads must be in [0, " + std::to_string(limits::kMaxThreads) +
                "] (0 = all cores), got " + std::to_string(c.threads));
  const int threads =
      c.threads == 0 ? int(std::max(1u, std::thread::hardware_concurrency())) : c.threads;
  impl_ = std::make_unique<Impl>(c, threads);
  Impl& m = *impl_;
  for (int i = 0; i < c.envs; ++i) m.batch.add(m.start.copy());
  const std::size_t n = std::size_t(c.envs);
  m.episode.assign(n, 0), m.steps.assign(n, 0), m.still_steps.assign(n, 0);
  m.shaping.assign(n, 0.0f);
  m.returns.assign(n, 0.0f), m.last_returns.assign(n, 0.0f), m.last_lengths.assign(n, 0);
}

LanderEnv::~LanderEnv() = default;
LanderEnv::LanderEnv(LanderEnv&&) noexcept = default;
LanderEnv& LanderEnv::operator=(LanderEnv&&) noexcept = default;

std::size_t LanderEnv::size() const { return impl_->batch.size(); }
const LanderConfig& LanderEnv::config() const { return impl_->config; }
std::span<const float> LanderEnv::last_returns() const { return impl_->last_returns; }
std::span<const int> LanderEnv::last_lengths() const { return impl_->last_lengths; }

void LanderEnv::reset(std::span<float> observations) {
  Impl& m = *impl_;
  if (observations.size() != size() * kLanderObservations)
    throw Error("LanderEnv::reset: observations must hold " +
                std::to_string(size() * kLanderObservations) + " floats, got " +
                std::to_string(observations.size()));
  m.each_env([&](std::size_t i) {
    m.start_episode(i);
    m.observe(i, observations.data() + i * kLanderObservations);
    m.last_returns[i] = 0.0f, m.last_lengths[i] = 0;
  });
}

void LanderEnv::step(std::span<const float> actions, std::span<float> observations,
                     std::span<float> rewards, std::span<std::uint8_t> terminated,
                     std::span<std::uint8_t> truncated) {
  Impl& m = *impl_;
  const std::size_t n = size();
  const auto need = [&](std::size_t got, std::size_t want, const char* what) {
    if (got != want)
      throw Error(std::string("LanderEnv::step: ") + what + " must hold " + std::to_string(want) +
                  " values, got " + std::to_string(got));
  };
  need(actions.size(), n * kLanderActions, "actions");
  need(observations.size(), n * kLanderObservations, "observations");
  need(rewards.size(), n, "rewards");
  need(terminated.size(), n, "terminated");
  need(truncated.size(), n, "truncated");
  for (std::size_t k = 0; k < actions.size(); ++k)
    if (!std::isfinite(actions[k]))
      throw Error("LanderEnv::step: actions[" + std::to_string(k / kLanderActions) + "][" +
                  std::to_string(k % kLanderActions) + "] is not a finite number");
  m.each_env([&](std::size_t i) {
    World& w = m.batch[i];
    const float main = std::clamp(actions[i * kLanderActions], 0.0f, 1.0f);
    const float side = std::clamp(actions[i * kLanderActions + 1], -1.0f, 1.0f);
    const Rot q = make_rot(w.transform(m.ids.hull).angle);
    w.apply_force(m.ids.hull, rotate(q, Vec2{0, main * kMainForce}));
    w.apply_torque(m.ids.hull, side * kSideTorque);
    rewards[i] = -0.3f * main - 0.03f * std::fabs(side);
  });
  m.batch.step(m.config.dt);
  m.each_env([&](std::size_t i) {
    float* obs = observations.data() + i * kLanderObservations;
    const Impl::Seen seen = m.observe(i, obs);
    float reward = rewards[i] + seen.shaping - m.shaping[i];
    m.shaping[i] = seen.shaping;
    if (seen.landed) reward += 100.0f;
    if (seen.crashed) reward -= 100.0f;
    rewards[i] = reward;
    m.returns[i] += reward;
    ++m.steps[i];
    m.still_steps[i] = seen.still ? m.still_steps[i] + 1 : 0;
    terminated[i] = seen.landed || seen.crashed || m.still_steps[i] >= kRestSteps;
    truncated[i] = !terminated[i] && m.steps[i] >= m.config.max_steps;
    m.last_returns[i] = 0.0f, m.last_lengths[i] = 0;
    if (terminated[i] || truncated[i]) {
      m.last_returns[i] = m.returns[i], m.last_lengths[i] = m.steps[i];
      ++m.episode[i];
      m.start_episode(i);
      m.observe(i, obs);
    }
  });
}

}  // namespace strut::envs
