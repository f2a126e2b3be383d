// Joints are constraints between material points of two bodies (point_ref.hpp), solved by XPBD
// projection, each type by its own file in solver/joints/; here: anchors, colouring and the
// stages of the substep that solve joints and struts.
#include "solver/joints/joint_solver.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <type_traits>
#include <utility>

#include "solver/bodies/body_store.hpp"
#include "solver/colouring/colour_stages.hpp"
#include "solver/core/stores.hpp"
#include "solver/joints/joint_ops.hpp"
#include "solver/joints/joint_store.hpp"
#include "solver/joints/point_motion.hpp"
#include "solver/joints/row_motion.hpp"
#include "solver/joints/tree_motion.hpp"
#include "solver/soft/soft_store.hpp"
#include "solver/soft/strut_batching.hpp"
#include "solver/step/step_scratch.hpp"

namespace strut {

PointRef anchor_ref(const WorldState& w, std::uint32_t body, const BodyAnchor& a) {
  PointRef p;
  p.body = body;
  p.rigid = w.bodies.is_rigid(body);
  p.local = a.local;
  p.i1 = p.i2 = w.bodies.particle_begin[body] + a.particle;
  return p;
}

BodyAnchor make_anchor(const WorldState& w, std::uint32_t body, Vec2 world_point) {
  BodyAnchor a;
  const auto& b = w.bodies;
  if (w.bodies.is_rigid(body)) {
    a.local = inv_rotate(Rot{b.qc[body], b.qs[body]}, world_point - Vec2{b.px[body], b.py[body]});
    return a;
  }
  float best = 1e30f;
  for (std::uint32_t i = 0; i < b.particle_count[body]; ++i) {
    const std::uint32_t k = b.particle_begin[body] + i;
    const Vec2 d = Vec2{w.particles.x[k], w.particles.y[k]} - world_point;
    if (dot(d, d) < best) {
      best = dot(d, d);
      a.particle = i;
    }
  }
  return a;
}

namespace {

// One iteration of a joint; the first of a substep restarts its multipliers and reaction.
void solve_joint(WorldState& w, Joint& j, float h, bool first) {
  if (!j.enabled) return;
  const std::uint32_t ba = w.bodies.slots[j.slot_a].dense, bb = w.bodies.slots[j.slot_b].dense;
  if ((w.bodies.flags[ba] | w.bodies.flags[bb]) & kSleeping) return;
  if (first) {
    std::fill(std::begin(j.lambda), std::end(j.lambda), 0.0f);
    j.lambda_point = {};
    j.reaction_force = {};
    j.reaction_torque = 0;
    j.motor_impulse = 0;
  }
  joint_ops(j.type).solve(w, j, ba, bb, h);
}

}  // namespace

void colour_joints(Stores<ReadsBodies, WritesJoints, WritesScratch> w) {
  if (w.joints.dense.size() < kParallelJoints || joint_packing_kept(w)) return;
  auto& s = w.scratch;
  const std::size_t n = w.joints.dense.size();
  // The colouring is a function of the joints' bodies (joint_a, joint_b keep last step's) and
  // the movable flags: kept while neither changed, so a large steady joint set (joint_grid) is
  // not coloured afresh every step. While the packing is kept (above), neither can have.
  bool same = s.moving_version == s.joints_coloured_moving_version &&
              w.joints.colours.colour_of.size() == n && s.joint_a.size() == n;
  s.joint_a.resize(n), s.joint_b.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t a = w.bodies.slots[w.joints.dense[i].slot_a].dense;
    const std::uint32_t b = w.bodies.slots[w.joints.dense[i].slot_b].dense;
    same = same && s.joint_a[i] == a && s.joint_b[i] == b;
    s.joint_a[i] = a, s.joint_b[i] = b;
  }
  if (same) return;
  colour_constraints(s.joint_a, s.joint_b, s.moving, w.bodies.size(), w.joints.colours);
  s.joints_coloured_moving_version = s.moving_version;
}

namespace {

// Struts outside lane groups (strut_lanes.hpp), from this many on, are coloured and solved colour
// by colour (SIMD lanes, parallel chunks); fewer keep the creation-order loop. Creation order
// is plain Gauss-Seidel, which for joints carries a correction along a
// chain faster than colour order (see add_joint_stages); soft bodies' struts are mostly short
// per-body cycles, where the two orders measured alike (a hanging chain of 40 soft links: 1.90%
// worst strut error either way), but below a few hundred struts a colour fills too few SIMD
// groups and chunks to pay for the colouring and the extra stages.
constexpr std::size_t kColouredStruts = 256;
// Fewest strut groups (kWideLanes struts each) in a chunk of a colour stage: smaller chunks cost
// more to hand out than they take to solve.
constexpr int kStrutGroupGrain = 8;
// Fewest lane groups in a chunk of the lane stage (a group of soft boxes is 128 struts).
constexpr int kLaneGroupGrain = 2;

bool coloured_struts(Stores<ReadsSoft> w) { return w.soft.lanes.other_count >= kColouredStruts; }

// The creation-order projection of strut k (solve_struts' loop body).
inline void project_strut(WorldState& w, std::size_t k, float inv_h2) {
  auto& q = w.particles;
  auto& lambdas = w.scratch.strut_lambda;
  const Strut& s = w.soft.struts[k];
  const float dx = q.x[s.b] - q.x[s.a], dy = q.y[s.b] - q.y[s.a];
  const float len = std::sqrt(dx * dx + dy * dy);
  if (len < 1e-9f) return;
  const float wsum = q.w[s.a] + q.w[s.b] + s.compliance * inv_h2;
  if (wsum <= 0) return;
  // XPBD: the accumulated multiplier makes the compliance mean the same stiffness at any
  // iteration count (without it, more iterations make a soft body stiffer).
  const float alpha = s.compliance * inv_h2;
  const float dl = (-(len - s.rest) - alpha * lambdas[k]) / wsum;
  lambdas[k] += dl;
  const float lambda = dl / len;
  // Corrections move the particles and so their motion over this substep.
  const float ax = q.w[s.a] * lambda * dx, ay = q.w[s.a] * lambda * dy;
  const float bx = q.w[s.b] * lambda * dx, by = q.w[s.b] * lambda * dy;
  q.x[s.a] -= ax, q.y[s.a] -= ay, q.dx[s.a] -= ax, q.dy[s.a] -= ay;
  q.x[s.b] += bx, q.y[s.b] += by, q.dx[s.b] += bx, q.dy[s.b] += by;
}

// The struts outside lane groups in creation order (all of them when there are none).
void solve_other_struts(WorldState& w, float h) {
  const float inv_h2 = 1.0f / (h * h);
  for (const StrutRun& r : w.soft.lanes.other)
    for (std::size_t k = r.begin; k < r.end; ++k) project_strut(w, k, inv_h2);
}

// Lane groups [lo, hi), SIMD or the scalar twin (the same bits; see kMinWideBodies).
void solve_lane_groups(WorldState& w, int lo, int hi, float inv_h2) {
  auto& q = w.particles;
  StrutLanes& L = w.soft.lanes;
  const StrutSpans p{q.x.data(), q.y.data(), q.dx.data(), q.dy.data(), q.w.data()};
  for (int i = lo; i < hi; ++i) {
    const LaneGroup& g = L.groups[std::size_t(i)];
    const LaneTopology& t = L.topologies[g.topology];
    const LaneShape shape{t.slots, {L.ends.data() + t.end_begin, t.strut_count}};
    LaneStrut* rows = L.rows.data() + g.strut_row;
    if (g.lanes < kMinWideBodies)
      solve_lane_group_scalar(p, shape, g, rows, inv_h2);
    else
      solve_lane_group_wide(p, shape, g, rows, inv_h2);
  }
}

}  // namespace

void colour_struts(Stores<ReadsBodies, ReadsParticles, WritesSoft, WritesScratch> w) {
  update_strut_lanes(w);
  w.soft.groups.clear();
  w.soft.group_begin.clear();
  if (!coloured_struts(w)) return;
  auto& s = w.scratch;
  // The struts outside lane groups, in creation order: colour input index i is strut ids[i].
  s.strut_ids.clear();
  for (const StrutRun& r : w.soft.lanes.other)
    for (std::uint32_t k = r.begin; k < r.end; ++k) s.strut_ids.push_back(k);
  const std::size_t n = s.strut_ids.size();
  s.strut_a.resize(n), s.strut_b.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Strut& st = w.soft.struts[s.strut_ids[i]];
    s.strut_a[i] = st.a, s.strut_b[i] = st.b;
  }
  const auto& q = w.particles;
  s.particle_moving.resize(q.size());
  for (std::size_t i = 0; i < q.size(); ++i) s.particle_moving[i] = q.w[i] > 0;
  colour_constraints(s.strut_a, s.strut_b, s.particle_moving, q.size(), w.soft.colours);
  const Colouring& c = w.soft.colours;
  // Each colour's struts, in creation order, packed into whole groups; the last group of a colour
  // is padded.
  w.soft.group_begin.assign(kColourCount + 2, 0);
  for (int colour = 0; colour <= kOverflowColour; ++colour) {
    const std::uint32_t count = c.begin[colour + 1] - c.begin[colour];
    w.soft.group_begin[colour + 1] =
        w.soft.group_begin[colour] + (count + kWideLanes - 1) / kWideLanes;
  }
  w.soft.groups.resize(w.soft.group_begin[kOverflowColour + 1]);
  constexpr std::uint32_t lanes = kWideLanes;
  for (int colour = 0; colour <= kOverflowColour; ++colour) {
    const std::uint32_t b = c.begin[colour], count = c.begin[colour + 1] - b;
    WideStrut* groups = w.soft.groups.data() + w.soft.group_begin[colour];
    const std::uint32_t slots =
        (w.soft.group_begin[colour + 1] - w.soft.group_begin[colour]) * lanes;
    for (std::uint32_t k = 0; k < slots; ++k) {
      WideStrut& g = groups[k / lanes];
      const std::uint32_t lane = k % lanes;
      if (k < count) {
        const std::uint32_t id = s.strut_ids[c.order[b + k]];
        const Strut& st = w.soft.struts[id];
        g.a[lane] = std::int32_t(st.a), g.b[lane] = std::int32_t(st.b);
        g.rest[lane] = st.rest, g.compliance[lane] = st.compliance;
        g.strut[lane] = id;
      } else {
        g.a[lane] = g.b[lane] = kStrutPadding;
        g.rest[lane] = g.compliance[lane] = 0.0f;
        g.strut[lane] = ~0u;
      }
      g.lambda[lane] = 0.0f;
    }
  }
}

namespace {

// The multipliers start every substep at zero: XPBD accumulates them over one substep's
// iterations only.
void add_strut_reset_stage(WorldState& w, std::vector<TaskSystem::Stage>& stages, int phase) {
  stages.push_back({1, 1,
                    [&w](int, int, int) {
                      for (LaneStrut& r : w.soft.lanes.rows)
                        std::fill(std::begin(r.lambda), std::end(r.lambda), 0.0f);
                      if (!coloured_struts(w)) {
                        // Indexed by strut; only the creation-order loop's struts are read.
                        auto& lambda = w.scratch.strut_lambda;
                        lambda.resize(w.soft.struts.size());
                        for (const StrutRun& r : w.soft.lanes.other)
                          std::fill(lambda.begin() + r.begin, lambda.begin() + r.end, 0.0f);
                        return;
                      }
                      for (WideStrut& g : w.soft.groups)
                        std::fill(std::begin(g.lambda), std::end(g.lambda), 0.0f);
                    },
                    phase});
}

// One iteration over the struts: first the lane groups (parallel chunks), then the other struts:
// creation order below kColouredStruts, else one stage per colour (its groups in parallel
// chunks; the overflow colour, whose lanes may share particles, serially through the scalar
// twin). Lane bodies share no particle with each other, but a stray strut outside them may
// (tests build such), so the lanes always run before the rest, for any thread count.
void add_strut_stages(WorldState& w, std::vector<TaskSystem::Stage>& stages, float h, int phase) {
  if (w.soft.struts.empty()) return;
  const float inv_h2 = 1.0f / (h * h);
  const int chunks = 2 * w.tasks.thread_count();
  const int lane_groups = int(w.soft.lanes.groups.size());
  const int lane_grain = std::max(kLaneGroupGrain, (lane_groups + chunks - 1) / chunks);
  if (!coloured_struts(w)) {
    // Few struts outside the lanes: when the lanes fit in one chunk too, one serial stage.
    const bool one_stage = lane_groups <= lane_grain;
    if (lane_groups > 0 && !one_stage)
      stages.push_back({lane_groups, lane_grain,
                        [&w, inv_h2](int lo, int hi, int) { solve_lane_groups(w, lo, hi, inv_h2); },
                        phase});
    if (w.soft.lanes.other_count > 0 || one_stage)
      stages.push_back({1, 1,
                        [&w, h, inv_h2, one_stage, lane_groups](int, int, int) {
                          if (one_stage) solve_lane_groups(w, 0, lane_groups, inv_h2);
                          solve_other_struts(w, h);
                        },
                        phase});
    return;
  }
  if (lane_groups > 0)
    stages.push_back({lane_groups, lane_grain,
                      [&w, inv_h2](int lo, int hi, int) { solve_lane_groups(w, lo, hi, inv_h2); },
                      phase});
  add_colour_stages(
      stages, w.soft.group_begin, w.tasks.thread_count(), kStrutGroupGrain, phase,
      [&w, inv_h2](std::uint32_t first, std::uint32_t last, bool overflow) {
        auto& q = w.particles;
        const StrutSpans p{q.x.data(), q.y.data(), q.dx.data(), q.dy.data(), q.w.data()};
        for (std::uint32_t i = first; i < last; ++i) {
          WideStrut& g = w.soft.groups[i];
          if (overflow)
            solve_strut_group_scalar(p, g, inv_h2);
          else
            solve_strut_group_wide(p, g, inv_h2);
        }
      });
}

}  // namespace

// Joints of one colour share no moving body: solved in parallel, colour after colour, in the
// same order for any thread count. Colour order is red-black Gauss-Seidel, which carries a
// correction along a chain more slowly than creation order (a 20-link chain stretched 4.6%
// instead of 3.8%, a 10x10 cloth 7.7% instead of 4.0%), so below kParallelJoints joints, where
// threads would not pay anyway, joints are solved in creation order.
void add_joint_stages(WorldState& w, std::vector<TaskSystem::Stage>& stages, float h, int phase) {
  const int iterations = w.config.iterations;
  if (!w.soft.struts.empty()) add_strut_reset_stage(w, stages, phase);
  for (int it = 0; it < iterations; ++it) {
    add_strut_stages(w, stages, h, phase);
    if (w.joints.dense.empty()) continue;
    const bool first = it == 0;
    if (w.joints.dense.size() < kParallelJoints) {
      stages.push_back({1, 1,
                        [&w, h, first](int, int, int) {
                          for (Joint& j : w.joints.dense) solve_joint(w, j, h, first);
                        },
                        phase});
      continue;
    }
    // A colour's points projected in lanes, then its joints solved by their types
    // (prepare_point_motion).
    add_colour_stages(stages, w.joints.point_motion.item_begin, w.tasks.thread_count(), 256, phase,
                      [&w, h, first](std::uint32_t lo, std::uint32_t hi, bool) {
                        const std::vector<std::uint32_t>& items = w.joints.point_motion.items;
                        for (std::uint32_t i = lo; i < hi; ++i) {
                          if (items[i] & kProjectGroup) {
                            const std::uint32_t g = items[i] & ~kProjectGroup;
                            project_point_motion(w, g, g + 1, first);
                          } else {
                            solve_joint(w, w.joints.dense[items[i]], h, first);
                          }
                        }
                      });
  }
}

namespace {

// A substep's velocity passes over the joint points, in order, told to `emit`: emit.colours(begin,
// min_grain, fn) for a pass colour after colour (a colour's rows share no moving body),
// fn(first, last, overflow), which returns the largest row motion it met (or nothing);
// emit.rows(n, min_grain, fn) for a pass over rows that write only their own, fn(first, last);
// emit.largest_motion(), the largest motion of the colours emitted since it was last asked, or
// infinity when not known yet (stages run after this returns).
template <class Emit>
void joint_motion_passes(WorldState& w, bool relax, Emit&& emit) {
  const PointMotion& m = w.joints.point_motion;
  // Groups of tree joints alone (projected in lanes) have no velocity rows: no passes for them.
  const bool points = m.velocity_groups > 0, rigid = !m.rigid.empty();
  const int trees = int(m.trees.tree_begin.size()) - 1;
  // The trees' factors from the poses now (their bodies are theirs alone: any chunking).
  if (trees > 0)
    emit.rows(trees, kTreeGrain, [&w, relax](int lo, int hi) {
      refresh_tree_motion(w, std::uint32_t(lo), std::uint32_t(hi), !relax);
    });
  if (relax) {
    // Arms and masses only, written to the rows alone.
    if (points)
      emit.rows(int(m.groups.size()), kPointGroupGrain, [&w](int lo, int hi) {
        refresh_point_motion(w, std::uint32_t(lo), std::uint32_t(hi), false, false);
      });
    if (rigid)
      emit.rows(int(m.rigid.size()), kRigidRowGrain, [&w](int lo, int hi) {
        refresh_rigid_rows(w, std::uint32_t(lo), std::uint32_t(hi), false);
      });
  } else {
    // The warm start writes the bodies: colour by colour.
    if (points)
      emit.colours(m.begin, kPointGroupGrain,
                   [&w](std::uint32_t lo, std::uint32_t hi, bool overflow) {
                     refresh_point_motion(w, lo, hi, true, overflow);
                   });
    if (rigid)
      emit.colours(m.rigid_begin, kRigidRowGrain, [&w](std::uint32_t lo, std::uint32_t hi, bool) {
        refresh_rigid_rows(w, lo, hi, true);
      });
  }
  const int passes = w.config.joint_passes;
  float previous = std::numeric_limits<float>::infinity();
  bool converged = false;
  for (int i = 0; i < passes; ++i) {
    // The revolute joints' motor and limit rows (AngleMotion) in the last pass only: in every
    // pass they slow a ragdoll crowd's step much more than they steady a resting ragdoll, and the
    // last pass rests better than the first.
    const bool last = converged || i + 1 == passes;
    // A tree's solve is exact: once, in the last pass (its bodies are its own, so the other
    // joints' passes before it change nothing of it).
    if (trees > 0 && last)
      emit.rows(trees, kTreeGrain, [&w](int lo, int hi) {
        solve_tree_motion(w, std::uint32_t(lo), std::uint32_t(hi));
      });
    if (points)
      emit.colours(m.begin, kPointGroupGrain,
                   [&w, last](std::uint32_t lo, std::uint32_t hi, bool overflow) {
                     return solve_point_motion(w, lo, hi, overflow, last);
                   });
    if (rigid)
      emit.colours(m.rigid_begin, kRigidRowGrain,
                   [&w, relax](std::uint32_t lo, std::uint32_t hi, bool) {
                     return solve_rigid_rows(w, lo, hi, relax);
                   });
    if (last) break;
    const float largest = emit.largest_motion();
    converged = joint_passes_converged(largest, previous);
    previous = largest;
  }
}

// Each pass as stages: one per colour (colour_stages.hpp), or one of row chunks.
struct EmitStages {
  std::vector<TaskSystem::Stage>& stages;
  int threads, phase;
  template <class Fn>
  void colours(std::span<const std::uint32_t> begin, int min_grain, Fn fn) {
    add_colour_stages(stages, begin, threads, min_grain, phase, fn);
  }
  template <class Fn>
  void rows(int n, int min_grain, Fn fn) {
    stages.push_back({n, std::max(min_grain, (n + 2 * threads - 1) / (2 * threads)),
                      [fn](int lo, int hi, int) { fn(lo, hi); }, phase});
  }
  static float largest_motion() { return std::numeric_limits<float>::infinity(); }
};

// Each pass run at once, colour after colour: what the stages do when every colour is one chunk.
struct RunInOrder {
  float largest = 0.0f;
  template <class Fn>
  void colours(std::span<const std::uint32_t> begin, int, Fn fn) {
    for_each_colour(begin, [this, &fn](std::uint32_t lo, std::uint32_t hi, bool overflow) {
      if constexpr (std::is_same_v<decltype(fn(lo, hi, overflow)), float>)
        largest = std::max(largest, fn(lo, hi, overflow));
      else
        fn(lo, hi, overflow);
    });
  }
  template <class Fn>
  void rows(int n, int, Fn fn) {
    fn(0, n);
  }
  float largest_motion() { return std::exchange(largest, 0.0f); }
};

}  // namespace

void add_joint_motion_stages(WorldState& w, std::vector<TaskSystem::Stage>& stages, int phase,
                             bool relax) {
  const PointMotion& m = w.joints.point_motion;
  const int trees = int(m.trees.tree_begin.size()) - 1;
  if (m.groups.empty() && m.rigid.empty() && trees <= 0) return;
  // Few rows (a small world's joints): every pass's colours are one chunk each (no colour holds
  // more than all of them), run by one thread one after the other, so the passes are one stage, in
  // the same order; a stage per colour and pass cost more to build than the rows to solve (a
  // lander's substep had 36 such stages).
  if (int(m.groups.size()) <= kPointGroupGrain && int(m.rigid.size()) <= kRigidRowGrain &&
      trees <= kTreeGrain) {
    if (serial_points_only(w)) {
      stages.push_back(
          {1, 1, [&w, relax](int, int, int) { run_serial_point_passes(w, relax); }, phase});
      return;
    }
    stages.push_back(
        {1, 1, [&w, relax](int, int, int) { joint_motion_passes(w, relax, RunInOrder{}); }, phase});
    return;
  }
  joint_motion_passes(w, relax, EmitStages{stages, w.tasks.thread_count(), phase});
}

void solve_struts(WorldState& w, float h) {
  const float inv_h2 = 1.0f / (h * h);
  for (std::size_t k = 0; k < w.soft.struts.size(); ++k) project_strut(w, k, inv_h2);
}

}  // namespace strut
