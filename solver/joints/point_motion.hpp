// The velocity passes of joint points (revolute joints between rigid bodies), which carry a
// joint's load from substep to substep as Box2D's soft step carries contact impulses. The
// position projection (the type's `solve`) alone restarts from zero every substep, so in a long
// hanging chain Gauss-Seidel passes the weight up one joint per pass and the joints stretch:
// joint_grid opened a pin to 1.31 m. Per substep:
//   warm start   (before positions integrate, after the contacts' warm start: world_step.cpp)
//                the carried impulse applied again;
//   solve        WorldConfig::joint_passes passes driving the anchors' relative motion to zero;
//   projection   the type's solve puts the anchors back together (positions and motion), or
//                the same in lanes (point_lanes.hpp) for a revolute joint, with its angle rows;
//   relax        as many passes removing the relative motion the projection left.
// The carried impulse is what the solve and relax passes add up to; the projection's own
// impulse stays out of it (a one-off correction, not a load: carrying it diverged, 3342 m).
// A revolute joint's motor and limits are held in the last solve and relax pass, before its
// point, with impulses carried likewise (AngleMotion in solver/joints/joint.hpp; the projection
// keeps the limits and the spring). The rows are packed colour by colour into groups of kWideLanes
// and solved in SIMD lanes (point_lanes.hpp). The rows other joint types hold rigidly (weld,
// prismatic, wheel) are gathered in the same colour order and solved in the same passes
// (row_motion.hpp).
#pragma once

#include "solver/core/stores.hpp"
#include "solver/world_state.hpp"

namespace strut {

// Passes of the velocity solve and of the relax per substep: WorldConfig::joint_passes each,
// 8 by default: the fewest equal counts that keep joint_grid's widest gap under 0.1 m; uneven
// counts buy less, and more projection passes nothing. In SIMD lanes, with the pins' position
// projection in lanes too, 8 passes cost about what one scalar pass would (figures in
// docs/architecture.md).

// Fewest groups in a chunk of a colour stage (about 256 rows): smaller chunks cost more to hand
// out than they take to solve.
inline constexpr int kPointGroupGrain = 256 / kWideLanes;

// Packs the point rows of the awake, enabled joints whose type has them into groups, in the
// joint colouring's order (once per step, after colour_joints), each with its carried impulse;
// likewise the other types' rigid rows (add_rigid_rows).
// Kept from step to step while nothing it depends on changed (joint_packing_kept, and the same
// substep length): then only the carried impulses are loaded again.
void prepare_point_motion(WorldState& w, float h);
// Whether the last packing still holds, the substep length aside: JointStore::version, the
// movable flags and the joint count are what they were when it was made.
bool joint_packing_kept(Stores<ReadsJoints, ReadsScratch> w);
// Groups [lo, hi) of one colour: arms and effective masses (and the limit rows' slack) from the
// poses now, then the carried impulses applied (warm start), or only the arms, masses and slack
// (before the relax passes).
// overflow: the groups' lanes may share a body.
void refresh_point_motion(WorldState& w, std::uint32_t lo, std::uint32_t hi, bool warm_start,
                          bool overflow);
// One pass over groups [lo, hi) of one colour: the anchors' relative motion over the substep
// driven to zero, after the groups' motor and limit rows when angle_rows (AngleMotion).
// Returns the largest anchor motion the pass met (solve_point_groups_scalar) in the overflow
// colour, whose lanes run one after the other, and infinity in the others (their SIMD kernels do
// not measure it).
float solve_point_motion(WorldState& w, std::uint32_t lo, std::uint32_t hi, bool overflow,
                         bool angle_rows);
// The position projection of groups [lo, hi) of one colour (kProjectGroup items): the points and
// the angle rows; first: the substep's first iteration.
void project_point_motion(WorldState& w, std::uint32_t lo, std::uint32_t hi, bool first);
// A pass whose largest row motion (solve_point_motion, solve_rigid_rows; metres or radians over
// the substep) is 0, or at most this and no smaller than the pass before's, has converged to the
// floats' round-off: the passes after it would leave the bodies' motion as it is, and the last
// pass (with the motor and limit rows) follows at once. A lander's two leg joints (the small-world
// probe) reach it after 2 or 3 of the 8 passes: largest motion 5e-7 m, then 3e-9, then 0 or the
// same 1.9e-9 again. 1e-7 m over a 240 Hz substep is 2.4e-5 m/s, and the round-off of a motion d
// stays below it up to about 300 m/s. Stopping there saves a small world many of its joint
// passes; a looser rule (at most 1e-8 m or stalled below 1e-7 m) saves more (figures in
// docs/architecture.md).
inline constexpr float kConvergedJointMotion = 1e-7f;
// Whether the passes have converged after one whose largest row motion is `largest`, the one
// before's `previous` (infinity before the first).
inline bool joint_passes_converged(float largest, float previous) {
  return largest == 0 || (largest <= kConvergedJointMotion && largest >= previous);
}
// Whether the velocity rows are point rows alone, all in the serial colour (fewer than
// kParallelJoints joints): no rigid rows, no trees.
bool serial_points_only(const WorldState& w);
// A substep's velocity passes when serial_points_only (a small world's joints: add_joint_motion_
// stages): the warm start and the solve passes (relax false) or the relax passes, in the order
// and with the convergence test of joint_motion_passes (joint_solver.cpp), as one loop that takes
// the bodies' columns and the groups' range once rather than once a pass.
void run_serial_point_passes(WorldState& w, bool relax);
// After the substeps: each joint's carried force and reaction from its row (and from its rigid
// rows: finish_rigid_rows).
void finish_point_motion(Stores<RunsTasks, WritesJoints> w, float h);

}  // namespace strut
