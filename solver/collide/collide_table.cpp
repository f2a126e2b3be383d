// Collider-pair dispatch: a kColliderKinds x kColliderKinds table of function pointers indexed by
// the two colliders' kinds, so the narrow phase loop runs no if-chain and no virtual call per
// pair. Each routine is written for one order of its pair; the other order is the same result
// seen from the other side (flipped).
#include "solver/collide/manifold.hpp"

namespace strut::collide {
namespace {

using CollideFn = Manifold (*)(const ShapeView&, const ShapeView&, float);

PolygonView core_of(const ShapeView& s) { return {s.x, s.y, s.count, s.internal_edges}; }
CircleView circle_of(const ShapeView& s) { return {{s.x[0], s.y[0]}, s.radius}; }

// B vs A turned into A vs B: the same features with normals reversed (they must point from A
// to B) and the vertex/edge owners swapped.
Manifold flipped(Manifold m) {
  for (int i = 0; i < m.count; ++i) {
    m.points[i].normal = -m.points[i].normal;
    m.points[i].vertex_on_a = !m.points[i].vertex_on_a;
  }
  return m;
}

Manifold circle_circle(const ShapeView& a, const ShapeView& b, float margin) {
  return collide_circles(circle_of(a), circle_of(b), margin);
}

// Polygons, capsules and segments against a circle: the Voronoi regions of the core, with the
// core's radius added to the gap (0 for a plain polygon: collide_polygon_circle's bits).
Manifold hull_circle(const ShapeView& a, const ShapeView& b, float margin) {
  return collide_hull_circle(core_of(a), a.radius, circle_of(b), margin);
}
Manifold circle_hull(const ShapeView& a, const ShapeView& b, float margin) {
  return flipped(hull_circle(b, a, margin));
}

// Two plain polygons keep the radius-free path (the world's determinism hashes depend on its
// bits, and it skips the rounded checks); rounded polygons go through collide_hulls.
Manifold hull_hull(const ShapeView& a, const ShapeView& b, float margin) {
  if (a.radius == 0.0f && b.radius == 0.0f) return collide_polygons(core_of(a), core_of(b), margin);
  return collide_hulls(core_of(a), a.radius, core_of(b), b.radius, margin);
}

// Capsules and segments have their own routines against each other and against polygons.
Manifold capsule_capsule(const ShapeView& a, const ShapeView& b, float margin) {
  return collide_capsules(core_of(a), a.radius, core_of(b), b.radius, margin);
}
Manifold polygon_capsule(const ShapeView& a, const ShapeView& b, float margin) {
  return collide_polygon_capsule(core_of(a), a.radius, core_of(b), b.radius, margin);
}
Manifold capsule_polygon(const ShapeView& a, const ShapeView& b, float margin) {
  return flipped(polygon_capsule(b, a, margin));
}

Manifold chain_circle(const ShapeView& a, const ShapeView& b, float margin) {
  return collide_chain_circle(a, circle_of(b), margin);
}
Manifold circle_chain(const ShapeView& a, const ShapeView& b, float margin) {
  return flipped(chain_circle(b, a, margin));
}
Manifold chain_hull(const ShapeView& a, const ShapeView& b, float margin) {
  return collide_chain_hull(a, core_of(b), b.radius, margin);
}
Manifold hull_chain(const ShapeView& a, const ShapeView& b, float margin) {
  return flipped(chain_hull(b, a, margin));
}
// Chains live on static bodies, which never collide with each other.
Manifold chain_chain(const ShapeView&, const ShapeView&, float) { return {}; }

// Indexed [kind of A][kind of B]: Circle, Polygon, Capsule, ChainSegment.
constexpr CollideFn kCollideTable[kColliderKinds][kColliderKinds] = {
    {circle_circle, circle_hull, circle_hull, circle_chain},
    {hull_circle, hull_hull, polygon_capsule, hull_chain},
    {hull_circle, capsule_polygon, capsule_capsule, hull_chain},
    {chain_circle, chain_hull, chain_hull, chain_chain},
};

}  // namespace

Manifold collide(const ShapeView& a, const ShapeView& b, float margin) {
  return kCollideTable[static_cast<int>(a.kind)][static_cast<int>(b.kind)](a, b, margin);
}

}  // namespace strut::collide
