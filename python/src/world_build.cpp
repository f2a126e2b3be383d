// Worlds built at run time: strut.World(...) from WorldConfig's fields, bodies with their shapes,
// joints, and their removal; run-time changes of motion locks and joint thresholds. Every C++
// error reaches Python as strut.Error naming the body or joint and the field, before anything
// changes.
#include "python/src/bindings.hpp"
#include "python/src/definitions.hpp"
#include "python/src/world.hpp"

namespace strut::python {
namespace {

// "body 3" or "body 3 \"box\"": an object of the world's lists, named as errors name it.
std::string described(const char* what, std::size_t index, const std::string& name) {
  return std::string(what) + " " + std::to_string(index) +
         (name.empty() ? "" : " \"" + name + "\"");
}

void check_unique(const std::vector<std::string>& names, const std::string& name,
                  const std::string& what, const char* kind) {
  if (!name.empty() && std::find(names.begin(), names.end(), name) != names.end())
    throw Error(what + ": another " + kind + " is named \"" + name + "\"");
}

}  // namespace

PyWorld PyWorld::from_settings(const py::kwargs& keywords) {
  Fields f(keywords, "World");
  const WorldSettings settings = world_settings_of(f);
  f.finish();
  SceneInstance instance(
      named_errors("World", "WorldConfig", [&] { return World(settings.config); }));
  instance.source = "<python>";
  instance.dt = settings.dt;
  return PyWorld(std::move(instance));
}

std::size_t PyWorld::create_body(const py::kwargs& keywords) {
  Fields f(keywords, "World.create_body");
  const std::string name = f.get<std::string>("name", "");
  f.rename("World.create_body: " + described("body", s_.bodies.size(), name));
  const std::string& what = f.what();
  const BodyDef def = body_def_of(f);
  f.finish();
  check_unique(s_.names, name, what, "body");
  named_errors(what, "create_body", [&] { return s_.create_body(def, name); });
  lists_changed();
  return s_.bodies.size() - 1;
}

std::size_t PyWorld::add_shape(const Handle& body_handle, const py::kwargs& keywords) {
  const BodyId id = body(body_handle, "World.add_shape");
  const std::size_t index = index_of(id);
  const std::string what = "World.add_shape: " + described("body", index, s_.names[index]);
  Fields f(keywords, what);
  const std::vector<ShapeDef> defs = shape_defs_of(f);
  f.finish();
  const std::size_t first = s_.world.shapes(id).size();
  // A concave_polygon's pieces differ in geometry only, which decompose_polygon has checked:
  // the world refuses the first or none.
  for (const ShapeDef& def : defs)
    named_errors(what, "add_shape", [&] { return s_.world.add_shape(id, def); });
  return first;
}

void PyWorld::remove_shape(const Handle& body_handle, std::size_t k) {
  const ShapeId id = shape(body_handle, k, "World.remove_shape");
  named_errors("World.remove_shape", "remove_shape", [&] { s_.world.remove_shape(id); });
}

std::size_t PyWorld::create_joint(const std::string& kind, const Handle& a,
                                  const std::optional<Handle>& b, const py::kwargs& keywords) {
  Fields f(keywords, "World.create_joint");
  const std::string name = f.get<std::string>("name", "");
  f.rename("World.create_joint: " + kind + " " + described("joint", s_.joints.size(), name));
  const std::string& what = f.what();
  const bool mouse = is_mouse(kind);
  if (mouse && b) throw Error(what + ": a mouse joint has one body (give it alone)");
  if (!mouse && !b) throw Error(what + ": needs two bodies, a and b");
  const BodyId body_a = body(a, what.c_str());
  const BodyId body_b = mouse ? body_a : body(*b, what.c_str());
  const JointDef def = joint_def_of(kind, body_a, body_b, f, [this](BodyId id) {
    return s_.world.origin_transform(id).position;
  });
  f.finish();
  check_unique(s_.joint_names, name, what, "joint");
  named_errors(what, "create_joint", [&] { return s_.create_joint(def, name); });
  lists_changed();
  return s_.joints.size() - 1;
}

void PyWorld::destroy_body(const Handle& handle) {
  s_.world.destroy_body(body(handle, "World.destroy_body"));
  s_.forget_destroyed();  // its joints go with it
  lists_changed();
}

void PyWorld::destroy_joint(const Handle& handle) {
  s_.world.destroy_joint(joint(handle, "World.destroy_joint"));
  s_.forget_destroyed();
  lists_changed();
}

void PyWorld::set_motion_locks(const Handle& handle, bool x, bool y, bool rotation) {
  const BodyId id = body(handle, "World.set_motion_locks");
  named_errors("World.set_motion_locks", "set_motion_locks",
               [&] { s_.world.set_motion_locks(id, x, y, rotation); });
}

void PyWorld::set_joint_thresholds(const Handle& handle, std::optional<float> force,
                                   std::optional<float> torque) {
  const JointId id = joint(handle, "World.set_joint_thresholds");
  const char* what = "World.set_joint_thresholds";
  if (force)
    named_errors(what, "set_joint_force_threshold",
                 [&] { s_.world.set_joint_force_threshold(id, *force); });
  if (torque)
    named_errors(what, "set_joint_torque_threshold",
                 [&] { s_.world.set_joint_torque_threshold(id, *torque); });
}

py::tuple PyWorld::motion_locks(const Handle& handle) const {
  const BodyDef d = s_.world.definition(body(handle, "World.motion_locks"));
  return py::make_tuple(d.lock_x, d.lock_y, d.fixed_rotation);
}

py::tuple PyWorld::joint_thresholds(const Handle& handle) const {
  const JointDef def = s_.world.definition(joint(handle, "World.joint_thresholds"));
  return std::visit(
      [](const auto& d) { return py::make_tuple(d.force_threshold, d.torque_threshold); }, def);
}

void def_world_building(py::class_<PyWorld>& world) {
  world
      .def(py::init(&PyWorld::from_settings),
           "An empty world stepped by `dt` (1/60 s), with WorldConfig's fields as keywords: "
           "gravity=(0, -10), substeps=4, iterations=1, joint_passes=8, threads=0 (all cores), "
           "enable_sleep=True, sleep_time=0.5, sleep_speed=0.05, restitution_threshold=1, "
           "contact_slop=0.005, contact_hertz=45, contact_damping_ratio=10, contact_push_max=3, "
           "contact_cache=True, hit_event_threshold=1, contact_events=True.")
      .def_property_readonly("dt", &PyWorld::dt, "The length of one step (s).")
      .def("create_body", &PyWorld::create_body,
           "Creates a body from keywords and returns its index: name, type ('dynamic', "
           "'static', 'kinematic'), center, angle, velocity, angular_velocity, gravity_scale, "
           "linear_drag, angular_drag, fixed_rotation, lock_x, lock_y, bullet, soft, "
           "enable_sleep, awake, user_data, and shape (a dict) or shapes (a list of dicts). A "
           "shape dict has one of circle=r, box=(hx, hy), capsule=half_length, polygon=[(x, y), "
           "...], segment=((ax, ay), (bx, by)), chain=[(x, y), ...] (box, polygon, capsule: "
           "radius; chain: loop) or concave_polygon=[(x, y), ...] (its convex pieces, "
           "decompose_polygon), and offset, angle, material (a built-in name), density, "
           "friction, static_friction, restitution, friction_mix and restitution_mix ('default', "
           "'average', 'min', 'multiply', 'max'), rolling_resistance, tangent_speed, category, "
           "mask, group, sensor, custom_filter, pre_solve (flags kept for C++ callbacks and "
           "scene files), user_data.")
      .def("add_shape", &PyWorld::add_shape, py::arg("body"),
           "Adds a shape (the keywords of a shape dict) to a body; returns its index on the body "
           "(a concave_polygon: its first piece's, the others following).")
      .def("remove_shape", &PyWorld::remove_shape, py::arg("body"), py::arg("shape"),
           "Removes shape `shape` (its index on the body); a body keeps at least one.")
      .def("create_joint", &PyWorld::create_joint, py::arg("kind"), py::arg("a"),
           py::arg("b") = py::none(),
           "Creates a joint between bodies a and b (a mouse joint: one body) and returns its "
           "index. kind and its fields: distance (anchor_a, anchor_b, length, min_length, "
           "max_length, spring, compliance), revolute (anchor, reference_angle, limit, motor, "
           "spring), prismatic (anchor, axis, limit, motor, spring), wheel (anchor, axis, "
           "spring, limit, motor), mouse (target, anchor, max_force, hertz, damping_ratio), "
           "motor (linear_offset, angular_offset, max_force, max_torque), weld (anchor, "
           "reference_angle, linear_hertz, angular_hertz, damping_ratio); every kind: name, "
           "force_threshold, torque_threshold, and collide (not mouse). limit=(lower, upper), "
           "motor=(speed, max_effort), spring=(hertz, damping_ratio) or None.")
      .def("destroy_body", &PyWorld::destroy_body, py::arg("body"),
           "Destroys a body and its joints; the bodies after it move up one index.")
      .def("destroy_joint", &PyWorld::destroy_joint, py::arg("joint"),
           "Destroys a joint; the joints after it move up one index.")
      .def("set_motion_locks", &PyWorld::set_motion_locks, py::arg("body"), py::arg("x") = false,
           py::arg("y") = false, py::arg("rotation") = false,
           "Locks a body's x, y and rotation (World::set_motion_locks): a newly locked axis "
           "loses its velocity and holds the coordinate it has now.")
      .def("motion_locks", &PyWorld::motion_locks, py::arg("body"),
           "(x, y, rotation): the body's motion locks (lock_x, lock_y, fixed_rotation) now.")
      .def("set_joint_thresholds", &PyWorld::set_joint_thresholds, py::arg("joint"),
           py::arg("force") = py::none(), py::arg("torque") = py::none(),
           "Sets a joint's force (N) and torque (N m) thresholds of joint events; None keeps "
           "one, inf makes none.")
      .def("joint_thresholds", &PyWorld::joint_thresholds, py::arg("joint"),
           "(force, torque): a joint's thresholds of joint events now (inf: none).");
}

}  // namespace strut::python
