// The static proxies, sorted once along a sweep axis, so that a moving box can find the static
// boxes it overlaps without touching the others: 100k static tiles cost nothing while nothing
// moves near them.
//
// Why groups: a moving box i must find static boxes j with min_a[j] <= max_a[i] and
// max_a[j] >= min_a[i]. The first condition is a sorted scan; the second needs a start index,
// found by binary search on the running maximum of max_a. One huge static box (the ground)
// raises that running maximum for everything after it and turns every query into a scan of all
// the statics beyond the ground's min. So statics are grouped by the binary exponent of their
// extent along the axis: within a group extents differ by less than 2x, a running maximum is
// tight, and a query wastes at most about one group-extent of candidates per group. Tile maps
// plus a ground have two or three groups.
#pragma once

#include <cstdint>
#include <span>
#include <vector>
#include <xsimd/xsimd.hpp>

#include "broadphase/overlap_kernel.hpp"
#include "broadphase/proxy_filter.hpp"

namespace strut::broadphase {

class StaticSet {
 public:
  // 16 bytes. A run of statics of one size class: indices [begin, end) of the arrays,
  // followed by kRunPadding NaN entries; [min_b, max_b] bounds the group on the other axis.
  struct Group {
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
    float min_b = 0.0f;
    float max_b = 0.0f;
  };

  // Sorts `proxies` (static proxy keys, ascending) along `axis` (0 = x, 1 = y), reading their
  // boxes and filters from the per-proxy arrays. Ties in min are broken by proxy key.
  void build(int axis, std::span<const std::uint32_t> proxies, const float* min_x,
             const float* min_y, const float* max_x, const float* max_y,
             const ProxyFilter* filters);
  void invalidate() { valid_ = false; }
  bool valid() const { return valid_; }

  std::span<const Group> groups() const { return groups_; }
  SortedRun run() const { return {min_a_.data(), max_a_.data(), min_b_.data(), max_b_.data()}; }
  // Proxy keys and filters in sweep order (same indices as run()).
  const std::uint32_t* proxies() const { return proxy_.data(); }
  const ProxyFilter* filters() const { return filter_.data(); }
  std::size_t size() const { return count_; }
  // Every member but the build scratch (solver/core/field_archive.hpp).
  template <class F>
  void for_each_field(F&& f) {
    f(valid_), f(count_), f(groups_), f(min_a_), f(max_a_), f(min_b_), f(max_b_);
    f(running_max_a_), f(proxy_), f(filter_);
  }

  // First index s in [from, g.end) with running-max(max_a)[s] >= lo, or g.end. `from` must be
  // g.begin or a result of an earlier call for this group with a smaller or equal lo: a sweep
  // visits queries in ascending lo, so a galloping search from the previous answer costs
  // O(log distance) instead of O(log n).
  std::uint32_t seek(const Group& g, float lo, std::uint32_t from) const;

 private:
  template <class T>
  using AlignedVector = std::vector<T, xsimd::aligned_allocator<T, 64>>;

  bool valid_ = false;
  std::size_t count_ = 0;
  std::vector<Group> groups_;
  // Sweep order, SoA, groups back to back, each followed by kRunPadding NaN entries.
  AlignedVector<float> min_a_, max_a_, min_b_, max_b_;
  std::vector<float> running_max_a_;
  std::vector<std::uint32_t> proxy_;
  std::vector<ProxyFilter> filter_;
  // Build scratch, kept so a rebuild after a static change does not reallocate.
  std::vector<std::uint64_t> keys_, scratch_;
};

}  // namespace strut::broadphase
