// What touches what now (World::body_contacts, shape_contacts, sensor_overlaps), as the last step
// left it: structured arrays with bodies by scene index and shapes by their index on the body.
#include "python/src/bindings.hpp"
#include "python/src/world.hpp"

namespace strut::python {
namespace {

// A touching pair (ContactData): its up to two points with their separations and the impulses
// of the last step (N s) along the normal (from a to b) and the tangent (normal.y, -normal.x).
struct ContactDataRecord {
  std::int32_t a, b, shape_a, shape_b;
  float normal[2];
  std::int32_t point_count;
  float points[2][2];
  float separations[2], normal_impulses[2], tangent_impulses[2];
};

}  // namespace

py::array PyWorld::contacts_of(const std::vector<ContactData>& list) const {
  std::vector<ContactDataRecord> rows;
  for (const ContactData& c : list) {
    ContactDataRecord r{};
    r.a = index_of(c.a), r.b = index_of(c.b);
    r.shape_a = record_of(c.shape_a).shape, r.shape_b = record_of(c.shape_b).shape;
    r.normal[0] = c.normal.x, r.normal[1] = c.normal.y;
    r.point_count = c.point_count;
    for (int k = 0; k < c.point_count; ++k) {
      const ContactPointData& p = c.points[k];
      r.points[k][0] = p.point.x, r.points[k][1] = p.point.y;
      r.separations[k] = p.separation;
      r.normal_impulses[k] = p.normal_impulse;
      r.tangent_impulses[k] = p.tangent_impulse;
    }
    rows.push_back(r);
  }
  return records_of(rows);
}

py::array PyWorld::body_contacts(const Handle& handle) const {
  return contacts_of(s_.world.body_contacts(body(handle, "World.body_contacts")));
}

py::array PyWorld::shape_contacts(const Handle& body, std::size_t k) const {
  return contacts_of(s_.world.shape_contacts(shape(body, k, "World.shape_contacts")));
}

py::array PyWorld::sensor_overlaps(const Handle& body, std::size_t k) const {
  const char* call = "World.sensor_overlaps";
  const ShapeId sensor = shape(body, k, call);
  const std::vector<ShapeId> found =
      named_errors(call, "sensor_overlaps", [&] { return s_.world.sensor_overlaps(sensor); });
  std::vector<ShapeRecord> rows;
  for (const ShapeId id : found) rows.push_back(record_of(id));
  return records_of(rows);
}

void def_world_contacts(py::class_<PyWorld>& world) {
  PYBIND11_NUMPY_DTYPE(ContactDataRecord, a, b, shape_a, shape_b, normal, point_count, points,
                       separations, normal_impulses, tangent_impulses);
  world
      .def("body_contacts", &PyWorld::body_contacts, py::arg("body"),
           "The touching pairs of a body's shapes as the last step left them (none while it "
           "sleeps): a structured array (a, b, shape_a, shape_b, normal (from a to b), "
           "point_count, points (2, 2), separations (2,), normal_impulses (2,), "
           "tangent_impulses (2,)), impulses in N s over the last step (World::body_contacts).")
      .def("shape_contacts", &PyWorld::shape_contacts, py::arg("body"), py::arg("shape") = 0,
           "The same for one shape of a body (its index on the body).")
      .def("sensor_overlaps", &PyWorld::sensor_overlaps, py::arg("body"), py::arg("shape") = 0,
           "The shapes overlapping a sensor shape at the end of the last step: a structured "
           "array (body, shape); strut.Error when the shape is not a sensor.");
}

}  // namespace strut::python
