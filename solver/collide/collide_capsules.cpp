// Capsule vs capsule (and segments, capsules of radius 0): two cores of two vertices each. The
// general rounded routine (collide_rounded.cpp) gets these right too, but pays for generality:
// a loop over faces and vertices for each side, and once the cores are apart a search of every
// vertex pair and vertex-edge pair for the nearest features, each with its square root. Two
// segments need two normals and one closest-point solve.
//
// The answer has the forms collide_hulls gives, so the solver re-evaluates it the same way:
//   - cores crossing, or a face carrying the nearest points: the reference face of larger
//     separation (A's on near-ties, kReferenceTieTolerance), the other segment clipped against
//     its side planes: up to two VertexEdge points, parallel capsules get both;
//   - cores apart with their nearest points two end vertices (capsule ends meeting): one
//     VertexVertex point along the line between them (radius 0 on both sides keeps the clipped
//     face points, as the sharp polygon path does);
//   - the clipped points missing the nearest pair (a face whose side planes cut away the closest
//     vertex, or collinear cores): one point from the nearest features, exact.
#include <cmath>

#include "solver/collide/face_clipping.hpp"

namespace strut::collide {
namespace {

// The two faces of a two-vertex core against two points given by their signed distances s0, s1
// from the core's line along its edge-0 normal: face 0 sees min(s0, s1), face 1 (the normal
// reversed) sees min(-s0, -s1). The face of larger separation and its deepest point; face 0 on
// a tie, as query_faces keeps the first face.
FaceQuery segment_faces(float s0, float s1, float length) {
  FaceQuery q;
  q.longest_edge = length;
  const float front = std::fmin(s0, s1), back = -std::fmax(s0, s1);
  q.edge = back > front ? 1 : 0;
  q.separation = q.edge == 0 ? front : back;
  q.support = q.edge == 0 ? (s1 < s0 ? 1 : 0) : (s1 > s0 ? 1 : 0);
  return q;
}

// The outward normal of face `edge` (0 or 1) of a two-vertex core whose edge 0 has normal n0.
ClipFace segment_face(int edge, Vec2 n0) { return {edge, edge == 0 ? n0 : -n0}; }

// Of a two-vertex core whose edge 0 has normal n0, the face looking along `toward` (the incident
// edge facing a reference normal n is the one looking along -n).
ClipFace face_looking(Vec2 n0, Vec2 toward) {
  return segment_face(dot(n0, toward) >= 0 ? 0 : 1, n0);
}

bool at_end(float u) { return u == 0.0f || u == 1.0f; }

float deepest(const Manifold& m) {
  float d = INFINITY;
  for (int i = 0; i < m.count; ++i) d = std::fmin(d, m.points[i].separation);
  return d;
}

}  // namespace

Manifold collide_capsules(const PolygonView& a, float ra, const PolygonView& b, float rb,
                          float margin) {
  const Vec2 p0 = vertex(a, 0), q0 = vertex(b, 0);
  const Vec2 da = vertex(a, 1) - p0, db = vertex(b, 1) - q0;
  const float la = length(da), lb = length(db);
  if (la == 0.0f || lb == 0.0f) return collide_hulls(a, ra, b, rb, margin);  // a point core
  const float radii = ra + rb;
  // Edge-0 normals, with edge_normal's bits.
  const Vec2 na = {da.y / la, -da.x / la}, nb = {db.y / lb, -db.x / lb};
  const Vec2 r = p0 - q0;  // differences first: large coordinates must not swamp small gaps
  const Vec2 q1_from_p0 = vertex(b, 1) - p0;
  const FaceQuery qa = segment_faces(-dot(na, r), dot(na, q1_from_p0), la);
  if (qa.separation - radii >= margin) return {};
  const FaceQuery qb = segment_faces(dot(nb, r), dot(nb, vertex(a, 1) - q0), lb);
  if (qb.separation - radii >= margin) return {};

  // Nearest points p0 + s da and q0 + t db (s, t in [0, 1]): the unclamped solution of the two
  // lines, clamped to A, then t for that point, and s again when t had to be clamped.
  const float aa = dot(da, da), bb = dot(db, db), ab = dot(da, db);
  const float ar = dot(da, r), br = dot(db, r);
  const float denom = aa * bb - ab * ab;  // 0 for parallel cores: any s will do, take 0
  float s = denom > 0.0f ? std::fmin(std::fmax((ab * br - ar * bb) / denom, 0.0f), 1.0f) : 0.0f;
  float t = (ab * s + br) / bb;
  if (t < 0.0f) {
    t = 0.0f;
    s = std::fmin(std::fmax(-ar / aa, 0.0f), 1.0f);
  } else if (t > 1.0f) {
    t = 1.0f;
    s = std::fmin(std::fmax((ab - ar) / aa, 0.0f), 1.0f);
  }
  const Vec2 gap = (r + s * da) - t * db;  // from B's nearest point to A's
  const float distance = length(gap);
  const float exact = distance - radii;
  // Crossing cores are 0 apart, which rounding makes a little more: their depth is the faces'.
  const bool apart = std::fmax(qa.separation, qb.separation) > 0.0f;
  if (apart && !(exact < margin)) return {};
  const int ia = s == 1.0f ? 1 : 0, ib = t == 1.0f ? 1 : 0;
  if (apart && radii > 0.0f && at_end(s) && at_end(t))
    return vertex_pair_contact(a, ia, ra, b, ib, rb, length(vertex(b, ib) - vertex(a, ia)), margin);

  const bool ref_a = reference_on_a(qa, qb);
  auto clip = [&](bool on_a) {
    if (on_a) {
      const ClipFace ref = segment_face(qa.edge, na);
      return clip_edge_pair(a, ref, b, face_looking(nb, -ref.normal), true, margin, ra, rb);
    }
    const ClipFace ref = segment_face(qb.edge, nb);
    return clip_edge_pair(b, ref, a, face_looking(na, -ref.normal), false, margin, rb, ra);
  };
  Manifold m = clip(ref_a);
  if (m.count == 0) m = clip(!ref_a);
  const float tolerance = kReferenceTieTolerance * std::fmin(la, lb);
  if (m.count > 0 && !(apart && deepest(m) > exact + tolerance)) return m;

  // The nearest features alone. One of s, t is an end unless the cores cross or lie parallel:
  // the vertex at that end against the other core's face towards it, beside that face.
  if (!(exact < margin)) return m;
  if (at_end(s) && !at_end(t))
    return vertex_edge_contact(a, ia, ra, b, face_looking(nb, vertex(a, ia) - q0), rb, true,
                               margin);
  const int jb = t < 0.5f ? 0 : 1;
  if (at_end(s) && distance > 0.0f && radii > 0.0f)
    return vertex_pair_contact(a, ia, ra, b, jb, rb, length(vertex(b, jb) - vertex(a, ia)), margin);
  return vertex_edge_contact(b, jb, rb, a, face_looking(na, vertex(b, jb) - p0), ra, false, margin);
}

}  // namespace strut::collide
