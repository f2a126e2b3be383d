// The velocity passes of joint points (revolute joints between rigid bodies), which carry a
// joint's load from substep to substep as Box2D's soft step carries contact impulses. The
// position projection (the type's `solve`) alone restarts from zero every substep, so in a long
// hanging chain Gauss-Seidel passes the weight up one joint per pass and the joints stretch:
// joint_grid opened a pin to 1.31 m. Per substep:
//   warm start   (before positions integrate) the carried impulse applied again;
//   solve        WorldConfig::joint_passes passes driving the anchors' relative motion to zero;
//   projection   the type's solve puts the anchors back together (positions and motion);
//   relax        as many passes removing the relative motion the projection left.
// The carried impulse is what the solve and relax passes add up to; the projection's own
// impulse stays out of it (a one-off correction, not a load: carrying it diverged, 3342 m).
#pragma once

#include "solver/world_impl.hpp"

namespace strut {

// Passes of the velocity solve and of the relax per substep: WorldConfig::joint_passes each.
// joint_grid's widest gap after 500 steps (4 substeps), solve x relax passes: 1 x 1 0.405 m,
// 2 x 2 0.284 m, 4 x 4 0.158 m, 8 x 8 0.089 m; four projection passes instead of one changed
// 4 x 4 by nothing (0.158 m). Cost (callgrind, AVX2 build, 20 steps of joint_grid): 1.11 G
// instructions with no velocity passes, 3.77 G with 8 x 8, about 0.15 G a pass. The default of 1
// keeps joint_grid faster than Box2D v3 with a gap below Box2D's 0.42 m; 2 passes made it slower
// (8.8 against Box2D's 8.2 ms a step at 1 thread, bench/compare_box2d.sh, 2026-11-24). The passes are scalar:
// kWideLanes rows at a time would pay here (62 % of joint_grid's instructions at 8 x 8).

// Packs the point rows of the awake, enabled joints whose type has them, in the joint
// colouring's order (once per step, after colour_joints), each with its carried impulse.
void prepare_point_motion(World::Impl& w, float h);
// Rows [lo, hi): arms and effective masses from the poses now, then the carried impulse
// applied (warm start), or only the arms and masses (before the relax passes).
void refresh_point_rows(World::Impl& w, std::uint32_t lo, std::uint32_t hi, bool warm_start);
// One pass over rows [lo, hi): the anchors' relative motion over the substep driven to zero.
void solve_point_rows(World::Impl& w, std::uint32_t lo, std::uint32_t hi);
// After the substeps: each joint's carried force and reaction from its row.
void finish_point_motion(World::Impl& w, float h);

}  // namespace strut
