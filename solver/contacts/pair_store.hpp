// The broad phase and the pairs it finds (part of the world's state, solver/world_state.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "broadphase/sweep_and_prune.hpp"

namespace strut {

// The broad phase and the pairs it finds.
struct PairStore {
  std::vector<std::uint64_t> ignored;  // sorted slot-pair keys of non-colliding joints
  bool ignored_dirty = true;
  broadphase::SweepAndPrune broadphase;  // proxies keyed by collider slot
  std::vector<broadphase::Pair> broadphase_pairs;
  std::size_t cached = 0;  // pairs of the last narrow phase that reused their features
  // Dense collider pairs, lower first, that may touch this step (no sensors).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> candidates;
  // Dense collider pairs (sensor, visitor) whose boxes overlap this step.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> sensor_candidates;
  // Pairs of the enlarged boxes last swept (find_candidate_pairs), dense, lower first, and the
  // broad phase's version then: kept while every awake body stays inside its enlarged box.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> enlarged;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> enlarged_sensor;  // sensor first
  std::uint64_t enlarged_version = ~std::uint64_t{0};
  std::size_t sweeps = 0;  // steps whose broad phase swept (tests, profiling)
};

}  // namespace strut
