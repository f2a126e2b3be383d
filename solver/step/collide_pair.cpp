// One collider pair's contact points: material mixing, the manifold and, for fast pairs, the
// extra speculative points.
#include <algorithm>
#include <cmath>

#include "solver/collide/manifold.hpp"
#include "solver/contacts/contact_solver.hpp"
#include "solver/core/stores.hpp"
#include "solver/step/bounds_kernel.hpp"
#include "solver/step/collide_phase.hpp"
#include "solver/step/visited_bodies.hpp"

namespace strut {

namespace {

// A pair's coefficients, the same for each of its points.
struct PairMaterial {
  float friction, static_friction, restitution;
};

// Materials combine by the usual rule unless one asks for another (MixRule: the later rule of
// the two wins): friction as the geometric mean (a frictionless surface makes the pair
// frictionless), restitution as the maximum (a ball bounces on any floor). Nearly every pair has
// the default rules on both sides and takes the first branch.
PairMaterial combine_materials(const WorldState& w, std::uint32_t a, std::uint32_t d) {
  const auto& c = w.colliders;
  if ((c.mix_rules[a] | c.mix_rules[d]) == 0)
    return {std::sqrt(c.friction[a] * c.friction[d]),
            std::sqrt(c.static_friction[a] * c.static_friction[d]),
            std::max(c.restitution[a], c.restitution[d])};
  const MixRule friction_rule =
      mix_rule_of_pair(MixRule(c.mix_rules[a] & 15), MixRule(c.mix_rules[d] & 15));
  const MixRule restitution_rule =
      mix_rule_of_pair(MixRule(c.mix_rules[a] >> 4), MixRule(c.mix_rules[d] >> 4));
  return {mix_friction(c.friction[a], c.friction[d], friction_rule),
          mix_friction(c.static_friction[a], c.static_friction[d], friction_rule),
          mix_restitution(c.restitution[a], c.restitution[d], restitution_rule)};
}

// A body that moves more than half its size in a step can turn a corner that the manifold did
// not pick into the surface (a box spinning at 20 rad/s and flying at 200 m/s went through a
// 10 cm wall at one substep). For such pairs every vertex of the other collider within the
// margin of a manifold edge's line gets a speculative point against that edge. `first` holds
// the first vertex of each point's body's collider, indexed like the points' bodies.
std::size_t add_fast_points(const WorldState& w, std::uint32_t ca, std::uint32_t cc, float margin,
                            ContactPoint* out, float* separations, std::size_t count) {
  const auto& col = w.colliders;
  const std::size_t base = count;
  for (std::size_t p = 0; p < base; ++p) {
    if (out[p].kind != ContactKind::VertexEdge) continue;
    const std::uint32_t edge_body = out[p].body_o, edge = out[p].other;
    const std::uint32_t other_body = out[p].body_v;
    bool seen = false;  // one pass per distinct edge
    for (std::size_t q = 0; q < p; ++q)
      seen = seen || (out[q].kind == ContactKind::VertexEdge && out[q].body_o == edge_body &&
                      out[q].other == edge);
    if (seen) continue;
    const std::uint32_t e1i = w.bodies.particle_begin[edge_body] + edge;
    const Vec2 e1{w.particles.x[e1i], w.particles.y[e1i]};
    const std::uint32_t e2i = e1i + w.particles.next[e1i];
    const Vec2 d = Vec2{w.particles.x[e2i], w.particles.y[e2i]} - e1;
    const float len = length(d);
    if (len <= 0) continue;
    const Vec2 normal = (1.0f / len) * Vec2{d.y, -d.x};
    // The vertices of the vertex side's collider (the pair's other collider).
    const std::uint32_t vc = col.body[ca] == other_body ? ca : cc;
    const std::uint32_t v0 = col.vertex_begin[vc], vn = v0 + col.count[vc];
    for (std::uint32_t v = v0; v < vn; ++v) {
      bool present = false;
      for (std::size_t q = 0; q < count; ++q)
        present = present || (out[q].body_v == other_body && out[q].vertex == v &&
                              out[q].kind == ContactKind::VertexEdge && out[q].other == edge);
      if (present) continue;
      const float sep = dot(normal, vertex_position(w, other_body, v) - e1) - out[p].radius();
      if (sep >= margin) continue;
      ContactPoint cp = out[p];
      separations[count] = sep;
      cp.nx = normal.x, cp.ny = normal.y;  // along the edge
      cp.vertex = v;
      cp.lambda_n = cp.lambda_t = 0;
      out[count++] = cp;
    }
  }
  return count;
}

}  // namespace

bool boxes_within(const WorldState& w, std::uint32_t a, std::uint32_t c, float margin) {
  const Aabb &box_a = w.colliders.aabb[a], &box_c = w.colliders.aabb[c];
  const float gap =
      std::max(std::max(box_a.lower.x - box_c.upper.x, box_c.lower.x - box_a.upper.x),
               std::max(box_a.lower.y - box_c.upper.y, box_c.lower.y - box_a.upper.y));
  return gap < margin;
}

std::size_t collide_pair(const WorldState& w, std::uint32_t a, std::uint32_t c, PairReach reach,
                         float margin, ContactPoint* out, float* separations) {
  const auto& b = w.bodies;
  const auto& col = w.colliders;
  const std::uint32_t ba = col.body[a], bc = col.body[c];
  // Boxes apart by the margin or more on an axis: no point of the two shapes is within reach.
  // Half the spinner's candidate pairs end here (their bodies' boxes grow by a fast motion); SAT
  // would find nothing for most of them, and for the rest only the line of a face, not the face.
  if (!boxes_within(w, a, c, margin)) return 0;
  const collide::Manifold m = collide::collide(shape_view(w, a), shape_view(w, c), margin);
  // Which collider owns the vertex is told by slot order, which (unlike dense order) survives
  // compaction.
  const bool a_lower = col.slot[a] < col.slot[c];
  const PairMaterial material = m.count > 0 ? combine_materials(w, a, c) : PairMaterial{};
  for (int i = 0; i < m.count; ++i) {
    const collide::ContactFeature& f = m.points[i];
    ContactPoint& cp = out[i];
    cp = ContactPoint{};
    const std::uint32_t cv = f.vertex_on_a ? a : c, co = f.vertex_on_a ? c : a;
    cp.body_v = col.body[cv];
    cp.body_o = col.body[co];
    cp.kind = f.kind == collide::FeatureKind::VertexEdge ? ContactKind::VertexEdge
                                                         : ContactKind::VertexVertex;
    cp.vertex = col.vertex_begin[cv] + f.vertex;
    cp.other = col.vertex_begin[co] + f.other;
    cp.radius_v = col.radius[cv];
    cp.radius_o = col.radius[co];
    // f.normal points from A to B; ours from the other feature towards the vertex.
    const Vec2 normal = f.vertex_on_a ? -f.normal : f.normal;
    cp.nx = normal.x, cp.ny = normal.y;
    separations[i] = f.separation;
    cp.vertex_on_lower = f.vertex_on_a == a_lower;
    cp.friction = material.friction;
    cp.static_friction = material.static_friction;
    cp.restitution = material.restitution;
  }
  std::size_t count = static_cast<std::size_t>(m.count);
  // Against what does not move (walls, floors, kinematic bodies) or for bullets only, as the
  // continuous pass: between two dynamic bodies the extra points bought little and cost much
  // (after the smash's impact most of its 40,000 pairs were fast, with four points each).
  const bool fixed = b.inv_mass[ba] == 0 || b.inv_mass[bc] == 0;
  const bool bullet = ((b.flags[ba] | b.flags[bc]) & kBullet) != 0;
  if (count > 0 && (fixed || bullet) && reach.fast)
    count = add_fast_points(w, a, c, margin, out, separations, count);
  return count;
}

// Retired collider slots become free once this step's contacts have replaced last step's.
void release_retired_colliders(Stores<WritesColliders> w) { w.colliders.slots.recycle_retired(); }

}  // namespace strut
