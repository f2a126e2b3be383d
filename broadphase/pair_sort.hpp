// Sorts the per-chunk pair lists of a parallel sweep into (a, b) order: the optional output
// order of SweepAndPrune (set_sorted_output), for a world that merge-joins this step's pairs
// with last step's contacts.
//
// How: a counting sort on the high bits of `a` with about one bucket per pair, then one
// insertion-sort pass over the whole list, which only has to order pairs inside a bucket (a few
// per bucket). All passes are branch-free except that insertion pass, so it beats std::sort by
// far, but inside a step colder caches and mispredicted insertions still make it cost a good
// share of the sweep: that is why the default output order is the canonical sweep order instead.
// Sorting each bucket separately is slower (its per-bucket size test mispredicts).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "broadphase/pair.hpp"

namespace strut::broadphase {

class PairSorter {
 public:
  // out = concatenation of every part, sorted by (a, b). Every key must be < key_limit.
  // Parts is a range of ranges of Pair. Allocates only when the pair count grows.
  template <class Parts>
  void sort(const Parts& parts, std::uint32_t key_limit, std::vector<Pair>& out) {
    std::size_t total = 0;
    for (const auto& part : parts) total += std::size(part);
    out.resize(total);
    if (total == 0) return;

    // About one bucket per pair: bucket = a >> shift.
    const int bucket_bits = std::bit_width(std::bit_ceil(total)) - 1;
    const int key_bits = std::bit_width(std::max<std::uint32_t>(key_limit, 1) - 1);
    const int shift = std::max(0, key_bits - bucket_bits);
    const std::size_t buckets =
        (std::size_t{std::max<std::uint32_t>(key_limit, 1) - 1} >> shift) + 1;
    end_.assign(buckets + 1, 0);
    for (const auto& part : parts)
      for (const Pair& p : part) ++end_[(p.a >> shift) + 1];
    for (std::size_t b = 1; b <= buckets; ++b) end_[b] += end_[b - 1];
    // Scatter; afterwards end_[b] is the end of bucket b (and the begin of bucket b + 1).
    for (const auto& part : parts)
      for (const Pair& p : part) out[end_[p.a >> shift]++] = p;

    // Big buckets (one proxy overlapping many higher keys) would make the insertion pass
    // quadratic: sort them first. The test is almost never true, so it predicts well.
    std::uint32_t begin = 0;
    for (std::size_t b = 0; b < buckets; ++b) {
      const std::uint32_t end = end_[b];
      if (end - begin > kBigBucket) [[unlikely]]
        std::sort(out.data() + begin, out.data() + end);
      begin = end;
    }
    Pair* a = out.data();
    for (std::size_t k = 1; k < total; ++k) {
      const Pair v = a[k];
      const std::uint64_t key = pair_key(v);
      if (key >= pair_key(a[k - 1])) continue;
      std::size_t j = k;
      do {
        a[j] = a[j - 1];
        --j;
      } while (j > 0 && key < pair_key(a[j - 1]));
      a[j] = v;
    }
  }

 private:
  static constexpr std::uint32_t kBigBucket = 32;

  std::vector<std::uint32_t> end_;
};

}  // namespace strut::broadphase
