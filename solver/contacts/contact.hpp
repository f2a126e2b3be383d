// Contact points as feature pairs, re-evaluated from current positions every
// substep.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "strut/math.hpp"

namespace strut {

enum class ContactKind : std::uint8_t { VertexEdge = 0, VertexVertex = 1 };

// One contact point: vertex `vertex` of body `body_v` against edge `other` (vertex `other` for
// VertexVertex) of body `body_o`, both indices relative to their body's particles (a compound
// body's colliders share them): features, the radii around them, materials and the impulses
// kept across steps. The edge starting at vertex i ends at vertex i + particles.next[i].
struct alignas(64) ContactPoint {
  std::uint32_t body_v = 0;  // dense body indices
  std::uint32_t body_o = 0;
  std::uint32_t vertex = 0;
  std::uint32_t other = 0;
  float radius_v = 0;  // radius of the vertex's collider (its surface is this far out)
  float radius_o = 0;  // radius of the other feature's collider
  float friction = 0;  // dynamic coefficient of the pair
  float static_friction = 0;
  float restitution = 0;
  float lambda_n = 0;      // accumulated normal impulse x h, warm-started across substeps
  float lambda_t = 0;      // accumulated friction impulse x h along (n.y, -n.x)
  float max_lambda_n = 0;  // largest normal impulse of the step (was it pressed?)
  float vn_pre = 0;        // relative normal motion per substep before the step (restitution)
  // The normal when the narrow phase chose the features, in the world, from the other feature
  // towards the vertex: between rigid bodies the solver pushes along it for as long as the
  // features are kept, as Box2D v3 keeps a recycled manifold's (a normal turned with the bodies
  // pushed a leaning column further over, docs/architecture.md). The soft path uses it where
  // the features coincide.
  float nx = 0, ny = 1;
  ContactKind kind = ContactKind::VertexEdge;
  bool sliding = false;  // slipping at the end of the last substep: dynamic friction applies
  // The vertex is on the collider of the lower slot of the pair (slots survive compaction).
  bool vertex_on_lower = false;
  std::uint8_t unused = 0;

  float radius() const { return radius_v + radius_o; }
  Vec2 normal() const { return {nx, ny}; }
  // Same features as `o` (warm starting): the same vertex against the same edge or vertex.
  bool same_features(const ContactPoint& o) const {
    return vertex == o.vertex && other == o.other && kind == o.kind &&
           vertex_on_lower == o.vertex_on_lower;
  }
};
// A point's gap along its normal n (from the other feature towards the vertex), before radii:
// p = vertex - e1, d = e2 - e1 (zero for VertexVertex), t = the vertex's projection on the edge,
// clamped. Along n to the edge's line where the line faces n (cos > 1/2): a cut point's normal
// is its reference face's, not the edge's, and the gap is the distance along it to where the
// edge crosses the cutting side plane (Box2D's clip point); otherwise from the edge's point
// nearest the vertex (or the other vertex). The rigid prepare computes the same in lanes
// (contact_prepare.hpp).
// t_of() gives t, asked for only where the gap needs it: a vertex pressed on a face (most of a
// resting pile's points) is measured to the edge's line, and the narrow phase then spares the
// projection's division.
template <class TOf>
inline float gap_along(Vec2 n, Vec2 p, Vec2 d, const TOf& t_of) {
  const float mx = d.y, my = -d.x;
  const float mn = mx * n.x + my * n.y;
  if (mn * mn > 0.25f * (d.x * d.x + d.y * d.y)) return (mx * p.x + my * p.y) / mn;
  const float t = t_of();
  return n.x * (p.x - t * d.x) + n.y * (p.y - t * d.y);
}
inline float gap_along(Vec2 n, Vec2 p, Vec2 d, float t) {
  return gap_along(n, p, d, [t] { return t; });
}

// One cache line each: the contact prepare reads points in colour order, all over the list.
static_assert(sizeof(ContactPoint) == 64 && alignof(ContactPoint) == 64);

// A point between two rigid bodies prepared for the step (Box2D's contact constraint point),
// oriented from the other feature's body a to the vertex's body b: normal, anchors (offsets from
// the centres of mass), separation minus n . (rb - ra), effective masses, approach speed.
struct PreparedPoint {
  Vec2 n, ra, rb;
  float base_separation = 0;
  float normal_mass = 0, tangent_mass = 0;
  float vn_pre = 0;
};

// A body as the contact passes see it (Box2D's body state): the motion of the
// substep and the pose change since the step began. 32 bytes.
struct alignas(32) SolverBody {
  float dx = 0, dy = 0, da = 0, unused = 0;
  float dpx = 0, dpy = 0, dqc = 1, dqs = 0;
};

// A body as the contact prepare reads it, one 32-byte row per body (body_lanes.hpp moves rows
// into lanes): rotation, motion of the last substep, inverse masses, and the fraction of the
// push-out cap its contacts get (push_out_scale in contact_solver.hpp; 1 unless it is crowded).
struct alignas(32) PrepareBody {
  float qc = 0, qs = 0, dx = 0, dy = 0, da = 0, inv_mass = 0, inv_inertia = 0, push_scale = 1;
};

// What a pair's features were chosen at: the pose of its higher-slot collider's body in the
// frame of its lower-slot collider's body, and the margin the manifold covered. margin < 0: not
// reusable.
struct PairCache {
  float x = 0, y = 0, c = 1, s = 0;
  float margin = -1;
  // The lower-slot collider's body's rotation in the world (the higher's is it turned by (c, s)):
  // the contact solver takes a face contact's arms at them, and the recycling tells how far
  // each has turned.
  float lower_c = 1, lower_s = 0;
  Rot higher() const { return {lower_c * c - lower_s * s, lower_s * c + lower_c * s}; }
};

// A solver work item: `count` wide constraints from `first`, solved in order (the constraints
// of pairs with several are stacked lane by lane, see prepare_contacts).
struct ContactWork {
  std::uint32_t first = 0;
  std::uint32_t count = 1;
};

struct ContactSet {
  std::vector<ContactPoint> points;
  // Solver constraints (colour_contacts.cpp): their first point and how many
  // points from it (1 or 2; 0: every point of a pair touching a soft body, the generic path).
  std::vector<std::uint32_t> constraint_first;
  std::vector<std::uint8_t> constraint_count;
  std::vector<std::uint32_t> generic_pairs;          // pairs touching a soft body, in pair order
  std::vector<std::uint32_t> pair_constraint_begin;  // constraints of pair p, contiguous
  std::vector<struct WideConstraint> wide;           // the rigid constraints, kContactLanes to one
  std::vector<struct WideFeatures> wide_features;    // their points' features, kept beside them
  // Per wide constraint, its WideFlag bits (contact_wide.hpp), set by the prepare: kRoundedLanes
  // when a lane has a rounded feature (radius > 0), for which alone the solve reads the radius
  // rows (solve_lanes); kSurfaceLanes when a lane has a tangent speed or rolling resistance.
  std::vector<std::uint8_t> wide_flags;
  // The wide constraints' surface rows, one per constraint while some collider has a surface
  // (ColliderStore::surface_count), else empty.
  std::vector<struct WideSurface> wide_surface;
  // The lane holding each point (point_impulses.cpp's code; ~0: none, the point itself holds
  // its impulses), set when the lanes are filled and kept with them.
  std::vector<std::uint32_t> point_lane;
  // The impulses of the points in lanes are the lanes' (point_impulses.cpp), not the points'.
  bool impulses_in_lanes = false;
  std::vector<ContactWork> work;  // solver work items, colour-major
  std::vector<std::uint32_t> colour_work_begin;
  bool any_restitution = false;  // a pair has restitution (colour_contacts)
  // The pairs, constraints, colours and lanes are last step's (colour_contacts): the prepare
  // keeps its lane lists and only refills the lanes.
  bool structure_kept = false;
  // Kept, but the points lie elsewhere than last step (a pair gained or lost a point within its
  // constraints) or a pair's first point turned round (same_contact_structure): the prepare
  // points every lane at its points' places and fills the lanes of pairs collided afresh as a
  // rebuild would.
  bool points_relaid = false;
  // Collider slots (lower, higher) of each pair that produced points, in pair order.
  std::vector<std::uint64_t> pair_keys;
  std::vector<std::uint8_t> pair_touching;  // touching (not only speculative) this step
  // Per pair: the smaller of 0 and its deepest point's separation this step (the push-out
  // counts of colour_contacts read it; a reused point's own separation is not stored).
  std::vector<float> pair_deepest;
  std::vector<std::uint32_t> pair_begin;     // points of pair p: [pair_begin[p], pair_begin[p+1])
  std::vector<std::uint32_t> pair_previous;  // index of the same pair last step, ~0 if new
  // The contact cache kept the pair's points (features, impulses, materials) from last step.
  std::vector<std::uint8_t> pair_reused;
  // The narrow phase's candidates were last step's pairs in order, as in a settled pile
  // (narrow_phase.cpp): with as many pairs kept, pair p is last step's pair p.
  bool same_pairs = false;
  // Moreover every pair kept its count of points and its first point's bodies, so the points lie
  // where they lay (narrow_phase.cpp); bouncy_pairs: a pair collided afresh has restitution on
  // its first point (a reused point keeps last step's).
  bool same_layout = false, bouncy_pairs = false;
  std::vector<PairCache> pair_cache;
  std::vector<PairCache> old_pair_cache;

  // Last step's contacts, kept for one step: points that persist start from
  // their impulses (warm starting), and pairs that start or stop touching make
  // contact events.
  std::vector<ContactPoint> old_points;
  std::vector<std::uint64_t> old_pair_keys;
  std::vector<std::uint32_t> old_pair_begin;
  std::vector<std::uint8_t> old_pair_touching;
  // Last step's pairs by higher collider slot: pairs of slot s are [old_body_first[s],
  // old_body_first[s + 1]) in old_by_body_key / old_by_body_index. Or, with old_body_first
  // empty, the keys sorted and their indices (few pairs among many colliders).
  std::vector<std::uint32_t> old_body_first, old_body_cursor;
  std::vector<std::uint64_t> old_by_body_key;
  std::vector<std::uint32_t> old_by_body_index;
  template <class F>
  void for_each_field(F&& f) {
    f(points), f(constraint_first), f(constraint_count), f(generic_pairs);
    f(pair_constraint_begin), f(wide), f(wide_features), f(wide_flags), f(wide_surface);
    f(point_lane);
    f(impulses_in_lanes), f(work), f(colour_work_begin), f(any_restitution), f(structure_kept);
    f(points_relaid), f(pair_keys), f(pair_touching), f(pair_deepest), f(pair_begin);
    f(pair_previous), f(pair_reused), f(same_pairs), f(same_layout), f(bouncy_pairs);
    f(pair_cache), f(old_pair_cache), f(old_points), f(old_pair_keys), f(old_pair_begin);
    f(old_pair_touching), f(old_body_first), f(old_body_cursor), f(old_by_body_key);
    f(old_by_body_index);
  }
};

inline std::uint64_t pair_key(std::uint32_t slot_a, std::uint32_t slot_b) {
  if (slot_a > slot_b) std::swap(slot_a, slot_b);
  return (std::uint64_t(slot_a) << 32) | slot_b;
}

}  // namespace strut
