// The separating-axis and face-clipping steps of collide_polygons.cpp, shared with the rounded
// (collide_rounded.cpp) and chain (collide_chain.cpp) routines. They work on any convex vertex
// set of 2 or more vertices: a two-vertex view is a segment whose edges 0 and 1 are its two sides.
#pragma once

#include <limits>

#include "solver/collide/manifold.hpp"

namespace strut::collide {

// B's face replaces A's as the reference only if it separates more by this fraction of the
// smaller shape's longest edge. Two parallel resting faces separate by the same amount up to
// rounding; without a tolerance the reference would flip between the bodies frame to frame,
// and with it the feature pairs the solver keys friction on. Relative (not metres) so it scales
// with the shapes; 1e-3 of a 1 m box is 1 mm, about Box2D's 0.1 x linear slop.
inline constexpr float kReferenceTieTolerance = 1e-3f;

struct FaceQuery {
  float separation = -std::numeric_limits<float>::infinity();  // over candidate faces
  int edge = -1;                                               // the face achieving it
  int support = -1;           // the other shape's deepest vertex against that face
  float longest_edge = 0.0f;  // of x, a length scale for the tie tolerance
};

// Largest core separation of y in front of x's candidate faces (tile rules of
// collide_polygons.cpp apply when either has internal edges); returns early once a face
// separates by `stop_at` or more.
FaceQuery query_faces(const PolygonView& x, const PolygonView& y, float stop_at);

// Whether A's face is the reference: B's must separate more by a fraction of the shorter
// longest edge, so resting faces do not swap roles from one frame to the next.
bool reference_on_a(const FaceQuery& qa, const FaceQuery& qb);

// Clips the incident edge of `inc` against reference face q.edge of `ref` and turns the
// surviving points into VertexEdge features; separations subtract both radii and each point
// lies midway between the two surfaces. `ref_is_a` orients normals from A to B.
Manifold clip_faces(const PolygonView& ref, const PolygonView& inc, const FaceQuery& q,
                    bool ref_is_a, float margin, float ref_radius, float inc_radius);

// A face of a convex core as the clipper takes it: edge `edge` (from vertex `edge` to the next)
// and its outward unit normal, which the caller has usually computed already.
struct ClipFace {
  int edge;
  Vec2 normal;
};

// clip_faces once the incident edge is chosen: clips edge `incident` of `inc` against the side
// planes of face `reference` of `ref` (the normals must be edge_normal's) and keeps the points
// whose gap is below `margin`. At most two points; the same bits as clip_faces for the same faces.
Manifold clip_edge_pair(const PolygonView& ref, ClipFace reference, const PolygonView& inc,
                        ClipFace incident, bool ref_is_a, float margin, float ref_radius,
                        float inc_radius);

// How far out of a vertex of radius r its contact point lies for a gap `separation` between
// the surfaces: r + separation / 2. With r = 0 the sum is skipped so radius-0 results keep the
// bits they always had (0 + -0 would turn a -0 into +0).
inline float point_offset(float r, float separation) {
  return r == 0.0f ? 0.5f * separation : r + 0.5f * separation;
}

}  // namespace strut::collide

namespace strut::collide {

// The nearest features of two disjoint convex cores, found by trying every vertex pair and
// every vertex against the interior of every edge (at most 2 x 16 x 16 point-segment distances;
// only rounded pairs whose cores are apart ask for it). `vertex_pair` < `vertex_edge` means the
// nearest points are vertex a_vertex of `a` and vertex b_vertex of `b`.
struct ClosestFeatures {
  float vertex_pair = std::numeric_limits<float>::infinity();
  int a_vertex = -1, b_vertex = -1;
  float vertex_edge = std::numeric_limits<float>::infinity();
};
ClosestFeatures closest_features(const PolygonView& a, const PolygonView& b);

// One VertexVertex point: vertex i of A (radius ra) and vertex j of B (radius rb), `distance`
// apart, normal along b_j - a_i. Empty when the gap is not below `margin`.
Manifold vertex_pair_contact(const PolygonView& a, int i, float ra, const PolygonView& b, int j,
                             float rb, float distance, float margin);

// One VertexEdge point: vertex v of `vp` (radius rv) against face `face` of `ep` (radius re), in
// the form the solver re-evaluates: gap face.normal . (v - start of the edge) - rv - re, normal
// from A to B. `vertex_on_a` says which of the two is A. Empty when the gap is not below `margin`.
// Exact only where v lies beside the edge (its projection inside it); callers make sure it does.
Manifold vertex_edge_contact(const PolygonView& vp, int v, float rv, const PolygonView& ep,
                             ClipFace face, float re, bool vertex_on_a, float margin);

}  // namespace strut::collide
