// Joint and strut projection (XPBD).
#pragma once

#include "solver/core/stores.hpp"
#include "solver/core/world_state_fwd.hpp"
#include "solver/joints/point_ref.hpp"

namespace strut {

PointRef anchor_ref(const WorldState& w, std::uint32_t body, const BodyAnchor& a);
// Builds the anchor of a world point on a body (rigid: body-local offset; soft: nearest particle).
BodyAnchor make_anchor(const WorldState& w, std::uint32_t body, Vec2 world_point);

// From this many joints on, joints are coloured and solved colour by colour in parallel chunks;
// fewer are solved in creation order (see add_joint_stages).
inline constexpr std::size_t kParallelJoints = 512;

// Colours the joints (once per step, after compaction, once scratch.moving is set).
void colour_joints(Stores<ReadsBodies, WritesJoints, WritesScratch> w);
// Brings the lane groups up to date (strut_batching.hpp), then colours the struts outside them
// and packs each colour into wide groups (once per step, after compaction), when there are
// enough such struts to take the coloured path; otherwise clears the groups.
void colour_struts(Stores<ReadsBodies, ReadsParticles, WritesSoft, WritesScratch> w);
// Appends a substep's struts and joints to a stage list: `iterations` x (struts, joints), the
// strut multipliers reset first.
void add_joint_stages(WorldState& w, std::vector<TaskSystem::Stage>& stages, float h, int phase);
// Appends a substep's velocity passes of joint points (point_motion.hpp): before positions
// integrate (relax false) the warm start and the solve passes; after the projection (relax true)
// the relax passes.
void add_joint_motion_stages(WorldState& w, std::vector<TaskSystem::Stage>& stages, int phase,
                             bool relax);
// Whether this step has joint rows at the velocity level (add_joint_motion_stages adds stages).
inline bool has_joint_motion(const WorldState& w) {
  const PointMotion& m = w.joints.point_motion;
  return m.velocity_groups > 0 || !m.rigid.empty() || m.trees.tree_begin.size() > 1;
}
// Every strut in creation order (scratch.strut_lambda holds the multipliers): the reference the
// lane groups match bit for bit.
void solve_struts(WorldState& w, float h);

}  // namespace strut
