// Shape geometry from Python: strut.decompose_polygon (a concave outline's convex pieces) and
// strut.convex_hull (a point cloud's hull), as (k, 2) float32 arrays of counter-clockwise
// vertices, the forms a shape dict's polygon=... takes.
#include "python/src/bindings.hpp"
#include "strut/shape.hpp"

namespace strut::python {
namespace {

std::vector<Vec2> vec2s_of(const std::vector<Point>& points) {
  std::vector<Vec2> out;
  out.reserve(points.size());
  for (const Point& p : points) out.push_back(vec2_of(p));
  return out;
}

py::array_t<float> array_of(const std::vector<Vec2>& v) {
  py::array_t<float> a({py::ssize_t(v.size()), py::ssize_t(2)});
  float* out = a.mutable_data();
  for (const Vec2 p : v) *out++ = p.x, *out++ = p.y;
  return a;
}

}  // namespace

void def_geometry(py::module_& m) {
  m.def(
      "decompose_polygon",
      [](const std::vector<Point>& vertices) {
        py::list pieces;
        for (const PolygonShape& piece : decompose_polygon(vec2s_of(vertices)))
          pieces.append(array_of(piece.vertices));
        return pieces;
      },
      py::arg("vertices"),
      "A simple polygon (3 to 1024 vertices, either winding, concave or not) as convex pieces "
      "of at most 16 vertices that tile it (C++ strut::decompose_polygon): a list of (k, 2) "
      "float32 arrays, counter-clockwise. strut.Error names the problem: too few or too many "
      "vertices, a point that is not finite or too far, crossing or touching edges (which), no "
      "area, a piece too small.");
  m.def(
      "convex_hull",
      [](const std::vector<Point>& points) {
        return array_of(convex_hull(vec2s_of(points)).vertices);
      },
      py::arg("points"),
      "The convex hull of a point cloud (C++ strut::convex_hull) as a (k, 2) float32 array, "
      "counter-clockwise, cut to the 16 vertices that keep the most area when it has more.");
}

}  // namespace strut::python
