// strut.World's queries (World::ray_cast, ray_cast_all, query_aabb, query_point, cast_shape with a
// circle), bodies by scene index. A hit is a dict {body, point, normal, fraction}, or None.
#include "python/src/bindings.hpp"
#include "python/src/world.hpp"

namespace strut::python {
namespace {

struct RayRecord {  // World.ray_cast_all's rows
  std::int32_t body;
  float point[2], normal[2];
  float fraction;
};

}  // namespace

std::vector<std::int32_t> PyWorld::body_indices() const {
  std::vector<std::int32_t> body_index;
  for (std::size_t k = 0; k < s_.bodies.size(); ++k) {
    const std::uint32_t slot = s_.bodies[k].index;
    if (slot >= body_index.size()) body_index.resize(slot + 1, -1);
    body_index[slot] = std::int32_t(k);
  }
  return body_index;
}

py::object PyWorld::hit_of(const std::optional<RayHit>& hit) const {
  if (!hit) return py::none();
  const std::vector<std::int32_t> index = body_indices();
  py::dict d;
  d["body"] = hit->body.index < index.size() ? index[hit->body.index] : -1;
  d["point"] = tuple_of(hit->point);
  d["normal"] = tuple_of(hit->normal);
  d["fraction"] = hit->fraction;
  return d;
}

py::object PyWorld::ray_cast(Point from, Point to, std::uint32_t mask) const {
  return hit_of(s_.world.ray_cast(vec2_of(from), vec2_of(to), mask));
}

py::array PyWorld::ray_cast_all(Point from, Point to, std::uint32_t mask) const {
  const auto hits = s_.world.ray_cast_all(vec2_of(from), vec2_of(to), mask);
  const std::vector<std::int32_t> index = body_indices();
  RayRecord* rows = nullptr;
  py::array a = records(hits.size(), rows);
  for (std::size_t i = 0; i < hits.size(); ++i) {
    const RayHit& h = hits[i];
    const std::int32_t b = h.body.index < index.size() ? index[h.body.index] : -1;
    rows[i] = {b, {h.point.x, h.point.y}, {h.normal.x, h.normal.y}, h.fraction};
  }
  return a;
}

py::array_t<std::int32_t> PyWorld::indices_of(const std::vector<BodyId>& ids) const {
  const std::vector<std::int32_t> index = body_indices();
  std::vector<std::int32_t> found;
  for (const BodyId id : ids)
    if (id.index < index.size() && index[id.index] >= 0) found.push_back(index[id.index]);
  std::sort(found.begin(), found.end());
  py::array_t<std::int32_t> out({py::ssize_t(found.size())});
  std::copy(found.begin(), found.end(), out.mutable_data());
  return out;
}

py::array_t<std::int32_t> PyWorld::query_box(Point lower, Point upper, std::uint32_t mask) const {
  return indices_of(s_.world.query_aabb(Aabb{vec2_of(lower), vec2_of(upper)}, mask));
}

py::array_t<std::int32_t> PyWorld::query_point(Point p, std::uint32_t mask) const {
  return indices_of(s_.world.query_point(vec2_of(p), mask));
}

py::object PyWorld::cast_circle(Point center, float radius, Point translation) const {
  return hit_of(s_.world.cast_shape(CircleShape{radius}, Transform{vec2_of(center), 0},
                                    vec2_of(translation)));
}

void def_world_queries(py::class_<PyWorld>& world) {
  PYBIND11_NUMPY_DTYPE(RayRecord, body, point, normal, fraction);
  world
      .def("ray_cast", &PyWorld::ray_cast, py::arg("start"), py::arg("end"),
           py::arg("mask") = 0xFFFFFFFFu,
           "The first shape the segment start -> end hits: {body (scene index), point, normal, "
           "fraction} or None.")
      .def("ray_cast_all", &PyWorld::ray_cast_all, py::arg("start"), py::arg("end"),
           py::arg("mask") = 0xFFFFFFFFu,
           "Every hit along the segment as a structured array (body, point, normal, fraction).")
      .def("query_box", &PyWorld::query_box, py::arg("lower"), py::arg("upper"),
           py::arg("mask") = 0xFFFFFFFFu, "Scene indices of the bodies whose boxes overlap it.")
      .def("query_point", &PyWorld::query_point, py::arg("point"), py::arg("mask") = 0xFFFFFFFFu,
           "Scene indices of the bodies containing the point.")
      .def("cast_circle", &PyWorld::cast_circle, py::arg("center"), py::arg("radius"),
           py::arg("translation"),
           "The first shape a circle moved by `translation` touches: a hit dict or None.");
}

}  // namespace strut::python
