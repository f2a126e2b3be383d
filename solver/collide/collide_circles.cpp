// Circle vs circle and polygon vs circle. A circle is one particle with a radius, so it enters a
// feature pair as vertex 0 and its radius is part of every separation.
#include <cmath>
#include <limits>

#include "solver/collide/face_clipping.hpp"

namespace strut::collide {
namespace {

// Circle centre c (radius r, shape B) against edge e of polygon A with outward unit normal n
// through vertex v: gap n . (c - v) - radii (radii = r plus A's rounding); the circle's surface
// point is c - r n and A's is c - (gap + r) n, so the midpoint is c - (r + gap / 2) n.
Manifold circle_on_edge(int edge, Vec2 v, Vec2 n, Vec2 c, float r, float radii, float margin) {
  Manifold m;
  ContactFeature& f = m.points[0];
  f.kind = FeatureKind::VertexEdge;
  f.vertex_on_a = false;
  f.vertex = 0;
  f.other = static_cast<std::uint8_t>(edge);
  f.separation = dot(n, c - v) - radii;
  f.normal = n;
  f.point = c - (r + 0.5f * f.separation) * n;
  m.count = f.separation < margin ? 1 : 0;
  return m;
}

}  // namespace

// Centre distance d along the unit direction u from A to B: gap d - ra - rb; midpoint between
// the surfaces ca + ra u and cb - rb u is ca + (ra + gap / 2) u.
Manifold collide_circles(const CircleView& a, const CircleView& b, float margin) {
  const Vec2 d = b.center - a.center;
  const float dist = length(d);
  const float separation = dist - a.radius - b.radius;
  if (!(separation < margin)) return {};
  // Coincident centres: any direction is as good; a fixed one keeps the result deterministic.
  const Vec2 u = dist > 0.0f ? Vec2{d.x / dist, d.y / dist} : Vec2{0.0f, 1.0f};
  Manifold m;
  m.count = 1;
  ContactFeature& f = m.points[0];
  f.kind = FeatureKind::VertexVertex;
  f.vertex_on_a = true;
  f.vertex = 0;
  f.other = 0;
  f.separation = separation;
  f.normal = u;
  f.point = a.center + (a.radius + 0.5f * separation) * u;
  return m;
}

// Voronoi regions of the polygon. Separation of the centre along each outward unit normal:
// s_e = n_e . (c - v_e). If every s_e <= 0 the centre is inside and the edge of largest s_e is the
// shallowest way out. Otherwise the closest point of the polygon lies on the edge of largest s_e
// (s_e <= |c - p| for every polygon point p, with equality at the closest point when it lies on
// e; when it is a vertex, the largest s_e belongs to one of its two edges because the normals
// bracketing the direction c - v are the ones closest in angle to it), and the endpoint tests of
// that edge tell edge region from vertex region.
//
// Tile seams: an internal edge's region lies inside the neighbouring tile, which reports the
// circle itself (no point here); in the region of a seam vertex (one internal edge) the exposed
// face continues flush, so the circle is measured against that face's line rather than the
// vertex (a rolling circle must not bump on the seam); a vertex between two internal edges is
// buried and reports nothing. Inside, only exposed faces are ways out.
//
// A rounded polygon (or a capsule or segment: two vertices) adds its radius `ra` to every gap.
// A two-vertex core has no inside: a centre on its line is in an edge or a vertex region.
Manifold collide_polygon_circle(const PolygonView& a, const CircleView& b, float margin) {
  return collide_hull_circle(a, 0.0f, b, margin);
}

Manifold collide_hull_circle(const PolygonView& a, float ra, const CircleView& b, float margin) {
  const Vec2 c = b.center;
  const float r = b.radius;
  const float radii = r + ra;
  float best_all = -std::numeric_limits<float>::infinity();
  float best_exposed = best_all;
  int edge_all = -1;
  int edge_exposed = -1;
  Vec2 normal_all;
  Vec2 normal_exposed;
  for (int e = 0; e < a.count; ++e) {
    const int f = next_index(e, a.count);
    const float dx = a.x[f] - a.x[e];
    const float dy = a.y[f] - a.y[e];
    const float len = std::sqrt(dx * dx + dy * dy);
    if (len == 0.0f) continue;
    const Vec2 n = {dy / len, -dx / len};
    const float s = n.x * (c.x - a.x[e]) + n.y * (c.y - a.y[e]);
    if (s > best_all) {
      best_all = s;
      edge_all = e;
      normal_all = n;
    }
    if (!edge_is_internal(a, e) && s > best_exposed) {
      best_exposed = s;
      edge_exposed = e;
      normal_exposed = n;
    }
  }
  // A face separating the centre by s keeps the whole circle at least s - r away.
  if (edge_exposed < 0 || !(best_all - radii < margin)) return {};

  if (best_all <= 0.0f && a.count > 2) {  // centre inside (or on the boundary)
    return circle_on_edge(edge_exposed, vertex(a, edge_exposed), normal_exposed, c, r, radii,
                          margin);
  }

  const int e = edge_all;
  const int v1_index = e;
  const int v2_index = next_index(e, a.count);
  const Vec2 v1 = vertex(a, v1_index);
  const Vec2 v2 = vertex(a, v2_index);
  int corner = -1;
  if (dot(c - v1, v2 - v1) < 0.0f) {
    corner = v1_index;
  } else if (dot(c - v2, v1 - v2) < 0.0f) {
    corner = v2_index;
  }
  if (corner < 0) {  // edge region
    if (edge_is_internal(a, e)) return {};
    return circle_on_edge(e, v1, normal_all, c, r, radii, margin);
  }

  const int e_before = prev_index(corner, a.count);  // edge ending at the corner
  const int e_after = corner;                        // edge starting at the corner
  const bool before_exposed = !edge_is_internal(a, e_before);
  const bool after_exposed = !edge_is_internal(a, e_after);
  const Vec2 v = vertex(a, corner);
  if (before_exposed && after_exposed) {
    // Vertex region: the closest point is the vertex, gap |c - v| - r along (c - v) / |c - v|.
    // The endpoint test is strict, so c != v here; but a difference of subnormal size has a
    // length that underflows to 0 (fuzz_api: a circle centred 1e-40 from a vertex gave NaN), and
    // then the vertex's outward bisector, which lies in its region, is the direction.
    const Vec2 d = c - v;
    const float dist = length(d);
    Vec2 u = {d.x / dist, d.y / dist};
    if (!(dist > 0.0f)) {
      // A two-vertex core's side normals cancel: its vertex points out along the segment.
      const Vec2 bisector = a.count > 2 ? edge_normal(a, e_before) + edge_normal(a, e_after)
                                        : v - vertex(a, next_index(corner, 2));
      u = (1.0f / length(bisector)) * bisector;
    }
    Manifold m;
    ContactFeature& f = m.points[0];
    f.kind = FeatureKind::VertexVertex;
    f.vertex_on_a = false;
    f.vertex = 0;
    f.other = static_cast<std::uint8_t>(corner);
    f.separation = dist - radii;
    f.normal = u;
    f.point = v + point_offset(ra, f.separation) * u;
    m.count = f.separation < margin ? 1 : 0;
    return m;
  }
  if (!before_exposed && !after_exposed) return {};
  // Seam vertex: measure against the exposed face's line, as if it ran on through the seam.
  const int face = before_exposed ? e_before : e_after;
  return circle_on_edge(face, v, edge_normal(a, face), c, r, radii, margin);
}

}  // namespace strut::collide
