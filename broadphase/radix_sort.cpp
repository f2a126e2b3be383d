#include "broadphase/radix_sort.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstring>

namespace strut::broadphase {

namespace {

constexpr int kPasses = 3;
constexpr std::array<int, kPasses> kShift = {32, 43, 54};
constexpr std::array<std::uint32_t, kPasses> kDigitMask = {0x7ff, 0x7ff, 0x3ff};
constexpr int kBuckets = 2048;

// Below this many elements an insertion sort is cheaper: the radix sort's fixed cost (24 KB of
// counters cleared, three prefix sums over 2,048 buckets) is tens of thousands of instructions, an
// insertion sort of 64 keys in reverse order about 8,000.
constexpr std::size_t kInsertionBelow = 64;

}  // namespace

void radix_sort_by_high32(std::span<std::uint64_t> io, std::span<std::uint64_t> scratch) {
  const std::size_t n = io.size();
  assert(scratch.size() >= n);
  if (n < 2) return;
  if (n < kInsertionBelow) {
    // Stable: a key moves only past keys whose upper half is strictly greater.
    for (std::size_t i = 1; i < n; ++i) {
      const std::uint64_t v = io[i];
      std::size_t j = i;
      for (; j > 0 && (io[j - 1] >> 32) > (v >> 32); --j) io[j] = io[j - 1];
      io[j] = v;
    }
    return;
  }

  // All three histograms in one read pass: 24 KB of counters, fits L1.
  std::array<std::array<std::uint32_t, kBuckets>, kPasses> count{};
  for (std::uint64_t v : io) {
    for (int p = 0; p < kPasses; ++p) ++count[p][(v >> kShift[p]) & kDigitMask[p]];
  }

  std::uint64_t* src = io.data();
  std::uint64_t* dst = scratch.data();
  for (int p = 0; p < kPasses; ++p) {
    auto& c = count[p];
    const std::uint64_t first_digit = (src[0] >> kShift[p]) & kDigitMask[p];
    // A digit shared by every element would copy the array unchanged: skip the pass. This is
    // common (keys within one binade share their top bits) and makes "all on one coordinate"
    // a no-op.
    if (c[first_digit] == n) continue;
    std::uint32_t sum = 0;
    for (auto& bucket : c) {
      const std::uint32_t k = bucket;
      bucket = sum;
      sum += k;
    }
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t v = src[i];
      dst[c[(v >> kShift[p]) & kDigitMask[p]]++] = v;
    }
    std::swap(src, dst);
  }
  if (src != io.data()) std::memcpy(io.data(), src, n * sizeof(std::uint64_t));
}

}  // namespace strut::broadphase
