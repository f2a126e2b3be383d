// The collide phase of a step: bounds, pairs, manifolds.
#pragma once

#include "solver/world_impl.hpp"

namespace strut {

// Tight box of one body from its particles (and radius).
Aabb tight_box(const World::Impl& w, std::uint32_t k);
// Tight body boxes (from the particles) and each body's motion bound for this step.
void update_bounds(World::Impl& w, float dt);
// Filters shared by every pair finder: layers, static/kinematic/sleeping, jointed pairs.
bool pair_may_collide(const World::Impl& w, std::uint32_t i, std::uint32_t j);
// Candidate pairs from the sweep-and-prune broad phase (or the reference finder), as dense
// indices (lower slot first), in the broad phase's canonical order.
void find_candidate_pairs(World::Impl& w);
// A body's box for the broad phase: its tight box fattened by half the contact slop (so two
// boxes overlap when their gap is below the slop) and by its motion this step.
Aabb broadphase_box(const World::Impl& w, std::uint32_t k);
// O(n^2) reference pair finder.
void find_pairs_all(World::Impl& w, std::vector<std::pair<std::uint32_t, std::uint32_t>>& out);
// Speculative reach of a pair this step (see collide_phase.cpp).
float pair_margin(const World::Impl& w, std::uint32_t a, std::uint32_t c);
// Largest number of points collide_pair writes: a manifold's two, plus for fast pairs one per
// vertex against each of its edges.
inline constexpr std::size_t kMaxPointsPerPair = 2 + 2 * 16;
// Manifold of one pair as contact points written to out[0..kMaxPointsPerPair); returns the count.
// (The merge in narrow_phase sets each point's pair index.)
std::size_t collide_pair(const World::Impl& w, std::uint32_t a, std::uint32_t b, ContactPoint* out,
                         float extra_margin = 0.0f);
// Contact points of all candidate pairs, in pair order; last step's become the reference for
// warm starting, the contact cache and events.
void narrow_phase(World::Impl& w);

}  // namespace strut
