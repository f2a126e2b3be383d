// strut.WorldBatch: worlds stepped side by side, one world a task on the batch's threads.
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <thread>

#include "python/src/bindings.hpp"
#include "python/src/world.hpp"

namespace strut::python {
namespace {

// Worlds stepped side by side: one world a task on the batch's threads, each world's step as it
// would run alone (its own threads, its own order), so each ends as if stepped alone.
class PyWorldBatch {
 public:
  PyWorldBatch(const std::vector<py::object>& worlds, int threads) : owners_(worlds) {
    for (const py::object& w : worlds) worlds_.push_back(w.cast<PyWorld*>());
    check_threads(threads, "WorldBatch");
    for (std::size_t i = 0; i < worlds_.size(); ++i)
      for (std::size_t k = 0; k < i; ++k)
        if (worlds_[i] == worlds_[k])
          throw Error("WorldBatch: worlds[" + std::to_string(k) + "] and [" + std::to_string(i) +
                      "] are the same World");
    threads_ = threads == 0 ? int(std::max(1u, std::thread::hardware_concurrency())) : threads;
  }
  void step(int steps) {
    if (steps < 0)
      throw Error("WorldBatch.step: steps must be at least 0, got " + std::to_string(steps));
    for (PyWorld* w : worlds_) w->start_steps();
    py::gil_scoped_release unlocked;
    tbb::task_arena arena(threads_);
    for (int k = 0; k < steps; ++k)
      arena.execute([&] {
        tbb::parallel_for(std::size_t(0), worlds_.size(),
                          [&](std::size_t i) { worlds_[i]->step_once(); });
      });
  }
  // world w's read() as row w of one (worlds, bodies, ...) array; every world must have as many
  // bodies as the first.
  template <class Read>
  py::array_t<float> stacked(int columns, const char* call, Read&& read) const {
    const std::size_t n = worlds_.empty() ? 0 : worlds_[0]->body_count();
    for (std::size_t i = 0; i < worlds_.size(); ++i)
      if (worlds_[i]->body_count() != n)
        throw Error(std::string("WorldBatch.") + call + ": world " + std::to_string(i) + " has " +
                    std::to_string(worlds_[i]->body_count()) + " bodies, world 0 has " +
                    std::to_string(n) + ": the arrays need as many in every world");
    std::vector<py::ssize_t> shape{py::ssize_t(worlds_.size()), py::ssize_t(n)};
    if (columns > 1) shape.push_back(columns);
    py::array_t<float> out(shape);
    float* data = out.mutable_data();
    for (std::size_t i = 0; i < worlds_.size(); ++i) {
      const py::array_t<float> one = read(*worlds_[i]);
      std::copy(one.data(), one.data() + n * std::size_t(columns),
                data + i * n * std::size_t(columns));
    }
    return out;
  }
  py::array_t<float> positions() const {
    return stacked(2, "positions", [](const PyWorld& w) { return w.positions(); });
  }
  py::array_t<float> angles() const {
    return stacked(1, "angles", [](const PyWorld& w) { return w.angles(); });
  }
  py::array_t<float> velocities() const {
    return stacked(2, "velocities", [](const PyWorld& w) { return w.velocities(); });
  }
  py::array_t<float> angular_velocities() const {
    return stacked(1, "angular_velocities",
                   [](const PyWorld& w) { return w.angular_velocities(); });
  }
  std::vector<std::string> hashes() const {
    std::vector<std::string> out;
    for (const PyWorld* w : worlds_) out.push_back(w->hash());
    return out;
  }
  std::size_t size() const { return worlds_.size(); }
  // reset() with snapshot bytes: loaded once, then copied into each listed world.
  void reset_bytes(const std::vector<long long>& indices, const py::bytes& data) {
    const PyWorld state = PyWorld::from_snapshot(data, 1);
    reset(indices, state);
  }
  // World w's rows of a (worlds, n, columns) array, every world with as many bodies as world 0.
  void check_stack(const Rows& a, int columns, const char* call, const char* what) const {
    const std::size_t n = worlds_.empty() ? 0 : worlds_[0]->body_count();
    const bool shaped = a.ndim() == (columns == 1 ? 2 : 3) &&
                        std::size_t(a.shape(0)) == worlds_.size() && std::size_t(a.shape(1)) == n &&
                        (columns == 1 || a.shape(2) == columns);
    if (!shaped)
      throw Error(std::string(call) + ": " + what + " must have shape (" +
                  std::to_string(worlds_.size()) + ", " + std::to_string(n) +
                  (columns == 1 ? ")" : ", " + std::to_string(columns) + ")"));
    for (std::size_t i = 0; i < worlds_.size(); ++i)
      if (worlds_[i]->body_count() != n)
        throw Error(std::string(call) + ": world " + std::to_string(i) + " has " +
                    std::to_string(worlds_[i]->body_count()) + " bodies, world 0 has " +
                    std::to_string(n));
  }
  // Row i of the first axis, as a view into `a` (its base: no copy, so pointers read from it
  // stay valid while `a` does).
  static Rows slice(const Rows& a, std::size_t i) {
    std::vector<py::ssize_t> shape(a.shape() + 1, a.shape() + a.ndim());
    const std::size_t per = std::size_t(a.size()) / std::size_t(a.shape(0));
    return Rows(shape, a.data() + i * per, a);
  }
  // Forces (worlds, n, 2) on every body of every world, torques (worlds, n) if given; each world
  // checked before any is pushed (as World.apply_forces checks).
  void apply_forces(const Rows& forces, const std::optional<Rows>& torques) {
    check_stack(forces, 2, "WorldBatch.apply_forces", "forces");
    if (torques) check_stack(*torques, 1, "WorldBatch.apply_forces", "torques");
    // Every world checked (its rows views into the arrays) before any is pushed; once each.
    std::vector<PyWorld::ForceRows> checked;
    for (std::size_t i = 0; i < worlds_.size(); ++i)
      checked.push_back(worlds_[i]->check_all_forces(
          slice(forces, i), torques ? std::optional(slice(*torques, i)) : std::nullopt, i));
    for (std::size_t i = 0; i < worlds_.size(); ++i) worlds_[i]->push_all_forces(checked[i]);
  }
  // Motor speeds (worlds, joints) of every world's scene joints.
  void set_motor_speeds(const Rows& speeds) {
    const std::size_t n = worlds_.empty() ? 0 : worlds_[0]->joint_count();
    if (speeds.ndim() != 2 || std::size_t(speeds.shape(0)) != worlds_.size() ||
        std::size_t(speeds.shape(1)) != n)
      throw Error("WorldBatch.set_motor_speeds: speeds must have shape (" +
                  std::to_string(worlds_.size()) + ", " + std::to_string(n) + ")");
    for (std::size_t i = 0; i < worlds_.size(); ++i)
      if (worlds_[i]->joint_count() != n)
        throw Error("WorldBatch.set_motor_speeds: world " + std::to_string(i) + " has " +
                    std::to_string(worlds_[i]->joint_count()) + " joints, world 0 has " +
                    std::to_string(n));
    for (std::size_t i = 0; i < worlds_.size(); ++i) worlds_[i]->set_motor_speeds(slice(speeds, i));
  }

  // The listed worlds (indices into the batch, each once) become copies of `state`, side by side.
  void reset(const std::vector<long long>& indices, const PyWorld& state) {
    std::vector<PyWorld*> chosen;
    for (const long long i : indices) {
      if (i < 0 || i >= static_cast<long long>(worlds_.size()))
        throw Error("WorldBatch.reset: index " + std::to_string(i) + " is outside the batch's " +
                    std::to_string(worlds_.size()) + " worlds");
      for (const PyWorld* w : chosen)
        if (w == worlds_[std::size_t(i)])
          throw Error("WorldBatch.reset: index " + std::to_string(i) + " is listed twice");
      if (worlds_[std::size_t(i)] == &state)
        throw Error("WorldBatch.reset: world " + std::to_string(i) + " is the state itself");
      chosen.push_back(worlds_[std::size_t(i)]);
    }
    py::gil_scoped_release unlocked;
    tbb::task_arena arena(threads_);
    arena.execute([&] {
      tbb::parallel_for(std::size_t(0), chosen.size(),
                        [&](std::size_t k) { chosen[k]->restore_from(state); });
    });
  }

 private:
  std::vector<py::object> owners_;  // keeps the worlds alive as long as the batch
  std::vector<PyWorld*> worlds_;
  int threads_ = 1;
};

}  // namespace

void def_world_batch(py::module_& m) {
  py::class_<PyWorldBatch>(m, "WorldBatch",
                           "Worlds stepped side by side; each ends as if stepped alone.")
      .def(py::init<const std::vector<py::object>&, int>(), py::arg("worlds"),
           py::arg("threads") = 0)
      .def("step", &PyWorldBatch::step, py::arg("steps") = 1, "Steps every world `steps` times.")
      .def("hashes", &PyWorldBatch::hashes, "Each world's hash, in order.")
      .def("positions", &PyWorldBatch::positions, "Centres of mass, float32 (worlds, n, 2).")
      .def("angles", &PyWorldBatch::angles, "Angles, float32 (worlds, n).")
      .def("velocities", &PyWorldBatch::velocities, "Linear velocities, float32 (worlds, n, 2).")
      .def("angular_velocities", &PyWorldBatch::angular_velocities,
           "Angular velocities, float32 (worlds, n).")
      .def("reset", &PyWorldBatch::reset, py::arg("indices"), py::arg("state"),
           "The listed worlds (indices, each once) become copies of the World `state`, side by "
           "side on the batch's threads.")
      .def("reset", &PyWorldBatch::reset_bytes, py::arg("indices"), py::arg("state"),
           "The listed worlds become the snapshot `state` (bytes, loaded once).")
      .def("apply_forces", &PyWorldBatch::apply_forces, py::arg("forces"),
           py::arg("torques") = py::none(),
           "Forces (worlds, n, 2) at every body's centre, torques (worlds, n) if given; zero rows "
           "for static and kinematic bodies; every world checked before any is pushed.")
      .def("set_motor_speeds", &PyWorldBatch::set_motor_speeds, py::arg("speeds"),
           "Motor speeds (worlds, joints) of each world's scene joints.")
      .def("__len__", &PyWorldBatch::size);
}

}  // namespace strut::python
