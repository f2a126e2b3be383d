#include "broadphase/static_set.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>

#include "broadphase/radix_sort.hpp"

namespace strut::broadphase {

namespace {

// Size class of an extent: its biased IEEE exponent (0 for zero and denormals, 255 for
// inf/NaN). Extents in one class differ by less than a factor 2.
std::uint32_t size_class(float extent) {
  return (std::bit_cast<std::uint32_t>(std::max(extent, 0.0f)) >> 23) & 0xffu;
}

}  // namespace

void StaticSet::build(int axis, std::span<const std::uint32_t> proxies, const float* min_x,
                      const float* min_y, const float* max_x, const float* max_y,
                      const ProxyFilter* filters) {
  const float* lo_a = axis == 0 ? min_x : min_y;
  const float* hi_a = axis == 0 ? max_x : max_y;
  const float* lo_b = axis == 0 ? min_y : min_x;
  const float* hi_b = axis == 0 ? max_y : max_x;
  const std::size_t n = proxies.size();
  count_ = n;
  groups_.clear();

  // Stable counting sort by size class keeps proxy order inside a class, then a stable radix
  // sort on min_a per class: ties end up ordered by proxy key, whatever the insertion history.
  std::array<std::uint32_t, 257> start{};
  for (std::uint32_t p : proxies) ++start[size_class(hi_a[p] - lo_a[p]) + 1];
  for (std::size_t c = 1; c < start.size(); ++c) start[c] += start[c - 1];
  const std::array<std::uint32_t, 257> class_begin = start;
  keys_.resize(n);
  scratch_.resize(n);
  for (std::uint32_t p : proxies) {
    keys_[start[size_class(hi_a[p] - lo_a[p])]++] =
        (std::uint64_t{float_sort_key(lo_a[p])} << 32) | p;
  }

  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::size_t non_empty = 0;
  for (std::size_t c = 0; c < 256; ++c) non_empty += class_begin[c + 1] != class_begin[c];
  const std::size_t total = n + non_empty * kRunPadding;
  min_a_.assign(total, nan);
  max_a_.assign(total, nan);
  min_b_.assign(total, nan);
  max_b_.assign(total, nan);
  running_max_a_.assign(total, nan);
  proxy_.assign(total, 0);
  filter_.assign(total, ProxyFilter{});

  std::size_t out = 0;
  for (std::size_t c = 0; c < 256; ++c) {
    const std::uint32_t b = class_begin[c], e = class_begin[c + 1];
    if (b == e) continue;
    std::span<std::uint64_t> keys(keys_.data() + b, e - b);
    radix_sort_by_high32(keys, std::span<std::uint64_t>(scratch_.data(), e - b));
    Group g;
    g.begin = static_cast<std::uint32_t>(out);
    g.min_b = std::numeric_limits<float>::infinity();
    g.max_b = -std::numeric_limits<float>::infinity();
    float running = -std::numeric_limits<float>::infinity();
    for (std::uint64_t k : keys) {
      const auto p = static_cast<std::uint32_t>(k);
      min_a_[out] = lo_a[p];
      max_a_[out] = hi_a[p];
      min_b_[out] = lo_b[p];
      max_b_[out] = hi_b[p];
      running = std::max(running, hi_a[p]);
      running_max_a_[out] = running;
      proxy_[out] = p;
      filter_[out] = filters[p];
      g.min_b = std::min(g.min_b, lo_b[p]);
      g.max_b = std::max(g.max_b, hi_b[p]);
      ++out;
    }
    g.end = static_cast<std::uint32_t>(out);
    groups_.push_back(g);
    out += kRunPadding;
  }
  valid_ = true;
}

std::uint32_t StaticSet::seek(const Group& g, float lo, std::uint32_t from) const {
  const float* rm = running_max_a_.data();
  if (from >= g.end || rm[from] >= lo) return from;
  // Gallop: rm[from] < lo; find a bound `hi` with rm[hi] >= lo (or the end).
  std::uint32_t step = 1;
  std::uint32_t below = from;  // known: rm[below] < lo
  std::uint32_t hi = from + 1;
  while (hi < g.end && rm[hi] < lo) {
    below = hi;
    step *= 2;
    hi = (g.end - hi > step) ? hi + step : g.end;
  }
  // Answer in (below, hi]; rm is non-decreasing.
  const float* first = std::lower_bound(rm + below + 1, rm + hi, lo);
  return static_cast<std::uint32_t>(first - rm);
}

}  // namespace strut::broadphase
