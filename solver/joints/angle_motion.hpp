// The velocity passes' motor and limit rows of revolute joints (AngleMotion, solver/joint.hpp),
// for the joints in lane groups (point_motion.cpp).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "solver/joint.hpp"
#include "strut/world.hpp"  // World::Impl, declared

namespace strut {

// Appends joint k's motor and limit rows (from its angle rows r) to `out` when it has either,
// with the impulses carried from the last step (h2 x its carried torques).
void add_angle_motion(const World::Impl& w, std::vector<AngleMotion>& out, std::uint32_t k,
                      const AngleRows& r, float h2);
// The rows' slack from the poses now, then (warm_start) their carried impulses applied.
void refresh_angle_motion(World::Impl& w, std::span<AngleMotion> rows, bool warm_start);
// One pass over the rows: the motor, then the lower and upper limit.
void solve_angle_motion(World::Impl& w, std::span<AngleMotion> rows);
// After the substeps: the rows' carried torques, and their impulses added to the reaction.
void finish_angle_motion(World::Impl& w, std::span<const AngleMotion> rows, float h);

}  // namespace strut
