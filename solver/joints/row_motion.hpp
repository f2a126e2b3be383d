// Velocity passes of the rows a weld, prismatic or wheel joint holds rigidly (the weld's point
// and angle, the prismatic's row off its axis and its angle, the wheel's row off its axis): the
// scalar counterpart of the revolute points' passes (point_motion.hpp), in the same stages.
// Projected alone, these rows restarted from zero every substep, so a load passed along a
// welded chain one joint per iteration and a cantilever of 10 welded boxes sagged with the
// iteration and substep counts (figures in tests/rigid_rows_test.cpp). Per substep:
//   warm start   (before positions integrate) the rows refreshed at the poses now and the
//                carried impulse applied again;
//   solve        WorldConfig::joint_passes passes driving the rows' motion over the substep to
//                zero, each row block solved together through the inverse of its mass matrix;
//   projection   the type's solve corrects the rows' positions (its impulse a one-off
//                correction, not a load: it stays out of the carried impulse and the reaction);
//   relax        the rows refreshed, and as many passes removing the motion the projection left.
// The carried impulse, which the joint's reaction force and torque are read back from, is what
// the warm start, solve and relax passes add up to.
// With the passes a weld costs several times what the projection alone does, mostly in the
// passes' motion pushes and the refreshes' inversions: a scalar loop over 1 to 3 rows per joint,
// not in SIMD lanes.
#pragma once

#include "solver/core/stores.hpp"
#include "solver/world_state.hpp"

namespace strut {

// Fewest entries in a chunk of a colour stage (a joint's pass is a few dozen operations).
inline constexpr int kRigidRowGrain = 64;

// Appends joint k's rigid rows to w.joints.point_motion.rigid with their carried impulses (h^2 x
// the forces carried from the last step), when it has any this step (its type holds rows rigidly,
// and it is enabled, awake and between rigid bodies); false when not.
bool add_rigid_rows(WorldState& w, std::uint32_t k, float h);
// e's carried impulses: h^2 x its joint j's carried forces.
void load_rigid_impulses(const Joint& j, RigidRows& e, float h);
// Entries [lo, hi) of one colour: rows and inverse mass matrices from the poses now, then, when
// warm_start, the carried impulses applied (which writes the bodies' motion).
void refresh_rigid_rows(WorldState& w, std::uint32_t lo, std::uint32_t hi, bool warm_start);
// One pass over entries [lo, hi) of one colour: each joint's rigid rows' motion driven to zero,
// and a spring's row (not in the relax passes) to its implicit spring-damper's impulse.
// Returns the largest row motion it met (before the corrections; metres, or radians for an
// angle row; for a spring, the motion its correction made), which tells the passes when they
// have converged (joint_motion_passes).
float solve_rigid_rows(WorldState& w, std::uint32_t lo, std::uint32_t hi, bool relax);
// After the substeps: each joint's carried forces, and their reaction added to the joint's.
void finish_rigid_rows(Stores<RunsTasks, WritesJoints> w, float h);

}  // namespace strut
