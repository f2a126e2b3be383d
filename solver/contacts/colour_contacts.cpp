#include <algorithm>
#include <atomic>
#include <limits>

#include "solver/bodies/body_store.hpp"
#include "solver/contacts/contact_solver.hpp"
#include "solver/contacts/contact_store.hpp"
#include "solver/core/step_timing.hpp"
#include "solver/core/stores.hpp"
#include "solver/core/task_system.hpp"
#include "solver/step/collide_phase.hpp"
#include "solver/step/step_scratch.hpp"
#include "strut/world.hpp"

namespace strut {

// A rigid pair's points are solved two at a time, as constraints of one wide lane each; a pair
// touching a soft body is one constraint of the generic path. Colouring is per pair: a pair
// with more than two points (a fast pair) keeps one colour and its constraints are solved one
// after another (split into constraints of their own colours, such pairs spilled into the
// overflow colour, and the ragdoll rain became half as slow again).
namespace {

// Whether pair p's points are solved in wide lanes (both bodies rigid) or on the generic path.
bool rigid_pair(Stores<ReadsBodies, ReadsContacts> w, std::size_t p) {
  const ContactPoint &cp = w.contacts.points[w.contacts.pair_begin[p]];
  return w.bodies.is_rigid(cp.body_v) && w.bodies.is_rigid(cp.body_o);
}

// Constraints of pair p with `points` points (colour_contacts' rule).
std::uint32_t constraints_of(bool rigid, std::uint32_t points) {
  return rigid ? (points + 1) / 2 : 1;
}

// Whether this step's contact pairs are last step's, in the same order, between the same dense
// bodies, with as many constraints each, and the same bodies may move: then the constraints'
// places, their colours and their lanes (prepare_contacts) come out as they were, and are kept.
// The points may lie elsewhere than last step (a pair gained or lost a point within its
// constraints, as while a pyramid settles): then points_relaid is set and only the constraints'
// first points are placed again (place_constraints); so also when a pair turned round (below).
// Cheap tests first, so a changing scene
// (rain, smash) pays little for asking. Sets any_restitution when it answers yes (the points'
// materials may have changed).
bool same_contact_structure(Stores<RunsTasks, ReadsBodies, WritesContacts, WritesScratch> w) {
  auto &set = w.contacts;
  auto &s = w.scratch;
  const std::size_t pairs = set.pair_keys.size();
  if (pairs == 0 || s.moving_version != s.coloured_moving_version || s.pair_a.size() != pairs)
    return false;
  // The narrow phase saw the same pairs, counts and bodies (in a settled pile, every step).
  // Reused points keep their restitution, so last step's answer stands for them. It may stay
  // true for a pair whose material was changed and collided afresh: the restitution pass then
  // finds nothing to do, which changes no bits.
  if (set.same_layout) {
    set.any_restitution = set.any_restitution || set.bouncy_pairs;
    return true;
  }
  if (set.pair_keys != set.old_pair_keys || set.pair_constraint_begin.size() != pairs + 1)
    return false;
  const bool relaid = set.pair_begin != set.old_pair_begin;
  constexpr int kGrain = 2048;
  auto &differs = s.chunk_counts;
  differs.assign(std::size_t(TaskSystem::chunk_count(int(pairs), kGrain)), 0);
  std::atomic<bool> bouncy{false}, turned_any{false};
  w.tasks.parallel_for(int(pairs), kGrain, [&](int lo, int hi, int) {
    std::uint32_t d = 0;
    bool chunk_bouncy = false, chunk_turned = false;
    for (std::size_t p = std::size_t(lo); p < std::size_t(hi); ++p) {
      const ContactPoint &cp = set.points[set.pair_begin[p]];
      chunk_bouncy |= cp.restitution > 0;
      const bool same = cp.body_v == s.pair_a[p] && cp.body_o == s.pair_b[p];
      if (same && !relaid) continue;
      // Last step's constraints of the pair: how many, and whether on the generic path.
      const std::uint32_t at = set.pair_constraint_begin[p];
      const std::uint32_t had = set.pair_constraint_begin[p + 1] - at;
      const bool rigid = rigid_pair(w, p);
      d |= (had != constraints_of(rigid, set.pair_begin[p + 1] - set.pair_begin[p])) |
           (rigid != (set.constraint_count[at] != 0));
      if (same) continue;
      // Collided afresh, the pair's first point may have its vertex on the other body (while a
      // pyramid settles, about 40 pairs a step). The colouring does not tell a pair's bodies
      // apart and the prepare fills the pair's lane afresh from its new first point, so a pair
      // of one rigid constraint may turn round; the lanes of several constraints keep their
      // direction (assign_lanes' wide_lane_a), so such a pair may not.
      const bool turned = cp.body_v == s.pair_b[p] && cp.body_o == s.pair_a[p];
      d |= !(turned && rigid && had == 1);
      chunk_turned = true;
      s.pair_a[p] = cp.body_v, s.pair_b[p] = cp.body_o;  // rewritten anyway if not kept
    }
    differs[std::size_t(lo / kGrain)] = d;
    if (chunk_bouncy) bouncy.store(true, std::memory_order_relaxed);
    if (chunk_turned) turned_any.store(true, std::memory_order_relaxed);
  });
  if (std::any_of(differs.begin(), differs.end(), [](std::uint32_t d) { return d != 0; }))
    return false;
  set.any_restitution = bouncy.load();
  set.points_relaid = relaid || turned_any.load();
  return true;
}

// The constraints of pair p, at constraint `at` on: their first points and counts.
void place_pair_constraints(ContactSet &set, std::size_t p, std::uint32_t at, std::uint32_t n,
                            bool rigid) {
  const std::uint32_t k0 = set.pair_begin[p], k1 = set.pair_begin[p + 1];
  for (std::uint32_t i = 0; i < n; ++i, ++at) {
    const std::uint32_t k = rigid ? k0 + 2 * i : k0;
    set.constraint_first[at] = k;
    set.constraint_count[at] = std::uint8_t(rigid ? std::min(2u, k1 - k) : 0u);
  }
}

// A kept structure whose points were re-laid: the same constraints, from their new points.
void place_constraints(Stores<RunsTasks, WritesContacts> w) {
  auto &set = w.contacts;
  w.tasks.parallel_for(int(set.pair_keys.size()), 2048, [&](int lo, int hi, int) {
    for (std::size_t p = std::size_t(lo); p < std::size_t(hi); ++p) {
      const std::uint32_t at = set.pair_constraint_begin[p];
      place_pair_constraints(set, p, at, set.pair_constraint_begin[p + 1] - at,
                             set.constraint_count[at] != 0);
    }
  });
}

// Each moving body's share of its overlapping pairs' push-out (push_out_scale): a pair pushing
// at the cap moves body k by ima_k / (ima_k + ima_other) of it, so a heavy body touching many
// light ones, or a body on a static one, counts what it really receives. Pairs only near (the
// speculative margin) push nothing and are not counted. Summed in pair order, so the same for
// any thread count; static and kinematic bodies stay at 0. A pair adds at most 1 to a body, and
// a moving body's pairs take distinct colours until they spill into the overflow colour, so
// while that colour is empty no body has more than kColourCount = kCrowdedPushes pushes: then
// the list is left empty and nothing is counted (large_pyramid never counts). Kept with the
// colours while the pairs are last step's.
void count_crowded_pushes(Stores<ReadsBodies, ReadsContacts, WritesScratch> w) {
  static_assert(kCrowdedPushes >= float(kColourCount));
  const auto &set = w.contacts;
  auto &s = w.scratch;
  const auto &inv_mass = w.bodies.inv_mass;
  const Colouring &colours = w.contacts.colours;
  s.crowded_pushes.clear();
  if (colours.begin[kOverflowColour] == colours.begin[kOverflowColour + 1]) return;
  s.crowded_pushes.assign(w.bodies.size(), 0.0f);
  for (std::size_t p = 0; p < s.pair_a.size(); ++p) {
    const std::uint32_t a = s.pair_a[p], b = s.pair_b[p];
    const float both = inv_mass[a] + inv_mass[b];
    if (!(set.pair_deepest[p] < 0) || both == 0) continue;
    if (s.moving[a]) s.crowded_pushes[a] += inv_mass[a] / both;
    if (s.moving[b]) s.crowded_pushes[b] += inv_mass[b] / both;
  }
}

// Union-find over body indices in a BodyClusters scratch that is the identity between uses:
// only the indices the pairs name are touched and listed, and the destructor puts them back.
class ClusterUse {
 public:
  ClusterUse(BodyClusters &c, std::uint32_t size) : c_(c) {
    const std::size_t old = c.parent.size();
    c.parent.resize(size);
    for (std::size_t k = old; k < size; ++k) c.parent[k] = std::uint32_t(k);
    c.bodies.resize(size, 0.0f);
    c.listed.resize(size, 0);
    c.deep.resize(size, 0);
  }
  ClusterUse(const ClusterUse &) = delete;
  ClusterUse &operator=(const ClusterUse &) = delete;
  ~ClusterUse() {
    for (const std::uint32_t k : c_.touched)
      c_.parent[k] = k, c_.bodies[k] = 0, c_.listed[k] = 0, c_.deep[k] = 0;
    c_.touched.clear();
  }
  // The smallest index of k's cluster (parents always point to smaller indices).
  std::uint32_t root(std::uint32_t k) {
    auto &parent = c_.parent;
    while (parent[k] != k) k = parent[k] = parent[parent[k]];
    return k;
  }
  void unite(std::uint32_t a, std::uint32_t b) {
    touch(a), touch(b);
    const std::uint32_t ra = root(a), rb = root(b);
    c_.parent[std::max(ra, rb)] = std::min(ra, rb);
  }
  const std::vector<std::uint32_t> &touched() const { return c_.touched; }
  float &bodies_at(std::uint32_t root) { return c_.bodies[root]; }
  // Counts a deep pair of a and b (both touched by unite(a, b) first).
  void add_deep_pair(std::uint32_t a, std::uint32_t b) {
    constexpr std::uint16_t most = std::numeric_limits<std::uint16_t>::max();
    c_.deep[a] = std::uint16_t(std::min<int>(most, c_.deep[a] + 1));
    c_.deep[b] = std::uint16_t(std::min<int>(most, c_.deep[b] + 1));
  }
  int deep_pairs(std::uint32_t k) const { return c_.deep[k]; }

 private:
  void touch(std::uint32_t k) {
    if (c_.listed[k]) return;
    c_.listed[k] = 1;
    c_.touched.push_back(k);
  }
  BodyClusters &c_;
};

// The overlap beyond which a pair of dynamic bodies pushes out at the cap: the soft contact asks
// for bias_rate x depth, capped at contact_push_max (the step's softness, set_contact_softness in
// world_step.cpp, set before the colouring).
float capped_push_depth(Stores<ReadsConfig, ReadsContacts> w) {
  const float rate = w.contacts.softness.bias_rate;
  return rate > 0 ? w.config.contact_push_max / rate : std::numeric_limits<float>::infinity();
}

// The push-out clusters (contact_solver.hpp), both found by union-finds in pair order whose
// roots are each cluster's smallest body index, so the same for any thread count, over the
// joining pairs: pairs of dynamic rigid bodies within kHoldingMass of each other's mass.
// - Free clusters: joined by every joining pair, overlapping or within the speculative margin.
//   A cluster with a pair to a static or kinematic body (united with `anchor`), or to one more
//   than kHoldingMass times heavier (united with `held`; both indices past the bodies), is held
//   and is not shared here. Pairs only near push nothing, so counting them only shares the cap
//   more; it makes the clusters a function of the pairs alone.
// - Crowd clusters: joined by crowd pairs. A joining pair becomes one when it overlaps deeper
//   than capped_push_depth and one of its bodies has more than kCrowdDeepPairs such pairs, or it
//   is new this step (found deep: bodies created inside each other) in a free cluster held by
//   `anchor`. It stays one while it overlaps, however shallow (carried by pair_previous), so a
//   crowd stays one cluster until it has come apart. A crowd cluster in a held free cluster
//   shares as held_cluster_pushes, one in a free cluster as cluster_pushes.
// Kept with the colours while the pairs are last step's (a settled pile pays nothing; the depths
// are those of the step that coloured them). Writes body_pushes: the largest of each
// body's crowded pushes and its clusters' pushes, or nothing when no body is crowded or in a
// cluster that shares. Walks the pairs and only the bodies the joining pairs name.
void count_body_pushes(
    Stores<ReadsConfig, ReadsTiming, ReadsBodies, ReadsParticles, ReadsContacts, WritesScratch> w) {
  const auto &set = w.contacts;
  auto &s = w.scratch;
  const auto &inv_mass = w.bodies.inv_mass;
  s.body_pushes = s.crowded_pushes;
  s.dense_pushes = !s.crowded_pushes.empty();
  s.pushed_bodies.clear();
  const std::size_t pairs = set.pair_keys.size();
  // Empty while there is no crowd pair (large_pyramid settling pays no per-pair flags).
  std::swap(s.crowd_pair, s.old_crowd_pair);
  s.crowd_pair.clear();
  const auto mark_crowd = [&](std::size_t q) {
    if (s.crowd_pair.empty()) s.crowd_pair.assign(pairs, 0);
    s.crowd_pair[q] = 1;
  };
  const auto joins = [&](std::uint32_t a, std::uint32_t b) {
    const float ima = inv_mass[a], imb = inv_mass[b];
    if (ima * kHoldingMass < imb || imb * kHoldingMass < ima || ima == 0) return false;
    return w.bodies.is_rigid(a) && w.bodies.is_rigid(b);
  };
  std::size_t p = 0;
  while (p < pairs) {
    const ContactPoint &first = set.points[set.pair_begin[p]];
    if (joins(first.body_v, first.body_o)) break;
    ++p;
  }
  if (p == pairs) return;
  // Free clusters held by a much heavier dynamic body are united with `held`, those held by a
  // static or kinematic one with `anchor` (indices past the bodies).
  const std::uint32_t held = std::uint32_t(w.bodies.size()), anchor = held + 1;
  const float deep = capped_push_depth(w);
  ClusterUse free(s.free_clusters, anchor + 1), crowd(s.crowd_clusters, held);
  auto &deep_pairs = s.deep_pair_list;
  deep_pairs.clear();
  for (std::size_t q = 0; q < pairs; ++q) {
    const ContactPoint &first = set.points[set.pair_begin[q]];
    const std::uint32_t a = first.body_v, b = first.body_o;
    if (q >= p && joins(a, b)) {
      free.unite(a, b);
      const float separation = set.pair_deepest[q];
      const auto &old = s.old_crowd_pair;
      const bool was_crowd =
          !old.empty() && set.pair_previous[q] < old.size() && old[set.pair_previous[q]];
      if (-separation > deep) free.add_deep_pair(a, b);
      if (separation < 0 && was_crowd) {
        mark_crowd(q);
        crowd.unite(a, b);
      } else if (-separation > deep) {
        deep_pairs.push_back(std::uint32_t(q));
      }
    } else if (inv_mass[a] * kHoldingMass < inv_mass[b]) {
      free.unite(b, inv_mass[a] == 0 ? anchor : held);
    } else if (inv_mass[b] * kHoldingMass < inv_mass[a]) {
      free.unite(a, inv_mass[b] == 0 ? anchor : held);
    }
  }
  const std::uint32_t held_root = free.root(held), anchor_root = free.root(anchor);
  // Deep pairs of a body inside more than kCrowdDeepPairs others, and deep pairs found deep in a
  // cluster on a static or kinematic body, start crowd pairs. Found deep means put there: new
  // this step, and deeper than the two bodies could have moved into each other in a step (their
  // motion now, which no contact between them has slowed yet). Bodies that flew into each other
  // too fast for a speculative point keep the full cap: counted as a crowd, `compounds`' falling
  // triangles stayed overlapping, 0.35 m deep on average instead of 0.25.
  constexpr std::uint32_t kNewPair = ~0u;  // ContactSet::pair_previous of a pair found this step
  const float slop = w.config.contact_slop;
  for (const std::uint32_t q : deep_pairs) {
    const ContactPoint &first = set.points[set.pair_begin[q]];
    const std::uint32_t a = first.body_v, b = first.body_o;
    const bool found_deep = set.pair_previous[q] == kNewPair && free.root(a) == anchor_root &&
                            pair_reach(w, a, b).margin - slop < -set.pair_deepest[q];
    if (!found_deep && std::max(free.deep_pairs(a), free.deep_pairs(b)) <= kCrowdDeepPairs)
      continue;
    mark_crowd(q);
    crowd.unite(a, b);
  }
  // Bodies per cluster, counted at its root; a held free cluster counts none, and a crowd
  // cluster in a held free cluster shares as a held crowd.
  const auto is_held = [&](std::uint32_t k) {
    const std::uint32_t root = free.root(k);
    return root == held_root || root == anchor_root;
  };
  const auto raise_pushes = [&](std::uint32_t k, float pushes) {
    if (pushes <= kCrowdedPushes) return;
    if (s.body_pushes.empty()) s.body_pushes.assign(w.bodies.size(), 0.0f);
    s.body_pushes[k] = std::max(s.body_pushes[k], pushes);
    s.pushed_bodies.push_back(k);
  };
  for (const std::uint32_t k : free.touched())
    if (k < held && inv_mass[k] > 0 && !is_held(k)) free.bodies_at(free.root(k)) += 1;
  for (const std::uint32_t k : free.touched())
    if (k < held && inv_mass[k] > 0) raise_pushes(k, cluster_pushes(free.bodies_at(free.root(k))));
  for (const std::uint32_t k : crowd.touched())
    if (inv_mass[k] > 0) crowd.bodies_at(crowd.root(k)) += 1;
  for (const std::uint32_t k : crowd.touched()) {
    if (inv_mass[k] == 0) continue;
    const float bodies = crowd.bodies_at(crowd.root(k));
    raise_pushes(k, is_held(k) ? held_cluster_pushes(bodies) : cluster_pushes(bodies));
  }
}

}  // namespace

void colour_contacts(Stores<ReadsConfig, RunsTasks, ReadsTiming, ReadsBodies, ReadsParticles,
                            WritesContacts, WritesScratch>
                         w) {
  auto &set = w.contacts;
  auto &s = w.scratch;
  set.points_relaid = false;
  set.structure_kept = same_contact_structure(w);
  if (set.structure_kept) {
    if (!set.points_relaid) return;
    // The pile is settling: the push-out counts read this step's depths, as a rebuild would.
    place_constraints(w);
    count_crowded_pushes(w);
    count_body_pushes(w);
    return;
  }
  s.coloured_moving_version = s.moving_version;
  const std::size_t pairs = set.pair_keys.size();
  set.pair_constraint_begin.resize(pairs + 1);
  s.pair_a.resize(pairs), s.pair_b.resize(pairs);
  // Constraints per pair (held in pair_constraint_begin until the offsets replace them), counted
  // and then written in fixed chunks at their offsets: the list is the same for any thread count.
  constexpr int kGrain = 2048;
  auto &chunk_first = s.chunk_counts;
  chunk_first.assign(std::size_t(TaskSystem::chunk_count(int(pairs), kGrain)) + 1, 0);
  std::atomic<bool> bouncy{false};  // any pair with restitution (else the pass is skipped)
  w.tasks.parallel_for(int(pairs), kGrain, [&](int lo, int hi, int) {
    std::uint32_t total = 0;
    bool chunk_bouncy = false;  // one shared store per chunk, not per pair
    for (std::size_t p = std::size_t(lo); p < std::size_t(hi); ++p) {
      const ContactPoint &cp = set.points[set.pair_begin[p]];
      chunk_bouncy |= cp.restitution > 0;
      const std::uint32_t points = set.pair_begin[p + 1] - set.pair_begin[p];
      const std::uint32_t n = constraints_of(rigid_pair(w, p), points);
      set.pair_constraint_begin[p] = n;
      total += n;
      s.pair_a[p] = cp.body_v, s.pair_b[p] = cp.body_o;
    }
    chunk_first[std::size_t(lo / kGrain) + 1] = total;
    if (chunk_bouncy) bouncy.store(true, std::memory_order_relaxed);
  });
  for (std::size_t c = 1; c < chunk_first.size(); ++c) chunk_first[c] += chunk_first[c - 1];
  set.constraint_first.resize(chunk_first.back());
  set.constraint_count.resize(chunk_first.back());
  w.tasks.parallel_for(int(pairs), kGrain, [&](int lo, int hi, int) {
    std::uint32_t at = chunk_first[std::size_t(lo / kGrain)];
    for (std::size_t p = std::size_t(lo); p < std::size_t(hi); ++p) {
      const std::uint32_t n = set.pair_constraint_begin[p];
      set.pair_constraint_begin[p] = at;
      place_pair_constraints(set, p, at, n, rigid_pair(w, p));
      at += n;
    }
  });
  set.pair_constraint_begin[pairs] = chunk_first.back();
  set.any_restitution = bouncy.load();
  colour_constraints(s.pair_a, s.pair_b, s.moving, w.bodies.size(), w.contacts.colours);
  count_crowded_pushes(w);
  count_body_pushes(w);
}

}  // namespace strut
