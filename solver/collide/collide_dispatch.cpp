// Shape-pair dispatch: a 2x2 table of function pointers indexed by the two shapes' kinds, so the
// narrow phase loop runs no if-chain and no virtual call per pair.
#include "solver/collide/manifold.hpp"

namespace strut::collide {
namespace {

using CollideFn = Manifold (*)(const ShapeView&, const ShapeView&, float);

PolygonView polygon_of(const ShapeView& s) { return {s.x, s.y, s.count, s.internal_edges}; }
CircleView circle_of(const ShapeView& s) { return {{s.x[0], s.y[0]}, s.radius}; }

Manifold circle_circle(const ShapeView& a, const ShapeView& b, float margin) {
  return collide_circles(circle_of(a), circle_of(b), margin);
}

Manifold polygon_circle(const ShapeView& a, const ShapeView& b, float margin) {
  return collide_polygon_circle(polygon_of(a), circle_of(b), margin);
}

// Circle A vs polygon B is polygon B vs circle A seen from the other side: the same features,
// with normals reversed (they must point from A to B) and the vertex/edge owners swapped.
Manifold circle_polygon(const ShapeView& a, const ShapeView& b, float margin) {
  Manifold m = collide_polygon_circle(polygon_of(b), circle_of(a), margin);
  for (int i = 0; i < m.count; ++i) {
    m.points[i].normal = -m.points[i].normal;
    m.points[i].vertex_on_a = !m.points[i].vertex_on_a;
  }
  return m;
}

Manifold polygon_polygon(const ShapeView& a, const ShapeView& b, float margin) {
  return collide_polygons(polygon_of(a), polygon_of(b), margin);
}

// Indexed [kind of A][kind of B] with ShapeKind::Circle = 0, ShapeKind::Polygon = 1.
constexpr CollideFn kCollideTable[2][2] = {
    {circle_circle, circle_polygon},
    {polygon_circle, polygon_polygon},
};

}  // namespace

Manifold collide(const ShapeView& a, const ShapeView& b, float margin) {
  return kCollideTable[static_cast<int>(a.kind)][static_cast<int>(b.kind)](a, b, margin);
}

}  // namespace strut::collide
