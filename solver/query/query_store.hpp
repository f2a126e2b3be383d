// The queries' indexes (part of the world's state, solver/world_state.hpp).
#pragma once

#include "solver/query/query_index.hpp"

namespace strut {

// Queries (queries.cpp): rebuilt when step_index or BodyStore::edits changed since built.
struct QueryStore {
  mutable QueryIndex index;
  // Static colliders only, for the continuous pass (continuous.cpp), built for BodyStore::edits.
  QueryIndex static_index;
};

}  // namespace strut
