// Polygon vs polygon: separating axis test over both polygons' edge normals, then reference /
// incident face clipping that emits feature pairs instead of bare points. The face query and the
// clipping (face_clipping.hpp) also serve rounded shapes, capsules, segments and chain links,
// which pass their radii to clip_faces; collide_polygons passes 0 and keeps its bits.
//
// Tile maps (internal edges). A body sliding over the seam between two flush tiles catches when
// the seam produces a sideways normal: either the tile's shared edge becomes the reference face,
// or the body's own side face does (its normal is anti-parallel to the shared edge, and it wins
// SAT as soon as the body's corner has crossed the seam by less than the body's sink depth), or a
// seam vertex is used as a corner the body's face must stay off. The rule:
//   1. an internal edge is never a candidate axis (so never a reference face or a normal);
//   2. a face of the other polygon is a candidate only if the tile's support vertex along it
//      (its deepest vertex, whose normal cone contains the push-out direction) is an exposed
//      corner, i.e. both edges meeting there are exposed. At a seam vertex the surface continues
//      flush, its cone collapses to the exposed face's normal, which rule 1's face already covers;
//   3. a clip point whose reference vertex is a seam vertex is dropped: on a flush surface only
//      the body's vertices can touch, and the neighbouring tile reports the vertex beyond it.
// Dropping candidate axes can only make SAT report overlap where a rejected axis would have
// separated, and that region belongs to the neighbouring solid tile; clipping then finds nothing
// there. The rule assumes flagged seams are flush (unit tiles); a seam where the neighbour's face
// turns down (a convex corner) should not be flagged.
#include <cmath>
#include <limits>

#include "solver/collide/face_clipping.hpp"

namespace strut::collide {
namespace {

constexpr float kInfinity = std::numeric_limits<float>::infinity();
}  // namespace

// For each candidate face e of x with outward unit normal n, the separation of y along n is
// min_k n . (y_k - x_e): how far y's deepest vertex lies in front of the face. SAT: the convex
// polygons are disjoint iff some face's separation is > 0, and the largest value over all faces
// of both is the signed distance along the best axis (minus the penetration depth when < 0).
// Differences are taken before the dot product so large world coordinates do not swamp a
// millimetre of penetration. Returns as soon as a face separates by `stop_at` or more.
FaceQuery query_faces(const PolygonView& x, const PolygonView& y, float stop_at) {
  FaceQuery q;
  const bool y_has_seams = y.internal_edges != 0;
  for (int e = 0; e < x.count; ++e) {
    const int f = next_index(e, x.count);
    const float dx = x.x[f] - x.x[e];
    const float dy = x.y[f] - x.y[e];
    const float len = std::sqrt(dx * dx + dy * dy);
    q.longest_edge = std::fmax(q.longest_edge, len);
    if (len == 0.0f || edge_is_internal(x, e)) continue;  // rule 1
    // Minimise along the unnormalised normal (dy, -dx) and scale the minimum by 1 / len once:
    // the order is the same, and it costs one division per face instead of normalising first.
    const float ox = x.x[e];
    const float oy = x.y[e];
    float min_raw = kInfinity;
    int support = 0;
    for (int k = 0; k < y.count; ++k) {
      const float s = dy * (y.x[k] - ox) - dx * (y.y[k] - oy);
      if (s < min_raw) {
        min_raw = s;
        support = k;
      }
    }
    const float min_sep = min_raw / len;
    if (y_has_seams && !vertex_is_exposed_corner(y, support)) continue;  // rule 2
    if (min_sep > q.separation) {
      q.separation = min_sep;
      q.edge = e;
      q.support = support;
      if (min_sep >= stop_at) return q;
    }
  }
  return q;
}

bool reference_on_a(const FaceQuery& qa, const FaceQuery& qb) {
  if (qb.edge < 0) return true;
  if (qa.edge < 0) return false;
  const float tolerance = kReferenceTieTolerance * std::fmin(qa.longest_edge, qb.longest_edge);
  return !(qb.separation > qa.separation + tolerance);
}

namespace {

// A point of the incident segment during clipping, tagged with the feature that produced it.
struct ClipPoint {
  Vec2 p;
  bool at_reference_vertex;  // true: made by a side plane through reference vertex `index`
  int index;                 // incident vertex, or reference vertex when at_reference_vertex
};

// Sutherland-Hodgman against one side plane: keeps points with dir . (p - origin) <= 0 and, where
// the segment crosses the plane, adds the crossing tagged with the reference vertex the plane
// passes through. Order along the segment is preserved so the output is stable.
int clip_to_side(const ClipPoint* in, int count, ClipPoint* out, Vec2 dir, Vec2 origin,
                 int reference_vertex) {
  if (count == 0) return 0;
  if (count == 1) {
    if (dot(dir, in[0].p - origin) > 0.0f) return 0;
    out[0] = in[0];
    return 1;
  }
  const float d0 = dot(dir, in[0].p - origin);
  const float d1 = dot(dir, in[1].p - origin);
  int n = 0;
  if (d0 <= 0.0f) out[n++] = in[0];
  if ((d0 < 0.0f && d1 > 0.0f) || (d0 > 0.0f && d1 < 0.0f)) {
    const float alpha = d0 / (d0 - d1);  // d0 and d1 differ in sign: no division by zero
    out[n++] = {in[0].p + alpha * (in[1].p - in[0].p), true, reference_vertex};
  }
  if (d1 <= 0.0f) out[n++] = in[1];
  return n;
}

// clip_edge_pair's body, always inlined into clip_faces although the capsule routines share it
// (an out-of-line call slows every polygon pair's clipping).
[[gnu::always_inline]] inline Manifold clip_edges(const PolygonView& ref, ClipFace reference,
                                                  const PolygonView& inc, ClipFace incident,
                                                  bool ref_is_a, float margin, float ref_radius,
                                                  float inc_radius) {
  const float radii = ref_radius + inc_radius;
  const int r1_index = reference.edge;
  const int r2_index = next_index(r1_index, ref.count);
  const Vec2 r1 = vertex(ref, r1_index);
  const Vec2 r2 = vertex(ref, r2_index);
  const Vec2 n = reference.normal;
  const Vec2 t = {-n.y, n.x};  // unit direction r1 -> r2
  const int i1_index = incident.edge;
  const int i2_index = next_index(i1_index, inc.count);
  const Vec2 n_inc = incident.normal;
  const Vec2 i1 = vertex(inc, i1_index);
  // Side planes through r1 (keep t . (p - r1) >= 0) and r2 (keep t . (p - r2) <= 0).
  const ClipPoint segment[2] = {{i1, false, i1_index}, {vertex(inc, i2_index), false, i2_index}};
  ClipPoint lower[2];
  ClipPoint clipped[2];
  const int n_lower = clip_to_side(segment, 2, lower, -t, r1, r1_index);
  const int n_clipped = clip_to_side(lower, n_lower, clipped, t, r2, r2_index);

  Manifold m;
  for (int k = 0; k < n_clipped; ++k) {
    const ClipPoint& c = clipped[k];
    ContactFeature f;
    f.kind = FeatureKind::VertexEdge;
    if (!c.at_reference_vertex) {
      // Incident vertex v against the reference edge: gap n . (v - r1); the midpoint between
      // the surfaces is half the gap back along n.
      const Vec2 v = vertex(inc, c.index);
      f.separation = dot(n, v - r1) - radii;
      f.vertex_on_a = !ref_is_a;
      f.vertex = static_cast<std::uint8_t>(c.index);
      f.other = static_cast<std::uint8_t>(r1_index);
      f.normal = ref_is_a ? n : -n;
      f.point = v - point_offset(inc_radius, f.separation) * n;
    } else {
      if (ref.internal_edges != 0 && !vertex_is_exposed_corner(ref, c.index)) continue;  // rule 3
      // Reference vertex r against the incident edge, measured along the incident normal (which
      // points out of `inc`, towards `ref`): the pair the solver will re-evaluate.
      const Vec2 r = vertex(ref, c.index);
      // Rounded shapes meet at a distance: the pair measures r against the incident edge's
      // line, which is the gap only where r lies beside the edge itself. Off its ends the
      // line passes closer than the edge, by as much as the cores' gap times the angle between
      // the faces, so that pair would claim an overlap that is not there; the incident vertex
      // (or the other point) carries the contact instead. Sharp pairs touch where they meet,
      // and keep the points they always had.
      if (radii > 0.0f) {
        const Vec2 along = vertex(inc, i2_index) - i1;
        const float u = dot(r - i1, along);
        if (u < 0.0f || u > dot(along, along)) continue;
      }
      f.separation = dot(n_inc, r - i1) - radii;
      f.vertex_on_a = ref_is_a;
      f.vertex = static_cast<std::uint8_t>(c.index);
      f.other = static_cast<std::uint8_t>(i1_index);
      f.normal = ref_is_a ? -n_inc : n_inc;
      f.point = r - point_offset(ref_radius, f.separation) * n_inc;
    }
    if (f.separation < margin) m.points[m.count++] = f;
  }
  return m;
}

}  // namespace

// Clips the incident edge of `inc` against reference face q.edge of `ref` and turns the surviving
// points into feature pairs. `ref_is_a` orients normals from A to B.
Manifold clip_faces(const PolygonView& ref, const PolygonView& inc, const FaceQuery& q,
                    bool ref_is_a, float margin, float ref_radius, float inc_radius) {
  const Vec2 n = edge_normal(ref, q.edge);
  // Incident edge: the one most anti-parallel to n. Normals of a convex polygon are sorted by
  // angle and the support vertex along -n sits where they pass -n, so it is one of the two edges
  // meeting at the support vertex (found during SAT): O(1) instead of a scan. With tile seams
  // the support is an exposed corner (rule 2), so the incident edge is exposed too.
  const int s = q.support;
  const int e_prev = prev_index(s, inc.count);
  const Vec2 n_prev = edge_normal(inc, e_prev);
  const Vec2 n_next = edge_normal(inc, s);
  const bool use_prev = dot(n_prev, n) < dot(n_next, n);
  return clip_edges(ref, {q.edge, n}, inc, {use_prev ? e_prev : s, use_prev ? n_prev : n_next},
                    ref_is_a, margin, ref_radius, inc_radius);
}

Manifold clip_edge_pair(const PolygonView& ref, ClipFace reference, const PolygonView& inc,
                        ClipFace incident, bool ref_is_a, float margin, float ref_radius,
                        float inc_radius) {
  return clip_edges(ref, reference, inc, incident, ref_is_a, margin, ref_radius, inc_radius);
}

Manifold collide_polygons(const PolygonView& a, const PolygonView& b, float margin) {
  const FaceQuery qa = query_faces(a, b, margin);
  if (qa.separation >= margin) return {};
  const FaceQuery qb = query_faces(b, a, margin);
  if (qb.separation >= margin) return {};
  if (qa.edge < 0 && qb.edge < 0) return {};  // e.g. a tile buried on every side
  if (reference_on_a(qa, qb)) return clip_faces(a, b, qa, true, margin, 0.0f, 0.0f);
  return clip_faces(b, a, qb, false, margin, 0.0f, 0.0f);
}

PolygonSeparation find_polygon_separation(const PolygonView& a, const PolygonView& b) {
  const FaceQuery qa = query_faces(a, b, kInfinity);
  const FaceQuery qb = query_faces(b, a, kInfinity);
  return {qa.separation, qa.edge, qb.separation, qb.edge, reference_on_a(qa, qb)};
}

}  // namespace strut::collide
