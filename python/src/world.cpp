// strut.World's stepping, state arrays, writes and snapshots, and the scene loaders.
#include "python/src/world.hpp"

#include <algorithm>
#include <filesystem>

#include "python/src/bindings.hpp"
#include "strut/scenes.hpp"

namespace strut::python {

void PyWorld::step(int steps) {
  if (steps < 0) throw Error("World.step: steps must be at least 0, got " + std::to_string(steps));
  start_steps();
  py::gil_scoped_release unlocked;
  for (int k = 0; k < steps; ++k) step_once();
}

void PyWorld::step_once() {
  s_.step();
  if (s_.hook) lists_changed();  // a step hook may create and destroy bodies and joints
  record_events();
}

// Fills out[k * columns + c] with read(body k) for every body in scene order.
template <class Read>
py::array_t<float> PyWorld::read(int columns, Read&& read_one) const {
  const auto n = static_cast<py::ssize_t>(s_.bodies.size());
  py::array_t<float> out =
      columns == 1 ? py::array_t<float>({n}) : py::array_t<float>({n, py::ssize_t(columns)});
  float* data = out.mutable_data();
  for (std::size_t k = 0; k < s_.bodies.size(); ++k)
    read_one(s_.bodies[k], data + k * std::size_t(columns));
  return out;
}

py::array_t<float> PyWorld::positions() const {
  py::array_t<float> out({py::ssize_t(s_.bodies.size()), py::ssize_t(2)});
  static_assert(sizeof(Vec2) == 2 * sizeof(float));
  s_.world.get_positions(s_.bodies,
                         {reinterpret_cast<Vec2*>(out.mutable_data()), s_.bodies.size()});
  return out;
}
py::array_t<float> PyWorld::angles() const {
  return read(1, [this](BodyId id, float* o) { o[0] = s_.world.transform(id).angle; });
}
py::array_t<float> PyWorld::velocities() const {
  return read(2, [this](BodyId id, float* o) {
    const Vec2 v = s_.world.linear_velocity(id);
    o[0] = v.x, o[1] = v.y;
  });
}
py::array_t<float> PyWorld::angular_velocities() const {
  return read(1, [this](BodyId id, float* o) { o[0] = s_.world.angular_velocity(id); });
}
py::tuple PyWorld::interpolated_poses(float alpha) const {
  const auto pose = [&](BodyId id) { return s_.world.interpolated_transform(id, alpha); };
  py::array_t<float> positions = read(2, [&](BodyId id, float* o) {
    const Vec2 p = pose(id).position;
    o[0] = p.x, o[1] = p.y;
  });
  return py::make_tuple(positions, read(1, [&](BodyId id, float* o) { o[0] = pose(id).angle; }));
}

namespace {

// An object of one of the scene's lists (`ids`, `names`) by index or name; throws naming the
// call and the kind of object (`one`, `many`).
template <class Id>
Id pick(const std::vector<Id>& ids, const std::vector<std::string>& names, const Handle& handle,
        const char* call, const char* one, const char* many) {
  if (const auto* index = std::get_if<long long>(&handle)) {
    if (*index < 0 || *index >= static_cast<long long>(ids.size()))
      throw Error(std::string(call) + ": " + one + " index " + std::to_string(*index) +
                  " is outside the scene's " + std::to_string(ids.size()) + " " + many);
    return ids[std::size_t(*index)];
  }
  const std::string& name = std::get<std::string>(handle);
  for (std::size_t k = 0; k < names.size(); ++k)
    if (!name.empty() && names[k] == name) return ids[k];
  throw Error(std::string(call) + ": no " + one + " is named \"" + name + "\"");
}

}  // namespace

BodyId PyWorld::body(const Handle& handle, const char* call) const {
  return pick(s_.bodies, s_.names, handle, call, "body", "bodies");
}
JointId PyWorld::joint(const Handle& handle, const char* call) const {
  return pick(s_.joints, s_.joint_names, handle, call, "joint", "joints");
}
ShapeId PyWorld::shape(const Handle& body_handle, std::size_t shape, const char* call) const {
  const BodyId id = body(body_handle, call);
  const std::vector<ShapeId> shapes = s_.world.shapes(id);
  if (shape >= shapes.size())
    throw Error(std::string(call) + ": shape " + std::to_string(shape) + " is outside body " +
                std::to_string(index_of(id)) + "'s " + std::to_string(shapes.size()) + " shapes");
  return shapes[shape];
}

void PyWorld::refresh_indices() const {
  if (indices_fresh_) return;
  const auto fill = [](std::vector<std::int32_t>& slots, const auto& ids) {
    slots.assign(slots.size(), -1);
    for (std::size_t k = 0; k < ids.size(); ++k) {
      if (ids[k].index >= slots.size()) slots.resize(ids[k].index + 1, -1);
      slots[ids[k].index] = std::int32_t(k);
    }
  };
  fill(body_slots_, s_.bodies);
  fill(joint_slots_, s_.joints);
  indices_fresh_ = true;
}

namespace {

template <class Id>
std::int32_t listed_index(const std::vector<std::int32_t>& slots, const std::vector<Id>& ids,
                          Id id) {
  const std::int32_t k = id.index < slots.size() ? slots[id.index] : -1;
  return k >= 0 && ids[std::size_t(k)] == id ? k : -1;
}

}  // namespace

std::int32_t PyWorld::index_of(BodyId id) const {
  refresh_indices();
  return listed_index(body_slots_, s_.bodies, id);
}
std::int32_t PyWorld::index_of(JointId id) const {
  refresh_indices();
  return listed_index(joint_slots_, s_.joints, id);
}

ShapeRecord PyWorld::record_of(ShapeId id) const {
  const BodyId body = s_.world.body_of(id);
  const std::vector<ShapeId> shapes = s_.world.shapes(body);
  const auto at = std::find(shapes.begin(), shapes.end(), id);
  return {index_of(body), std::int32_t(at - shapes.begin())};
}

std::int32_t PyWorld::shape_index_of(ShapeId id) const {
  return s_.world.is_valid(id) ? record_of(id).shape : -1;
}

std::vector<BodyId> PyWorld::chosen(const std::optional<py::array_t<long long>>& indices,
                                    const char* call) const {
  std::vector<BodyId> ids;
  if (!indices) return s_.bodies;
  const auto r = indices->unchecked<1>();
  for (py::ssize_t k = 0; k < r.shape(0); ++k) {
    if (r(k) < 0 || r(k) >= static_cast<long long>(s_.bodies.size()))
      throw Error(std::string(call) + ": bodies[" + std::to_string(k) +
                  "] = " + std::to_string(r(k)) + " is outside the scene's " +
                  std::to_string(s_.bodies.size()) + " bodies");
    ids.push_back(s_.bodies[std::size_t(r(k))]);
  }
  return ids;
}

void PyWorld::set_velocity(const Handle& b, Point v) {
  s_.world.set_linear_velocity(body(b, "World.set_velocity"), vec2_of(v));
}

// Velocities (n, 2) and optionally angular velocities (n,) of the chosen bodies, all checked by
// the world's own rules first (static bodies refuse), then set: nothing changes on an error.
void PyWorld::set_velocities(const Rows& linear, const std::optional<Rows>& angular,
                             const std::optional<py::array_t<long long>>& indices) {
  const char* call = "World.set_velocities";
  const std::vector<BodyId> ids = chosen(indices, call);
  const float* v = checked_rows(linear, ids.size(), 2, call, "velocities");
  const float* w = angular ? checked_rows(*angular, ids.size(), 1, call, "angular") : nullptr;
  for (std::size_t k = 0; k < ids.size(); ++k)
    if (s_.world.type(ids[k]) == BodyType::Static)
      throw Error(std::string(call) + ": body " + std::to_string(k) + " is static");
  for (std::size_t k = 0; k < ids.size(); ++k) {
    s_.world.set_linear_velocity(ids[k], {v[2 * k], v[2 * k + 1]});
    if (w) s_.world.set_angular_velocity(ids[k], w[k]);
  }
}

PyWorld::ForceRows PyWorld::checked_forces(const std::vector<BodyId>& ids, const Rows& forces,
                                           const std::optional<Rows>& torques,
                                           const std::string& call) const {
  const float* f = checked_rows(forces, ids.size(), 2, call.c_str(), "forces");
  const float* t =
      torques ? checked_rows(*torques, ids.size(), 1, call.c_str(), "torques") : nullptr;
  for (std::size_t k = 0; k < ids.size(); ++k)
    if (s_.world.type(ids[k]) != BodyType::Dynamic &&
        (f[2 * k] != 0 || f[2 * k + 1] != 0 || (t && t[k] != 0)))
      throw Error(call + ": body " + std::to_string(k) + " is not dynamic and takes no forces");
  return {f, t};
}

// Pushes checked rows (the zero rows of bodies that are not dynamic are skipped).
void PyWorld::push_forces(const std::vector<BodyId>& ids, ForceRows r) {
  for (std::size_t k = 0; k < ids.size(); ++k) {
    if (s_.world.type(ids[k]) != BodyType::Dynamic) continue;
    s_.world.apply_force(ids[k], {r.forces[2 * k], r.forces[2 * k + 1]});
    if (r.torques) s_.world.apply_torque(ids[k], r.torques[k]);
  }
}

void PyWorld::apply_forces(const Rows& forces, const std::optional<Rows>& torques,
                           const std::optional<py::array_t<long long>>& indices) {
  const std::vector<BodyId> ids = chosen(indices, "World.apply_forces");
  push_forces(ids, checked_forces(ids, forces, torques, "World.apply_forces"));
}

// Motor speeds of the scene's joints, in scene order (n_joints,).
void PyWorld::set_motor_speeds(const Rows& speeds) {
  const float* s = checked_rows(speeds, s_.joints.size(), 1, "World.set_motor_speeds", "speeds");
  for (std::size_t k = 0; k < s_.joints.size(); ++k)
    s_.world.set_joint_motor_speed(s_.joints[k], s[k]);
}

void PyWorld::explode(Point position, float radius, float falloff, float impulse_per_length,
                      std::uint32_t mask) {
  named_errors("World.explode", "explode", [&] {
    s_.world.explode({.position = vec2_of(position),
                      .radius = radius,
                      .falloff = falloff,
                      .impulse_per_length = impulse_per_length,
                      .mask = mask});
  });
}

// The bytes `strut run --snapshot-out` writes; a World made from them continues exactly.
py::bytes PyWorld::snapshot() const {
  std::vector<std::uint8_t> bytes;
  {
    py::gil_scoped_release unlocked;
    bytes = save_scene_snapshot(s_);
  }
  return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}
PyWorld PyWorld::from_snapshot(const py::bytes& data, int threads) {
  check_threads(threads, "World.from_snapshot");
  const std::string_view view = data;
  const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(view.data()),
                                            view.size());
  py::gil_scoped_release unlocked;
  return PyWorld(load_scene_snapshot(bytes, "snapshot", threads));
}
PyWorld PyWorld::copy() const {
  py::gil_scoped_release unlocked;
  return PyWorld(s_.copy());
}
void PyWorld::restore_world(const PyWorld& state) {
  py::gil_scoped_release unlocked;
  restore_from(state);
}
void PyWorld::restore_bytes(const py::bytes& data) {
  PyWorld loaded = from_snapshot(data, s_.world.config().threads);
  py::gil_scoped_release unlocked;
  s_ = std::move(loaded.s_);
  events_.clear();
  lists_changed();
}
void PyWorld::restore_from(const PyWorld& state) {
  s_.restore(state.s_);
  events_.clear();
  lists_changed();
}

PyWorld load_scene_text(const std::string& text, int threads, const std::string& label) {
  check_threads(threads, "load_scene_text");
  return PyWorld(build_scene(parse_scene(text, label), threads));
}

PyWorld load_scene(const std::string& scene, int threads) {
  check_threads(threads, "load_scene");
  if (is_builtin_scene(scene)) return PyWorld(build_scene(builtin_scene(scene), threads));
  if (!std::filesystem::exists(scene))
    throw Error("load_scene: \"" + scene +
                "\" is neither a file nor a built-in scene (strut.builtin_scene_names())");
  return PyWorld(build_scene(load_scene_file(scene), threads));
}

void def_world_state(py::module_& m, py::class_<PyWorld>& world) {
  m.def("builtin_scene_names", &builtin_scene_names, "The names of the built-in scenes.");
  m.def("load_scene", &load_scene, py::arg("scene"), py::arg("threads") = 0,
        "A scene file's path or a built-in scene's name -> World, built as `strut run` builds it "
        "(threads: 0 = all cores).");
  m.def("load_scene_text", &load_scene_text, py::arg("text"), py::arg("threads") = 0,
        py::arg("label") = "<scene>",
        "A scene document's JSON text (docs/scene_format.md) -> World; errors name `label` and "
        "the document path, as for files.");
  world
      .def("step", &PyWorld::step, py::arg("steps") = 1,
           "Runs `steps` steps of the scene's dt (the scene's step hook first, as `strut run`); "
           "events() then gives every one's events.")
      .def("hash", &PyWorld::hash, "The 16-hex-digit state hash `strut run` prints.")
      .def_property_readonly("body_names", &PyWorld::body_names,
                             "Names in scene order ('' when unnamed).")
      .def("__len__", &PyWorld::body_count)
      .def("positions", &PyWorld::positions, "Centres of mass, float32 (n, 2).")
      .def("angles", &PyWorld::angles, "Angles in radians, float32 (n,).")
      .def("velocities", &PyWorld::velocities, "Linear velocities, float32 (n, 2).")
      .def("angular_velocities", &PyWorld::angular_velocities, "Angular velocities, float32 (n,).")
      .def("interpolated_poses", &PyWorld::interpolated_poses, py::arg("alpha"),
           "(positions (n, 2), angles (n,)) between the pose before the last step (alpha 0) and "
           "now (alpha 1), as World::interpolated_transform gives them.")
      .def("set_velocities", &PyWorld::set_velocities, py::arg("velocities"),
           py::arg("angular") = py::none(), py::arg("bodies") = py::none(),
           "Sets the linear velocities (n, 2), and angular ones (n,) if given, of every body or "
           "of the scene indices `bodies`; all checked before any is set.")
      .def("apply_forces", &PyWorld::apply_forces, py::arg("forces"),
           py::arg("torques") = py::none(), py::arg("bodies") = py::none(),
           "Forces (n, 2) at the centres, and torques (n,) if given, until the next step.")
      .def("set_motor_speeds", &PyWorld::set_motor_speeds, py::arg("speeds"),
           "Motor speeds of the scene's joints in scene order (n_joints,).")
      .def_property_readonly("joint_names", &PyWorld::joint_names,
                             "Joint names in scene order ('' when unnamed).")
      .def("set_velocity", &PyWorld::set_velocity, py::arg("body"), py::arg("velocity"),
           "Sets the linear velocity of a body given by name or scene index.")
      .def("snapshot", &PyWorld::snapshot,
           "The world as bytes (the same bytes `strut run --snapshot-out` writes): everything a "
           "step reads, the body order and names and the scene's step hook, so that "
           "World.from_snapshot continues bit-identically at any thread count.")
      .def_static("from_snapshot", &PyWorld::from_snapshot, py::arg("data"), py::arg("threads") = 0,
                  "A World from snapshot bytes (World.snapshot, strut run --snapshot-out, or a C++ "
                  "World::snapshot); strut.Error naming the bytes for a damaged one.")
      .def("copy", &PyWorld::copy, "A copy that continues exactly as this world does.")
      .def("__copy__", &PyWorld::copy)
      .def(
          "__deepcopy__", [](const PyWorld& w, py::dict) { return w.copy(); }, py::arg("memo"))
      .def("restore", &PyWorld::restore_world, py::arg("state"),
           "This world becomes a copy of `state` (a World), reusing its memory.")
      .def("restore", &PyWorld::restore_bytes, py::arg("state"),
           "This world becomes the snapshot `state` (bytes), keeping its threads.")
      .def_property_readonly("threads", &PyWorld::threads,
                             "The threads it steps on (0: all cores).")
      .def(py::pickle([](const PyWorld& w) { return py::make_tuple(w.snapshot(), w.threads()); },
                      [](const py::tuple& t) {
                        if (t.size() != 2)
                          throw Error("World: a pickled World is (bytes, threads)");
                        return PyWorld::from_snapshot(t[0].cast<py::bytes>(), t[1].cast<int>());
                      }))
      .def("explode", &PyWorld::explode, py::arg("position"), py::arg("radius") = 1.0f,
           py::arg("falloff") = 0.0f, py::arg("impulse_per_length") = 1.0f,
           py::arg("mask") = 0xFFFFFFFFu,
           "Pushes the shapes of dynamic bodies around `position` away from it by "
           "impulse_per_length (N s/m) x each shape's width facing the blast, full to `radius`, "
           "falling linearly to 0 at radius + falloff (World::explode).");
}

}  // namespace strut::python
