// strut.World.events(): the events of every step of the last step(n) (or batch step, or driver
// advance) as NumPy structured arrays with a `step` column, bodies and joints as scene indices
// (-1: not in the scene's lists, such as a tile map's body), shapes by their index on the body.
// Each step's lists are read as soon as it ends, while its ids still name what they named.
#include "python/src/bindings.hpp"
#include "python/src/world.hpp"

namespace strut::python {

void PyWorld::record_events() {
  const World& w = s_.world;
  const std::int32_t step = s_.steps_done - 1;
  const auto contacts = [&](std::span<const ContactEvent> list, std::vector<ContactRecord>& out) {
    for (const ContactEvent& e : list)
      out.push_back({step,
                     index_of(e.a),
                     index_of(e.b),
                     shape_index_of(e.shape_a),
                     shape_index_of(e.shape_b),
                     {e.normal.x, e.normal.y},
                     e.point_count,
                     {{e.points[0].x, e.points[0].y}, {e.points[1].x, e.points[1].y}}});
  };
  contacts(w.contact_begin_events(), events_.contact_begin);
  contacts(w.contact_end_events(), events_.contact_end);
  for (const ContactHitEvent& e : w.contact_hit_events())
    events_.contact_hit.push_back({step,
                                   index_of(e.a),
                                   index_of(e.b),
                                   {e.point.x, e.point.y},
                                   {e.normal.x, e.normal.y},
                                   e.approach_speed});
  const auto sensors = [&](std::span<const SensorEvent> list, std::vector<SensorRecord>& out) {
    for (const SensorEvent& e : list)
      out.push_back({step, index_of(e.sensor_body), index_of(e.visitor_body),
                     shape_index_of(e.sensor), shape_index_of(e.visitor)});
  };
  sensors(w.sensor_begin_events(), events_.sensor_begin);
  sensors(w.sensor_end_events(), events_.sensor_end);
  for (const JointEvent& e : w.joint_events())
    events_.joint.push_back({step, index_of(e.joint), {e.force.x, e.force.y}, e.torque});
}

py::dict PyWorld::events() const {
  py::dict out;
  out["contact_begin"] = records_of(events_.contact_begin);
  out["contact_end"] = records_of(events_.contact_end);
  out["contact_hit"] = records_of(events_.contact_hit);
  out["sensor_begin"] = records_of(events_.sensor_begin);
  out["sensor_end"] = records_of(events_.sensor_end);
  out["joint"] = records_of(events_.joint);
  return out;
}

void def_world_events(py::class_<PyWorld>& world) {
  PYBIND11_NUMPY_DTYPE(ContactRecord, step, a, b, shape_a, shape_b, normal, point_count, points);
  PYBIND11_NUMPY_DTYPE(HitRecord, step, a, b, point, normal, approach_speed);
  PYBIND11_NUMPY_DTYPE(SensorRecord, step, sensor, visitor, sensor_shape, visitor_shape);
  PYBIND11_NUMPY_DTYPE(JointRecord, step, joint, force, torque);
  world.def("events", &PyWorld::events,
            "The events of every step of the last step(n) as NumPy structured arrays, each row "
            "with its `step` (the world's step count before it: 0 for its first), bodies and "
            "joints by scene index (-1: not in the scene's lists), shapes by their index on the "
            "body (-1: removed since): contact_begin and contact_end (step, a, b, shape_a, "
            "shape_b, normal, point_count, points), contact_hit (step, a, b, point, normal, "
            "approach_speed), sensor_begin and sensor_end (step, sensor, visitor: bodies, "
            "sensor_shape, visitor_shape), joint (step, joint, force, torque: joints past their "
            "thresholds).");
}

}  // namespace strut::python
