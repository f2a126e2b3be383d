// Broad phase: sort and sweep along one axis, with layers, sleeping and static proxies. See
// docs/architecture.md (broad phase).
//
// One step (find_pairs):
//  1. Choose the sweep axis (x or y) from the spread of the moving boxes' centres
//     (axis_choice.hpp).
//  2. Repair the sorted order of the non-static proxies ("moving") along the sweep axis, but for
//     the sleepers settled in the sleeping set (kept sorted like the static set, see
//     settle_sleepers): insertion sort from last step's order (temporal coherence), or a radix sort
//     on float keys when the order is far off (first step, axis change, fast motion everywhere,
//     many teleports or inserts). Removed proxies are dropped in the same pass; new proxies and
//     the few that jumped far (teleports) are sorted apart and merged in.
//  3. Copy the moving boxes in sweep order into SoA arrays so the kernel reads contiguous memory.
//  4. Sweep in fixed chunks of the sorted range (TaskSystem::parallel_for): each moving box scans
//     the following moving boxes (overlap_kernel.hpp), then the static set and the sleeping set
//     (static_set.hpp), writing pairs to the chunk's own buffer.
//  5. Concatenate the chunk buffers in chunk order (or sort them, see set_sorted_output).
//
// Canonical order of find_pairs' output (a pure function of the live proxies' boxes and flags and
// of which sleepers are settled, whatever the thread count or chunking; which are settled
// depends on the history of sleeps and wakes, the same in every run of the same calls):
//  - "sweep order" of moving proxies = ascending (float_sort_key(min on the sweep axis), key);
//  - pairs are grouped by their moving proxy that comes first in sweep order, groups in sweep
//    order; in a group, first its moving partners in sweep order, then its static partners by
//    size class (StaticSet) and sweep order within the class, then its sleeping partners alike;
//  - the sweep axis is itself a pure function of the moving boxes (axis_choice.hpp).
// Sorting by (a, b) instead (set_sorted_output) costs a good share of the sweep on top of it, so
// it is optional.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>
#include <xsimd/xsimd.hpp>

#include "broadphase/pair.hpp"
#include "broadphase/pair_sort.hpp"
#include "broadphase/proxy_filter.hpp"
#include "broadphase/static_set.hpp"
#include "broadphase/sweep_queries.hpp"
#include "solver/core/task_system.hpp"
#include "strut/math.hpp"

namespace strut::broadphase {

class SweepAndPrune {
 public:
  // Counters of the last find_pairs, for tests and profiling.
  struct Stats {
    bool radix_sorted = false;         // moving order rebuilt from scratch (not repaired)
    bool statics_rebuilt = false;      // static set sorted this step
    bool sleepers_rebuilt = false;     // sleeping set sorted this step (settle_sleepers)
    std::size_t insertion_shifts = 0;  // moves of keys displaced 4+ places (the budgeted part)
    std::size_t merged_inserts = 0;    // new proxies merged into the repaired order
    std::size_t jumpers = 0;           // boxes that moved far, taken out and merged back
    double estimated_shifts = 0.0;     // places per box the repair would move keys
    std::size_t moving = 0;            // in the moving order: awake and unsettled sleeping
    std::size_t statics = 0;
    std::size_t settled = 0;  // sleepers in the sleeping set (some woken or moved since)
    // Wall-clock nanoseconds of each phase (steady_clock, read once per phase).
    std::int64_t order_ns = 0;   // compaction, axis choice, repair or re-sort, inserts
    std::int64_t gather_ns = 0;  // sorted SoA copies (+ static set rebuild if needed)
    std::int64_t sweep_ns = 0;   // parallel sweep
    std::int64_t merge_ns = 0;   // chunk lists concatenated (or sorted by (a, b))
  };

  // proxy: the caller's stable key (the world's body slot), may be reused after remove().
  // Throws std::invalid_argument if the proxy is already present.
  void insert(std::uint32_t proxy, const Aabb& box, std::uint32_t category, std::uint32_t mask,
              bool is_static);
  // Throws std::invalid_argument if the proxy is not present.
  void remove(std::uint32_t proxy);
  // Any proxy; a static proxy's change re-sorts the static set at the next find_pairs.
  void set_box(std::uint32_t proxy, const Aabb& box);
  // A static proxy's change also re-sorts the static set (it keeps sorted copies of filters).
  void set_filter(std::uint32_t proxy, std::uint32_t category, std::uint32_t mask);
  // Sleeping proxies pair only with awake non-static ones. No effect on static proxies. A proxy
  // that falls asleep stays in the moving order until enough have (settle_sleepers); one that
  // wakes from the sleeping set is ignored there until the set is next sorted.
  void set_sleeping(std::uint32_t proxy, bool sleeping);

  // Per-proxy boxes (SoA, indexed by proxy) for the world's bulk AABB pass. Sized to the largest
  // proxy ever inserted + 1; slots of absent proxies are ignored. Writes count as set_box for
  // non-static proxies. Static proxies must use set_box (their sorted copy is not re-read).
  // The spans are invalidated by an insert() that grows the key range.
  std::span<float> min_x() { return {min_x_.data(), capacity_}; }
  std::span<float> min_y() { return {min_y_.data(), capacity_}; }
  std::span<float> max_x() { return {max_x_.data(), capacity_}; }
  std::span<float> max_y() { return {max_y_.data(), capacity_}; }

  // All overlapping pairs that pass the filters, each once as (lower key, higher key), in the
  // canonical order above (or sorted by (a, b) with set_sorted_output). Boxes that only touch
  // overlap. Steady state allocates nothing (buffers are reused; `out` keeps its capacity).
  void find_pairs(std::vector<Pair>& out, const TaskSystem& tasks);

  // Output sorted by (a, b) (e.g. to merge-join with last step's contacts). Off by default.
  void set_sorted_output(bool sorted) { sorted_output_ = sorted; }

  std::size_t proxy_count() const { return live_count_; }
  // Counts the changes made through insert, remove, set_box, set_filter and set_sleeping (not
  // box writes through the spans): equal versions and boxes that stayed
  // inside the ones last swept mean the same pairs overlap (the world's pair reuse).
  std::uint64_t version() const { return version_; }

  // Not part of the world's interface: for tests and benchmarks.
  int sweep_axis() const { return axis_; }  // 0 = x, 1 = y
  const Stats& last_stats() const { return stats_; }

  // Every member but the sorter's scratch and the views into the chunks, which each sweep makes
  // afresh (solver/core/field_archive.hpp).
  template <class F>
  void for_each_field(F&& f) {
    f(capacity_), f(live_count_), f(version_), f(min_x_), f(min_y_), f(max_x_), f(max_y_);
    f(info_), f(axis_), f(moving_count_), f(order_stale_), f(order_), f(order_scratch_);
    f(pending_), f(new_keys_), f(jump_limit_), f(s_min_a_), f(s_max_a_), f(s_min_b_);
    f(s_max_b_), f(s_proxy_), f(s_info_), f(statics_), f(sleepers_), f(settled_), f(unsettled_);
    f(waited_), f(fresh_sleepers_), f(fixed_proxies_);
    f(chunks_), f(sorted_output_), f(stats_);
  }

 private:
  template <class T>
  using AlignedVector = std::vector<T, xsimd::aligned_allocator<T, 64>>;

  using ProxyInfo = ProxyFilter;
  static constexpr std::uint32_t kAlive = kProxyAlive;
  static constexpr std::uint32_t kStatic = kProxyStatic;
  static constexpr std::uint32_t kSleeping = kProxySleeping;
  static constexpr std::uint32_t kInOrder = kProxyInOrder;
  static constexpr std::uint32_t kPending = kProxyPending;
  static constexpr std::uint32_t kSettled = kProxySettled;
  // Hit indices carrying this bit point into the static set, the others into the moving run.
  static constexpr std::uint32_t kStaticHit = 0x80000000u;
  static constexpr std::uint32_t kSleeperHit = 0x40000000u;  // into the sleeping set
  // rebuild_order sorts the awake proxies' list instead of scanning all proxies below this
  // ratio of proxies to awake ones.
  static constexpr std::size_t kSortRebuildBelow = 16;
  // The sleeping set is sorted again when the sleepers outside it and those that left it since
  // it was sorted number more than twice the square root of its size, and at least
  // kSettleAtLeast. A sort costs about S (its size), a sleeper waiting in the moving order
  // about a unit each step, so with r sleeps and wakes a step, sorting after T costs r S / T +
  // T / 2 a step, least at T = sqrt(2 r S); a threshold proportional to S instead leaves
  // thousands of sleepers in the moving order of a large world.
  static constexpr std::size_t kSettleAtLeast = 64;
  // Per-chunk sweep output and static cursors, reused between steps. pairs[0, count) are this
  // step's; pairs.size() is only capacity, so appends need no branch per pair.
  struct Chunk {
    std::vector<Pair> pairs;
    std::size_t count = 0;
    std::vector<std::uint32_t> cursors;
    template <class F>
    void for_each_field(F&& f) {
      f(pairs), f(count), f(cursors);
    }
  };

  ProxyInfo& live(std::uint32_t proxy, const char* what);
  void grow(std::uint32_t proxy);
  void invalidate_statics();
  void unsettle(ProxyInfo& info);
  void return_to_order(std::uint32_t proxy);
  void rejoin_asleep(std::uint32_t proxy);
  void settle_sleepers();
  void build_fixed_set(StaticSet& set, std::uint32_t mask, std::uint32_t flags);
  const float* axis_lo() const { return axis_ == 0 ? min_x_.data() : min_y_.data(); }
  std::uint64_t order_key(std::uint32_t proxy) const;

  void update_order();
  void rebuild_order();
  bool repair_order();
  void merge_new_keys();
  void gather_sorted(const TaskSystem& tasks);
  void sweep(const TaskSystem& tasks);
  // A chunk's queries through one kernel (sweep_queries.hpp).
  using SweepFn = void (*)(const SweepView&, std::size_t, std::size_t, HitFlush, void*);
  void sweep_chunk(SweepFn queries, std::size_t begin, std::size_t end, Chunk& chunk) const;
  void emit_hits(HitBuffer& hits, Chunk& chunk) const;

  // Per-proxy state, indexed by proxy key; capacity_ = largest key ever inserted + 1.
  std::size_t capacity_ = 0;
  std::size_t live_count_ = 0;
  std::uint64_t version_ = 0;
  AlignedVector<float> min_x_, min_y_, max_x_, max_y_;
  std::vector<ProxyInfo> info_;

  // Moving proxies in sweep order: (float_sort_key(min on axis) << 32) | proxy.
  int axis_ = 0;
  std::size_t moving_count_ = 0;  // live non-static proxies
  bool order_stale_ = true;       // rebuild with a radix sort at the next step
  std::vector<std::uint64_t> order_, order_scratch_;
  std::vector<std::uint32_t> pending_;
  std::vector<std::uint64_t> new_keys_;  // keys of pending_ and of jumpers, to merge
  float jump_limit_ = std::numeric_limits<float>::infinity();  // see kJumpExtents

  // Moving boxes in sweep order (axis-relative SoA) + kRunPadding NaN entries.
  AlignedVector<float> s_min_a_, s_max_a_, s_min_b_, s_max_b_;
  std::vector<std::uint32_t> s_proxy_;
  std::vector<ProxyInfo> s_info_;  // filters in sweep order: hits read neighbours, not random slots

  // Static proxies, one sorted set per axis, built when first needed after a static change; the
  // settled sleepers likewise, apart from the moving order: awake boxes query both, so a sweep
  // costs nothing per static or settled proxy it does not touch. Sorting the sleeping set at
  // every sleep and wake would cost a large world most of its step at each such event, so a
  // proxy that falls asleep stays in the moving order (pairing only with awake ones) and one
  // that wakes, or is moved or refiltered asleep, is skipped in the set (its kSettled flag is
  // gone) until enough have (settle_sleepers).
  StaticSet statics_[2], sleepers_[2];
  std::size_t settled_ = 0;    // proxies the sleeping set was sorted with
  std::size_t unsettled_ = 0;  // sleepers outside it, and proxies that left it, since
  std::size_t waited_ = 0;     // unsettled_ summed over the steps since
  std::vector<std::uint32_t> fresh_sleepers_;  // fell asleep since (some woken or gone since)
  std::vector<std::uint32_t> fixed_proxies_;

  std::vector<Chunk> chunks_;
  std::vector<std::span<const Pair>> part_views_;  // chunks_[c].pairs, for the sorter
  PairSorter sorter_;
  bool sorted_output_ = false;
  Stats stats_;
};

}  // namespace strut::broadphase
