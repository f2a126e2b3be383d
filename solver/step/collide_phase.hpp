// The collide phase of a step: bounds, pairs, manifolds.
#pragma once

#include <algorithm>
#include <cmath>
#include <span>
#include <utility>
#include <vector>

#include "solver/core/stores.hpp"
#include "solver/world_state.hpp"

namespace strut {

// Farthest surface point of body k from its centre of mass, from its colliders' rest positions
// (fixed at creation: BodyArrays::reach).
float local_reach(Stores<ReadsBodies, ReadsColliders, ReadsParticles> w, std::uint32_t k);

// World position of vertex v of dense body `body` (its particle), for the contact features.
inline Vec2 vertex_position(Stores<ReadsBodies, ReadsParticles> w, std::uint32_t body,
                            std::uint32_t v) {
  const std::uint32_t i = w.bodies.particle_begin[body] + v;
  return {w.particles.x[i], w.particles.y[i]};
}
// Tight box of one collider (dense index) from its vertices and radius.
Aabb collider_tight_box(Stores<ReadsBodies, ReadsColliders, ReadsParticles> w, std::uint32_t i);
// Tight boxes of body k's colliders (ColliderArrays::aabb) and of the body (their union).
void update_tight_boxes(Stores<WritesBodies, WritesColliders, ReadsParticles> w, std::uint32_t k);
// Tight body and collider boxes (from the particles) and each body's motion bound for this step.
void update_bounds(Stores<ReadsConfig, RunsTasks, ReadsTiming, WritesBodies, WritesColliders,
                          ReadsParticles, WritesScratch>
                       w,
                   float dt);
// Candidate pairs from the sweep-and-prune broad phase, as dense colliders (lower slot first),
// in the broad phase's canonical order; and the sensor pairs.
void find_candidate_pairs(Stores<ReadsConfig, RunsTasks, ReadsBodies, ReadsColliders, WritesPairs,
                                 WritesCallbacks, WritesScratch>
                              w);
// A collider's box for the broad phase: its tight box fattened by half the contact slop (so two
// boxes overlap when their gap is below the slop), swept along its body's displacement this
// step and grown by the rest of its motion (bounds_kernel.hpp).
Aabb collider_broadphase_box(Stores<ReadsConfig, ReadsBodies, ReadsColliders> w, std::uint32_t i);
// After a body moved outside the step (teleport, sleep): its boxes and its proxies' boxes.
void refresh_body_boxes(
    Stores<ReadsConfig, WritesBodies, WritesColliders, ReadsParticles, WritesPairs> w,
    std::uint32_t k);
void set_body_sleeping(Stores<ReadsBodies, ReadsColliders, WritesPairs> w, std::uint32_t k,
                       bool sleeping);
// Removes and inserts the body's proxies (its type or filters changed).
void reinsert_body(
    Stores<ReadsConfig, WritesBodies, WritesColliders, ReadsParticles, WritesPairs> w,
    std::uint32_t k);
// The mask a collider's proxy gets: all bits with a positive group (its group mates collide
// whatever their masks; the world applies category and mask to the others).
std::uint32_t broadphase_mask(Stores<ReadsColliders> w, std::uint32_t i);
// The collider as the collision functions see it, read from the particles.
collide::ShapeView shape_view(Stores<ReadsBodies, ReadsColliders, ReadsParticles> w,
                              std::uint32_t i);

// What a pair of bodies can do this step, from their motion relative to each other (inline: the
// narrow phase asks for every pair, and as a call each one read the world's arrays afresh).
// margin: how far apart features may be and still get a (speculative) point. fast: one may move
// more than half the smaller one's size relative to the other, so features the manifold did not
// pick can come into reach (extra points, no contact cache).
struct PairReach {
  float margin = 0;
  bool fast = false;
};

// How far any point of one body can move relative to the other this step: their relative
// velocity, each one's turn times its reach, and the difference of their gravity, from the
// motion of the last substep (as update_bounds's motion, which bounds each body alone). Debris
// flying apart together, or bodies carried round in a drum, move fast but hardly relative to
// each other: with the sum of their motions, the smash's debris had about three times Box2D's
// pairs. Soft bodies: the sum of their particles' motions.
inline float relative_motion(Stores<ReadsConfig, ReadsTiming, ReadsBodies, ReadsParticles> w,
                             std::uint32_t a, std::uint32_t c) {
  if (!w.bodies.is_rigid(a) || !w.bodies.is_rigid(c))
    return w.bodies.motion[a] + w.bodies.motion[c];
  const auto& b = w.bodies;
  const float substeps = float(w.config.substeps), dt = w.timing.last_h * substeps;
  const float rx = b.dx[c] - b.dx[a], ry = b.dy[c] - b.dy[a];
  const float turn =
      std::fabs(b.da[a]) * w.bodies.step_reach[a] + std::fabs(b.da[c]) * w.bodies.step_reach[c];
  // Bodies of one gravity scale (nearly every pair) fall together: no square root for them.
  const float gravity_difference = std::fabs(b.gravity_scale[a] - b.gravity_scale[c]);
  const float fall =
      gravity_difference > 0 ? gravity_difference * length(w.config.gravity) * dt * dt : 0.0f;
  return (std::sqrt(rx * rx + ry * ry) + turn) * substeps + fall;
}

// The margin is the distance the two bodies can close this step (relative_motion), plus the
// slop. Between two dynamic bodies (not bullets) at most the smaller one's size: a body flung at
// 90 m/s (the spinner's bar tip moves at 100 m/s) had a 1.5 m reach, 120 pairs and spilled
// thousands of constraints into the serial overflow colour. Box2D's reach is 2 cm at any speed;
// against fixed bodies the full motion stays (with the continuous pass, that is what keeps fast
// bodies out of walls).
inline PairReach pair_reach(Stores<ReadsConfig, ReadsTiming, ReadsBodies, ReadsParticles> w,
                            std::uint32_t a, std::uint32_t c) {
  const auto& b = w.bodies;
  const float motion = relative_motion(w, a, c);
  const float smaller = std::min(b.extent[a], b.extent[c]);
  float reach = motion;
  const bool dynamic = b.inv_mass[a] > 0 && b.inv_mass[c] > 0;
  if (dynamic && !((b.flags[a] | b.flags[c]) & kBullet)) reach = std::min(reach, smaller);
  return PairReach{reach + w.config.contact_slop, motion > 0.5f * smaller};
}

// Largest number of points collide_pair writes: a manifold's two, plus for fast pairs one per
// vertex against each of its edges.
inline constexpr std::size_t kMaxPointsPerPair = 2 + 2 * 16;
// Whether colliders a and c's boxes are less than `margin` apart on both axes: if not, no point
// of the two shapes is within that margin.
bool boxes_within(const WorldState& w, std::uint32_t a, std::uint32_t c, float margin);
// Manifold of one collider pair, features up to `margin` apart (at least reach.margin, the
// pair_reach of their bodies), as contact points written to out[0..kMaxPointsPerPair) with their
// separations beside them in `separations`; returns the count.
std::size_t collide_pair(const WorldState& w, std::uint32_t a, std::uint32_t c, PairReach reach,
                         float margin, ContactPoint* out, float* separations);
// Contact points of all candidate pairs, in pair order; last step's become the reference for
// warm starting, the contact cache and events.
void narrow_phase(WorldState& w);
// Frees the slots of colliders removed before this step's narrow phase.
void release_retired_colliders(Stores<WritesColliders> w);

// The contact callbacks (strut/contact_callbacks.hpp), run on the stepping thread in pair order.
// The custom filter (custom_filter.cpp): drops from `pairs` (dense colliders, in the broad
// phase's order) those it rejects, asking it about each shape pair not answered at the last
// sweep; the answers of the shape pairs still present are kept for the next sweep
// (CallbackStore::filter_verdicts), the others forgotten. Called while some collider has the flag
// or answers are kept.
void apply_custom_filter(Stores<ReadsBodies, ReadsColliders, WritesCallbacks, WritesScratch> w,
                         std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs);
// Forgets the answers about shape slot `shape`'s pairs (its filter changed, or it was removed:
// a slot reused by a new shape must not inherit them).
void forget_filter_verdicts(WorldState& w, std::uint32_t shape);
// Whether the custom filter rejected dense colliders a and c's shapes at the last sweep.
bool filter_rejected(Stores<ReadsColliders, ReadsCallbacks> w, std::uint32_t a, std::uint32_t c);
// The pre-solve callback (pre_solve.cpp): asks about the rows of the narrow phase's chunks whose
// pair has a flagged collider, in pair order, and drops the rows it disables from their chunks
// (listing their keys in StepScratch::pre_solve_disabled). Returns whether it dropped any.
bool run_pre_solve(WorldState& w, std::span<NarrowChunk> chunks);
// Whether the pre-solve callback disabled dense colliders a and c's contact this step.
bool pre_solve_disabled(Stores<ReadsColliders, ReadsScratch> w, std::uint32_t a, std::uint32_t c);

}  // namespace strut
