// The custom filter (World::set_custom_filter) on the broad phase's pairs. The sweep's pairs
// (candidate_pairs.cpp) last from one sweep to the next while the bodies stay inside their
// enlarged boxes, so a pair is asked about when a sweep first lists it and its answer is kept for
// as long as the following sweeps list it: one call per meeting, where a per-step question would
// ask a resting pile's every pair every step. Answers are kept per pair of shapes (a chain's
// segments are colliders of one shape), keyed by shape slots.
#include <algorithm>

#include "solver/bodies/body_store.hpp"
#include "solver/bodies/collider_store.hpp"
#include "solver/contacts/callback_store.hpp"
#include "solver/core/stores.hpp"
#include "solver/step/callback_guard.hpp"
#include "solver/step/collide_phase.hpp"
#include "solver/step/step_scratch.hpp"

namespace strut {
namespace {

bool verdict_before(const FilterVerdict& x, const FilterVerdict& y) { return x.key < y.key; }

const FilterVerdict* find_verdict(const std::vector<FilterVerdict>& sorted, std::uint64_t key) {
  const auto at =
      std::lower_bound(sorted.begin(), sorted.end(), FilterVerdict{.key = key}, verdict_before);
  return at != sorted.end() && at->key == key ? &*at : nullptr;
}

bool filter_flagged(const ColliderArrays& c, std::uint32_t a, std::uint32_t d) {
  return ((c.callbacks[a] | c.callbacks[d]) & kCustomFilter) != 0;
}

}  // namespace

void apply_custom_filter(Stores<ReadsBodies, ReadsColliders, WritesCallbacks, WritesScratch> w,
                         std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs) {
  auto& next = w.scratch.next_verdicts;
  next.clear();
  if (w.colliders.custom_filter_count == 0 || !w.callbacks.custom_filter) {
    w.callbacks.filter_verdicts.clear();  // nothing to ask: every pair collides
    return;
  }
  const auto& c = w.colliders;
  // The shape pairs of the flagged pairs, each once, with last sweep's answer where there is one.
  for (std::uint32_t i = 0; i < pairs.size(); ++i) {
    const auto [a, d] = pairs[i];
    if (!filter_flagged(c, a, d)) continue;
    const std::uint64_t key = pair_key(c.shape[a], c.shape[d]);
    const FilterVerdict* known = find_verdict(w.callbacks.filter_verdicts, key);
    next.push_back({key, i, known ? known->verdict : FilterVerdict::kAsk});
  }
  // Stable: within a shape pair, its first collider pair stays first.
  std::stable_sort(next.begin(), next.end(), verdict_before);
  next.erase(
      std::unique(next.begin(), next.end(),
                  [](const FilterVerdict& x, const FilterVerdict& y) { return x.key == y.key; }),
      next.end());
  // The new shape pairs, asked in pair order.
  std::vector<FilterVerdict*> ask;
  for (FilterVerdict& v : next)
    if (v.verdict == FilterVerdict::kAsk) ask.push_back(&v);
  std::sort(ask.begin(), ask.end(),
            [](const FilterVerdict* x, const FilterVerdict* y) { return x->first < y->first; });
  for (FilterVerdict* v : ask) {
    const auto [a, d] = pairs[v->first];
    const ShapePair pair{w.colliders.shape_slots.id_of<ShapeId>(c.shape[a]),
                         w.colliders.shape_slots.id_of<ShapeId>(c.shape[d]),
                         w.bodies.id_of_dense(c.body[a]), w.bodies.id_of_dense(c.body[d])};
    bool threw = false;
    const bool collide = call_guarded(w.callbacks.custom_filter, pair, w.callbacks.error, threw);
    // A filter that threw is asked again at the next sweep.
    v->verdict = threw     ? FilterVerdict::kAsk
                 : collide ? FilterVerdict::kCollide
                           : FilterVerdict::kReject;
  }
  std::erase_if(pairs, [&](const std::pair<std::uint32_t, std::uint32_t>& p) {
    if (!filter_flagged(c, p.first, p.second)) return false;
    const FilterVerdict* v = find_verdict(next, pair_key(c.shape[p.first], c.shape[p.second]));
    return v->verdict == FilterVerdict::kReject;
  });
  std::erase_if(next, [](const FilterVerdict& v) { return v.verdict == FilterVerdict::kAsk; });
  w.callbacks.filter_verdicts.swap(next);
}

void forget_filter_verdicts(WorldState& w, std::uint32_t shape) {
  std::erase_if(w.callbacks.filter_verdicts, [&](const FilterVerdict& v) {
    return std::uint32_t(v.key >> 32) == shape || std::uint32_t(v.key) == shape;
  });
}

bool filter_rejected(Stores<ReadsColliders, ReadsCallbacks> w, std::uint32_t a, std::uint32_t c) {
  if (w.callbacks.filter_verdicts.empty()) return false;
  const auto& col = w.colliders;
  const FilterVerdict* v =
      find_verdict(w.callbacks.filter_verdicts, pair_key(col.shape[a], col.shape[c]));
  return v && v->verdict == FilterVerdict::kReject;
}

}  // namespace strut
