// Narrow phase interface: shape views read straight from the world's buffers, and contact
// manifolds made of feature pairs (vertex vs edge, vertex vs vertex) that the position-based
// solver re-evaluates every substep from the current vertex positions.
//
// Every function here is pure (no global state, no heap allocation): the same input gives the
// same bits on every run and thread, which the deterministic step relies on.
#pragma once

#include <cmath>
#include <cstdint>

#include "strut/body.hpp"
#include "strut/math.hpp"

namespace strut::collide {

// World-space convex polygon, counter-clockwise, read straight from the world's SoA vertex
// buffers. Edge e runs from vertex e to vertex (e + 1) mod count; its outward normal is the
// clockwise perpendicular of that direction.
struct PolygonView {
  const float* x = nullptr;
  const float* y = nullptr;
  int count = 0;  // 3..16
  // Bit e set: edge e is shared with a neighbouring solid tile (tile maps). Such an edge is
  // never a reference face or a contact normal, and the surface is assumed to continue flush
  // through its end vertices (see vertex_is_exposed_corner).
  std::uint16_t internal_edges = 0;
};

struct CircleView {
  Vec2 center;
  float radius = 0.0f;
};

// The convex pieces the narrow phase collides, each a set of vertices with a radius around them
// (strut/shape.hpp's kinds: a box is a polygon, a segment a capsule of radius 0, a chain a run
// of chain segments). Values index the collision table (collide_table.cpp).
enum class ColliderKind : std::uint8_t { Circle = 0, Polygon = 1, Capsule = 2, ChainSegment = 3 };
inline constexpr int kColliderKinds = 4;

// A collider in world space, its vertices read straight from the world's SoA buffers. Vertex i
// is (x[i], y[i]); edge e runs from vertex e to vertex (e + 1) mod count, its outward normal the
// clockwise perpendicular of that direction: a two-vertex collider (capsule, segment, chain
// segment) has edge 0 facing right of v0 -> v1 and edge 1 facing left. The surface is `radius`
// beyond the vertices and edges.
struct ShapeView {
  ColliderKind kind = ColliderKind::Polygon;
  const float* x = nullptr;
  const float* y = nullptr;
  int count = 0;  // circle 1, capsule and chain segment 2, polygon 3..16 (counter-clockwise)
  float radius = 0.0f;
  std::uint16_t internal_edges = 0;  // polygons: tile seams, as in PolygonView
  // Chain segments: the chain's points before vertex 0 and after vertex 1 (world), so contacts
  // at the segment's ends can be told from contacts that belong to the neighbouring segment.
  Vec2 ghost_prev, ghost_next;
  bool has_prev = false, has_next = false;
};

enum class FeatureKind : std::uint8_t { VertexEdge, VertexVertex };

// One contact point as a feature pair, so the position-based solver can re-evaluate it every
// substep from current vertex positions. 28 bytes.
struct ContactFeature {
  FeatureKind kind = FeatureKind::VertexEdge;
  // true: `vertex` is a vertex of A and `other` an edge (or vertex) of B; false: the reverse.
  bool vertex_on_a = true;
  std::uint8_t vertex = 0;  // vertex index on its shape (0 for a circle)
  // VertexEdge: edge index on the other shape (edge e runs from vertex e to e+1 mod n);
  // VertexVertex: the other shape's vertex index (0 for a circle).
  std::uint8_t other = 0;
  float separation = 0.0f;  // signed gap between the surfaces (radii included), < 0 = overlap
  Vec2 normal;              // unit, pointing from A towards B
  Vec2 point;               // world point midway between the two surfaces
};

struct Manifold {
  int count = 0;
  ContactFeature points[2];
};

// Only points with separation < margin are reported (speculative contacts: margin > 0 finds
// contacts before they touch).
//
// Polygon vs polygon: separating axis test over both polygons' edge normals, reference face =
// the axis of largest separation (A's on near-ties), incident edge clipped against the reference
// edge's side planes. Every point is VertexEdge: a surviving incident vertex against the
// reference edge, or a reference vertex (where a side plane cut the incident edge) against the
// incident edge; its separation and normal are measured along that edge's normal.
Manifold collide_polygons(const PolygonView& a, const PolygonView& b, float margin);
// Polygon A vs circle B by the closest feature (Voronoi regions). The circle is always the
// `vertex` side (vertex_on_a = false, vertex = 0); `other` is A's edge (VertexEdge) or A's
// vertex (VertexVertex).
Manifold collide_polygon_circle(const PolygonView& a, const CircleView& b, float margin);
// Circle vs circle: one VertexVertex point (vertex_on_a = true, both indices 0); coincident
// centres take the normal +y.
Manifold collide_circles(const CircleView& a, const CircleView& b, float margin);
// Any convex core of 1..16 vertices grown by a radius against a circle: polygon vs circle with
// A's radius `ra` added to every gap (rounded polygons, capsules and segments, whose two-vertex
// core has edge 0 on its right and edge 1 on its left).
Manifold collide_hull_circle(const PolygonView& a, float ra, const CircleView& b, float margin);
// Two convex cores of 2..16 vertices, each grown by its radius (rounded polygons, capsules,
// segments): the polygon SAT and clipping with both radii subtracted from every gap. When the
// cores are apart and their closest features are two vertices (rounded corners meeting), one
// VertexVertex point along the line between them. Radius 0 on both gives collide_polygons' bits.
Manifold collide_hulls(const PolygonView& a, float ra, const PolygonView& b, float rb,
                       float margin);
// Two-vertex cores (capsules; segments are capsules of radius 0) against each other, and a
// polygon core of 3..16 vertices (plain or rounded) against one: the answers of collide_hulls
// (the same forms, within its tie tolerance), found directly (collide_capsules.cpp,
// collide_polygon_capsule.cpp). Where the cores are apart and their nearest points are two
// vertices of rounded shapes, one VertexVertex point; a polygon with tile seams goes to
// collide_hulls.
Manifold collide_capsules(const PolygonView& a, float ra, const PolygonView& b, float rb,
                          float margin);
Manifold collide_polygon_capsule(const PolygonView& a, float ra, const PolygonView& b, float rb,
                                 float margin);
// A chain segment (A, two vertices, radius 0, its chain's neighbouring points as ghosts) against
// a circle or a convex core with a radius (B). Two-sided: the side facing B's centre is the face.
// A contact at an end vertex is kept only while its normal lies in the part of the vertex's
// normal cone this segment owns: at a convex joint the half from its own face normal to the
// bisector with the neighbour's, at a flat or concave joint none (the neighbour's face covers
// it), at an open end the whole outward half plane. So a body sliding along a chain never gets
// a normal from a joint that its neighbour would not give, and no joint is reported twice.
Manifold collide_chain_circle(const ShapeView& chain, const CircleView& b, float margin);
Manifold collide_chain_hull(const ShapeView& chain, const PolygonView& b, float rb, float margin);
// Dispatch on both colliders' kinds through the kColliderKinds x kColliderKinds table of
// collide_table.cpp; a pair listed the other way round (circle vs polygon, anything vs a chain
// segment) is the flipped result (normals negated, vertex_on_a inverted), so normals always point
// A to B. Chain segment vs chain segment: never (both static), 0 points.
Manifold collide(const ShapeView& a, const ShapeView& b, float margin);

// The separating axis query behind collide_polygons, exposed for tests and debug drawing.
// separation_a: max over A's candidate faces of min over B's vertices of n . (b - a_edge_start)
// (-infinity and edge_a = -1 when A has no candidate face); likewise for B. With tile edges the
// candidates are restricted as described in collide_polygons.cpp.
struct PolygonSeparation {
  float separation_a;
  int edge_a;
  float separation_b;
  int edge_b;
  bool reference_on_a;  // the face collide_polygons clips against (A's wins near-ties)
};
PolygonSeparation find_polygon_separation(const PolygonView& a, const PolygonView& b);

// --- polygon accessors shared by the collision routines --------------------------------------

inline Vec2 vertex(const PolygonView& p, int i) { return {p.x[i], p.y[i]}; }
constexpr int next_index(int i, int count) { return i + 1 == count ? 0 : i + 1; }
constexpr int prev_index(int i, int count) { return i == 0 ? count - 1 : i - 1; }

// Outward unit normal of edge e: the polygon is counter-clockwise, its interior is left of every
// edge, so outward is the clockwise perpendicular (dy, -dx) / length. {0, 0} for a degenerate edge.
inline Vec2 edge_normal(const PolygonView& p, int e) {
  const int f = next_index(e, p.count);
  const float dx = p.x[f] - p.x[e];
  const float dy = p.y[f] - p.y[e];
  const float len = std::sqrt(dx * dx + dy * dy);
  if (len == 0.0f) return {};
  return {dy / len, -dx / len};
}

constexpr bool edge_is_internal(const PolygonView& p, int edge) {
  return (p.internal_edges >> edge) & 1u;
}

// A vertex is an exposed corner when both edges meeting there are exposed. A vertex touching
// an internal edge lies on a seam where the neighbouring tile's face continues flush, so it is
// not a corner at all: nothing may be pushed out of it in any direction other than its exposed
// face's normal. Polygons without internal edges have only exposed corners.
constexpr bool vertex_is_exposed_corner(const PolygonView& p, int vertex) {
  return !edge_is_internal(p, vertex) && !edge_is_internal(p, prev_index(vertex, p.count));
}

}  // namespace strut::collide
