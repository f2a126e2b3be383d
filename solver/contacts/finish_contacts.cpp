#include "solver/contacts/contact_solver.hpp"
#include "solver/contacts/contact_store.hpp"
#include "solver/core/stores.hpp"
#include "solver/core/task_system.hpp"

namespace strut {

// A kept structure leaves the impulses in the lanes until something reads them
// (point_impulses.cpp): next step will most likely keep it again. A rebuilt one (the pairs are
// changing, as in `smash`) writes them back now, while the points are still in cache from the
// prepare: pulled back at the next narrow phase instead, `smash`'s narrow phase lost more time
// than the write-back here saved.
// Pressed points make their pair touching (islands, events); a pair the narrow phase found
// touching (in a resting pile, nearly every one) needs no look at its points.
void finish_contacts(Stores<RunsTasks, WritesContacts> w) {
  auto &set = w.contacts;
  set.impulses_in_lanes = !set.wide.empty();
  if (!set.structure_kept) pull_impulses(w, set.points, false);
  w.tasks.parallel_for(int(set.pair_keys.size()), 2048, [&](int lo, int hi, int) {
    for (int p = lo; p < hi; ++p)
      if (!set.pair_touching[p])
        for (std::uint32_t k = set.pair_begin[p]; k < set.pair_begin[p + 1]; ++k)
          if (point_impulses(set, set.points, k).max_lambda_n > 0) set.pair_touching[p] = 1;
  });
}

}  // namespace strut
