// Islands that fell asleep (part of the world's state, solver/world_state.hpp).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace strut {

// Islands that fell asleep.
struct IslandStore {
  // The slots of the bodies that fell asleep in each sleeping island (by its root slot), so that
  // waking an island visits its own bodies; some may have been destroyed or moved to an island
  // of their own since, and are skipped.
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> sleepers;
};

}  // namespace strut
