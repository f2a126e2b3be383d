// Polygon (plain or rounded) vs capsule or segment: a convex core of 3..16 vertices against a
// core of two. Same forms as collide_hulls (collide_rounded.cpp), which this replaces for the
// pair because the general routine is quadratic where it need not be: once the cores are apart
// it measures every vertex pair and every vertex against every edge (up to 2 x 16 x 2 square
// roots) to tell a corner-to-corner touch from a face touch. Here the faces' pass already gives
// each capsule vertex its nearest face, and the capsule's own faces give the polygon vertex
// nearest its line, so the nearest features cost a few dot products more.
//
//   - Separating axes: the polygon's faces against the two capsule vertices, the capsule's two
//     faces against the polygon's vertices; the reference face is the one of larger separation
//     (the polygon's on near-ties, kReferenceTieTolerance), the other core's facing edge clipped
//     against its side planes: up to two VertexEdge points (a capsule lying on a box has two).
//   - Cores apart with the nearest points a capsule end and a polygon corner (rounded shapes
//     meeting): one VertexVertex point along the line between them.
//   - Clipped points that miss the nearest pair: one point from the nearest features.
// Polygons with tile seams (internal edges) keep collide_hulls and its seam rules.
#include <cmath>
#include <limits>

#include "solver/collide/face_clipping.hpp"
#include "solver/collide/polygon_segment_lanes.hpp"

namespace strut::collide {
namespace {

constexpr float kInfinity = std::numeric_limits<float>::infinity();

// The nearest features of the two cores once they are apart: how far, and which pair.
struct Nearest {
  enum Kind : std::uint8_t { CapsuleEndOnFace, CapsuleEndOnCorner, CornerOnCapsule } kind;
  float distance = kInfinity;
  int capsule_vertex = 0;   // CapsuleEndOn*
  int polygon_feature = 0;  // the face (CapsuleEndOnFace) or the vertex (the others)
};

// The routine over A's lanes of type F (polygon_segment_lanes.hpp): float is the scalar twin.
template <class F>
Manifold polygon_capsule(const PolygonView& a, float ra, const PolygonView& b, float rb,
                         float margin) {
  if (a.internal_edges != 0) return collide_hulls(a, ra, b, rb, margin);
  const Vec2 q[2] = {vertex(b, 0), vertex(b, 1)};
  const Vec2 d = q[1] - q[0];
  const float lb = length(d);
  if (lb == 0.0f) return collide_hulls(a, ra, b, rb, margin);  // a point core
  const float radii = ra + rb;
  const Vec2 nb = {d.y / lb, -d.x / lb};  // the capsule's edge-0 normal, edge_normal's bits

  // A's faces against the capsule's vertices, and A's vertices against the capsule's line, in
  // lanes. Besides the separating axis, each capsule vertex keeps the face it lies furthest in
  // front of: the face of its Voronoi region or of one of its region's corners
  // (collide_hull_circle explains why). Raw floats: an array of Vec2 would be zeroed on every
  // call (Vec2 initialises its members).
  const lanes::PaddedPolygon<F> padded(a);
  alignas(64) float nx[lanes::kFaceSlots], ny[lanes::kFaceSlots];
  auto normal = [&](int e) { return Vec2{nx[e], ny[e]}; };
  const lanes::PolygonSegmentLanes<F> pass =
      lanes::polygon_segment_lanes<F>(padded, a.count, q[0], q[1], nb, nx, ny);
  // The face of largest separation (the first on ties); none when every face is degenerate.
  FaceQuery qa;
  const auto [separation, edge] = lanes::reduce<true>(pass.separation);
  if (!(separation > -kInfinity)) return {};
  if (separation - radii >= margin) return {};
  qa.separation = separation, qa.edge = edge, qa.support = lanes::support_of(pass, edge);
  qa.longest_edge = lanes::largest(pass.longest_edge);
  // The capsule's two faces against A's vertices: face 0 (normal nb) sees the lowest, face 1
  // (normal -nb) the highest.
  const auto [lo, lo_k] = lanes::reduce<false>(pass.lowest);
  const auto [hi, hi_k] = lanes::reduce<true>(pass.highest);
  FaceQuery qb;
  qb.longest_edge = lb;
  qb.edge = -hi > lo ? 1 : 0;
  qb.separation = qb.edge == 0 ? lo : -hi;
  qb.support = qb.edge == 0 ? lo_k : hi_k;
  if (qb.separation - radii >= margin) return {};
  const bool apart = std::fmax(qa.separation, qb.separation) > 0.0f;

  // Apart: the nearest pair is a capsule end against A (its Voronoi region: a face or a corner),
  // or A's vertex nearest the capsule's line against the capsule's side, when A lies wholly on
  // that side and the vertex beside the capsule (otherwise a capsule end is at least as near).
  Nearest near{Nearest::CapsuleEndOnFace};
  if (apart) {
    for (int j = 0; j < 2; ++j) {
      const auto [ahead, e] = lanes::reduce<true>(pass.ahead[j]);
      const int e2 = next_index(e, a.count);
      const Vec2 v1 = vertex(a, e), v2 = vertex(a, e2);
      int corner = -1;
      if (dot(q[j] - v1, v2 - v1) < 0.0f) {
        corner = e;
      } else if (dot(q[j] - v2, v1 - v2) < 0.0f) {
        corner = e2;
      }
      const float dist = corner < 0 ? ahead : length(q[j] - vertex(a, corner));
      if (dist < near.distance) {
        near = {corner < 0 ? Nearest::CapsuleEndOnFace : Nearest::CapsuleEndOnCorner, dist, j,
                corner < 0 ? e : corner};
      }
    }
    const int k = lo > 0.0f ? lo_k : hi < 0.0f ? hi_k : -1;
    if (k >= 0) {
      const float u = dot(vertex(a, k) - q[0], d);
      const float dist = lo > 0.0f ? lo : -hi;
      if (u > 0.0f && u < lb * lb && dist < near.distance)
        near = {Nearest::CornerOnCapsule, dist, 0, k};
    }
    if (!(near.distance - radii < margin)) return {};
    if (near.kind == Nearest::CapsuleEndOnCorner && radii > 0.0f)
      return vertex_pair_contact(a, near.polygon_feature, ra, b, near.capsule_vertex, rb,
                                 near.distance, margin);
  }

  auto clip = [&](bool on_a) {
    if (on_a) {
      const ClipFace ref = {qa.edge, normal(qa.edge)};
      const ClipFace inc = dot(nb, ref.normal) < 0.0f ? ClipFace{0, nb} : ClipFace{1, -nb};
      return clip_edge_pair(a, ref, b, inc, true, margin, ra, rb);
    }
    // A's incident edge is one of the two at its deepest vertex: the more anti-parallel.
    const ClipFace ref = {qb.edge, qb.edge == 0 ? nb : -nb};
    const int s = qb.support, e_prev = prev_index(s, a.count);
    const bool use_prev = dot(normal(e_prev), ref.normal) < dot(normal(s), ref.normal);
    const ClipFace inc = use_prev ? ClipFace{e_prev, normal(e_prev)} : ClipFace{s, normal(s)};
    return clip_edge_pair(b, ref, a, inc, false, margin, rb, ra);
  };
  const bool ref_a = reference_on_a(qa, qb);
  Manifold m = clip(ref_a);
  if (m.count == 0) m = clip(!ref_a);
  if (!apart) return m;
  float deepest = kInfinity;
  for (int i = 0; i < m.count; ++i) deepest = std::fmin(deepest, m.points[i].separation);
  const float tolerance = kReferenceTieTolerance * std::fmin(qa.longest_edge, lb);
  if (m.count > 0 && !(deepest > near.distance - radii + tolerance)) return m;

  // The nearest features alone.
  switch (near.kind) {
    case Nearest::CapsuleEndOnFace:
      return vertex_edge_contact(b, near.capsule_vertex, rb, a,
                                 {near.polygon_feature, normal(near.polygon_feature)}, ra, false,
                                 margin);
    case Nearest::CornerOnCapsule: {
      const ClipFace face = lo > 0.0f ? ClipFace{0, nb} : ClipFace{1, -nb};
      return vertex_edge_contact(a, near.polygon_feature, ra, b, face, rb, true, margin);
    }
    case Nearest::CapsuleEndOnCorner:  // sharp cores (radius 0): the face points above
      break;
  }
  return m;
}

}  // namespace

Manifold collide_polygon_capsule(const PolygonView& a, float ra, const PolygonView& b, float rb,
                                 float margin) {
  return polygon_capsule<lanes::Wide>(a, ra, b, rb, margin);
}

Manifold collide_polygon_capsule_scalar(const PolygonView& a, float ra, const PolygonView& b,
                                        float rb, float margin) {
  return polygon_capsule<float>(a, ra, b, rb, margin);
}

}  // namespace strut::collide
