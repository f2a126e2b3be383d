// The building blocks of a contact pass as stages of a TaskSystem stage list.
#pragma once

#include <vector>

#include "solver/contacts/body_lanes.hpp"
#include "solver/contacts/contact_solver.hpp"
#include "solver/core/world_state_fwd.hpp"
#include "solver/colouring/colour_stages.hpp"
#include "solver/step/visited_bodies.hpp"

namespace strut {

// A contact pass is a list of stages: gather the solver bodies, one stage per colour
// (add_colour_stages), scatter, then the points of pairs that touch a soft body,
// serially in pair order, on the body arrays.
using Stage = TaskSystem::Stage;

// One stage over the solver bodies' runs: body_fn(first, end) for each run in it.
template <void (*body_fn)(WorldState &, int, int)>
void add_body_runs_stage(WorldState &w, std::vector<Stage> &stages, int phase) {
  stages.push_back({int(w.bodies.size()), TaskSystem::even_grain(int(w.bodies.size())),
                    [&w](int lo, int hi, int) {
                      for_runs_in(w.scratch.solver_runs, lo, hi,
                                  [&w](int a, int b) { body_fn(w, a, b); });
                    },
                    phase});
}

inline void add_gather(WorldState &w, std::vector<Stage> &stages, int phase) {
  add_body_runs_stage<gather_solver_bodies>(w, stages, phase);
}
// Only the motion, when the poses have not changed since the last gather.
inline void add_gather_motion(WorldState &w, std::vector<Stage> &stages, int phase) {
  add_body_runs_stage<gather_solver_motion>(w, stages, phase);
}
inline void add_scatter(WorldState &w, std::vector<Stage> &stages, int phase) {
  add_body_runs_stage<scatter_solver_bodies>(w, stages, phase);
}

// One stage per colour over the gathered solver bodies (colour_stages.hpp). An item is `count`
// wide constraints solved in order, each in SIMD lanes; in the overflow colour, whose lanes may
// share a body, lane after lane through the scalar twin. fn(wide constraint, count, scalar).
template <class Fn>
void add_contact_colour_stages(WorldState &w, std::vector<Stage> &stages, int phase, Fn fn) {
  auto &set = w.contacts;
  strut::add_colour_stages(stages, set.colour_work_begin, w.tasks.thread_count(), 2, phase,
                           [&set, fn](std::uint32_t first, std::uint32_t last, bool overflow) {
                             for (std::uint32_t i = first; i < last; ++i) {
                               const ContactWork &item = set.work[i];
                               fn(&set.wide[item.first], item.count, overflow);
                             }
                           });
}

// Points touching a soft body (soft_contacts.hpp), serially in pair order, on the body arrays.
template <class Fn>
void add_soft_stage(WorldState &w, std::vector<Stage> &stages, int phase, Fn fn) {
  if (w.contacts.generic_pairs.empty()) return;
  stages.push_back({1, 1,
                    [&w, fn](int, int, int) {
                      auto &set = w.contacts;
                      for (std::uint32_t p : set.generic_pairs)
                        for (std::uint32_t k = set.pair_begin[p]; k < set.pair_begin[p + 1]; ++k)
                          fn(set.points[k]);
                    },
                    phase});
}

// A whole pass in its own parallel region (restitution, once per step).
template <class WideFn, class SoftFn>
void contact_pass(WorldState &w, WideFn fn_wide, SoftFn fn_soft) {
  auto &stages = w.scratch.contact_stages;
  stages.clear();
  add_gather(w, stages, -1);
  add_contact_colour_stages(w, stages, -1, fn_wide);
  add_scatter(w, stages, -1);
  add_soft_stage(w, stages, -1, fn_soft);
  w.tasks.run_stages(stages);
}

}  // namespace strut
