#include "solver/contacts/contact_solver.hpp"

namespace strut {

// The impulses stay in the lanes until something reads them (point_impulses.cpp). Pressed
// points make their pair touching (islands, events); a pair the narrow phase found touching (in
// a resting pile, nearly every one) needs no look at its points.
void finish_contacts(World::Impl &w) {
  auto &set = w.contacts;
  set.impulses_in_lanes = !set.wide.empty();
  w.tasks.parallel_for(int(set.pair_keys.size()), 2048, [&](int lo, int hi, int) {
    for (int p = lo; p < hi; ++p)
      if (!set.pair_touching[p])
        for (std::uint32_t k = set.pair_begin[p]; k < set.pair_begin[p + 1]; ++k)
          if (point_impulses(set, set.points, k).max_lambda_n > 0) set.pair_touching[p] = 1;
  });
}

}  // namespace strut
