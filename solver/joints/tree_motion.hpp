// Velocity passes of joint points solved exactly where the joints form trees. Gauss-Seidel passes
// (point_motion.hpp) carry a load along a chain one joint per pass: a rope of 20 light links
// holding a 9,000:1 box stretched 1.83 m in 3 s at 8 passes (tools/robustness, heavy_rope), a
// ball and chain of 670:1 0.63 m. A set of revolute joints whose bodies form a tree (no loop
// through movable bodies: a rope, a chain pinned at both ends, a bridge of planks) has a
// system J W J^T l = -J d whose elimination in leaf-to-root order fills in nothing, so it is
// solved exactly in time linear in the joints (Baraff, "Linear-time dynamics using Lagrange
// multipliers", 1996, in the joints-only form): eliminating a joint that is alone on one of its
// bodies (its leaf side) changes only the inverse mass its other body (its parent side) shows the
// joints left, W_p -= W_p J_p^T A^-1 J_p W_p, the articulated inverse mass.
// Per substep, in the stages of the other joints' passes (joint_solver.cpp):
//   warm start   the factors from the poses now, and the carried impulses applied again;
//   solve        one exact solve, in the last pass (the passes before it have nothing to do);
//   projection   the type's solve (as for any joint);
//   relax        the factors from the poses after the projection, one exact solve.
// A joint set with a loop through movable bodies (joint_grid), mixed with other joint types on
// its bodies, or with a motor or limit (a ragdoll, a lander's legs: see has_motor_or_limit),
// stays with the Gauss-Seidel passes.
#pragma once

#include <cstdint>

#include "solver/core/stores.hpp"
#include "solver/core/world_state_fwd.hpp"
#include "strut/world.hpp"  // WorldState, declared

namespace strut {

// Fewest trees in a chunk of a stage (a tree's solve is a few dozen operations a joint).
inline constexpr int kTreeGrain = 16;

// Finds the trees among the awake, enabled revolute joints without motor or limit between rigid
// bodies, marks their joints (w.joints.point_motion.trees.in_tree) and lays out their elimination
// order and their bodies, with the impulses carried from the last step. Called at the start of
// prepare_point_motion, which leaves the marked joints' velocity rows to the trees.
void prepare_tree_motion(WorldState& w, float h);
// The trees' values of this step (prepare_tree_motion's last part, all a kept packing redoes):
// each joint's carried impulse and anchors, each body's inverse masses.
void load_tree_step_values(WorldState& w, float h);
// Trees [lo, hi): the factors from the poses now, then, when warm_start, the carried impulses
// applied to the bodies' motion.
void refresh_tree_motion(WorldState& w, std::uint32_t lo, std::uint32_t hi, bool warm_start);
// One exact solve of trees [lo, hi).
void solve_tree_motion(WorldState& w, std::uint32_t lo, std::uint32_t hi);
// After the substeps: each tree joint's carried force and reaction.
void finish_tree_motion(Stores<WritesJoints> w, float h);

}  // namespace strut
