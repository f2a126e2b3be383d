// A body's pose one body at a time, its centre of mass apart from its origin (World::transform,
// origin_transform, local_center and their setters), and the embedding program's values of
// bodies, shapes and joints (World::user_data). Errors name the call as Python spells it.
#include "python/src/bindings.hpp"
#include "python/src/world.hpp"

namespace strut::python {
namespace {

py::tuple pose_of(const Transform& t) { return py::make_tuple(tuple_of(t.position), t.angle); }

// A user data value from Python: a whole number that fits 64 bits unsigned, or strut.Error
// naming the call and the field (pybind11's own conversion would raise a TypeError).
std::uint64_t user_value(const py::object& value, const char* call) {
  if (py::isinstance<py::int_>(value) && !py::isinstance<py::bool_>(value)) {
    const unsigned long long v = PyLong_AsUnsignedLongLong(value.ptr());
    if (!(v == static_cast<unsigned long long>(-1) && PyErr_Occurred())) return v;
    PyErr_Clear();
  }
  throw Error(std::string(call) + ": value must be a whole number in [0, 2^64), got " +
              std::string(py::repr(value)));
}

}  // namespace

py::tuple PyWorld::transform(const Handle& body_handle) const {
  return pose_of(s_.world.transform(body(body_handle, "World.transform")));
}
py::tuple PyWorld::origin_transform(const Handle& body_handle) const {
  return pose_of(s_.world.origin_transform(body(body_handle, "World.origin_transform")));
}
py::tuple PyWorld::local_center(const Handle& body_handle) const {
  return tuple_of(s_.world.local_center(body(body_handle, "World.local_center")));
}
void PyWorld::set_transform(const Handle& body_handle, Point position, float angle) {
  const BodyId id = body(body_handle, "World.set_transform");
  named_errors("World.set_transform", "set_transform",
               [&] { s_.world.set_transform(id, vec2_of(position), angle); });
}
void PyWorld::set_origin_transform(const Handle& body_handle, Point origin, float angle) {
  const BodyId id = body(body_handle, "World.set_origin_transform");
  named_errors("World.set_origin_transform", "set_origin_transform",
               [&] { s_.world.set_origin_transform(id, vec2_of(origin), angle); });
}

std::uint64_t PyWorld::body_user_data(const Handle& body_handle) const {
  return s_.world.user_data(body(body_handle, "World.user_data"));
}
void PyWorld::set_body_user_data(const Handle& body_handle, const py::object& value) {
  const char* call = "World.set_user_data";
  const BodyId id = body(body_handle, call);
  s_.world.set_user_data(id, user_value(value, call));
}
std::uint64_t PyWorld::shape_user_data(const Handle& body_handle, std::size_t k) const {
  return s_.world.user_data(shape(body_handle, k, "World.shape_user_data"));
}
void PyWorld::set_shape_user_data(const Handle& body_handle, std::size_t k,
                                  const py::object& value) {
  const char* call = "World.set_shape_user_data";
  const ShapeId id = shape(body_handle, k, call);
  s_.world.set_user_data(id, user_value(value, call));
}
std::uint64_t PyWorld::joint_user_data(const Handle& joint_handle) const {
  return s_.world.user_data(joint(joint_handle, "World.joint_user_data"));
}
void PyWorld::set_joint_user_data(const Handle& joint_handle, const py::object& value) {
  const char* call = "World.set_joint_user_data";
  const JointId id = joint(joint_handle, call);
  s_.world.set_user_data(id, user_value(value, call));
}

void def_world_bodies(py::class_<PyWorld>& world) {
  world
      .def("transform", &PyWorld::transform, py::arg("body"),
           "((x, y), angle): the body's centre of mass and angle, as positions() and angles() "
           "give them.")
      .def("origin_transform", &PyWorld::origin_transform, py::arg("body"),
           "((x, y), angle): the body's origin (its `center` when created: the point its shapes "
           "are placed from) and angle.")
      .def("local_center", &PyWorld::local_center, py::arg("body"),
           "(x, y): the centre of mass in the body's frame, the origin's offset to it.")
      .def("set_transform", &PyWorld::set_transform, py::arg("body"), py::arg("position"),
           py::arg("angle"),
           "Teleports the body so that its centre of mass is at `position`, turned to `angle`; "
           "it keeps its velocity.")
      .def("set_origin_transform", &PyWorld::set_origin_transform, py::arg("body"),
           py::arg("origin"), py::arg("angle"),
           "Teleports the body so that its origin is at `origin`, turned to `angle`; it keeps "
           "its velocity.")
      .def("user_data", &PyWorld::body_user_data, py::arg("body"),
           "The body's user data (create_body's user_data, or set_user_data's).")
      .def("set_user_data", &PyWorld::set_body_user_data, py::arg("body"), py::arg("value"),
           "Sets a body's user data: a whole number in [0, 2^64) strut only stores.")
      .def("shape_user_data", &PyWorld::shape_user_data, py::arg("body"), py::arg("shape") = 0,
           "The user data of a shape (its index on the body).")
      .def("set_shape_user_data", &PyWorld::set_shape_user_data, py::arg("body"), py::arg("shape"),
           py::arg("value"), "Sets a shape's user data (the shape by its index on the body).")
      .def("joint_user_data", &PyWorld::joint_user_data, py::arg("joint"),
           "The user data of a joint (0 until set).")
      .def("set_joint_user_data", &PyWorld::set_joint_user_data, py::arg("joint"), py::arg("value"),
           "Sets a joint's user data.");
}

}  // namespace strut::python
