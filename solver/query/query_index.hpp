// The index World's queries search instead of scanning every body: the bodies' current tight
// boxes grouped by size class (the binary exponent of their width) and sorted by their left edge
// within a group. A box query binary-searches each group for the candidates whose left edge lies
// in [query left - group's widest width, query right] and tests only those, so it reads the
// bodies near the query plus, per group, at most about one group-width of neighbours: a ground
// 100 m wide among 0.5 m boxes sits in its own group and costs one candidate, not a scan. The
// broad phase's static set uses the same grouping for the same reason.
//
// Built on the first query after anything moved a body (a step, creating, destroying or
// teleporting one), O(n log n); queries between changes reuse it. Building takes a mutex, so
// queries may run from several threads at once (never during a step or another World call).
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

#include "strut/math.hpp"

namespace strut {

class QueryIndex {
 public:
  QueryIndex() = default;
  // A copy (World::copy, World::restore) has the same entries and keeps a mutex of its own.
  QueryIndex(const QueryIndex& other)
      : groups(other.groups),
        min_x(other.min_x),
        min_y(other.min_y),
        max_x(other.max_x),
        max_y(other.max_y),
        body(other.body),
        stamp_(other.stamp_) {}
  QueryIndex& operator=(const QueryIndex& other) {
    groups = other.groups, min_x = other.min_x, min_y = other.min_y;
    max_x = other.max_x, max_y = other.max_y, body = other.body, stamp_ = other.stamp_;
    return *this;
  }
  struct Group {
    std::uint32_t begin = 0, end = 0;  // entries [begin, end)
    float widest = 0;                  // largest box width in the group
  };
  // Entries in group order, sorted by min_x within a group.
  std::vector<Group> groups;
  std::vector<float> min_x, min_y, max_x, max_y;
  std::vector<std::uint32_t> body;  // dense body index of each entry

  // Whether the index was built for another stamp than `stamp`.
  bool needs_build(std::uint64_t stamp) const { return stamp != stamp_; }
  // Builds from the boxes (one per dense body, `live[k]` false skips body k) for `stamp`.
  void build(std::uint64_t stamp, const std::vector<Aabb>& boxes,
             const std::vector<std::uint8_t>& live);

  // Calls f(dense body) for every indexed body whose box overlaps `box` (closed intervals), in
  // no particular order.
  template <class F>
  void for_each_overlap(const Aabb& box, F&& f) const;

  std::mutex mutex;  // held by the caller around build and the query that follows

  // What a copy keeps (solver/core/field_archive.hpp); not the mutex nor the build scratch.
  template <class F>
  void for_each_field(F&& f) {
    f(groups), f(min_x), f(min_y), f(max_x), f(max_y), f(body), f(stamp_);
  }

 private:
  std::uint64_t stamp_ = ~0ull;
  std::vector<std::uint64_t> keys_;  // build scratch
};

template <class F>
void QueryIndex::for_each_overlap(const Aabb& box, F&& f) const {
  for (const Group& g : groups) {
    // First entry whose left edge is >= box.lower.x - widest: nothing before it reaches box.
    const float from = box.lower.x - g.widest;
    std::uint32_t lo = g.begin, hi = g.end;
    while (lo < hi) {
      const std::uint32_t mid = lo + (hi - lo) / 2;
      if (min_x[mid] < from)
        lo = mid + 1;
      else
        hi = mid;
    }
    for (std::uint32_t i = lo; i < g.end && min_x[i] <= box.upper.x; ++i)
      if (max_x[i] >= box.lower.x && min_y[i] <= box.upper.y && max_y[i] >= box.lower.y) f(body[i]);
  }
}

}  // namespace strut
