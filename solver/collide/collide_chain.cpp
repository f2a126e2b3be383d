// Chain segments against circles and rounded cores, without ghost collisions.
//
// A body sliding along a chain meets each joint from two links at once. Collided against each
// link alone, the link it is arriving at sees the body's leading face just past the link's
// first vertex and may push the body back along its motion (the "ghost" collision: the joint's
// vertex acts as a corner although the surface continues). The ghost points (the chain's points
// either side of the link) say what the surface does beyond each end, so each end vertex gets the
// part of its normal cone that this link owns:
//   - open end (no ghost): the whole half plane beyond the end;
//   - convex joint on the body's side (the neighbour turns away): from this link's face normal
//     to the bisector with the neighbour's; the neighbour owns the other half;
//   - flat or concave joint: nothing. The neighbour's face continues the surface, so the only
//     contacts there are the body's own vertices against a face, which the neighbour reports.
// The candidate axes follow: this link's face towards the body, and the body's faces whose
// push-out direction is owned at the link's vertex that supports them. Contacts at a vertex
// the link does not own are dropped. Links are two-sided: the body's centre picks the face.
#include <cmath>

#include "solver/collide/face_clipping.hpp"

namespace strut::collide {
namespace {

// A joint whose turn is below this sine counts as flat (a straight chain written in floats).
constexpr float kFlatJoint = 1e-5f;
// A normal this close to the face's (cosine; about 0.9 mrad) is the face's own.
constexpr float kFaceCosine = 1.0f - 4e-7f;

enum class Joint : std::uint8_t { Open, Convex, Covered };

struct ChainSide {
  Vec2 v[2];
  int face = 0;  // the edge facing the body: 0 right of v0 -> v1, 1 left
  Vec2 normal;   // its outward unit normal
  Vec2 out[2];   // unit direction leaving the link at each vertex
  Joint joint[2] = {Joint::Open, Joint::Open};
  float min_cosine[2] = {0.0f, 0.0f};  // Convex: owned normals have dot(n, normal) >= this
};

Vec2 clockwise_unit(Vec2 d) {
  const float len = length(d);
  return {d.y / len, -d.x / len};
}

ChainSide chain_side(const ShapeView& s, Vec2 toward) {
  ChainSide cs;
  cs.v[0] = {s.x[0], s.y[0]};
  cs.v[1] = {s.x[1], s.y[1]};
  const Vec2 along = cs.v[1] - cs.v[0];
  const Vec2 right = clockwise_unit(along);
  cs.face = dot(right, toward - cs.v[0]) >= 0.0f ? 0 : 1;
  const float sign = cs.face == 0 ? 1.0f : -1.0f;
  cs.normal = sign * right;
  const float len = length(along);
  cs.out[1] = {along.x / len, along.y / len};
  cs.out[0] = -cs.out[1];
  const bool has[2] = {s.has_prev, s.has_next};
  const Vec2 ghost[2] = {s.ghost_prev, s.ghost_next};
  for (int k = 0; k < 2; ++k) {
    if (!has[k]) continue;
    const Vec2 to_ghost = ghost[k] - cs.v[k];
    const float bend = dot(cs.normal, to_ghost) / length(to_ghost);
    if (!(bend < -kFlatJoint)) {
      cs.joint[k] = Joint::Covered;
      continue;
    }
    // The neighbour's face normal on the same side: its direction of travel is ghost -> v0
    // before this link and v1 -> ghost after it.
    const Vec2 neighbour = sign * clockwise_unit(k == 0 ? cs.v[0] - ghost[0] : to_ghost);
    const Vec2 half = cs.normal + neighbour;
    cs.joint[k] = Joint::Convex;
    cs.min_cosine[k] = dot(cs.normal, half) / length(half);
  }
  return cs;
}

// Whether this link reports a contact at its vertex k with normal n (from the link to the body).
bool owns(const ChainSide& cs, int k, Vec2 n) {
  if (cs.joint[k] == Joint::Covered) return false;
  if (dot(n, cs.normal) >= kFaceCosine) return true;
  if (dot(n, cs.out[k]) < 0.0f) return false;
  return cs.joint[k] == Joint::Open || dot(n, cs.normal) >= cs.min_cosine[k];
}

// A body face is a candidate axis when its push-out direction is the link's face normal or is
// owned at the link's vertex that lies deepest against it.
bool axis_allowed(const ChainSide& cs, int support, Vec2 n) {
  return dot(n, cs.normal) >= kFaceCosine || owns(cs, support, n);
}

}  // namespace

Manifold collide_chain_circle(const ShapeView& chain, const CircleView& b, float margin) {
  const ChainSide cs = chain_side(chain, b.center);
  const PolygonView link{chain.x, chain.y, 2, 0};
  Manifold m = collide_hull_circle(link, 0.0f, b, margin);
  if (m.count == 1 && m.points[0].kind == FeatureKind::VertexVertex &&
      !owns(cs, m.points[0].other, m.points[0].normal))
    m.count = 0;
  return m;
}

Manifold collide_chain_hull(const ShapeView& chain, const PolygonView& b, float rb, float margin) {
  Vec2 centroid;
  for (int k = 0; k < b.count; ++k) centroid += vertex(b, k);
  centroid = (1.0f / float(b.count)) * centroid;
  const ChainSide cs = chain_side(chain, centroid);
  const PolygonView a{chain.x, chain.y, 2, 0};

  // The link's face: edge cs.face starts at vertex cs.face (edge 1 runs v1 -> v0).
  FaceQuery qa;
  qa.edge = cs.face;
  qa.longest_edge = length(cs.v[1] - cs.v[0]);
  qa.separation = std::numeric_limits<float>::infinity();  // a minimum over B's vertices
  const Vec2 origin = cs.v[cs.face];
  for (int k = 0; k < b.count; ++k) {
    const float s = dot(cs.normal, vertex(b, k) - origin);
    if (s < qa.separation) qa.separation = s, qa.support = k;
  }
  if (qa.separation - rb >= margin) return {};

  FaceQuery qb;
  for (int e = 0; e < b.count; ++e) {
    const Vec2 n = edge_normal(b, e);
    qb.longest_edge =
        std::fmax(qb.longest_edge, length(vertex(b, next_index(e, b.count)) - vertex(b, e)));
    if (n.x == 0.0f && n.y == 0.0f) continue;
    const Vec2 p = vertex(b, e);
    const float s0 = dot(n, cs.v[0] - p);
    const float s1 = dot(n, cs.v[1] - p);
    const int support = s1 < s0 ? 1 : 0;
    const float s = std::fmin(s0, s1);
    if (s > qb.separation && axis_allowed(cs, support, -n)) {
      qb.separation = s;
      qb.edge = e;
      qb.support = support;
    }
  }
  if (qb.separation - rb >= margin) return {};

  if (rb > 0.0f && std::fmax(qa.separation, qb.separation) > 0.0f) {
    const ClosestFeatures c = closest_features(a, b);
    if (c.vertex_pair < c.vertex_edge) {
      const Vec2 d = vertex(b, c.b_vertex) - cs.v[c.a_vertex];
      if (c.vertex_pair > 0.0f && owns(cs, c.a_vertex, (1.0f / c.vertex_pair) * d))
        return vertex_pair_contact(a, c.a_vertex, 0.0f, b, c.b_vertex, rb, c.vertex_pair, margin);
    }
  }

  const bool ref_chain = reference_on_a(qa, qb);
  Manifold m = ref_chain ? clip_faces(a, b, qa, true, margin, 0.0f, rb)
                         : clip_faces(b, a, qb, false, margin, rb, 0.0f);
  // As in collide_hulls: a near-tie's face may clip the other's edge away entirely.
  if (m.count == 0 && !ref_chain) m = clip_faces(a, b, qa, true, margin, 0.0f, rb);
  if (m.count == 0 && ref_chain && qb.edge >= 0 && qb.separation - rb < margin)
    m = clip_faces(b, a, qb, false, margin, rb, 0.0f);
  // Keep contacts at the link's vertices only where the link owns them.
  Manifold kept;
  for (int i = 0; i < m.count; ++i) {
    const ContactFeature& f = m.points[i];
    if (f.vertex_on_a && !owns(cs, f.vertex, f.normal)) continue;
    kept.points[kept.count++] = f;
  }
  return kept;
}

}  // namespace strut::collide
