// strut.World's queries (World::ray_cast, ray_cast_all, query_aabb, query_point, cast_shape,
// overlap_shape, move_character), bodies by scene index. A hit is a dict {body, shape, point,
// normal, fraction} (shape: its index on the body), or None.
#include "python/src/bindings.hpp"
#include "python/src/definitions.hpp"
#include "python/src/world.hpp"

namespace strut::python {
namespace {

struct RayRecord {  // World.ray_cast_all's rows
  std::int32_t body;
  float point[2], normal[2];
  float fraction;
};

struct MoverPlaneRecord {  // World.move_character's planes
  float normal[2], point[2];
  std::int32_t body, shape;
};

py::dict capsule_dict(const Capsule& c) {
  py::dict d;
  d["a"] = tuple_of(c.a);
  d["b"] = tuple_of(c.b);
  d["radius"] = c.radius;
  return d;
}

// A query's shape: a shape dict's geometry and nothing else (placement and filter are the
// query's own arguments).
Shape query_shape_of(const py::dict& shape, const char* call) {
  Fields f(shape, std::string(call) + ": shape");
  const Shape s = shape_of(f);
  f.finish();
  return s;
}

}  // namespace

py::object PyWorld::hit_of(const std::optional<RayHit>& hit) const {
  if (!hit) return py::none();
  py::dict d;
  d["body"] = index_of(hit->body);
  d["shape"] = record_of(hit->shape).shape;
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
  RayRecord* rows = nullptr;
  py::array a = records(hits.size(), rows);
  for (std::size_t i = 0; i < hits.size(); ++i) {
    const RayHit& h = hits[i];
    rows[i] = {index_of(h.body), {h.point.x, h.point.y}, {h.normal.x, h.normal.y}, h.fraction};
  }
  return a;
}

py::array_t<std::int32_t> PyWorld::indices_of(const std::vector<BodyId>& ids) const {
  std::vector<std::int32_t> found;
  for (const BodyId id : ids)
    if (const std::int32_t k = index_of(id); k >= 0) found.push_back(k);
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

py::object PyWorld::cast_shape(const py::dict& shape, Point start, Point translation, float angle,
                               const ShapeFilter& filter) const {
  const Shape s = query_shape_of(shape, "World.cast_shape");
  return hit_of(named_errors("World.cast_shape", "cast_shape", [&] {
    return s_.world.cast_shape(s, Transform{vec2_of(start), angle}, vec2_of(translation), filter);
  }));
}

py::array PyWorld::overlap_shape(const py::dict& shape, Point position, float angle,
                                 const ShapeFilter& filter) const {
  const Shape s = query_shape_of(shape, "World.overlap_shape");
  const std::vector<ShapeId> found = named_errors("World.overlap_shape", "overlap_shape", [&] {
    return s_.world.overlap_shape(s, Transform{vec2_of(position), angle}, filter);
  });
  std::vector<ShapeRecord> rows;
  for (const ShapeId id : found) rows.push_back(record_of(id));
  return records_of(rows);
}

py::dict PyWorld::move_character(const py::dict& capsule, Point translation,
                                 const MoverSettings& settings) const {
  Fields f(capsule, "World.move_character: capsule");
  const Capsule c{vec2_of(f.require<Point>("a")), vec2_of(f.require<Point>("b")),
                  f.require<float>("radius")};
  f.finish();
  const MoveResult r = named_errors("World.move_character", "move_character", [&] {
    return s_.world.move_character(c, vec2_of(translation), settings);
  });
  std::vector<MoverPlaneRecord> planes;
  for (const MoverPlane& p : r.planes) {
    const ShapeRecord shape = record_of(p.shape);
    planes.push_back({{p.normal.x, p.normal.y}, {p.point.x, p.point.y}, shape.body, shape.shape});
  }
  py::dict d;
  d["translation"] = tuple_of(r.translation);
  d["capsule"] = capsule_dict(r.capsule);
  d["on_ground"] = r.on_ground;
  d["ground_normal"] = tuple_of(r.ground_normal);
  d["ground_point"] = tuple_of(r.ground_point);
  d["ground_body"] = r.on_ground ? py::object(py::int_(index_of(r.ground_body))) : py::none();
  d["ground_shape"] =
      r.on_ground ? py::object(py::int_(record_of(r.ground_shape).shape)) : py::none();
  d["stepped"] = r.stepped;
  d["planes"] = records_of(planes);
  return d;
}

void def_world_queries(py::class_<PyWorld>& world) {
  PYBIND11_NUMPY_DTYPE(RayRecord, body, point, normal, fraction);
  PYBIND11_NUMPY_DTYPE(ShapeRecord, body, shape);
  PYBIND11_NUMPY_DTYPE(MoverPlaneRecord, normal, point, body, shape);
  world
      .def("ray_cast", &PyWorld::ray_cast, py::arg("start"), py::arg("end"),
           py::arg("mask") = 0xFFFFFFFFu,
           "The first shape the segment start -> end hits: {body (scene index), shape (its index "
           "on the body), point, normal, fraction} or None.")
      .def("ray_cast_all", &PyWorld::ray_cast_all, py::arg("start"), py::arg("end"),
           py::arg("mask") = 0xFFFFFFFFu,
           "Every hit along the segment as a structured array (body, point, normal, fraction).")
      .def("query_box", &PyWorld::query_box, py::arg("lower"), py::arg("upper"),
           py::arg("mask") = 0xFFFFFFFFu, "Scene indices of the bodies whose boxes overlap it.")
      .def("query_point", &PyWorld::query_point, py::arg("point"), py::arg("mask") = 0xFFFFFFFFu,
           "Scene indices of the bodies containing the point.")
      .def("cast_circle", &PyWorld::cast_circle, py::arg("center"), py::arg("radius"),
           py::arg("translation"),
           "The first shape a circle moved by `translation` touches: a hit dict or None.")
      .def(
          "cast_shape",
          [](const PyWorld& w, const py::dict& shape, Point start, Point translation, float angle,
             std::uint32_t category, std::uint32_t mask, std::int32_t group) {
            return w.cast_shape(shape, start, translation, angle,
                                ShapeFilter{category, mask, group});
          },
          py::arg("shape"), py::arg("start"), py::arg("translation"), py::arg("angle") = 0.0f,
          py::arg("category") = 1u, py::arg("mask") = 0xFFFFFFFFu, py::arg("group") = 0,
          "The first shape that `shape` (a shape dict's geometry: circle, box, capsule, polygon, "
          "...) placed at `start`, turned by `angle`, touches when moved by `translation` "
          "without turning, for the filter (category, mask, group): a hit dict (fraction 0 "
          "when it overlaps at the start) or None.")
      .def(
          "overlap_shape",
          [](const PyWorld& w, const py::dict& shape, Point position, float angle,
             std::uint32_t category, std::uint32_t mask, std::int32_t group) {
            return w.overlap_shape(shape, position, angle, ShapeFilter{category, mask, group});
          },
          py::arg("shape"), py::arg("position"), py::arg("angle") = 0.0f, py::arg("category") = 1u,
          py::arg("mask") = 0xFFFFFFFFu, py::arg("group") = 0,
          "The shapes that `shape` (a shape dict's geometry) at `position`, turned by `angle`, "
          "overlaps (touching is not overlap; sensors left out), in creation order, for the "
          "filter (category, mask, group): a structured array (body, shape).")
      .def(
          "move_character",
          [](const PyWorld& w, const py::dict& capsule, Point translation, Point up,
             float max_slope, float step_height, float snap_distance, float skin,
             int max_iterations, std::uint32_t category, std::uint32_t mask, std::int32_t group) {
            return w.move_character(capsule, translation,
                                    {.up = vec2_of(up),
                                     .max_slope = max_slope,
                                     .step_height = step_height,
                                     .snap_distance = snap_distance,
                                     .skin = skin,
                                     .max_iterations = max_iterations,
                                     .filter = {category, mask, group}});
          },
          py::arg("capsule"), py::arg("translation"), py::kw_only(),
          py::arg("up") = Point{0.0f, 1.0f}, py::arg("max_slope") = MoverSettings{}.max_slope,
          py::arg("step_height") = 0.0f, py::arg("snap_distance") = 0.0f,
          py::arg("skin") = MoverSettings{}.skin,
          py::arg("max_iterations") = MoverSettings{}.max_iterations, py::arg("category") = 1u,
          py::arg("mask") = 0xFFFFFFFFu, py::arg("group") = 0,
          "Moves a character's capsule {a, b, radius} (world coordinates) by `translation` as "
          "far as the world lets it, sliding along what it meets, walking up slopes within "
          "max_slope (rad) of `up`, stepping up ledges within step_height (World::move_character). "
          "A query: the world is unchanged. Returns {translation, capsule (where it ended), "
          "on_ground, ground_normal, ground_point, ground_body, ground_shape (None off the "
          "ground), stepped, planes (a structured array: normal, point, body, shape)}.");
}

}  // namespace strut::python
