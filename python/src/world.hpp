// strut.World: a SceneInstance (a world, its bodies and joints in scene order, its step hook)
// seen from Python. Its members are defined by concept: world.cpp (stepping, state arrays,
// snapshots), world_build.cpp (bodies, shapes and joints made and removed at run time),
// bodies.cpp (poses and user data), queries.cpp, events.cpp, contacts.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "python/src/convert.hpp"
#include "python/src/events.hpp"
#include "strut/scene.hpp"

namespace strut::python {

// A body or joint from Python: its index in scene order, or its name.
using Handle = std::variant<std::string, long long>;

// A shape from Python: its body's scene index and its index among the body's shapes.
struct ShapeRecord {
  std::int32_t body, shape;
};

class PyWorld {
 public:
  explicit PyWorld(SceneInstance instance) : s_(std::move(instance)) {}

  // ---- Stepping and state (world.cpp) ----
  // Runs `steps` steps, keeping every step's events for events().
  void step(int steps);
  // The same in parts, with the GIL released by the caller: start_steps() forgets the events of
  // the steps before, and each step_once() runs a step and keeps its events.
  void start_steps() { events_.clear(); }
  void step_once();
  float dt() const { return s_.dt; }
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
  // Centres of mass (n, 2) and angles (n,) between the last step's start (alpha 0) and end (1).
  py::tuple interpolated_poses(float alpha) const;

  BodyId body(const Handle& body, const char* call) const;
  JointId joint(const Handle& joint, const char* call) const;
  ShapeId shape(const Handle& body, std::size_t shape, const char* call) const;
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
  void restore_from(const PyWorld& state);  // with the GIL released by the caller

  // ---- Building at run time (world_build.cpp) ----
  static PyWorld from_settings(const py::kwargs& keywords);
  std::size_t create_body(const py::kwargs& keywords);
  std::size_t add_shape(const Handle& body, const py::kwargs& keywords);
  void remove_shape(const Handle& body, std::size_t shape);
  std::size_t create_joint(const std::string& kind, const Handle& a, const std::optional<Handle>& b,
                           const py::kwargs& keywords);
  void destroy_body(const Handle& body);
  void destroy_joint(const Handle& joint);
  void set_motion_locks(const Handle& body, bool x, bool y, bool rotation);
  void set_joint_thresholds(const Handle& joint, std::optional<float> force,
                            std::optional<float> torque);
  py::tuple motion_locks(const Handle& body) const;
  py::tuple joint_thresholds(const Handle& joint) const;

  // ---- Bodies' poses and the program's values (bodies.cpp) ----
  // The centre of mass and the origin (BodyDef::center) as ((x, y), angle), and teleports.
  py::tuple transform(const Handle& body) const;
  py::tuple origin_transform(const Handle& body) const;
  py::tuple local_center(const Handle& body) const;
  void set_transform(const Handle& body, Point position, float angle);
  void set_origin_transform(const Handle& body, Point origin, float angle);
  // User data of bodies, shapes (by index on their body) and joints: whole numbers in [0, 2^64).
  std::uint64_t body_user_data(const Handle& body) const;
  void set_body_user_data(const Handle& body, const py::object& value);
  std::uint64_t shape_user_data(const Handle& body, std::size_t shape) const;
  void set_shape_user_data(const Handle& body, std::size_t shape, const py::object& value);
  std::uint64_t joint_user_data(const Handle& joint) const;
  void set_joint_user_data(const Handle& joint, const py::object& value);

  // ---- Queries (queries.cpp), bodies by scene index ----
  py::object ray_cast(Point from, Point to, std::uint32_t mask) const;
  py::array ray_cast_all(Point from, Point to, std::uint32_t mask) const;
  py::array_t<std::int32_t> query_box(Point lower, Point upper, std::uint32_t mask) const;
  py::array_t<std::int32_t> query_point(Point p, std::uint32_t mask) const;
  py::object cast_circle(Point center, float radius, Point translation) const;
  // A shape dict's geometry moved from `start` by `translation`, or placed at `position`,
  // filtered as a shape of (category, mask, group) is.
  py::object cast_shape(const py::dict& shape, Point start, Point translation, float angle,
                        const ShapeFilter& filter) const;
  py::array overlap_shape(const py::dict& shape, Point position, float angle,
                          const ShapeFilter& filter) const;
  // World::move_character: the capsule a dict {a, b, radius} (as the result's "capsule").
  py::dict move_character(const py::dict& capsule, Point translation,
                          const MoverSettings& settings) const;

  // ---- Events (events.cpp) ----
  py::dict events() const;

  // ---- What touches what now (contacts.cpp) ----
  py::array body_contacts(const Handle& body) const;
  py::array shape_contacts(const Handle& body, std::size_t shape) const;
  py::array sensor_overlaps(const Handle& body, std::size_t shape) const;

 private:
  // Scene index of a body or joint (-1: not in the scene's lists, such as a tile map's body, or
  // destroyed), from maps of id slots rebuilt only after the lists change (lists_changed).
  std::int32_t index_of(BodyId id) const;
  std::int32_t index_of(JointId id) const;
  void lists_changed() { indices_fresh_ = false; }
  void refresh_indices() const;
  ShapeRecord record_of(ShapeId id) const;
  // A shape's index on its body, -1 for a shape removed (or a body destroyed) since.
  std::int32_t shape_index_of(ShapeId id) const;
  // Reads the world's event lists after a step (marking them read) into events_.
  void record_events();
  py::array contacts_of(const std::vector<ContactData>& list) const;
  py::object hit_of(const std::optional<RayHit>& hit) const;
  py::array_t<std::int32_t> indices_of(const std::vector<BodyId>& ids) const;
  // Bodies chosen by an index array into the scene's bodies (all of them when None), each index
  // checked; throws naming the call and the element.
  std::vector<BodyId> chosen(const std::optional<py::array_t<long long>>& indices,
                             const char* call) const;
  template <class Read>
  py::array_t<float> read(int columns, Read&& read_one) const;

  SceneInstance s_;
  EventLog events_;
  mutable std::vector<std::int32_t> body_slots_, joint_slots_;  // id.index -> scene index
  mutable bool indices_fresh_ = false;
};

PyWorld load_scene(const std::string& scene, int threads);
PyWorld load_scene_text(const std::string& text, int threads, const std::string& label);

}  // namespace strut::python
