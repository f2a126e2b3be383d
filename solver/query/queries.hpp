// What the scene queries (queries.cpp) offer the engine's other World functions.
#pragma once

#include <cstdint>
#include <vector>

#include "strut/math.hpp"
#include "strut/world.hpp"

namespace strut {

// Dense indices of the live colliders whose current tight box overlaps `box` and whose category
// meets `mask`, ascending (creation order); through the query index, built at most once a step.
std::vector<std::uint32_t> colliders_in_box(const World::Impl& w, const Aabb& box,
                                            std::uint32_t mask);

}  // namespace strut
