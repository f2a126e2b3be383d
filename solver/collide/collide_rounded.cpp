// Rounded cores against each other: rounded polygons, capsules and segments in any pair. The
// surfaces are the cores grown by their radii, so every gap along a direction is the cores' gap
// minus both radii. While the cores overlap, the deepest direction of the grown shapes is the
// cores' (growing both by discs adds the same amount along every direction), so the polygon
// SAT and clipping of collide_polygons.cpp apply unchanged with the radii subtracted. Once the
// cores are apart the grown shapes can touch corner to corner, where the nearest direction is
// no face normal: that case gets one VertexVertex point along the line between the two vertices.
#include <cmath>

#include "solver/collide/face_clipping.hpp"

namespace strut::collide {
namespace {

void scan_vertex_edges(const PolygonView& x, const PolygonView& y, ClosestFeatures& out) {
  // A two-vertex core's edge 1 is edge 0 walked backwards: the same points.
  const int edges = x.count == 2 ? 1 : x.count;
  for (int e = 0; e < edges; ++e) {
    const Vec2 p = vertex(x, e);
    const Vec2 along = vertex(x, next_index(e, x.count)) - p;
    const float ll = dot(along, along);
    if (ll == 0.0f) continue;
    for (int k = 0; k < y.count; ++k) {
      const Vec2 d = vertex(y, k) - p;
      const float t = dot(d, along) / ll;
      if (!(t > 0.0f && t < 1.0f)) continue;  // the nearest point is an end: a vertex pair
      out.vertex_edge = std::fmin(out.vertex_edge, length(d - t * along));
    }
  }
}

// A manifold of one point, vertex `vertex` against feature `other`; the caller sets its normal
// and point.
Manifold one_point(FeatureKind kind, bool vertex_on_a, int vertex, int other, float separation) {
  Manifold m;
  m.count = 1;
  ContactFeature& f = m.points[0];
  f.kind = kind;
  f.vertex_on_a = vertex_on_a;
  f.vertex = static_cast<std::uint8_t>(vertex);
  f.other = static_cast<std::uint8_t>(other);
  f.separation = separation;
  return m;
}

}  // namespace

ClosestFeatures closest_features(const PolygonView& a, const PolygonView& b) {
  ClosestFeatures out;
  for (int i = 0; i < a.count; ++i) {
    for (int j = 0; j < b.count; ++j) {
      const float d = length(vertex(b, j) - vertex(a, i));
      if (d < out.vertex_pair) {
        out.vertex_pair = d;
        out.a_vertex = i;
        out.b_vertex = j;
      }
    }
  }
  scan_vertex_edges(a, b, out);
  scan_vertex_edges(b, a, out);
  return out;
}

Manifold vertex_pair_contact(const PolygonView& a, int i, float ra, const PolygonView& b, int j,
                             float rb, float distance, float margin) {
  const float separation = distance - (ra + rb);
  if (!(separation < margin) || !(distance > 0.0f)) return {};
  const Vec2 va = vertex(a, i);
  const Vec2 d = vertex(b, j) - va;
  Manifold m = one_point(FeatureKind::VertexVertex, true, i, j, separation);
  ContactFeature& f = m.points[0];
  f.normal = {d.x / distance, d.y / distance};
  f.point = va + point_offset(ra, separation) * f.normal;
  return m;
}

Manifold vertex_edge_contact(const PolygonView& vp, int v, float rv, const PolygonView& ep,
                             ClipFace face, float re, bool vertex_on_a, float margin) {
  const Vec2 p = vertex(vp, v);
  const float separation = dot(face.normal, p - vertex(ep, face.edge)) - (rv + re);
  if (!(separation < margin)) return {};
  Manifold m = one_point(FeatureKind::VertexEdge, vertex_on_a, v, face.edge, separation);
  ContactFeature& f = m.points[0];
  f.normal = vertex_on_a ? -face.normal : face.normal;
  f.point = p - point_offset(rv, separation) * face.normal;
  return m;
}

Manifold collide_hulls(const PolygonView& a, float ra, const PolygonView& b, float rb,
                       float margin) {
  const float radii = ra + rb;
  // A face separating the cores by s keeps the surfaces at least s - radii apart.
  const FaceQuery qa = query_faces(a, b, margin + radii);
  if (qa.separation - radii >= margin) return {};
  const FaceQuery qb = query_faces(b, a, margin + radii);
  if (qb.separation - radii >= margin) return {};
  if (qa.edge < 0 && qb.edge < 0) return {};
  // Tile seams (internal edges) keep the clipping path: a corner-to-corner normal at a seam
  // vertex is exactly the catch the seam rules exist to prevent.
  if (radii > 0.0f && a.internal_edges == 0 && b.internal_edges == 0 &&
      std::fmax(qa.separation, qb.separation) > 0.0f) {
    const ClosestFeatures c = closest_features(a, b);
    if (c.vertex_pair < c.vertex_edge)
      return vertex_pair_contact(a, c.a_vertex, ra, b, c.b_vertex, rb, c.vertex_pair, margin);
  }
  const bool ref_a = reference_on_a(qa, qb);
  Manifold m = ref_a ? clip_faces(a, b, qa, true, margin, ra, rb)
                     : clip_faces(b, a, qb, false, margin, rb, ra);
  // On a near-tie the face kept for stability can have the other shape's nearest edge entirely
  // beside it (clipped away to nothing) while the two overlap; the other face then carries the
  // contact (CollidePairs.BothOrdersAgree met one: a rounded heptagon 0.56 deep into a polygon
  // with no point in one order). collide_polygons keeps its old answer there, for its bits.
  if (m.count == 0) {
    const FaceQuery& other = ref_a ? qb : qa;
    if (other.edge >= 0 && other.separation - radii < margin)
      m = ref_a ? clip_faces(b, a, qb, false, margin, rb, ra)
                : clip_faces(a, b, qa, true, margin, ra, rb);
  }
  return m;
}

}  // namespace strut::collide
