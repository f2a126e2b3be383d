// Adding bodies to the dense arrays and removing destroyed ones.
#pragma once

#include "solver/world_impl.hpp"

namespace strut {

// Appends a validated body; returns its dense index.
std::uint32_t add_body(World::Impl& w, const BodyDef& def, std::uint32_t slot);

// Stable removal of bodies flagged kDead (creation order of the survivors is kept).
void compact_bodies(World::Impl& w);

}  // namespace strut
