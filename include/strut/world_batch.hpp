// Many independent worlds stepped in one call: learning environments (thousands of copies of
// one task), parameter sweeps, a world per match on a game server. The batch's threads share out
// the worlds; each world is stepped start to end by one thread, so every world ends bit-identical
// to being stepped alone, for any thread count of the batch.
//
// Inputs and outputs are arrays over (world, item), world-major: for `bodies` of n ids, element
// i * n + k is body bodies[k] of world i. Worlds built by the same code hand out the same ids, so
// one list of ids names the same body in every world. Each call checks every id in every world
// and every value before it changes anything, and throws strut::Error naming the world, the id's
// place in the list and what was wrong; the worlds are then as they were.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "strut/world.hpp"

namespace strut {

namespace detail {
struct BatchState;  // the library's own
}  // namespace detail

class WorldBatch {
 public:
  // threads: 0 = all cores, 1 = every world on the calling thread, at most limits::kMaxThreads
  // (256; more throws strut::Error naming the field).
  explicit WorldBatch(int threads = 0);
  ~WorldBatch();
  WorldBatch(WorldBatch&&) noexcept;
  WorldBatch& operator=(WorldBatch&&) noexcept;
  WorldBatch(const WorldBatch&) = delete;
  WorldBatch& operator=(const WorldBatch&) = delete;

  // Appends a world and returns its index. The world must run on one thread
  // (WorldConfig::threads = 1, no external arena): the batch's threads are its parallelism.
  std::size_t add(World world);
  std::size_t size() const;
  int thread_count() const;
  World& operator[](std::size_t index);
  const World& operator[](std::size_t index) const;

  // One step of dt for every world.
  void step(float dt);
  // One step of dt for the worlds listed (each index once at most), the others left as they are.
  void step(float dt, std::span<const std::size_t> worlds);

  // Each listed world (each index once at most) becomes a copy of `state` (World::restore): a reset
  // to a start state, or a branch from a saved one. `state` may be one of the batch's worlds.
  void reset(std::span<const std::size_t> worlds, const World& state);

  // Poses: out[i * n + k] is the transform of bodies[k] in world i (size() x n elements).
  void get_transforms(std::span<const BodyId> bodies, std::span<Transform> out) const;
  // Velocities, linear and angular, shaped as get_transforms' out.
  void get_velocities(std::span<const BodyId> bodies, std::span<Vec2> linear,
                      std::span<float> angular) const;
  void set_velocities(std::span<const BodyId> bodies, std::span<const Vec2> linear,
                      std::span<const float> angular);
  // Forces at the bodies' centres until the next step (World::apply_force), one per element.
  void apply_forces(std::span<const BodyId> bodies, std::span<const Vec2> forces);
  // Motor speeds (World::set_joint_motor_speed), one per element.
  void set_motor_speeds(std::span<const JointId> joints, std::span<const float> speeds);

 private:
  std::unique_ptr<detail::BatchState> state_;
};

}  // namespace strut
