// The broad phase's candidate pairs for the narrow phase: the sweep of enlarged boxes (skipped
// while last sweep's pairs hold), the world's pair filters and the pairs grouped by collider.
#include <algorithm>
#include <cmath>

#include "solver/bodies/body_store.hpp"
#include "solver/bodies/collider_store.hpp"
#include "solver/collide/manifold.hpp"
#include "solver/contacts/callback_store.hpp"
#include "solver/contacts/contact_solver.hpp"
#include "solver/contacts/pair_store.hpp"
#include "solver/core/stores.hpp"
#include "solver/core/task_system.hpp"
#include "solver/step/bounds_kernel.hpp"
#include "solver/step/collide_phase.hpp"
#include "solver/step/step_scratch.hpp"
#include "solver/step/visited_bodies.hpp"
#include "strut/world.hpp"

namespace strut {

namespace {

// Keeps the items i in [0, total) for which keep(i) holds, as out[...] = make(i), in order: fixed
// chunks count their survivors, then write them at their offsets (any thread count, same list).
template <class Keep, class Make, class Out>
void filter_in_order(Stores<RunsTasks, WritesScratch> w, int total, Keep keep, Make make,
                     std::vector<Out>& out) {
  constexpr int kGrain = 4096;
  if (total <= kGrain) {  // one chunk: the survivors are written as they are found, in one pass
    out.resize(std::size_t(total));
    std::size_t at = 0;
    for (int i = 0; i < total; ++i)
      if (keep(std::size_t(i))) out[at++] = make(std::size_t(i));
    out.resize(at);
    return;
  }
  auto& kept = w.scratch.chunk_counts;
  kept.assign(std::size_t(TaskSystem::chunk_count(total, kGrain)) + 1, 0);
  w.tasks.parallel_for(total, kGrain, [&](int lo, int hi, int) {
    std::uint32_t count = 0;
    for (int i = lo; i < hi; ++i) count += keep(std::size_t(i));
    kept[std::size_t(lo / kGrain) + 1] = count;
  });
  for (std::size_t c = 1; c < kept.size(); ++c) kept[c] += kept[c - 1];
  out.resize(kept.back());
  w.tasks.parallel_for(total, kGrain, [&](int lo, int hi, int) {
    std::uint32_t at = kept[std::size_t(lo / kGrain)];
    for (int i = lo; i < hi; ++i)
      if (keep(std::size_t(i))) out[at++] = make(std::size_t(i));
  });
}

// How much a swept box is enlarged beyond the box the step needs: a tenth of the collider's size,
// at most 10 cm (Box2D's margin). A resting body's box then stays inside its enlarged one for
// many steps and the sweep is skipped (below); a larger margin lists more pairs that the step
// filters out again.
constexpr float kEnlargeFraction = 0.1f, kEnlargeMax = 0.1f;

// Whether last sweep's pairs still hold every pair whose boxes overlap now: nothing changed in
// the broad phase (no proxy inserted, removed, re-filtered, put to sleep, woken or moved by
// set_box; no new ignored pairs), every collider's body keeps its flags, and every awake moving
// collider's box lies inside the enlarged box it was swept with.
bool enlarged_pairs_hold(
    Stores<RunsTasks, ReadsBodies, ReadsColliders, ReadsPairs, WritesScratch> w) {
  const auto& b = w.bodies;
  const auto& c = w.colliders;
  const auto& sc = w.scratch;
  const std::size_t n = c.size();
  if (w.pairs.broadphase.version() != w.pairs.enlarged_version || sc.enlarged_flags.size() != n)
    return false;
  constexpr int kGrain = 4096;
  auto& escaped = w.scratch.chunk_counts;
  escaped.assign(std::size_t(TaskSystem::chunk_count(int(n), kGrain)), 0);
  // The colliders of the bodies this step visits: an unvisited body is idle and unchanged since
  // its last visit, whose step swept (its flags or its broad-phase box had changed).
  w.tasks.parallel_for(int(n), kGrain, [&](int lo, int hi, int) {
    std::uint32_t out = 0;
    for_runs_in(sc.collider_runs, lo, hi, [&](int first, int last) {
      for (std::size_t i = std::size_t(first); i < std::size_t(last); ++i) {
        const std::uint8_t flags = b.flags[c.body[i]];
        out |= flags != sc.enlarged_flags[i];
        if (flags & (kStatic | kSleeping | kDead)) continue;
        out |= (sc.fat_lx[i] < sc.enlarged_lx[i]) | (sc.fat_ly[i] < sc.enlarged_ly[i]) |
               (sc.fat_ux[i] > sc.enlarged_ux[i]) | (sc.fat_uy[i] > sc.enlarged_uy[i]);
      }
    });
    escaped[std::size_t(lo / kGrain)] = out;
  });
  return std::none_of(escaped.begin(), escaped.end(), [](std::uint32_t e) { return e != 0; });
}

// Whether two colliders of different bodies may interact at all, the broad phase having checked
// category and mask: groups, jointed bodies that do not collide, two bodies of infinite mass
// (the broad phase knows static and sleeping, but not kinematic). Sensors: see is_sensor_pair.
bool colliders_may_touch(Stores<ReadsBodies, ReadsColliders, ReadsPairs> w, std::uint32_t i,
                         std::uint32_t j) {
  const auto& b = w.bodies;
  const auto& c = w.colliders;
  const std::uint32_t bi = c.body[i], bj = c.body[j];
  if (bi == bj) return false;
  const std::uint8_t fi = b.flags[bi], fj = b.flags[bj];
  if ((fi | fj) & kDead) return false;
  const bool sensor = c.sensor[i] || c.sensor[j];
  if (sensor) {
    // A sensor sees visitors that are not sensors, static ones too (sensor_events.cpp).
    if (c.sensor[i] && c.sensor[j]) return false;
  } else if ((fi & (kStatic | kKinematic)) && (fj & (kStatic | kKinematic))) {
    return false;
  }
  if (c.group[i] == c.group[j] && c.group[i] != 0) return c.group[i] > 0;
  if ((c.category[i] & c.mask[j]) == 0 || (c.category[j] & c.mask[i]) == 0) return false;
  if (!w.pairs.ignored.empty()) {
    const std::uint64_t key = pair_key(b.slot[bi], b.slot[bj]);
    if (std::binary_search(w.pairs.ignored.begin(), w.pairs.ignored.end(), key)) return false;
  }
  return true;
}

// The contact pairs grouped by their first collider (dense index), in the broad phase's order
// within a group: a stable counting sort. Colliders are dense in body order, so the narrow phase
// then visits a body's pairs together and the colouring, which takes pairs in this order, fills a
// colour's lanes with nearby bodies: their rows stay in cache from one pair to the next. In the
// sweep's order, which interleaves bodies far apart at the same x (many_pyramids' twenty floors),
// the narrow phase and the solve miss the cache far more often.
void group_by_first_collider(Stores<ReadsColliders, WritesScratch> w,
                             std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs) {
  // Few pairs among many colliders (a small awake part of a large idle world): a stable sort of
  // the pairs gives the same order without a pass over every collider, which would cost in
  // proportion to the idle world.
  if (pairs.size() * 16 < w.colliders.size()) {
    std::stable_sort(pairs.begin(), pairs.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    return;
  }
  auto& begin = w.scratch.pair_group_begin;
  auto& sorted = w.scratch.grouped_pairs;
  begin.assign(w.colliders.size() + 1, 0);
  for (const auto& [a, c] : pairs) ++begin[a + 1];
  for (std::size_t i = 1; i < begin.size(); ++i) begin[i] += begin[i - 1];
  sorted.resize(pairs.size());
  for (const auto& pair : pairs) sorted[begin[pair.first]++] = pair;
  pairs.swap(sorted);
}

// Sweeps the enlarged boxes of the awake moving colliders (static and sleeping proxies keep the
// boxes they were given) and keeps the pairs that may interact, in dense indices: contact pairs
// (lower slot first) and sensor pairs (sensor first). The order is the broad phase's, contact
// pairs grouped by their first collider. The custom filter sees the contact pairs last.
void sweep_enlarged(
    Stores<RunsTasks, ReadsBodies, ReadsColliders, WritesPairs, WritesCallbacks, WritesScratch> w) {
  const auto& b = w.bodies;
  const auto& c = w.colliders;
  auto& bp = w.pairs.broadphase;
  auto& sc = w.scratch;
  const std::size_t n = c.size();
  sc.enlarged_lx.resize(n), sc.enlarged_ly.resize(n), sc.enlarged_ux.resize(n);
  sc.enlarged_uy.resize(n), sc.enlarged_flags.resize(n);
  const std::span<float> lx = bp.min_x(), ly = bp.min_y(), ux = bp.max_x(), uy = bp.max_y();
  // The colliders of the visited bodies: an unvisited one keeps the enlarged box of the sweep of
  // its last visit, made from the same box it has now.
  parallel_for_runs(w, int(n), sc.collider_runs, [&](int first, int last) {
    for (std::uint32_t i = std::uint32_t(first); i < std::uint32_t(last); ++i) {
      const std::uint8_t flags = b.flags[c.body[i]];
      sc.enlarged_flags[i] = flags;
      const float size = std::max(sc.tight_ux[i] - sc.tight_lx[i], sc.tight_uy[i] - sc.tight_ly[i]);
      const float m = std::min(kEnlargeFraction * size, kEnlargeMax);
      sc.enlarged_lx[i] = sc.fat_lx[i] - m, sc.enlarged_ly[i] = sc.fat_ly[i] - m;
      sc.enlarged_ux[i] = sc.fat_ux[i] + m, sc.enlarged_uy[i] = sc.fat_uy[i] + m;
      if (flags & (kStatic | kSleeping | kDead)) continue;
      const std::uint32_t s = c.slot[i];
      lx[s] = sc.enlarged_lx[i], ly[s] = sc.enlarged_ly[i];
      ux[s] = sc.enlarged_ux[i], uy[s] = sc.enlarged_uy[i];
    }
  });
  bp.find_pairs(w.pairs.broadphase_pairs, w.tasks);
  const auto& pairs = w.pairs.broadphase_pairs;
  // Each pair's class once (the filter below reads it twice): 0 dropped, 1 contact, 2 sensor.
  auto& kind = sc.pair_class;
  kind.resize(pairs.size());
  w.tasks.parallel_for(int(pairs.size()), 4096, [&](int lo, int hi, int) {
    for (int i = lo; i < hi; ++i) {
      const std::uint32_t x = w.colliders.slots[pairs[std::size_t(i)].a].dense;
      const std::uint32_t y = w.colliders.slots[pairs[std::size_t(i)].b].dense;
      kind[std::size_t(i)] = !colliders_may_touch(w, x, y) ? 0
                             : (c.sensor[x] | c.sensor[y]) ? 2
                                                           : 1;
    }
  });
  filter_in_order(
      w, int(pairs.size()), [&](std::size_t i) { return kind[i] == 1; },
      [&](std::size_t i) {
        return std::pair{w.colliders.slots[pairs[i].a].dense, w.colliders.slots[pairs[i].b].dense};
      },
      w.pairs.enlarged);
  group_by_first_collider(w, w.pairs.enlarged);
  if (w.colliders.custom_filter_count != 0 || !w.callbacks.filter_verdicts.empty())
    apply_custom_filter(w, w.pairs.enlarged);
  w.pairs.enlarged_sensor.clear();
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (kind[i] != 2) continue;
    const std::uint32_t x = w.colliders.slots[pairs[i].a].dense;
    const std::uint32_t y = w.colliders.slots[pairs[i].b].dense;
    w.pairs.enlarged_sensor.push_back(c.sensor[x] ? std::pair{x, y} : std::pair{y, x});
  }
  w.pairs.enlarged_version = bp.version();
  ++w.pairs.sweeps;
}

}  // namespace

// The broad phase updates only when something moved out of what it last swept: a settled
// pyramid sweeps once and then only checks boxes (Box2D's fat boxes do the same for its tree).
void find_candidate_pairs(Stores<ReadsConfig, RunsTasks, ReadsBodies, ReadsColliders, WritesPairs,
                                 WritesCallbacks, WritesScratch>
                              w) {
  const auto& c = w.colliders;
  auto& sc = w.scratch;
  const std::size_t n = c.size();
  // Swept boxes of the visited bodies' colliders in one SIMD pass over SoA arrays (their tight
  // boxes and motion, written by update_bounds): the boxes this step needs. The other colliders
  // keep their boxes of their last visit.
  sc.fat_lx.resize(n), sc.fat_ly.resize(n), sc.fat_ux.resize(n), sc.fat_uy.resize(n);
  const BoundsSpans spans{sc.tight_lx.data(),
                          sc.tight_ly.data(),
                          sc.tight_ux.data(),
                          sc.tight_uy.data(),
                          sc.collider_sweep_x.data(),
                          sc.collider_sweep_y.data(),
                          sc.collider_spread.data(),
                          sc.fat_lx.data(),
                          sc.fat_ly.data(),
                          sc.fat_ux.data(),
                          sc.fat_uy.data()};
  collider_runs_of(w, w.scratch.body_runs, sc.collider_runs);
  parallel_for_runs(w, int(n), sc.collider_runs, [&](int lo, int hi) {
    fatten_bounds_simd(spans, lo, hi, 0.5f * w.config.contact_slop);
  });
  if (!enlarged_pairs_hold(w)) sweep_enlarged(w);
  // The candidates: the enlarged pairs whose boxes overlap this step, so the narrow phase and the
  // continuous pass see the same pairs as a sweep of this step's boxes would give.
  auto overlap = [&](std::uint32_t a, std::uint32_t d) {
    return !(sc.fat_lx[a] > sc.fat_ux[d] || sc.fat_lx[d] > sc.fat_ux[a] ||
             sc.fat_ly[a] > sc.fat_uy[d] || sc.fat_ly[d] > sc.fat_uy[a]);
  };
  filter_in_order(
      w, int(w.pairs.enlarged.size()),
      [&](std::size_t i) { return overlap(w.pairs.enlarged[i].first, w.pairs.enlarged[i].second); },
      [&](std::size_t i) { return w.pairs.enlarged[i]; }, w.pairs.candidates);
  w.pairs.sensor_candidates.clear();
  for (const auto& [sensor, visitor] : w.pairs.enlarged_sensor)
    if (overlap(sensor, visitor)) w.pairs.sensor_candidates.emplace_back(sensor, visitor);
}

}  // namespace strut
