// Continuous collision for fast bodies, after the substeps. Speculative contacts stop almost
// everything, but a small body that moves many times its size in one step while spinning can
// still cross a thin wall (its corners' speculative points couple through the rotation and one
// Gauss-Seidel pass does not stop it). Such a body's centre is swept from where it started the
// step to where it ended; if the sweep enters a static or kinematic shape (any shape, for
// bullets), the body is put back on its path just before the surface. Its velocity is kept, so
// the next step's contacts meet it on the correct side. The same idea as Box2D's continuous pass
// (which sweeps the whole shape; the centre sweep is cheaper and suffices to keep the body on
// the right side of the wall).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <tuple>

#include "solver/bodies/body_store.hpp"
#include "solver/bodies/collider_store.hpp"
#include "solver/contacts/callback_store.hpp"
#include "solver/contacts/contact_store.hpp"
#include "solver/contacts/pair_store.hpp"
#include "solver/core/stores.hpp"
#include "solver/core/task_system.hpp"
#include "solver/query/query_store.hpp"
#include "solver/shapes/shape_ops.hpp"
#include "solver/step/collide_phase.hpp"
#include "solver/step/step_internals.hpp"
#include "solver/step/step_scratch.hpp"
#include "solver/step/visited_bodies.hpp"
#include "strut/world.hpp"

namespace strut {
namespace {

float extent(const Aabb& b) { return std::min(b.upper.x - b.lower.x, b.upper.y - b.lower.y); }

// StepScratch::fast_flag: 0 not checked, 1 fast, kDeep pressed deep into a fixed body.
constexpr std::uint8_t kDeep = 2;

// Whether a contact callback let body k's colliders through collider i: the custom filter
// rejected their shapes, or the pre-solve callback disabled their contact this step.
bool excused(Stores<ReadsBodies, ReadsColliders, ReadsCallbacks, ReadsScratch> w, std::uint32_t k,
             std::uint32_t i) {
  if (w.callbacks.filter_verdicts.empty() && w.scratch.pre_solve_disabled.empty()) return false;
  const auto& b = w.bodies;
  for (std::uint32_t ck = b.collider_begin[k]; ck < b.collider_begin[k] + b.collider_count[k]; ++ck)
    if (filter_rejected(w, ck, i) || pre_solve_disabled(w, ck, i)) return true;
  return false;
}

// A fast body that moved farther than its broad-phase box allowed (the spinner's bar flung a ball
// from 20 to 74 m/s within a step) may have crossed static shapes that were never among its
// pairs. Its centre's path is tested against the static colliders near it, from an index of the
// static colliders rebuilt when bodies were created, destroyed or moved. Rare: the index is built
// only on the first step that needs it after a change.
void sweep_unpredicted(Stores<ReadsConfig, ReadsBodies, ReadsColliders, ReadsParticles,
                              ReadsCallbacks, WritesQueries, ReadsScratch>
                           w,
                       const std::vector<std::uint8_t>& flag, std::vector<float>& fast) {
  const auto& b = w.bodies;
  const auto& c = w.colliders;
  for_each_in(w.scratch.body_runs, [&](std::uint32_t k) {
    if (!flag[k]) return;
    const Vec2 from = b.before_step[k].position, to{b.px[k], b.py[k]};
    const float moved = length(to - from);
    if (moved <= w.bodies.motion[k] + w.config.contact_slop || moved <= 0.25f * extent(b.aabb[k]))
      return;
    QueryIndex& index = w.queries.static_index;
    if (index.needs_build(w.bodies.edits)) {
      std::vector<Aabb> boxes(c.size());
      std::vector<std::uint8_t> live(c.size());
      for (std::uint32_t i = 0; i < c.size(); ++i) {
        live[i] = (b.flags[c.body[i]] & (kStatic | kDead)) == kStatic && !c.sensor[i];
        if (live[i]) boxes[i] = collider_tight_box(w, i);
      }
      index.build(w.bodies.edits, boxes, live);
    }
    const Aabb path{{std::min(from.x, to.x), std::min(from.y, to.y)},
                    {std::max(from.x, to.x), std::max(from.y, to.y)}};
    index.for_each_overlap(path, [&](std::uint32_t i) {
      if (excused(w, k, i)) return;
      if (const auto hit = shapes::ray_cast(shape_view(w, i), from, to))
        fast[k] = std::min(fast[k], hit->fraction);
    });
  });
}

}  // namespace

// Candidates come from this step's broad-phase pairs: a body's broad-phase box already contains
// its predicted path this step (swept along it), so anything its centre can cross on that path
// is among its pairs; a body that moved farther than predicted is swept below. (Scanning
// every body instead was far slower for a falling cloth of many small particles.)
void continuous_pass(Stores<ReadsConfig, RunsTasks, WritesBodies, ReadsColliders, ReadsParticles,
                            ReadsPairs, ReadsContacts, ReadsCallbacks, WritesQueries, WritesScratch>
                         w) {
  auto& b = w.bodies;
  auto& fast = w.scratch.fast_hit;
  // Only awake dynamic bodies are ever fast, and those are visited: the others' entries stay as
  // the step of their last visit left them (no hit, not fast).
  const auto& runs = w.scratch.body_runs;
  fast.resize(b.size(), 2.0f);  // > 1: no hit; only fast bodies get a fraction
  // Fast: predicted to move more than half its size this step, or it did (a body hit hard during
  // the step moves farther than predicted).
  auto is_fast = [&](std::uint32_t k) {
    if (b.inv_mass[k] == 0 || (b.flags[k] & (kSoft | kSleeping | kDead))) return false;
    const float half = 0.5f * extent(b.aabb[k]);
    if (w.bodies.motion[k] > half) return true;
    const Vec2 moved = Vec2{b.px[k], b.py[k]} - b.before_step[k].position;
    return dot(moved, moved) > half * half;
  };
  // Fast bodies are rare: find them in parallel and skip the pair scan when there are none.
  auto& flag = w.scratch.fast_flag;
  flag.resize(b.size(), 0);
  std::atomic<bool> any{false};
  parallel_for_runs(w, runs, [&](int lo, int hi) {
    bool found = false;
    for (int k = lo; k < hi; ++k) {
      fast[std::size_t(k)] = 2.0f;
      found |= (flag[std::size_t(k)] = is_fast(std::uint32_t(k)));
    }
    if (found) any.store(true, std::memory_order_relaxed);
  });
  // Deep: overlapping a static or kinematic body by more than four contact slops (2 cm) at the
  // step's start. Such a body is being pressed into it (the spinner's bar squeezing a box
  // against the rim) and can cross it a little at a time, each step slower than the bound above: a
  // box of half-extent 0.35, 0.06 to 0.16 m deep for ten steps, crossed the rim's line at 0.4 m a
  // step, and behind the one-sided chain it left the spinner. Its centre is checked at any speed.
  // (A settled pyramid's deepest overlap is under 1 cm.) The pairs' depths stream; a body is read
  // only for the rare deep pair.
  const auto& set = w.contacts;
  const float deep = 4.0f * w.config.contact_slop;
  w.tasks.parallel_for(int(set.pair_deepest.size()), 4096, [&](int lo, int hi, int) {
    bool found = false;
    for (int p = lo; p < hi; ++p) {
      const float depth = -set.pair_deepest[std::size_t(p)];
      if (!(depth > deep)) continue;
      const ContactPoint& first = set.points[set.pair_begin[std::size_t(p)]];
      for (auto [k, other] :
           {std::pair{first.body_v, first.body_o}, std::pair{first.body_o, first.body_v}}) {
        if (b.inv_mass[other] != 0 || b.inv_mass[k] == 0) continue;
        if (b.flags[k] & (kSoft | kSleeping | kDead)) continue;
        // Several pairs may mark one body: the same value, stored atomically.
        std::atomic_ref<std::uint8_t>(flag[k]).store(kDeep, std::memory_order_relaxed);
        found = true;
      }
    }
    if (found) any.store(true, std::memory_order_relaxed);
  });
  if (!any.load()) return;
  // Pairs in parallel; a body's earliest hit is a minimum, which any order of updates reaches
  // with the same bits.
  const auto& pairs = w.pairs.candidates;
  w.tasks.parallel_for(int(pairs.size()), 4096, [&](int lo, int hi, int) {
    for (int p = lo; p < hi; ++p) {
      const auto [ci, cj] = pairs[std::size_t(p)];
      const std::uint32_t i = w.colliders.body[ci], j = w.colliders.body[cj];
      if (!flag[i] && !flag[j]) continue;
      for (auto [k, other, other_collider] : {std::tuple{i, j, cj}, std::tuple{j, i, ci}}) {
        if (!flag[k]) continue;
        if (!(b.flags[k] & kBullet) && b.inv_mass[other] != 0) continue;
        if (pre_solve_disabled(w, ci, cj)) continue;
        const Vec2 from = b.before_step[k].position;
        const Vec2 to{b.px[k], b.py[k]};
        const float size = extent(b.aabb[k]);
        if (flag[k] != kDeep && length(to - from) <= 0.25f * size) continue;
        const auto hit = shapes::ray_cast(shape_view(w, other_collider), from, to);
        if (!hit) continue;
        std::atomic_ref<float> earliest(fast[k]);
        float seen = earliest.load(std::memory_order_relaxed);
        while (hit->fraction < seen &&
               !earliest.compare_exchange_weak(seen, hit->fraction, std::memory_order_relaxed)) {
        }
      }
    }
  });
  sweep_unpredicted(w, flag, fast);
  for_each_in(runs, [&](std::uint32_t k) {
    if (fast[k] >= 1.0f) return;
    const Vec2 from = b.before_step[k].position;
    const Vec2 to{b.px[k], b.py[k]};
    const float len = length(to - from);
    // Stop a quarter of the body's size before the surface.
    const float f = std::max(0.0f, fast[k] - 0.25f * extent(b.aabb[k]) / len);
    b.px[k] = from.x + f * (to.x - from.x);
    b.py[k] = from.y + f * (to.y - from.y);
  });
}

}  // namespace strut
