#include "solver/islands/islands.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>

#include "solver/bodies/body_store.hpp"
#include "solver/bodies/collider_store.hpp"
#include "solver/contacts/contact_store.hpp"
#include "solver/contacts/event_store.hpp"
#include "solver/contacts/pair_store.hpp"
#include "solver/core/step_timing.hpp"
#include "solver/core/stores.hpp"
#include "solver/core/task_system.hpp"
#include "solver/islands/island_store.hpp"
#include "solver/joints/joint_store.hpp"
#include "solver/step/collide_phase.hpp"
#include "solver/step/step_scratch.hpp"
#include "solver/step/visited_bodies.hpp"
#include "strut/world.hpp"

namespace strut {
namespace {

// Union-find shared by threads: parents are read and written through atomic_ref. A root is
// only ever linked under a smaller root, so every component's root is its smallest body: the
// islands come out the same whatever order the threads link in.
std::uint32_t find(std::vector<std::uint32_t>& parent, std::uint32_t i) {
  for (;;) {
    std::atomic_ref<std::uint32_t> pi(parent[i]);
    const std::uint32_t p = pi.load(std::memory_order_relaxed);
    if (p == i) return i;
    // Path halving: point i at its grandparent (a smaller index, never a wrong one).
    const std::uint32_t g =
        std::atomic_ref<std::uint32_t>(parent[p]).load(std::memory_order_relaxed);
    if (g != p) {
      std::uint32_t expected = p;
      pi.compare_exchange_weak(expected, g, std::memory_order_relaxed);
    }
    i = p;
  }
}

void unite(std::vector<std::uint32_t>& parent, std::uint32_t a, std::uint32_t b) {
  for (;;) {
    a = find(parent, a), b = find(parent, b);
    if (a == b) return;
    if (a > b) std::swap(a, b);
    // Link root b under a, unless another thread has just given b a parent: then look again.
    std::uint32_t expected = b;
    if (std::atomic_ref<std::uint32_t>(parent[b]).compare_exchange_strong(
            expected, a, std::memory_order_relaxed))
      return;
  }
}

bool links(Stores<ReadsBodies> w, std::uint32_t k) {
  // Static and kinematic bodies never join islands (a floor would merge everything); sleeping
  // bodies keep the island they fell asleep in, so it wakes as a whole.
  return w.bodies.inv_mass[k] > 0 && !(w.bodies.flags[k] & (kDead | kSleeping));
}

}  // namespace

void build_islands(
    Stores<ReadsConfig, RunsTasks, WritesBodies, ReadsContacts, ReadsJoints, WritesScratch> w) {
  // Islands exist to sleep (a still island sleeps whole, a touched one wakes whole); a world
  // that never sleeps needs none and skips the pass, a sizeable share of a pile's step.
  // Then `island` is left as it was: nothing reads it while no body can sleep.
  if (!w.config.enable_sleep) return;
  auto& b = w.bodies;
  const std::uint32_t n = static_cast<std::uint32_t>(b.size());
  auto& parent = w.scratch.island_parent;
  parent.resize(n);
  // Only visited bodies link (awake and dynamic) or get an island id; an idle one keeps its own.
  const auto& runs = w.scratch.body_runs;
  for (const auto& [first, last] : runs)
    std::iota(parent.begin() + first, parent.begin() + last, first);
  const auto& set = w.contacts;
  w.tasks.parallel_for(int(set.pair_keys.size()), 2048, [&](int lo, int hi, int) {
    for (int p = lo; p < hi; ++p) {
      if (!set.pair_touching[p]) continue;
      const ContactPoint& cp = set.points[set.pair_begin[p]];  // every point has the same bodies
      if (links(w, cp.body_v) && links(w, cp.body_o)) unite(parent, cp.body_v, cp.body_o);
    }
  });
  w.tasks.parallel_for(int(w.joints.dense.size()), 2048, [&](int lo, int hi, int) {
    for (int i = lo; i < hi; ++i) {
      const Joint& j = w.joints.dense[std::size_t(i)];
      if (!j.enabled) continue;
      const std::uint32_t a = w.bodies.slots[j.slot_a].dense, c = w.bodies.slots[j.slot_b].dense;
      if (links(w, a) && links(w, c)) unite(parent, a, c);
    }
  });
  parallel_for_each_in(w, runs, [&](std::uint32_t k) {
    if (!(b.flags[k] & kSleeping)) b.island[k] = b.slot[find(parent, k)];
  });
}

namespace {

void wake_body(Stores<WritesBodies, ReadsColliders, WritesJoints, WritesPairs, WritesEvents> w,
               std::uint32_t k) {
  auto& b = w.bodies;
  b.flags[k] &= std::uint8_t(~kSleeping);
  w.joints.mark_changed();  // a sleeping body's joints are not packed
  ++w.events.wakes_and_retires;
  mark_body_edited(w, k);
  b.sleep_time[k] = 0;
  set_body_sleeping(w, k, false);
}

// Appends the island's sleepers (dense; in any order, maybe twice) from its list, which it gives
// up: it is waking (tests/visited_bodies_test.cpp checks the lists against the sleeping bodies).
// A destroyed body waits, still flagged asleep, for the next compaction; its broad-phase proxy is
// already gone (fuzz_api: destroy a sleeper, then push its island-mate): it is not woken.
void take_sleepers(Stores<ReadsBodies, WritesIslands> w, std::uint32_t island,
                   std::vector<std::uint32_t>& out) {
  auto& b = w.bodies;
  const auto asleep_in_island = [&](std::uint32_t k) {
    return b.island[k] == island && (b.flags[k] & (kSleeping | kDead)) == kSleeping;
  };
  const auto listed = w.islands.sleepers.find(island);
  if (listed == w.islands.sleepers.end()) return;
  for (const std::uint32_t slot : listed->second) {
    if (!w.bodies.slots[slot].alive) continue;
    const std::uint32_t k = w.bodies.slots[slot].dense;
    if (asleep_in_island(k)) out.push_back(k);
  }
  w.islands.sleepers.erase(listed);
}

// Ascending, as a scan of the bodies found them (update_sleep merges the woken with the runs),
// each once.
void sort_unique(std::vector<std::uint32_t>& bodies) {
  std::sort(bodies.begin(), bodies.end());
  bodies.erase(std::unique(bodies.begin(), bodies.end()), bodies.end());
}

}  // namespace

void list_sleeper(Stores<ReadsBodies, WritesIslands> w, std::uint32_t k) {
  w.islands.sleepers[w.bodies.island[k]].push_back(w.bodies.slot[k]);
}

void forget_sleeper(Stores<ReadsBodies, WritesIslands> w, std::uint32_t k) {
  const auto listed = w.islands.sleepers.find(w.bodies.island[k]);
  if (listed == w.islands.sleepers.end()) return;
  auto& slots = listed->second;
  slots.erase(std::remove(slots.begin(), slots.end(), w.bodies.slot[k]), slots.end());
  if (slots.empty()) w.islands.sleepers.erase(listed);
}

void wake_island(
    Stores<WritesBodies, ReadsColliders, WritesJoints, WritesPairs, WritesIslands, WritesEvents> w,
    std::uint32_t island) {
  std::vector<std::uint32_t> sleepers;
  take_sleepers(w, island, sleepers);
  sort_unique(sleepers);
  for (const std::uint32_t k : sleepers) wake_body(w, k);
}

// Islands are marked here and woken after the step (wake_marked_islands), as Box2D does: for
// this step a touched sleeper takes impulses but does not move, and next step its island joins
// whole, with its pairs. Waking at once needed the broad and narrow phases again for the woken
// bodies' pairs (a fifth of the smash scene's step), and waking each island by its own pass
// over the bodies cost O(pairs x bodies).
void mark_touched_islands(Stores<ReadsBodies, ReadsContacts, WritesScratch> w) {
  auto& b = w.bodies;
  const auto& set = w.contacts;
  auto& wake = w.scratch.island_wake;
  wake.clear();
  // Without sleepers (a scene that never sleeps, a busy one) there is nothing to wake: a scan of
  // the flags instead of the pairs, which are serial work here.
  if (w.bodies.sleeping_count == 0) return;
  // A pair touches when one of its points is within the slop (narrow phase).
  for (std::size_t p = 0; p < set.pair_keys.size(); ++p) {
    if (!set.pair_touching[p]) continue;
    const ContactPoint& cp = set.points[set.pair_begin[p]];
    const std::uint32_t x = cp.body_v, y = cp.body_o;
    const bool sx = (b.flags[x] & kSleeping) != 0, sy = (b.flags[y] & kSleeping) != 0;
    if (sx == sy) continue;
    const std::uint32_t sleeper = sx ? x : y, other = sx ? y : x;
    if (b.flags[other] & kStatic) continue;
    wake.push_back(b.island[sleeper]);
  }
  std::sort(wake.begin(), wake.end());
  wake.erase(std::unique(wake.begin(), wake.end()), wake.end());
}

void wake_marked_islands(Stores<WritesBodies, ReadsColliders, WritesJoints, WritesPairs,
                                WritesIslands, WritesEvents, WritesScratch>
                             w) {
  const auto& wake = w.scratch.island_wake;
  auto& woken = w.scratch.woken;
  woken.clear();
  for (const std::uint32_t island : wake) take_sleepers(w, island, woken);
  sort_unique(woken);
  for (const std::uint32_t k : woken) wake_body(w, k);
}

void update_sleep(
    Stores<ReadsConfig, RunsTasks, ReadsTiming, WritesBodies, WritesColliders, WritesParticles,
           WritesJoints, WritesPairs, ReadsContacts, WritesIslands, WritesScratch>
        w,
    float dt) {
  if (!w.config.enable_sleep) return;  // no stillness timers in a world that never sleeps
  auto& b = w.bodies;
  auto& s = w.scratch;
  // The bodies this step visited and those it woke: the others sleep or are static.
  auto& runs = s.sleep_runs;
  merge_runs(s.body_runs, s.woken, runs);  // woken is ascending
  const float inv_h = 1.0f / w.timing.last_h;
  const float still = w.config.sleep_speed;
  // Stillness timer per body: the fastest point of the body must be slower than sleep_speed.
  parallel_for_each_in(w, runs, [&](std::uint32_t k) {
    if (b.inv_mass[k] == 0 || (b.flags[k] & kSleeping)) return;
    float v = std::sqrt(b.dx[k] * b.dx[k] + b.dy[k] * b.dy[k]) * inv_h;
    if (!w.bodies.is_rigid(k)) {
      // A soft body can deform with its centre at rest: its fastest particle counts.
      const auto& q = w.particles;
      for (std::uint32_t i = b.particle_begin[k]; i < b.particle_begin[k] + b.particle_count[k];
           ++i)
        v = std::max(v, std::sqrt(q.dx[i] * q.dx[i] + q.dy[i] * q.dy[i]) * inv_h);
    }
    const float omega = std::fabs(b.da[k]) * inv_h;
    const Aabb& box = b.aabb[k];
    const float reach = 0.5f * std::max(box.upper.x - box.lower.x, box.upper.y - box.lower.y);
    const bool slow = v + omega * reach < still && b.fx[k] == 0 && b.fy[k] == 0 &&
                      b.torque[k] == 0 && !(b.flags[k] & kNoSleep);
    b.sleep_time[k] = slow ? b.sleep_time[k] + dt : 0.0f;
  });
  // An island sleeps when its least still body has been still long enough. Kinematic bodies
  // that move keep what touches them awake (they are not in islands, so check contacts). The
  // minimum per island is kept by root slot; only the islands of awake bodies are read.
  const auto awake_dynamic = [&](std::uint32_t k) {
    return b.inv_mass[k] > 0 && !(b.flags[k] & kSleeping);
  };
  auto& min_time = s.island_min_time;
  min_time.resize(w.bodies.slots.size());
  for_each_in(runs, [&](std::uint32_t k) {
    if (awake_dynamic(k)) min_time[b.island[k]] = 1e30f;
  });
  for_each_in(runs, [&](std::uint32_t k) {
    if (awake_dynamic(k)) min_time[b.island[k]] = std::min(min_time[b.island[k]], b.sleep_time[k]);
  });
  const auto& set = w.contacts;
  for (std::size_t p = 0; w.bodies.kinematic_count > 0 && p < set.pair_keys.size(); ++p) {
    const ContactPoint& cp = set.points[set.pair_begin[p]];
    for (auto [self, other] : {std::pair{cp.body_v, cp.body_o}, {cp.body_o, cp.body_v}}) {
      if (!(b.flags[other] & kKinematic) || !awake_dynamic(self)) continue;
      if (b.dx[other] != 0 || b.dy[other] != 0 || b.da[other] != 0) min_time[b.island[self]] = 0;
    }
  }
  for_each_in(runs, [&](std::uint32_t k) {
    if (awake_dynamic(k) && !(min_time[b.island[k]] < w.config.sleep_time)) sleep_body(w, k);
  });
}

void sleep_body(Stores<ReadsConfig, WritesBodies, WritesColliders, WritesParticles, WritesJoints,
                       WritesPairs, WritesIslands>
                    w,
                std::uint32_t k) {
  auto& b = w.bodies;
  b.flags[k] |= kSleeping;
  w.joints.mark_changed();  // a sleeping body's joints are not packed
  list_sleeper(w, k);
  mark_body_edited(w, k);
  // Its proxy keeps the box it has while asleep: tight, fattened by the slop only.
  w.bodies.motion[k] = 0;
  w.bodies.sweep_x[k] = w.bodies.sweep_y[k] = w.bodies.spread[k] = 0;
  refresh_body_boxes(w, k);
  set_body_sleeping(w, k, true);
  b.dx[k] = b.dy[k] = 0;
  b.da[k] = 0;
  auto& q = w.particles;
  for (std::uint32_t i = b.particle_begin[k]; i < b.particle_begin[k] + b.particle_count[k]; ++i)
    q.dx[i] = q.dy[i] = 0;
}

}  // namespace strut
