// The sweep's queries over one chunk of moving boxes (sweep_and_prune.cpp): each box against the
// moving boxes after it in sweep order and, when awake, against the static groups it may touch,
// through the overlap kernel (overlap_kernel.hpp). A template over the kernel: an xsimd batch,
// instantiated by each SIMD level's file (sweep_kernel_table_<level>.cpp) and dispatched at run
// time (solver/simd/simd_dispatch.hpp), or ScalarKernel, the scalar twin, instantiated in
// sweep_kernel_table.cpp. Every kernel reports the same hits in the same order
// (tests/broadphase_test.cpp, tests/simd_dispatch_test.cpp). Plain data in, a plain function
// pointer out: nothing here is a non-template inline function that a level's file compiled with
// wide instructions could share with baseline code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "broadphase/overlap_kernel.hpp"
#include "broadphase/proxy_filter.hpp"
#include "broadphase/static_set.hpp"

namespace strut::broadphase {

// Selects the scalar twin of the overlap kernel.
struct ScalarKernel {};

// Called with a full hit buffer: must consume the hits and reset hits.count to 0.
using HitFlush = void (*)(void* context, HitBuffer& hits);

// A sorted set of boxes that do not move (the static set, the sleeping set) as the queries read
// it. Hits on it carry `hit` in their index; cursors[g] is group g's seek position, starting at
// the group's begin, carried from query to query (queries come in ascending min).
struct FixedView {
  SortedRun run;                             // set->run()
  const StaticSet::Group* groups = nullptr;  // set->groups()
  std::size_t group_count = 0;
  const StaticSet* set = nullptr;  // for seek (compiled once, in static_set.cpp)
  std::uint32_t hit = 0;
  std::uint32_t* cursors = nullptr;
};

// What one chunk's queries read: the moving boxes (awake, and sleepers not yet settled) in sweep
// order, their filters, and the static and sleeping sets for the sweep axis.
struct SweepView {
  SortedRun moving;
  const ProxyFilter* moving_filters = nullptr;
  FixedView fixed[2];  // statics, sleepers
};

// Queries of the moving boxes [begin, end), their hits handed to flush(context, hits) whenever
// the buffer fills and once at the end. The buffer is a local of the kernel, so the compiler
// knows that nothing else writes it.
//
// The view is copied into a local first. Through the reference, every batch of the scans reloaded
// the run's pointers from memory: flush is an opaque call that might write the caller's view, so
// the compiler could not keep them in registers, and the sweep was markedly slower.
template <class Batch>
void sweep_queries(const SweepView& view, std::size_t begin, std::size_t end, HitFlush flush,
                   void* context) {
  const SweepView v = view;
  HitBuffer hits;
  auto full = [flush, context](HitBuffer& h) { flush(context, h); };
  for (std::size_t i = begin; i < end; ++i) {
    const QueryBox q{v.moving.min_a[i], v.moving.max_a[i], v.moving.min_b[i], v.moving.max_b[i]};
    const auto id = static_cast<std::uint32_t>(i);
    // Moving boxes after i in sweep order have min_a >= q.min_a: no max_a test needed.
    if constexpr (std::is_same_v<Batch, ScalarKernel>) {
      scan_run_scalar<false>(v.moving, i + 1, q, id, 0, hits, full);
    } else {
      scan_run_simd<false, Batch>(v.moving, i + 1, q, id, 0, hits, full);
    }
    // A sleeper waiting in the moving order pairs with neither static nor sleeping boxes.
    if (v.moving_filters[i].flags & kProxySleeping) continue;
    for (const FixedView& f : v.fixed) {
      for (std::size_t g = 0; g < f.group_count; ++g) {
        const StaticSet::Group& group = f.groups[g];
        if (group.max_b < q.min_b || group.min_b > q.max_b) continue;
        const std::uint32_t start = f.set->seek(group, q.min_a, f.cursors[g]);
        f.cursors[g] = start;
        if constexpr (std::is_same_v<Batch, ScalarKernel>) {
          scan_run_scalar<true>(f.run, start, q, id, f.hit, hits, full);
        } else {
          scan_run_simd<true, Batch>(f.run, start, q, id, f.hit, hits, full);
        }
      }
    }
  }
  flush(context, hits);
}

}  // namespace strut::broadphase
