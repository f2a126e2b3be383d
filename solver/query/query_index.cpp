#include "solver/query/query_index.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace strut {

void QueryIndex::build(std::uint64_t stamp, const std::vector<Aabb>& boxes,
                       const std::vector<std::uint8_t>& live) {
  stamp_ = stamp;
  // Key: size class (biased exponent of the width, 8 bits), the left edge as an
  // order-preserving 32-bit integer, and the entry's position in `order` (24 bits).
  keys_.clear();
  std::vector<std::uint32_t> order;
  for (std::uint32_t k = 0; k < boxes.size(); ++k) {
    if (!live[k]) continue;
    const Aabb& b = boxes[k];
    const int size_class =
        std::clamp(std::ilogb(std::max(b.upper.x - b.lower.x, 1e-30f)) + 128, 0, 255);
    std::uint32_t bits;
    std::memcpy(&bits, &b.lower.x, 4);
    bits = (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;  // float order as unsigned order
    keys_.push_back((std::uint64_t(size_class) << 56) | (std::uint64_t(bits) << 24) |
                    std::uint64_t(keys_.size()));
    order.push_back(k);
  }
  // The low 24 bits hold the entry's position in `order` (ties keep body order); past 2^24
  // bodies the sort falls back to a pair sort.
  const std::size_t n = keys_.size();
  std::vector<std::uint32_t> sorted(n);
  if (n < (1u << 24)) {
    std::sort(keys_.begin(), keys_.end());
    for (std::size_t i = 0; i < n; ++i) sorted[i] = order[keys_[i] & 0xFFFFFFu];
  } else {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> pairs(n);
    for (std::size_t i = 0; i < n; ++i) pairs[i] = {keys_[i] >> 24, order[i]};
    std::sort(pairs.begin(), pairs.end());
    for (std::size_t i = 0; i < n; ++i)
      sorted[i] = pairs[i].second, keys_[i] = pairs[i].first << 24;
  }
  groups.clear();
  min_x.resize(n), min_y.resize(n), max_x.resize(n), max_y.resize(n), body.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Aabb& b = boxes[sorted[i]];
    min_x[i] = b.lower.x, min_y[i] = b.lower.y, max_x[i] = b.upper.x, max_y[i] = b.upper.y;
    body[i] = sorted[i];
    const std::uint64_t size_class = keys_[i] >> 56;
    if (groups.empty() || (keys_[i - 1] >> 56) != size_class)
      groups.push_back({std::uint32_t(i), std::uint32_t(i), 0.0f});
    Group& g = groups.back();
    g.end = std::uint32_t(i + 1);
    g.widest = std::max(g.widest, b.upper.x - b.lower.x);
  }
}

}  // namespace strut
