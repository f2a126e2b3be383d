// The contact callbacks inside a step (strut/contact_callbacks.hpp): the custom filter on the
// broad phase's pairs (custom_filter.cpp) and the pre-solve callback on the narrow phase's
// (pre_solve.cpp). Both run on the stepping thread, in pair order.
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "solver/world_impl.hpp"

namespace strut {

// Calls a callback; if it throws, keeps the step's first exception for World::step to rethrow
// after the step and answers true (the pair collides), setting `threw`.
template <class Callback, class Argument>
bool call_guarded(World::Impl& w, const Callback& callback, const Argument& argument, bool& threw) {
  try {
    return callback(argument);
  } catch (...) {
    if (!w.callback_error) w.callback_error = std::current_exception();
    threw = true;
    return true;
  }
}

// Drops from `pairs` (dense colliders, in the broad phase's order) those the custom filter
// rejects, asking it about each shape pair not answered at the last sweep, in pair order; the
// answers of the shape pairs still present are kept for the next sweep (World::Impl::
// filter_verdicts), the others forgotten. Only called while some collider has the flag or
// answers are kept.
void apply_custom_filter(World::Impl& w,
                         std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs);
// Forgets the answers about shape slot `shape`'s pairs (its filter changed, or it was removed:
// a slot reused by a new shape must not inherit them).
void forget_filter_verdicts(World::Impl& w, std::uint32_t shape);
// Whether the custom filter rejected dense colliders a and c's shapes at the last sweep.
bool filter_rejected(const World::Impl& w, std::uint32_t a, std::uint32_t c);

// Asks the pre-solve callback about the rows of the narrow phase's chunks that set
// pre_solve_rows, in pair order, and drops the rows it disables from their chunks (listing
// their keys in StepScratch::pre_solve_disabled). Returns whether it dropped any.
bool run_pre_solve(World::Impl& w, std::span<NarrowChunk> chunks);
// Whether the pre-solve callback disabled dense colliders a and c's contact this step.
bool pre_solve_disabled(const World::Impl& w, std::uint32_t a, std::uint32_t c);

}  // namespace strut
