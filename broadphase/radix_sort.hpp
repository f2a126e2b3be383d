// Radix sort on float keys: the broad phase's fallback when its sorted order is far off.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

namespace strut::broadphase {

// Maps a float to an unsigned integer with the same order (the sign-flip trick): positive
// floats get their sign bit set, negative floats have every bit inverted so that larger
// magnitudes sort lower. -0.0f sorts just before +0.0f; finite floats keep their order exactly.
inline std::uint32_t float_sort_key(float f) {
  const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
  const std::uint32_t mask =
      static_cast<std::uint32_t>(-static_cast<std::int32_t>(u >> 31)) | 0x80000000u;
  return u ^ mask;
}

// Inverse of float_sort_key.
inline float float_from_sort_key(std::uint32_t k) {
  const std::uint32_t mask = (k >> 31) != 0 ? 0x80000000u : 0xffffffffu;
  return std::bit_cast<float>(k ^ mask);
}

// Stable LSD radix sort of `io` by the upper 32 bits of each element (3 passes of 11/11/10
// bits; passes whose digit is the same for every element are skipped). The lower 32 bits are a
// payload: callers store a proxy key there and feed the elements in proxy order, so ties come
// out ordered by proxy. `scratch` must be at least as long as `io`.
void radix_sort_by_high32(std::span<std::uint64_t> io, std::span<std::uint64_t> scratch);

}  // namespace strut::broadphase
