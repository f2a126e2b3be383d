// A candidate pair from the broad phase: two proxy keys, lower first.
#pragma once

#include <cstdint>

namespace strut::broadphase {

// 8 bytes. Invariant a < b, so each unordered pair has exactly one representation.
struct Pair {
  std::uint32_t a = 0;
  std::uint32_t b = 0;
};

constexpr bool operator==(Pair x, Pair y) { return x.a == y.a && x.b == y.b; }
constexpr bool operator!=(Pair x, Pair y) { return !(x == y); }
// Lexicographic by (a, b): the canonical order of find_pairs' output.
constexpr bool operator<(Pair x, Pair y) { return x.a < y.a || (x.a == y.a && x.b < y.b); }

// Both keys in one integer whose unsigned order is the Pair order; used by the sorts.
constexpr std::uint64_t pair_key(Pair p) { return (std::uint64_t{p.a} << 32) | p.b; }

// The pair of two distinct proxies in canonical (lower, higher) form.
constexpr Pair make_pair(std::uint32_t p, std::uint32_t q) {
  return p < q ? Pair{p, q} : Pair{q, p};
}

}  // namespace strut::broadphase
