// Velocity passes of joint points (point_motion.hpp). Units as in the contact solver: the state
// stores motion per substep (d = v h), so an impulse here is a position impulse P (N s^2) that
// changes a body's motion by P / m, and the force it stands for is P / h^2.
#include "solver/joints/point_motion.hpp"

#include <algorithm>
#include <iterator>
#include <limits>

#include "solver/core/stores.hpp"
#include "solver/core/task_system.hpp"
#include "solver/joints/joint_ops.hpp"
#include "solver/joints/joint_rows.hpp"
#include "solver/joints/joint_solver.hpp"
#include "solver/joints/joint_store.hpp"
#include "solver/joints/row_motion.hpp"
#include "solver/joints/tree_motion.hpp"
#include "solver/step/step_scratch.hpp"

namespace strut {
namespace {

bool has_point_row(const WorldState& w, const Joint& j) {
  if (!joint_ops(j.type).point_motion || !j.enabled) return false;
  const std::uint32_t a = w.bodies.slots[j.slot_a].dense, b = w.bodies.slots[j.slot_b].dense;
  if ((w.bodies.flags[a] | w.bodies.flags[b]) & kSleeping) return false;
  return w.bodies.is_rigid(a) && w.bodies.is_rigid(b);
}

// Lane `lane` of g: joint k's row with its carried impulse (h2 x its carried force).
void fill_lane(const WorldState& w, PointGroup& g, int lane, std::uint32_t k, float h2) {
  const Joint& j = w.joints.dense[k];
  const std::uint32_t a = w.bodies.slots[j.slot_a].dense, b = w.bodies.slots[j.slot_b].dense;
  g.a[lane] = a, g.b[lane] = b;
  g.ma[lane] = w.bodies.inv_mass[a], g.mb[lane] = w.bodies.inv_mass[b];
  g.ia[lane] = w.bodies.inv_inertia[a], g.ib[lane] = w.bodies.inv_inertia[b];
  g.lax[lane] = j.anchor_a.local.x, g.lay[lane] = j.anchor_a.local.y;
  g.lbx[lane] = j.anchor_b.local.x, g.lby[lane] = j.anchor_b.local.y;
  const Vec2 impulse = h2 * j.carried_force;
  g.px[lane] = impulse.x, g.py[lane] = impulse.y;
  g.joint[lane] = k;
}

// An unused lane: lane 0's bodies (see PointGroup), nothing else. Its arms and effective mass
// are set here, zero as a refresh would make them, because the scalar refresh skips such lanes.
void pad_lane(PointGroup& g, int lane) {
  g.a[lane] = g.a[0], g.b[lane] = g.b[0];
  g.ma[lane] = g.mb[lane] = g.ia[lane] = g.ib[lane] = 0.0f;
  g.lax[lane] = g.lay[lane] = g.lbx[lane] = g.lby[lane] = 0.0f;
  g.rax[lane] = g.ray[lane] = g.rbx[lane] = g.rby[lane] = 0.0f;
  g.k11[lane] = g.k12[lane] = g.k22[lane] = 0.0f;
  g.px[lane] = g.py[lane] = 0.0f;
  g.joint[lane] = kPointPadding;
}

// What a joint projected in lanes restarts every step: what the first iteration of a substep
// would reset (solve_joint). The lanes keep the multipliers, and the reaction comes from the row
// and the angle rows (finish_point_motion).
void restart_projected(Joint& j) {
  std::fill(std::begin(j.lambda), std::end(j.lambda), 0.0f);
  j.lambda_point = {};
  j.reaction_torque = 0;
  j.motor_impulse = 0;
}

// The carried impulses of motor and limit row e (h^2 x its joint's carried torques), within its
// bounds: a setter may have lowered the motor's effort or turned a row off since the last step.
void load_angle_impulses(const Joint& j, AngleMotion& e, float h2) {
  e.impulse[0] = e.motor ? std::clamp(h2 * j.carried_angle[0], -e.motor_bound, e.motor_bound) : 0;
  e.impulse[1] = e.limit ? std::max(h2 * j.carried_angle[1], 0.0f) : 0.0f;
  e.impulse[2] = e.limit ? std::min(h2 * j.carried_angle[2], 0.0f) : 0.0f;
}

// Appends joint k's motor and limit rows (from its angle rows r) when it has either, with the
// impulses carried from the last step (h^2 x its carried torques).
void add_angle_motion(WorldState& w, std::uint32_t k, const AngleRows& r, float h2) {
  if (!r.motor && !r.limit) return;
  const Joint& j = w.joints.dense[k];
  AngleMotion& e = w.joints.point_motion.angle_rows.emplace_back();
  e.a = w.bodies.slots[j.slot_a].dense, e.b = w.bodies.slots[j.slot_b].dense;
  e.joint = k;
  e.ia = w.bodies.inv_inertia[e.a], e.ib = w.bodies.inv_inertia[e.b];
  e.inv_k = e.ia + e.ib > 0 ? 1.0f / (e.ia + e.ib) : 0.0f;
  e.motor = r.motor, e.limit = r.limit;
  e.motor_shift = r.motor_shift, e.motor_bound = r.motor_bound;
  e.lower = r.lower, e.upper = r.upper;
  e.reference = r.reference;
  load_angle_impulses(j, e, h2);
}

// Changes the bodies' turn over the substep by the angle row's impulse dl (fixed bodies are
// never written: a colour's joints may share them).
inline void push_angle(WorldState& w, const AngleMotion& e, float dl) {
  if (e.ia != 0) w.bodies.da[e.a] -= e.ia * dl;
  if (e.ib != 0) w.bodies.da[e.b] += e.ib * dl;
}

// The angle rows of groups [lo, hi): their slack from the poses now, then (warm_start) the
// carried impulses applied.
void refresh_angle_motion(WorldState& w, std::uint32_t lo, std::uint32_t hi, bool warm_start) {
  PointMotion& m = w.joints.point_motion;
  for (std::uint32_t i = m.angle_begin[lo]; i < m.angle_begin[hi]; ++i) {
    AngleMotion& e = m.angle_rows[i];
    if (e.limit) {
      const float angle = joint_angle(w, JointBodies{.a = e.a, .b = e.b}, e.reference);
      e.slack_lower = std::max(angle - e.lower, 0.0f);
      e.slack_upper = std::max(e.upper - angle, 0.0f);
    }
    if (warm_start) push_angle(w, e, e.impulse[0] + e.impulse[1] + e.impulse[2]);
  }
}

// One pass over the angle rows of groups [lo, hi): the motor, then the lower and upper limit.
void solve_angle_motion(WorldState& w, std::uint32_t lo, std::uint32_t hi) {
  PointMotion& m = w.joints.point_motion;
  const float* da = w.bodies.da.data();
  for (std::uint32_t i = m.angle_begin[lo]; i < m.angle_begin[hi]; ++i) {
    AngleMotion& e = m.angle_rows[i];
    // Drives the relative turn over the substep toward `target`, the impulse kept in [lo, hi].
    auto row = [&](float& impulse, float target, float lo_bound, float hi_bound) {
      const float motion = da[e.b] - da[e.a];
      const float next = std::clamp(impulse - (motion - target) * e.inv_k, lo_bound, hi_bound);
      push_angle(w, e, next - impulse);
      impulse = next;
    };
    if (e.motor) row(e.impulse[0], e.motor_shift, -e.motor_bound, e.motor_bound);
    if (e.limit) {
      row(e.impulse[1], -e.slack_lower, 0.0f, kUnbounded);
      row(e.impulse[2], e.slack_upper, -kUnbounded, 0.0f);
    }
  }
}

// A kept packing's values for this step, as a new packing would set them: the impulses carried
// from the last step (fill_lane, add_angle_motion, add_rigid_rows and the trees'), the padding
// lanes, and the restart of the joints projected in lanes.
void load_step_values(WorldState& w, float h) {
  PointMotion& m = w.joints.point_motion;
  const float h2 = h * h;
  load_tree_step_values(w, h);
  for (PointGroup& g : m.groups)
    for (int lane = 0; lane < kWideLanes; ++lane) {
      if (g.joint[lane] == kPointPadding) {
        pad_lane(g, lane);
        continue;
      }
      const Vec2 impulse = h2 * w.joints.dense[g.joint[lane]].carried_force;
      g.px[lane] = impulse.x, g.py[lane] = impulse.y;
    }
  for (AngleMotion& e : m.angle_rows) load_angle_impulses(w.joints.dense[e.joint], e, h2);
  for (RigidRows& e : m.rigid) load_rigid_impulses(w.joints.dense[e.joint], e, h);
  for (const std::uint32_t item : m.items) {
    if (!(item & kProjectGroup)) continue;
    const PointGroup& g = m.groups[item & ~kProjectGroup];
    for (int lane = 0; lane < kWideLanes && g.joint[lane] != kPointPadding; ++lane)
      restart_projected(w.joints.dense[g.joint[lane]]);
  }
}

PointSpans spans(WorldState& w) {
  auto& b = w.bodies;
  return {b.px.data(), b.py.data(), b.qc.data(), b.qs.data(),
          b.dx.data(), b.dy.data(), b.da.data()};
}

}  // namespace

bool joint_packing_kept(Stores<ReadsJoints, ReadsScratch> w) {
  const PointMotion& m = w.joints.point_motion;
  return m.packed_version == w.joints.version &&
         m.packed_moving_version == w.scratch.moving_version &&
         m.packed_joints == w.joints.dense.size();
}

void prepare_point_motion(WorldState& w, float h) {
  constexpr std::uint32_t kJointsAhead = 8;
  PointMotion& m = w.joints.point_motion;
  if (joint_packing_kept(w) && m.packed_h == h) {
    load_step_values(w, h);
    return;
  }
  m.packed_version = w.joints.version;
  m.packed_moving_version = w.scratch.moving_version;
  m.packed_joints = w.joints.dense.size();
  m.packed_h = h;
  m.groups.clear();
  m.velocity_end.clear();
  m.velocity_groups = 0;
  m.begin.assign(kColourCount + 2, 0);
  m.items.clear();
  m.item_begin.assign(kColourCount + 2, 0);
  m.rigid.clear();
  m.rigid_begin.assign(kColourCount + 2, 0);
  m.angle_rows.clear();
  m.angle_begin.clear();
  prepare_tree_motion(w, h);
  const float h2 = h * h;
  // Appends the rows of joints `ids` as whole groups, the last one padded, with their motor and
  // limit rows from `angle_rows` (one per id; a tree's joints have none), and, when `projected`,
  // the projection's angle rows from them too.
  auto pack = [&](const std::vector<std::uint32_t>& ids, const std::vector<AngleRows>& angle_rows,
                  bool projected) {
    constexpr std::size_t lanes = kWideLanes;
    const std::size_t first = m.groups.size();
    m.groups.resize(first + (ids.size() + lanes - 1) / lanes);
    m.angles.resize(m.groups.size());
    for (std::size_t g = first; g < m.groups.size(); ++g) m.angles[g] = AngleGroup{};
    for (std::size_t k = 0; k < (m.groups.size() - first) * lanes; ++k) {
      PointGroup& g = m.groups[first + k / lanes];
      if (k % lanes == 0) m.angle_begin.push_back(std::uint32_t(m.angle_rows.size()));
      if (k < ids.size()) {
        fill_lane(w, g, int(k % lanes), ids[k], h2);
        if (projected) fill_angle_lane(m.angles[first + k / lanes], int(k % lanes), angle_rows[k]);
        add_angle_motion(w, ids[k], angle_rows[k], h2);
      } else {
        pad_lane(g, int(k % lanes));
      }
    }
  };
  // A colour's joints: those whose point is projected in lanes, the rest (solved by their type,
  // in colour order), and the rows among the rest.
  std::vector<std::uint32_t>& projected = m.projected;
  std::vector<std::uint32_t>& typed = m.typed;
  std::vector<std::uint32_t>& rows = m.rows;
  std::vector<AngleRows>& projected_rows = m.projected_rows;
  std::vector<AngleRows>& typed_rows = m.typed_rows;
  std::vector<std::uint32_t>& tree_projected = m.tree_projected;
  std::vector<AngleRows>& tree_projected_rows = m.tree_projected_rows;
  const std::vector<std::uint8_t>& in_tree = m.trees.in_tree;
  auto take = [&](std::uint32_t k, bool lanes_may_project) {
    Joint& j = w.joints.dense[k];
    // A tree's joint: its velocity rows are solved with its tree's (tree_motion.hpp); it is
    // projected as the others are.
    const bool tree = !in_tree.empty() && in_tree[k];
    if (!tree && !has_point_row(w, j)) {
      j.carried_force = {};
      std::fill(std::begin(j.carried_angle), std::end(j.carried_angle), 0.0f);
      if (!add_rigid_rows(w, k, h))
        std::fill(std::begin(j.carried_rows), std::end(j.carried_rows), 0.0f);
      typed.push_back(k);
      return;
    }
    const auto lane_rows = joint_ops(j.type).lane_rows;
    AngleRows angle_rows;
    const bool has_lane_rows = lane_rows && lane_rows(j, h, angle_rows);
    if (lanes_may_project && has_lane_rows) {
      (tree ? tree_projected : projected).push_back(k);
      (tree ? tree_projected_rows : projected_rows).push_back(angle_rows);
      restart_projected(j);
      return;
    }
    if (!tree) {
      rows.push_back(k);
      typed_rows.push_back(has_lane_rows ? angle_rows : AngleRows{});
    }
    typed.push_back(k);
  };
  // The joints are coloured (colour_joints) from kParallelJoints on; fewer are solved serially
  // in creation order, as the overflow colour is, and project their points themselves. Within a
  // colour the order is free (no two joints share a movable body): the lanes' rows come first.
  // Uncoloured, every colour but the overflow one is empty (begin, rigid_begin and item_begin
  // stay 0 for them).
  const bool coloured = w.joints.dense.size() >= kParallelJoints;
  for (int colour = coloured ? 0 : kOverflowColour; colour <= kOverflowColour; ++colour) {
    projected.clear(), typed.clear(), rows.clear(), projected_rows.clear(), typed_rows.clear();
    tree_projected.clear(), tree_projected_rows.clear();
    const auto rigid_before = std::uint32_t(m.rigid.size());
    if (coloured) {
      const Colouring& c = w.joints.colours;
      const std::uint32_t end = c.begin[std::size_t(colour) + 1];
      for (std::uint32_t i = c.begin[std::size_t(colour)]; i < end; ++i) {
        // The colour's joints lie all over the joint array, each a few cache lines that take()
        // reads in full: asked for kJointsAhead joints before they are needed.
        if (i + kJointsAhead < end) {
          const char* ahead =
              reinterpret_cast<const char*>(&w.joints.dense[c.order[i + kJointsAhead]]);
          for (std::size_t line = 0; line < sizeof(Joint); line += 64)
            __builtin_prefetch(ahead + line, 1);
        }
        take(c.order[i], colour != kOverflowColour);
      }
    } else if (colour == kOverflowColour) {
      for (std::uint32_t k = 0; k < w.joints.dense.size(); ++k) take(k, false);
    }
    // The projection's items: the lanes' groups, then the joints their types solve.
    m.begin[std::size_t(colour)] = std::uint32_t(m.groups.size());
    m.rigid_begin[std::size_t(colour)] = rigid_before;
    m.item_begin[std::size_t(colour)] = std::uint32_t(m.items.size());
    pack(projected, projected_rows, true);
    for (std::uint32_t g = m.begin[std::size_t(colour)]; g < m.groups.size(); ++g)
      m.items.push_back(kProjectGroup | g);
    m.items.insert(m.items.end(), typed.begin(), typed.end());
    pack(rows, typed_rows, false);
    // The tree joints projected in lanes last: their groups end the colour, past velocity_end.
    const auto velocity_end = std::uint32_t(m.groups.size());
    m.velocity_groups += velocity_end - m.begin[std::size_t(colour)];
    pack(tree_projected, tree_projected_rows, true);
    for (std::uint32_t g = velocity_end; g < m.groups.size(); ++g)
      m.items.push_back(kProjectGroup | g);
    m.velocity_end.resize(m.groups.size(), velocity_end);
  }
  m.angle_begin.push_back(std::uint32_t(m.angle_rows.size()));
  m.begin[kOverflowColour + 1] = std::uint32_t(m.groups.size());
  m.rigid_begin[kOverflowColour + 1] = std::uint32_t(m.rigid.size());
  m.item_begin[kOverflowColour + 1] = std::uint32_t(m.items.size());
}

void refresh_point_motion(WorldState& w, std::uint32_t lo, std::uint32_t hi, bool warm_start,
                          bool overflow) {
  // A colour's tree groups get no warm start (their trees apply the carried impulses); their
  // arms and masses may be refreshed with the others' (the relax refreshes all groups at once).
  if (warm_start) hi = std::min(hi, w.joints.point_motion.velocity_end[lo]);
  if (lo >= hi) return;
  // Without the warm start nothing but the groups is written: any group may go wide. One group
  // with half its lanes or fewer in use (a small world's few joints) goes lane by lane, which
  // stops at its last used lane, where the registers gather and refresh all 16 (same bits).
  PointGroup* groups = w.joints.point_motion.groups.data();
  const bool few_lanes = hi == lo + 1 && groups[lo].joint[kWideLanes / 2] == kPointPadding;
  if ((overflow && warm_start) || few_lanes)
    refresh_point_groups_scalar(spans(w), groups, lo, hi, warm_start);
  else
    refresh_point_groups_wide(spans(w), groups, lo, hi, warm_start);
  refresh_angle_motion(w, lo, hi, warm_start);
}

float solve_point_motion(WorldState& w, std::uint32_t lo, std::uint32_t hi, bool overflow,
                         bool angle_rows) {
  hi = std::min(hi, w.joints.point_motion.velocity_end[lo]);
  if (lo >= hi) return 0.0f;
  if (angle_rows) solve_angle_motion(w, lo, hi);
  if (overflow)
    return solve_point_groups_scalar(spans(w), w.joints.point_motion.groups.data(), lo, hi);
  solve_point_groups_wide(spans(w), w.joints.point_motion.groups.data(), lo, hi);
  return std::numeric_limits<float>::infinity();
}

bool serial_points_only(const WorldState& w) {
  const PointMotion& m = w.joints.point_motion;
  return m.velocity_groups > 0 && m.rigid.empty() && m.trees.tree_begin.size() <= 1 &&
         m.begin[0] == m.begin[kOverflowColour];
}

void run_serial_point_passes(WorldState& w, bool relax) {
  PointMotion& m = w.joints.point_motion;
  // Uncoloured, no group is a tree's: the serial colour's groups all have velocity rows.
  const std::uint32_t lo = m.begin[kOverflowColour], hi = m.begin[kOverflowColour + 1];
  // The warm start as refresh_point_motion runs it for the serial colour; the relax's refresh
  // (all groups, any may go wide) takes the same kernel for them.
  refresh_point_motion(w, lo, hi, !relax, true);
  const PointSpans s = spans(w);
  PointGroup* groups = m.groups.data();
  const int passes = w.config.joint_passes;
  float previous = std::numeric_limits<float>::infinity();
  bool converged = false;
  for (int i = 0; i < passes; ++i) {
    const bool last = converged || i + 1 == passes;
    if (last) solve_angle_motion(w, lo, hi);
    // As joint_motion_passes takes it: the largest of the pass's colours, from 0.
    const float largest = std::max(0.0f, solve_point_groups_scalar(s, groups, lo, hi));
    if (last) break;
    converged = joint_passes_converged(largest, previous);
    previous = largest;
  }
}

void project_point_motion(WorldState& w, std::uint32_t lo, std::uint32_t hi, bool first) {
  PointMotion& m = w.joints.point_motion;
  project_point_groups_wide(spans(w), m.groups.data(), m.angles.data(), lo, hi, first);
}

void finish_point_motion(Stores<RunsTasks, WritesJoints> w, float h) {
  finish_rigid_rows(w, h);
  const float inv_h2 = 1.0f / (h * h);
  auto& groups = w.joints.point_motion.groups;
  w.tasks.parallel_for(int(groups.size()), 4096 / kWideLanes, [&](int lo, int hi, int) {
    for (int k = lo; k < hi; ++k) {
      const PointGroup& g = groups[std::size_t(k)];
      const AngleGroup& r = w.joints.point_motion.angles[std::size_t(k)];
      for (int i = 0; i < kWideLanes; ++i) {
        if (g.joint[i] == kPointPadding) continue;
        Joint& j = w.joints.dense[g.joint[i]];
        const Vec2 impulse{g.px[i], g.py[i]};
        j.carried_force = inv_h2 * impulse;
        j.reaction_force = impulse;
        if (!r.any) continue;
        j.reaction_torque = r.torque[i];
        j.lambda[0] = r.lambda_spring[i];
        j.lambda[2] = r.lambda_lower[i], j.lambda[3] = r.lambda_upper[i];
      }
    }
  });
  // The motor and limit rows: their carried torques, and their impulses added to the reaction
  // (after the projection's, which the loop above or the type's solve left).
  auto& angle_rows = w.joints.point_motion.angle_rows;
  w.tasks.parallel_for(int(angle_rows.size()), 512, [&](int lo, int hi, int) {
    for (int k = lo; k < hi; ++k) {
      const AngleMotion& e = angle_rows[std::size_t(k)];
      Joint& j = w.joints.dense[e.joint];
      for (int r = 0; r < 3; ++r) j.carried_angle[r] = inv_h2 * e.impulse[r];
      j.motor_impulse = e.impulse[0];
      j.reaction_torque += (e.impulse[0] + e.impulse[1]) + e.impulse[2];
    }
  });
  finish_tree_motion(w, h);
}

}  // namespace strut
