// strut.LanderEnv: the lander task of tools/worlds/lander_env.hpp over a batch of worlds.
#include "tools/worlds/lander_env.hpp"

#include "python/src/bindings.hpp"

namespace strut::python {
namespace {

// The lander task over a batch of worlds (tools/worlds/lander_env.hpp), in the shape vectorised
// learning environments have: reset() -> (obs, info), step(actions) -> (obs, reward, terminated,
// truncated, info), NumPy arrays over the environments, finished episodes restarted at once.
class PyLanderEnv {
 public:
  PyLanderEnv(int envs, int threads, std::uint64_t seed, int max_steps)
      : env_({.envs = envs, .threads = threads, .seed = seed, .max_steps = max_steps}) {
    const auto n = py::ssize_t(env_.size());
    obs_ = py::array_t<float>({n, py::ssize_t(envs::kLanderObservations)});
    reward_ = py::array_t<float>({n});
    terminated_ = py::array_t<bool>({n});
    truncated_ = py::array_t<bool>({n});
  }
  std::size_t size() const { return env_.size(); }

  py::tuple reset() {
    {
      py::gil_scoped_release unlocked;
      env_.reset(span_of(obs_));
    }
    return py::make_tuple(copy(obs_), py::dict());
  }
  py::tuple step(const py::array_t<float, py::array::c_style | py::array::forcecast>& actions) {
    const auto n = std::size_t(env_.size());
    if (actions.ndim() != 2 || std::size_t(actions.shape(0)) != n ||
        actions.shape(1) != envs::kLanderActions)
      throw Error("LanderEnv.step: actions must have shape (" + std::to_string(n) + ", " +
                  std::to_string(envs::kLanderActions) + ")");
    {
      py::gil_scoped_release unlocked;
      env_.step({actions.data(), n * envs::kLanderActions}, span_of(obs_), span_of(reward_),
                bytes_of(terminated_), bytes_of(truncated_));
    }
    py::dict info;
    py::array_t<float> returns({py::ssize_t(n)});
    py::array_t<int> lengths({py::ssize_t(n)});
    std::copy(env_.last_returns().begin(), env_.last_returns().end(), returns.mutable_data());
    std::copy(env_.last_lengths().begin(), env_.last_lengths().end(), lengths.mutable_data());
    info["episode_return"] = returns;
    info["episode_length"] = lengths;
    return py::make_tuple(copy(obs_), copy(reward_), copy(terminated_), copy(truncated_), info);
  }
  // The same actions for `steps` steps, all in C++: the batch's own speed, which step()'s Python
  // overhead is measured against (bench/lander_env_bench.py); returns the summed rewards.
  py::array_t<float> run(const py::array_t<float, py::array::c_style | py::array::forcecast>& a,
                         int steps) {
    const std::size_t n = env_.size();
    if (a.ndim() != 2 || std::size_t(a.shape(0)) != n || a.shape(1) != envs::kLanderActions)
      throw Error("LanderEnv.run: actions must have shape (" + std::to_string(n) + ", " +
                  std::to_string(envs::kLanderActions) + ")");
    if (steps < 0) throw Error("LanderEnv.run: steps must be at least 0");
    py::array_t<float> total({py::ssize_t(n)});
    std::fill(total.mutable_data(), total.mutable_data() + n, 0.0f);
    {
      py::gil_scoped_release unlocked;
      for (int k = 0; k < steps; ++k) {
        env_.step({a.data(), n * envs::kLanderActions}, span_of(obs_), span_of(reward_),
                  bytes_of(terminated_), bytes_of(truncated_));
        for (std::size_t i = 0; i < n; ++i) total.mutable_data()[i] += reward_.data()[i];
      }
    }
    return total;
  }

 private:
  template <class T>
  static std::span<T> span_of(py::array_t<T>& a) {
    return {a.mutable_data(), std::size_t(a.size())};
  }
  static std::span<std::uint8_t> bytes_of(py::array_t<bool>& a) {
    return {reinterpret_cast<std::uint8_t*>(a.mutable_data()), std::size_t(a.size())};
  }
  template <class T>
  static py::array_t<T> copy(const py::array_t<T>& a) {
    return py::array_t<T>(a.request());
  }

  envs::LanderEnv env_;
  py::array_t<float> obs_, reward_;
  py::array_t<bool> terminated_, truncated_;
};

}  // namespace

void def_lander_env(py::module_& m) {
  py::class_<PyLanderEnv>(
      m, "LanderEnv",
      "A lander task over `num_envs` worlds stepped side by side: observations (num_envs, 8) "
      "(hull x, y from the pad, vx, vy, angle, angular velocity, left and right leg down), "
      "actions (num_envs, 2) (main throttle in [0, 1], side in [-1, 1]); episodes that end "
      "restart at once (info['episode_return'], info['episode_length'] give the finished ones).")
      .def(py::init<int, int, std::uint64_t, int>(), py::arg("num_envs"), py::arg("threads") = 0,
           py::arg("seed") = 0, py::arg("max_steps") = 1000)
      .def("reset", &PyLanderEnv::reset, "Starts every episode afresh -> (observations, info).")
      .def("step", &PyLanderEnv::step, py::arg("actions"),
           "-> (observations, rewards, terminated, truncated, info), NumPy arrays.")
      .def("run", &PyLanderEnv::run, py::arg("actions"), py::arg("steps"),
           "The same actions for `steps` steps without returning to Python; the summed rewards.")
      .def("__len__", &PyLanderEnv::size)
      .def_property_readonly_static(
          "observation_shape", [](py::object) { return py::make_tuple(envs::kLanderObservations); })
      .def_property_readonly_static(
          "action_shape", [](py::object) { return py::make_tuple(envs::kLanderActions); });
}

}  // namespace strut::python
