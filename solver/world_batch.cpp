// A batch of worlds: the worlds in a vector, the batch's own task system sharing them out. Every
// array call checks all of its input first (the worlds' own checks, through WorldState) and
// changes the worlds only when all of it is good.
#include "strut/world_batch.hpp"

#include <cstdio>
#include <string>

#include "solver/core/task_system.hpp"
#include "solver/joints/joint_ops.hpp"
#include "solver/shapes/shape_checks.hpp"
#include "solver/world_state.hpp"
#include "strut/limits.hpp"

namespace strut {

namespace {

int checked_threads(int threads) {
  if (threads < 0 || threads > limits::kMaxThreads)
    throw Error("WorldBatch: threads must be in [0, " + std::to_string(limits::kMaxThreads) +
                "] (0 = all cores), got " + std::to_string(threads));
  return threads;
}

}  // namespace

struct WorldBatch::Impl {
  explicit Impl(int threads) : tasks(checked_threads(threads)) {}
  TaskSystem tasks;
  std::vector<World> worlds;
};

namespace {

// "WorldBatch::call: " + what, for errors about the arguments themselves.
Error batch_error(const char* call, const std::string& what) {
  return Error(std::string("WorldBatch::") + call + ": " + what);
}

// Every index below `worlds`, none twice.
void require_listed(const char* call, std::span<const std::size_t> which, std::size_t worlds) {
  std::vector<std::uint8_t> listed(worlds, 0);
  for (std::size_t k = 0; k < which.size(); ++k) {
    if (which[k] >= worlds)
      throw batch_error(call, "worlds[" + std::to_string(k) + "] is " + std::to_string(which[k]) +
                                  ", but the batch has " + std::to_string(worlds) + " worlds");
    if (listed[which[k]]++)
      throw batch_error(call, "world " + std::to_string(which[k]) + " is listed twice");
  }
}

// The arrays must hold worlds x n elements.
void require_shape(const char* call, const char* array, std::size_t size, std::size_t worlds,
                   std::size_t n) {
  if (size != worlds * n)
    throw batch_error(call, std::string(array) + " has " + std::to_string(size) +
                                " elements, expected " + std::to_string(worlds * n) + " (" +
                                std::to_string(worlds) + " worlds x " + std::to_string(n) + ")");
}

// No id twice in one list: two forces on one body would be checked one by one, each within its
// limit, and their sum not.
template <class Id>
void require_distinct(const char* call, const char* list, std::span<const Id> ids) {
  for (std::size_t k = 0; k < ids.size(); ++k)
    for (std::size_t m = 0; m < k; ++m)
      if (ids[m] == ids[k])
        throw batch_error(call, std::string(list) + "[" + std::to_string(m) + "] and [" +
                                    std::to_string(k) + "] are the same id");
}

// Runs check(world, k) for every world and element, rethrowing its error with the world and the
// element's place in the list.
template <class Check>
void check_all(const char* call, const char* list, std::size_t worlds, std::size_t n,
               Check&& check) {
  for (std::size_t i = 0; i < worlds; ++i)
    for (std::size_t k = 0; k < n; ++k) {
      try {
        check(i, k);
      } catch (const Error& e) {
        throw batch_error(call, "world " + std::to_string(i) + ", " + list + "[" +
                                    std::to_string(k) + "]: " + e.what());
      }
    }
}

}  // namespace

WorldBatch::WorldBatch(int threads) : state_(std::make_unique<Impl>(threads)) {}
WorldBatch::~WorldBatch() = default;
WorldBatch::WorldBatch(WorldBatch&&) noexcept = default;
WorldBatch& WorldBatch::operator=(WorldBatch&&) noexcept = default;

std::size_t WorldBatch::add(World world) {
  const WorldConfig& c = world.config();
  if (c.threads != 1 || c.external_arena)
    throw batch_error("add", "the world must run on one thread (WorldConfig::threads = 1, no " +
                                 std::string("external_arena), got threads = ") +
                                 std::to_string(c.threads) +
                                 (c.external_arena ? " and an external arena" : "") +
                                 ": the batch's threads step the worlds side by side");
  state_->worlds.push_back(std::move(world));
  return state_->worlds.size() - 1;
}

std::size_t WorldBatch::size() const { return state_->worlds.size(); }
int WorldBatch::thread_count() const { return state_->tasks.thread_count(); }
World& WorldBatch::operator[](std::size_t index) { return state_->worlds.at(index); }
const World& WorldBatch::operator[](std::size_t index) const { return state_->worlds.at(index); }

void WorldBatch::step(float dt) {
  shapes::check_step_dt(dt, "WorldBatch::step");
  auto& worlds = state_->worlds;
  // One world a chunk: a world's step is the unit of work, and the worlds' costs differ.
  state_->tasks.parallel_for(int(worlds.size()), 1, [&worlds, dt](int lo, int hi, int) {
    for (int i = lo; i < hi; ++i) worlds[std::size_t(i)].step(dt);
  });
}

void WorldBatch::step(float dt, std::span<const std::size_t> which) {
  shapes::check_step_dt(dt, "WorldBatch::step");
  auto& worlds = state_->worlds;
  require_listed("step", which, worlds.size());
  state_->tasks.parallel_for(int(which.size()), 1, [&worlds, which, dt](int lo, int hi, int) {
    for (int i = lo; i < hi; ++i) worlds[which[std::size_t(i)]].step(dt);
  });
}

void WorldBatch::reset(std::span<const std::size_t> which, const World& state) {
  auto& worlds = state_->worlds;
  require_listed("reset", which, worlds.size());
  const WorldConfig& c = state.config();
  if (c.threads != 1 || c.external_arena)
    throw batch_error("reset",
                      "the state must be a world that runs on one thread "
                      "(WorldConfig::threads = 1, no external_arena)");
  // A listed world may be `state` itself: copied once, before any is replaced.
  const World source = state.copy();
  state_->tasks.parallel_for(int(which.size()), 1, [&](int lo, int hi, int) {
    for (int i = lo; i < hi; ++i) worlds[which[std::size_t(i)]].restore(source);
  });
}

void WorldBatch::get_transforms(std::span<const BodyId> bodies, std::span<Transform> out) const {
  const auto& worlds = state_->worlds;
  const std::size_t n = bodies.size();
  require_shape("get_transforms", "out", out.size(), worlds.size(), n);
  check_all("get_transforms", "bodies", worlds.size(), n, [&](std::size_t i, std::size_t k) {
    worlds[i].state_->dense_of(bodies[k], "transform");
  });
  state_->tasks.parallel_for(int(worlds.size()), 64, [&](int lo, int hi, int) {
    for (int i = lo; i < hi; ++i)
      for (std::size_t k = 0; k < n; ++k)
        out[std::size_t(i) * n + k] = worlds[std::size_t(i)].transform(bodies[k]);
  });
}

void WorldBatch::get_velocities(std::span<const BodyId> bodies, std::span<Vec2> linear,
                                std::span<float> angular) const {
  const auto& worlds = state_->worlds;
  const std::size_t n = bodies.size();
  require_shape("get_velocities", "linear", linear.size(), worlds.size(), n);
  require_shape("get_velocities", "angular", angular.size(), worlds.size(), n);
  check_all("get_velocities", "bodies", worlds.size(), n, [&](std::size_t i, std::size_t k) {
    worlds[i].state_->dense_of(bodies[k], "linear_velocity");
  });
  state_->tasks.parallel_for(int(worlds.size()), 64, [&](int lo, int hi, int) {
    for (int i = lo; i < hi; ++i)
      for (std::size_t k = 0; k < n; ++k) {
        const World& w = worlds[std::size_t(i)];
        linear[std::size_t(i) * n + k] = w.linear_velocity(bodies[k]);
        angular[std::size_t(i) * n + k] = w.angular_velocity(bodies[k]);
      }
  });
}

void WorldBatch::set_velocities(std::span<const BodyId> bodies, std::span<const Vec2> linear,
                                std::span<const float> angular) {
  auto& worlds = state_->worlds;
  const std::size_t n = bodies.size();
  require_shape("set_velocities", "linear", linear.size(), worlds.size(), n);
  require_shape("set_velocities", "angular", angular.size(), worlds.size(), n);
  require_distinct("set_velocities", "bodies", bodies);
  check_all("set_velocities", "bodies", worlds.size(), n, [&](std::size_t i, std::size_t k) {
    const WorldState& w = *worlds[i].state_;
    w.check_linear_velocity(bodies[k], linear[i * n + k], "set_linear_velocity");
    w.check_angular_velocity(bodies[k], angular[i * n + k], "set_angular_velocity");
  });
  state_->tasks.parallel_for(int(worlds.size()), 64, [&](int lo, int hi, int) {
    for (int i = lo; i < hi; ++i)
      for (std::size_t k = 0; k < n; ++k) {
        World& w = worlds[std::size_t(i)];
        w.set_linear_velocity(bodies[k], linear[std::size_t(i) * n + k]);
        w.set_angular_velocity(bodies[k], angular[std::size_t(i) * n + k]);
      }
  });
}

void WorldBatch::apply_forces(std::span<const BodyId> bodies, std::span<const Vec2> forces) {
  auto& worlds = state_->worlds;
  const std::size_t n = bodies.size();
  require_shape("apply_forces", "forces", forces.size(), worlds.size(), n);
  require_distinct("apply_forces", "bodies", bodies);
  check_all("apply_forces", "bodies", worlds.size(), n, [&](std::size_t i, std::size_t k) {
    worlds[i].state_->check_central_force(bodies[k], forces[i * n + k], "apply_force");
  });
  state_->tasks.parallel_for(int(worlds.size()), 64, [&](int lo, int hi, int) {
    for (int i = lo; i < hi; ++i)
      for (std::size_t k = 0; k < n; ++k)
        worlds[std::size_t(i)].apply_force(bodies[k], forces[std::size_t(i) * n + k]);
  });
}

void WorldBatch::set_motor_speeds(std::span<const JointId> joints, std::span<const float> speeds) {
  auto& worlds = state_->worlds;
  const std::size_t n = joints.size();
  require_shape("set_motor_speeds", "speeds", speeds.size(), worlds.size(), n);
  require_distinct("set_motor_speeds", "joints", joints);
  check_all("set_motor_speeds", "joints", worlds.size(), n, [&](std::size_t i, std::size_t k) {
    check_motor_speed(*worlds[i].state_, joints[k], speeds[i * n + k], "set_joint_motor_speed");
  });
  state_->tasks.parallel_for(int(worlds.size()), 64, [&](int lo, int hi, int) {
    for (int i = lo; i < hi; ++i)
      for (std::size_t k = 0; k < n; ++k)
        worlds[std::size_t(i)].set_joint_motor_speed(joints[k], speeds[std::size_t(i) * n + k]);
  });
}

}  // namespace strut
