#include "solver/step/visited_bodies.hpp"

#include <algorithm>

#include "solver/bodies/body_store.hpp"
#include "solver/contacts/contact_store.hpp"
#include "solver/core/stores.hpp"
#include "solver/step/step_scratch.hpp"

namespace strut {
namespace {

// Appends [first, last) to ascending runs, joining it to the last run where they meet.
void append_run(BodyRuns& runs, std::uint32_t first, std::uint32_t last) {
  if (!runs.empty() && runs.back().second >= first)
    runs.back().second = std::max(runs.back().second, last);
  else
    runs.emplace_back(first, last);
}

// Idle: static or asleep, and not soft (the struts of a sleeping soft body still act on its
// particles, so every step fits its pose again).
bool is_idle(std::uint8_t flags) {
  return (flags & (kStatic | kSleeping)) != 0 && (flags & kSoft) == 0;
}

// The awake runs with the edited bodies (ascending, distinct) taken out or put in by their flags
// now: one merge, linear in runs and edits.
void update_awake_runs(const std::vector<std::uint8_t>& flags, const BodyRuns& old,
                       const std::vector<std::uint32_t>& edits, BodyRuns& out) {
  out.clear();
  std::size_t e = 0;
  const auto put = [&](std::uint32_t k) {
    if (!is_idle(flags[k])) append_run(out, k, k + 1);
  };
  for (const auto& [first, last] : old) {
    for (; e < edits.size() && edits[e] < first; ++e) put(edits[e]);
    std::uint32_t from = first;
    for (; e < edits.size() && edits[e] < last; ++e) {
      if (from < edits[e]) append_run(out, from, edits[e]);
      put(edits[e]);
      from = edits[e] + 1;
    }
    if (from < last) append_run(out, from, last);
  }
  for (; e < edits.size(); ++e) put(edits[e]);
}

}  // namespace

void find_visited_bodies(Stores<WritesBodies, WritesScratch> w) {
  const auto& flags = w.bodies.flags;
  auto& seen = w.bodies.visited_flags;
  auto& edits = w.bodies.edited;
  auto& s = w.scratch;
  const std::uint32_t n = std::uint32_t(flags.size());
  // Bodies created since the last step are edits, with no flags before.
  for (std::uint32_t k = std::uint32_t(seen.size()); k < n; ++k) edits.push_back(k);
  seen.resize(n, 0);
  std::sort(edits.begin(), edits.end());
  edits.erase(std::unique(edits.begin(), edits.end()), edits.end());
  for (const std::uint32_t k : edits) {
    const std::uint8_t was = seen[k], now = flags[k];
    w.bodies.sleeping_count += ((now & kSleeping) != 0) - ((was & kSleeping) != 0);
    w.bodies.kinematic_count += ((now & kKinematic) != 0) - ((was & kKinematic) != 0);
    seen[k] = now;
  }
  update_awake_runs(flags, w.bodies.awake_runs, edits, s.edited_awake_runs);
  w.bodies.awake_runs.swap(s.edited_awake_runs);
  merge_runs(w.bodies.awake_runs, edits, s.body_runs);
  edits.clear();
}

void forget_visits_from(Stores<WritesBodies> w, std::uint32_t first) {
  auto& seen = w.bodies.visited_flags;
  for (std::size_t k = first; k < seen.size(); ++k) {
    w.bodies.sleeping_count -= (seen[k] & kSleeping) != 0;
    w.bodies.kinematic_count -= (seen[k] & kKinematic) != 0;
  }
  if (seen.size() > first) seen.resize(first);
  auto& runs = w.bodies.awake_runs;
  while (!runs.empty() && runs.back().first >= first) runs.pop_back();
  if (!runs.empty()) runs.back().second = std::min(runs.back().second, first);
  auto& edits = w.bodies.edited;
  edits.erase(
      std::remove_if(edits.begin(), edits.end(), [&](std::uint32_t k) { return k >= first; }),
      edits.end());
}

void merge_runs(const BodyRuns& runs, const std::vector<std::uint32_t>& bodies, BodyRuns& out) {
  out.clear();
  auto run = runs.begin();
  for (const std::uint32_t k : bodies) {
    for (; run != runs.end() && run->first <= k; ++run) append_run(out, run->first, run->second);
    append_run(out, k, k + 1);
  }
  for (; run != runs.end(); ++run) append_run(out, run->first, run->second);
}

void collider_runs_of(Stores<ReadsBodies> w, const BodyRuns& runs, BodyRuns& out) {
  const auto& b = w.bodies;
  out.clear();
  for (const auto& [first, last] : runs) {
    const std::uint32_t lo = b.collider_begin[first];
    const std::uint32_t hi = b.collider_begin[last - 1] + b.collider_count[last - 1];
    if (lo < hi) append_run(out, lo, hi);
  }
}

void find_solver_bodies(Stores<ReadsBodies, ReadsContacts, WritesScratch> w) {
  auto& s = w.scratch;
  s.solver_runs = s.body_runs;
  if (w.bodies.sleeping_count == 0) return;
  const auto& flags = w.bodies.flags;
  const auto& set = w.contacts;
  auto& sleepers = s.touched_sleepers;
  sleepers.clear();
  for (std::size_t p = 0; p < set.pair_keys.size(); ++p) {
    const ContactPoint& cp = set.points[set.pair_begin[p]];  // every point has the same bodies
    if (flags[cp.body_v] & kSleeping) sleepers.push_back(cp.body_v);
    if (flags[cp.body_o] & kSleeping) sleepers.push_back(cp.body_o);
  }
  if (sleepers.empty()) return;
  std::sort(sleepers.begin(), sleepers.end());
  merge_runs(s.body_runs, sleepers, s.solver_runs);
}

}  // namespace strut
