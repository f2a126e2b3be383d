#include "solver/contacts/contact_features.hpp"
#include "solver/contacts/contact_solver.hpp"

namespace strut {

// Every point lives in exactly one lane, so the copies back are independent. The lanes are in
// colour order and the points in pair order, so each copy writes a cache line nowhere near the
// last: the points of the wide constraint two ahead are asked for first, so that their misses
// overlap (many_pyramids, 1 thread, minimum of 3: 1.94 ms a step without, 1.32 one ahead,
// 1.21 two ahead, 1.41 four ahead).
void finish_contacts(World::Impl &w) {
  auto &set = w.contacts;
  constexpr int kAhead = 2;
  w.tasks.parallel_for(int(set.wide.size()), 64, [&](int lo, int hi, int) {
    for (int i = lo; i < hi; ++i) {
      if (i + kAhead < hi)
        for (const FeatureRows &rows : set.wide_features[std::size_t(i) + kAhead].p)
          for (int lane = 0; lane < kContactLanes; ++lane)
            if (rows.point[lane] != ~0u) __builtin_prefetch(&set.points[rows.point[lane]], 1);
      for (int k = 0; k < 2; ++k) {
        const WidePoint &p = set.wide[std::size_t(i)].p[k];
        const FeatureRows &rows = set.wide_features[std::size_t(i)].p[k];
        for (int lane = 0; lane < kContactLanes; ++lane) {
          if (rows.point[lane] == ~0u) continue;
          ContactPoint &cp = set.points[rows.point[lane]];
          cp.lambda_n = p.lambda_n[lane];
          cp.lambda_t = rows.flip[lane] != 0 ? -p.lambda_t[lane] : p.lambda_t[lane];
          cp.max_lambda_n = p.max_lambda_n[lane];
          cp.vn_pre = rows.vn_pre[lane];  // hit events read it
          cp.sliding = p.sliding[lane] > 0.5f;
        }
      }
    }
  });
  // Pressed points make their pair touching (islands, events). A pair the narrow phase found
  // touching (in a resting pile, nearly every one) needs no look at its points.
  w.tasks.parallel_for(int(set.pair_keys.size()), 2048, [&](int lo, int hi, int) {
    for (int p = lo; p < hi; ++p)
      if (!set.pair_touching[p])
        for (std::uint32_t k = set.pair_begin[p]; k < set.pair_begin[p + 1]; ++k)
          if (set.points[k].max_lambda_n > 0) set.pair_touching[p] = 1;
  });
}

}  // namespace strut
