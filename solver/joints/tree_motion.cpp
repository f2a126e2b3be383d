// Exact velocity solves of joint trees (tree_motion.hpp). Units as in point_motion.cpp: motion is
// per substep (d = v h) and an impulse a position impulse (N s^2). A joint's point row is
// C' = (motion of b's anchor) - (motion of a's anchor) = J_a d_a + J_b d_b, with, for a side of
// arm r and sign s (+1 for b, -1 for a), J = s [[1, 0, -r.y], [0, 1, r.x]] over (x, y, turn).
#include "solver/joints/tree_motion.hpp"

#include <algorithm>
#include <numeric>

#include "solver/core/stores.hpp"
#include "solver/joints/joint_ops.hpp"
#include "solver/joints/joint_rows.hpp"
#include "solver/joints/joint_store.hpp"
#include "solver/joints/point_motion.hpp"

namespace strut {
namespace {

// A symmetric 3x3 matrix as (xx, xy, xt, yy, yt, tt).
using Sym3 = TreeReal[6];

// One side of a joint: its arm and sign.
struct Side {
  TreeReal rx, ry, sign;
};

// J W (2 x 3) of a side, W symmetric.
void side_times(const Side& s, const Sym3 w, TreeReal out[2][3]) {
  // Rows of J: s (1, 0, -ry) and s (0, 1, rx).
  out[0][0] = s.sign * (w[0] - s.ry * w[2]);
  out[0][1] = s.sign * (w[1] - s.ry * w[4]);
  out[0][2] = s.sign * (w[2] - s.ry * w[5]);
  out[1][0] = s.sign * (w[1] + s.rx * w[2]);
  out[1][1] = s.sign * (w[3] + s.rx * w[4]);
  out[1][2] = s.sign * (w[4] + s.rx * w[5]);
}
// (J W) J^T added to the symmetric 2x2 a (xx, xy, yy).
void add_block(const Side& s, const TreeReal jw[2][3], TreeReal a[3]) {
  a[0] += s.sign * (jw[0][0] - s.ry * jw[0][2]);
  a[1] += s.sign * (jw[0][1] + s.rx * jw[0][2]);
  a[2] += s.sign * (jw[1][1] + s.rx * jw[1][2]);
}
// J v (2) of a side for a 3-vector v.
void side_apply(const Side& s, const TreeReal v[3], TreeReal out[2]) {
  out[0] = s.sign * (v[0] - s.ry * v[2]);
  out[1] = s.sign * (v[1] + s.rx * v[2]);
}
// J^T l (3) of a side, added to g.
void side_transpose_add(const Side& s, const TreeReal l[2], TreeReal g[3]) {
  g[0] += s.sign * l[0];
  g[1] += s.sign * l[1];
  g[2] += s.sign * (-s.ry * l[0] + s.rx * l[1]);
}

Side side_a(const TreeJoint& e) { return {e.ra.x, e.ra.y, -1.0}; }
Side side_b(const TreeJoint& e) { return {e.rb.x, e.rb.y, 1.0}; }
std::uint32_t slot_a(const TreeJoint& e) { return e.leaf_is_b ? e.parent : e.leaf; }
std::uint32_t slot_b(const TreeJoint& e) { return e.leaf_is_b ? e.leaf : e.parent; }
Side parent_side(const TreeJoint& e) { return e.leaf_is_b ? side_a(e) : side_b(e); }

std::uint32_t find_root(std::vector<std::uint32_t>& root, std::uint32_t x) {
  while (root[x] != x) x = root[x] = root[root[x]];
  return x;
}

bool movable(const WorldState& w, std::uint32_t k) {
  return w.bodies.inv_mass[k] > 0 || w.bodies.inv_inertia[k] > 0;
}

// Whether a joint has a motor or limit row. Those stay with the passes: their rows take the two
// bodies' mass alone (1 / (ia + ib)), and after an exact point solve their turn was off again, so
// rows and points had to alternate. Once only, a lander whose motors press its legs against their
// limits rocked at 0.97 m/s on a slope (lander_rest; 0.083 with the passes); more rounds
// steady it but slow rain (950 ragdolls, every joint limited and motored) too much. Measured
// and not kept: the rows' mass with their own pin held
// (1 / (I + m r^2) for a leg about its hip) sent the lander flying (30 m/s).
bool has_motor_or_limit(const Joint& j, float h) {
  const auto lane_rows = joint_ops(j.type).lane_rows;
  AngleRows rows;
  return lane_rows && lane_rows(j, h, rows) && (rows.motor || rows.limit);
}

// The trees from scratch (the joints' bodies, or which are awake, changed).
void find_trees(WorldState& w) {
  TreeMotion& t = w.joints.point_motion.trees;
  t.joints.clear(), t.bodies.clear();
  t.tree_begin.assign(1, 0), t.body_begin.assign(1, 0);
  t.in_tree.clear();
  const auto& joints = w.joints.dense;
  const std::uint32_t n = std::uint32_t(joints.size());
  // The movable bodies of the live joints, numbered locally; a live joint's key holds its bodies.
  if (t.local_of_body.size() < w.bodies.inv_mass.size())
    t.local_of_body.resize(w.bodies.inv_mass.size(), kFixedSide);
  t.local_body.clear();
  auto local = [&](std::uint32_t body) {
    if (!movable(w, body)) return kFixedSide;
    if (t.local_of_body[body] == kFixedSide) {
      t.local_of_body[body] = std::uint32_t(t.local_body.size());
      t.local_body.push_back(body);
    }
    return t.local_of_body[body];
  };
  t.side_a.assign(n, kFixedSide), t.side_b.assign(n, kFixedSide);
  for (std::uint32_t k = 0; k < n; ++k) {
    if (!(t.key[k] & kLiveJoint)) continue;
    t.side_a[k] = local(std::uint32_t(t.key[k] >> 32));
    t.side_b[k] = local(std::uint32_t(t.key[k] >> 2) & 0x3FFFFFFFu);
  }
  const std::uint32_t bodies = std::uint32_t(t.local_body.size());
  // Components; a loop through movable bodies, or a joint that is no candidate, spoils one.
  t.root.resize(bodies);
  std::iota(t.root.begin(), t.root.end(), 0u);
  t.bad.assign(bodies, 0);
  t.eliminated.assign(n, 0);  // here: the joint closed a loop or is no candidate
  bool any_good = false;
  for (std::uint32_t k = 0; k < n; ++k) {
    if (!(t.key[k] & kLiveJoint)) continue;
    const std::uint32_t la = t.side_a[k], lb = t.side_b[k];
    const bool candidate = (t.key[k] & kCandidateJoint) && la != lb;
    if (la != kFixedSide && lb != kFixedSide) {
      const std::uint32_t ra = find_root(t.root, la), rb = find_root(t.root, lb);
      if (ra == rb)
        t.eliminated[k] = 1;
      else
        t.root[ra] = rb;
    }
    if (!candidate) t.eliminated[k] = 1;
  }
  for (std::uint32_t k = 0; k < n; ++k) {
    if (!(t.key[k] & kLiveJoint) || !t.eliminated[k]) continue;
    const std::uint32_t side = t.side_a[k] != kFixedSide ? t.side_a[k] : t.side_b[k];
    if (side != kFixedSide) t.bad[find_root(t.root, side)] = 1;
  }
  auto in_good_tree = [&](std::uint32_t k) {
    if (!(t.key[k] & kLiveJoint) || t.eliminated[k]) return false;
    const std::uint32_t side = t.side_a[k] != kFixedSide ? t.side_a[k] : t.side_b[k];
    return side != kFixedSide && !t.bad[find_root(t.root, side)];
  };
  for (std::uint32_t k = 0; k < n && !any_good; ++k) any_good = in_good_tree(k);
  if (any_good) {
    // The good components are forests: peeled leaves first, a joint eliminated once one of its
    // sides is fixed or has no other joint left, every joint is.
    t.degree.assign(bodies, 0);
    for (std::uint32_t k = 0; k < n; ++k) {
      if (!in_good_tree(k)) continue;
      if (t.side_a[k] != kFixedSide) ++t.degree[t.side_a[k]];
      if (t.side_b[k] != kFixedSide) ++t.degree[t.side_b[k]];
    }
    t.adjacency_begin.assign(bodies + 1, 0);
    for (std::uint32_t b = 0; b < bodies; ++b)
      t.adjacency_begin[b + 1] = t.adjacency_begin[b] + t.degree[b];
    t.adjacency.resize(t.adjacency_begin[bodies]);
    t.slot.assign(t.adjacency_begin.begin(), t.adjacency_begin.end() - 1);  // fill cursors
    t.queue.clear(), t.peeled_sides.clear();
    auto eligible = [&](std::uint32_t la, std::uint32_t lb) {
      return la == kFixedSide || lb == kFixedSide || t.degree[la] == 1 || t.degree[lb] == 1;
    };
    for (std::uint32_t k = 0; k < n; ++k) {
      if (!in_good_tree(k)) continue;
      const std::uint32_t la = t.side_a[k], lb = t.side_b[k];
      if (la != kFixedSide) t.adjacency[t.slot[la]++] = k;
      if (lb != kFixedSide) t.adjacency[t.slot[lb]++] = k;
      if (eligible(la, lb)) t.queue.push_back(k);
    }
    for (std::size_t q = 0; q < t.queue.size(); ++q) {
      const std::uint32_t k = t.queue[q];
      const std::uint32_t la = t.side_a[k], lb = t.side_b[k];
      if (t.eliminated[k] || !eligible(la, lb)) continue;
      TreeJoint e;
      e.joint = k;
      e.leaf_is_b = lb == kFixedSide || (la != kFixedSide && t.degree[lb] == 1);
      e.leaf = e.leaf_is_b ? lb : la;
      e.parent = e.leaf_is_b ? la : lb;
      t.eliminated[k] = 1;
      t.peeled_sides.push_back(e);
      if (la != kFixedSide) --t.degree[la];
      if (lb != kFixedSide) --t.degree[lb];
      if (e.parent != kFixedSide && t.degree[e.parent] == 1)
        for (std::uint32_t i = t.adjacency_begin[e.parent]; i < t.adjacency_begin[e.parent + 1];
             ++i)
          if (!t.eliminated[t.adjacency[i]]) t.queue.push_back(t.adjacency[i]);
    }
    // The trees, numbered in the order their first joint was peeled; their joints in peel order
    // and their bodies in the order they were found.
    auto root_of = [&](const TreeJoint& e) {
      return find_root(t.root, e.parent != kFixedSide ? e.parent : e.leaf);
    };
    t.tree_of.assign(bodies, kFixedSide);
    std::uint32_t trees = 0;
    for (const TreeJoint& e : t.peeled_sides)
      if (t.tree_of[root_of(e)] == kFixedSide) t.tree_of[root_of(e)] = trees++;
    std::vector<std::uint32_t>& count = t.degree;  // reused: joints, then bodies, per tree
    count.assign(trees, 0);
    for (const TreeJoint& e : t.peeled_sides) ++count[t.tree_of[root_of(e)]];
    t.tree_begin.assign(trees + 1, 0);
    for (std::uint32_t i = 0; i < trees; ++i) t.tree_begin[i + 1] = t.tree_begin[i] + count[i];
    count.assign(trees, 0);
    for (std::uint32_t b = 0; b < bodies; ++b) {
      const std::uint32_t r = find_root(t.root, b);
      if (!t.bad[r] && t.tree_of[r] != kFixedSide) ++count[t.tree_of[r]];
    }
    t.body_begin.assign(trees + 1, 0);
    for (std::uint32_t i = 0; i < trees; ++i) t.body_begin[i + 1] = t.body_begin[i] + count[i];
    t.bodies.resize(t.body_begin[trees]);
    t.slot.assign(bodies, kFixedSide);
    std::copy(t.body_begin.begin(), t.body_begin.end() - 1, count.begin());  // cursors
    for (std::uint32_t b = 0; b < bodies; ++b) {
      const std::uint32_t r = find_root(t.root, b);
      if (t.bad[r] || t.tree_of[r] == kFixedSide) continue;
      const std::uint32_t s = count[t.tree_of[r]]++;
      t.slot[b] = s;
      t.bodies[s] = TreeBody{};
      t.bodies[s].body = t.local_body[b];
    }
    t.joints.resize(t.tree_begin[trees]);
    std::copy(t.tree_begin.begin(), t.tree_begin.end() - 1, count.begin());  // cursors
    t.in_tree.assign(n, 0);
    for (const TreeJoint& p : t.peeled_sides) {
      TreeJoint& e = t.joints[count[t.tree_of[root_of(p)]]++];
      e = p;
      e.leaf = p.leaf == kFixedSide ? kFixedSide : t.slot[p.leaf];
      e.parent = p.parent == kFixedSide ? kFixedSide : t.slot[p.parent];
      e.a = std::uint32_t(t.key[p.joint] >> 32);
      e.b = std::uint32_t(t.key[p.joint] >> 2) & 0x3FFFFFFFu;
      t.in_tree[p.joint] = 1;
    }
  }
  for (const std::uint32_t body : t.local_body) t.local_of_body[body] = kFixedSide;
}

}  // namespace

void prepare_tree_motion(WorldState& w, float h) {
  TreeMotion& t = w.joints.point_motion.trees;
  const auto& joints = w.joints.dense;
  const std::uint32_t n = std::uint32_t(joints.size());
  // Each joint's key: its bodies, whether it is live (enabled and awake) and a candidate (a
  // point row between rigid bodies). The trees are a function of the keys and of which bodies
  // are movable: kept while neither changed (joint_grid's joints, which close loops, would
  // otherwise search for trees in vain every step).
  bool same = t.key.size() == n && t.moving_version == w.scratch.moving_version;
  bool any_candidate = false;
  t.key.resize(n);
  for (std::uint32_t k = 0; k < n; ++k) {
    const Joint& j = joints[k];
    const std::uint32_t a = w.bodies.slots[j.slot_a].dense, b = w.bodies.slots[j.slot_b].dense;
    const bool live = j.enabled && ((w.bodies.flags[a] | w.bodies.flags[b]) & kSleeping) == 0;
    const bool candidate = live && joint_ops(j.type).point_motion && w.bodies.is_rigid(a) &&
                           w.bodies.is_rigid(b) && !has_motor_or_limit(j, h);
    any_candidate = any_candidate || candidate;
    const std::uint64_t key = std::uint64_t(a) << 32 | std::uint64_t(b) << 2 |
                              (live ? kLiveJoint : 0) | (candidate ? kCandidateJoint : 0);
    same = same && t.key[k] == key;
    t.key[k] = key;
  }
  t.moving_version = w.scratch.moving_version;
  if (!any_candidate) {
    t.joints.clear(), t.bodies.clear();
    t.tree_begin.assign(1, 0), t.body_begin.assign(1, 0);
    t.in_tree.clear();
    return;
  }
  if (!same) find_trees(w);
  load_tree_step_values(w, h);
}

void load_tree_step_values(WorldState& w, float h) {
  TreeMotion& t = w.joints.point_motion.trees;
  const float h2 = h * h;
  for (TreeJoint& e : t.joints) {
    const Joint& j = w.joints.dense[e.joint];
    e.impulse = h2 * j.carried_force;
    e.local_a = j.anchor_a.local, e.local_b = j.anchor_b.local;  // a shape added moves them
  }
  for (TreeBody& b : t.bodies) b.m = w.bodies.inv_mass[b.body], b.i = w.bodies.inv_inertia[b.body];
}

void refresh_tree_motion(WorldState& w, std::uint32_t lo, std::uint32_t hi, bool warm_start) {
  TreeMotion& t = w.joints.point_motion.trees;
  auto& bd = w.bodies;
  for (std::uint32_t tree = lo; tree < hi; ++tree) {
    for (std::uint32_t s = t.body_begin[tree]; s < t.body_begin[tree + 1]; ++s) {
      TreeBody& b = t.bodies[s];
      b.w[0] = b.m, b.w[1] = 0, b.w[2] = 0, b.w[3] = b.m, b.w[4] = 0, b.w[5] = b.i;
    }
    for (std::uint32_t k = t.tree_begin[tree]; k < t.tree_begin[tree + 1]; ++k) {
      TreeJoint& e = t.joints[k];
      e.ra = world_arm(w, e.a, e.local_a);
      e.rb = world_arm(w, e.b, e.local_b);
      e.gap = warm_start ? (body_center(w, e.b) + e.rb) - (body_center(w, e.a) + e.ra) : Vec2{};
      TreeReal a[3] = {};
      const std::uint32_t sa = slot_a(e), sb = slot_b(e);
      TreeReal jw[2][3];
      if (sa != kFixedSide) side_times(side_a(e), t.bodies[sa].w, jw), add_block(side_a(e), jw, a);
      if (sb != kFixedSide) side_times(side_b(e), t.bodies[sb].w, jw), add_block(side_b(e), jw, a);
      // A degenerate block (both sides' articulated masses singular along the rows) is dropped:
      // the projection still holds the joint.
      const TreeReal det = a[0] * a[2] - a[1] * a[1];
      const TreeReal scale = a[0] + a[2];
      if (det > TreeReal(1e-12) * scale * scale && scale > 0) {
        e.a_inv[0] = a[2] / det, e.a_inv[1] = -a[1] / det, e.a_inv[2] = a[0] / det;
      } else {
        e.a_inv[0] = e.a_inv[1] = e.a_inv[2] = 0;
      }
      if (e.parent == kFixedSide) continue;
      // The parent's articulated inverse mass: W -= (J W)^T A^-1 (J W).
      TreeReal* wp = t.bodies[e.parent].w;
      side_times(parent_side(e), wp, e.jw);
      TreeReal aj[2][3];  // A^-1 (J W)
      for (int c = 0; c < 3; ++c) {
        aj[0][c] = e.a_inv[0] * e.jw[0][c] + e.a_inv[1] * e.jw[1][c];
        aj[1][c] = e.a_inv[1] * e.jw[0][c] + e.a_inv[2] * e.jw[1][c];
      }
      constexpr int kRow[6] = {0, 0, 0, 1, 1, 2}, kCol[6] = {0, 1, 2, 1, 2, 2};
      for (int i = 0; i < 6; ++i)
        wp[i] -= e.jw[0][kRow[i]] * aj[0][kCol[i]] + e.jw[1][kRow[i]] * aj[1][kCol[i]];
    }
    if (!warm_start) continue;
    for (std::uint32_t k = t.tree_begin[tree]; k < t.tree_begin[tree + 1]; ++k) {
      const TreeJoint& e = t.joints[k];
      const TreeReal l[2] = {e.impulse.x, e.impulse.y};
      auto push = [&](std::uint32_t body, const Side& s) {
        TreeReal g[3] = {};
        side_transpose_add(s, l, g);
        const float m = bd.inv_mass[body], i = bd.inv_inertia[body];
        bd.dx[body] += float(m * g[0]), bd.dy[body] += float(m * g[1]);
        bd.da[body] += float(i * g[2]);
      };
      if (slot_a(e) != kFixedSide) push(e.a, side_a(e));
      if (slot_b(e) != kFixedSide) push(e.b, side_b(e));
    }
  }
}

namespace {

// One exact solve of tree `tree`'s point rows, from the bodies' motion now.
void solve_tree_points(WorldState& w, TreeMotion& t, std::uint32_t tree) {
  auto& bd = w.bodies;
  const std::uint32_t first = t.tree_begin[tree], last = t.tree_begin[tree + 1];
  for (std::uint32_t s = t.body_begin[tree]; s < t.body_begin[tree + 1]; ++s)
    std::fill(std::begin(t.bodies[s].s), std::end(t.bodies[s].s), 0.0),
        std::fill(std::begin(t.bodies[s].g), std::end(t.bodies[s].g), 0.0);
  // Forward: each joint's relative anchor motion, less what the joints eliminated before it
  // through its bodies account for, through its reduced block.
  for (std::uint32_t k = first; k < last; ++k) {
    TreeJoint& e = t.joints[k];
    const std::uint32_t a = e.a, b = e.b;
    const TreeReal ma[2] = {bd.dx[a] - TreeReal(bd.da[a]) * e.ra.y,
                            bd.dy[a] + TreeReal(bd.da[a]) * e.ra.x};
    const TreeReal mb[2] = {bd.dx[b] - TreeReal(bd.da[b]) * e.rb.y,
                            bd.dy[b] + TreeReal(bd.da[b]) * e.rb.x};
    TreeReal y[2] = {ma[0] - mb[0] - e.gap.x, ma[1] - mb[1] - e.gap.y};
    TreeReal js[2];
    if (slot_a(e) != kFixedSide) {
      side_apply(side_a(e), t.bodies[slot_a(e)].s, js);
      y[0] -= js[0], y[1] -= js[1];
    }
    if (slot_b(e) != kFixedSide) {
      side_apply(side_b(e), t.bodies[slot_b(e)].s, js);
      y[0] -= js[0], y[1] -= js[1];
    }
    e.z[0] = e.a_inv[0] * y[0] + e.a_inv[1] * y[1];
    e.z[1] = e.a_inv[1] * y[0] + e.a_inv[2] * y[1];
    if (e.parent == kFixedSide) continue;
    TreeReal* sp = t.bodies[e.parent].s;
    for (int c = 0; c < 3; ++c) sp[c] += e.jw[0][c] * e.z[0] + e.jw[1][c] * e.z[1];
  }
  // Backward: each joint's impulse, less what the joints after it on its parent side take.
  for (std::uint32_t k = last; k-- > first;) {
    TreeJoint& e = t.joints[k];
    TreeReal l[2] = {e.z[0], e.z[1]};
    if (e.parent != kFixedSide) {
      const TreeReal* gp = t.bodies[e.parent].g;
      const TreeReal v[2] = {e.jw[0][0] * gp[0] + e.jw[0][1] * gp[1] + e.jw[0][2] * gp[2],
                             e.jw[1][0] * gp[0] + e.jw[1][1] * gp[1] + e.jw[1][2] * gp[2]};
      l[0] -= e.a_inv[0] * v[0] + e.a_inv[1] * v[1];
      l[1] -= e.a_inv[1] * v[0] + e.a_inv[2] * v[1];
    }
    if (slot_a(e) != kFixedSide) side_transpose_add(side_a(e), l, t.bodies[slot_a(e)].g);
    if (slot_b(e) != kFixedSide) side_transpose_add(side_b(e), l, t.bodies[slot_b(e)].g);
    e.impulse += Vec2{float(l[0]), float(l[1])};
  }
  for (std::uint32_t s = t.body_begin[tree]; s < t.body_begin[tree + 1]; ++s) {
    const TreeBody& b = t.bodies[s];
    bd.dx[b.body] += float(b.m * b.g[0]), bd.dy[b.body] += float(b.m * b.g[1]);
    bd.da[b.body] += float(b.i * b.g[2]);
  }
}

}  // namespace

void solve_tree_motion(WorldState& w, std::uint32_t lo, std::uint32_t hi) {
  TreeMotion& t = w.joints.point_motion.trees;
  for (std::uint32_t tree = lo; tree < hi; ++tree) solve_tree_points(w, t, tree);
}

void finish_tree_motion(Stores<WritesJoints> w, float h) {
  TreeMotion& t = w.joints.point_motion.trees;
  const float inv_h2 = 1.0f / (h * h);
  for (const TreeJoint& e : t.joints) {
    Joint& j = w.joints.dense[e.joint];
    j.carried_force = inv_h2 * e.impulse;
    j.reaction_force = e.impulse;
  }
}

}  // namespace strut
