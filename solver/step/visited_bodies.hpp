// The bodies a step visits. Static and sleeping bodies do not change between steps, so what the
// per-body passes compute for them (poses before the step, bounds, solver rows, movable flags,
// island ids) stays valid while they stay idle. Each step's passes visit only the bodies that are
// not idle (awake and moving, or soft) and those changed since the last step: every change of a
// body's flags (put to sleep, woken, type), pose, motion or forces, by the program or by the
// step, goes through mark_body_edited, and created bodies count as changed. The runs of bodies
// not idle are kept between steps and updated from the changed ones, so an idle body costs
// nothing at all per step; a compaction (destroyed bodies) renumbers the bodies after the first
// destroyed one, and the next step visits those once. Box2D keeps idle bodies out of its awake set
// the same way; here they keep their dense place and the passes skip them by runs (maximal ranges
// of visited dense indices).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "solver/bodies/body_store.hpp"
#include "solver/core/stores.hpp"
#include "solver/core/task_system.hpp"

namespace strut {

// Ranges [first, last) of dense body indices, ascending and disjoint.
using BodyRuns = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

// Body k changed outside the passes (flags, pose, motion, forces, mass, type): the next step
// visits it. Every write of a body's flags must call this.
inline void mark_body_edited(Stores<WritesBodies> w, std::uint32_t k) {
  w.bodies.edited.push_back(k);
}

// A compaction renumbered the bodies from `first` on: what was kept of their last visit is
// dropped, and the next step visits them as created.
void forget_visits_from(Stores<WritesBodies> w, std::uint32_t first);

// Reads: body flags, the edited bodies. Writes: StepScratch::body_runs (the bodies this step's
// passes visit: the runs of bodies not idle and the edited ones), the kept runs and counts.
// Linear in the runs and the edits, not in the bodies.
void find_visited_bodies(Stores<WritesBodies, WritesScratch> w);

// Reads: contact pairs, flags. Writes: StepScratch::solver_runs, the body runs plus the sleeping
// bodies of this step's contact pairs: the solver may give those motion (a touched sleeper takes
// impulses this step and wakes after it), so the end of the step scatters and clamps them too.
void find_solver_bodies(Stores<ReadsBodies, ReadsContacts, WritesScratch> w);

// Calls fn(first, last) for the part of each run inside [lo, hi).
template <class Fn>
void for_runs_in(const BodyRuns& runs, int lo, int hi, Fn&& fn) {
  // First run ending after lo.
  auto it = std::upper_bound(runs.begin(), runs.end(), std::uint32_t(lo),
                             [](std::uint32_t v, const auto& run) { return v < run.second; });
  for (; it != runs.end() && int(it->first) < hi; ++it)
    fn(int(std::max(lo, int(it->first))), int(std::min(hi, int(it->second))));
}

// `runs` and the ascending `bodies` as one list of runs (a body may lie in a run already).
void merge_runs(const BodyRuns& runs, const std::vector<std::uint32_t>& bodies, BodyRuns& out);

// The colliders of the bodies of `runs` (colliders are dense in body order), as runs.
void collider_runs_of(Stores<ReadsBodies> w, const BodyRuns& runs, BodyRuns& out);

// fn(first, last) over the runs of [0, count), in fixed chunks of that range split between
// threads: the same chunks for any thread count, so element-wise passes give the same bits.
// `w` is any Stores (or the world state) that runs tasks; the second form also reads the bodies.
template <class State, class Fn>
void parallel_for_runs(State&& w, int count, const BodyRuns& runs, Fn&& fn) {
  w.tasks.parallel_for(count, TaskSystem::even_grain(count),
                       [&](int lo, int hi, int) { for_runs_in(runs, lo, hi, fn); });
}
template <class State, class Fn>
void parallel_for_runs(State&& w, const BodyRuns& runs, Fn&& fn) {
  parallel_for_runs(w, int(w.bodies.size()), runs, fn);
}

// fn(k) for every body of the runs, in order.
template <class Fn>
void for_each_in(const BodyRuns& runs, Fn&& fn) {
  for (const auto& [first, last] : runs)
    for (std::uint32_t k = first; k < last; ++k) fn(k);
}

// fn(k) for every body of the runs, in parallel.
template <class State, class Fn>
void parallel_for_each_in(State&& w, const BodyRuns& runs, Fn&& fn) {
  parallel_for_runs(w, runs, [&](int first, int last) {
    for (int k = first; k < last; ++k) fn(std::uint32_t(k));
  });
}

}  // namespace strut
