// strut.World: a SceneInstance (a world, its bodies and joints in scene order, its step hook)
// seen from Python. Its members are defined by concept: world.cpp (stepping, state arrays,
// snapshots), queries.cpp, events.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "python/src/convert.hpp"
#include "strut/scene.hpp"

namespace strut::python {

// A body or joint from Python: its index in scene order, or its name.
using Handle = std::variant<std::string, long long>;

class PyWorld {
 public:
  explicit PyWorld(SceneInstance instance) : s_(std::move(instance)) {}

  // ---- Stepping and state (world.cpp) ----
  void step(int steps);
  void step_once() { s_.step(); }  // with the GIL released by the caller
  std::string hash() const { return hash_text(s_.world.state_hash()); }
  const std::vector<std::string>& body_names() const { return s_.names; }
  std::size_t body_count() const { return s_.bodies.size(); }
  const std::vector<std::string>& joint_names() const { return s_.joint_names; }
  std::size_t joint_count() const { return s_.joints.size(); }
  int threads() const { return s_.world.config().threads; }

  py::array_t<float> positions() const;
  py::array_t<float> angles() const;
  py::array_t<float> velocities() const;
  py::array_t<float> angular_velocities() const;

  BodyId body(const Handle& body, const char* call) const;
  void set_velocity(const Handle& body, Point velocity);
  void set_velocities(const Rows& linear, const std::optional<Rows>& angular,
                      const std::optional<py::array_t<long long>>& indices);
  // Force rows (n, 2) and torque rows (n,) or none, checked for `ids`: shapes, finite values,
  // and nothing but zero rows for bodies that are not dynamic.
  struct ForceRows {
    const float* forces;
    const float* torques;
  };
  ForceRows checked_forces(const std::vector<BodyId>& ids, const Rows& forces,
                           const std::optional<Rows>& torques, const std::string& call) const;
  void push_forces(const std::vector<BodyId>& ids, ForceRows rows);
  void apply_forces(const Rows& forces, const std::optional<Rows>& torques,
                    const std::optional<py::array_t<long long>>& indices);
  // The same for every body of this world, as world `w` of a batch: checked, then pushed.
  ForceRows check_all_forces(const Rows& forces, const std::optional<Rows>& torques,
                             std::size_t w) const {
    return checked_forces(s_.bodies, forces, torques,
                          "WorldBatch.apply_forces: world " + std::to_string(w));
  }
  void push_all_forces(ForceRows rows) { push_forces(s_.bodies, rows); }
  void set_motor_speeds(const Rows& speeds);
  void explode(Point position, float radius, float falloff, float impulse_per_length,
               std::uint32_t mask);

  py::bytes snapshot() const;
  static PyWorld from_snapshot(const py::bytes& data, int threads);
  PyWorld copy() const;
  // This world becomes `state` (a World or snapshot bytes), keeping its own threads.
  void restore_world(const PyWorld& state);
  void restore_bytes(const py::bytes& data);
  void restore_from(const PyWorld& state) { s_.restore(state.s_); }  // GIL released by the caller

  // ---- Queries (queries.cpp), bodies by scene index ----
  py::object ray_cast(Point from, Point to, std::uint32_t mask) const;
  py::array ray_cast_all(Point from, Point to, std::uint32_t mask) const;
  py::array_t<std::int32_t> query_box(Point lower, Point upper, std::uint32_t mask) const;
  py::array_t<std::int32_t> query_point(Point p, std::uint32_t mask) const;
  py::object cast_circle(Point center, float radius, Point translation) const;

  // ---- Events (events.cpp) ----
  py::dict events() const;
  // Marks every event list read, so that the next step starts each afresh.
  void forget_events() const;

 private:
  // Scene index of each body id slot (-1: not in the scene's list).
  std::vector<std::int32_t> body_indices() const;
  py::object hit_of(const std::optional<RayHit>& hit) const;
  py::array_t<std::int32_t> indices_of(const std::vector<BodyId>& ids) const;
  // Bodies chosen by an index array into the scene's bodies (all of them when None), each index
  // checked; throws naming the call and the element.
  std::vector<BodyId> chosen(const std::optional<py::array_t<long long>>& indices,
                             const char* call) const;
  template <class Read>
  py::array_t<float> read(int columns, Read&& read_one) const;

  SceneInstance s_;
};

PyWorld load_scene(const std::string& scene, int threads);
PyWorld load_scene_text(const std::string& text, int threads, const std::string& label);

}  // namespace strut::python
