#include "broadphase/sweep_and_prune.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "broadphase/axis_choice.hpp"
#include "broadphase/overlap_kernel.hpp"
#include "broadphase/radix_sort.hpp"
#include "broadphase/sweep_kernel_table.hpp"
#include "broadphase/sweep_queries.hpp"

namespace strut::broadphase {

namespace {

// Moving boxes per parallel chunk. Fixed (never derived from the thread count) so chunk
// boundaries are deterministic; 512 gives 20 chunks for 10k boxes, enough to balance 2-8
// workers, while the per-chunk cost (one task, one static-cursor seek per size class) stays
// well under 1% of the chunk's sweep.
constexpr int kSweepChunk = 512;

// Boxes per chunk of the parallel gather (a few microseconds of work each).
constexpr int kGatherChunk = 2048;

// A box whose min moved more than this many mean box extents (along the sweep axis) since last
// step is taken out of the order and merged back, instead of being moved by insertion sort.
constexpr double kJumpExtents = 4.0;

// Repair or re-sort: repairing wins while boxes move a place or two, re-sorting once most keys
// move four places or more, past the branch-free window, and mispredict (figures in
// docs/architecture.md). So a step whose estimated moves per box exceed kRadixShiftsPerBox
// re-sorts directly, and a
// repair that exceeds kRepairMovesPerBox far moves (four places or more) per box gives up.
constexpr double kRadixShiftsPerBox = 3.0;
constexpr std::size_t kRepairMovesPerBox = 4;

// Branch-free min / max of two keys. GCC turns std::min / std::max here into a branch on
// some of the window's slots, and whether a key moved is a coin toss, which doubles the repair's
// cost.
inline std::uint64_t min_key(std::uint64_t a, std::uint64_t b) {
#if defined(__x86_64__)
  asm("cmp %1, %0\n\tcmova %1, %0" : "+r"(a) : "r"(b) : "cc");
  return a;
#else
  return std::min(a, b);
#endif
}
inline std::uint64_t max_key(std::uint64_t a, std::uint64_t b) {
#if defined(__x86_64__)
  asm("cmp %1, %0\n\tcmovb %1, %0" : "+r"(a) : "r"(b) : "cc");
  return a;
#else
  return std::max(a, b);
#endif
}

std::string proxy_error(const char* what, std::uint32_t proxy) {
  return std::string("broadphase: ") + what + " (proxy " + std::to_string(proxy) + ")";
}

}  // namespace

SweepAndPrune::ProxyInfo& SweepAndPrune::live(std::uint32_t proxy, const char* what) {
  if (proxy >= capacity_ || (info_[proxy].flags & kAlive) == 0)
    throw std::invalid_argument(proxy_error(what, proxy));
  return info_[proxy];
}

void SweepAndPrune::grow(std::uint32_t proxy) {
  capacity_ = std::size_t{proxy} + 1;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  min_x_.resize(capacity_, nan);
  min_y_.resize(capacity_, nan);
  max_x_.resize(capacity_, nan);
  max_y_.resize(capacity_, nan);
  info_.resize(capacity_);
}

void SweepAndPrune::invalidate_statics() {
  statics_[0].invalidate();
  statics_[1].invalidate();
}

// A settled sleeper leaves the sleeping set: its entry there is skipped from now on (emit_hits
// reads its live flags), and it joins the moving order unless it is being removed.
void SweepAndPrune::unsettle(ProxyInfo& info) {
  info.flags &= ~kSettled;
  ++unsettled_;
}

// Sorts the sleeping set again, with every sleeper, once the sleepers outside it (in the moving
// order) and those that left it are more than twice the square root of its size (see
// kSettleAtLeast), or once they have waited, summed over the steps, as long as the set is large
// (when the events stop, the last few sleepers would otherwise be swept with the awake boxes
// for ever, a cost on every step for the rest of the run):
// each sleep or wake then costs a share of one sort, not a sort.
void SweepAndPrune::settle_sleepers() {
  waited_ += unsettled_;
  const auto limit = static_cast<std::size_t>(2.0 * std::sqrt(static_cast<double>(settled_)));
  const bool many = unsettled_ > std::max(kSettleAtLeast, limit);
  const bool long_enough = unsettled_ > 0 && waited_ > settled_;
  if (!many && !long_enough) return;
  waited_ = 0;
  for (const std::uint32_t p : fresh_sleepers_) {
    std::uint32_t& flags = info_[p].flags;
    if ((flags & (kAlive | kStatic | kSleeping | kSettled)) != (kAlive | kSleeping)) continue;
    flags |= kSettled;  // the next update_order drops it from the moving order
    --moving_count_;
  }
  fresh_sleepers_.clear();
  unsettled_ = 0;
  sleepers_[0].invalidate();
  sleepers_[1].invalidate();
}

void SweepAndPrune::insert(std::uint32_t proxy, const Aabb& box, std::uint32_t category,
                           std::uint32_t mask, bool is_static) {
  ++version_;
  if (proxy == std::numeric_limits<std::uint32_t>::max())
    throw std::invalid_argument(proxy_error("insert: key out of range", proxy));
  if (proxy >= capacity_) grow(proxy);
  ProxyInfo& info = info_[proxy];
  if (info.flags & kAlive)
    throw std::invalid_argument(proxy_error("insert: already present", proxy));
  min_x_[proxy] = box.lower.x;
  min_y_[proxy] = box.lower.y;
  max_x_[proxy] = box.upper.x;
  max_y_[proxy] = box.upper.y;
  info.category = category;
  info.mask = mask;
  // kInOrder/kPending survive a remove: a slot removed and re-inserted between two steps
  // reuses its entry instead of being listed twice.
  info.flags = kAlive | (is_static ? kStatic : 0u) | (info.flags & (kInOrder | kPending));
  ++live_count_;
  moving_count_ += is_static ? 0 : 1;
  if (is_static) {
    invalidate_statics();
  } else if ((info.flags & (kInOrder | kPending)) == 0) {
    info.flags |= kPending;
    pending_.push_back(proxy);
  }
}

void SweepAndPrune::remove(std::uint32_t proxy) {
  ++version_;
  ProxyInfo& info = live(proxy, "remove: not present");
  if (info.flags & kStatic) {
    invalidate_statics();
  } else if (info.flags & kSettled) {
    unsettle(info);
  } else {
    --moving_count_;
  }
  // The order entry is dropped lazily by the next step's compaction pass.
  info.flags &= kInOrder | kPending;
  --live_count_;
}

void SweepAndPrune::set_box(std::uint32_t proxy, const Aabb& box) {
  ++version_;
  ProxyInfo& info = live(proxy, "set_box: not present");
  min_x_[proxy] = box.lower.x;
  min_y_[proxy] = box.lower.y;
  max_x_[proxy] = box.upper.x;
  max_y_[proxy] = box.upper.y;
  if (info.flags & kStatic) invalidate_statics();
  if (info.flags & kSettled) rejoin_asleep(proxy);
}

// A settled proxy leaves the sleeping set (woken, or its copy there stale) for the moving order.
void SweepAndPrune::return_to_order(std::uint32_t proxy) {
  ProxyInfo& info = info_[proxy];
  unsettle(info);
  ++moving_count_;
  if ((info.flags & (kInOrder | kPending)) == 0) {
    info.flags |= kPending;
    pending_.push_back(proxy);
  }
}

// A settled sleeper moved or refiltered: back in the moving order, still asleep, until the set
// is next sorted.
void SweepAndPrune::rejoin_asleep(std::uint32_t proxy) {
  return_to_order(proxy);
  fresh_sleepers_.push_back(proxy);
}

void SweepAndPrune::set_filter(std::uint32_t proxy, std::uint32_t category, std::uint32_t mask) {
  ++version_;
  ProxyInfo& info = live(proxy, "set_filter: not present");
  info.category = category;
  info.mask = mask;
  // The static set keeps sorted copies of its filters (so hits read neighbours); a static
  // proxy's filter change re-sorts it, like a box change.
  if (info.flags & kStatic) invalidate_statics();
  if (info.flags & kSettled) rejoin_asleep(proxy);
}

// A proxy that falls asleep stays in the moving order, flagged, until settle_sleepers moves the
// sleepers into the sleeping set; one that wakes from the set comes back like an inserted one.
void SweepAndPrune::set_sleeping(std::uint32_t proxy, bool sleeping) {
  ++version_;
  ProxyInfo& info = live(proxy, "set_sleeping: not present");
  if (info.flags & kStatic) return;
  if (sleeping == ((info.flags & kSleeping) != 0)) return;
  if (sleeping) {
    info.flags |= kSleeping;
    fresh_sleepers_.push_back(proxy);
    ++unsettled_;
    return;
  }
  info.flags &= ~kSleeping;
  if (info.flags & kSettled) return_to_order(proxy);  // else still in the moving order
}

std::uint64_t SweepAndPrune::order_key(std::uint32_t proxy) const {
  return (std::uint64_t{float_sort_key(axis_lo()[proxy])} << 32) | proxy;
}

// Called by update_order after its compaction pass: the awake moving proxies are then those
// left in the order, the jumpers (new_keys_) and the pending ones.
void SweepAndPrune::rebuild_order() {
  const std::size_t moving = order_.size() + new_keys_.size() + pending_.size();
  if (moving * kSortRebuildBelow < capacity_) {
    // Few awake proxies among many (a small awake part of a world at rest): sort their keys in
    // proxy order instead of scanning every proxy, whose cost would grow with the idle world.
    auto& proxies = pending_;
    for (const std::uint64_t entry : order_) proxies.push_back(static_cast<std::uint32_t>(entry));
    for (const std::uint64_t entry : new_keys_)
      proxies.push_back(static_cast<std::uint32_t>(entry));
    std::sort(proxies.begin(), proxies.end());
    order_.clear();
    for (const std::uint32_t p : proxies) {
      order_.push_back(order_key(p));
      info_[p].flags = (info_[p].flags | kInOrder) & ~kPending;
    }
  } else {
    order_.clear();
    for (std::uint32_t p = 0; p < capacity_; ++p) {
      std::uint32_t& flags = info_[p].flags;
      if ((flags & (kAlive | kStatic | kSettled)) == kAlive) {
        order_.push_back(order_key(p));
        flags = (flags | kInOrder) & ~kPending;
      } else {
        flags &= ~(kInOrder | kPending);
      }
    }
  }
  new_keys_.clear();
  pending_.clear();
  // Keys were pushed in proxy order and the radix sort is stable: ties stay in proxy order.
  order_scratch_.resize(order_.size());
  radix_sort_by_high32(order_, order_scratch_);
  order_stale_ = false;
  stats_.radix_sorted = true;
}

// Insertion sort of last step's order with fresh keys. Returns false (order still a valid
// permutation, just unsorted) when the work exceeds the budget.
//
// Why not the textbook loop: in a steady scene about half the boxes move by one to three
// places, each unpredictably, so the textbook loop mispredicts about twice per box. Here the
// last four keys of the sorted prefix live in registers (w1 is
// the largest) and a new key v >= w4 is merged into them with min/max (cmov), without branches
// and without re-reading what the previous iteration stored. Only keys moving four or more places
// take the loop.
bool SweepAndPrune::repair_order() {
  std::uint64_t* a = order_.data();
  const std::size_t n = order_.size();
  const std::size_t budget = kRepairMovesPerBox * n + 64;
  std::size_t moves = 0;
  auto insert_far = [&](std::size_t k) {
    const std::uint64_t v = a[k];
    std::size_t j = k;
    for (; j > 0 && a[j - 1] > v; --j) a[j] = a[j - 1];
    a[j] = v;
    moves += k - j;
  };
  auto finish = [&](bool ok) {
    stats_.insertion_shifts = moves;
    return ok;
  };
  if (n < 5) {
    for (std::size_t k = 1; k < n; ++k) insert_far(k);
    return finish(true);
  }
  for (std::size_t k = 1; k < 4; ++k) insert_far(k);
  std::uint64_t w1 = a[3], w2 = a[2], w3 = a[1], w4 = a[0];  // a[k-1] .. a[k-4]
  asm("" : "+r"(w1), "+r"(w2), "+r"(w3), "+r"(w4));
  for (std::size_t k = 4; k < n; ++k) {
    const std::uint64_t v = a[k];
    if (w4 > v) [[unlikely]] {
      a[k - 1] = w1, a[k - 2] = w2, a[k - 3] = w3, a[k - 4] = w4;
      insert_far(k);
      if (moves > budget) return finish(false);
      w1 = a[k], w2 = a[k - 1], w3 = a[k - 2], w4 = a[k - 3];
      // GCC otherwise packs the window into one vector register and pays lane inserts and
      // extracts on every step, slower than four general registers.
      asm("" : "+r"(w1), "+r"(w2), "+r"(w3), "+r"(w4));
      continue;
    }
    // v >= w4 and the window is sorted, so inserting v is a merge step: each new slot is the
    // larger of its old key and the smaller of its upper neighbour and v. (At most three moves,
    // so the budget only counts the loop's.)
    a[k - 4] = w4;  // leaves the window
    w4 = max_key(w4, min_key(w3, v));
    w3 = max_key(w3, min_key(w2, v));
    w2 = max_key(w2, min_key(w1, v));
    w1 = max_key(w1, v);
  }
  a[n - 1] = w1, a[n - 2] = w2, a[n - 3] = w3, a[n - 4] = w4;
  return finish(true);
}

// Merges the keys of new proxies and of jumpers (already in new_keys_) into the repaired order.
void SweepAndPrune::merge_new_keys() {
  for (std::uint32_t p : pending_) {
    new_keys_.push_back(order_key(p));
    info_[p].flags |= kInOrder;
  }
  stats_.merged_inserts = pending_.size();
  pending_.clear();
  std::sort(new_keys_.begin(), new_keys_.end());
  order_scratch_.resize(order_.size() + new_keys_.size());
  std::merge(order_.begin(), order_.end(), new_keys_.begin(), new_keys_.end(),
             order_scratch_.begin());
  order_.swap(order_scratch_);
  new_keys_.clear();
}

void SweepAndPrune::update_order() {
  AxisChoice axis(moving_count_);
  // New (or woken) proxies still alive, awake and non-static; kPending is cleared for all.
  std::size_t kept = 0;
  for (std::uint32_t p : pending_) {
    std::uint32_t& flags = info_[p].flags;
    flags &= ~kPending;
    if ((flags & (kAlive | kStatic | kSettled | kInOrder)) == kAlive) {
      pending_[kept++] = p;
      if (axis.sampled(p)) axis.add(min_x_[p], min_y_[p], max_x_[p], max_y_[p]);
    }
  }
  pending_.resize(kept);

  // Drop removed (or now static or settled) proxies and refresh the keys from the current boxes.
  // Jumpers (boxes that moved more than kJumpExtents of their mean size since last step:
  // teleports, bullets) leave the array and are merged back like new proxies: insertion sort
  // would move them one place at a time, and one moving forward shifts every box it passes over.
  const float* lo = axis_lo();
  new_keys_.clear();
  double moved = 0.0;  // sum of |displacement along the axis| over the sampled non-jumpers
  std::size_t moved_count = 0;
  std::size_t w = 0;
  for (const std::uint64_t entry : order_) {
    const auto p = static_cast<std::uint32_t>(entry);
    std::uint32_t& flags = info_[p].flags;
    if ((flags & (kAlive | kStatic | kSettled)) != kAlive) {
      flags &= ~kInOrder;
      continue;
    }
    const float x = lo[p];
    const std::uint64_t key = (std::uint64_t{float_sort_key(x)} << 32) | p;
    const float dx = std::abs(x - float_from_sort_key(static_cast<std::uint32_t>(entry >> 32)));
    const bool jumped = !(dx <= jump_limit_);
    if (axis.sampled(p)) [[unlikely]] {
      axis.add(min_x_[p], min_y_[p], max_x_[p], max_y_[p]);
      if (!jumped) {
        moved += dx;
        ++moved_count;
      }
    }
    if (jumped) [[unlikely]] {
      new_keys_.push_back(key);
      continue;
    }
    order_[w++] = key;
  }
  order_.resize(w);
  stats_.jumpers = new_keys_.size();

  // Places an average box moves in the repair: its displacement times the density of boxes
  // along the axis (a uniform spread of n centres with deviation s covers sqrt(12) s).
  const double spread = std::sqrt(12.0) * axis.centre_stddev(axis_);
  stats_.estimated_shifts =
      moved_count == 0 ? 0.0
      : spread > 0.0   ? moved / static_cast<double>(moved_count) * static_cast<double>(w) / spread
                       : std::numeric_limits<double>::infinity();

  // Keys were made for the old axis; a new one re-sorts from scratch.
  if (const int best = axis.axis(); best >= 0 && best != axis_) {
    axis_ = best;
    order_stale_ = true;
  }
  // For the next step. Only the repair's speed depends on it, never the output.
  if (const double extent = axis.mean_extent(axis_); extent > 0.0)
    jump_limit_ = static_cast<float>(kJumpExtents * extent);
  // Merging k new keys costs O(k log k + n); past n / 4 a radix sort of everything is cheaper.
  if (order_stale_ || pending_.size() + new_keys_.size() > order_.size() / 4) {
    rebuild_order();
    return;
  }
  // Far off (many places a box, where re-sorting beats repairing) or more work than the budget:
  // radix sort.
  if (stats_.estimated_shifts > kRadixShiftsPerBox || !repair_order()) {
    rebuild_order();
    return;
  }
  if (!pending_.empty() || !new_keys_.empty()) merge_new_keys();
}

void SweepAndPrune::gather_sorted(const TaskSystem& tasks) {
  const std::size_t n = order_.size();
  const float* lo_a = axis_ == 0 ? min_x_.data() : min_y_.data();
  const float* hi_a = axis_ == 0 ? max_x_.data() : max_y_.data();
  const float* lo_b = axis_ == 0 ? min_y_.data() : min_x_.data();
  const float* hi_b = axis_ == 0 ? max_y_.data() : max_x_.data();
  s_min_a_.resize(n + kRunPadding);
  s_max_a_.resize(n + kRunPadding);
  s_min_b_.resize(n + kRunPadding);
  s_max_b_.resize(n + kRunPadding);
  s_proxy_.resize(n);
  s_info_.resize(n);
  // Random reads (proxy keys are not spatial), independent writes: parallel in fixed chunks.
  tasks.parallel_for(static_cast<int>(n), kGatherChunk, [&](int begin, int end, int /*worker*/) {
    for (auto k = static_cast<std::size_t>(begin); k < static_cast<std::size_t>(end); ++k) {
      const auto p = static_cast<std::uint32_t>(order_[k]);
      s_proxy_[k] = p;
      s_info_[k] = info_[p];
      s_min_a_[k] = lo_a[p];
      s_max_a_[k] = hi_a[p];
      s_min_b_[k] = lo_b[p];
      s_max_b_[k] = hi_b[p];
    }
  });
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::fill(s_min_a_.begin() + n, s_min_a_.end(), nan);
  std::fill(s_max_a_.begin() + n, s_max_a_.end(), nan);
  std::fill(s_min_b_.begin() + n, s_min_b_.end(), nan);
  std::fill(s_max_b_.begin() + n, s_max_b_.end(), nan);
}

// Filters the hits of many queries in one flat loop and appends the survivors to the chunk.
// No branch per hit: every candidate pair is written and the count advances only if it passes.
void SweepAndPrune::emit_hits(HitBuffer& hits, Chunk& chunk) const {
  std::size_t n_hits = 0;
  for (std::size_t k = 0; k < hits.count; ++k)
    n_hits +=
        static_cast<std::size_t>(std::popcount(static_cast<std::uint32_t>(hits.record[k] >> 32)));
  if (chunk.count + n_hits > chunk.pairs.size())
    chunk.pairs.resize(std::max(2 * chunk.pairs.size(), chunk.count + n_hits + 256));
  Pair* out = chunk.pairs.data() + chunk.count;
  const StaticSet& statics = statics_[axis_];
  const StaticSet& sleepers = sleepers_[axis_];
  std::size_t n = 0;
  // A record is one query's batch with at least one hit: the query's data is loaded once.
  for (std::size_t k = 0; k < hits.count; ++k) {
    const std::uint32_t i = hits.query[k];
    const std::uint32_t p = s_proxy_[i];
    const ProxyInfo a = s_info_[i];
    const auto base = static_cast<std::uint32_t>(hits.record[k]);
    const StaticSet* set = (base & kStaticHit)    ? &statics
                           : (base & kSleeperHit) ? &sleepers
                                                  : nullptr;
    const std::uint32_t* proxies = set ? set->proxies() : s_proxy_.data();
    const ProxyInfo* infos = set ? set->filters() : s_info_.data();
    const bool in_sleepers = set == &sleepers;
    const std::uint32_t first = base & ~(kStaticHit | kSleeperHit);
    auto bits = static_cast<std::uint32_t>(hits.record[k] >> 32);
    do {
      const std::uint32_t j = first + static_cast<std::uint32_t>(std::countr_zero(bits));
      const ProxyInfo& b = infos[j];
      const Pair pair = make_pair(p, proxies[j]);
      // Two sleepers never pair (a sleeper in the moving order queries neither fixed set).
      bool pass = ((a.category & b.mask) != 0) & ((b.category & a.mask) != 0) &
                  ((a.flags & b.flags & kSleeping) == 0);
      // An entry of the sleeping set counts only while its proxy is settled there.
      if (in_sleepers && pass) pass = (info_[proxies[j]].flags & kSettled) != 0;
      out[n] = pair;
      n += pass;
      bits &= bits - 1;
    } while (bits != 0);
  }
  chunk.count += n;
  hits.count = 0;
}

void SweepAndPrune::sweep_chunk(SweepFn queries, std::size_t begin, std::size_t end,
                                Chunk& chunk) const {
  chunk.count = 0;
  const StaticSet* sets[2] = {&statics_[axis_], &sleepers_[axis_]};
  const std::uint32_t tags[2] = {kStaticHit, kSleeperHit};
  SweepView view{
      {s_min_a_.data(), s_max_a_.data(), s_min_b_.data(), s_max_b_.data()}, s_info_.data(), {}};
  std::size_t cursor_count = 0;
  for (int s = 0; s < 2; ++s) cursor_count += sets[s]->groups().size();
  chunk.cursors.resize(cursor_count);
  std::uint32_t* cursor = chunk.cursors.data();
  for (int s = 0; s < 2; ++s) {
    const std::span<const StaticSet::Group> groups = sets[s]->groups();
    view.fixed[s] = {sets[s]->run(), groups.data(), groups.size(), sets[s], tags[s], cursor};
    for (const StaticSet::Group& g : groups) *cursor++ = g.begin;
  }
  struct Sink {
    const SweepAndPrune* self;
    Chunk* chunk;
  } sink{this, &chunk};
  queries(
      view, begin, end,
      [](void* context, HitBuffer& h) {
        const Sink& to = *static_cast<const Sink*>(context);
        to.self->emit_hits(h, *to.chunk);
      },
      &sink);
}

void SweepAndPrune::sweep(const TaskSystem& tasks) {
  const int n = static_cast<int>(order_.size());
  const auto chunk_count = static_cast<std::size_t>(TaskSystem::chunk_count(n, kSweepChunk));
  if (chunks_.size() < chunk_count) chunks_.resize(chunk_count);
  const SweepFn queries = sweep_kernels().queries;
  // Depends on: sorted moving copies (gather_sorted) and the static set for axis_; reads only
  // shared state, writes only its own chunk.
  tasks.parallel_for(n, kSweepChunk, [this, queries](int begin, int end, int /*worker*/) {
    Chunk& chunk = chunks_[static_cast<std::size_t>(begin / kSweepChunk)];
    const auto b = static_cast<std::size_t>(begin), e = static_cast<std::size_t>(end);
    sweep_chunk(queries, b, e, chunk);
  });
  part_views_.clear();
  for (std::size_t c = 0; c < chunk_count; ++c)
    part_views_.emplace_back(chunks_[c].pairs.data(), chunks_[c].count);
}

// The static set, or the sleeping set, for the sweep axis: the live proxies whose flags under
// `mask` are `flags`, sorted.
void SweepAndPrune::build_fixed_set(StaticSet& set, std::uint32_t mask, std::uint32_t flags) {
  fixed_proxies_.clear();
  for (std::uint32_t p = 0; p < capacity_; ++p)
    if ((info_[p].flags & mask) == flags) fixed_proxies_.push_back(p);
  set.build(axis_, fixed_proxies_, min_x_.data(), min_y_.data(), max_x_.data(), max_y_.data(),
            info_.data());
}

void SweepAndPrune::find_pairs(std::vector<Pair>& out, const TaskSystem& tasks) {
  using Clock = std::chrono::steady_clock;
  auto lap = [last = Clock::now()](std::int64_t& ns) mutable {
    const auto now = Clock::now();
    ns = std::chrono::duration_cast<std::chrono::nanoseconds>(now - last).count();
    last = now;
  };
  stats_ = Stats{};
  settle_sleepers();
  update_order();
  lap(stats_.order_ns);
  gather_sorted(tasks);
  StaticSet& statics = statics_[axis_];
  if (!statics.valid()) {
    build_fixed_set(statics, kAlive | kStatic | kSleeping, kAlive | kStatic);
    stats_.statics_rebuilt = true;
  }
  StaticSet& sleepers = sleepers_[axis_];
  if (!sleepers.valid()) {
    build_fixed_set(sleepers, kAlive | kStatic | kSettled, kAlive | kSettled);
    settled_ = sleepers.size();
    stats_.sleepers_rebuilt = true;
  }
  stats_.moving = order_.size();
  stats_.statics = statics.size();
  stats_.settled = sleepers.size();
  lap(stats_.gather_ns);
  sweep(tasks);
  lap(stats_.sweep_ns);
  if (sorted_output_) {
    sorter_.sort(part_views_, static_cast<std::uint32_t>(capacity_), out);
  } else {
    std::size_t total = 0;
    for (const auto& part : part_views_) total += part.size();
    out.resize(total);
    Pair* dst = out.data();
    for (const auto& part : part_views_) dst = std::copy(part.begin(), part.end(), dst);
  }
  lap(stats_.merge_ns);
}

}  // namespace strut::broadphase
