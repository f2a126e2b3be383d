// strut.World.events(): the last step's events as NumPy structured arrays, bodies and joints as
// scene indices (-1: not in the scene's lists, such as a tile map's body, or destroyed since).
#include "python/src/bindings.hpp"
#include "python/src/world.hpp"

namespace strut::python {
namespace {

// The rows of World.events()' structured arrays (PYBIND11_NUMPY_DTYPE gives their dtypes).
struct ContactRecord {
  std::int32_t a, b;
  float normal[2];
  std::int32_t point_count;
  float points[2][2];
};
struct HitRecord {
  std::int32_t a, b;
  float point[2], normal[2];
  float approach_speed;
};
struct SensorRecord {
  std::int32_t sensor, visitor;
};
struct JointRecord {
  std::int32_t joint;
  float force[2];
  float torque;
};

}  // namespace

void PyWorld::forget_events() const {
  const World& w = s_.world;
  w.contact_begin_events(), w.contact_end_events(), w.contact_hit_events();
  w.sensor_begin_events(), w.sensor_end_events(), w.joint_events();
}

py::dict PyWorld::events() const {
  const std::vector<std::int32_t> body_index = body_indices();
  std::vector<std::int32_t> joint_index;
  for (std::size_t k = 0; k < s_.joints.size(); ++k) {
    const std::uint32_t slot = s_.joints[k].index;
    if (slot >= joint_index.size()) joint_index.resize(slot + 1, -1);
    joint_index[slot] = std::int32_t(k);
  }
  const World& w = s_.world;
  const auto body = [&](BodyId id) {
    return id.index < body_index.size() && w.is_valid(id) ? body_index[id.index] : -1;
  };
  py::dict out;
  const auto contacts = [&](std::span<const ContactEvent> list) {
    ContactRecord* rows = nullptr;
    py::array a = records(list.size(), rows);
    for (std::size_t i = 0; i < list.size(); ++i) {
      const ContactEvent& e = list[i];
      rows[i] = {body(e.a),
                 body(e.b),
                 {e.normal.x, e.normal.y},
                 e.point_count,
                 {{e.points[0].x, e.points[0].y}, {e.points[1].x, e.points[1].y}}};
    }
    return a;
  };
  out["contact_begin"] = contacts(w.contact_begin_events());
  out["contact_end"] = contacts(w.contact_end_events());
  const auto hits = w.contact_hit_events();
  HitRecord* hit_rows = nullptr;
  py::array hit = records(hits.size(), hit_rows);
  for (std::size_t i = 0; i < hits.size(); ++i)
    hit_rows[i] = {body(hits[i].a),
                   body(hits[i].b),
                   {hits[i].point.x, hits[i].point.y},
                   {hits[i].normal.x, hits[i].normal.y},
                   hits[i].approach_speed};
  out["contact_hit"] = hit;
  const auto sensors = [&](std::span<const SensorEvent> list) {
    SensorRecord* rows = nullptr;
    py::array a = records(list.size(), rows);
    for (std::size_t i = 0; i < list.size(); ++i)
      rows[i] = {body(list[i].sensor_body), body(list[i].visitor_body)};
    return a;
  };
  out["sensor_begin"] = sensors(w.sensor_begin_events());
  out["sensor_end"] = sensors(w.sensor_end_events());
  const auto joints = w.joint_events();
  JointRecord* joint_rows = nullptr;
  py::array joint = records(joints.size(), joint_rows);
  for (std::size_t i = 0; i < joints.size(); ++i) {
    const JointId id = joints[i].joint;
    const std::int32_t k =
        id.index < joint_index.size() && w.is_valid(id) ? joint_index[id.index] : -1;
    joint_rows[i] = {k, {joints[i].force.x, joints[i].force.y}, joints[i].torque};
  }
  out["joint"] = joint;
  return out;
}

void def_world_events(py::class_<PyWorld>& world) {
  PYBIND11_NUMPY_DTYPE(ContactRecord, a, b, normal, point_count, points);
  PYBIND11_NUMPY_DTYPE(HitRecord, a, b, point, normal, approach_speed);
  PYBIND11_NUMPY_DTYPE(SensorRecord, sensor, visitor);
  PYBIND11_NUMPY_DTYPE(JointRecord, joint, force, torque);
  world.def("events", &PyWorld::events,
            "The last step's events as NumPy structured arrays, bodies and joints by scene index "
            "(-1: not in the scene's lists): contact_begin and contact_end (a, b, normal, "
            "point_count, points), contact_hit (a, b, point, normal, approach_speed), "
            "sensor_begin and sensor_end (sensor, visitor: bodies), joint (joint, force, torque).");
}

}  // namespace strut::python
