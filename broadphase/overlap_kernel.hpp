// The sweep's inner loop: one query box against a run of boxes sorted by their minimum on the
// sweep axis, several candidates per instruction (xsimd), with a scalar twin that must report
// exactly the same hits in the same order (tested in tests/broadphase_test.cpp).
//
// "a" is the sweep axis and "b" the other one, so the same kernel serves x and y sweeps.
// Maths: box j overlaps the query iff min_a[j] <= q.max_a && max_a[j] >= q.min_a &&
// min_b[j] <= q.max_b && max_b[j] >= q.min_b (touching counts). Because the run is sorted by
// min_a, the first j with min_a[j] > q.max_a ends the scan.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <xsimd/xsimd.hpp>

#if defined(__AVX__) || defined(__SSE2__)
#include <immintrin.h>
#endif

namespace strut::broadphase {

// Entries after the end of every sorted run. They hold NaN, which fails every comparison, so a
// batch that reaches past the end stops the scan without a tail loop. 16 covers AVX-512 floats.
// (Two batches per loop step, with 32 entries, measured no faster on AVX2 or AVX-512.)
inline constexpr std::size_t kRunPadding = 16;

// A run of boxes in sweep order, SoA, each array followed by kRunPadding NaN entries.
struct SortedRun {
  const float* min_a = nullptr;
  const float* max_a = nullptr;
  const float* min_b = nullptr;
  const float* max_b = nullptr;
};

// 16 bytes.
struct QueryBox {
  float min_a, max_a, min_b, max_b;
};

namespace detail {

// Bit i set iff lane i of m is true. xsimd 8.1's batch_bool has no mask(); use the native
// movemask where the register type is known and a store otherwise.
template <class A>
inline std::uint32_t lane_bits(const xsimd::batch_bool<float, A>& m) {
#if defined(__AVX512F__)
  // AVX-512 compares already produce a bit mask (__mmask16).
  if constexpr (std::is_base_of_v<xsimd::avx512f, A>) return static_cast<std::uint32_t>(m.data);
#endif
#if defined(__AVX__)
  if constexpr (std::is_base_of_v<xsimd::avx, A>)
    return static_cast<std::uint32_t>(_mm256_movemask_ps(m.data));
#endif
#if defined(__SSE2__)
  if constexpr (std::is_base_of_v<xsimd::sse2, A>)
    return static_cast<std::uint32_t>(_mm_movemask_ps(m.data));
#endif
  constexpr std::size_t n = xsimd::batch_bool<float, A>::size;
  alignas(A::alignment()) bool lanes[n];
  m.store_aligned(lanes);
  std::uint32_t bits = 0;
  for (std::size_t i = 0; i < n; ++i) bits |= static_cast<std::uint32_t>(lanes[i]) << i;
  return bits;
}

}  // namespace detail

// Overlaps found by scans, in the order found, one record per batch that had any: record k
// says that query[k] overlaps the boxes base + i of the scanned run for every bit i of bits,
// where base = first index of the batch + the scan's index_tag. 6 KB + 8: lives on the sweeping
// thread's stack.
//
// Why masks rather than indices: left packing (AVX-512 vpcompressd + a 64-byte store per batch)
// made the loop store-bound, and one 8-byte record per batch stores far less (figures in
// docs/architecture.md). Decoding the bits happens later in a flat loop over all the records of
// many queries.
struct HitBuffer {
  static constexpr std::size_t kCapacity = 512;
  std::uint64_t record[kCapacity];               // (bits << 32) | base
  std::uint32_t query[kCapacity + kRunPadding];  // + slack: labels are stored a batch at a time
  std::size_t count = 0;

  static constexpr std::uint64_t make(std::uint32_t base, std::uint32_t bits) {
    return (std::uint64_t{bits} << 32) | base;
  }
  // Calls fn(query, index) for every hit, in order. A counted record is never empty, and most
  // hold one hit, so the bit loop tests for more only after the first.
  template <class Fn>
  void for_each(Fn&& fn) const {
    for (std::size_t k = 0; k < count; ++k) {
      const auto base = static_cast<std::uint32_t>(record[k]);
      auto bits = static_cast<std::uint32_t>(record[k] >> 32);
      do {
        fn(query[k], base + static_cast<std::uint32_t>(std::countr_zero(bits)));
        bits &= bits - 1;
      } while (bits != 0);
    }
  }
};

// Appends to `hits`, ascending, every j >= start of `run` whose box overlaps `q`, as query
// `query_id` and index j + index_tag, reading Batch::size candidates per step; calls
// flush(hits) (which must consume the hits and reset count to 0) when the buffer is full.
//
// kTestMaxA = false skips the max_a[j] >= q.min_a test; that is valid when every j >= start has
// min_a[j] >= q.min_a, as in the moving sweep, where the query is the run's element start - 1.
// The static sweep starts at a searched index and needs the test.
//
// No branch depends on whether a batch has a hit (that happened about one batch in four,
// unpredictably): the record is always stored and the count advances only if it is non-empty.
// The query id is stored once per query, a batch of labels at a time.
template <bool kTestMaxA, class Batch = xsimd::batch<float>, class Flush>
inline void scan_run_simd(const SortedRun& run, std::size_t start, const QueryBox& q,
                          std::uint32_t query_id, std::uint32_t index_tag, HitBuffer& hits,
                          Flush&& flush) {
  using IndexBatch = xsimd::batch<std::uint32_t, typename Batch::arch_type>;
  constexpr std::size_t kLanes = Batch::size;
  static_assert(kLanes <= kRunPadding, "run and label padding must cover one batch");
  static_assert(IndexBatch::size == kLanes, "one index lane per float lane");
  const Batch q_min_a(q.min_a), q_max_a(q.max_a), q_min_b(q.min_b), q_max_b(q.max_b);
  const IndexBatch query(query_id);
  // query[from, to) = query_id. The first store is unconditional (the slack allows it): a
  // query has no hit about one time in five, and a skipped store would be a mispredicted branch.
  auto label = [&](std::size_t from, std::size_t to) {
    query.store_unaligned(hits.query + from);
    for (from += kLanes; from < to; from += kLanes) query.store_unaligned(hits.query + from);
  };
  std::size_t first = hits.count;  // this query's first record
  std::size_t count = first;
  for (std::size_t j = start;; j += kLanes) {
    const auto in_range = Batch::load_unaligned(run.min_a + j) <= q_max_a;
    auto overlap = in_range & (Batch::load_unaligned(run.min_b + j) <= q_max_b) &
                   (Batch::load_unaligned(run.max_b + j) >= q_min_b);
    if constexpr (kTestMaxA) overlap = overlap & (Batch::load_unaligned(run.max_a + j) >= q_min_a);
    if (count == HitBuffer::kCapacity) [[unlikely]] {
      label(first, count);
      hits.count = count;
      flush(hits);
      first = count = hits.count;
    }
    const std::uint32_t bits = detail::lane_bits(overlap);
    hits.record[count] = HitBuffer::make(static_cast<std::uint32_t>(j) + index_tag, bits);
    count += bits != 0;
    // Sorted by min_a: once one lane is past q.max_a (or is NaN padding) all later ones are.
    if (!xsimd::all(in_range)) break;
  }
  label(first, count);
  hits.count = count;
}

// Scalar twin of scan_run_simd: the same hits in the same order, one candidate per step (and
// one record per hit).
template <bool kTestMaxA, class Flush>
inline void scan_run_scalar(const SortedRun& run, std::size_t start, const QueryBox& q,
                            std::uint32_t query_id, std::uint32_t index_tag, HitBuffer& hits,
                            Flush&& flush) {
  for (std::size_t j = start;; ++j) {
    // Written as !(x <= y) so NaN padding ends the scan exactly as in the SIMD version.
    if (!(run.min_a[j] <= q.max_a)) return;
    if (hits.count == HitBuffer::kCapacity) [[unlikely]]
      flush(hits);
    const bool overlap = run.min_b[j] <= q.max_b && run.max_b[j] >= q.min_b &&
                         (!kTestMaxA || run.max_a[j] >= q.min_a);
    hits.query[hits.count] = query_id;
    hits.record[hits.count] = HitBuffer::make(static_cast<std::uint32_t>(j) + index_tag, 1);
    hits.count += overlap;
  }
}

}  // namespace strut::broadphase
