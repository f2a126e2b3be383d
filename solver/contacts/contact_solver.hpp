// The contact solver: solver/contacts/, one concept per file (README of the folder below).
//
// Every contact point is a feature pair, vertex V against edge E1 E2 (or
// against another vertex). With n the edge's outward normal and t the
// projection parameter of V on the edge, the separation is C = n . (V - (E1 + t
// (E2 - E1))) - radii, and C >= 0 is the constraint. An impulse along n moves
// V's body by w_V and the edge point's by w_E, where for particles w_E =
// (1-t)^2 w_E1 + t^2 w_E2 (the seed's lambda rule for unequal masses) and for a
// rigid body the generalised inverse mass 1/m + (r x n)^2 / I (point_ref.hpp).
//
// How the constraint is enforced follows Box2D v3's soft step, measured against
// plain position projection: with 4 substeps of 1 iteration the
// projection could not keep a stack of ten boxes standing (it fell in 3 s;
// corrected by position only, it crept 9 cm in 10 s; warm-started, it slid).
// Per substep:
//   1. velocities integrate (gravity, forces);
//   2. warm start: last substep's accumulated impulses are applied again;
//   3. solve: impulses drive the normal velocity to -bias, where the bias
//   closes a speculative
//      gap exactly (C > 0: the approach may use up the gap, never more, so fast
//      bodies do not tunnel) and pushes overlap out softly (a 45 Hz spring with
//      damping ratio 10, at most 3 m/s), the accumulated normal impulse staying
//      >= 0; then Coulomb friction;
//   4. positions integrate;
//   5. joints and struts project positions;
//   6. relax: the same solve without bias, so the push-out does not stay as
//   velocity.
// After the last substep, restitution. Impulses persist across steps by feature
// (narrow phase).
//
// Units: the state stores motion per substep (d = v h), so velocities here are
// displacements per substep and impulses are momentum x h; the two scale
// together, so the formulas are Box2D's with h folded in.
//
// Two paths share this. Points between rigid bodies are prepared once per step
// as in Box2D: both anchors become material points fixed for the step (offsets
// from the centres of mass), with the normal and effective masses; a substep
// then needs only the bodies' pose change since the step began (the generic
// evaluation, re-deriving edges and normals on every touch, costs several times
// as much). Points touching a soft body are evaluated from particles every time.
//
// Files: contact_rows.hpp (the normal and friction rows), colour_contacts.cpp (pairs into
// constraints and colours), prepare_contacts.cpp (anchors, normals, masses into SIMD lanes),
// solver_bodies.cpp (the 32-byte bodies the passes work on), contact_stages.cpp (warm start,
// solve, relax as stages) with contact_passes.hpp, soft_contacts.cpp (points touching soft
// bodies), restitution.cpp, finish_contacts.cpp (impulses back for warm starting), and
// contact_geometry.cpp (a point at the current positions).
#pragma once

#include "solver/core/stores.hpp"
#include "solver/core/world_state_fwd.hpp"
#include "solver/joints/point_ref.hpp"

namespace strut {

// A contact point evaluated at the current positions: the two material points, the normal
// (pointing from the other feature towards the vertex) and the separation C (< 0 = overlap).
struct ContactGeometry {
  PointRef v, o;
  Vec2 n;
  float c = 0;
};
ContactGeometry evaluate_contact(Stores<ReadsBodies, ReadsParticles> w, const ContactPoint& cp);

// Spring-damper softness of a constraint at substep h.
Softness make_softness(float hertz, float damping_ratio, float h);

// One point between two rigid bodies prepared at the current poses through the prepare kernel's
// scalar twin (contact_prepare.hpp); the solver prepares kContactLanes at a time.
PreparedPoint prepare_point(const WorldState& w, const ContactPoint& cp);

// The push-out cap (WorldConfig::contact_push_max) holds per contact point, so a body overlapped
// by n others was pushed at up to n caps: 2,000 boxes created at one point flew apart at 163 m/s.
// A body's pushes are the sum over its overlapping pairs of the share of the pair's push it
// receives, ima / (ima + ima_other) (colour_contacts.cpp); a moving body with more than
// kCrowdedPushes of them gives each pair kCrowdedPushes / pushes of the cap, so together they
// push it at no more than kCrowdedPushes caps, and a pair takes the smaller share of its two
// bodies'. Static and kinematic bodies count nothing: a floor under many boxes pushes each of
// them at the full cap. The busiest body of the built-in scenes receives 16 pushes (a crushed
// brick in `smash`), so 24 leaves every built-in scene its bits (docs/architecture.md).
inline constexpr float kCrowdedPushes = 24;
inline float push_out_scale(float pushes) {
  return pushes > kCrowdedPushes ? kCrowdedPushes / pushes : 1.0f;
}

// A contact's push opens its pair's relative normal speed up to its cap and no further, but caps
// add along a chain of overlapping bodies: a thinning crowd, each body below kCrowdedPushes,
// still reached 139 m/s (2,000 boxes, 300 steps). So dynamic bodies of comparable mass (within
// kHoldingMass) joined by contact pairs form a cluster, and a free cluster, one with no pair to
// a static, kinematic or much heavier body, of n bodies gives each of its pairs at most
// kPushCluster / n of the cap: each of its bodies counts cluster_pushes(n) pushes. A chain
// inside it has at most n - 1 links, so its pushes open less than kPushCluster caps of relative
// speed across any chain (docs/api.md, "Limitations"). Two touching bodies keep the full cap; a
// held cluster keeps it too, as it must push out against what holds it.
inline constexpr float kPushCluster = 2;
inline constexpr float kHoldingMass = 10;
inline float cluster_pushes(float bodies) { return bodies * (kCrowdedPushes / kPushCluster); }

// A held cluster must push out against what holds it, so it keeps the cap, and caps add along
// its chains: 100 boxes created at one point on a floor left at 57 m/s. Sharing the cap in every
// held cluster, or in every cluster of deep pairs, leaves crushed bodies inside each other
// (`smash`'s bricks ended 1.18 m deep instead of 3.6 mm, and `spinner`'s drum, created
// overlapping, lost bodies through its wall: docs/architecture.md). So only a crowd shares it.
// A deep pair (pushing at the cap: deeper than contact_push_max / bias rate, 0.225 m at 60 Hz
// and 4 substeps) becomes a crowd pair when one of its bodies is inside more than
// kCrowdDeepPairs others, or when it is found deep (new this step: bodies created, placed or
// woken inside each other) in a free cluster touching a static or kinematic body; it stays one
// while it overlaps, however shallow. Crowd pairs join crowd clusters. A held crowd cluster (in
// a held free cluster) of n bodies gives every pair of its bodies, those with the holder too,
// kHeldPushCluster / n of the cap: a chain from the holder to any of its bodies has at most n
// such links, so push-out opens at most kHeldPushCluster caps of speed relative to the holder,
// what one body pushed out of the holder alone gets. A free one shares like a free cluster. The
// most deep pairs of one body in the built-in scenes is 9 (a crushed brick in `smash`; 7 in
// `spinner`), so 12 leaves them their bits; pairs found deep on a heavy dynamic body are left
// out, as `smash`'s crushed bricks (woken by the impact) are such pairs and kept 0.79 m of
// overlap when they shared (3.6 mm otherwise).
inline constexpr int kCrowdDeepPairs = 12;
inline constexpr float kHeldPushCluster = 1;
inline float held_cluster_pushes(float bodies) {
  return bodies * (kCrowdedPushes / kHeldPushCluster);
}

// Splits the contact pairs into solver constraints, colours them, sums each moving body's pushes
// and finds the free clusters (scratch.body_pushes, push_out_scale; after the narrow phase and
// islands, once the step has set scratch.moving). Kept while the pairs are last step's.
void colour_contacts(Stores<ReadsConfig, RunsTasks, ReadsTiming, ReadsBodies, ReadsParticles,
                            WritesContacts, WritesScratch>
                         w);
// Once per step, before the substeps: fixes anchors, normals and effective masses of points
// between rigid bodies, and records each point's approach for restitution.
void prepare_contacts(Stores<RunsTasks, ReadsTiming, WritesBodies, ReadsColliders, ReadsParticles,
                             WritesContacts, WritesScratch>
                          w);
// After the step: the impulses stay in the lanes (point_impulses.cpp), and pairs with a pressed
// point are marked touching (islands, events).
void finish_contacts(Stores<RunsTasks, WritesContacts> w);
// A point's impulses between steps (point_impulses.cpp): from its lane while
// ContactSet::impulses_in_lanes, else from the point. `points`: the list the lanes were filled
// from (after the narrow phase's swap, last step's).
struct PointImpulses {
  float lambda_n, lambda_t, max_lambda_n, vn_pre;
  bool sliding;
};
PointImpulses lane_impulses(const ContactSet& set, std::uint32_t lane_code);
inline PointImpulses point_impulses(const ContactSet& set, const std::vector<ContactPoint>& points,
                                    std::uint32_t k) {
  if (set.impulses_in_lanes && set.point_lane[k] != ~0u)
    return lane_impulses(set, set.point_lane[k]);
  const ContactPoint& cp = points[k];
  return {cp.lambda_n, cp.lambda_t, cp.max_lambda_n, cp.vn_pre, cp.sliding};
}
// Copies the impulses held in lanes back into `points` (all, or only the points of the pairs the
// narrow phase reused) and clears impulses_in_lanes; nothing when they are in the points.
void pull_impulses(Stores<RunsTasks, WritesContacts> w, std::vector<ContactPoint>& points,
                   bool reused_pairs_only);
// ContactSet::point_lane's code of lane `lane` of point row k (0, 1) of wide constraint `wide`.
std::uint32_t point_lane_code(std::uint32_t wide, int k, int lane);
// The contact passes work on solver bodies (contact.hpp): gathered from the body arrays before
// a pass, their motion scattered back after it. Both are per body, so a stage over the bodies
// (integration) may do them for its own range. The scatter writes only bodies the step marked
// movable (scratch.moving).
void gather_solver_bodies(WorldState& w, int lo, int hi);
// Only their motion, when the poses have not changed since the last gather.
void gather_solver_motion(WorldState& w, int lo, int hi);
void scatter_solver_bodies(WorldState& w, int lo, int hi);
// Whether the solver bodies may stay gathered across a substep: nothing but the contact passes
// and integration touches the bodies' motion (no joints, struts or points on soft bodies).
bool solver_bodies_only(const WorldState& w);

// Appends a substep's contact stages to a stage list (run by TaskSystem::run_stages): warm start
// (the accumulated impulses applied again), then `iterations` solve passes with the soft push-out.
// `phase` tags the stages for the step profile. `own_gather`: the stages gather the solver bodies
// first and scatter them at the end (otherwise the caller does, see solver_bodies_only).
// warm_start false: the caller ran add_contact_warm_start_stages before (world_step.cpp says why)
// and changed nothing but the bodies' motion since (the gather is of the motion alone).
void add_contact_solve_stages(WorldState& w, std::vector<TaskSystem::Stage>& stages, float h,
                              int phase, bool own_gather = true, bool warm_start = true);
// The warm start alone, gathering and scattering the solver bodies around it.
void add_contact_warm_start_stages(WorldState& w, std::vector<TaskSystem::Stage>& stages,
                                   int phase);
// The relax pass: the same solve without push-out, so the push-out does not stay as velocity.
void add_contact_relax_stages(WorldState& w, std::vector<TaskSystem::Stage>& stages, float h,
                              int phase, bool own_gather = true);
// After the last substep: points that were pressed and approached faster than `threshold`
// leave with -restitution times their approach speed.
void apply_restitution(WorldState& w, float h, float threshold);

}  // namespace strut
